"""Errors the engine raises. Every message is safe to show a user as one line."""

from __future__ import annotations


class RulesError(Exception):
    """Root of every error the engine raises on purpose (bad input, illegal action)."""


class DiceError(RulesError):
    """A dice expression or a forced face that cannot be rolled."""


class ForcedFaceError(DiceError):
    """A forced face that is impossible for its die, or given for a label that was never rolled."""


class SheetError(RulesError):
    """A character sheet that is missing a field or holds a value of the wrong kind."""


class UnknownEntry(RulesError):
    """A name (weapon, armour, system, location) that the content pack does not hold."""


class IllegalAction(RulesError):
    """An action the rules forbid in this state (attacking unarmed after a fumble, a missing aspect)."""


def no_room_for_a_wound(name: str, cap: int) -> IllegalAction:
    """The refusal of a blow that would give ``name`` one wound more than a sheet holds: refused before it lands,
    so the sheet stays readable (a stored sheet over the cap would refuse every later command)."""
    return IllegalAction(f"{name} already has {cap} wounds, as many as a sheet holds: heal some, "
                         f"or take {name} out of the fight")
