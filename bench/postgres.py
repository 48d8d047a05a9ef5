"""A throwaway PostgreSQL server for the benchmark, started as in tests/conftest.py (as the postgres
user when we are root), but with the server's default durability: fsync and synchronous_commit on."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class PgServer:
    url: str
    version: str
    stop: Callable[[], None]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def start_postgres() -> PgServer | str:
    """A running server with an empty ``grievous_bench`` database, or the reason there is none."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        return "PostgreSQL server binaries not found"
    prefix: list[str] = []
    base = Path(tempfile.mkdtemp(prefix="grievous-bench-pg-"))
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            return "running as root without runuser"
        try:
            shutil.chown(base, "postgres", "postgres")
        except (LookupError, PermissionError) as exc:
            return f"no postgres user to run the server as ({exc})"
        prefix = [runuser, "-u", "postgres", "--"]
    data, port = base / "data", _free_port()

    def run(*args: str) -> str:
        done = subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=60, text=True)
        return done.stdout

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c max_connections=200"
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(base / "log"), "-w", "start")
        run(str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "grievous_bench")
        version = run(str(bin_dir / "postgres"), "--version").strip()
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(base, ignore_errors=True)
        return f"could not start PostgreSQL: {exc}"

    def stop() -> None:
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)

    return PgServer(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/grievous_bench", version, stop)
