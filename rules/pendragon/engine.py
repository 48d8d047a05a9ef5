"""The Pendragon engine: the contract in rules/model.py, dispatching each action type."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import (
    READY,
    Action,
    Catalog,
    InitiativeScore,
    Resolution,
    Scenario,
    SheetSummary,
    TurnReadiness,
    WayOut,
    action_options,
)
from rules.outcome import Outcome
from rules.pendragon import combat, recovery, upkeep, ways_out
from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.character import Character, parse_character
from rules.pendragon.context import Ctx
from rules.pendragon.outcomes import PendingRoll, PendragonDecision, PendragonOutcome
from rules.pendragon.rulings import RULINGS, Rulings, parse_rulings
from rules.pendragon.summary import summarize, to_sheet, validate_sheet

SYSTEM_ID = "pendragon"
# ``damage`` is the attacker's damage dice and ``defender_damage`` the defender's (combat.damage_label)
ROLL_LABELS = frozenset({"attacker", "defender", "damage", "defender_damage", "knockdown", "fall", "fall_damage",
                         "major_wound", "valorous", "stat_loss", "first_aid", "chirurgery", "healing"})
# each side's opposed roll and damage dice; the loser's knockdown, major wound, Valorous and fall are rolled
# under the loser's side (combat._winners_phase)
LABEL_SIDES = MappingProxyType({"attacker": "attacker", "damage": "attacker", "defender": "defender",
                                "defender_damage": "defender"})
URGENCY = ("dying", "fall_damage", "experience_check")


def _catalog(catalog: Catalog) -> PendragonCatalog:
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
    if not isinstance(kind, str) or kind not in ACTION_OPTIONS:
        raise RulesError(f"unknown pendragon action {kind!r} (actions: {', '.join(sorted(ACTION_OPTIONS))})")
    return kind, action


def _characters(scenario: Scenario, pack: PendragonCatalog, kind: str) -> tuple[Character | None, Character | None]:
    attacker = parse_character(scenario.attacker, pack, "attacker") if kind != "initiative" or \
        scenario.attacker is not None else None
    defender = parse_character(scenario.defender, pack, "defender") if scenario.defender is not None \
        or kind == "attack" else None
    return attacker, defender


# One rule's run: the parsed characters before, the action; its record and both characters after.
Run = Callable[[Ctx, Character | None, Character | None, Mapping[str, Any]],
               tuple[PendragonOutcome, Character | None, Character | None]]


def _attack(ctx: Ctx, a: Character | None, d: Character | None, action: Mapping[str, Any]
            ) -> tuple[PendragonOutcome, Character | None, Character | None]:
    assert a is not None and d is not None
    return combat.resolve_attack(ctx, a, d, action)


def _initiative(ctx: Ctx, a: Character | None, d: Character | None, action: Mapping[str, Any]
                ) -> tuple[PendragonOutcome, Character | None, Character | None]:
    return upkeep.initiative(ctx, a, action), a, d


def _healer(rule: Callable[[Ctx, Character, Character | None, Any], tuple[PendragonOutcome, Character]]) -> Run:
    """A treatment: the patient is the attacker, the healer (who is not changed) the defender."""
    def run(ctx: Ctx, a: Character | None, d: Character | None, action: Mapping[str, Any]
            ) -> tuple[PendragonOutcome, Character | None, Character | None]:
        assert a is not None
        outcome, after = rule(ctx, a, d, action)
        return outcome, after, d
    return run


def _on_attacker(rule: Callable[[Ctx, Character, Any], tuple[PendragonOutcome, Character]]) -> Run:
    def run(ctx: Ctx, a: Character | None, d: Character | None, action: Mapping[str, Any]
            ) -> tuple[PendragonOutcome, Character | None, Character | None]:
        assert a is not None
        outcome, after = rule(ctx, a, action)
        return outcome, after, d
    return run


# action type -> its options and its rule; each writes the record rules/pendragon/outcomes.py RECORDS names for it
ACTIONS: dict[str, Action[Run]] = {
    "attack": Action(combat.ATTACK_OPTIONS, _attack),
    "rearm": Action(upkeep.REARM_OPTIONS, _on_attacker(upkeep.rearm)),
    "stand": Action(upkeep.STAND_OPTIONS, _on_attacker(upkeep.stand)),
    "first_aid": Action(recovery.FIRST_AID_OPTIONS, _healer(recovery.first_aid)),
    "chirurgery": Action(recovery.CHIRURGERY_OPTIONS, _healer(recovery.chirurgery)),
    "rest": Action(recovery.REST_OPTIONS, _on_attacker(recovery.rest)),
    "fall": Action(upkeep.FALL_OPTIONS, _on_attacker(upkeep.fall)),
    "knockdown": Action(upkeep.KNOCKDOWN_OPTIONS, _on_attacker(upkeep.knockdown)),
    "major_wound": Action(upkeep.MAJOR_WOUND_OPTIONS, _on_attacker(upkeep.major_wound)),
    "gm_decide": Action(upkeep.GM_DECIDE_OPTIONS, _on_attacker(upkeep.gm_decide)),
    "initiative": Action(upkeep.INITIATIVE_OPTIONS, _initiative),
    "unequip": Action(upkeep.UNEQUIP_OPTIONS, _on_attacker(upkeep.unequip)),
    "end_fight": Action(ways_out.END_FIGHT_OPTIONS, _on_attacker(ways_out.end_fight)),
    "condition": Action(ways_out.CONDITION_OPTIONS, _on_attacker(ways_out.set_conditions)),
}
ACTION_OPTIONS = action_options(ACTIONS)


def _resolve(pack: PendragonCatalog, rulings: Rulings, dice: DiceSource, kind: str, action: Mapping[str, Any],
             a_before: Character | None, d_before: Character | None, *, sheets: bool,
             npcs: frozenset[str] = frozenset()) -> Resolution:
    """One action on parsed characters (never changed: every rule returns new ones); ``sheets``: write both
    sheets after into the Resolution."""
    ctx = Ctx(pack, rulings, dice, npcs)
    start = len(dice.rolls)
    outcome, a_after, d_after = ACTIONS[kind].run(ctx, a_before, d_before, action)
    # what the action left for the GM, read from what is new on the sheets (where it waits between commands)
    decisions = [PendragonDecision.from_dict(d) for d in _new(a_before, a_after, "pending_decisions", "attacker")
                 + _new(d_before, d_after, "pending_decisions", "defender")]
    decisions.sort(key=lambda d: URGENCY.index(d.kind) if d.kind in URGENCY else len(URGENCY))
    pending = tuple(PendingRoll.from_dict(r) for r in _new(a_before, a_after, "pending_rolls", "attacker")
                    + _new(d_before, d_after, "pending_rolls", "defender"))
    record = replace(outcome, left_for_gm=tuple(decisions), pending_rolls=pending)
    return Resolution(
        system=SYSTEM_ID, rolls=tuple(dice.rolls[start:]), outcome=record,
        attacker=None if a_after is None or not sheets else to_sheet(a_after, pack),
        defender=None if d_after is None or not sheets else to_sheet(d_after, pack))


class PendragonEngine:
    system_id = SYSTEM_ID
    title = "King Arthur Pendragon"
    roll_labels = ROLL_LABELS
    label_sides = LABEL_SIDES
    actions = frozenset(ACTION_OPTIONS)
    rulings = RULINGS

    def resolve(self, scenario: Scenario, dice: DiceSource, catalog: Catalog) -> Resolution:
        pack = _catalog(catalog)
        kind, action = _action(scenario)
        rulings = parse_rulings(scenario.rulings)
        a_before, d_before = _characters(scenario, pack, kind)
        return _resolve(pack, rulings, dice, kind, action, a_before, d_before, sheets=True, npcs=scenario.npcs)

    def prepare(self, scenario: Scenario, catalog: Catalog) -> Callable[[DiceSource], Resolution]:
        """``scenario`` resolved again and again with other dice (``rules.odds``): the sheets and rulings are
        read once and no sheet is written back (the Resolution's sheets are None)."""
        pack = _catalog(catalog)
        kind, action = _action(scenario)
        rulings = parse_rulings(scenario.rulings)
        a_before, d_before = _characters(scenario, pack, kind)
        return lambda dice: _resolve(pack, rulings, dice, kind, action, a_before, d_before, sheets=False,
                                     npcs=scenario.npcs)

    def validate_sheet(self, sheet: Mapping[str, Any], catalog: Catalog) -> dict[str, Any]:
        return validate_sheet(sheet, _catalog(catalog))

    def ways_out(self, sheet: Mapping[str, Any], catalog: Catalog, in_fight: bool) -> tuple[WayOut, ...]:
        return ways_out.ways_out(parse_character(sheet, _catalog(catalog)), in_fight)

    def turn_readiness(self, sheet: Mapping[str, Any], catalog: Catalog,
                       rulings: Mapping[str, Any] | None = None) -> TurnReadiness:
        """Dead, dying, unconscious, or gone from the fight after a failed Valorous: no turn."""
        char = parse_character(sheet, _catalog(catalog))
        for flag, words in (("dead", "is dead"), ("dying", "is dying"), ("unconscious", "is unconscious"),
                            ("out_of_fight", "has left the fight (failed Valorous)")):
            if getattr(char, flag):
                return TurnReadiness(flag, words, skipped=True)
        return READY

    def lose_turn(self, sheet: Mapping[str, Any], catalog: Catalog) -> dict[str, Any]:
        return dict(sheet)

    def initiative_score(self, outcome: Outcome) -> InitiativeScore | None:
        """Pendragon rolls no initiative: both sides of an exchange roll at once; the GM sets the order."""
        return None

    def summarize(self, sheet: Mapping[str, Any], catalog: Catalog) -> SheetSummary:
        return summarize(sheet, _catalog(catalog))


ENGINE = PendragonEngine()
