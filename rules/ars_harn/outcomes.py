"""What each ars-harn action did: one typed record per action (rules/outcome.py's contract).

The engine writes them and the bot reads their fields. ``to_dict`` writes the keys events have always stored,
in the order they had, and ``from_dict`` reads any stored payload back (docs/decisions/typed-outcomes.md).
Facts worked out from an outcome (who gained the Tactical Advantage, which rolls the wound called for) are
properties here, computed in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Self

from rules.outcome import FLAT, OMIT_NONE, DecisionRequest, FightEnd, Outcome, Record

# -- the parts records share ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check(Record):
    """A stress roll against an Ease Factor (Shock, Kill, Fumble, Targeting, Chirurgy ...). ``automatic``: the
    rules made it fail with no roll (a Fumble after a grievous arm wound): ``total`` and ``die`` are None."""

    total: int | None = None
    ease_factor: int | None = None
    critical_ease_factor: int | None = None  # chirurgy: the total of a critical success
    passed: bool | None = None  # None: not settled (a shape some old events have)
    botched: bool = False
    automatic: bool = False
    die: int | None = None
    modifiers: dict[str, int] = field(default_factory=dict)

    def hidden(self) -> Check:
        """The check with its total, die and modifiers left out (a secret roll: what it did, not its numbers)."""
        return replace(self, total=None, die=None, modifiers={})

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.critical_ease_factor is None:
            del out["critical_ease_factor"]
        else:
            del out["die"]  # chirurgy's roll never kept its die
        if self.automatic:
            del out["modifiers"]
        return out


@dataclass(frozen=True)
class Injury(Record):
    """A wound as it was made: its number on the sheet, where, the code (``G4``) and what it does."""

    index: int = 0
    location: str = ""
    side: str | None = None
    aspect: str = ""
    code: str = ""
    severity: str = ""  # the pack's word for it: minor, serious, grievous, kill
    levels: int = 0
    bleeding: bool = False
    amputated: bool = False
    treated: bool = False
    healing_rate: int | None = None
    source: str = "weapon"


@dataclass(frozen=True)
class KillDecision(DecisionRequest):
    """A failed Kill roll's choice, death or incapacitation, for the GM; ``wound``: the wound that asks it."""

    kind: str = "kill"
    who: str = "defender"
    wound: int | None = None


@dataclass(frozen=True)
class OwedRoll(Record):
    """A Shock or Kill roll that waits for the GM (``/setup rolls mode:gm``)."""

    kind: str = ""
    wound: int | None = None
    ease_factor: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {key: value for key, value in super().to_dict().items() if value is not None}


CHECK_NAMES = ("shock", "kill", "fumble", "stumble", "amputation")


@dataclass(frozen=True)
class Wounding(Record):
    """A new injury and every roll it called for, made in this order: amputation, kill, fumble or stumble, shock
    (rules/ars_harn/injury.py). All None and empty: the blow made no injury."""

    injury: Injury | None = None
    amputation: Check | None = None
    kill: Check | None = None
    fumble: Check | None = None
    stumble: Check | None = None
    shock: Check | None = None
    gm_decision: KillDecision | None = None
    pending: tuple[OwedRoll, ...] = ()
    dropped: str | None = None  # the weapon a failed Fumble roll made fall
    severed: str | None = None  # ``right_forearm``: the part an amputation took (``right forepaw``: as its body
    # calls it, for a body the pack words: ruling 21)
    severed_kills: bool = False  # and that part was one a body cannot lose (the neck)
    limb: str | None = field(default=None, metadata=OMIT_NONE)  # the hurt limb as a non-human body calls it

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if not self.severed_kills:
            del out["severed_kills"]
        return out

    @property
    def checks(self) -> tuple[tuple[str, Check], ...]:
        """The rolls made, named, in the order a table reads them (shock first)."""
        made = (("shock", self.shock), ("kill", self.kill), ("fumble", self.fumble), ("stumble", self.stumble),
                ("amputation", self.amputation))
        return tuple((name, check) for name, check in made if check is not None)

    @property
    def kill_failed(self) -> bool:
        return self.kill is not None and self.kill.passed is False

    def hiding_rolls(self) -> Wounding:
        """The rolls' verdicts without their totals (the target's, kept secret)."""
        def hide(check: Check | None) -> Check | None:
            return None if check is None else check.hidden()
        return replace(self, amputation=hide(self.amputation), kill=hide(self.kill), fumble=hide(self.fumble),
                       stumble=hide(self.stumble), shock=hide(self.shock))

    def hiding_target(self) -> Wounding:
        """The wound as a player reads it on a secret target: its code and severity in words, the rolls'
        verdicts; not its injury levels nor the rolls' totals (the tracker hides its penalty too)."""
        injury = None if self.injury is None else replace(self.injury, levels=0)
        return replace(self.hiding_rolls(), injury=injury)


# the rolls a blow's target makes: its Defense and the rolls its wound calls for
TARGET_ROLLS = frozenset({"defense", "amputation", "kill", "fumble", "stumble", "shock"})


@dataclass(frozen=True)
class Blow(Record):
    """Where a blow or a spell landed and what got through: damage, Soak, the location roll, Effective Impact."""

    damage_base: int | None = None
    damage_total: int | None = None
    soak_base: int | None = None
    armour: int | None = None  # every layer worn there, against this damage type
    armour_pieces: tuple[str, ...] = ()
    soak_total: int | None = None
    location: str | None = None
    side: str | None = None
    location_roll: int | None = None
    effective_impact: int | None = None
    part: str | None = field(default=None, metadata=OMIT_NONE)  # the location as a non-human body calls it

    def hiding_soak(self) -> Blow:
        """The blow as the attacker may read it where the target's sheet is secret: the damage dealt, not the
        target's Soak and armour (the Effective Impact, damage less Soak, would tell them)."""
        return replace(self, soak_base=None, armour=None, armour_pieces=(), soak_total=None, effective_impact=None)

    @property
    def place(self) -> str | None:
        """``right_upper_arm``: the location, its side joined (None: the blow did not land)."""
        if self.location is None:
            return None
        return f"{self.side}_{self.location}" if self.side else self.location


# -- attacks and spells -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOutcome(Outcome):
    """An attack: the Attack and Defense rolls, the excess (or the points saved), and the blow."""

    action: str = "attack"
    weapon: str | None = None
    aspect: str | None = None
    aim: str | None = None
    declared_aim: str | None = None
    attack_total: int | None = None
    attack_die: int | None = None
    attack_botched: bool = False
    attack_modifiers: dict[str, int] | None = None
    defense_total: int | None = None
    defense_die: int | None = None
    defense_botched: bool = False
    defense_modifiers: dict[str, int] | None = None
    defense_rolled: bool = False  # False: the defender could not defend (in shock, unconscious ...)
    hit: bool = False
    excess: int = 0
    saved_points: int = 0  # the attacker's store after
    saved_points_used: int = 0
    saved_points_capped: bool = False
    saved_points_cap: int | None = None
    excess_saved: bool = False
    tactical_advantage: bool | str = False  # a side's name in the oldest events
    tactical_advantage_for: str | None = None
    blow: Blow = field(default_factory=Blow, metadata=FLAT)
    injury_levels: int | None = None  # the defender's after
    conditions: tuple[str, ...] = ()  # the defender's after
    wounding: Wounding = field(default_factory=Wounding, metadata=FLAT)
    range: str | None = None  # a missile's range band

    @property
    def armour_held_at(self) -> str | None:
        """Where a hit met armour that left no injury (the sheet keeps no trace of it; the wound picture marks it)."""
        if not self.hit or self.wounding.injury is not None or not (self.blow.armour or 0) > 0:
            return None
        return self.blow.place

    @property
    def declared(self) -> tuple[str, ...]:
        """What the attacker declared, as the attack line names it: weapon, aspect, aim (those given)."""
        return tuple(p for p in (self.weapon, self.aspect, self.aim) if p)

    @property
    def advantage_to(self) -> str | None:
        """Who gained a Tactical Advantage from the exchange: ``defender`` (an attack beaten badly), or None."""
        if self.tactical_advantage_for is not None:
            return self.tactical_advantage_for
        if isinstance(self.tactical_advantage, str):
            return self.tactical_advantage
        return "defender" if self.tactical_advantage else None

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return () if self.wounding.gm_decision is None else (self.wounding.gm_decision,)

    @property
    def target_roll_labels(self) -> frozenset[str]:
        return TARGET_ROLLS

    def hiding_target(self) -> Self:
        # the excess is the two totals' difference: it goes with the Defense Total
        return replace(self, defense_total=None, defense_die=None, defense_modifiers=None, defense_botched=False,
                       excess=0, blow=self.blow.hiding_soak(), injury_levels=None,
                       wounding=self.wounding.hiding_target())


@dataclass(frozen=True)
class CastOutcome(Outcome):
    """A spell that wounds: a damaging spell (the Targeting roll, then the blow) or a Body Level spell (no roll)."""

    action: str = "cast"
    kind: str = "damage"  # or body_levels
    spell: str | None = None
    aspect: str | None = None  # the damage type
    aim: str | None = None
    declared_aim: str | None = None
    targeting: Check | None = None
    body_levels: int | None = None
    hit: bool = False
    blow: Blow = field(default_factory=Blow, metadata=FLAT)
    injury_levels: int | None = None
    conditions: tuple[str, ...] = ()
    wounding: Wounding = field(default_factory=Wounding, metadata=FLAT)

    @property
    def armour_held_at(self) -> str | None:
        """Where a hit met armour that left no injury (the sheet keeps no trace of it; the wound picture marks it)."""
        if not self.hit or self.wounding.injury is not None or not (self.blow.armour or 0) > 0:
            return None
        return self.blow.place

    @property
    def declared(self) -> tuple[str, ...]:
        """What the caster declared, as the Targeting line names it: spell, damage type, aim (those given)."""
        return tuple(p for p in (self.spell, self.aspect, self.aim) if p)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for key in ("targeting", "body_levels"):  # a damaging spell has no Body Levels, a Body Level spell no roll
            if out[key] is None:
                del out[key]
        return out

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return () if self.wounding.gm_decision is None else (self.wounding.gm_decision,)

    @property
    def target_roll_labels(self) -> frozenset[str]:
        return TARGET_ROLLS

    def hiding_target(self) -> Self:
        return replace(self, blow=self.blow.hiding_soak(), injury_levels=None, wounding=self.wounding.hiding_target())


# -- one character's actions --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OneCharacter(Outcome):
    """An action on one sheet. ``who``: whose (the attacker's, or the defender's), ``name`` the character's;
    stored last, as the engine adds them."""

    who: str | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        who, name = out.pop("who"), out.pop("name")
        if who is not None:
            out.update(who=who, name=name)
        return out


@dataclass(frozen=True)
class InflictOutcome(OneCharacter):
    """A wound the GM inflicts by code or by Effective Impact, and the rolls it called for."""

    action: str = "inflict"
    wounding: Wounding = field(default_factory=Wounding, metadata=FLAT)
    effective_impact: int | None = None  # by impact: what was given (the table may give no injury)
    location: str | None = None
    side: str | None = None
    injury_levels: int | None = None
    conditions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.effective_impact is None:
            del out["effective_impact"]
        return out

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return () if self.wounding.gm_decision is None else (self.wounding.gm_decision,)


@dataclass(frozen=True)
class ShockOutcome(OneCharacter):
    """A Shock roll the GM made later, or a later round's re-roll to snap out of shock."""

    action: str = "shock"
    shock: Check | None = None
    in_shock: bool = False
    conditions: tuple[str, ...] = ()
    injury_levels: int | None = None


@dataclass(frozen=True)
class KillOutcome(OneCharacter):
    """A Kill roll the GM made later; failed, it may leave the GM a decision."""

    action: str = "kill"
    kill: Check | None = None
    gm_decision: KillDecision | None = None
    conditions: tuple[str, ...] = ()
    injury_levels: int | None = None

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return () if self.gm_decision is None else (self.gm_decision,)


@dataclass(frozen=True)
class GmDecisionOutcome(OneCharacter):
    """The GM's choice after a failed Kill roll: death or incapacitation."""

    action: str = "gm_decide"
    decision: str = ""
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Held(Record):
    """The weapons in the right and left hand, by their number on the sheet."""

    right: int | None = None
    left: int | None = None


@dataclass(frozen=True)
class AdvantageOutcome(OneCharacter):
    """A Tactical Advantage used: a weapon picked up or switched to, standing up, or a fast-cast."""

    action: str = "tactical_advantage"
    use: str = ""
    weapon: str | None = None
    fast_cast: bool = False
    conditions: tuple[str, ...] = ()
    held: Held = field(default_factory=Held)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.weapon is None:
            del out["weapon"]
        if not self.fast_cast:
            del out["fast_cast"]
        return out


@dataclass(frozen=True)
class ReadyOutcome(OneCharacter):
    """A weapon drawn, switched to or picked up (the round's action, or free between fights)."""

    action: str = "ready"
    weapon: str | None = None
    held: Held = field(default_factory=Held)


@dataclass(frozen=True)
class RecoverOutcome(OneCharacter):
    """Getting up from prone, or (the GM's word) coming round from unconsciousness or incapacitation."""

    action: str = "recover"
    condition: str = "prone"
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class FatigueOutcome(OneCharacter):
    """Fatigue levels lost or regained by the GM's word, or after a Fatigue roll."""

    action: str = "fatigue"
    fatigue_roll: Check | None = None
    change: int = 0
    fatigue: int = 0
    fatigue_level: str = ""
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConditionOutcome(OneCharacter):
    """The GM's word on conditions: the sheet's conditions after."""

    action: str = "condition"
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnequipOutcome(OneCharacter):
    """A weapon or armour piece taken off the sheet."""

    action: str = "unequip"
    kind: str = "weapon"
    removed: str = ""


@dataclass(frozen=True)
class EndFightOutcome(OneCharacter):
    """What ended with the fight: states that last only for one, and the weapons gathered."""

    action: str = "end_fight"
    ended: tuple[str, ...] = ()
    gathered: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()

    @property
    def fight_end(self) -> FightEnd | None:
        # shock is rolled off round by round; it does not end with the fight, and the table is told so
        return FightEnd(ended=self.ended, gathered=self.gathered,
                        kept=tuple(c for c in self.conditions if c == "shock"))


# -- initiative -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InitiativeRoll(Record):
    name: str = ""
    total: int = 0
    die: int | None = None
    botched: bool = False
    modifiers: dict[str, int] = field(default_factory=dict)
    weapon: str | None = None


@dataclass(frozen=True)
class InitiativeOutcome(Outcome):
    """The Initiative totals of both sides, or (``who`` given) of the one asked for."""

    action: str = "initiative"
    attacker: InitiativeRoll | None = None
    defender: InitiativeRoll | None = None
    only: str | None = None  # not stored: the stored mapping has only that side's key

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        del out["only"]
        if self.only is not None:
            del out["defender" if self.only == "attacker" else "attacker"]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        record = super().from_dict(data)
        if isinstance(data, Mapping) and ("attacker" in data) != ("defender" in data):
            return cls(attacker=record.attacker, defender=record.defender,
                       only="attacker" if "attacker" in data else "defender")
        return record

    @property
    def rolled(self) -> InitiativeRoll | None:
        """The first side's roll (the one asked for, with ``who``)."""
        return self.attacker or self.defender


# -- healing --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpellStep(Record):
    """One Body Level a healing spell healed: the wound before and after (None: gone)."""

    wound: int = 0
    before: str = ""
    after: str | None = None


@dataclass(frozen=True)
class HealOutcome(Outcome):
    """A wound treated with Chirurgy, or Body Levels healed by a spell (``method``)."""

    action: str = "heal"
    method: str = "chirurgy"
    body_levels: int | None = None  # spell
    steps: tuple[SpellStep, ...] = ()  # spell
    wound: int | None = None  # chirurgy: the wound treated
    treatment: str | None = None
    chirurgy: Check | None = None
    result: str | None = None  # CS, MS, MF, CF: HarnMaster's treatment results
    healing_rate: int | None = None
    bleeding_stopped: bool = False
    bleeding: bool = False  # chirurgy: the wound still bleeds after the treatment
    injury_levels: int | None = None  # the patient's after
    patient: str | None = None
    healer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        drop = (("wound", "treatment", "chirurgy", "result", "healing_rate", "bleeding_stopped", "bleeding")
                if self.method == "spell" else ("body_levels", "steps"))
        for key in drop:
            del out[key]
        return out


@dataclass(frozen=True)
class HealingRoll(Record):
    """One wound's healing roll at the end of five days of rest (``automatic``: its rate heals it unrolled)."""

    interval: int = 1
    day: int | None = None  # the day of the rest it came on (events stored before it was kept: None)
    wound: int = 0
    healing_rate: int = 0
    result: str = ""  # CS, MS, MF, CF, or automatic
    total: int | None = None
    ease_factor: int | None = None
    before: str = ""
    after: str | None = None  # None: healed

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for key in ("ease_factor", "day"):
            if out[key] is None:
                del out[key]
        return out


@dataclass(frozen=True)
class RestOutcome(OneCharacter):
    """Days of rest: the healing rolls due in them, and the wounds healed."""

    action: str = "rest"
    days: int = 1
    intervals: int = 0
    healing: tuple[HealingRoll, ...] = ()
    healed: tuple[int, ...] = ()
    injury_levels: int | None = None
    conditions: tuple[str, ...] = ()


RECORDS: dict[str, type[Outcome]] = {record.action: record for record in (
    AttackOutcome, CastOutcome, InitiativeOutcome, ShockOutcome, KillOutcome, GmDecisionOutcome, HealOutcome,
    RestOutcome, AdvantageOutcome, RecoverOutcome, ReadyOutcome, FatigueOutcome, ConditionOutcome, InflictOutcome,
    UnequipOutcome, EndFightOutcome)}
