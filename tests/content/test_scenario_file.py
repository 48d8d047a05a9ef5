"""Scenario files name the GM's rulings under ``rulings:``; the older key ``settings:`` still reads the same."""

from __future__ import annotations

import pytest

from content.errors import ContentError
from content.scenario import parse_scenario

BODY = "system: fading-suns\naction: {type: attack}\n"


@pytest.mark.parametrize("key", ["rulings", "settings"])
def test_both_keys_give_the_scenario_its_rulings(key: str) -> None:
    scenario, _dice, _seed = parse_scenario(BODY + f"{key}:\n  damage_mode: rolled\n  auto_rolls: false\n", "s.yaml")
    assert scenario.rulings == {"damage_mode": "rolled", "auto_rolls": False}


def test_no_key_means_no_overrides() -> None:
    scenario, _dice, _seed = parse_scenario(BODY, "s.yaml")
    assert scenario.rulings == {}


def test_both_keys_at_once_are_refused() -> None:
    with pytest.raises(ContentError, match="give 'rulings' or its older name 'settings', not both"):
        parse_scenario(BODY + "rulings: {auto_rolls: false}\nsettings: {auto_rolls: true}\n", "s.yaml")
