"""What each Pendragon action did, as typed records (rules/outcome.py; docs/decisions/typed-outcomes.md).

The engine writes them, the bot's services, the odds (rules/odds/pendragon.py) and the describer
(bot/ui/outcomes/pendragon.py) read their fields. Field order is the key order events have stored since before
the records (tests/bot/fixtures/pendragon_events.json holds that shape), and every field has a default so that
an event stored by older code reads back whole. ``gm_decision`` (the first of ``gm_decisions``), which events
stored before the records also kept, is no longer written: the shared ``gm_decisions`` says it all.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Self

from rules.outcome import OMIT_NONE, DecisionRequest, FightEnd, Outcome, Record, stored_as

SIDES = ("attacker", "defender")
# the rolls a blow calls for from whoever it hurt (unlabelled by side): Knockdown, the fall, a major wound's CON,
# Valorous and the characteristic lost
HURT_ROLLS = frozenset({"knockdown", "fall", "fall_damage", "major_wound", "valorous", "stat_loss"})

# -- the parts ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollView(Record):
    """One d20 roll under a target (a first aid, a fall, a major wound's CON roll): ``face`` None, not rolled."""

    face: int | None = None
    total: int | None = None
    target: int | None = None
    result: str | None = None  # critical, success, failure, fumble

    @property
    def made(self) -> bool:
        return self.face is not None

    def hiding_view(self) -> RollView:
        """What the roll did, without its die, total or target (a secret NPC's, as a player reads it)."""
        return RollView(result=self.result)


@dataclass(frozen=True)
class SideRoll(RollView):
    """One side's d20 in an exchange: the result after the opposed comparison (``result``) and as rolled."""

    rolled_result: str | None = None
    natural_1: bool = False
    modifiers: tuple[tuple[str, int], ...] = ()
    weapon: str = ""
    skill: str = ""

    def hiding_numbers(self) -> SideRoll:
        """What the roll did, without its die, total or target (a secret NPC roll as a player reads it)."""
        return SideRoll(result=self.result, rolled_result=self.rolled_result, weapon=self.weapon, skill=self.skill)


@dataclass(frozen=True)
class Knockdown(Record):
    """The Knockdown check after a blow: ``automatic`` (twice SIZ), rolled (``face``), or left for the GM
    (``pending``); ``passed`` the character kept his feet."""

    damage: int = 0
    size: int = 0
    automatic: bool = False
    skill: str = "dex"
    face: int | None = None
    total: int | None = None
    target: int | None = None
    result: str | None = None
    passed: bool | None = None
    fall_damage: int | None = None  # knocked down: the fall's damage (kept only then)
    pending: bool | None = field(default=None, metadata=OMIT_NONE)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.passed is not False:
            del out["fall_damage"]
        return out

    def hiding_numbers(self) -> Knockdown:
        """What the check did, without the damage, SIZ, die or DEX behind it (a secret NPC's, as a player reads it)."""
        return Knockdown(automatic=self.automatic, skill=self.skill, result=self.result, passed=self.passed,
                         pending=self.pending)


@dataclass(frozen=True)
class Fall(Record):
    """A fall from a horse or a wall on falling unconscious: a DEX roll (``passed``: a gentle fall, the GM words
    its damage) or left for the GM (``pending``)."""

    face: int | None = field(default=None, metadata=OMIT_NONE)
    total: int | None = field(default=None, metadata=OMIT_NONE)
    target: int | None = field(default=None, metadata=OMIT_NONE)
    result: str | None = field(default=None, metadata=OMIT_NONE)
    passed: bool | None = field(default=None, metadata=OMIT_NONE)
    fall_damage: int | None = None
    pending: bool | None = field(default=None, metadata=OMIT_NONE)

    def to_dict(self) -> dict[str, Any]:
        if self.pending:
            return {"pending": True}
        return super().to_dict()

    def hiding_numbers(self) -> Fall:
        """What the fall did, without its die, DEX or damage (a secret NPC's, as a player reads it)."""
        return Fall(result=self.result, passed=self.passed, pending=self.pending)


@dataclass(frozen=True)
class MajorWoundEffects(Record):
    """What a major wound did: the CON roll to stay conscious, the Valorous roll, the characteristic lost."""

    conscious_roll: RollView | None = None
    valorous_roll: RollView | None = None
    stat_lost: str | None = None

    def hiding_numbers(self) -> MajorWoundEffects:
        """What the rolls did, without their dice or the CON and Valorous they were against."""
        return replace(self, conscious_roll=None if self.conscious_roll is None else self.conscious_roll.hiding_view(),
                       valorous_roll=None if self.valorous_roll is None else self.valorous_roll.hiding_view())


@dataclass(frozen=True)
class ExperienceCheck(Record):
    who: str = "attacker"
    skill: str = ""


@dataclass(frozen=True)
class SelfHit(Record):
    """A flail's natural 1: the wielder's own blow against his own armour."""

    who: str = "attacker"
    damage_dice: str = ""
    damage_rolled: int = 0
    armour: int = field(default=0, metadata=stored_as("armor"))
    damage_taken: int = 0
    major_wound: bool = False
    fall: Fall | None = None
    hit_points: int | None = None


@dataclass(frozen=True)
class WeaponLost(Record):
    who: str = "attacker"
    weapon: str = ""
    how: str = ""  # broken, dropped


@dataclass(frozen=True)
class Events(Record):
    """What happened to each side, in order (``knocked_down``, ``wounded``, ``major_wound``, ``dying`` ...)."""

    attacker: tuple[str, ...] = ()
    defender: tuple[str, ...] = ()

    def of(self, who: str) -> tuple[str, ...]:
        return self.defender if who == "defender" else self.attacker if who == "attacker" else ()


@dataclass(frozen=True)
class Sides(Record):
    attacker: int | None = None
    defender: int | None = None

    def of(self, who: str) -> int | None:
        return self.defender if who == "defender" else self.attacker if who == "attacker" else None


@dataclass(frozen=True)
class PendragonDecision(DecisionRequest):
    """A decision left for the GM: ``dying`` (death or survival), ``fall_damage``, ``experience_check`` (of
    ``skill``), ``wake``, ``rejoin``, ``damage``; ``deadline`` the sheet's note of when it lapses."""

    skill: str | None = field(default=None, metadata=OMIT_NONE)
    deadline: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class PendingRoll(Record):
    """A roll left for the GM's buttons (``auto_rolls`` off), as the sheet queues it, with whose it is."""

    kind: str = ""  # knockdown, major_wound, fall
    damage: int | None = field(default=None, metadata=OMIT_NONE)
    wound: int | None = field(default=None, metadata=OMIT_NONE)
    mounted: bool | None = field(default=None, metadata=OMIT_NONE)
    on_wall: bool | None = field(default=None, metadata=OMIT_NONE)
    who: str = "attacker"


# -- the records --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PendragonOutcome(Outcome):
    """What every Pendragon action ends with: the decisions and rolls it left for the GM (stored last)."""

    left_for_gm: tuple[PendragonDecision, ...] = field(default=(), metadata=stored_as("gm_decisions"))
    pending_rolls: tuple[PendingRoll, ...] = ()

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return tuple(d for d in self.left_for_gm if d.kind and d.options)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for tail in ("gm_decisions", "pending_rolls"):  # stored last, as the engine always added them
            out[tail] = out.pop(tail)
        return out


@dataclass(frozen=True)
class AttackOutcome(PendragonOutcome):
    """An exchange of blows: both sides' d20s (the defender's None when unopposed), the winner's damage on the
    loser, and what it did."""

    action: str = "attack"
    attacker_roll: SideRoll = field(default_factory=SideRoll)
    defender_roll: SideRoll | None = None
    unopposed: bool = False
    unopposed_why: str | None = None  # missile, asked, defender_down, disarmed
    winner: str = "none"  # attacker, defender, none
    loser: str = "none"
    tie: bool = False
    critical: bool = False
    damage_dice: str | None = None
    damage_rolled: int | None = None
    armour: int | None = field(default=None, metadata=stored_as("armor"))
    shield_applied: bool = False
    damage_taken: int | None = None
    wound_index: int | None = None
    knockdown: Knockdown | None = None
    major_wound: bool = False
    major_wound_effects: MajorWoundEffects | None = None
    unconscious: bool = False
    dying: bool = False
    fall: Fall | None = None
    hit_points: int | None = None
    weapon_broken: str | None = None  # attacker, defender, both
    weapon_dropped: str | None = None
    lance_broken: str | None = None
    self_hit: SelfHit | None = None
    experience_check: ExperienceCheck | None = None
    damage_notes: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    damage_roll_total: int | None = field(default=None, metadata=OMIT_NONE)
    weapons_lost: tuple[WeaponLost, ...] = ()
    events: Events = field(default_factory=Events)
    hit_points_after: Sides = field(default_factory=Sides)
    decisions: tuple[PendragonDecision, ...] = ()

    def roll_of(self, who: str) -> SideRoll | None:
        return self.defender_roll if who == "defender" else self.attacker_roll if who == "attacker" else None

    @property
    def hit(self) -> bool:
        """The winner's blow landed on the loser (a winner who defended deals none)."""
        return self.loser in SIDES

    @property
    def target_roll_labels(self) -> frozenset[str]:
        """The defender's d20 and damage, and the rolls the blow called for when it hurt the defender."""
        own = frozenset({"defender", "defender_damage"})
        return own | HURT_ROLLS if self.loser == "defender" else own

    def hiding_target(self) -> Self:
        hidden = self
        if self.defender_roll is not None:
            hidden = replace(hidden, defender_roll=self.defender_roll.hiding_numbers())
        if self.loser == "defender":  # the target's armour and hit points (its sheet), and what got through
            hidden = replace(self._hiding_hurt(hidden), hit_points_after=replace(self.hit_points_after, defender=None))
        return hidden

    def hiding_actor(self) -> Self:
        hidden = replace(self, attacker_roll=self.attacker_roll.hiding_numbers())
        if self.loser == "attacker":  # the NPC lost its own attack: its armour and hit points (its sheet)
            hidden = replace(self._hiding_hurt(hidden), hit_points_after=replace(self.hit_points_after, attacker=None))
        return hidden

    def _hiding_hurt(self, out: Self) -> Self:
        """``out`` without the hurt side's sheet: its armour, the damage that got through, its hit points, and the
        numbers of the rolls the blow called for (Knockdown against its SIZ and DEX, a major wound's CON and
        Valorous, the fall)."""
        return replace(out, armour=None, damage_taken=None, hit_points=None,
                       knockdown=None if out.knockdown is None else out.knockdown.hiding_numbers(),
                       major_wound_effects=(None if out.major_wound_effects is None
                                            else out.major_wound_effects.hiding_numbers()),
                       fall=None if out.fall is None else out.fall.hiding_numbers())


@dataclass(frozen=True)
class RearmOutcome(PendragonOutcome):
    action: str = "rearm"
    who: str = "attacker"
    weapon: str = ""
    replaced: bool = False
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class StandOutcome(PendragonOutcome):
    action: str = "stand"
    who: str = "attacker"
    mounted: bool = False
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class InitiativeOutcome(PendragonOutcome):
    """Pendragon rolls no initiative: both sides roll at once."""

    action: str = "initiative"
    initiative: str = "simultaneous"
    winner: str = "none"
    order: tuple[str, ...] = ()
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class GmDecideOutcome(PendragonOutcome):
    action: str = "gm_decide"
    who: str = "attacker"
    kind: str = ""
    decision: str = ""
    skill: str | None = field(default=None, metadata=OMIT_NONE)
    amount: int | None = field(default=None, metadata=OMIT_NONE)
    hit_points: int | None = None
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class KnockdownOutcome(PendragonOutcome):
    """A Knockdown roll the GM's buttons made (it waited)."""

    action: str = "knockdown"
    who: str = "attacker"
    knockdown: Knockdown | None = None
    prone: bool = False
    hit_points: int | None = None
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class MajorWoundOutcome(PendragonOutcome):
    """A major wound's rolls the GM's buttons made (they waited)."""

    action: str = "major_wound"
    who: str = "attacker"
    wound_index: int | None = None
    major_wound_effects: MajorWoundEffects | None = None
    unconscious: bool = False
    fall: Fall | None = None
    hit_points: int | None = None
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class FallOutcome(PendragonOutcome):
    """A fall roll the GM's buttons made (it waited)."""

    action: str = "fall"
    who: str = "attacker"
    fall: Fall | None = None
    prone: bool = False
    hit_points: int | None = None
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class FirstAidOutcome(PendragonOutcome):
    action: str = "first_aid"
    who: str = "attacker"
    roll: RollView = field(default_factory=RollView)
    wound_index: int | None = None
    healed: int = 0
    harmed: int = 0
    hit_points: int | None = None
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChirurgeryOutcome(PendragonOutcome):
    action: str = "chirurgery"
    who: str = "attacker"
    roll: RollView = field(default_factory=RollView)
    healed: int = 0
    lost: int = 0
    chirurgery_needed: bool = False
    hit_points: int | None = None
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class RestOutcome(PendragonOutcome):
    action: str = "rest"
    who: str = "attacker"
    weeks: int = 0
    weeks_counted: int = 0
    healed: int = 0
    days: int | None = None
    days_unused: int | None = None
    stopped: str | None = None  # why the rest stopped early (healed, dying ...)
    chirurgery_needed: bool = False
    lost: int = 0
    hit_points: int | None = None
    wounds_left: int = 0
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnequipOutcome(PendragonOutcome):
    action: str = "unequip"
    kind: str = ""  # weapon, armour
    removed: str = ""
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class EndFightOutcome(PendragonOutcome):
    action: str = "end_fight"
    who: str = "attacker"
    ended: tuple[str, ...] = ()
    gathered: tuple[str, ...] = ()
    events: tuple[str, ...] = ()

    @property
    def fight_end(self) -> FightEnd | None:
        return FightEnd(ended=self.ended, gathered=self.gathered)


@dataclass(frozen=True)
class ConditionOutcome(PendragonOutcome):
    action: str = "condition"
    who: str = "attacker"
    conditions: tuple[str, ...] = ()
    events: tuple[str, ...] = ()


# action -> the record it writes (rules.registry.read_outcome reads a stored event back by it)
RECORDS: dict[str, type[PendragonOutcome]] = {
    "attack": AttackOutcome,
    "rearm": RearmOutcome,
    "stand": StandOutcome,
    "first_aid": FirstAidOutcome,
    "chirurgery": ChirurgeryOutcome,
    "rest": RestOutcome,
    "fall": FallOutcome,
    "knockdown": KnockdownOutcome,
    "major_wound": MajorWoundOutcome,
    "gm_decide": GmDecideOutcome,
    "initiative": InitiativeOutcome,
    "unequip": UnequipOutcome,
    "end_fight": EndFightOutcome,
    "condition": ConditionOutcome,
}
