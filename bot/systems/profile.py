"""What the bot knows of one rule system, besides its engine and content pack: the record each profile fills.

One ``SystemProfile`` per system (``bot/systems/<system>.py``), gathered by ``bot/systems/__init__.py``. The
engine says what the rules do; the profile says how the bot's commands reach the engine (neutral command and
option names -> the engine's), what its slash commands show in that system, and the system's words.
``tests/bot/systems/test_profiles.py`` holds every profile to the same contract.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.systems.odds_rows import OddsRow
from bot.systems.pictures import WoundPicture
from rules.model import Catalog
from rules.outcome import Outcome

# sheet, catalog, the server's rulings -> the picture's state (None: the catalog is not this system's)
PictureReader = Callable[[Mapping[str, Any], Catalog, Mapping[str, Any]], WoundPicture | None]


def nowhere(outcome: Outcome) -> str | None:
    """A system whose outcomes never say where armour held."""
    return None


@dataclass(frozen=True)
class Treatment:
    """One of /heal's neutral treatments as this system's engine runs it (docs/rules/<system>.md, "Actions")."""

    action: str  # the engine action
    options: Mapping[str, Any] = field(default_factory=dict)  # its fixed options
    label: str = ""  # its name in the system's words ("Chirurgery", "Remedy"); "" : the neutral name titled


@dataclass(frozen=True)
class DecisionWords:
    """One kind of decision the engine leaves for the GM, in words (bot/ui/decision_embeds.py and
    bot/ui/outcomes/decisions.py)."""

    prompt: str  # the start of its waiting line ("{who} is dying"; {who}: the character)
    outcomes: Mapping[str, str]  # choice -> what happens to the character, as a sentence ending ("dies")


@dataclass(frozen=True)
class HelpWords:
    """/help's lines that differ between systems (bot/ui/help_embeds.py), as markdown."""

    attack_options: str  # the /attack options only this system takes
    combat_extra: str  # its own combat commands ("" where it has none)
    dice_example: str  # a dice option naming its labels
    heal: str  # /heal's treatments and /rest
    roll_examples: str  # /roll expressions
    decisions: str  # what the GM's buttons decide
    initiative: str  # how /encounter initiative orders the fight


@dataclass(frozen=True)
class OddsWords:
    """What /odds shows first and what its chart draws (bot/ui/odds_embeds.py)."""

    headline: tuple[OddsRow, ...]  # the few numbers a player decides on
    # the chart: outcomes that add up to the whole, then the grave ones (labels starting with NESTED)
    chart: tuple[OddsRow, ...]
    follow_ups: str  # the rolls a blow's outcome calls for, which the odds follow too
    hidden_when_unreachable: frozenset[str] = frozenset()  # chart rows left out when no declaration reaches them
    # where only the attacker rolls (Pendragon unopposed): the rows instead (empty: the same rows)
    unopposed_headline: tuple[OddsRow, ...] = ()
    unopposed_chart: tuple[OddsRow, ...] = ()
    aims_at_locations: bool = False  # "aim" names a hit location (Fading Suns), not high/mid/low


@dataclass(frozen=True)
class WayOutWords:
    """A character leaving one of the system's lasting states (/recover, /ready, /encounter end), in the system's
    words (bot/ui/way_out_words.py). A state not named reads "is no longer <state>"."""

    action_cost: str  # what a way out that takes the character's action costs ("that is their action this round")
    does: Mapping[str, str]  # state -> what the character does to leave it ("gets up"; {weapon}: the weapon's name)
    ended: Mapping[str, str]  # what /encounter end ends, as the character does it ("is back with the others")
    kept: Mapping[str, str] = field(default_factory=dict)  # what outlasts the fight, and the way out of it
    costs: Mapping[str, str] = field(default_factory=dict)  # the other costs worth saying, by WayOut.cost


@dataclass(frozen=True)
class SystemProfile:
    system: str  # the id /setup system, content packs and stored events use
    title: str  # the display name
    gm_rolls: str  # the rolls a wound (or a fumble) calls for, which /setup rolls mode:gm leaves to the GM

    # -- slash commands (bot/system_commands.py) --
    # the commands and subcommands (by path) that only some systems have, which this one has
    own_commands: frozenset[str]
    # the options that only some systems take, which this one does: command path -> option -> its description
    own_options: Mapping[str, Mapping[str, str]]

    # -- combat (bot/services/combat.py) --
    # how the engine's "gm_decide" action names the GM's choice ("kind" too if it takes the decision's kind)
    decide_options: tuple[str, ...]
    # /attack options the engine names differently: the command's name -> the engine's
    attack_option_names: Mapping[str, str]
    # /attack's true/false options that choose an engine option's value: name -> (engine option, if true, if false)
    attack_switches: Mapping[str, tuple[str, str, str]]
    # neutral action names the commands use -> the engine's action and the options that go with it (/rearm)
    command_actions: Mapping[str, tuple[str, Mapping[str, Any]]]

    # -- injuries (bot/services/injuries.py) --
    treatments: Mapping[str, Treatment]  # /heal's neutral treatments, in the order it offers them
    # True: a treatment acts on the patient (the action's attacker) and the healer is the defender;
    # False: the healer acts, the patient is the defender (or alone, treating themself)
    patient_acts: bool
    modifier_option: str  # the engine's name for /heal's "modifier"
    rest_days: int  # the fewest days /rest takes (Pendragon heals by the week)
    rest_refusal: str  # what /rest says to fewer days than that ("" where any day will do)
    # the sheet fields play records (wounds, conditions and their bookkeeping): a player's /character import
    # over a character never removes or lowers them (bot/services/import_keep.py)
    recorded_fields: tuple[str, ...]

    # -- rolls left to the GM (bot/services/pending_rolls.py) --
    pending_field: str  # the sheet field where the engine queues the rolls it waits for
    roll_actions: Mapping[str, str]  # each roll that can wait (/pending-roll's choices) -> the engine action
    pending_ids: bool  # each queued roll has an ``id`` the action names (``pending``)
    roll_names: Mapping[str, str]  # each of those rolls in words ("shock roll", "wound-effect roll")
    # every other roll label the engine's actions can produce (its roll_labels), in a table's words: the typed-dice
    # line says whose roll a face went to ("🎲 4 → Bjorn's stumble roll", bot/ui/typed_dice.py)
    label_names: Mapping[str, str]
    decisions: Mapping[str, DecisionWords]  # the kinds of decision the engine leaves for the GM

    # -- the body diagram (bot/services/wound_state.py) --
    picture: PictureReader
    # wounds land on hit locations (a body figure); False: they are hit points lost (Pendragon's bar)
    hit_locations: bool
    # where an attack's outcome says armour stopped the blow (the picture marks it; None: nowhere)
    armour_held_at: Callable[[Outcome], str | None]

    # -- words (bot/ui/) --
    help: HelpWords
    odds: OddsWords
    way_out: WayOutWords  # leaving a lasting state
    # the heading of each action only this system has, after the actor's name ("casts at"); the neutral
    # commands' (attack, heal, rest ...) are bot/ui/action_embeds.py's
    action_titles: Mapping[str, str]
    bleeding_note: str  # said once under a wound list with a bleeding wound: what bleeding does ("": nothing)
    # the module of bot/ui/outcomes/ whose DESCRIBERS word this engine's outcome records
    describers: str

    # -- the GM screen (bot/services/projection.py) --
    # the fields of this system's outcome records that are a character's figures (its dice, totals, targets,
    # armour, hit points, modifiers): left out of a record about one character behind the screen (a GM decision,
    # a roll the GM owed). A record of an exchange between two hides by side itself (hiding_target/hiding_actor).
    secret_fields: frozenset[str] = frozenset()
    # What comes next for a wound with rest, ``{days}`` (or ``{weeks}``, whole weeks of them) filled in
    # (rules.model.Wound.next_healing); "": the system counts no days. The campaign web page's wound list says it.
    healing_next: str = ""
