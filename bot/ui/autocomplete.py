"""Autocomplete callbacks: characters, encounter targets, sheet weapons, content items, NPC templates, rulings.

Each asks one read-only service method and never raises: a failure offers no choices.

Each is ``capped``: Discord drops an autocomplete answer that comes over 3 s after the interaction was
created, and an autocomplete cannot be deferred. So its read gets ``WITHIN`` seconds counted from
``interaction.created_at``; past that (a slow or locked database, a queue of work) the answer is what the
bot last offered for that field, narrowed to what is typed now, or nothing. The read is left to finish and
its answer remembered for the next keystroke; at most ``MAX_READS`` are left running so.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.interactions import actor_of, services_of
from bot.services.actor import Actor
from bot.text_safety import label
from bot.ui import limits
from bot.ui.character_embeds import treatment_label

log = logging.getLogger(__name__)

Choices = list[app_commands.Choice[str]]
Callback = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, Choices]]

# Seconds from the interaction's creation by which an autocomplete answers (Discord's deadline is 3 s; the
# rest is for the answer's own trip and a clock a little off Discord's).
WITHIN = 2.0
MAX_READS = 32  # reads left running past their answer, per bot: a slow database does not pile them up
REMEMBERED = 1024  # fields whose last choices are kept, per bot (at most 25 short choices each)

_Field = tuple[Any, ...]


class _Memory:
    """One bot's last choices per field, and the reads that outlived their answer."""

    def __init__(self) -> None:
        self.answers: OrderedDict[_Field, Choices] = OrderedDict()
        self.reads: dict[tuple[_Field, str], asyncio.Future[Choices]] = {}

    def landed(self, field: _Field, current: str, read: asyncio.Future[Choices]) -> None:
        self.reads.pop((field, current), None)
        if not read.cancelled() and read.exception() is None:
            self.answers[field] = read.result()
            self.answers.move_to_end(field)
            while len(self.answers) > REMEMBERED:
                self.answers.popitem(last=False)

    def recall(self, field: _Field, current: str) -> Choices:
        wanted = current.casefold().strip()
        return [c for c in self.answers.get(field, ())
                if wanted in c.name.casefold() or wanted in str(c.value).casefold()]

    def forget(self) -> None:
        for read in list(self.reads.values()):
            read.cancel()


_memories: weakref.WeakKeyDictionary[discord.Client, _Memory] = weakref.WeakKeyDictionary()


def _memory(client: discord.Client) -> _Memory:
    return _memories.setdefault(client, _Memory())


def forget(client: discord.Client) -> None:
    """The bot is closing: the reads still running are cancelled."""
    memory = _memories.pop(client, None)
    if memory is not None:
        memory.forget()


def time_left(interaction: discord.Interaction[Any]) -> float:
    """Seconds an autocomplete may still read: WITHIN counted from the interaction's creation."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(WITHIN, max(0.0, WITHIN - age))


def _field(interaction: discord.Interaction[Any]) -> _Field:
    """Which field is being typed in, and what decides its choices: the server, channel and user, the command,
    the focused option and the other options' values."""
    data: Mapping[str, Any] = interaction.data or {}
    path: list[str] = [str(data.get("name", ""))]
    focused, others = "", []
    options: Iterable[Any] = data.get("options") or ()
    while options:
        deeper: Iterable[Any] = ()
        for option in options:
            if not isinstance(option, Mapping):
                continue
            if option.get("type") in (1, 2):  # a subcommand (group): its options are the command's
                path.append(str(option.get("name", "")))
                deeper = option.get("options") or ()
            elif option.get("focused"):
                focused = str(option.get("name", ""))
            else:
                others.append((str(option.get("name", "")), str(option.get("value", ""))[:100]))
        options = deeper
    return (interaction.guild_id, interaction.channel_id, interaction.user.id, " ".join(path), focused,
            tuple(sorted(others)))


def capped(callback: Callback) -> Callback:
    """``callback`` answering within WITHIN seconds of the interaction's creation (see the module docstring)."""

    @functools.wraps(callback)
    async def answer(interaction: discord.Interaction[Any], current: str) -> Choices:
        memory = _memory(interaction.client)
        field = _field(interaction)
        read = memory.reads.get((field, current))
        if read is None:
            if len(memory.reads) >= MAX_READS:
                return memory.recall(field, current)
            read = asyncio.ensure_future(callback(interaction, current))
            memory.reads[(field, current)] = read
            read.add_done_callback(functools.partial(memory.landed, field, current))
        done, _ = await asyncio.wait({read}, timeout=time_left(interaction))
        if read in done and not read.cancelled() and read.exception() is None:
            return read.result()
        log.info("autocomplete %s answered from memory: its read took over %.1f s from the keystroke",
                 field[3], WITHIN)
        return memory.recall(field, current)

    answer.capped = True  # type: ignore[attr-defined]  # tests/bot/test_autocomplete_cap.py looks for it
    return answer


def choices(names: Iterable[str], current: str = "") -> Choices:
    """Up to 25 choices, prefix matches first, then substring matches; names over 100 units are left out."""
    wanted = current.casefold().strip()
    unique = list(dict.fromkeys(n for n in names if n and limits.size(n) <= limits.CHOICE_VALUE))
    first = [n for n in unique if n.casefold().startswith(wanted)]
    then = [n for n in unique if wanted in n.casefold() and n not in first]
    # the choice shows no markdown, so its name needs no escaping; invisible characters are dropped from it
    return [app_commands.Choice(name=label(n) or n, value=n) for n in (first + then)[: limits.AUTOCOMPLETE_CHOICES]]


async def _safe(interaction: discord.Interaction[Any], current: str,
                fetch: Callable[[Actor], Awaitable[Iterable[str]]]) -> Choices:
    try:
        return choices(await fetch(actor_of(interaction)), current)
    except Exception as exc:  # autocomplete must answer, and a failure here is not worth a message
        log.debug("autocomplete failed: %r", exc)
        return []


@capped
async def character(interaction: discord.Interaction[Any], current: str) -> Choices:
    return await _safe(interaction, current, lambda actor: services_of(interaction).characters.names(actor, current))


@capped
async def combatant(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Names in this channel's encounter (every character of the server when there is none)."""

    async def fetch(actor: Actor) -> Iterable[str]:
        services = services_of(interaction)
        names = await services.encounters.combatant_names(actor, current)
        return names or await services.characters.names(actor, current)

    return await _safe(interaction, current, fetch)


async def _acting(interaction: discord.Interaction[Any], actor: Actor, option: str) -> str | None:
    """The character named in ``option``, else the current turn's if the caller owns it, else the caller's own."""
    named = getattr(interaction.namespace, option, None)
    if named:
        return str(named)
    try:
        encounter = await services_of(interaction).encounters.status(actor)
    except Exception:
        return None
    current = encounter.current
    if current is not None and current.owner_id == actor.user_id:
        return current.name
    mine = [c.name for c in encounter.combatants if c.owner_id == actor.user_id and not c.npc]
    return mine[0] if mine else (current.name if current is not None else None)


def sheet_items(kind: str, who: str) -> Callback:
    """Weapons or armour on the sheet of the character in option ``who`` (or the one acting)."""
    return capped(_sheet_items(kind, who))


def _sheet_items(kind: str, who: str) -> Callback:

    async def callback(interaction: discord.Interaction[Any], current: str) -> Choices:
        async def fetch(actor: Actor) -> Iterable[str]:
            services = services_of(interaction)
            name = await _acting(interaction, actor, who)
            found = await services.characters.sheet_items(actor, name, kind, current) if name else []  # type: ignore[arg-type]
            return found or await services.characters.item_names(actor, kind, current)  # type: ignore[arg-type]

        return await _safe(interaction, current, fetch)

    return callback


def ways_out(weapons: bool) -> Callback:
    """What the character in option ``character`` (or the one acting) can leave now: its states (/recover)
    or the weapons it can take up (/ready), from its system's engine."""
    return capped(_ways_out(weapons))


def _ways_out(weapons: bool) -> Callback:

    async def callback(interaction: discord.Interaction[Any], current: str) -> Choices:
        async def fetch(actor: Actor) -> Iterable[str]:
            name = await _acting(interaction, actor, "character")
            if not name:
                return []
            return await services_of(interaction).combat.way_out_names(actor, name, weapons, current)

        return await _safe(interaction, current, fetch)

    return callback


def content_items(kind: str) -> Callback:
    """Weapons or armour (``kind``) from the channel system's content pack."""
    return capped(_content_items(kind))


def _content_items(kind: str) -> Callback:
    async def callback(interaction: discord.Interaction[Any], current: str) -> Choices:
        return await _safe(interaction, current,
                           lambda actor: services_of(interaction).characters.item_names(actor, kind, current))  # type: ignore[arg-type]

    return callback


@capped
async def content_item(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Weapons or armour from the content pack, by the ``kind`` option."""
    kind = str(getattr(interaction.namespace, "kind", None) or "weapon")
    return await _content_items(kind)(interaction, current)


@capped
async def sheet_item(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Items on the sheet named by ``name``, of the ``kind`` option."""
    kind = str(getattr(interaction.namespace, "kind", None) or "weapon")
    return await _sheet_items(kind, "name")(interaction, current)


@capped
async def treatment(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The treatments /heal offers in this channel's system, labelled in its own words."""
    try:
        system, methods = await services_of(interaction).injuries.methods(actor_of(interaction))
    except Exception as exc:  # autocomplete must answer
        log.debug("autocomplete failed: %r", exc)
        return []
    wanted = current.casefold().strip()
    labelled = [(treatment_label(system, m), m) for m in methods]
    return [app_commands.Choice(name=label, value=method) for label, method in labelled
            if wanted in label.casefold() or wanted in method][: limits.AUTOCOMPLETE_CHOICES]


@capped
async def hit_location(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Locations a Fading Suns attack may call (nothing in the other systems)."""
    return await _safe(interaction, current,
                       lambda actor: services_of(interaction).characters.location_names(actor, current))


@capped
async def npc_template(interaction: discord.Interaction[Any], current: str) -> Choices:
    return await _safe(interaction, current,
                       lambda actor: services_of(interaction).encounters.template_names(actor, current))


@capped
async def ruling(interaction: discord.Interaction[Any], current: str) -> Choices:
    async def fetch(actor: Actor) -> Iterable[str]:
        return [s.name for s in await services_of(interaction).setup.ruling_names(actor)]

    return await _safe(interaction, current, fetch)


@capped
async def pack_file(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The server's homebrew pack files (for /pack reset)."""

    async def fetch(actor: Actor) -> Iterable[str]:
        return await services_of(interaction).packs.file_names(actor, current)

    return await _safe(interaction, current, fetch)


@capped
async def pack_default_file(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The channel's system's pack files (for /pack file)."""

    async def fetch(actor: Actor) -> Iterable[str]:
        return await services_of(interaction).packs.default_file_names(actor, current)

    return await _safe(interaction, current, fetch)


@capped
async def ruling_value(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The chosen ruling's choices (true/false for a yes-no ruling; its default otherwise)."""

    async def fetch(actor: Actor) -> Iterable[str]:
        name = str(getattr(interaction.namespace, "name", "") or "")
        for setting in await services_of(interaction).setup.ruling_names(actor):
            if setting.name == name:
                if setting.choices:
                    return setting.choices
                if isinstance(setting.default, bool):
                    return ["true", "false"]
                return [str(setting.default)]
        return []

    return await _safe(interaction, current, fetch)
