"""Goal numbers built from named parts, the penalties that reach each kind of roll, and roll reports."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.dice import CRITICAL, SUCCESS, DiceSource, Roll
from rules.errors import RulesError
from rules.fading_suns.body import encumbrance
from rules.fading_suns.catalog import FadingSunsCatalog
from rules.fading_suns.character import Character
from rules.fading_suns.outcomes import GoalRoll, Penalties
from rules.fading_suns.rulings import Rulings

MAX_MODIFIER = 50


@dataclass(frozen=True)
class Goal:
    parts: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(value for _, value in self.parts)

    def plus(self, *parts: tuple[str, int]) -> Goal:
        return Goal(self.parts + tuple(p for p in parts if p[1] != 0))

    def to_dict(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for name, value in self.parts:
            out[name] = out.get(name, 0) + value
        return out


def parse_modifiers(value: Any, field: str) -> int:
    """An action's modifiers: a whole number, or a mapping of reason to whole number, summed."""
    if value is None:
        return 0
    items: list[tuple[str, Any]]
    if isinstance(value, Mapping):
        items = [(str(k), v) for k, v in value.items()]
    else:
        items = [(field, value)]
    total = 0
    for name, number in items:
        if isinstance(number, bool) or not isinstance(number, int) or abs(number) > MAX_MODIFIER:
            raise RulesError(f"action: '{name}' in {field} must be a whole number from -{MAX_MODIFIER} to "
                             f"{MAX_MODIFIER}, not {number!r}")
        total += number
    if abs(total) > MAX_MODIFIER:
        raise RulesError(f"action: {field} add up to {total}, beyond +/-{MAX_MODIFIER}")
    return total


def wound_goal_penalty(char: Character, catalog: FadingSunsCatalog, kind: str, rulings: Rulings) -> int:
    """Wound goal penalties accumulate; by location, a wound only reaches the rolls its location affects."""
    total = 0
    for wound in char.wounds:
        if rulings.wound_penalties == "by_location" and kind != "effect" \
                and kind not in catalog.location(wound.location).affects:
            continue
        total += catalog.severity(wound.severity).goal
    return total


def initiative_penalty(char: Character, catalog: FadingSunsCatalog) -> int:
    return sum(catalog.severity(w.severity).initiative for w in char.wounds)


def penalties(char: Character, catalog: FadingSunsCatalog) -> Penalties:
    """The sheet's accumulated wound penalties: every wound's goal and initiative penalty."""
    return Penalties(goal=sum(catalog.severity(w.severity).goal for w in char.wounds),
                     initiative=initiative_penalty(char, catalog))


ARMOUR_TRAITS = ("dex", "vigor")


def armour_penalty(char: Character, catalog: FadingSunsCatalog, rulings: Rulings, trait: str) -> int:
    """FS 2e armour penalty to rolls using ``trait`` (the Dex characteristic or the Vigor skill).

    ``by_coverage``: each piece's full-suit penalty times the part of the body it covers (the seed's
    location shares, all seven = 1), summed and rounded to the nearest whole point (a half rounds to the
    larger penalty): full chain mail -1 Dex / -2 Vigor, a plate helm alone nothing. ``full``: the worst
    full-suit penalty of any piece worn. ``none``: no penalties."""
    if rulings.armour_penalties == "none" or not char.armour:
        return 0
    if rulings.armour_penalties == "full":
        return min((piece.penalty(trait) for piece in char.armour), default=0)
    total = sum((piece.penalty(trait) * catalog.coverage_fraction(piece) for piece in char.armour), Fraction(0))
    return -math.floor(-total + Fraction(1, 2))


def armour_parts(char: Character, catalog: FadingSunsCatalog, rulings: Rulings,
                 uses: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """The armour penalties reaching a goal built on ``uses`` (its characteristic and skill names)."""
    return tuple((f"armour_{trait}", armour_penalty(char, catalog, rulings, trait)) for trait in ARMOUR_TRAITS
                 if trait in uses)


def situational(char: Character, catalog: FadingSunsCatalog, rulings: Rulings, kind: str,
                uses: tuple[str, ...] = ()) -> tuple[tuple[str, int], ...]:
    """Wounds, load, armour penalties (for a goal using Dex or Vigor) and conditions, as they reach a
    roll of this kind."""
    if kind == "effect" and not rulings.effect_roll_penalties:
        return ()
    parts = [("wounds", wound_goal_penalty(char, catalog, kind, rulings))]
    if kind in catalog.encumbrance_applies_to:
        parts.append(("encumbrance", encumbrance(char, catalog, rulings)))
    parts.extend(armour_parts(char, catalog, rulings, uses))
    for condition in char.conditions:
        parts.append((condition, catalog.condition_modifier(condition, kind)))
    return tuple(p for p in parts if p[1] != 0)


def goal_roll(dice: DiceSource, label: str, goal: Goal, catalog: FadingSunsCatalog) -> Roll:
    return dice.fading_suns(label, goal.total, catalog.chart)


def report(roll: Roll, goal: Goal) -> GoalRoll:
    """One goal roll as the outcome shows it."""
    return GoalRoll(roll=roll.total, goal=goal.total, result=roll.result, success=roll.result in (SUCCESS, CRITICAL),
                    critical=roll.result == CRITICAL, victory_points=roll.victory_points or 0,
                    victory_dice=roll.victory_dice or 0, modifiers=goal.to_dict())
