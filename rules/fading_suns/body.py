"""Size, mass caps, encumbrance and carried weight (the seed's Size and ENC rules, partial armour)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from rules.fading_suns.catalog import FadingSunsCatalog
from rules.fading_suns.character import Character
from rules.fading_suns.rulings import Rulings


def mass_cap(size: int, catalog: FadingSunsCatalog) -> Fraction:
    """The most a creature of this Size weighs: 100 kg at Size 5, times 1.5 per step."""
    return catalog.anchor_kg * catalog.size_step ** (size - catalog.size_average)


def enc_kg(char: Character, catalog: FadingSunsCatalog) -> Fraction:
    """ENC = STR squared, in kg."""
    return Fraction(char.char("str") ** catalog.strength_power)


def armour_weight(char: Character, catalog: FadingSunsCatalog, rulings: Rulings) -> Fraction:
    normalised = rulings.armour_share_basis == "normalised"
    total = sum((catalog.piece_weight(piece, normalised) for piece in char.armour), Fraction(0))
    if rulings.armour_scales_with_size:
        total *= catalog.size_step ** (char.size - catalog.size_average)
    return total


def carried_kg(char: Character, catalog: FadingSunsCatalog, rulings: Rulings) -> Fraction:
    """Armour (each piece its locations' share of the suit), weapons still held, shield and other gear."""
    dropped = Counter(char.dropped)
    weapons = Fraction(0)
    for weapon in char.weapons:
        if dropped[weapon.name]:
            dropped[weapon.name] -= 1
        else:
            weapons += weapon.weight
    shield = char.shield.weight if char.shield is not None else Fraction(0)
    return armour_weight(char, catalog, rulings) + weapons + shield + char.gear_kg


def load_modifier(carried: Fraction, enc: Fraction, catalog: FadingSunsCatalog) -> int:
    """The goal modifier of the highest load band reached (carried >= band x ENC)."""
    modifier = 0
    for band in catalog.encumbrance:
        if carried >= band.at * enc:
            modifier = band.modifier
    return modifier


def encumbrance(char: Character, catalog: FadingSunsCatalog, rulings: Rulings) -> int:
    return load_modifier(carried_kg(char, catalog, rulings), enc_kg(char, catalog), catalog)
