"""The ars-harn example scenarios run through the scenario runner with every forced face used."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.scenario_runner import resolve_text

EXAMPLES = sorted((Path(__file__).parents[3] / "content" / "examples").glob("ars-harn-*.yaml"))


def test_there_are_at_least_three_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs(path: Path) -> None:
    result = resolve_text(path.read_bytes(), str(path))
    assert result["system"] == "ars-harn"


def test_amputation_example_numbers() -> None:
    path = next(p for p in EXAMPLES if p.stem == "ars-harn-axe-amputation")
    out = resolve_text(path.read_bytes(), str(path))["outcome"]
    assert (out["effective_impact"], out["injury"]["code"], out["severed"]) == (24, "G5", "left_forearm")
