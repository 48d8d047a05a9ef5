"""The scenario runner: one scenario in, one JSON-ready resolution out (the engine's public contract)."""

from __future__ import annotations

from random import Random
from typing import Any

from content import load_catalog
from content.scenario import parse_scenario
from rules.dice import DiceSource
from rules.errors import ForcedFaceError
from rules.registry import get_engine


def check_labels(system: str, labels: set[str], forced: dict[str, list[int]]) -> None:
    """Every forced label must be one the system rolls (``<label>.botch`` counts for its base label)."""
    for label in forced:
        base = label[: -len(".botch")] if label.endswith(".botch") else label
        if base not in labels:
            known = ", ".join(sorted(labels))
            raise ForcedFaceError(f"dice: unknown label '{label}' for {system} (labels: {known})")


def resolve_text(text: str | bytes, source: str) -> dict[str, Any]:
    scenario, forced, seed = parse_scenario(text, source)
    engine = get_engine(scenario.system)
    check_labels(scenario.system, set(engine.roll_labels), forced)
    catalog = load_catalog(scenario.system)
    dice = DiceSource(forced, rng=Random(seed) if seed is not None else None)
    resolution = engine.resolve(scenario, dice, catalog)
    dice.check_all_used()
    return resolution.to_dict()


def odds_text(text: str | bytes, source: str, budget: float | None = None) -> dict[str, Any]:
    """The exact odds of a scenario's action: the dice it forces stay fixed, every other face is followed."""
    from rules.odds.api import compute_odds

    scenario, forced, _seed = parse_scenario(text, source)
    engine = get_engine(scenario.system)
    check_labels(scenario.system, set(engine.roll_labels), forced)
    catalog = load_catalog(scenario.system)
    return compute_odds(engine, scenario, catalog, forced, budget=budget).to_dict()
