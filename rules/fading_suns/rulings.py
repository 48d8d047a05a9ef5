"""The GM-changeable rulings: each with our default, parsed from a scenario's rulings mapping."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.model import Ruling
from rules.rulings import overlay

RULINGS: tuple[Ruling, ...] = (
    Ruling("auto_rolls", True, "Roll wound effect, stumble and fumble rolls at once; off queues them for the GM"),
    Ruling("damage_mode", "fixed", "Weapon base and armour as fixed numbers, or rolled as FS effect dice",
            ("fixed", "rolled")),
    Ruling("victory_bonus", "points", "Add victory points or victory dice to the weapon base", ("points", "dice")),
    Ruling("armour_layers", "best", "Several pieces on one location: the best rating counts, or their sum",
            ("best", "sum")),
    Ruling("wound_penalties", "all", "Wound goal penalties reach every roll, or only rolls the location affects",
            ("all", "by_location")),
    Ruling("effect_roll_penalties", False, "Wound goal penalties also lower wound-effect rolls against 2xEND"),
    Ruling("energy_shields", True, "Energy shields on sheets stop damage before armour"),
    Ruling("gm_confirms_death", False, "A death result waits for the GM to choose death or unconsciousness"),
    Ruling("fumble_on_critical_failure", True, "An attack's critical failure (a 20) makes the attacker roll FUMBLE"),
    Ruling("armour_scales_with_size", False, "Armour weight scales with the wearer's Size (x1.5 per step from 5)"),
    Ruling("armour_share_basis", "percent",
            "Location shares: percents of the suit weight (sum 110%) or normalised to it", ("percent", "normalised")),
    Ruling("armour_penalties", "by_coverage",
            "FS armour Dex/Vigor penalties: scaled by the body covered, a full suit's worst, or none",
            ("by_coverage", "full", "none")),
    Ruling("weapons_gathered", True, "At the end of a fight, weapons dropped or thrown in it are picked up again"),
    Ruling("unnamed_defense", "dodge",
            "The defense a target makes when neither the attack nor its sheet names one", ("dodge", "none")),
    Ruling("ask_defense", True,
            "A player's character with no defense named: its player is asked (a minute, then unnamed_defense)"),
    Ruling("stun_lasts", "next_turn",
            "A stun costs the next turn and then ends, or lasts until the GM or a recover action ends it",
            ("next_turn", "until_recovered")),
)


@dataclass(frozen=True)
class Rulings:
    auto_rolls: bool = True
    damage_mode: str = "fixed"
    victory_bonus: str = "points"
    armour_layers: str = "best"
    wound_penalties: str = "all"
    effect_roll_penalties: bool = False
    energy_shields: bool = True
    gm_confirms_death: bool = False
    fumble_on_critical_failure: bool = True
    armour_scales_with_size: bool = False
    armour_share_basis: str = "percent"
    armour_penalties: str = "by_coverage"
    weapons_gathered: bool = True
    unnamed_defense: str = "dodge"
    ask_defense: bool = True  # read by the bot before it resolves an attack (bot/services/defense_prompt.py)
    stun_lasts: str = "next_turn"


def parse_rulings(raw: Any) -> Rulings:
    """A scenario's rulings over our defaults; an unknown name or a bad value is one RulesError line."""
    values: dict[str, Any] = overlay(RULINGS, raw, "fading-suns")
    return Rulings(**values)
