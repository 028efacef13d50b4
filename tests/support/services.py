"""Real servers for tests: redis-server and PostgreSQL on free loopback ports.

A missing binary skips the test with a visible reason, except under CI=true,
where it fails the run (CI installs every server).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.bot_api import free_port

IN_CI = os.environ.get("CI", "").lower() == "true"


def unavailable(reason: str) -> None:
    """Skip outside CI; fail in CI."""
    if IN_CI:
        pytest.fail(f"{reason} (CI must provide it)", pytrace=False)
    pytest.skip(reason)


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


@dataclass
class RedisServer:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def start_redis(directory: Path, port: int | None = None) -> RedisServer:
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed")
    assert binary is not None
    port = port or free_port()
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(directory),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port)
    return RedisServer(port, process)


@dataclass
class PostgresServer:
    port: int
    directory: Path
    bin_dir: Path
    options: str = ""

    def url(self, database: str = "postgres") -> str:
        return f"postgres://stonetable@127.0.0.1:{self.port}/{database}"

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(
            _as_postgres([str(self.bin_dir / "pg_ctl"), "-D", str(self.directory / "data"), *args]),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        """Stop the server at once, as a crash would."""
        self._pg_ctl("-m", "immediate", "-w", "stop")

    def start(self) -> None:
        """Start it again on the same port and data."""
        self._pg_ctl("-o", self.options, "-w", "-l", str(self.directory / "log"), "start")


def _pg_bin() -> Path | None:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.insert(0, found)
    return Path(candidates[0]).parent if candidates else None


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextmanager
def running_postgres(*, durable: bool = False) -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL; ``durable`` keeps fsync and synchronous commits on
    (for crash tests: otherwise an immediate stop may lose committed work)."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        unavailable("PostgreSQL (initdb) is not installed")
    assert bin_dir is not None
    directory = Path(tempfile.mkdtemp(prefix="stonetable-pg-"))
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    data = directory / "data"
    port = free_port()
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-A",
                "trust",
                "-U",
                "stonetable",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    speed = "" if durable else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    options = (
        f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 {speed}-c max_connections=200"
    )
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-w",
                "-l",
                str(directory / "log"),
                "start",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    try:
        yield PostgresServer(port, directory, bin_dir, options)
    finally:
        subprocess.run(
            _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(directory, ignore_errors=True)
