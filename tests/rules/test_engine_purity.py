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
from typing import Any

import pytest

from content import load_catalog
from rules import registry
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Scenario

# plausible option values; an action an engine refuses with them is skipped
VOCAB: dict[str, list[Any]] = {
    "aspect": ["blunt", "edge", "point"], "aim": ["high", "mid", "low"], "modifier": [-3, 0, 2],
    "defense_modifier": [-2, 3], "save_excess": [True, False], "use_saved": [True, False],
    "decision": ["death", "incapacitation", "live", "die"], "choice": ["death", "live", "unconscious"],
    "who": ["attacker", "defender"], "condition": ["prone", "shock", "unconscious", "stunned", "unhorsed"],
    "free": [True, False], "days": [1, 7], "change": [1, -1], "ease_factor": [6, 9], "add": [["prone"]],
    "remove": [["prone"]], "defense": ["dodge", "parry"],
}


def _action(rng: Random, system: str, kinds: list[str]) -> dict[str, Any]:
    kind = "attack" if rng.random() < 0.6 else rng.choice(kinds)
    action: dict[str, Any] = {"type": kind}
    if kind == "attack" and system == "ars-harn":
        action.update(aspect=rng.choice(VOCAB["aspect"]), aim=rng.choice(VOCAB["aim"]))
    elif kind != "attack":
        for key in rng.sample(sorted(VOCAB), 2):
            if rng.random() < 0.3:
                action[key] = rng.choice(VOCAB[key])
    return action


@pytest.mark.parametrize("system", registry.system_ids())
def test_an_engine_leaves_its_input_sheets_alone_and_its_records_read_back_equal(system: str) -> None:
    catalog = load_catalog(system)
    engine = registry.get_engine(system)
    templates = catalog.npc_templates()
    rng = Random(23)
    resolved = 0
    for _fight in range(60):
        sheets = [engine.validate_sheet(copy.deepcopy(dict(templates[rng.choice(sorted(templates))])), catalog)
                  for _ in range(2)]
        for _step in range(rng.randint(3, 20)):
            rng.shuffle(sheets)
            attacker, defender = sheets[0], sheets[1] if rng.random() < 0.9 else None
            kept = copy.deepcopy((attacker, defender))
            action = _action(rng, system, sorted(engine.actions))
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
