"""Dice by side (issue 31): a typed label names its side (``defender_knockdown``, or by the character's name), a
bare label is the side of the one typing, and under secret rolls a player's face for the NPC's side is refused
in one line that names the labels they may type."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.services.dice_option import DiceSide, side_dice
from rules.pendragon.engine import ENGINE as PENDRAGON

LABELS, FIXED = PENDRAGON.roll_labels, PENDRAGON.label_sides
OPEN = [DiceSide("attacker", "Sir Elyan"), DiceSide("defender", "Black Guard 1")]
SECRET = [DiceSide("attacker", "Sir Elyan"), DiceSide("defender", "Black Guard 1", may_type=False)]


def test_a_bare_label_is_the_typers_side_and_a_named_one_its_sides() -> None:
    typed = side_dice("attacker=9 knockdown=3 defender_knockdown=20 black_guard_1_major_wound=4 "
                      "Sir_Elyan_fall=2", LABELS, FIXED, OPEN)
    assert typed == {"attacker": [9], "attacker:knockdown": [3], "defender:knockdown": [20],
                     "defender:major_wound": [4], "attacker:fall": [2]}


def test_a_label_fixed_to_a_side_stays_as_it_is_and_names_that_side_only() -> None:
    assert side_dice("defender=14 defender_damage=6 attacker_damage=5", LABELS, FIXED, OPEN) == {
        "defender": [14], "defender_damage": [6], "damage": [5]}
    with pytest.raises(UserError, match="'defender_attacker': attacker is always the attacker's roll"):
        side_dice("defender_attacker=3", LABELS, FIXED, OPEN)


def test_under_secret_rolls_a_players_face_for_the_npc_is_one_line_naming_the_labels_they_may_type() -> None:
    for typed in ("attacker=9 defender=14", "defender_knockdown=20", "black_guard_1_valorous=3"):
        with pytest.raises(UserError) as refused:
            side_dice(typed, LABELS, FIXED, SECRET)
        line = str(refused.value)
        assert "\n" not in line and "Black Guard 1's roll" in line and "nothing was rolled" in line
        assert "you may type attacker, chirurgery, damage, fall," in line and "defender" not in line.split("type ")[1]
    assert side_dice("attacker=9 damage=6,6 knockdown=3", LABELS, FIXED, SECRET) == {
        "attacker": [9], "damage": [6, 6], "attacker:knockdown": [3]}


def test_bare_faces_for_a_roll_the_gm_owes_are_that_characters() -> None:
    assert side_dice("12", LABELS, FIXED, [DiceSide("attacker", "Bandit 1")], "knockdown") == {
        "attacker:knockdown": [12]}


def test_an_unknown_label_still_names_the_labels() -> None:
    with pytest.raises(UserError, match="unknown label 'nobody_knockdown'"):
        side_dice("nobody_knockdown=3", LABELS, FIXED, OPEN)
