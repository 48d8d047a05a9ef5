"""Shared by the odds tests: the example scenarios, and their exact odds computed once per session."""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

from content import load_catalog
from content.scenario import parse_scenario
from rules.model import Scenario
from rules.odds.api import ACTIONS, Odds, compute_odds
from rules.registry import get_engine

EXAMPLES = Path(__file__).resolve().parents[3] / "content" / "examples"


def example(name: str) -> tuple[Scenario, dict[str, list[int]]]:
    path = EXAMPLES / f"{name}.yaml"
    scenario, forced, _seed = parse_scenario(path.read_text(), str(path))
    return scenario, forced


def odds_examples() -> list[str]:
    """Every example whose action /odds answers (attacks and spells), by file name."""
    names = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        scenario, _ = example(path.stem)
        if scenario.action.get("type", "attack") in ACTIONS[scenario.system]:
            names.append(path.stem)
    return names


@cache
def exact(name: str) -> Odds:
    """The example's odds with none of its dice forced."""
    scenario, _ = example(name)
    return compute_odds(get_engine(scenario.system), scenario, load_catalog(scenario.system))


def defenceless() -> Scenario:
    """The sword-vs-mail attack at an unarmed, unskilled defender (Quickness 0, Brawling 0) at -3 to defend:
    his Defense Total is his stress die - 3, below 0 one time in five, when even a botched attack hits."""
    scenario, _ = example("ars-harn-sword-vs-mail")
    return dataclasses.replace(scenario, defender={
        "name": "Sir Aldo", "str": 1, "sta": 1, "dex": 0, "qik": 0, "abilities": {}, "weapons": [],
        "armour": ["Quilt Gambeson"]}, action={**scenario.action, "defense_modifier": -3})


VARIANTS = {"ars-harn-defenceless": defenceless}


def scenario_named(name: str) -> Scenario:
    """An example by its file name, or one of the ``VARIANTS`` made from one."""
    return VARIANTS[name]() if name in VARIANTS else example(name)[0]
