# Stonetable: `make run` starts the bot (the sandbox when no BOT_TOKEN is set),
# `make test` runs every check and test. Both create the virtualenv on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test lint typecheck check-migrations unit test-postgres thorough bench migrate clean messages check-messages

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m tgbot run

migrate: $(STAMP)
	$(BIN)/python -m tgbot migrate

# The PostgreSQL pass runs beside the SQLite one (the servers its tests start listen on ports of
# their own, tests/support/bot_api.py; its temporary files have a folder of their own); its output follows the SQLite
# pass's, and either pass failing fails the run.
test: lint
	@rm -f .test-postgres.log; \
	$(MAKE) --no-print-directory test-postgres PYTEST_ARGS="--basetemp=$${TMPDIR:-/tmp}/stonetable-postgres-pass" \
	  > .test-postgres.log 2>&1 & postgres=$$!; \
	$(MAKE) --no-print-directory unit; sqlite=$$?; \
	wait $$postgres; pg=$$?; \
	echo "==== the PostgreSQL pass ===="; cat .test-postgres.log; \
	if [ $$sqlite -ne 0 ] || [ $$pg -ne 0 ]; then exit 1; fi

lint: $(STAMP) typecheck check-migrations
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy core/rules
	$(BIN)/mypy core tgbot webapp

# Fails when the models changed without a migration (and writes the missing one for review).
check-migrations: $(STAMP)
	@out=$$(DATABASE_URL=sqlite://:memory: $(BIN)/tortoise makemigrations 2>&1); echo "$$out"; \
	  echo "$$out" | grep -q "No changes detected" || { echo "Models and migrations differ: review the new migration."; exit 1; }

# Everything on SQLite (with real Redis, the local Bot API server and Chromium).
unit: $(STAMP)
	$(BIN)/pytest

# The database tests again, on a real PostgreSQL started by the tests (the browser tests,
# which look at pages the same whatever the store, and the backend-neutral ones, which
# check words through the same store access as tests run here, run once, in the SQLite pass).
test-postgres: $(STAMP)
	STONETABLE_TEST_DB=postgres $(BIN)/pytest -m "db and not browser and not backend_neutral" $(PYTEST_ARGS)

# Words: collect every marked message into locale/messages.pot and merge it into each
# language's catalogue (new messages arrive empty, changed ones fuzzy: translate them).
PYBABEL := PYTHONPATH=. $(BIN)/pybabel
messages: $(STAMP)
	$(PYBABEL) extract -F babel.cfg -k N_ -k ngettext:1,2 -k pgettext:1c,2 \
	  --no-location --sort-output --omit-header -o locale/messages.pot .
	for dir in locale/*/; do \
	  $(PYBABEL) update -i locale/messages.pot -d locale -D messages --no-fuzzy-matching --ignore-obsolete \
	    -l $$(basename $$dir); done

# Every catalogue has every message and plural form, nothing fuzzy (also run by pytest).
check-messages: $(STAMP)
	$(BIN)/pytest -q tests/core/words/test_i18n_catalogue.py tests/core/words/test_russian_style.py \
	  tests/core/words/test_russian_gender.py

# The thorough properties with their full number of examples (``make test`` tries a
# bounded number: tests/support/examples.py).
thorough: $(STAMP)
	STONETABLE_THOROUGH=1 $(BIN)/pytest -m slow

bench: $(STAMP)
	$(BIN)/python -m tests.bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
