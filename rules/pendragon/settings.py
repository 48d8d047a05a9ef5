"""The rulings a GM may change, with our defaults (each one is discussed in docs/rules/pendragon.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.model import Setting

SETTINGS: tuple[Setting, ...] = (
    Setting("knockdown_trigger", "exceeds", "Knockdown roll when a blow's damage exceeds SIZ, or equals it too",
            ("exceeds", "equals_or_exceeds")),
    Setting("knockdown_automatic_at_double", True, "A blow of twice SIZ or more knocks down with no roll"),
    Setting("major_wound_threshold", "equals_or_exceeds",
            "A wound is major when it equals or exceeds CON, or only when it exceeds",
            ("equals_or_exceeds", "exceeds")),
    Setting("major_wound_unconscious", "roll", "Major wound: d20 vs current HP to stay awake, always out, or never",
            ("roll", "always", "never")),
    Setting("valorous_roll", True, "A conscious major-wounded knight rolls Valorous to stay in the fight"),
    Setting("stat_loss", True, "A major wound rolls on the Statistics Lost table"),
    Setting("flail_natural_1", "hits_self", "Flail natural 1: it hits its wielder, counts as a fumble, or nothing",
            ("hits_self", "fumble", "ignore")),
    Setting("critical_damage", "double_total", "A critical doubles the rolled damage, or rolls twice the dice",
            ("double_total", "double_dice")),
    Setting("lance_breaks", "odd_damage", "A charging lance breaks on odd damage, on an odd d20, or never",
            ("odd_damage", "odd_roll", "never")),
    Setting("great_spear_vs_horse", "negate", "Great spear afoot cancels the horseman's +5s, or gives the footman +5",
            ("negate", "bonus")),
    Setting("footman_penalty", False, "A footman also takes -5 against a horseman (the +5/-5 reading)"),
    Setting("two_handed_mounted", False, "Two-handed weapons may be used on horseback"),
    Setting("sword_breaks_on_double_critical", False, "A sword also breaks a non-sword when both roll criticals"),
    Setting("armour_dex_penalty", True, "Armour and large-shield DEX modifiers apply to DEX rolls (knockdown, falls)"),
    Setting("auto_rolls", True, "Roll knockdown, major wound and fall at once; if false they wait on the sheet"),
)

_BY_NAME = {s.name: s for s in SETTINGS}


@dataclass(frozen=True)
class Rulings:
    values: Mapping[str, str | int | bool]

    def text(self, name: str) -> str:
        return str(self.values[name])

    def flag(self, name: str) -> bool:
        return bool(self.values[name])


def parse_settings(given: Any) -> Rulings:
    """Our defaults overlaid with the scenario's; an unknown name or a bad value names itself."""
    values: dict[str, str | int | bool] = {s.name: s.default for s in SETTINGS}
    if given is None:
        return Rulings(values)
    if not isinstance(given, Mapping):
        raise RulesError("settings must be a mapping of setting name to value")
    for name, value in given.items():
        setting = _BY_NAME.get(name) if isinstance(name, str) else None
        if setting is None:
            raise RulesError(f"unknown pendragon setting '{name}' (known: {', '.join(_BY_NAME)})")
        if isinstance(setting.default, bool):
            if not isinstance(value, bool):
                raise RulesError(f"setting '{name}' must be true or false, not {value!r}")
        elif setting.choices and (not isinstance(value, str) or value not in setting.choices):
            raise RulesError(f"setting '{name}' must be one of {', '.join(setting.choices)}, not {value!r}")
        values[name] = value
    return Rulings(values)
