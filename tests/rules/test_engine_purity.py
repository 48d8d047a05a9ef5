"""What the bot relies on to skip copying: an engine never changes the sheets it is given, and an outcome record
read back from its stored form is the record the engine built.

``run_action`` hands the stored rows' sheets to ``resolve`` as they are (no deep copy) and keeps the old sheet
for the undo record's diff, so an engine that changed its input in place would corrupt both. The describers word
the record the engine built, not one re-read from the event's payload, so the two must be equal. Random fights
(seeded) in every engine: each step's sheets go into the next, as in a channel.
"""

from __future__ import annotations

import copy
from random import Random

import pytest

from content import load_catalog
from rules import registry
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Scenario
from tests.rules.engine_support import fresh_sheets, random_action


@pytest.mark.parametrize("system", registry.system_ids())
def test_an_engine_leaves_its_input_sheets_alone_and_its_records_read_back_equal(system: str) -> None:
    catalog = load_catalog(system)
    engine = registry.get_engine(system)
    rng = Random(23)
    resolved = 0
    for _fight in range(60):
        sheets = fresh_sheets(engine, catalog, rng)
        for _step in range(rng.randint(3, 20)):
            rng.shuffle(sheets)
            attacker, defender = sheets[0], sheets[1] if rng.random() < 0.9 else None
            kept = copy.deepcopy((attacker, defender))
            action = random_action(rng, system, sorted(engine.actions))
            try:
                result = engine.resolve(Scenario(system, action, attacker, defender),
                                        DiceSource(rng=Random(rng.getrandbits(32))), catalog)
            except RulesError:
                assert (attacker, defender) == kept, action
                continue
            resolved += 1
            assert (attacker, defender) == kept, action  # nothing inside the given sheets changed
            assert registry.read_outcome(system, result.outcome.to_dict()) == result.outcome, action
            sheets = [sheet for sheet in (result.attacker, result.defender, *sheets)
                      if sheet is not None][:2]
            sheets = [dict(sheet) for sheet in sheets]
    assert resolved > 200  # the fights got somewhere (most steps are attacks that land or miss)
