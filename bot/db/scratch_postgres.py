"""A scratch PostgreSQL server on loopback, for the test suite and the benchmark.

Started from Debian's server binaries in a temporary folder, as the ``postgres`` user when we are
root (PostgreSQL refuses to run as root), on a free 127.0.0.1 port, and removed by ``stop``. The tests
want speed (fsync off); the benchmark wants the server's real durability (``durable=True``).
"""

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
class ScratchServer:
    url: str
    version: str
    stop: Callable[[], None]
    pause: Callable[[], None] = lambda: None  # `pg_ctl stop`, keeping the data: a server that stopped answering
    resume: Callable[[], None] = lambda: None  # `pg_ctl start` again after a pause


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


def _run_as_postgres(base: Path) -> list[str] | str:
    """What a command is prefixed with so that it runs as the postgres user, who is given ``base`` (nothing unless
    this runs as root: PostgreSQL refuses root); or the reason it cannot."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        return "running as root without runuser"
    try:
        shutil.chown(base, "postgres", "postgres")
    except (LookupError, PermissionError) as exc:
        return f"no postgres user to run the server as ({exc})"
    return [runuser, "-u", "postgres", "--"]


def start_scratch_postgres(database: str, *, durable: bool = False, max_connections: int = 100) -> ScratchServer | str:
    """A running server with an empty ``database``, or the reason there is none (to skip on)."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        return "PostgreSQL server binaries not found"
    base = Path(tempfile.mkdtemp(prefix=f"{database}-pg-"))
    prefix = _run_as_postgres(base)
    if isinstance(prefix, str):
        return prefix
    data, port = base / "data", _free_port()

    def run(*args: str) -> str:
        done = subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=60, text=True)
        return done.stdout

    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c max_connections={max_connections}"
    if not durable:
        initdb.append("--no-sync")
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    def start() -> None:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(base / "log"), "-w", "start")

    def pause() -> None:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")

    try:
        run(*initdb)
        start()
        run(str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", database)
        version = run(str(bin_dir / "postgres"), "--version").strip()
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(base, ignore_errors=True)
        return f"could not start PostgreSQL: {exc}"

    def stop() -> None:
        mode = "fast" if durable else "immediate"
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", mode, "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)

    return ScratchServer(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/{database}", version, stop, pause, start)
