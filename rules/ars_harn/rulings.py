"""The rulings a GM may change, with our defaults (docs/rules/ars-harn.md gives the reasons)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.model import Ruling
from rules.rulings import overlay

RULINGS: tuple[Ruling, ...] = (
    Ruling("auto_rolls", True, "Roll Shock and Kill at once; when off they wait for the GM's shock/kill action"),
    Ruling("combat_botch_dice", 1, "Botch dice on Attack, Defense, Targeting and Initiative stress rolls (0-10)",
            low=0, high=10),
    Ruling("roll_botch_dice", 1, "Botch dice on every other stress roll: shock, kill, fumble, healing... (0-10)",
            low=0, high=10),
    Ruling("tactical_advantage", "excess_doubles", "When a defender earns Tactical Advantage",
            ("excess_doubles", "total_doubles")),
    Ruling("saved_points_cap", "after_first_round", "When the 3x weapon skill cap on saved points applies",
            ("after_first_round", "always")),
    Ruling("saved_points_use", "attack_total", "What saved excess points are added to on the next attack",
            ("attack_total", "damage_total")),
    Ruling("amputation_when", "grievous_edge", "Which hits at an amputation location call for the roll",
            ("grievous_edge", "grievous_any", "top_band")),
    Ruling("fumble_roll_when", "every_injury", "Which limb injuries below Grievous call for a Fumble/Stumble roll",
            ("every_injury", "serious_or_worse")),
    Ruling("bleeding_rule", "grievous_and_kill", "Which wounds bleed",
            ("grievous_and_kill", "grievous_only", "harn")),
    Ruling("kill_failure", "gm_decides", "What a failed Kill roll does", ("gm_decides", "death", "incapacitation")),
    Ruling("defense_weapons", "best", "Defense uses the best held weapon or the sum of all held ones",
            ("best", "sum")),
    Ruling("encumbrance_on", "initiative", "Rolls that Encumbrance lowers",
            ("initiative", "initiative_and_physical")),
    Ruling("targeting_ease_factor", 6, "Default Ease Factor of a Targeting roll when the action names none (0-30)",
            low=0, high=30),
    Ruling("treatment_bonus", True, "Add HarnMaster's treatment bonus / 10 to the Chirurgy roll"),
    Ruling("off_hand_penalty", 0, "Points off the Attack Total of a blow struck with a weapon in the off (left) hand "
            "(0-10)", low=0, high=10),
    Ruling("weapons_gathered", True, "At the end of a fight, weapons dropped in it are picked up again"),
)


@dataclass(frozen=True)
class Rulings:
    auto_rolls: bool
    combat_botch_dice: int
    roll_botch_dice: int
    tactical_advantage: str
    saved_points_cap: str
    saved_points_use: str
    amputation_when: str
    fumble_roll_when: str
    bleeding_rule: str
    kill_failure: str
    defense_weapons: str
    encumbrance_on: str
    targeting_ease_factor: int
    treatment_bonus: bool
    off_hand_penalty: int
    weapons_gathered: bool


def parse_rulings(overrides: Any) -> Rulings:
    """Defaults overlaid with ``overrides``; an unknown name or a bad value names the ruling."""
    values: dict[str, Any] = overlay(RULINGS, overrides, "ars-harn")
    return Rulings(**values)
