"""A bot in a process of its own, logged in to an emulator running in this one: start, SIGKILL, restart.

    bot = BotProcess(emu, ["bot.cli:main", "run"], env={"DATABASE_URL": url}, log_path=tmp / "bot.log")
    await bot.start()            # returns once its gateway sessions are live
    bot.kill()                   # SIGKILL: no cleanup, like a crash or the OOM killer
    await bot.start()            # the same program again (a new process)
    await bot.stop()             # SIGINT, then SIGKILL if it lingers
    bot.terminate()              # SIGTERM, as systemctl stop and docker stop send

The program runs through `python -m emulator.launch`, so it is the production entry point with only
discord.py's two addresses redirected. Its output goes to ``log_path`` (appended across restarts).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from .server import Emulator

ROOT = Path(__file__).resolve().parent.parent


class BotProcess:
    def __init__(self, emu: Emulator, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                 log_path: Path, shards: Sequence[int] = (0,), name: str = "bot") -> None:
        """``argv`` is ``MODULE:FUNCTION`` and its arguments; ``shards`` are the shard ids it will identify
        (what `start` waits for); DISCORD_TOKEN is set to the emulator's token."""
        self.emu = emu
        self.argv = list(argv)
        self.env = dict(env or {})
        self.log_path = log_path
        self.shards = tuple(shards)
        self.name = name
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def session_ids(self) -> set[str]:
        return set(self.emu.gateway.sessions)

    async def start(self, within: float = 30.0) -> None:
        """Start the program and wait until each of its shards has a live gateway session."""
        assert not self.running, f"{self.name} is already running"
        before = self.session_ids()
        env = {**os.environ, "DISCORD_TOKEN": self.emu.token, "PYTHONUNBUFFERED": "1", **self.env}
        with self.log_path.open("ab") as log:
            log.write(f"--- {self.name}: start {self.starts + 1}\n".encode())
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "emulator.launch", self.emu.base_url, *self.argv,
                env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.starts += 1

        def live() -> bool:
            if not self.running:
                raise RuntimeError(f"{self.name} exited with {self.process and self.process.returncode}:\n"
                                   + self.log()[-3000:])
            new = [s for s in self.emu.gateway.live_sessions if s.id not in before and s.shard_id in self.shards]
            return sorted(s.shard_id for s in new) == sorted(self.shards)

        try:
            await self.emu.wait_until(live, within, f"{self.name} to connect shards {list(self.shards)}")
        except TimeoutError:
            self.kill()
            await self.wait()
            raise TimeoutError(f"{self.name} did not connect within {within}s:\n{self.log()[-3000:]}") from None

    def kill(self) -> None:
        """SIGKILL: the process ends at once, mid-transaction or mid-request."""
        if self.running:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)

    def signal(self, number: int = signal.SIGTERM) -> None:
        """Send ``number`` (SIGTERM: what systemctl stop and docker stop send) and return at once."""
        if self.running:
            assert self.process is not None
            self.process.send_signal(number)

    def terminate(self) -> None:
        self.signal(signal.SIGTERM)

    async def wait(self, within: float = 10.0) -> int | None:
        if self.process is None:
            return None
        return await asyncio.wait_for(self.process.wait(), within)

    async def stop(self, within: float = 10.0) -> None:
        """Ctrl-C (the program closes the bot and its database), then SIGKILL if it is still there."""
        if not self.running:
            return
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        try:
            await self.wait(within)
        except TimeoutError:
            self.kill()
            with contextlib.suppress(TimeoutError):
                await self.wait(within)
