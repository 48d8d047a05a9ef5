"""What every action reads: the pack, the rulings in force, the dice."""

from __future__ import annotations

from dataclasses import dataclass

from rules.ars_harn.catalog import ArsHarnCatalog
from rules.ars_harn.rulings import Rulings
from rules.dice import DiceSource


@dataclass(frozen=True)
class Ctx:
    catalog: ArsHarnCatalog
    rulings: Rulings
    dice: DiceSource
