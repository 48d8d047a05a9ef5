"""The contract between a rule engine and whatever drives it (the scenario runner, the bot).

Sheets travel as plain JSON-like mappings so that the runner can print them and the bot can store
them; each engine parses them into its own frozen dataclasses and hands back new mappings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from rules.dice import DiceSource, Roll
from rules.outcome import Outcome
from rules.sheet_spec import ItemSource, SheetSpec

Sheet = Mapping[str, Any]
Run = TypeVar("Run")


@dataclass(frozen=True)
class Scenario:
    """One action to resolve: who acts, on whom, and the rulings in force."""

    system: str
    action: Mapping[str, Any]
    attacker: Sheet | None = None
    defender: Sheet | None = None
    rulings: Mapping[str, Any] = field(default_factory=dict)
    # the sides ("attacker", "defender") that are the GM's NPCs, not player characters (a rule may tell them
    # apart: a Pendragon experience check is a player knight's)
    npcs: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Resolution:
    """What an action did: every roll, the system's outcome record (rules/outcome.py), both sheets after."""

    system: str
    rolls: tuple[Roll, ...]
    outcome: Outcome
    attacker: Sheet | None
    defender: Sheet | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "rolls": [roll.to_dict() for roll in self.rolls],
            "outcome": self.outcome.to_dict(),
            "attacker": None if self.attacker is None else dict(self.attacker),
            "defender": None if self.defender is None else dict(self.defender),
        }


@dataclass(frozen=True)
class Action(Generic[Run]):
    """One action type of an engine: the options it takes besides ``type``, and the rule that runs it.

    Every engine keys its actions the same way: ``ACTIONS: dict[str, Action[Run]]`` (``Run`` is that engine's own
    signature of a rule), and ``ACTION_OPTIONS = action_options(ACTIONS)``; its ``RECORDS`` names the record
    each one writes (tests/rules/test_engine_actions.py holds all three to it)."""

    options: tuple[str, ...]
    run: Run


def action_options(actions: Mapping[str, Action[Any]]) -> dict[str, tuple[str, ...]]:
    """Each action type's options, from an engine's ``ACTIONS``."""
    return {kind: action.options for kind, action in actions.items()}


@dataclass(frozen=True)
class Ruling:
    """A ruling a GM may change: the seed's ambiguities and the house choices, with our default.

    ``choices`` lists a text ruling's values; ``low``/``high`` bound a whole-number one (None: unbounded).
    ``rules.rulings`` checks values against this declaration, for every engine and for the bot.
    """

    name: str
    default: str | int | bool
    description: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None


@dataclass(frozen=True)
class Wound:
    """One wound as a player reads it on the sheet (for listings; engines keep their own detail)."""

    index: int
    location: str
    code: str
    severity: str
    levels: int = 0
    bleeding: bool = False
    penalty: int = 0
    note: str = ""
    # Days of rest until the wound's next healing roll (ars-harn), its next step down (Fading Suns), or until it is
    # healed (Pendragon: whole weeks, the Healing Rate a week, oldest wound first); None: nothing is due by rest.
    next_healing: int | None = None


@dataclass(frozen=True)
class SheetSummary:
    """What a character embed shows: derived numbers and wounds, as name/value pairs."""

    name: str
    stats: tuple[tuple[str, str], ...]
    equipment: tuple[tuple[str, str], ...]
    wounds: tuple[Wound, ...]
    condition: str


@dataclass(frozen=True)
class WayOut:
    """A state a character is in and the engine action that ends it, at the price the system sets.

    ``condition`` is what a player names (``prone``, ``unhorsed``, ``shock``...); ``cost`` says what it takes:
    ``action`` (the character's action this round), ``advantage`` (free: a Tactical Advantage is spent),
    ``roll`` (a roll that may fail), ``free`` (between fights), ``gm`` (the GM's call: only the GM may)."""

    condition: str
    action: Mapping[str, Any]
    cost: str = "action"
    weapon: str | None = None  # a weapon's state (on the ground, broken, not in hand): /ready names it

    @property
    def gm_only(self) -> bool:
        return self.cost == "gm"


@dataclass(frozen=True)
class TurnReadiness:
    """Whether a character can take its turn now, and if not why, in the game's own words.

    ``reason`` is a code ("ready", "dead", "unconscious", "stunned", ...), ``words`` what the tracker and
    /encounter next say after the name ("is dead"). ``skipped``: the turn passes them by. ``ends_when_skipped``:
    losing the turn pays the condition off (a Fading Suns stun), so the engine's ``lose_turn`` clears it.
    A character who cannot act but is not skipped (ars-harn shock) gets its turn for what it still may do.
    """

    reason: str = "ready"
    words: str = ""
    skipped: bool = False
    ends_when_skipped: bool = False

    @property
    def can_act(self) -> bool:
        return self.reason == "ready"


READY = TurnReadiness()


@dataclass(frozen=True)
class InitiativeScore:
    """One character's place in the turn order: higher ``total`` first, then higher ``tiebreak``."""

    total: int
    tiebreak: tuple[int, ...] = ()


@runtime_checkable
class Catalog(ItemSource, Protocol):
    """A loaded content pack, as whatever drives an engine sees it: its sheet's fields, the names a player can pick
    from, and NPC templates. Each engine reads its own system's catalog class (``ArsHarnCatalog``...), which it
    checks it was given; these are what the bot asks of any catalog."""

    @property
    def sheet(self) -> SheetSpec:
        """The fields a character sheet of this system has."""
        ...

    def weapon_names(self) -> Sequence[str]: ...

    def armour_names(self) -> Sequence[str]: ...

    def npc_templates(self) -> Mapping[str, Sheet]: ...

    def location_labels(self) -> Mapping[str, str]:
        """The hit locations an attack may call by name, each with the label a player may type for it
        (Fading Suns: ``right_arm`` -> ``R.Arm``); empty in a system whose attacks call none."""
        ...

    def defense_names(self) -> tuple[str, ...]:
        """The defences a target's player may choose before an attack lands (Fading Suns); empty where none."""
        ...


class Engine(Protocol):
    """One rule system. ``resolve`` is pure: scenario + dice + catalog in, resolution out."""

    system_id: str
    title: str
    roll_labels: frozenset[str]
    # The labels that are always one side's roll in an action on two characters (``defense``: the defender's).
    # Every other label is rolled by whichever side an event befalls (a knockdown, a shock roll); the engine
    # rolls it under that side (``DiceSource.rolling_for``), so faces typed for one side never reach the other.
    label_sides: Mapping[str, str]
    actions: frozenset[str]
    rulings: tuple[Ruling, ...]

    def resolve(self, scenario: Scenario, dice: DiceSource, catalog: Catalog) -> Resolution: ...

    def validate_sheet(self, sheet: Sheet, catalog: Catalog) -> dict[str, Any]: ...

    def summarize(self, sheet: Sheet, catalog: Catalog) -> SheetSummary: ...

    def ways_out(self, sheet: Sheet, catalog: Catalog, in_fight: bool) -> tuple[WayOut, ...]:
        """Each lasting state the character is in, with the action that ends it (docs/rules/<system>.md)."""
        ...

    def turn_readiness(self, sheet: Sheet, catalog: Catalog, rulings: Mapping[str, Any] | None = None) -> TurnReadiness:
        """Whether the character can act on its turn (dead, unconscious, stunned... cannot), under
        ``rulings`` (None: the defaults)."""
        ...

    def lose_turn(self, sheet: Sheet, catalog: Catalog) -> dict[str, Any]:
        """The sheet after a turn it could not take went by (a Fading Suns stun ends; else unchanged)."""
        ...

    def initiative_score(self, outcome: Outcome) -> InitiativeScore | None:
        """The turn-order score in this engine's ``initiative`` outcome (None: the system orders no one)."""
        ...
