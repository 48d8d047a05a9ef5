"""Rule 29 (docs/rules/ars-harn.md, "Hands"; issue 34, A3): a character with a usable hand can ready a
one-handed weapon in it, and the off-hand cost is the ruling ``off_hand_penalty`` (default 0)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction
from tests.rules.ars_harn.ars_harn_support import PLAIN, run, who

OFF_HAND = {**PLAIN, "name": "Off"}


def one_armed(**extra: Any) -> dict[str, Any]:
    """Wulf after the arrow: right arm unusable, the Battleaxe on the ground, the Dagger at his belt."""
    return who("Wulf", weapons=["Battleaxe", "Dagger"], held={}, dropped=[0], unusable_limbs=["right_arm"],
               **extra)


def test_a_one_armed_grog_readies_a_one_handed_weapon_in_the_hand_he_has() -> None:
    result = run({"type": "ready", "weapon": "Dagger"}, one_armed())
    assert result.attacker is not None
    assert result.attacker["held"] == {"right": None, "left": 1}


@pytest.mark.parametrize("hand", ["off", "left"])
def test_ready_takes_the_hand_by_its_role_or_its_side(hand: str) -> None:
    result = run({"type": "ready", "weapon": "Dagger", "hand": hand},
                 who("Wulf", weapons=["Broadsword", "Dagger"], held={"right": 0}))
    assert result.attacker is not None
    assert result.attacker["held"] == {"right": 0, "left": 1}


def test_the_main_hand_refused_names_the_hand_left_as_the_way_on() -> None:
    with pytest.raises(IllegalAction, match=r"Wulf's right arm is unusable: ready the Dagger in the left hand "
                                            r"instead \(hand: off\)"):
        run({"type": "ready", "weapon": "Dagger", "hand": "main"}, one_armed())


def test_no_usable_arm_holds_nothing() -> None:
    with pytest.raises(IllegalAction, match="Wulf has no usable arm to hold the Dagger"):
        run({"type": "ready", "weapon": "Dagger"}, one_armed() | {"unusable_limbs": ["right_arm", "left_arm"]})


def test_a_two_handed_weapon_still_needs_both_arms() -> None:
    with pytest.raises(IllegalAction, match="two-handed Battleaxe"):
        run({"type": "ready", "weapon": "Battleaxe", "hand": "off"}, one_armed())


def _off_hand_attack(rulings: dict[str, Any] | None) -> dict[str, Any]:
    attacker = who("Wulf", weapons=[OFF_HAND], held={"left": 0}, unusable_limbs=["right_arm"])
    return run({"weapon": "Off"}, attacker, who("B"), {"attack": [5], "defense": [9]}, rulings).outcome.to_dict()


def test_the_off_hand_costs_nothing_by_default() -> None:
    out = _off_hand_attack(None)
    assert "off_hand" not in out["attack_modifiers"] and out["attack_total"] == 5


def test_the_off_hand_costs_the_ruling_off_hand_penalty() -> None:
    out = _off_hand_attack({"off_hand_penalty": 3})
    assert out["attack_modifiers"]["off_hand"] == -3 and out["attack_total"] == 2
