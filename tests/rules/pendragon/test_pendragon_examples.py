"""The example scenarios in content/examples run through the scenario runner with the numbers they state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "content" / "examples"


def resolve(name: str) -> dict[str, Any]:
    from bot.scenario_runner import resolve_text

    return resolve_text((EXAMPLES / name).read_bytes(), name)


def test_there_are_at_least_three_examples() -> None:
    assert len(sorted(EXAMPLES.glob("pendragon-*.yaml"))) >= 3


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("pendragon-*.yaml")), ids=lambda p: p.name)
def test_every_example_resolves(path: Path) -> None:
    out = resolve(path.name)
    assert out["system"] == "pendragon" and out["attacker"] is not None


def test_sword_against_axe_example() -> None:
    out = resolve("pendragon-sword-against-axe.yaml")
    o = out["outcome"]
    assert (o["winner"], o["damage_rolled"], o["armor"], o["damage_taken"], o["hit_points"]) == (
        "attacker", 22, 4, 18, 9)
    assert o["knockdown"]["passed"] is False and o["major_wound"] is True
    assert out["defender"]["str"] == 13 and out["defender"]["prone"] is True


def test_lance_charge_example() -> None:
    o = resolve("pendragon-lance-charge.yaml")["outcome"]
    assert o["attacker_roll"]["target"] == 25 and o["attacker_roll"]["total"] == 18
    assert (o["damage_dice"], o["damage_rolled"], o["damage_taken"]) == ("6d6", 24, 20)
    assert o["knockdown"]["passed"] is True and o["unconscious"] is True and o["lance_broken"] is None


def test_tie_example_breaks_the_spear() -> None:
    out = resolve("pendragon-tie-sword-breaks-spear.yaml")
    assert out["outcome"]["tie"] is True and out["outcome"]["weapon_broken"] == "defender"
    assert out["defender"]["broken_weapons"] == ["spear"]


def test_first_aid_example() -> None:
    out = resolve("pendragon-first-aid.yaml")
    assert out["outcome"]["healed"] == 2 and out["attacker"]["current_hp"] == 24


def test_unconscious_rider_example() -> None:
    out = resolve("pendragon-unconscious-rider.yaml")
    assert out["outcome"]["fall"]["passed"] is False and out["defender"]["current_hp"] == 4
    assert out["defender"]["mounted"] is False
