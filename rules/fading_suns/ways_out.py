"""Every lasting state a Fading Suns character can be put in, and what ends it (docs/rules/fading-suns.md,
"Ways out"). The seed is silent: standing up and picking up a dropped weapon take the turn's action (as in
FS 2e), coming round and shaking off a stun early are the GM's word; between fights they cost nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rules.errors import IllegalAction, RulesError
from rules.fading_suns.character import CONDITIONS, Character
from rules.fading_suns.context import Ctx
from rules.fading_suns.outcomes import ConditionOutcome, EndFightOutcome
from rules.model import WayOut


def ways_out(char: Character, in_fight: bool) -> tuple[WayOut, ...]:
    if char.has("dead") or char.has("dying"):
        return ()
    cost = "action" if in_fight else "free"
    out: list[WayOut] = []
    if char.has("prone") and not char.has("unconscious"):
        out.append(WayOut("prone", {"type": "recover", "condition": "prone"}, cost))
    for condition in ("unconscious", "stunned"):
        if char.has(condition):
            out.append(WayOut(condition, {"type": "recover", "condition": condition}, "gm"))
    for name in dict.fromkeys(char.dropped):
        out.append(WayOut("dropped", {"type": "recover", "condition": "disarmed", "weapon": name}, cost, name))
    return tuple(out)


def end_fight(ctx: Ctx, char: Character, action: Mapping[str, Any]) -> tuple[EndFightOutcome, Character]:
    """What lasts only for a fight ends with it: the fallen get up, a stun wears off, dropped or thrown
    weapons are gathered (ruling ``weapons_gathered``) and a spent energy shield recharges (``shield_spent``
    in ``ended``; docs/rules/fading-suns.md). Wounds and unconsciousness stay."""
    ended = [c for c in ("prone", "stunned") if char.has(c) and not (c == "prone" and char.has("unconscious"))]
    gathered = list(char.dropped) if ctx.rulings.weapons_gathered else []
    char = char.with_conditions((), tuple(ended))
    if char.shield is not None and char.shield_hits_used:
        ended.append("shield_spent")
        char = dataclasses.replace(char, shield_hits_used=0)
    if gathered:
        char = dataclasses.replace(char, dropped=())
    return EndFightOutcome(character=char.name, ended=tuple(ended), gathered=tuple(gathered),
                           conditions=char.conditions), char


def set_conditions(ctx: Ctx, char: Character, action: Mapping[str, Any]) -> tuple[ConditionOutcome, Character]:
    """The GM's word: set (``add``) or clear (``remove``) conditions by name."""
    changes: dict[str, list[str]] = {"add": [], "remove": []}
    for option in changes:
        value = action.get(option)
        names = [] if value is None else [value] if isinstance(value, str) else value
        if not isinstance(names, list):
            raise RulesError(f"action: {option} must be a condition or a list of them")
        for name in names:
            if name not in CONDITIONS:
                raise IllegalAction(f"{name!r} is not a Fading Suns condition (conditions: {', '.join(CONDITIONS)})")
            changes[option].append(str(name))
    char = char.with_conditions(tuple(changes["add"]), tuple(changes["remove"]))
    return ConditionOutcome(character=char.name, conditions=char.conditions), char
