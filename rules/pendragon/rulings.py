"""The rulings a GM may change, with our defaults (each one is discussed in docs/rules/pendragon.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.model import Ruling
from rules.rulings import overlay

RULINGS: tuple[Ruling, ...] = (
    Ruling("knockdown_trigger", "exceeds", "Knockdown roll when a blow's damage exceeds SIZ, or equals it too",
            ("exceeds", "equals_or_exceeds")),
    Ruling("knockdown_automatic_at_double", True, "A blow of twice SIZ or more knocks down with no roll"),
    Ruling("major_wound_threshold", "equals_or_exceeds",
            "A wound is major when it equals or exceeds CON, or only when it exceeds",
            ("equals_or_exceeds", "exceeds")),
    Ruling("major_wound_unconscious", "roll", "Major wound: d20 vs current HP to stay awake, always out, or never",
            ("roll", "always", "never")),
    Ruling("valorous_roll", True, "A conscious major-wounded knight rolls Valorous to stay in the fight"),
    Ruling("stat_loss", True, "A major wound rolls on the Statistics Lost table"),
    Ruling("flail_natural_1", "hits_self", "Flail natural 1: it hits its wielder, counts as a fumble, or nothing",
            ("hits_self", "fumble", "ignore")),
    Ruling("critical_damage", "double_total", "A critical doubles the rolled damage, or rolls twice the dice",
            ("double_total", "double_dice")),
    Ruling("lance_breaks", "odd_damage", "A charging lance breaks on odd damage, on an odd d20, or never",
            ("odd_damage", "odd_roll", "never")),
    Ruling("great_spear_vs_horse", "negate", "Great spear afoot cancels the horseman's +5s, or gives the footman +5",
            ("negate", "bonus")),
    Ruling("footman_penalty", False, "A footman also takes -5 against a horseman (the +5/-5 reading)"),
    Ruling("two_handed_mounted", False, "Two-handed weapons may be used on horseback"),
    Ruling("sword_breaks_on_double_critical", False,
            "A sword also breaks a non-sword when both roll criticals on different numbers"),
    Ruling("armour_dex_penalty", True, "Armour and large-shield DEX modifiers apply to DEX rolls (knockdown, falls)"),
    Ruling("first_aid_on_self", False, "First Aid may be given to oneself (by the rules it cannot)"),
    Ruling("auto_rolls", True, "Roll knockdown, major wound and fall at once; if false they wait on the sheet"),
    Ruling("replace_broken_in_fight", False, "A broken weapon may be replaced in a fight (a spare), not only after"),
    Ruling("weapons_gathered", True, "At the end of a fight, weapons dropped in it are picked up again"),
)


@dataclass(frozen=True)
class Rulings:
    values: Mapping[str, str | int | bool]

    def text(self, name: str) -> str:
        return str(self.values[name])

    def flag(self, name: str) -> bool:
        return bool(self.values[name])


def parse_rulings(given: Any) -> Rulings:
    """Our defaults overlaid with the scenario's; an unknown name or a bad value names itself."""
    return Rulings(overlay(RULINGS, given, "pendragon"))
