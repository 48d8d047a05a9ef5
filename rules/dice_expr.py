"""Free-form rolls for a GM who wants one quickly: ``3d6+2``, ``stress+5 vs 9``, ``d20 vs 14``.

Grammar (case and spaces do not matter):
    sum       NdM / dM / K terms joined by + and -          3d6+2, d100, 2d10-1
    simple    simple[+-K] [vs EF]                           Ars Magica simple die
    stress    stress[+-K] [botch N] [vs EF]                 Ars Magica stress die (1 botch die by default)
    pendragon d20 vs T   (or: pendragon T)                  roll-under as Pendragon reads it
    goal      fs vs G    (or: fs G)                         Fading Suns goal roll with victory points
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.dice import DiceSource, Roll, VictoryChart
from rules.errors import DiceError

MAX_DICE = 100
MAX_SIDES = 1000
MAX_LENGTH = 100
MAX_NUMBER = 999_999  # the largest constant term

_ARS = re.compile(r"^(simple|stress)([+-]\d{1,4})?(?:botch(\d{1,2}))?(?:vs(-?\d{1,4}))?$")
_PENDRAGON = re.compile(r"^(?:d20vs|pendragon(?:vs)?)(-?\d{1,3})$")
_GOAL = re.compile(r"^(?:fs|goal)(?:vs)?(-?\d{1,3})$")
# Digits are read whole (the length limit bounds them), so a number over a limit is named, not cut in two.
_TERM = re.compile(r"([+-])(?:(\d*)d(\d+)|(\d+))")


@dataclass(frozen=True)
class ExprResult:
    expression: str
    rolls: tuple[Roll, ...]
    total: int
    result: str | None = None
    modifier: int = 0  # what the expression adds to dice whose roll does not show it (3d6+2: 2)


def roll_expression(text: str, dice: DiceSource, chart: VictoryChart | None = None,
                    label: str = "roll") -> ExprResult:
    """Roll ``text``; a malformed expression raises DiceError naming what was not understood."""
    if len(text) > MAX_LENGTH:
        raise DiceError(f"a roll expression is at most {MAX_LENGTH} characters")
    squashed = re.sub(r"\s+", "", text.lower())
    if not squashed:
        raise DiceError("empty roll expression: try 3d6+2, stress+5 vs 9, d20 vs 14 or fs vs 12")
    start = len(dice.rolls)

    if match := _ARS.match(squashed):
        kind, mod, botch, ease = match.groups()
        modifier = int(mod) if mod else 0
        botch_dice = int(botch) if botch is not None else 1
        if ease is not None:
            check = dice.ars_check(label, modifier, int(ease), stress=kind == "stress", botch_dice=botch_dice)
            return ExprResult(text, tuple(dice.rolls[start:]), check.total, check.result)  # its roll names the +K
        die = dice.stress(label, botch_dice) if kind == "stress" else dice.simple(label)
        result = "botch" if die.botches else None
        return ExprResult(text, tuple(dice.rolls[start:]), die.total + modifier, result, modifier)

    if match := _PENDRAGON.match(squashed):
        check = dice.pendragon(label, int(match.group(1)))
        return ExprResult(text, tuple(dice.rolls[start:]), check.total, check.result)

    if match := _GOAL.match(squashed):
        if chart is None:
            raise DiceError("a Fading Suns goal roll needs the victory chart")
        check = dice.fading_suns(label, int(match.group(1)), chart)
        return ExprResult(text, tuple(dice.rolls[start:]), check.total, check.result)

    body = squashed if squashed[0] in "+-" else "+" + squashed
    position = 0
    total = 0
    modifier = 0
    dice_count = 0
    while position < len(body):
        match = _TERM.match(body, position)
        if match is None:
            raise DiceError(f"cannot read '{body[position:].lstrip('+')}' in '{text}': try 3d6+2 or d20 vs 14")
        sign = -1 if match.group(1) == "-" else 1
        if match.group(3) is not None:
            count = int(match.group(2)) if match.group(2) else 1
            sides = int(match.group(3))
            dice_count += count
            if count < 1 or count > MAX_DICE or dice_count > MAX_DICE:
                raise DiceError(f"roll between 1 and {MAX_DICE} dice")
            if not 2 <= sides <= MAX_SIDES:
                raise DiceError(f"a die has between 2 and {MAX_SIDES} sides, not {sides}")
            roll = dice.d100(label) if (count, sides) == (1, 100) else dice.dice(label, count, sides)
            total += sign * roll.total
        else:
            number = int(match.group(4))
            if number > MAX_NUMBER:
                shown = match.group(4) if len(match.group(4)) <= 12 else match.group(4)[:10] + "\u2026"
                raise DiceError(f"a number in a roll is at most {MAX_NUMBER}, not {shown}")
            total += sign * number
            modifier += sign * number
        position = match.end()
    if dice_count == 0:
        raise DiceError(f"'{text}' rolls no dice: try 3d6+2")
    return ExprResult(text, tuple(dice.rolls[start:]), total, modifier=modifier)
