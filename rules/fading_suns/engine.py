"""The Fading Suns engine: actions dispatched to their rules, sheets in and out as plain mappings."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, TypeVar

from rules.dice import DiceSource
from rules.errors import RulesError, SheetError
from rules.fading_suns import combat, recovery, ways_out
from rules.fading_suns.catalog import FadingSunsCatalog
from rules.fading_suns.character import Character, parse
from rules.fading_suns.context import Ctx
from rules.fading_suns.outcomes import InitiativeOutcome
from rules.fading_suns.rulings import RULINGS, parse_rulings
from rules.fading_suns.summary import summarize
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

SYSTEM_ID = "fading-suns"

T = TypeVar("T")

# What an action hands back: its record, and the attacker's and defender's characters after it (None: that sheet
# goes back as it came).
Done = tuple[Outcome, Character | None, Character | None]


@contextmanager
def _one_line() -> Iterator[None]:
    """Errors are shown to users as one line: escape line breaks that came in with typed names."""
    try:
        yield
    except RulesError as exc:
        text = str(exc)
        if "\n" in text or "\r" in text:
            raise type(exc)(text.replace("\r", "\\r").replace("\n", "\\n")) from None
        raise


def _guarded(fn: Callable[..., T], *args: Any) -> T:
    with _one_line():
        return fn(*args)


def _catalog(catalog: Catalog) -> FadingSunsCatalog:
    if not isinstance(catalog, FadingSunsCatalog):
        raise RulesError("the fading-suns engine needs the fading-suns content pack")
    return catalog


def _sheet(sheet: Any, catalog: FadingSunsCatalog, who: str) -> Character:
    if sheet is None:
        raise SheetError(f"{who}: the sheet is missing")
    return parse(sheet, catalog, who)


def _passthrough(sheet: Any, who: str) -> dict[str, Any] | None:
    """A sheet the action does not change goes back as it came."""
    if sheet is None:
        return None
    if not isinstance(sheet, Mapping):
        raise SheetError(f"{who} must be a mapping")
    return dict(sheet)


def _action(raw: Any) -> tuple[str, Mapping[str, Any]]:
    if not isinstance(raw, Mapping):
        raise RulesError("action must be a mapping with a 'type'")
    kind = raw.get("type", "attack")
    if not isinstance(kind, str) or kind not in ACTION_OPTIONS:
        raise RulesError(f"action: type must be one of {', '.join(ACTION_OPTIONS)}, not {kind!r}")
    for key in raw:
        if key != "type" and key not in ACTION_OPTIONS[kind]:
            allowed = ", ".join(ACTION_OPTIONS[kind]) or "none"
            raise RulesError(f"action: unknown option {key!r} for {kind} (options: {allowed})")
    return kind, raw


def _attack(ctx: Ctx, cat: FadingSunsCatalog, attacker: Any, defender: Any, action: Mapping[str, Any]) -> Done:
    return combat.attack(ctx, _sheet(attacker, cat, "attacker"), _sheet(defender, cat, "defender"), action)


def _initiative(ctx: Ctx, cat: FadingSunsCatalog, attacker: Any, defender: Any, action: Mapping[str, Any]) -> Done:
    other = None if defender is None else _sheet(defender, cat, "defender")
    return combat.initiative(ctx, _sheet(attacker, cat, "attacker"), other, action), None, None


def _heal(ctx: Ctx, cat: FadingSunsCatalog, attacker: Any, defender: Any, action: Mapping[str, Any]) -> Done:
    """The healer is the attacker; the patient the defender (none: the healer treats their own wound)."""
    patient = None if defender is None else _sheet(defender, cat, "defender")
    return recovery.heal(ctx, _sheet(attacker, cat, "attacker"), patient, action)


def _gm_decide(ctx: Ctx, cat: FadingSunsCatalog, attacker: Any, defender: Any, action: Mapping[str, Any]) -> Done:
    who = action.get("who", "attacker")
    if who not in ("attacker", "defender"):
        raise RulesError(f"action: who must be attacker or defender, not {who!r}")
    outcome, char = recovery.gm_decide(ctx, _sheet(attacker if who == "attacker" else defender, cat, str(who)),
                                       action, str(who))
    return (outcome, char, None) if who == "attacker" else (outcome, None, char)


def _on_attacker(rule: Callable[[Ctx, Character, Mapping[str, Any]], tuple[Outcome, Character]]) -> Run:
    """An action on one character, the attacker's sheet."""
    def run(ctx: Ctx, cat: FadingSunsCatalog, attacker: Any, defender: Any, action: Mapping[str, Any]) -> Done:
        outcome, char = rule(ctx, _sheet(attacker, cat, "attacker"), action)
        return outcome, char, None
    return run


Run = Callable[[Ctx, FadingSunsCatalog, Any, Any, Mapping[str, Any]], Done]


# action type -> its options and its rule; each writes the record rules/fading_suns/outcomes.py RECORDS names
ACTIONS: dict[str, Action[Run]] = {
    "attack": Action(("weapon", "mode", "aim", "modifiers", "defense", "defense_weapon", "defense_modifiers"),
                     _attack),
    "initiative": Action(("weapon", "defender_weapon", "modifiers", "defender_modifiers"), _initiative),
    "effect": Action(("pending", "column"), _on_attacker(recovery.effect)),
    "gm_decide": Action(("choice", "who"), _gm_decide),
    "heal": Action(("skill", "wound", "modifiers"), _heal),
    "rest": Action(("days",), _on_attacker(recovery.rest)),
    "recover": Action(("condition", "weapon"), _on_attacker(recovery.recover)),
    "injure": Action(("damage", "damage_type", "location", "column", "armour"), _on_attacker(combat.injure)),
    "unequip": Action(("kind", "item"), _on_attacker(recovery.unequip)),
    "end_fight": Action((), _on_attacker(ways_out.end_fight)),
    "condition": Action(("add", "remove"), _on_attacker(ways_out.set_conditions)),
}
ACTION_OPTIONS = action_options(ACTIONS)


class FadingSunsEngine:
    system_id = SYSTEM_ID
    title = "Fading Suns (Size and hit-location adaptation)"
    roll_labels = frozenset({"attack", "defense", "location", "effect", "stumble", "fumble", "heal",
                             "damage", "armor"})
    # the attack, where it lands and its damage dice are the attacker's; the defence and the armour dice the
    # defender's; a wound's effect, STUMBLE and FUMBLE are rolled under the side they befall (injury.wound_roll)
    label_sides = MappingProxyType({"attack": "attacker", "location": "attacker", "damage": "attacker",
                                    "defense": "defender", "armor": "defender"})
    actions = frozenset(ACTION_OPTIONS)
    rulings: tuple[Ruling, ...] = RULINGS

    def turn_readiness(self, sheet: Sheet, catalog: Catalog, rulings: Mapping[str, Any] | None = None) -> TurnReadiness:
        """Dead, dying or unconscious: no turn. Stunned: the next turn is lost, and that pays the stun off
        (``lose_turn``) unless the ruling ``stun_lasts`` is ``until_recovered``, docs/rules/fading-suns.md."""
        char = parse(sheet, _catalog(catalog), "sheet")
        if char.has("stunned") and parse_rulings(rulings or {}).stun_lasts == "until_recovered":
            return TurnReadiness("stunned", "is stunned until recovered (/recover)", skipped=True)
        for condition in ("dead", "dying", "unconscious"):
            if char.has(condition):
                return TurnReadiness(condition, f"is {condition}", skipped=True)
        if char.has("stunned"):
            return TurnReadiness("stunned", "is stunned", skipped=True,
                                 ends_when_skipped=True)
        return READY

    def lose_turn(self, sheet: Sheet, catalog: Catalog) -> dict[str, Any]:
        char = parse(sheet, _catalog(catalog), "sheet")
        if not char.has("stunned"):
            return dict(sheet)
        return char.with_conditions((), ("stunned",)).to_dict()

    def initiative_score(self, outcome: Outcome) -> InitiativeScore | None:
        """Characteristic + skill + weapon initiative less wound penalties; a tie goes to the higher Wits."""
        side = outcome.initiative.attacker if isinstance(outcome, InitiativeOutcome) else None
        if side is None:
            return None
        return InitiativeScore(side.score, (side.wits,))

    def resolve(self, scenario: Scenario, dice: DiceSource, catalog: Catalog) -> Resolution:
        return _guarded(self._resolve, scenario, dice, catalog)

    def _resolve(self, scenario: Scenario, dice: DiceSource, catalog: Catalog) -> Resolution:
        cat = _catalog(catalog)
        rulings = parse_rulings(scenario.rulings)
        kind, action = _action(scenario.action)
        ctx = Ctx(cat, rulings, dice)
        start = len(dice.rolls)
        attacker_in, defender_in = scenario.attacker, scenario.defender
        attacker_out: Any = _passthrough(attacker_in, "attacker")
        defender_out: Any = _passthrough(defender_in, "defender")

        outcome, attacker, defender = ACTIONS[kind].run(ctx, cat, attacker_in, defender_in, action)
        if attacker is not None:
            attacker_out = attacker.to_dict()
        if defender is not None:
            defender_out = defender.to_dict()
        return Resolution(system=SYSTEM_ID, rolls=tuple(dice.rolls[start:]), outcome=outcome,
                          attacker=attacker_out, defender=defender_out)

    def prepare(self, scenario: Scenario, catalog: Catalog) -> Callable[[DiceSource], Resolution]:
        """``scenario`` resolved again and again with other dice (``rules.odds``): an attack reads its sheets
        and rulings once and writes no sheet back (the Resolution's sheets are None)."""
        with _one_line():
            cat = _catalog(catalog)
            kind, action = _action(scenario.action)
            if kind != "attack":
                return lambda dice: self.resolve(scenario, dice, cat)
            rulings = parse_rulings(scenario.rulings)
            attacker = _sheet(scenario.attacker, cat, "attacker")
            defender = _sheet(scenario.defender, cat, "defender")

        def once(dice: DiceSource) -> Resolution:
            start = len(dice.rolls)
            with _one_line():
                outcome, _, _ = combat.attack(Ctx(cat, rulings, dice), attacker, defender, action)
            return Resolution(system=SYSTEM_ID, rolls=tuple(dice.rolls[start:]), outcome=outcome,
                              attacker=None, defender=None)

        return once

    def ways_out(self, sheet: Any, catalog: Catalog, in_fight: bool) -> tuple[WayOut, ...]:
        with _one_line():
            return ways_out.ways_out(parse(sheet, _catalog(catalog)), in_fight)

    def validate_sheet(self, sheet: Any, catalog: Catalog) -> dict[str, Any]:
        with _one_line():
            return parse(sheet, _catalog(catalog)).to_dict()

    def summarize(self, sheet: Any, catalog: Catalog) -> SheetSummary:
        with _one_line():
            return summarize(sheet, _catalog(catalog))


ENGINE = FadingSunsEngine()
