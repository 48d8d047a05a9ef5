"""/recover and /ready: which of a character's states the player named, and the one line when it is none.

The engines say what states a character is in and what ends each (``Engine.ways_out``); this module only
matches what was typed against them. The words for each state live in bot/ui (``way_out_words``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.errors import UserError
from rules.model import WayOut


def condition_key(text: str) -> str:
    """``Out of fight`` and ``out-of-fight`` are ``out_of_fight``."""
    return "_".join(text.strip().casefold().replace("-", " ").split())


def conditions(ways: Sequence[WayOut]) -> list[str]:
    return list(dict.fromkeys(way.condition for way in ways if way.weapon is None))


def weapons(ways: Sequence[WayOut]) -> list[str]:
    return list(dict.fromkeys(way.weapon for way in ways if way.weapon is not None))


def pick_condition(name: str, ways: Sequence[WayOut], condition: str) -> WayOut:
    wanted = condition_key(condition)
    found = next((way for way in ways if way.weapon is None and way.condition == wanted), None)
    if found is not None:
        return found
    listed = ", ".join(c.replace("_", " ") for c in conditions(ways))
    if not listed:
        raise UserError(f"{name} has nothing to recover from" + _weapons_hint(ways))
    raise UserError(f"{name} is not {condition.strip()}: {name} can recover from {listed}" + _weapons_hint(ways))


def pick_weapon(name: str, ways: Sequence[WayOut], weapon: str | None) -> WayOut:
    choices = [way for way in ways if way.weapon is not None]
    if weapon is None:
        if len(choices) == 1:
            return choices[0]
        if not choices:
            raise UserError(f"{name} has every weapon in hand: nothing to ready")
        raise UserError(f"say which weapon {name} readies: {', '.join(weapons(ways))}")
    wanted = weapon.strip().casefold()
    found = next((way for way in choices if way.weapon is not None and way.weapon.casefold() == wanted), None)
    if found is not None:
        return found
    if not choices:
        raise UserError(f"{name} has every weapon in hand: nothing to ready")
    raise UserError(f"{name} cannot ready '{weapon.strip()}': {name} may ready {', '.join(weapons(ways))}")


def _weapons_hint(ways: Sequence[WayOut]) -> str:
    names = weapons(ways)
    return f" (to take up a weapon: /ready weapon:{names[0]})" if names else ""
