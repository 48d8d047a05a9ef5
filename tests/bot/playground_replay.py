"""Replaying a playground script through the real bot, once per script and profile in a test run, for every test
that reads it: the transcript (tests/bot/test_playground_*.py), and every public message the bot posted with the
events it stored (tests/playground/test_example_scripts.py). Tests take the ``replays`` fixture and await
``replays(NAME)``; under pytest-xdist the first worker to ask replays the script and the others read its copy."""

from __future__ import annotations

import fcntl
import io
import json
import pickle
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text as sql

from bot.playground.session import SCRIPT_SEED, Playground


def examples() -> Path:
    return Path(str(resources.files("content") / "examples"))


DEADLINE = 60.0  # seconds the emulator gives the bot to answer an interaction in a replay


@dataclass(frozen=True)
class Posted:
    """One version of one public message, as a reader sees it (content, titles, descriptions, fields, footer)."""

    message_id: int
    channel_id: int
    version: int  # 0 the first; each edit the next
    text: str


@dataclass(frozen=True)
class Replay:
    script: str
    text: str  # the transcript, as the playground printed it
    files: Path  # where the files the bot sent were saved (001-NAME, 002-NAME ... in arrival order)
    posted: tuple[Posted, ...]  # every public message (not an ephemeral answer, a DM or the GM channel), in order
    events: tuple[tuple[int, str, dict[str, Any]], ...]  # id, kind, payload
    secret_rolls: bool


class Replays:
    """The replays of this test run, kept in ``root`` (a folder every worker of the run shares): a script's first
    replay is pickled there with the files the bot sent, under a lock, and read back by every later test."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._read: dict[tuple[str, str], Replay] = {}

    async def __call__(self, name: str, *, discord: str = "quick") -> Replay:
        """The replay of ``content/examples/NAME``; fails on any line the playground could not run, any request the
        emulator refused, and any traceback or apology in it. ``discord``: the emulator's profile (the test's
        ``discord_profile``; emulator/profiles.py)."""
        if (name, discord) not in self._read:
            folder = self.root / f"{Path(name).stem}-{discord}"
            with _locked(self.root / f"{folder.name}.lock"):
                saved = folder / "replay.pickle"
                if saved.exists():
                    replay = pickle.loads(saved.read_bytes())
                else:
                    replay = await _replay(name, discord, folder)
                    saved.write_bytes(pickle.dumps(replay))
            self._read[(name, discord)] = replay
        return self._read[(name, discord)]


@pytest.fixture(scope="session")
def replays(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Replays:
    """``await replays(NAME, discord=PROFILE)``: the replay of ``content/examples/NAME`` (``Replays``)."""
    base = tmp_path_factory.getbasetemp()
    root = (base if worker_id == "master" else base.parent) / "replays"  # a worker's parent is this run's
    root.mkdir(exist_ok=True)
    return Replays(root)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Held by one process at a time: the others wait (a worker runs one test at a time, so blocking is fine)."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


async def _replay(name: str, discord: str, files: Path) -> Replay:
    out = io.StringIO()
    playground = Playground(out, echo=True, base_dir=examples(), files_dir=files, discord=discord,
                            seed=SCRIPT_SEED)  # as `--script` replays it: the same every run
    async with playground.running():
        # A transcript is about what the bot says, not about Discord's 3 s (measured in bench/): on a loaded
        # machine a stall must not turn an answer into a refused late one. The deadline's own tests set it.
        playground.emu.interaction_deadline = DEADLINE
        for line in (examples() / name).read_text(encoding="utf-8").splitlines():
            assert await playground.run_line(line)
        assert playground.emu.refusals == []
        posted, events, secret = await _public(playground)
    text = out.getvalue()
    assert playground.errors == 0, text
    assert "Traceback" not in text and "Sorry, something went wrong" not in text
    return Replay(name, text, files, posted, events, secret)


async def _public(playground: Playground) -> tuple[tuple[Posted, ...], tuple[tuple[int, str, dict[str, Any]], ...],
                                                   bool]:
    """The public messages the bot posted, the events it stored, and whether secret rolls were on anywhere."""
    async with playground._db.engine.connect() as connection:
        gm_channels = {int(row[0]) for row in await connection.execute(
            sql("SELECT gm_channel_id FROM guild_settings WHERE gm_channel_id IS NOT NULL"))}
        secret = bool((await connection.execute(
            sql("SELECT count(*) FROM guild_settings WHERE secret_rolls"))).scalar_one())
        events = tuple((int(row[0]), str(row[1]), _json(row[2])) for row in await connection.execute(
            sql("SELECT id, kind, payload FROM events ORDER BY id")))
    emu = playground.emu
    posted: list[Posted] = []
    for message in emu.messages(include_ephemeral=False):
        channel = emu.state.channel(message.channel_id)
        if message.author.id != emu.bot.id or channel.guild_id is None or channel.id in gm_channels:
            continue
        bodies = [*message.revisions, {"content": message.content, "embeds": message.embeds}]
        posted += [Posted(message.id, message.channel_id, n, body_text(b)) for n, b in enumerate(bodies)]
    return tuple(posted), events, secret


def body_text(body: Mapping[str, Any]) -> str:
    parts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name', '')}: {f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append(str((embed.get("footer") or {}).get("text", "")))
    return "\n".join(p for p in parts if p).replace("\\_", "_")  # an escaped underscore reads as one


def _json(value: Any) -> dict[str, Any]:
    loaded = json.loads(value) if isinstance(value, str | bytes) else value
    return dict(loaded or {})
