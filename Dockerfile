FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /srv/stonetable
# DejaVu Sans draws the /map picture.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml constraints.txt README.md ./
COPY core core
COPY tgbot tgbot
COPY webapp webapp
COPY migrations migrations
# the message catalogues (.po), read at start-up (core/words/i18n.py)
COPY locale locale
RUN pip install --no-cache-dir -c constraints.txt . \
 && useradd --system --home /srv/stonetable stonetable
USER stonetable
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/healthz').status != 200)"
CMD ["python", "-m", "tgbot", "run"]
