"""Replaying a playground script through the real bot, for the tests that read its transcript."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

from bot.playground.session import Playground


def examples() -> Path:
    return Path(str(resources.files("content") / "examples"))


DEADLINE = 60.0  # seconds the emulator gives the bot to answer an interaction in a replay

# Transcripts already replayed in this process (without files_dir), by (script, profile): several tests of a
# module read the same replay; each replays it only once (under xdist, once per worker that runs one).
_replayed: dict[tuple[str, str], str] = {}


async def replay(name: str, files_dir: Path | None = None, *, discord: str = "quick") -> str:
    """The transcript of ``content/examples/NAME``; fails on any line the playground could not run, any request
    the emulator refused, and any traceback or apology in it. ``files_dir``: where sent files are saved;
    ``discord``: the emulator's profile (the test's ``discord_profile``; emulator/profiles.py)."""
    if files_dir is None and (name, discord) in _replayed:
        return _replayed[(name, discord)]
    text = await _replay(name, files_dir, discord)
    if files_dir is None:
        _replayed[(name, discord)] = text
    return text


async def _replay(name: str, files_dir: Path | None, discord: str) -> str:
    out = io.StringIO()
    playground = Playground(out, echo=True, base_dir=examples(), files_dir=files_dir, discord=discord)
    async with playground.running():
        # A transcript is about what the bot says, not about Discord's 3 s (measured in bench/): on a loaded
        # machine a stall must not turn an answer into a refused late one. The deadline's own tests set it.
        playground.emu.interaction_deadline = DEADLINE
        for line in (examples() / name).read_text(encoding="utf-8").splitlines():
            assert await playground.run_line(line)
        assert playground.emu.refusals == []
    text = out.getvalue()
    assert playground.errors == 0, text
    assert "Traceback" not in text and "Sorry, something went wrong" not in text
    return text
