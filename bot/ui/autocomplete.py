"""Autocomplete callbacks: characters, encounter targets, sheet weapons, content items, NPC templates, rulings.

Each asks one read-only service method and never raises: a failure offers no choices.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

import discord
from discord import app_commands

from bot.interactions import actor_of, services_of
from bot.services.actor import Actor
from bot.text_safety import label
from bot.ui import limits
from bot.ui.embeds import treatment_label

log = logging.getLogger(__name__)

Choices = list[app_commands.Choice[str]]
Callback = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, Choices]]


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


async def character(interaction: discord.Interaction[Any], current: str) -> Choices:
    return await _safe(interaction, current, lambda actor: services_of(interaction).characters.names(actor, current))


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

    async def callback(interaction: discord.Interaction[Any], current: str) -> Choices:
        async def fetch(actor: Actor) -> Iterable[str]:
            name = await _acting(interaction, actor, "character")
            if not name:
                return []
            return await services_of(interaction).combat.way_out_names(actor, name, weapons, current)

        return await _safe(interaction, current, fetch)

    return callback


def content_items(kind: str) -> Callback:
    async def callback(interaction: discord.Interaction[Any], current: str) -> Choices:
        return await _safe(interaction, current,
                           lambda actor: services_of(interaction).characters.item_names(actor, kind, current))  # type: ignore[arg-type]

    return callback


async def content_item(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Weapons or armour from the content pack, by the ``kind`` option."""
    kind = str(getattr(interaction.namespace, "kind", None) or "weapon")
    return await content_items(kind)(interaction, current)


async def sheet_item(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Items on the sheet named by ``name``, of the ``kind`` option."""
    kind = str(getattr(interaction.namespace, "kind", None) or "weapon")
    return await sheet_items(kind, "name")(interaction, current)


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


async def hit_location(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Locations a Fading Suns attack may call (nothing in the other systems)."""
    return await _safe(interaction, current,
                       lambda actor: services_of(interaction).characters.location_names(actor, current))


async def npc_template(interaction: discord.Interaction[Any], current: str) -> Choices:
    return await _safe(interaction, current,
                       lambda actor: services_of(interaction).encounters.template_names(actor, current))


async def ruling(interaction: discord.Interaction[Any], current: str) -> Choices:
    async def fetch(actor: Actor) -> Iterable[str]:
        return [s.name for s in await services_of(interaction).settings.ruling_names(actor)]

    return await _safe(interaction, current, fetch)


async def pack_file(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The server's homebrew pack files (for /pack reset)."""

    async def fetch(actor: Actor) -> Iterable[str]:
        return await services_of(interaction).packs.file_names(actor, current)

    return await _safe(interaction, current, fetch)


async def pack_default_file(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The channel's system's pack files (for /pack file)."""

    async def fetch(actor: Actor) -> Iterable[str]:
        return await services_of(interaction).packs.default_file_names(actor, current)

    return await _safe(interaction, current, fetch)


async def ruling_value(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The chosen ruling's choices (true/false for a yes-no ruling; its default otherwise)."""

    async def fetch(actor: Actor) -> Iterable[str]:
        name = str(getattr(interaction.namespace, "name", "") or "")
        for setting in await services_of(interaction).settings.ruling_names(actor):
            if setting.name == name:
                if setting.choices:
                    return setting.choices
                if isinstance(setting.default, bool):
                    return ["true", "false"]
                return [str(setting.default)]
        return []

    return await _safe(interaction, current, fetch)
