"""What the per-script test reads of a replayed playground script: every version of every public message the bot
posted (not an ephemeral answer, a DM or the GM channel), the events the bot stored, and the internal names of
the shipped content packs (every id that is not what the pack shows players)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import text

from bot.playground.session import Playground
from tests.bot.playground_replay import examples

PACKS = ("ars_harn", "pendragon", "fading_suns")
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")  # snake_case: great_axe, upper_arm, saxon_warrior


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
    posted: tuple[Posted, ...]  # in the order the messages were made
    events: tuple[tuple[int, str, dict[str, Any]], ...]  # id, kind, payload
    secret_rolls: bool
    transcript: str  # what the playground printed


def body_text(body: Mapping[str, Any]) -> str:
    parts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name', '')}: {f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append(str((embed.get("footer") or {}).get("text", "")))
    return "\n".join(p for p in parts if p).replace("\\_", "_")  # an escaped underscore reads as one


async def replay_public(script: str) -> Replay:
    out = io.StringIO()
    playground = Playground(out, echo=True, base_dir=examples())
    async with playground.running():
        for line in (examples() / script).read_text(encoding="utf-8").splitlines():
            assert await playground.run_line(line)
        assert playground.errors == 0 and playground.emu.refusals == []
        async with playground._db.engine.connect() as connection:
            gm_channels = {int(row[0]) for row in await connection.execute(
                text("SELECT gm_channel_id FROM guild_settings WHERE gm_channel_id IS NOT NULL"))}
            secret = bool((await connection.execute(
                text("SELECT count(*) FROM guild_settings WHERE secret_rolls"))).scalar_one())
            events = tuple((int(row[0]), str(row[1]), _json(row[2])) for row in await connection.execute(
                text("SELECT id, kind, payload FROM events ORDER BY id")))
        emu = playground.emu
        posted: list[Posted] = []
        for message in emu.messages(include_ephemeral=False):
            channel = emu.state.channel(message.channel_id)
            if message.author.id != emu.bot.id or channel.guild_id is None or channel.id in gm_channels:
                continue
            bodies = [*message.revisions, {"content": message.content, "embeds": message.embeds}]
            posted += [Posted(message.id, message.channel_id, n, body_text(b)) for n, b in enumerate(bodies)]
    return Replay(script, tuple(posted), events, secret, out.getvalue())


def _json(value: Any) -> dict[str, Any]:
    loaded = json.loads(value) if isinstance(value, str | bytes) else value
    return dict(loaded or {})


def _pack_documents(pack: str) -> Iterator[Any]:
    for path in sorted(Path(str(resources.files("content") / pack)).glob("*.yaml")):
        yield yaml.safe_load(path.read_text(encoding="utf-8"))


def internal_names() -> dict[str, str]:
    """Every id in the shipped packs that differs from what the pack shows players, with what it shows: a
    snake_case key or value (``great_axe`` -> "great axe"), and an entry whose ``name`` is another (``vorox`` ->
    "Vorox Warrior", ``man_at_arms`` -> "Man-at-Arms")."""
    found: dict[str, str] = {}

    def walk(node: Any, key: str | None) -> None:
        if key == "source":  # the sources' prose
            return
        if isinstance(node, Mapping):
            for name, value in node.items():
                name = str(name)
                # an entry the pack names for players (an NPC template); a field's label is no entry's name
                shown = value.get("name") if isinstance(value, Mapping) else None
                if isinstance(shown, str) and _loose(shown) != _loose(name) and name.isidentifier():
                    found[name] = shown
                elif IDENTIFIER.fullmatch(name):
                    found[name] = name.replace("_", " ")
                walk(value, name)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)
        elif isinstance(node, str) and IDENTIFIER.fullmatch(node):
            found[node] = node.replace("_", " ")

    for pack in PACKS:
        for document in _pack_documents(pack):
            walk(document, None)
    return found


def _loose(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name.casefold())
