"""The sheet as an embed shows it: derived numbers (Size, mass cap, ENC, load), equipment, wounds."""

from __future__ import annotations

from typing import Any

from rules.fading_suns.body import carried_kg, enc_kg, load_modifier, mass_cap
from rules.fading_suns.catalog import FadingSunsCatalog, kg
from rules.fading_suns.character import parse
from rules.fading_suns.goals import penalties
from rules.fading_suns.recovery import heal_days_in
from rules.fading_suns.rulings import Rulings
from rules.model import SheetSummary, Wound


def _num(value: float) -> str:
    return f"{value:g}"


def summarize(sheet: Any, catalog: FadingSunsCatalog, rulings: Rulings | None = None) -> SheetSummary:
    char = parse(sheet, catalog)
    enc = enc_kg(char, catalog)
    carried = carried_kg(char, catalog, rulings or Rulings())
    pens = penalties(char, catalog)
    effect_goal = char.char(catalog.effect_characteristic) * catalog.effect_times
    stats: list[tuple[str, str]] = [(c.upper(), str(char.char(c))) for c in ("str", "dex", "end", "wits")]
    stats += [
        ("Size", str(char.size) + ("" if char.build == "average" else f" ({char.build})")),
        ("Mass cap", f"{_num(kg(mass_cap(char.size, catalog)))} kg"),
        ("ENC", f"{_num(kg(enc))} kg"),
        ("Carried", f"{_num(kg(carried))} kg"),
        ("Load", f"{round(100 * carried / enc)}% of ENC"),  # "0.24x ENC" read as an engine's ratio
        ("Load penalty", str(load_modifier(carried, enc, catalog))),
        ("Wound goal penalty", str(pens.goal)),
        ("Initiative penalty", str(pens.initiative)),
        ("Effect roll goal", str(effect_goal)),
    ]
    dropped = list(char.dropped)
    equipment: list[tuple[str, str]] = []
    for weapon in char.weapons:
        note = ""
        if weapon.name in dropped:
            dropped.remove(weapon.name)
            note = ", dropped"
        equipment.append((weapon.name, f"{weapon.damage} {weapon.type}, {'/'.join(weapon.modes)}{note}"))
    for piece in char.armour:  # each piece once, with the locations it covers (in the table's order)
        ratings = " ".join(f"{t[0].upper()}{v}" for t, v in piece.ratings)
        covered = [_place(catalog, location.name) for location in catalog.locations if location.name in piece.covers]
        equipment.append((piece.name, f"{ratings}; {', '.join(covered) or 'nothing'}"))
    if char.shield is not None:
        left = max(0, char.shield.hits - char.shield_hits_used)
        equipment.append((char.shield.name + " shield", f"{char.shield.min}/{char.shield.max}, {left} hits left"))
    wounds = []
    for w in char.wounds:
        severity = catalog.severity(w.severity)
        notes = [f"{severity.initiative} init"] if severity.initiative else []
        if w.treated:
            notes.append("treated")
        if w.progress:
            notes.append(f"{w.progress} day{'s' if w.progress != 1 else ''} healed")
        needed = heal_days_in(catalog, w)
        wounds.append(Wound(index=w.index, location=_place(catalog, w.location), code=w.severity[:3].upper(),
                            severity=w.severity, penalty=severity.goal, note=", ".join(notes),
                            next_healing=max(0, needed - w.progress) if needed is not None else None))
    condition = ", ".join([*char.conditions, *(f"{name} dropped" for name in char.dropped)]) or "ok"
    if char.pending:
        condition += f"; {len(char.pending)} pending roll(s)"
    if char.decision is not None:
        condition += "; awaiting GM"
    return SheetSummary(name=char.name, stats=tuple(stats), equipment=tuple(equipment), wounds=tuple(wounds),
                        condition=condition)


def _place(catalog: FadingSunsCatalog, name: str) -> str:
    """A location on the sheet: the name the results use, capitalised (``Right Arm``; the body picture keeps the
    pack's short labels)."""
    return catalog.display_name(name).title()
