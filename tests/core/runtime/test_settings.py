"""Settings: defaults, validation, one clear line naming the variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.runtime.settings import DEFAULT_API_URL, SettingsError, load_settings, parse_settings


def test_defaults_run_the_sandbox_on_sqlite_with_an_in_process_lock() -> None:
    settings = parse_settings({})
    assert settings.sandbox and not settings.webhook
    assert settings.telegram_api_url == DEFAULT_API_URL
    assert settings.database_url.startswith("sqlite://")
    assert settings.redis_url is None
    assert (settings.host, settings.port) == ("127.0.0.1", 8080)
    assert settings.telegram_connections == 256


def test_a_full_production_configuration() -> None:
    settings = parse_settings(
        {
            "BOT_TOKEN": "123456:ABC-def_ghi",
            "TELEGRAM_API_URL": "http://127.0.0.1:8081/",
            "DATABASE_URL": "postgresql://u:p@db/stonetable",
            "REDIS_URL": "redis://redis:6379/0",
            "WEBAPP_URL": "https://play.example.org/app",
            "MINIAPP_SHORT_NAME": "table",
            "WEBHOOK_URL": "https://play.example.org/telegram/webhook",
            "WEBHOOK_SECRET": "s3cr3t",
            "HOST": "0.0.0.0",
            "PORT": "9000",
            "TELEGRAM_CONNECTIONS": "64",
        }
    )
    assert not settings.sandbox and settings.webhook
    assert settings.telegram_api_url == "http://127.0.0.1:8081"
    assert settings.database_url == "postgres://u:p@db/stonetable"
    assert settings.port == 9000
    assert settings.telegram_connections == 64


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"BOT_TOKEN": "not a token"}, "BOT_TOKEN"),
        ({"TELEGRAM_API_URL": "ftp://x"}, "TELEGRAM_API_URL"),
        ({"DATABASE_URL": "mysql://x"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://x"}, "REDIS_URL"),
        ({"BOT_TOKEN": "1:a", "WEBAPP_URL": "http://example.org/app"}, "WEBAPP_URL"),
        ({"WEBAPP_URL": "app.example.org"}, "WEBAPP_URL"),
        ({"MINIAPP_SHORT_NAME": "no spaces"}, "MINIAPP_SHORT_NAME"),
        ({"WEBHOOK_URL": "https://x.org/hook"}, "WEBHOOK_SECRET"),
        ({"WEBHOOK_URL": "https://x.org/hook", "WEBHOOK_SECRET": "bad secret!"}, "WEBHOOK_SECRET"),
        ({"PORT": "eighty"}, "PORT"),
        ({"PORT": "70000"}, "PORT"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"MIGRATE_ON_START": "maybe"}, "MIGRATE_ON_START"),
        ({"RATE_LIMIT": "sometimes"}, "RATE_LIMIT"),
        ({"TELEGRAM_CONNECTIONS": "0"}, "TELEGRAM_CONNECTIONS"),
        ({"HEAVY_WORKERS": "-1"}, "HEAVY_WORKERS"),
        ({"HEAVY_SECONDS": "0"}, "HEAVY_SECONDS"),
    ],
)
def test_a_wrong_value_names_its_variable_in_one_line(env: dict[str, str], variable: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_settings(env)
    message = str(caught.value)
    assert message.startswith(variable) and "\n" not in message


def test_heavy_work_has_one_process_per_cpu_and_ten_seconds_unless_told() -> None:
    default = parse_settings({})
    assert (default.heavy_workers, default.heavy_seconds) == (0, 10.0)  # 0: one per CPU
    told = parse_settings({"HEAVY_WORKERS": "3", "HEAVY_SECONDS": "2.5"})
    assert (told.heavy_workers, told.heavy_seconds) == (3, 2.5)


def test_the_sandbox_may_serve_the_mini_app_over_local_http() -> None:
    assert parse_settings({"WEBAPP_URL": "http://127.0.0.1:8080/app"}).webapp_url


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("PORT=9001\nHOST=0.0.0.0\n")
    settings = load_settings({"PORT": "9002"}, dotenv)
    assert (settings.host, settings.port) == ("0.0.0.0", 9002)
