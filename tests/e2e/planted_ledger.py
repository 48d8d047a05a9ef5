"""The one planted-secret harness's ledger (issue 31): what a player can reach, what a player's client received,
and the planted figures looked for in it. tests/e2e/test_planted_secrets.py drives the bot; this module counts.

Three lists, each read from the code or from what the emulator recorded, never typed by hand:

- ``reachable(bot)``: every output a user can set off, as a ``Surface(system, kind, name)``. Kinds:
  ``command`` (each leaf of the command tree the system has, bot/system_commands.py), ``autocomplete`` (each
  option with an autocomplete callback the system has), ``button`` (each persistent custom_id template the bot
  registers: its ``DynamicItem``s) and ``form`` (each route of ``bot.forms``).
- ``driven(emu, systems)``: which of them the run set off, from the interactions the emulator dispatched.
- ``Ledger``: every piece of text a viewer's client received, with who received it decided as Discord does: a
  channel message reaches everyone who may view the channel, an ephemeral answer (and its edits) only the user
  of the interaction it answers, a DM its recipient, an autocomplete list or a form the user who typed or
  pressed. Each create and each edit of a message counts (an edit replaces what was seen, but it was seen).
  Files count too: text files whole, PNG pictures by their text chunks (their pixels are not read: the kind
  ``file (PNG pixels)`` says so in the covered list).

Adding an output kind (the web page, a live update, a new file type):
1. Something a user can *set off* that the code lists: add its kind to ``reachable`` (read from the code, as
   the templates are) and to ``driven``, then drive it in the test's script or name it in ``EXCUSED`` with why.
2. Something a viewer's client *receives* that the emulator does not record (a page over HTTP, a websocket
   frame): call ``ledger.receive(viewer, kind, where, text)`` for it as the player's session gets it (bytes
   through ``ledger.receive_file``), with ``kind`` a short new name ("web page", "live update"). The checks and
   the covered list pick it up with no other change.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot.system_commands import ONLY_IN, SYSTEM_OPTIONS
from emulator import Emulator, InteractionHandle, Message
from emulator import permissions as perms
from emulator.models import walk_components

# -- what a user can reach -----------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Surface:
    system: str
    kind: str  # command, autocomplete, button, form
    name: str  # "character create", "attack weapon", "grv:gm:", ...

    def __str__(self) -> str:
        return f"{self.system:11} {self.kind:12} {self.name}"


def _has(path: str, system: str) -> bool:
    words = path.split()
    return all(system in ONLY_IN.get(" ".join(words[:depth]), {system}) for depth in range(1, len(words) + 1))


def template_prefix(pattern: str) -> str:
    """The literal start of a custom_id template ("grv:gm:" of "grv:gm:(?P<id>...)"): its name in the lists."""
    return re.split(r"[(\[\\]", pattern, maxsplit=1)[0]


def command_leaves(tree: app_commands.CommandTree[Any]) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]


def templates(bot: Any) -> tuple[list[str], list[str]]:
    """The persistent buttons' custom_id templates (the ``DynamicItem``s the bot registered, from discord.py's
    view store) and the forms' (``bot.forms``), by their literal start."""
    buttons = [template_prefix(p.pattern) for p in bot._connection._view_store._dynamic_items]
    forms = [template_prefix(p.pattern) for p, _ in bot.forms._routes]
    return buttons, forms


def reachable(bot: Any, systems: Iterable[str]) -> set[Surface]:
    """Every command leaf, autocomplete, persistent button template and form route of the running ``bot``,
    for each system that has it."""
    out: set[Surface] = set()
    leaves = command_leaves(bot.tree)
    menus = [*bot.tree.get_commands(type=discord.AppCommandType.user),
             *bot.tree.get_commands(type=discord.AppCommandType.message)]
    buttons, forms = templates(bot)
    for system in systems:
        for command in leaves:
            path = command.qualified_name
            if not _has(path, system):
                continue
            out.add(Surface(system, "command", path))
            for param in command.parameters:
                described = SYSTEM_OPTIONS.get(path, {}).get(param.name)
                if param.autocomplete and (described is None or system in described):
                    out.add(Surface(system, "autocomplete", f"{path} {param.name}"))
        out.update(Surface(system, "command", f"(menu) {menu.name}") for menu in menus)
        out.update(Surface(system, "button", prefix) for prefix in buttons)
        out.update(Surface(system, "form", prefix) for prefix in forms)
    return out


def _focused(options: Iterable[Mapping[str, Any]], path: str = "") -> tuple[str, str] | None:
    for option in options:
        if option.get("type") in (1, 2):
            found = _focused(option.get("options") or [], f"{path} {option['name']}".strip())
            if found:
                return found
        elif option.get("focused"):
            return path, str(option["name"])
    return None


def surface_of(handle: InteractionHandle, system: str, buttons: Iterable[str], forms: Iterable[str]) -> Surface | None:
    """What an interaction set off, in the names of ``reachable``."""
    data = handle.payload.get("data") or {}
    if handle.type == 2:
        return Surface(system, "command", handle.name if data.get("type", 1) == 1 else f"(menu) {handle.name}")
    if handle.type == 4:
        path, option = _focused(data.get("options") or []) or ("", "?")
        return Surface(system, "autocomplete", " ".join(w for w in (data["name"], path, option) if w))
    custom_id = str(data.get("custom_id", ""))
    for prefix in (buttons if handle.type == 3 else forms):
        if custom_id.startswith(prefix):
            return Surface(system, "button" if handle.type == 3 else "form", prefix)
    return None


def driven(emu: Emulator, bot: Any, system_of_channel: Mapping[int, str]) -> Counter[Surface]:
    """How often the run set off each surface (interactions in a channel of no system are left out)."""
    buttons, forms = templates(bot)
    counts: Counter[Surface] = Counter()
    for handle in emu.interactions:
        system = system_of_channel.get(handle.channel.id)
        if system is None:
            continue
        surface = surface_of(handle, system, buttons, forms)
        if surface is not None:
            counts[surface] += 1
    return counts


# -- what a viewer received ----------------------------------------------------------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_text(data: bytes) -> str:
    """The text chunks of a PNG (tEXt, zTXt, iTXt): the only text a picture carries besides its pixels."""
    found: list[str] = []
    at = len(PNG_MAGIC)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"tEXt":
            found.append(body.replace(b"\0", b" ").decode("latin-1"))
        elif kind == b"zTXt":
            key, _, rest = body.partition(b"\0")
            found.append(key.decode("latin-1") + " " + zlib.decompress(rest[1:]).decode("latin-1"))
        elif kind == b"iTXt":
            found.append(body.replace(b"\0", b" ").decode("utf-8", "replace"))
        at += 12 + length
    return "\n".join(found)


def message_text(message: Message) -> str:
    """Every piece of a message a reader's client shows or holds as words: content, every embed's text, the
    components' labels, placeholders, options and text displays (not the custom_ids: ids, not words)."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [str(embed.get(k) or "") for k in ("title", "description")]
        parts.append(str((embed.get("author") or {}).get("name") or ""))
        parts += [f"{f.get('name', '')}: {f.get('value', '')}" for f in embed.get("fields", [])]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))
    parts += component_text(message.components)
    return "\n".join(p for p in parts if p)


def component_text(components: list[dict[str, Any]]) -> list[str]:
    parts: list[str] = []
    for component in walk_components(components):
        parts += [str(component[k]) for k in ("label", "placeholder", "content", "value", "title") if component.get(k)]
        for option in component.get("options") or []:
            parts += [str(option.get("label") or ""), str(option.get("description") or "")]
    return parts


@dataclass(frozen=True)
class Received:
    viewer: str  # a member's username
    kind: str  # "channel message", "ephemeral answer", "DM", "autocomplete", "form", "file (...)", ...
    where: str  # "#pen message 123 (create)", ...
    text: str
    source: str = ""  # what it answers, without ids: "gm's /character show", "bob's button grv:details:" ("": none)


@dataclass
class _Seen:
    message_id: int
    channel_id: int
    change: str
    ephemeral: bool
    text: str
    files: list[tuple[str, bytes]]


@dataclass
class Ledger:
    """Everything each viewer's client received, from the moment ``watch`` is called."""

    emu: Emulator
    extra: list[Received] = field(default_factory=list)
    _seen: list[_Seen] = field(default_factory=list)
    _stop: Any = None
    # How many interactions and message changes there were at each mark (see ``mark``).
    _marks: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    def watch(self) -> None:
        def observe(change: str, message: Message) -> None:
            if change == "delete" or message.author.id != self.emu.bot.id:
                return
            self._seen.append(_Seen(message.id, message.channel_id, change, message.ephemeral, message_text(message),
                                    [(a.filename, a.data) for a in message.attachments]))

        self._stop = self.emu.subscribe(observe)

    def close(self) -> None:
        if self._stop is not None:
            self._stop()
            self._stop = None

    def mark(self, name: str) -> None:
        """Remember where the record stands: ``received(before=name)`` reads only what came earlier."""
        self._marks[name] = (len(self._seen), len(self.emu.interactions), len(self.extra))

    def receive(self, viewer: str, kind: str, where: str, text: str) -> None:
        """An output the emulator does not record (see the module's doc)."""
        self.extra.append(Received(viewer, kind, where, text))

    def receive_file(self, viewer: str, where: str, filename: str, data: bytes) -> None:
        for kind, text in file_texts(filename, data):
            self.extra.append(Received(viewer, kind, where, text))

    # -- who received what --

    def _owners(self) -> dict[int, InteractionHandle]:
        """Message id -> the interaction it answers (its user sees it when it is ephemeral)."""
        owners: dict[int, InteractionHandle] = {}
        for handle in self.emu.interactions:
            for message in [handle.original, *handle.followup_messages]:
                if message is not None:
                    owners.setdefault(message.id, handle)
        return owners

    def _readers(self, channel_id: int) -> list[str]:
        state = self.emu.state
        channel = state.channel(channel_id)
        if channel.guild_id is None:  # a DM
            return [user.username for user in channel.recipients]
        guild = state.guild(channel.guild_id)
        return [m.user.username for m in guild.members.values() if not m.user.bot
                and state.permissions_in(channel, m.user.id) & perms.VIEW_CHANNEL]

    def received(self, before: str | None = None) -> Iterator[Received]:
        seen_end, handles_end, extra_end = self._marks[before] if before else (None, None, None)
        owners = self._owners()
        state = self.emu.state
        for seen in self._seen[:seen_end]:
            channel = state.channel(seen.channel_id)
            name = channel.name or "DM"
            owner = owners.get(seen.message_id)
            source = _source(owner) if owner else ""
            answering = f" answering {owner.user.username}'s {_named(owner)}" if owner else ""
            where = f"#{name} message {seen.message_id} ({seen.change}{answering})"
            if seen.ephemeral:
                viewers, kind = [owner.user.username if owner else "?unknown owner"], "ephemeral answer"
            elif channel.is_dm:
                viewers, kind = self._readers(seen.channel_id), "DM"
            else:
                viewers, kind = self._readers(seen.channel_id), "channel message"
            for viewer in viewers:
                yield Received(viewer, kind, where, seen.text, source)
                for filename, data in seen.files:
                    for file_kind, text in file_texts(filename, data):
                        yield Received(viewer, file_kind, f"{where} {filename}", text, source)
        for handle in self.emu.interactions[:handles_end]:
            callback = handle.callback
            if callback is None:
                continue
            where = f"#{handle.channel.name} {handle.user.username}'s {_named(handle)}"
            if callback.type == 8:
                names = [f"{c.get('name')} = {c.get('value')}" for c in callback.data.get("choices") or []]
                yield Received(handle.user.username, "autocomplete", where, "\n".join(names), _source(handle))
            elif callback.type == 9:
                texts = [str(callback.data.get("title") or ""), *component_text(callback.data.get("components") or [])]
                yield Received(handle.user.username, "form", where, "\n".join(texts), _source(handle))
        yield from self.extra[:extra_end]


def _named(handle: InteractionHandle) -> str:
    """An interaction as the lists name it: "/attack", "button grv:gm:12:death", "autocomplete /attack weapon"."""
    kinds = {2: "/", 3: "button ", 4: "autocomplete /", 5: "form "}
    return f"{kinds.get(handle.type, '?')}{handle.name}"


def _source(handle: InteractionHandle) -> str:
    """Who set it off and ``_named`` without the stored ids a custom_id carries: "gm's /character show",
    "alice's button grv:details:"."""
    named = _named(handle)
    return f"{handle.user.username}'s " + (named if handle.type in (2, 4) else re.sub(r":[0-9].*$", ":", named))


def file_texts(filename: str, data: bytes) -> list[tuple[str, str]]:
    if data.startswith(PNG_MAGIC):
        return [("file (PNG text chunks)", png_text(data)), ("file (PNG pixels)", "")]
    return [(f"file ({filename.rsplit('.', 1)[-1]})", data.decode("utf-8", "replace"))]


# -- the planted figures -------------------------------------------------------------------------------------


def figure_pattern(figures: Iterable[int]) -> re.Pattern[str]:
    """The planted numbers as whole numbers: 27 is found in "sword 27" and "27/36", not in "127", "2.7" or an
    event's number ("#27", "event #27")."""
    alternatives = "|".join(str(f) for f in sorted(set(figures), reverse=True))
    return re.compile(rf"(?<![\d.#])(?:{alternatives})(?![\d]|\.\d)")


# The bot's own counters, which say nothing of a sheet: a sheet's "version 17", "round 2", "event #48",
# "character #9", "encounter #2". They are taken out of a line before the figures are looked for.
COUNTERS = re.compile(r"\b(?:version|round|event|character|encounter) #?\d+", re.IGNORECASE)


def hits(text: str, pattern: re.Pattern[str]) -> list[str]:
    """The lines of ``text`` holding a planted figure (the bot's counters aside)."""
    return [line.strip() for line in text.splitlines() if pattern.search(COUNTERS.sub("", line))]
