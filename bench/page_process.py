"""A `grievous web` process for a benchmark: the campaign page served beside the bot, on the bot's database.

bench.web_pages runs its viewers against the bot's own web page and against one of these, to compare what the
page costs the bot in each layout. The process is the production command (``python -m bot web``) with its
environment set the way an operator would set it; its event-loop watchdog's stalls are read back from its JSON
log lines (bot/ops/logs.py: ``stall_ms``, ``cpu_ms``, ``wait_ms``, ``held_ms``, ``task``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.proxy_check import free_port
from bot.ops.watchdog import Stall

ROOT = Path(__file__).resolve().parent.parent
READY_WITHIN = 60.0  # seconds for the process to listen (a loaded machine)


def cache_counts(metrics: str) -> tuple[int, int]:
    """The page cache's hits and misses so far, summed over the pages, from a process's Prometheus text."""
    totals = {"hits": 0.0, "misses": 0.0}
    for line in metrics.splitlines():
        for kind in totals:
            if line.startswith(f"grievous_web_page_cache_{kind}_total"):
                totals[kind] += float(line.rsplit(" ", 1)[1])
    return int(totals["hits"]), int(totals["misses"])


def stall_of(line: dict[str, object]) -> Stall | None:
    """The stall a JSON log line of the watchdog reports (None: another line). ``held`` comes out as logged: the
    others' wait is what the log's held leaves of the blocked time."""
    if line.get("logger") != "grievous.watchdog" or "stall_ms" not in line:
        return None

    def seconds(key: str) -> float:
        value = line.get(key, 0)
        return float(value) / 1000 if isinstance(value, int | float) else 0.0

    total, cpu, wait = seconds("stall_ms"), seconds("cpu_ms"), seconds("wait_ms")
    held = seconds("held_ms") if "held_ms" in line else max(0.0, total - wait)
    task = line.get("task")
    return Stall(total, cpu, wait, None, task is not None, (), task=task if isinstance(task, str) else None,
                 others_waiting_seconds=max(0.0, total - wait - held))


@dataclass
class PageProcess:
    """``python -m bot web`` on ``database_url``; ``stalls``: each stall it logged, with when it was read."""

    database_url: str
    stall_ms: int
    port: int = field(default_factory=free_port)
    health_port: int = field(default_factory=free_port)  # its /healthz and /metrics
    stalls: list[tuple[float, Stall]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # its ERROR lines (a page that failed), kept for the report
    _process: asyncio.subprocess.Process | None = None
    _reader: asyncio.Task[None] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        env = {**os.environ, "DATABASE_URL": self.database_url, "WEB_HOST": "127.0.0.1", "WEB_PORT": str(self.port),
               "WEB_BASE_URL": self.base_url, "HEALTH_HOST": "127.0.0.1", "HEALTH_PORT": str(self.health_port),
               "STALL_LOG_MS": str(self.stall_ms), "LOG_FORMAT": "json", "LOG_LEVEL": "WARNING"}
        env.pop("DISCORD_TOKEN", None)
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "web", cwd=str(ROOT), env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        self._reader = asyncio.create_task(self._read(), name="bench page process log")
        await self._listening()

    async def _listening(self) -> None:
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.returncode is not None:
                raise RuntimeError(f"`python -m bot web` exited with {self._process.returncode}: "
                                   f"{self.errors[-1] if self.errors else 'no error logged'}")
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            await asyncio.sleep(0.2)
        raise RuntimeError(f"`python -m bot web` did not listen on {self.port} within {READY_WITHIN:g} s")

    async def _read(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        async for raw in self._process.stderr:
            try:
                line = json.loads(raw)
            except ValueError:
                self.errors.append(raw.decode(errors="replace").strip())
                continue
            if not isinstance(line, dict):
                continue
            stall = stall_of(line)
            if stall is not None:
                self.stalls.append((time.monotonic(), stall))
            elif line.get("level") in ("ERROR", "CRITICAL"):
                self.errors.append(str(line.get("message")))

    async def metrics(self) -> str:
        """Its Prometheus text (the page cache's hits and misses, among the rest)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.health_port)
        writer.write(b"GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        answer = await reader.read()
        writer.close()
        return answer.split(b"\r\n\r\n", 1)[-1].decode()

    def stalls_since(self, since: float) -> list[Stall]:
        return [stall for at, stall in self.stalls if at >= since]

    async def stop(self) -> int | None:
        """SIGTERM, as an operator's stop; its exit code."""
        process = self._process
        if process is None:
            return None
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 5)
        return process.returncode
