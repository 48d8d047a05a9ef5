"""Errors the engine raises. Every message is one line of plain text, no markdown: the bot shows it as the text it
is (bot/ui/replies.refusal), so the names it holds (a character's, a weapon's) show as typed."""

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


class RulingForbids(IllegalAction):
    """An action one of the server's rulings forbids (``ruling``, the ruling's name): the bot words the refusal
    from the ruling's name (bot/ui/replies), so a player reads what to do, not the engine's terms."""

    def __init__(self, ruling: str, message: str) -> None:
        super().__init__(message)
        self.ruling = ruling


class NotInHand(IllegalAction):
    """A weapon broken or dropped, named where it cannot be used (an attack with it, or a spare in a fight the
    rulings keep spares out of). ``who`` holds none; ``ready`` names the weapons they may take up instead, so the
    bot can say the way on (bot/ui/replies)."""

    def __init__(self, who: str, weapon: str, broken: bool, ready: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.who = who
        self.weapon = weapon
        self.broken = broken
        self.ready = ready


def no_room_for_a_wound(name: str, cap: int) -> IllegalAction:
    """The refusal of a blow that would give ``name`` one wound more than a sheet holds: refused before it lands,
    so the sheet stays readable (a stored sheet over the cap would refuse every later command)."""
    return IllegalAction(f"{name} already has {cap} wounds, as many as a sheet holds: heal some, "
                         f"or take {name} out of the fight")
