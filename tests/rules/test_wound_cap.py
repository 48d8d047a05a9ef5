"""A sheet holds a bounded number of wounds (ars-harn 64, Pendragon and Fading Suns 200): a blow that would add one
more is refused before it lands, naming the character, so the stored sheet stays one the engine reads. Before,
the wound past the cap was stored and every later command on that sheet was refused with the schema's words."""

from __future__ import annotations

import copy
from random import Random
from typing import Any

import pytest

from content import load_catalog
from rules import registry
from rules.ars_harn.character import MAX_LIST as ARS_HARN_CAP
from rules.dice import DiceSource
from rules.errors import IllegalAction
from rules.fading_suns.character import MAX_LIST as FADING_SUNS_CAP
from rules.model import Scenario
from rules.pendragon.character import MAX_LIST as PENDRAGON_CAP

CASES = {  # system: (template, the attack, the cap, the wound counter's field)
    "ars-harn": ("bandit", {"type": "attack", "aspect": "edge", "aim": "mid"}, ARS_HARN_CAP, "wound_counter"),
    "pendragon": ("bandit", {"type": "attack"}, PENDRAGON_CAP, "wounds_taken"),
    "fading-suns": ("soldier", {"type": "attack"}, FADING_SUNS_CAP, None),
}


def _first_wound(system: str) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    template, action, _cap, _counter = CASES[system]
    catalog = load_catalog(system)
    engine = registry.get_engine(system)
    sheet = engine.validate_sheet(copy.deepcopy(dict(catalog.npc_templates()[template])), catalog)
    rng = Random(1)
    for _ in range(200):
        result = engine.resolve(Scenario(system, action, sheet, copy.deepcopy(sheet)),
                                DiceSource(rng=Random(rng.getrandbits(32))), catalog)
        if result.defender is not None and result.defender.get("wounds"):
            return catalog, sheet, dict(result.defender["wounds"][0])
    raise AssertionError("no blow landed")


def _carrying(system: str, sheet: dict[str, Any], wound: dict[str, Any], count: int) -> dict[str, Any]:
    """``sheet`` with ``count`` copies of a light wound, each numbered, healed where the system heals by points."""
    *_, counter = CASES[system]
    wounds = [{**wound, "index": n + 1, **({"remaining": 0} if "remaining" in wound else {})} for n in range(count)]
    padded = {**copy.deepcopy(sheet), "wounds": wounds}
    if counter is not None:
        padded[counter] = count
    return padded


@pytest.mark.parametrize("system", sorted(CASES))
def test_a_blow_that_would_pass_the_wound_cap_is_refused_naming_the_character(system: str) -> None:
    catalog, sheet, wound = _first_wound(system)
    _template, action, cap, _counter = CASES[system]
    engine = registry.get_engine(system)
    full = engine.validate_sheet(_carrying(system, sheet, wound, cap), catalog)  # a full sheet still reads
    rng = Random(2)
    refusals = []
    for _ in range(60):
        try:
            result = engine.resolve(Scenario(system, action, copy.deepcopy(sheet), full),
                                    DiceSource(rng=Random(rng.getrandbits(32))), catalog)
        except IllegalAction as refused:
            refusals.append(str(refused))
            continue
        assert result.defender is None or len(result.defender["wounds"]) <= cap  # a miss, or no wound
    name = full["name"]
    assert refusals and set(refusals) == {
        f"{name} already has {cap} wounds, as many as a sheet holds: heal some, or take {name} out of the fight"}


@pytest.mark.parametrize("system", sorted(CASES))
def test_the_last_wound_a_sheet_holds_is_taken_and_the_sheet_still_reads(system: str) -> None:
    catalog, sheet, wound = _first_wound(system)
    _template, action, cap, _counter = CASES[system]
    engine = registry.get_engine(system)
    almost = engine.validate_sheet(_carrying(system, sheet, wound, cap - 1), catalog)
    rng = Random(3)
    for _ in range(60):
        result = engine.resolve(Scenario(system, action, copy.deepcopy(sheet), almost),
                                DiceSource(rng=Random(rng.getrandbits(32))), catalog)
        if result.defender is not None and len(result.defender["wounds"]) == cap:
            engine.validate_sheet(dict(result.defender), catalog)
            return
    raise AssertionError("no blow landed on the almost full sheet")
