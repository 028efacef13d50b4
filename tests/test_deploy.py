"""The compose file validates and describes the production layout."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.support.services import unavailable

ROOT = Path(__file__).resolve().parents[1]


def compose(*args: str) -> str:
    binary = shutil.which("docker-compose")
    if binary is None:
        unavailable("docker-compose is not installed")
    env = {**os.environ, "DOMAIN": "play.example.org", "BOT_TOKEN": "123:abc",
           "WEBHOOK_SECRET": "secret"}
    result = subprocess.run([str(binary), "-f", str(ROOT / "docker-compose.yml"), *args],
                            env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_compose_config_is_valid_with_two_workers_behind_a_proxy() -> None:
    compose("config", "-q")
    services = set(compose("config", "--services").split())
    assert {"app1", "app2", "proxy", "postgres", "redis", "migrate"} <= services
    volumes = set(compose("config", "--volumes").split())
    assert {"postgres-data", "redis-data"} <= volumes
    rendered = compose("config")
    assert rendered.count("WEBHOOK_URL: https://play.example.org/telegram/webhook") == 2
    assert rendered.count("healthcheck:") >= 4
