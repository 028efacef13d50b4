"""Settings, read once at start-up from the environment (and an optional .env).

``load_settings`` is the only place that reads the environment; everything else
receives a :class:`Settings` value. A wrong or missing value raises
:class:`SettingsError` with one line that names the variable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_API_URL = "https://api.telegram.org"
DEFAULT_DATABASE_URL = "sqlite://data/stonetable.sqlite3"
_TOKEN = re.compile(r"^\d+:[A-Za-z0-9_-]+$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_SHORT_NAME = re.compile(r"^[A-Za-z0-9_]{3,64}$")
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class SettingsError(Exception):
    """A configuration value is wrong or missing; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    bot_token: str | None
    telegram_api_url: str
    database_url: str
    redis_url: str | None
    webapp_url: str | None
    miniapp_short_name: str | None
    webhook_url: str | None
    webhook_secret: str | None
    host: str
    port: int
    initdata_max_age: int = 86400
    lock_lease_seconds: float = 4.0
    lock_wait_seconds: float = 6.0
    log_level: str = "INFO"
    migrate_on_start: bool = True
    rate_limit: bool = True
    telegram_connections: int = 256
    webhook_answer_seconds: float = 25.0
    heavy_workers: int = 0  # processes for CPU-heavy work (odds, large rolls); 0: one per CPU
    heavy_seconds: float = 10.0  # the longest such a job may run before it is stopped

    @property
    def sandbox(self) -> bool:
        """No token: run against the built-in stand-in for Telegram."""
        return self.bot_token is None

    @property
    def webhook(self) -> bool:
        return self.webhook_url is not None

    @property
    def public_origin(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{host}:{self.port}"


def _url(name: str, value: str, schemes: set[str], *, local_http: bool = False) -> str:
    parts = urlsplit(value)
    allowed = set(schemes)
    if local_http and (parts.hostname or "") in _LOCAL_HOSTS:
        allowed.add("http")
    if parts.scheme not in allowed or not (parts.netloc or parts.path):
        wanted = " or ".join(sorted(allowed))
        raise SettingsError(f"{name} must be a {wanted} URL, got {value!r}")
    return value.rstrip("/")


def _int(name: str, value: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, got {value!r}") from None
    if not low <= number <= high:
        raise SettingsError(f"{name} must be between {low} and {high}, got {number}")
    return number


def _flag(name: str, value: str) -> bool:
    if value.lower() in ("true", "1", "yes", "on"):
        return True
    if value.lower() in ("false", "0", "no", "off"):
        return False
    raise SettingsError(f"{name} must be true or false, got {value!r}")


def _number(name: str, value: str, low: float, high: float) -> float:
    try:
        number = float(value)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, got {value!r}") from None
    if not low <= number <= high:
        raise SettingsError(f"{name} must be between {low} and {high}, got {number}")
    return number


def parse_settings(env: Mapping[str, str]) -> Settings:
    """Build settings from a mapping of variables.

    Raises:
        SettingsError: a value is wrong or a required value is missing.
    """

    def get(name: str) -> str | None:
        value = env.get(name, "").strip()
        return value or None

    token = get("BOT_TOKEN")
    if token is not None and not _TOKEN.match(token):
        raise SettingsError("BOT_TOKEN must look like 123456789:AA... (the token from BotFather)")
    api_url = _url(
        "TELEGRAM_API_URL", get("TELEGRAM_API_URL") or DEFAULT_API_URL, {"https", "http"}
    )
    database_url = get("DATABASE_URL") or DEFAULT_DATABASE_URL
    scheme = database_url.split("://", 1)[0] if "://" in database_url else ""
    if scheme == "postgresql":
        database_url = "postgres://" + database_url.split("://", 1)[1]
    elif scheme not in ("sqlite", "postgres"):
        raise SettingsError(
            f"DATABASE_URL must start with sqlite:// or postgres://, got {database_url!r}"
        )
    redis_url = get("REDIS_URL")
    if redis_url is not None:
        redis_url = _url("REDIS_URL", redis_url, {"redis", "rediss", "unix"})
    host = get("HOST") or "127.0.0.1"
    port = _int("PORT", get("PORT") or "8080", 1, 65535)
    webapp_url = get("WEBAPP_URL")
    if webapp_url is not None:
        webapp_url = _url("WEBAPP_URL", webapp_url, {"https"}, local_http=True)
    short_name = get("MINIAPP_SHORT_NAME")
    if short_name is not None and not _SHORT_NAME.match(short_name):
        raise SettingsError("MINIAPP_SHORT_NAME must be the app's short name from BotFather")
    webhook_url = get("WEBHOOK_URL")
    webhook_secret = get("WEBHOOK_SECRET")
    if webhook_url is not None:
        webhook_url = _url("WEBHOOK_URL", webhook_url, {"https"}, local_http=True)
        if webhook_secret is None:
            raise SettingsError("WEBHOOK_SECRET is required when WEBHOOK_URL is set")
    if webhook_secret is not None and not _SECRET.match(webhook_secret):
        raise SettingsError("WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
    lease = _number("LOCK_LEASE_SECONDS", get("LOCK_LEASE_SECONDS") or "4", 0.5, 300)
    wait = _number("LOCK_WAIT_SECONDS", get("LOCK_WAIT_SECONDS") or "6", 0.1, 300)
    migrate = _flag("MIGRATE_ON_START", get("MIGRATE_ON_START") or "true")
    rate_limit = _flag("RATE_LIMIT", get("RATE_LIMIT") or "true")
    log_level = (get("LOG_LEVEL") or "INFO").upper()
    if log_level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {log_level!r}")
    return Settings(
        bot_token=token,
        telegram_api_url=api_url,
        database_url=database_url,
        redis_url=redis_url,
        webapp_url=webapp_url,
        miniapp_short_name=short_name,
        webhook_url=webhook_url,
        webhook_secret=webhook_secret,
        host=host,
        port=port,
        initdata_max_age=_int("INITDATA_MAX_AGE", get("INITDATA_MAX_AGE") or "86400", 60, 604800),
        log_level=log_level,
        migrate_on_start=migrate,
        rate_limit=rate_limit,
        telegram_connections=_int(
            "TELEGRAM_CONNECTIONS", get("TELEGRAM_CONNECTIONS") or "256", 1, 4096
        ),
        lock_lease_seconds=lease,
        lock_wait_seconds=wait,
        webhook_answer_seconds=_number(
            "WEBHOOK_ANSWER_SECONDS", get("WEBHOOK_ANSWER_SECONDS") or "25", 0.1, 50
        ),
        heavy_workers=_int("HEAVY_WORKERS", get("HEAVY_WORKERS") or "0", 0, 256),
        heavy_seconds=_number("HEAVY_SECONDS", get("HEAVY_SECONDS") or "10", 0.5, 60),
    )


def load_settings(environ: Mapping[str, str], dotenv: Path | None = Path(".env")) -> Settings:
    """Read settings from a .env file (if present) overlaid by the real environment."""
    values: dict[str, str] = {}
    if dotenv is not None and dotenv.is_file():
        from dotenv import dotenv_values

        values.update({k: v for k, v in dotenv_values(dotenv).items() if v is not None})
    values.update(environ)
    return parse_settings(values)
