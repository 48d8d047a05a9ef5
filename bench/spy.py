"""py-spy sampling a running process for the benchmarks (``bench.scaling --mix --spy``): CPU samples of every thread,
written as py-spy's raw stacks for ``bench.profile_summary``.

py-spy is a tool, not a project dependency: install it into the venv by hand (``.venv/bin/pip install py-spy``).
It reads the process's memory (ptrace), so it needs the right to: root, or ``kernel.yama.ptrace_scope`` 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import sys
from pathlib import Path

from bench.profile_summary import SPY_RATE

MISSING = ("--spy needs py-spy, which is not installed: `.venv/bin/pip install py-spy` "
           "(a benchmark tool, not a project dependency)")
STARTED = b"Sampling process"  # py-spy's line once it is attached and sampling
WAIT = 30.0


def executable() -> str | None:
    """py-spy beside this Python (the venv's bin), else on PATH."""
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.is_file() else shutil.which("py-spy")


class Recording:
    """``py-spy record`` of ``pid``: all threads (``--threads``), idle ones left out (its default), full file names,
    ``--format raw``. ``start`` returns once py-spy samples; ``stop`` interrupts it, and py-spy writes ``out``."""

    def __init__(self, pid: int, out: Path, rate: int = SPY_RATE) -> None:
        self.pid, self.out, self.rate = pid, out, rate
        self._process: asyncio.subprocess.Process | None = None
        self._said: list[bytes] = []
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        found = executable()
        if found is None:
            raise RuntimeError(MISSING)
        self.out.unlink(missing_ok=True)
        self._process = await asyncio.create_subprocess_exec(
            found, "record", "--pid", str(self.pid), "--rate", str(self.rate), "--format", "raw",
            "--output", str(self.out), "--threads", "--full-filenames",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        started = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(started))
        try:
            await asyncio.wait_for(started, WAIT)
        except (TimeoutError, EOFError):
            await self._end()
            raise RuntimeError(f"py-spy did not start sampling process {self.pid}: {self.said()}") from None

    async def _read(self, started: asyncio.Future[None]) -> None:
        """What py-spy says (on stdout), read to the end so that it never fills the pipe; ``started``: it samples."""
        assert self._process is not None and self._process.stdout is not None
        async for line in self._process.stdout:
            self._said = ([*self._said, line])[-20:]
            if STARTED in line and not started.done():
                started.set_result(None)
        if not started.done():
            started.set_exception(EOFError())

    def said(self) -> str:
        return b"".join(self._said).decode(errors="replace").strip() or "(nothing)"

    async def stop(self) -> Path:
        """Stop sampling; py-spy writes its file as it exits. The file, or an error with what py-spy said."""
        code = await self._end()
        if not self.out.is_file():
            raise RuntimeError(f"py-spy exited ({code}) without writing {self.out}: {self.said()}")
        return self.out

    async def _end(self) -> int | None:
        process, self._process = self._process, None
        if process is None:
            return None
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(process.wait(), WAIT)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._reader is not None:
            with contextlib.suppress(EOFError):
                await self._reader
        return process.returncode
