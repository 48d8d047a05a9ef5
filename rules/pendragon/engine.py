"""The Pendragon engine: the contract in rules/model.py, dispatching each action type."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import READY, InitiativeScore, Resolution, Scenario, SheetSummary, TurnReadiness, WayOut
from rules.outcome import LegacyOutcome, Outcome
from rules.pendragon import attack, healing, upkeep, ways_out
from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.character import Character, parse_character
from rules.pendragon.context import Ctx
from rules.pendragon.settings import SETTINGS, Rulings, parse_settings
from rules.pendragon.sheets import summarize, to_sheet, validate_sheet

SYSTEM_ID = "pendragon"
# ``damage`` is the attacker's damage dice and ``defender_damage`` the defender's (attack.damage_label)
ROLL_LABELS = frozenset({"attacker", "defender", "damage", "defender_damage", "knockdown", "fall", "fall_damage",
                         "major_wound", "valorous", "stat_loss", "first_aid", "chirurgery", "healing"})
ACTIONS = frozenset({"attack", "rearm", "stand", "first_aid", "chirurgery", "rest", "fall", "knockdown",
                     "major_wound", "gm_decide", "initiative", "unequip", "end_fight", "condition"})
URGENCY = ("dying", "fall_damage", "experience_check")


def _catalog(catalog: Any) -> PendragonCatalog:
    if not isinstance(catalog, PendragonCatalog):
        raise RulesError("the pendragon engine needs the pendragon content pack")
    return catalog


def _new(before: Character | None, after: Character | None, field: str, who: str) -> list[dict[str, Any]]:
    if after is None:
        return []
    old = list(getattr(before, field)) if before is not None else []
    fresh = [dict(item) for item in getattr(after, field) if item not in old]
    for item in fresh:
        item["who"] = who
    return fresh


def _action(scenario: Scenario) -> tuple[str, Mapping[str, Any]]:
    action = scenario.action if scenario.action is not None else {}
    if not isinstance(action, Mapping):
        raise RulesError("action must be a mapping with a 'type'")
    kind = action.get("type", "attack")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise RulesError(f"unknown pendragon action {kind!r} (actions: {', '.join(sorted(ACTIONS))})")
    return kind, action


def _characters(scenario: Scenario, pack: PendragonCatalog, kind: str) -> tuple[Character | None, Character | None]:
    attacker = parse_character(scenario.attacker, pack, "attacker") if kind != "initiative" or \
        scenario.attacker is not None else None
    defender = parse_character(scenario.defender, pack, "defender") if scenario.defender is not None \
        or kind == "attack" else None
    return attacker, defender


def _resolve(pack: PendragonCatalog, rules: Rulings, dice: DiceSource, kind: str, action: Mapping[str, Any],
             a_before: Character | None, d_before: Character | None, *, sheets: bool) -> Resolution:
    """One action on parsed characters (never changed: every rule returns new ones); ``sheets``: write both
    sheets after into the Resolution."""
    ctx = Ctx(pack, rules, dice)
    start = len(dice.rolls)
    a_after, d_after = a_before, d_before
    if kind == "attack":
        assert a_before is not None and d_before is not None
        outcome, a_after, d_after = attack.resolve_attack(ctx, a_before, d_before, action)
    elif kind == "initiative":
        outcome = upkeep.initiative(ctx, a_before, action)
    else:
        assert a_before is not None
        if kind == "first_aid":
            outcome, a_after = healing.first_aid(ctx, a_before, d_before, action)
        elif kind == "chirurgery":
            outcome, a_after = healing.chirurgery(ctx, a_before, d_before, action)
        elif kind == "rest":
            outcome, a_after = healing.rest(ctx, a_before, action)
        else:
            handler = {"rearm": upkeep.rearm, "stand": upkeep.stand, "gm_decide": upkeep.gm_decide,
                       "knockdown": upkeep.knockdown, "major_wound": upkeep.major_wound,
                       "fall": upkeep.fall, "unequip": upkeep.unequip, "end_fight": ways_out.end_fight,
                       "condition": ways_out.set_conditions}[kind]
            outcome, a_after = handler(ctx, a_before, action)
    decisions = _new(a_before, a_after, "pending_decisions", "attacker") + \
        _new(d_before, d_after, "pending_decisions", "defender")
    decisions.sort(key=lambda d: URGENCY.index(d["kind"]) if d.get("kind") in URGENCY else len(URGENCY))
    outcome["gm_decisions"] = decisions
    outcome["gm_decision"] = decisions[0] if decisions else None
    outcome["pending_rolls"] = _new(a_before, a_after, "pending_rolls", "attacker") + \
        _new(d_before, d_after, "pending_rolls", "defender")
    return Resolution(
        system=SYSTEM_ID, rolls=tuple(dice.rolls[start:]), outcome=LegacyOutcome(outcome),
        attacker=None if a_after is None or not sheets else to_sheet(a_after, pack),
        defender=None if d_after is None or not sheets else to_sheet(d_after, pack))


class PendragonEngine:
    system_id = SYSTEM_ID
    title = "King Arthur Pendragon"
    roll_labels = ROLL_LABELS
    actions = ACTIONS
    settings = SETTINGS

    def resolve(self, scenario: Scenario, dice: DiceSource, catalog: Any) -> Resolution:
        pack = _catalog(catalog)
        kind, action = _action(scenario)
        rules = parse_settings(scenario.settings)
        a_before, d_before = _characters(scenario, pack, kind)
        return _resolve(pack, rules, dice, kind, action, a_before, d_before, sheets=True)

    def prepare(self, scenario: Scenario, catalog: Any) -> Callable[[DiceSource], Resolution]:
        """``scenario`` resolved again and again with other dice (``rules.odds``): the sheets and rulings are
        read once and no sheet is written back (the Resolution's sheets are None)."""
        pack = _catalog(catalog)
        kind, action = _action(scenario)
        rules = parse_settings(scenario.settings)
        a_before, d_before = _characters(scenario, pack, kind)
        return lambda dice: _resolve(pack, rules, dice, kind, action, a_before, d_before, sheets=False)

    def validate_sheet(self, sheet: Mapping[str, Any], catalog: Any) -> dict[str, Any]:
        return validate_sheet(sheet, _catalog(catalog))

    def ways_out(self, sheet: Mapping[str, Any], catalog: Any, in_fight: bool) -> tuple[WayOut, ...]:
        return ways_out.ways_out(parse_character(sheet, _catalog(catalog)), in_fight)

    def turn_readiness(self, sheet: Mapping[str, Any], catalog: Any,
                       settings: Mapping[str, Any] | None = None) -> TurnReadiness:
        """Dead, dying, unconscious, or gone from the fight after a failed Valorous: no turn."""
        char = parse_character(sheet, _catalog(catalog))
        for flag, words in (("dead", "is dead"), ("dying", "is dying"), ("unconscious", "is unconscious"),
                            ("out_of_fight", "has left the fight (failed Valorous)")):
            if getattr(char, flag):
                return TurnReadiness(flag, words, skipped=True)
        return READY

    def lose_turn(self, sheet: Mapping[str, Any], catalog: Any) -> dict[str, Any]:
        return dict(sheet)

    def initiative_score(self, outcome: Outcome) -> InitiativeScore | None:
        """Pendragon rolls no initiative: both sides of an exchange roll at once; the GM sets the order."""
        return None

    def summarize(self, sheet: Mapping[str, Any], catalog: Any) -> SheetSummary:
        return summarize(sheet, _catalog(catalog))


ENGINE = PendragonEngine()
