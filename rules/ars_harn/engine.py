"""The ars-harn engine: Ars Magica combat with HarnMaster armour, strike locations and injuries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from rules.ars_harn import combat, magic, recovery, upkeep, ways_out
from rules.ars_harn.catalog import ArsHarnCatalog
from rules.ars_harn.character import Character, parse_character
from rules.ars_harn.context import Ctx
from rules.ars_harn.options import Options
from rules.ars_harn.outcomes import InitiativeOutcome, OneCharacter
from rules.ars_harn.rulings import RULINGS, parse_rulings
from rules.ars_harn.summary import summarize
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import (
    READY,
    Action,
    Catalog,
    InitiativeScore,
    Resolution,
    Ruling,
    Scenario,
    Sheet,
    SheetSummary,
    TurnReadiness,
    WayOut,
    action_options,
)
from rules.outcome import Outcome

SYSTEM_ID = "ars-harn"

ROLL_LABELS = frozenset({"initiative", "attack", "defense", "location", "shock", "kill", "fumble", "stumble",
                         "amputation", "targeting", "chirurgy", "healing", "fatigue"})
# the blow's rolls are the attacker's (where it lands too), the defence the defender's; the wounded side's
# Amputation, Kill, Fumble, Stumble and Shock are rolled under its side (injury.inflict)
LABEL_SIDES = MappingProxyType({"attack": "attacker", "location": "attacker", "targeting": "attacker",
                                "defense": "defender"})

Sides = tuple[Character | None, Character | None]
# an action: the rules context, its options, the attacker's and defender's sheets -> its record and both sheets after
Run = Callable[[Ctx, Options, Character | None, Character | None], tuple[Outcome, Character | None, Character | None]]


def _both(kind: str, act: Callable[[Ctx, Options, Character, Character], tuple[Outcome, Character, Character]]
          ) -> Run:
    """An action of one character on another (an attack, a spell)."""
    def run(ctx: Ctx, options: Options, attacker: Character | None, defender: Character | None
            ) -> tuple[Outcome, Character | None, Character | None]:
        if attacker is None or defender is None:
            raise RulesError(f"action '{kind}' needs both an attacker and a defender")
        return act(ctx, options, attacker, defender)
    return run


def _one(kind: str, act: Callable[[Ctx, Options, Character, str], tuple[OneCharacter, Character]]) -> Run:
    """An action on one character's sheet: the attacker's unless 'who' says defender (a lone defender sheet is
    taken as the character too). The record names whose it was."""
    def run(ctx: Ctx, options: Options, attacker: Character | None, defender: Character | None
            ) -> tuple[Outcome, Character | None, Character | None]:
        who = options.who("attacker" if attacker is not None else "defender")
        chosen = attacker if who == "attacker" else defender
        if chosen is None:
            raise RulesError(f"action '{kind}' needs a sheet for the {who}")
        out, chosen = act(ctx, options, chosen, who)
        out = replace(out, who=who, name=chosen.name)
        return (out, chosen, defender) if who == "attacker" else (out, attacker, chosen)
    return run


def _sheet(act: Callable[[Ctx, Options, Character], tuple[OneCharacter, Character]]
           ) -> Callable[[Ctx, Options, Character, str], tuple[OneCharacter, Character]]:
    return lambda ctx, options, c, who: act(ctx, options, c)


def _heal(ctx: Ctx, options: Options, attacker: Character | None, defender: Character | None
          ) -> tuple[Outcome, Character | None, Character | None]:
    if attacker is None:
        raise RulesError("action 'heal' needs the healer as attacker (and the patient as defender)")
    if options.has("who"):
        raise RulesError("action 'heal': the healer is the attacker, the patient the defender")
    if defender is None:
        out, healer, _patient = recovery.heal(ctx, options, attacker, attacker, same=True)
        return out, healer, None
    return recovery.heal(ctx, options, attacker, defender, same=False)


def _initiative(ctx: Ctx, options: Options, attacker: Character | None, defender: Character | None
                ) -> tuple[Outcome, Character | None, Character | None]:
    if options.has("who"):
        who = options.who()
        chosen = attacker if who == "attacker" else defender
        if chosen is None:
            raise RulesError(f"action 'initiative': there is no {who} sheet")
        chosen, result = combat.initiative(ctx, options, chosen)
        if who == "attacker":
            return InitiativeOutcome(attacker=result, only="attacker"), chosen, defender
        return InitiativeOutcome(defender=result, only="defender"), attacker, chosen
    if attacker is None and defender is None:
        raise RulesError("action 'initiative' needs at least one sheet")
    first = second = None
    if attacker is not None:
        attacker, first = combat.initiative(ctx, options, attacker)
    if defender is not None:
        defender, second = combat.initiative(ctx, options, defender)
    return InitiativeOutcome(attacker=first, defender=second), attacker, defender


# action type -> its options and its rule; each writes the record rules/ars_harn/outcomes.py RECORDS names
ACTIONS: dict[str, Action[Run]] = {  # ("who" picks the sheet of a one-character action)
    "attack": Action(combat.ATTACK_OPTIONS, _both("attack", combat.attack)),
    "cast": Action(magic.CAST_OPTIONS, _both("cast", magic.cast)),
    "initiative": Action(("modifier", "who"), _initiative),
    "shock": Action(("who",), _one("shock", _sheet(upkeep.shock))),
    "kill": Action(("who",), _one("kill", upkeep.kill)),
    "gm_decide": Action(("decision", "who"), _one("gm_decide", _sheet(upkeep.gm_decide))),
    "heal": Action(recovery.HEAL_OPTIONS, _heal),
    "rest": Action(recovery.REST_OPTIONS, _one("rest", _sheet(recovery.rest))),
    "tactical_advantage": Action(("use", "weapon", "hand", "who"),
                                 _one("tactical_advantage", _sheet(upkeep.use_advantage))),
    "recover": Action(("condition", "free", "who"), _one("recover", _sheet(ways_out.recover))),
    "ready": Action(("weapon", "hand", "free", "who"), _one("ready", _sheet(upkeep.ready_weapon))),
    "fatigue": Action(("change", "roll", "ease_factor", "modifier", "who"), _one("fatigue", _sheet(upkeep.fatigue))),
    "condition": Action(("add", "remove", "who"), _one("condition", _sheet(upkeep.set_conditions))),
    "inflict": Action(("location", "side", "code", "effective_impact", "aspect", "bleeding", "who"),
                      _one("inflict", upkeep.gm_wound)),
    "unequip": Action(("kind", "item", "who"), _one("unequip", _sheet(upkeep.unequip_item))),
    "end_fight": Action(("who",), _one("end_fight", _sheet(ways_out.end_fight))),
}
ACTION_OPTIONS = action_options(ACTIONS)


def _catalog(catalog: Catalog) -> ArsHarnCatalog:
    if not isinstance(catalog, ArsHarnCatalog):
        raise RulesError("the ars-harn engine needs the ars-harn content pack")
    return catalog


class ArsHarnEngine:
    system_id = SYSTEM_ID
    title = "Ars Magica with HarnMaster armour and injuries"
    roll_labels = ROLL_LABELS
    label_sides = LABEL_SIDES
    actions = frozenset(ACTION_OPTIONS)
    rulings: tuple[Ruling, ...] = RULINGS

    def validate_sheet(self, sheet: Sheet, catalog: Catalog) -> dict[str, Any]:
        cat = _catalog(catalog)
        return parse_character(sheet, "sheet", cat).to_dict(cat)

    def summarize(self, sheet: Sheet, catalog: Catalog) -> SheetSummary:
        cat = _catalog(catalog)
        return summarize(parse_character(sheet, "sheet", cat), cat)

    def ways_out(self, sheet: Sheet, catalog: Catalog, in_fight: bool) -> tuple[WayOut, ...]:
        return ways_out.ways_out(parse_character(sheet, "sheet", _catalog(catalog)), in_fight)

    def turn_readiness(self, sheet: Sheet, catalog: Catalog,
                       rulings: Mapping[str, Any] | None = None) -> TurnReadiness:
        """Dead, incapacitated or unconscious: no turn. In shock: the turn comes, for the Shock re-roll the
        seed allows each round (and being led off), but no attack or Defense (docs/rules/ars-harn.md)."""
        c = parse_character(sheet, "sheet", _catalog(catalog))
        for condition in ("dead", "incapacitated", "unconscious"):
            if c.has(condition):
                return TurnReadiness(condition, f"is {condition}", skipped=True)
        if c.has("shock"):
            return TurnReadiness("shock", "is in shock: re-roll Shock (/shock) or be led off", skipped=False)
        return READY

    def lose_turn(self, sheet: Sheet, catalog: Catalog) -> dict[str, Any]:
        return dict(sheet)

    def initiative_score(self, record: Outcome) -> InitiativeScore | None:
        """The Initiative total (stress die + Qik + weapon - Encumbrance ...); a tie goes to the higher Quickness."""
        rolled = record.rolled if isinstance(record, InitiativeOutcome) else None
        if rolled is None:
            return None
        return InitiativeScore(rolled.total, (rolled.modifiers.get("qik", 0),))

    def resolve(self, scenario: Scenario, dice: DiceSource, catalog: Catalog) -> Resolution:
        cat = _catalog(catalog)
        if scenario.system != SYSTEM_ID:
            raise RulesError(f"scenario is for '{scenario.system}', not {SYSTEM_ID}")
        rulings = parse_rulings(scenario.rulings)
        action_map = scenario.action
        if not isinstance(action_map, Mapping):
            raise RulesError("action must be a mapping with a 'type'")
        kind = action_map.get("type", "attack")
        if not isinstance(kind, str) or kind not in ACTION_OPTIONS:
            raise RulesError(f"unknown action type {kind!r} (actions: {', '.join(ACTION_OPTIONS)})")
        options = Options(action_map, ACTION_OPTIONS[kind])
        ctx = Ctx(cat, rulings, dice)
        first = len(dice.rolls)
        attacker = None if scenario.attacker is None else parse_character(scenario.attacker, "attacker", cat)
        defender = None if scenario.defender is None else parse_character(scenario.defender, "defender", cat)
        outcome, attacker, defender = ACTIONS[kind].run(ctx, options, attacker, defender)
        return Resolution(
            system=SYSTEM_ID,
            rolls=tuple(dice.rolls[first:]),
            outcome=outcome,
            attacker=None if attacker is None else attacker.to_dict(cat),
            defender=None if defender is None else defender.to_dict(cat),
        )

    def prepare(self, scenario: Scenario, catalog: Catalog) -> Callable[[DiceSource], Resolution]:
        """``scenario`` resolved again and again with other dice (``rules.odds``): an attack or spell reads its
        sheets, rulings and options once and writes no sheet back (the Resolution's sheets are None)."""
        cat = _catalog(catalog)
        action_map = scenario.action
        kind = action_map.get("type", "attack") if isinstance(action_map, Mapping) else None
        if (scenario.system != SYSTEM_ID or kind not in ("attack", "cast") or scenario.attacker is None
                or scenario.defender is None):
            return lambda dice: self.resolve(scenario, dice, cat)
        rulings = parse_rulings(scenario.rulings)
        options = Options(action_map, ACTION_OPTIONS[kind])
        attacker = parse_character(scenario.attacker, "attacker", cat)
        defender = parse_character(scenario.defender, "defender", cat)
        run = ACTIONS[kind].run

        def once(dice: DiceSource) -> Resolution:
            first = len(dice.rolls)
            outcome, _, _ = run(Ctx(cat, rulings, dice), options, attacker, defender)
            return Resolution(system=SYSTEM_ID, rolls=tuple(dice.rolls[first:]), outcome=outcome,
                              attacker=None, defender=None)

        return once


ENGINE = ArsHarnEngine()
