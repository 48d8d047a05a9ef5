"""What each Fading Suns action did, as typed records (rules/outcome.py; docs/decisions/typed-outcomes.md).

The engine writes them, the bot's services, the odds and the describer (bot/ui/outcomes/fading_suns.py) read
their fields. Field order is the key order events have stored since before the records (the fixtures in
tests/bot/fixtures/fading_suns_events.json hold that shape), and every field has a default so that an event
stored by older code reads back whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Self

from rules.dice import CRITICAL_FAILURE
from rules.outcome import FLAT, OMIT_NONE, DecisionRequest, FightEnd, Outcome, Record, stored_as

# -- the parts ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoalRoll(Record):
    """One d20 goal roll: ``roll`` (None: not rolled) against ``goal`` built from ``modifiers``."""

    roll: int | None = None
    goal: int | None = None
    result: str | None = None  # critical, success, failure, critical_failure
    success: bool | None = None
    critical: bool = False
    victory_points: int = 0
    victory_dice: int = 0
    modifiers: dict[str, int] = field(default_factory=dict)

    @property
    def made(self) -> bool:
        return self.roll is not None

    def hiding_numbers(self) -> GoalRoll:
        """What the roll did, without its die, goal or victory points (a secret NPC roll as a player reads it)."""
        return GoalRoll(result=self.result, success=self.success, critical=self.critical)

    @property
    def critical_failure(self) -> bool:
        return self.result == CRITICAL_FAILURE


@dataclass(frozen=True)
class Defense(Record):
    """The defender's roll: ``kind`` dodge or parry (``weapon`` parries)."""

    kind: str = ""
    weapon: str | None = None
    roll: GoalRoll = field(default_factory=GoalRoll, metadata=FLAT)


@dataclass(frozen=True)
class Check(Record):
    """A STUMBLE or FUMBLE: whose (``who``), what called for it (``cause``: wound, attack, defense), its roll and
    the consequences it had; ``note`` says why it was not rolled (nothing in hand)."""

    who: str = "attacker"
    check: str = ""  # stumble or fumble
    cause: str = "wound"
    wound: int | None = None
    roll: GoalRoll = field(default_factory=GoalRoll, metadata=FLAT)
    consequences: tuple[str, ...] = ()
    note: str | None = field(default=None, metadata=OMIT_NONE)

    @property
    def passed(self) -> bool:
        """Rolled, and nothing came of it."""
        return (self.roll.made or self.roll.result is not None) and not self.consequences

    def to_dict(self) -> dict[str, Any]:
        if self.roll.made or self.note is None:
            return super().to_dict()
        # not rolled: the shape stored since the first engine (no victory points, no modifiers)
        return {"who": self.who, "check": self.check, "cause": self.cause, "wound": self.wound, "roll": None,
                "goal": None, "result": None, "success": None, "consequences": list(self.consequences),
                "note": self.note}


@dataclass(frozen=True)
class EffectRoll(Record):
    """A wound-effect roll against 2 x END on one column of the effect table, and the effect it gave."""

    roll: GoalRoll = field(default_factory=GoalRoll, metadata=FLAT)
    column: str = ""
    wound: int | None = None
    effect: str = "none"


@dataclass(frozen=True)
class Shield(Record):
    """The defender's energy shield against this blow."""

    name: str = ""
    activated: bool = False
    absorbed: int = 0
    hits_left: int = 0


@dataclass(frozen=True)
class DeathDecision(DecisionRequest):
    """A deadly wound under ``gm_confirms_death``: the GM chooses death or unconsciousness."""

    wound: int | None = None


@dataclass(frozen=True)
class PendingNote(Record):
    """A roll left for the GM (``auto_rolls`` off), as the sheet queues it; ``who`` in an attack's list."""

    id: int = 0
    kind: str = ""  # effect, or a check name
    column: str | None = None
    wound: int | None = None
    cause: str = "wound"
    weapon: str | None = field(default=None, metadata=OMIT_NONE)
    who: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class Penalties(Record):
    """The sheet's accumulated wound penalties."""

    goal: int = 0
    initiative: int = 0

    @property
    def any(self) -> bool:
        return bool(self.goal or self.initiative)


@dataclass(frozen=True)
class Aftermath(Record):
    """What a blow (or a roll the GM made) set off: the wound's effect roll, the checks, conditions and dropped
    weapons of each side (``attacker``/``defender``), the rolls and the decision left for the GM, and the
    target's penalties after it."""

    effect_roll: EffectRoll | None = None
    effect: str = "none"  # none, stun, unconscious, death, or pending when queued
    stumble_roll: Check | None = None  # the target's wound checks, or None
    fumble_roll: Check | None = None
    checks: tuple[Check, ...] = ()
    conditions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    dropped: dict[str, tuple[str, ...]] = field(default_factory=dict)
    pending_rolls: tuple[PendingNote, ...] = ()
    gm_decision: DeathDecision | None = None
    penalties: Penalties = field(default_factory=Penalties)

    @property
    def dying(self) -> bool:
        """A deadly wound that waits for the GM to confirm the death."""
        return self.effect == "death" and self.gm_decision is not None

    def hiding_rolls(self, side: str) -> Aftermath:
        """``side``'s rolls (the wound's effect roll, its STUMBLE and FUMBLE) without their numbers."""
        def hidden(check: Check | None) -> Check | None:
            if check is None or check.who != side:
                return check
            return replace(check, roll=check.roll.hiding_numbers())

        effect_roll = self.effect_roll
        if effect_roll is not None:
            effect_roll = replace(effect_roll, roll=effect_roll.roll.hiding_numbers())
        return replace(self, effect_roll=effect_roll, stumble_roll=hidden(self.stumble_roll),
                       fumble_roll=hidden(self.fumble_roll),
                       checks=tuple(c for c in (hidden(c) for c in self.checks) if c is not None))


# -- one record per action -------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOutcome(Outcome):
    action: str = "attack"
    attacker: str = ""
    defender: str = ""
    weapon: str = ""
    mode: str = ""
    column: str = ""
    damage_type: str = ""
    attack_roll: GoalRoll = field(default_factory=GoalRoll, metadata=FLAT)
    defense: Defense | None = None
    # who chose the defence: attack (named by whoever attacked), sheet, ruling (unnamed_defense), or *_fallback
    defense_from: str | None = None
    no_defense: str | None = None  # why none was made (none_chosen, stunned, cannot_parry ...)
    defended: bool = False
    hit: bool = False
    net_victory_points: int | None = None
    location: str | None = None
    location_roll: int | None = None  # None: aimed there
    aimed: bool = False
    base: int | None = None
    bonus: int | None = None
    damage_before_armor: int | None = None
    shield: Shield | None = None
    armor: int | None = None
    armor_rating: int | None = None
    armor_pieces: tuple[str, ...] = ()
    damage: int | None = None
    severity: str | None = None
    wound: int | None = None
    wound_roll: str | None = None
    after: Aftermath = field(default_factory=Aftermath, metadata=FLAT)

    @property
    def missed(self) -> bool:
        return self.attack_roll.success is False

    @property
    def fumble(self) -> Check | None:
        """The attacker's FUMBLE for a critical failure, when one was rolled."""
        return next((c for c in self.after.checks if c.cause == "attack" and c.check == "fumble"), None)

    @property
    def went_wrong(self) -> bool:
        """A critical failure that cost the attacker something (a failed FUMBLE: a FUMBLE passed, not rolled or
        left for the GM has cost nothing, yet)."""
        fumble = self.fumble
        return fumble is not None and bool(fumble.consequences)

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return () if self.after.gm_decision is None else (self.after.gm_decision,)

    @property
    def target_roll_labels(self) -> frozenset[str]:
        """The defender's rolls: the defence, the wound's effect roll, its STUMBLE and FUMBLE (an attacker's own
        FUMBLE shares the label: hidden with them, its result still said)."""
        checks = {c.check for c in self.after.checks if c.who == "defender"}
        return frozenset({"defense", "effect", *checks})

    def hiding_target(self) -> Self:
        defense = self.defense
        if defense is not None:
            defense = replace(defense, roll=defense.roll.hiding_numbers())
        # the victory points that got through are the two rolls' difference: they go with the defence; the
        # target's armour and shield (its sheet) with the damage that got through them
        # and its wound penalties after the blow (its goals' modifiers)
        return replace(self, defense=defense, net_victory_points=None,
                       after=replace(self.after.hiding_rolls("defender"), penalties=Penalties()),
                       shield=None, armor=None, armor_rating=None, armor_pieces=(), damage=None)


@dataclass(frozen=True)
class InjureOutcome(Outcome):
    """A GM-applied injury (a fall, fire): damage at a location, less armour unless told otherwise."""

    action: str = "injure"
    character: str = ""
    damage_type: str = ""
    column: str = ""
    location: str | None = None
    location_roll: int | None = None
    damage_before_armor: int | None = None
    armor: int | None = None
    armor_pieces: tuple[str, ...] = ()
    damage: int | None = None
    severity: str | None = None
    wound: int | None = None
    wound_roll: str | None = None
    after: Aftermath = field(default_factory=Aftermath, metadata=FLAT)

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return () if self.after.gm_decision is None else (self.after.gm_decision,)


@dataclass(frozen=True)
class InitiativeSide(Record):
    name: str = ""
    weapon: str = ""
    score: int = 0
    parts: dict[str, int] = field(default_factory=dict)
    wits: int = 0
    can_act: bool = True


@dataclass(frozen=True)
class InitiativeSides(Record):
    attacker: InitiativeSide | None = None
    defender: InitiativeSide | None = None


@dataclass(frozen=True)
class InitiativeOutcome(Outcome):
    """Characteristic + skill + weapon initiative, less wound penalties; ``first``: attacker, defender,
    simultaneous, or None (neither can act)."""

    action: str = "initiative"
    initiative: InitiativeSides = field(default_factory=InitiativeSides)
    first: str | None = None
    penalties: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class EffectOutcome(Outcome):
    """A roll the GM made: the pending one it ``resolved`` (None: an ad-hoc roll on a column)."""

    action: str = "effect"
    character: str = ""
    resolved: PendingNote | None = None
    after: Aftermath = field(default_factory=Aftermath, metadata=FLAT)

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        return () if self.after.gm_decision is None else (self.after.gm_decision,)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        # the order events and `grievous resolve` have always had: the rolls still owed after the decision
        out["pending_rolls"] = out.pop("pending_rolls")
        out["penalties"] = out.pop("penalties")
        return out


@dataclass(frozen=True)
class GmDecideOutcome(Outcome):
    """The GM's choice on a pending decision (death: death or unconscious)."""

    action: str = "gm_decide"
    who: str = "attacker"
    character: str = ""
    decision: str = ""  # the decision's kind
    choice: str = ""
    wound: int | None = None
    conditions: tuple[str, ...] = ()
    gm_decision: DeathDecision | None = None
    penalties: Penalties = field(default_factory=Penalties)


@dataclass(frozen=True)
class HealStep(Record):
    """One step a wound mended during rest: ``from`` one severity ``to`` the next (None: healed)."""

    wound: int = 0
    from_: str = field(default="", metadata=stored_as("from"))
    to: str | None = None
    day: int | None = field(default=None, metadata=OMIT_NONE)  # the day of the rest it happened (None: before 12/2026)


@dataclass(frozen=True)
class WoundNote(Record):
    index: int = 0
    location: str = ""
    severity: str = ""
    damage: int = 0
    type: str | None = None
    treated: bool = False
    progress: int = 0


@dataclass(frozen=True)
class RestOutcome(Outcome):
    action: str = "rest"
    character: str = ""
    days: int = 1
    healed: tuple[HealStep, ...] = ()
    wounds: tuple[WoundNote, ...] = ()  # the wounds left
    conditions_cleared: tuple[str, ...] = ()
    penalties: Penalties = field(default_factory=Penalties)


@dataclass(frozen=True)
class HealOutcome(Outcome):
    """A healer treats one wound of the patient (the healer's own when they are the same)."""

    action: str = "heal"
    healer: str = ""
    patient: str = ""
    skill: str = ""
    wound: int | None = None
    severity: str | None = None
    heal_roll: GoalRoll = field(default_factory=GoalRoll, metadata=FLAT)
    treated: bool = False
    days_credited: int = 0
    progress: int = 0
    penalties: Penalties = field(default_factory=Penalties)


@dataclass(frozen=True)
class RecoverOutcome(Outcome):
    action: str = "recover"
    character: str = ""
    condition: str = ""
    cleared: tuple[str, ...] = ()
    picked_up: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    penalties: Penalties = field(default_factory=Penalties)


@dataclass(frozen=True)
class UnequipOutcome(Outcome):
    action: str = "unequip"
    kind: str = ""  # weapon or armour
    removed: str = ""


@dataclass(frozen=True)
class EndFightOutcome(Outcome):
    action: str = "end_fight"
    character: str = ""
    ended: tuple[str, ...] = ()  # prone, stunned, shield_spent
    gathered: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()

    @property
    def fight_end(self) -> FightEnd:
        return FightEnd(self.ended, self.gathered)


@dataclass(frozen=True)
class ConditionOutcome(Outcome):
    action: str = "condition"
    character: str = ""
    conditions: tuple[str, ...] = ()


# action -> its record (rules.registry.read_outcome reads stored events with it; the engine's ACTIONS match it)
RECORDS: dict[str, type[Outcome]] = {
    "attack": AttackOutcome,
    "initiative": InitiativeOutcome,
    "effect": EffectOutcome,
    "gm_decide": GmDecideOutcome,
    "heal": HealOutcome,
    "rest": RestOutcome,
    "recover": RecoverOutcome,
    "injure": InjureOutcome,
    "unequip": UnequipOutcome,
    "end_fight": EndFightOutcome,
    "condition": ConditionOutcome,
}
