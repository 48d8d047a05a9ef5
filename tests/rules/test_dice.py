"""The dice source: every die kind the foundation issue names, pinned with forced faces."""

from __future__ import annotations

from random import Random

import pytest

from content import victory_chart
from rules.dice import CRITICAL, CRITICAL_FAILURE, FAILURE, FUMBLE, SUCCESS, DiceSource
from rules.errors import DiceError, ForcedFaceError


def forced(**faces: list[int]) -> DiceSource:
    return DiceSource({label.replace("__", "."): f for label, f in faces.items()})


# -- Ars Magica simple and stress dice ------------------------------------------------------


def test_simple_die_reads_zero_as_ten() -> None:
    dice = forced(roll=[0, 7])
    assert dice.simple("roll").total == 10
    assert dice.simple("roll").total == 7


@pytest.mark.parametrize("face", range(2, 10))
def test_stress_die_two_to_nine_read_as_shown(face: int) -> None:
    assert forced(attack=[face]).stress("attack").total == face


def test_stress_die_one_rolls_again_and_doubles() -> None:
    roll = forced(attack=[1, 4]).stress("attack")
    assert (roll.total, roll.faces) == (8, (1, 4))
    assert "exploded" in roll.flags


def test_stress_die_chained_ones_double_again() -> None:
    assert forced(attack=[1, 1, 4]).stress("attack").total == 16
    assert forced(attack=[1, 1, 1, 3]).stress("attack").total == 24


def test_stress_die_zero_after_a_one_reads_ten() -> None:
    assert forced(attack=[1, 0]).stress("attack").total == 20
    assert forced(attack=[1, 1, 0]).stress("attack").total == 40


def test_stress_die_first_zero_is_zero_and_rolls_botch_dice() -> None:
    dice = forced(attack=[0], attack__botch=[3, 5, 8])
    roll = dice.stress("attack", botch_dice=3)
    assert roll.total == 0
    assert roll.botches == 0
    assert "botch" not in roll.flags
    labels = [r.label for r in dice.rolls]
    assert labels == ["attack", "attack.botch"]
    assert dice.rolls[1].faces == (3, 5, 8)


def test_stress_die_any_zero_on_the_botch_dice_is_a_botch() -> None:
    dice = forced(attack=[0], attack__botch=[4, 0, 0])
    roll = dice.stress("attack", botch_dice=3)
    assert roll.botches == 2
    assert "botch" in roll.flags


def test_stress_die_with_no_botch_dice_rolls_none() -> None:
    dice = forced(attack=[0])
    assert dice.stress("attack", botch_dice=0).total == 0
    assert [r.label for r in dice.rolls] == ["attack"]


def test_ars_check_ties_succeed_and_botches_fail() -> None:
    assert forced(shock=[6]).ars_check("shock", 3, 9).result == SUCCESS
    assert forced(shock=[5]).ars_check("shock", 3, 9).result == FAILURE
    botched = forced(shock=[0], shock__botch=[0]).ars_check("shock", 20, 3)
    assert botched.result == FUMBLE
    assert botched.total == 20


# -- Pendragon d20 --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "target", "result"),
    [
        (5, 12, SUCCESS),
        (11, 12, SUCCESS),
        (12, 12, CRITICAL),
        (13, 12, FAILURE),
        (19, 12, FAILURE),
        (20, 12, FUMBLE),
        (20, 19, FUMBLE),
        (20, 20, CRITICAL),
        (19, 20, SUCCESS),
        (1, 1, CRITICAL),
        (1, 0, FAILURE),
    ],
)
def test_pendragon_roll_under(face: int, target: int, result: str) -> None:
    assert forced(attacker=[face]).pendragon("attacker", target).result == result


@pytest.mark.parametrize("face", range(1, 21))
def test_pendragon_skill_23_crits_on_17_to_20_and_never_fumbles(face: int) -> None:
    roll = forced(attacker=[face]).pendragon("attacker", 23)
    assert roll.result == (CRITICAL if face >= 17 else SUCCESS)
    assert roll.total == min(20, face + 3)
    assert roll.faces == (face,)


def test_pendragon_natural_one_is_flagged() -> None:
    assert "natural_1" in forced(attacker=[1]).pendragon("attacker", 25).flags


# -- Fading Suns d20 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "goal", "result", "points"),
    [
        (1, 12, SUCCESS, 1),
        (5, 12, SUCCESS, 1),
        (6, 12, SUCCESS, 2),
        (11, 12, SUCCESS, 3),
        (12, 12, CRITICAL, 8),
        (13, 12, FAILURE, 0),
        (18, 20, SUCCESS, 6),
        (18, 18, CRITICAL, 12),
        (19, 20, FAILURE, 0),
        (19, 25, FAILURE, 0),
        (20, 25, CRITICAL_FAILURE, 0),
        (20, 12, CRITICAL_FAILURE, 0),
    ],
)
def test_fading_suns_goal_roll(face: int, goal: int, result: str, points: int) -> None:
    roll = forced(attack=[face]).fading_suns("attack", goal, victory_chart())
    assert (roll.result, roll.victory_points) == (result, points)


# -- plain dice and forced faces ------------------------------------------------------------


def test_plain_dice_sum_with_bonus() -> None:
    roll = forced(damage=[3, 6, 1]).dice("damage", 3, 6, bonus=2)
    assert (roll.total, roll.kind) == (12, "3d6+2")


def test_d100_faces_run_1_to_100() -> None:
    assert forced(location=[100]).d100("location").total == 100
    with pytest.raises(ForcedFaceError, match="impossible on a d100"):
        forced(location=[0]).d100("location")


@pytest.mark.parametrize(("sides", "bad"), [(10, 10), (10, -1), (20, 0), (20, 21), (6, 7), (6, 0)])
def test_impossible_face_is_reported(sides: int, bad: int) -> None:
    with pytest.raises(ForcedFaceError, match=f"face {bad} for 'x' is impossible on a d{sides}"):
        DiceSource({"x": [bad]}).face("x", sides)


def test_forced_faces_are_consumed_in_order_then_random() -> None:
    dice = DiceSource({"a": [3, 4]}, rng=Random(1))
    assert [dice.face("a", 6), dice.face("a", 6)] == [3, 4]
    assert 1 <= dice.face("a", 6) <= 6


def test_a_face_for_a_label_never_rolled_is_reported() -> None:
    dice = DiceSource({"attack": [5], "kill": [3]})
    dice.stress("attack")
    with pytest.raises(ForcedFaceError, match="'kill', which was never rolled"):
        dice.check_all_used()


def test_leftover_faces_are_reported() -> None:
    dice = DiceSource({"attack": [5, 6]})
    dice.stress("attack")
    with pytest.raises(ForcedFaceError, match="left over"):
        dice.check_all_used()


def test_non_integer_faces_are_refused() -> None:
    with pytest.raises(ForcedFaceError):
        DiceSource({"attack": ["7"]})  # type: ignore[list-item]
    with pytest.raises(ForcedFaceError):
        DiceSource({"attack": [True]})


def test_every_roll_is_recorded_with_its_label() -> None:
    dice = forced(attack=[1, 5], location=[42])
    dice.stress("attack")
    dice.d100("location")
    assert [(r["label"], r["faces"], r["total"]) for r in dice.rolls_as_dicts()] == [
        ("attack", [1, 5], 10),
        ("location", [42], 42),
    ]


def test_a_die_needs_two_sides() -> None:
    with pytest.raises(DiceError):
        DiceSource().face("x", 1)


# -- uniformity -----------------------------------------------------------------------------

# Upper 0.1% points of chi-square for (sides - 1) degrees of freedom.
CHI2_CRITICAL = {6: 20.52, 10: 27.88, 20: 43.82, 100: 148.23}


@pytest.mark.parametrize("sides", [6, 10, 20, 100])
def test_each_die_kind_is_uniform(sides: int) -> None:
    dice = DiceSource(rng=Random(20261129))
    samples = 200 * sides
    counts: dict[int, int] = {}
    for _ in range(samples):
        value = dice.face("x", sides)
        counts[value] = counts.get(value, 0) + 1
    low, high = (0, 9) if sides == 10 else (1, sides)
    assert set(counts) == set(range(low, high + 1))
    expected = samples / sides
    chi2 = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi2 < CHI2_CRITICAL[sides]


def test_a_strict_source_never_rolls_in_place_of_a_typed_face() -> None:
    dice = DiceSource({"initiative": [1]}, strict=True)
    with pytest.raises(ForcedFaceError, match="'initiative' needs another face"):
        dice.stress("initiative")  # the 1 rolls again: no face left for the re-roll
    assert DiceSource(strict=True).stress("initiative").faces  # a label given no faces still rolls


def test_aliased_labels_read_the_faces_in_the_order_the_table_rolled_them() -> None:
    dice = DiceSource({"initiative": [0, 3]}, aliases={"initiative.botch": "initiative"}, strict=True)
    roll = dice.stress("initiative")
    assert roll.total == 0 and dice.rolls[-1].label == "initiative.botch" and dice.rolls[-1].faces == (3,)
    assert dice.unused() == {}
