"""Free-form roll expressions for ``/roll`` and ``grievous roll``."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from content import victory_chart
from rules.dice import DiceSource
from rules.dice_expr import roll_expression
from rules.errors import DiceError


def roll(text: str, faces: list[int], botch: list[int] | None = None) -> tuple[int, str | None]:
    dice = DiceSource({"roll": faces, "roll.botch": botch or []})
    result = roll_expression(text, dice, victory_chart())
    dice.check_all_used()
    return result.total, result.result


def test_sum_of_dice_and_constants() -> None:
    assert roll("3d6+2", [1, 2, 3]) == (8, None)
    assert roll("2d10 - 1", [0, 5]) == (14, None)
    assert roll("d100", [37]) == (37, None)


def test_stress_against_an_ease_factor() -> None:
    assert roll("stress+5 vs 9", [1, 1, 4]) == (21, "success")
    assert roll("stress + 2 vs 9", [6]) == (8, "failure")
    assert roll("stress+9 botch 2 vs 3", [0], botch=[0, 7]) == (9, "fumble")


def test_simple_and_bare_stress() -> None:
    assert roll("simple+3", [0]) == (13, None)
    assert roll("stress botch 2", [0], botch=[3, 4]) == (0, None)
    assert roll("stress", [0], botch=[0]) == (0, "botch")


def test_pendragon_and_fading_suns() -> None:
    assert roll("d20 vs 14", [14]) == (14, "critical")
    assert roll("pendragon 23", [17]) == (20, "critical")
    assert roll("fs vs 12", [19]) == (19, "failure")


@pytest.mark.parametrize("bad", ["", "foo", "3d", "0d6", "101d6", "1d1", "3d6+", "d20 vs", "x" * 101])
def test_malformed_expressions_say_what_is_wrong(bad: str) -> None:
    with pytest.raises(DiceError):
        roll_expression(bad, DiceSource(), victory_chart())


@given(st.text(max_size=40))
def test_any_text_rolls_or_raises_a_dice_error(text: str) -> None:
    with contextlib.suppress(DiceError):
        roll_expression(text, DiceSource(), victory_chart())


@pytest.mark.parametrize(("text", "limit"), [
    ("1d1000000", "a die has between 2 and 1000 sides, not 1000000"),
    ("1000d6", "roll between 1 and 100 dice"),
    ("3d6+1234567", "a number in a roll is at most 999999, not 1234567"),
])
def test_a_number_over_a_limit_names_the_limit_not_a_cut_off_digit(text: str, limit: str) -> None:
    with pytest.raises(DiceError) as caught:
        roll_expression(text, DiceSource(), victory_chart())
    assert str(caught.value) == limit


def test_a_sum_reports_the_constant_it_adds() -> None:
    result = roll_expression("3d6+2-1", DiceSource({"roll": [4, 3, 1]}), victory_chart())
    assert (result.total, result.modifier) == (9, 1)
