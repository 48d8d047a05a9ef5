"""What every action reads: the pack, the rulings in force, the dice."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.fading_suns.catalog import FadingSunsCatalog
from rules.fading_suns.rulings import Rulings


@dataclass(frozen=True)
class Ctx:
    catalog: FadingSunsCatalog
    rulings: Rulings
    dice: DiceSource
