"""What a character embed shows: derived numbers, equipment and wounds as short labelled pairs."""

from __future__ import annotations

from rules.ars_harn.arms import natural_usable
from rules.ars_harn.catalog import ArsHarnCatalog, Weapon
from rules.ars_harn.character import Character
from rules.ars_harn.totals import burden, damage_base, encumbrance, fatigue_penalty, load, soak_base
from rules.model import SheetSummary, Wound


def summarize(c: Character, catalog: ArsHarnCatalog) -> SheetSummary:
    stats = (
        ("Damage Base", str(damage_base(c, False))),
        ("Soak Base", str(soak_base(c))),
        ("Injury Levels", str(c.injury_levels)),
        ("Fatigue", f"{catalog.fatigue_level(c.fatigue).name} ({fatigue_penalty(c, catalog):+d})"),
        ("Bleeding", str(c.bleeding_wounds)),
        ("Load", f"{load(c, catalog):g}"),
        ("Burden", str(burden(load(c, catalog), catalog))),
        ("Encumbrance", str(encumbrance(c, catalog))),
        ("Saved points", str(c.saved_points)),
        ("Initiative", "-" if c.initiative is None else str(c.initiative)),
    )
    equipment: list[tuple[str, str]] = []
    for index, weapon in enumerate(c.weapons):
        aspects = " ".join(f"{a[0].upper()}{weapon.damage[a]}" for a in weapon.aspects())
        state = _weapon_state(c, index, weapon)
        equipment.append((weapon.name, f"{aspects}; {state}" if state else aspects))
    for piece in c.armour:  # the locations as the pack names them ("Upper Arm", not "upper_arm")
        equipment.append((piece.name, ", ".join(catalog.locations[key].label if key in catalog.locations else key
                                                for key in piece.locations)))
    interval = catalog.numbers.healing_interval_days  # every wound rolls at the end of each interval of rest
    wounds = tuple(
        Wound(index=w.index,
              location=(f"{w.side} {catalog.locations[w.location].label}" if w.side
                        else catalog.locations[w.location].label) if c.body is None
              else catalog.part_word(c.body, w.location, w.side),
              code=w.code, severity=catalog.severities.get(w.severity, w.severity), levels=w.levels,
              bleeding=w.bleeding, penalty=-w.levels,
              note=", ".join(n for n, on in (("amputated", w.amputated), ("treated", w.treated)) if on),
              next_healing=interval - c.rest_days % interval)
        for w in c.wounds
    )
    flags = list(c.conditions)
    flags += [f"{c.weapons[i].name} dropped" for i in c.dropped if 0 <= i < len(c.weapons)]
    if c.tactical_advantage:
        flags.append("tactical advantage")
    flags += [f"{catalog.limb_word(c.body, limb)} unusable" for limb in c.unusable_limbs]
    if c.pending_decision is not None:
        flags.append("awaiting GM decision")
    flags += [f"owes {p['kind']} roll" for p in c.pending_rolls]
    return SheetSummary(name=c.name, stats=stats, equipment=tuple(equipment), wounds=wounds,
                        condition=", ".join(flags) or "ok")


def _weapon_state(c: Character, index: int, weapon: Weapon) -> str:
    """Where a weapon is: in a hand, carried or dropped. A beast's own (the pack's ``natural``: a wolf's Bite) is
    part of its body, never carried: nothing is said of it unless the limb it needs is unusable."""
    if weapon.natural is not None:
        return "" if natural_usable(c, weapon) else "unusable"
    hand = c.hand_of(index)
    return "dropped" if index in c.dropped else (f"{hand} hand" if hand else "carried")
