"""What every action reads: the pack, the rulings in force, the dice."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.dice import DiceSource
from rules.pendragon.catalog import DiceSpec, PendragonCatalog
from rules.pendragon.character import Character
from rules.pendragon.derived import Derived, current_hp, derive
from rules.pendragon.rulings import Rulings


@dataclass(frozen=True)
class Ctx:
    catalog: PendragonCatalog
    rulings: Rulings
    dice: DiceSource
    npcs: frozenset[str] = frozenset()  # the sides that are the GM's NPCs (Scenario.npcs)

    def with_auto_rolls(self) -> Ctx:
        """The same context rolling at once: for actions that resolve a roll that waited."""
        return replace(self, rulings=Rulings({**self.rulings.values, "auto_rolls": True}))

    def derived(self, char: Character) -> Derived:
        return derive(char, self.catalog)

    def hp(self, char: Character) -> int:
        return current_hp(char, self.catalog)

    def roll_spec(self, label: str, spec: DiceSpec) -> int:
        if spec.count == 0:
            return spec.bonus
        return self.dice.dice(label, spec.count, spec.sides, spec.bonus).total

    def dex_target(self, char: Character) -> int:
        """DEX for a DEX roll, less the armour's DEX modifier when that ruling is on."""
        penalty = char.dex_penalty if self.rulings.flag("armour_dex_penalty") else 0
        return char.stats["dex"] + penalty
