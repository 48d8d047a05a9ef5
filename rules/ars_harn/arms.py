"""Which weapon a character strikes or parries with, and what the hands hold."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.ars_harn.catalog import ArsHarnCatalog, Weapon, key_of
from rules.ars_harn.character import HAND_ROLES, HANDS, Character
from rules.errors import IllegalAction, RulesError, UnknownEntry


@dataclass(frozen=True)
class Chosen:
    weapon: Weapon
    index: int | None  # index on the sheet; None for an unarmed attack
    hand: str | None


def find_on_sheet(c: Character, spec: str | int) -> int | None:
    """The sheet index of weapon ``spec`` (a name or an index), or None if the sheet lacks it."""
    if isinstance(spec, int):
        if not 0 <= spec < len(c.weapons):
            raise RulesError(f"{c.name} has no weapon {spec} (weapons 0 to {len(c.weapons) - 1})")
        return spec
    for index, weapon in enumerate(c.weapons):
        if key_of(weapon.name) == key_of(spec):
            return index
    return None


def arm_usable(c: Character, hand: str) -> bool:
    return f"{hand}_arm" not in c.unusable_limbs


def natural_usable(c: Character, weapon: Weapon) -> bool:
    if weapon.natural == "arm":
        return any(arm_usable(c, hand) for hand in HANDS)
    if weapon.natural == "leg":
        return any(f"{side}_leg" not in c.unusable_limbs for side in HANDS)
    return True


def attack_weapon(c: Character, spec: str | int | None, catalog: ArsHarnCatalog) -> Chosen:
    if spec is None:
        for hand, index in zip(HANDS, c.held, strict=True):
            if index is not None and arm_usable(c, hand) and c.weapons[index].skill != "Shield":
                return Chosen(c.weapons[index], index, hand)
        for hand, index in zip(HANDS, c.held, strict=True):
            if index is not None and arm_usable(c, hand):
                return Chosen(c.weapons[index], index, hand)
        for index, weapon in enumerate(c.weapons):  # a beast's own bite or claws
            if weapon.natural is not None and natural_usable(c, weapon):
                return Chosen(weapon, index, None)
        raise IllegalAction(f"{c.name} holds no usable weapon: ready one, pick one up, or attack with Fist, "
                            f"Kick or Headbutt")
    index = find_on_sheet(c, spec)
    if index is None:
        assert isinstance(spec, str)
        weapon = catalog.weapon(spec)
        if weapon.natural is None:
            raise IllegalAction(f"{c.name} does not carry a {weapon.name}")
        if not natural_usable(c, weapon):
            raise IllegalAction(f"{c.name} cannot use {weapon.name}: the limb is unusable")
        return Chosen(weapon, None, None)
    weapon = c.weapons[index]
    if weapon.natural is not None:
        if not natural_usable(c, weapon):
            raise IllegalAction(f"{c.name} cannot use {weapon.name}: the limb is unusable")
        return Chosen(weapon, index, None)
    if index in c.dropped:
        raise IllegalAction(f"{c.name}'s {weapon.name} is on the ground: pick it up first")
    in_hand = c.hand_of(index)
    if in_hand is None:
        raise IllegalAction(f"{c.name} is not holding the {weapon.name}: ready it first")
    if not arm_usable(c, in_hand) or (weapon.hands == 2 and not all(arm_usable(c, h) for h in HANDS)):
        raise IllegalAction(f"{c.name} cannot wield the {weapon.name}: the arm is unusable")
    return Chosen(weapon, index, in_hand)


def parrying_weapons(c: Character, spec: str | int | None) -> list[Weapon]:
    """The held weapons the defender may parry with (all usable ones, or the one named)."""
    usable = [c.weapons[i] for i in c.held_indices()
              if c.hand_of(i) is not None and arm_usable(c, c.hand_of(i) or "right")]
    if spec is None:
        return usable
    index = find_on_sheet(c, spec)
    if index is None or index not in c.held_indices():
        raise IllegalAction(f"{c.name} is not holding a weapon '{spec}' to defend with")
    return [c.weapons[index]]


def ready(c: Character, index: int, hand: str) -> tuple[int | None, int | None]:
    """The hands after taking weapon ``index`` into ``hand`` (two-handed weapons fill both)."""
    weapon = c.weapons[index]
    if weapon.natural is not None:
        raise IllegalAction(f"{weapon.name} is always to hand; there is nothing to ready")
    if weapon.hands == 2:
        if not all(arm_usable(c, h) for h in HANDS):
            raise IllegalAction(f"{c.name} cannot wield the two-handed {weapon.name} with an unusable arm")
        return index, index
    if not arm_usable(c, hand):
        spare = HANDS[1 - HANDS.index(hand)]
        if arm_usable(c, spare):
            role = next(r for r, h in HAND_ROLES.items() if h == spare)
            raise IllegalAction(f"{c.name}'s {hand} arm is unusable: ready the {weapon.name} in the {spare} hand "
                                f"instead (hand: {role})")
        raise IllegalAction(f"{c.name} has no usable arm to hold the {weapon.name}")
    right, left = c.held
    # A two-handed weapon already held is let go of entirely.
    if right is not None and c.weapons[right].hands == 2:
        right = left = None
    other = left if hand == "right" else right
    if other == index:
        other = None
    return (index, other) if hand == "right" else (other, index)


def unknown_weapon(c: Character, spec: str | int, catalog: ArsHarnCatalog) -> RulesError:
    if isinstance(spec, str):
        try:
            catalog.weapon(spec)
        except UnknownEntry as exc:
            return exc
    return IllegalAction(f"{c.name} does not carry a weapon '{spec}'")


def unequip(c: Character, kind: str, spec: str) -> tuple[Character, str]:
    """``c`` without its first weapon or armour piece named ``spec``: what the hands hold and what lies on the
    ground follow the weapons still on the sheet (they are kept by position)."""
    if kind == "armour":
        names = [piece.name for piece in c.armour]
        index = next((i for i, name in enumerate(names) if key_of(name) == key_of(spec)), None)
        if index is None:
            raise IllegalAction(f"{c.name} wears no '{spec}' (wears: {', '.join(names) or 'nothing'})")
        return replace(c, armour=c.armour[:index] + c.armour[index + 1:],
                       armour_specs=c.armour_specs[:index] + c.armour_specs[index + 1:]), names[index]
    if kind != "weapon":
        raise RulesError(f"action 'unequip': option 'kind' must be weapon or armour, not {kind!r}")
    found = find_on_sheet(c, spec)
    if found is None:
        carried = ", ".join(w.name for w in c.weapons) or "nothing"
        raise IllegalAction(f"{c.name} carries no '{spec}' (carries: {carried})")
    gone: int = found

    def moved(index: int | None) -> int | None:
        if index is None or index == gone:
            return None
        return index - 1 if index > gone else index

    right, left = (moved(i) for i in c.held)
    dropped = tuple(i for i in (moved(i) for i in c.dropped) if i is not None)
    return replace(c, weapons=c.weapons[:gone] + c.weapons[gone + 1:],
                   weapon_specs=c.weapon_specs[:gone] + c.weapon_specs[gone + 1:], held=(right, left),
                   dropped=dropped), c.weapons[gone].name
