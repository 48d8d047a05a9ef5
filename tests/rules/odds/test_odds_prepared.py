"""An engine's ``prepare`` (sheets read once for many runs) resolves exactly as ``resolve`` does."""

from __future__ import annotations

from random import Random

import pytest

from content import load_catalog
from rules.dice import DiceSource
from rules.registry import get_engine
from tests.rules.odds.odds_support import example, odds_examples


@pytest.mark.parametrize("name", odds_examples())
def test_a_prepared_action_resolves_as_resolve_does_run_after_run(name: str) -> None:
    """The example's own dice, then seeded ones: the parsed sheets are shared by every run, so a run that
    changed them would change the next one's outcome."""
    scenario, forced = example(name)
    engine, catalog = get_engine(scenario.system), load_catalog(scenario.system)
    prepared = engine.prepare(scenario, catalog)
    for seed in (None, 1, 2, 3, 4, 5, 6, 7, 8):

        def dice(seed: int | None = seed) -> DiceSource:
            return DiceSource(forced) if seed is None else DiceSource(rng=Random(seed))

        ran, resolved = prepared(dice()), engine.resolve(scenario, dice(), catalog)
        assert ran.outcome == resolved.outcome
        assert ran.rolls == resolved.rolls
        assert (ran.attacker, ran.defender) == (None, None)
