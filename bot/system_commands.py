"""Which slash commands, options and choices mean something in each rule system.

The commands named in ``GUILD_COMMANDS`` are registered per server, showing only what the systems its
channels use can take (docs/decisions/per-server-commands.md); every other command is global. One wide
command in the tree (every system's options) handles them all, so ``require_in_system`` refuses, in the
words of the slash options, what a server's command does not have (a client's stale copy of it).

The payloads are the JSON Discord takes, as the tree makes it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from bot.errors import UserError
from bot.systems import PROFILES, system_title

# The commands each server gets its own copy of; the rest are the same everywhere (global).
GUILD_COMMANDS = ("attack", "cast", "advantage", "shock", "pending-roll", "encounter", "heal")

# Commands and subcommands (by path) that only some systems have (each profile's ``own_commands``).
ONLY_IN: dict[str, frozenset[str]] = {
    path: frozenset(s for s, p in PROFILES.items() if path in p.own_commands)
    for path in sorted({path for p in PROFILES.values() for path in p.own_commands})
}


def _system_options() -> dict[str, dict[str, dict[str, str]]]:
    out: dict[str, dict[str, dict[str, str]]] = {}
    for system, profile in PROFILES.items():
        for path, options in profile.own_options.items():
            for name, description in options.items():
                out.setdefault(path, {}).setdefault(name, {})[system] = description
    return out


# Options that only some systems take: command path -> option -> {system: its description there}
# (each profile's ``own_options``). An option not listed means the same in every system; its description in
# the cog then stands.
SYSTEM_OPTIONS: dict[str, dict[str, dict[str, str]]] = _system_options()

# Choices that only some systems offer: command path -> option -> {system: its values}
# (the rolls bot/services/pending_rolls.py can wait for in each system: the profiles' ``roll_actions``).
SYSTEM_CHOICES: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {
    "pending-roll": {"roll": {system: tuple(p.roll_actions) for system, p in PROFILES.items()}},
}

_SUBCOMMAND_TYPES = (1, 2)
# The systems these tables describe; another (a test's stand-in engine) is shown, and allowed, everything.
DESCRIBED = frozenset(PROFILES)


def _has(path: str, systems: Collection[str]) -> bool:
    only = ONLY_IN.get(path)
    return only is None or any(system in only for system in systems)


def guild_payload(payloads: Iterable[Mapping[str, Any]], systems: Collection[str]) -> list[dict[str, Any]]:
    """The per-server commands among ``payloads`` (the tree's, as Discord takes them), cut down to what
    ``systems`` (those the server's channels use) can take."""
    own = [payload for payload in payloads if payload["name"] in GUILD_COMMANDS]
    if not DESCRIBED.issuperset(systems):
        return [dict(payload) for payload in own]
    return [_cut(payload, payload["name"], systems) for payload in own if _has(payload["name"], systems)]


def shared_payload(payloads: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The commands every server shares (registered globally): never one of the per-server ones."""
    return [dict(payload) for payload in payloads if payload["name"] not in GUILD_COMMANDS]


def _cut(payload: Mapping[str, Any], path: str, systems: Collection[str]) -> dict[str, Any]:
    kept: list[dict[str, Any]] = []
    for option in payload.get("options") or []:
        name = option["name"]
        if option.get("type") in _SUBCOMMAND_TYPES:
            if _has(f"{path} {name}", systems):
                kept.append(_cut(option, f"{path} {name}", systems))
            continue
        described = SYSTEM_OPTIONS.get(path, {}).get(name)
        if described is not None:
            used = [system for system in systems if system in described]
            if not used:
                continue
            option = {**option, "description": described[used[0]]} if len(systems) == 1 else dict(option)
        values = SYSTEM_CHOICES.get(path, {}).get(name)
        if values is not None and option.get("choices"):
            allowed = {value for system in systems for value in values.get(system, ())}
            option = {**option, "choices": [c for c in option["choices"] if c["value"] in allowed]}
        kept.append(dict(option))
    return {**payload, "options": kept}


def signature(payload: Sequence[Mapping[str, Any]]) -> str:
    """A short fingerprint of what a server was sent, stored so that an unchanged server is not sent it again."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def system_options(path: str, system: str) -> list[str]:
    """The options of ``path`` that only some systems take and ``system`` does."""
    return [name for name, described in SYSTEM_OPTIONS.get(path, {}).items() if system in described]


def require_in_system(path: str, system: str, options: Iterable[str] = ()) -> None:
    """Refuse, in the slash command's own words, a command or option ``system`` does not have.

    ``options`` are the slash option names the user gave (a server's command shows only its system's,
    but a client may still hold the copy from before a ``/setup system``)."""
    if system not in DESCRIBED:
        return
    title = system_title(system)
    words = path.split()
    for depth in range(1, len(words) + 1):
        if not _has(" ".join(words[:depth]), (system,)):
            raise UserError(f"/{path} is not used in {title}")
    for name in options:
        described = SYSTEM_OPTIONS.get(path, {}).get(name)
        if described is not None and system not in described:
            own = system_options(path, system)
            listed = f" (this system's: {', '.join(own)})" if own else ""
            raise UserError(f"/{path} has no {name} option in {title}{listed}")
