"""The typed outcome contract (rules/outcome.py, docs/decisions/typed-outcomes.md): records are stored as
mappings and read back tolerantly, so an event stored by older code still renders."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from rules.dice import Roll
from rules.model import Resolution
from rules.outcome import FLAT, DecisionRequest, LegacyOutcome, Outcome, Record, defaults_complete, legacy, stored_as
from rules.registry import OUTCOMES, outcome_records, read_outcome


@dataclass(frozen=True)
class Part(Record):
    roll: int = 0
    result: str | None = None


@dataclass(frozen=True)
class Step(Record):
    wound: int = 0
    from_: str = field(default="", metadata=stored_as("from"))


@dataclass(frozen=True)
class Thing(Outcome):
    action: str = "thing"
    who: str = ""
    part: Part = field(default_factory=Part, metadata=FLAT)
    inner: Part | None = None
    steps: tuple[Step, ...] = ()
    marks: dict[str, int] | None = None
    tags: tuple[str, ...] = ()


def test_to_dict_writes_fields_in_order_flat_parts_beside_the_parent_and_renamed_keys():
    thing = Thing(who="Erian", part=Part(7, "success"), inner=Part(3), steps=(Step(2, "major"),), marks={"dex": 1})
    assert thing.to_dict() == {"action": "thing", "who": "Erian", "roll": 7, "result": "success",
                               "inner": {"roll": 3, "result": None}, "steps": [{"wound": 2, "from": "major"}],
                               "marks": {"dex": 1}, "tags": []}
    assert list(thing.to_dict()) == ["action", "who", "roll", "result", "inner", "steps", "marks", "tags"]


def test_from_dict_reads_back_what_to_dict_wrote():
    thing = Thing(who="Erian", part=Part(7, "success"), inner=Part(3), steps=(Step(2, "major"),), tags=("a",))
    assert Thing.from_dict(thing.to_dict()) == thing


def test_from_dict_ignores_unknown_keys_and_defaults_missing_ones():
    assert Thing.from_dict({"who": "Erian", "was_removed": 3, "roll": 5}) == Thing(who="Erian", part=Part(5))
    assert Thing.from_dict({}) == Thing()


def test_from_dict_defaults_a_value_of_the_wrong_type_and_drops_wrong_items():
    stored = {"who": 12, "roll": "7", "inner": "not a mapping", "steps": [{"wound": 1}, "junk", {"wound": "x"}],
              "marks": {"dex": 1, "end": "two"}, "tags": ["a", 3, None], "result": True}
    assert Thing.from_dict(stored) == Thing(steps=(Step(1), Step()), marks={"dex": 1}, tags=("a",))
    assert Thing.from_dict({"roll": True}).part.roll == 0  # a bool is not a number here
    assert Thing.from_dict("not a mapping") == Thing()  # type: ignore[arg-type]


def test_every_registered_record_can_be_built_from_an_empty_mapping():
    checked = 0
    for system in OUTCOMES:
        for action, record in outcome_records(system).items():
            assert defaults_complete(record) == [], f"{system} {action}: fields without a default"
            assert record.from_dict({}).action == action
            checked += 1
    assert checked == sum(len(outcome_records(system)) for system in OUTCOMES)


def test_legacy_outcome_is_the_old_mapping():
    old = {"action": "attack", "hit": True, "gm_decision": None}
    outcome = LegacyOutcome(old)
    assert outcome["hit"] is True and outcome.get("miss") is None and dict(outcome) == old
    assert outcome == old and outcome.to_dict() == old and outcome.action == "attack"
    assert legacy(outcome) is outcome
    with pytest.raises(TypeError):
        legacy(Thing())


def test_gm_decisions_read_the_list_pendragon_writes_before_its_first_and_ars_harns_single_mapping():
    first, second = {"kind": "dying", "who": "defender", "options": ["death", "survival"]}, \
        {"kind": "experience_check", "options": ["approve", "deny"]}
    pendragon = LegacyOutcome({"gm_decisions": [first, second], "gm_decision": first})
    assert pendragon.gm_decisions == (DecisionRequest("dying", "defender", ("death", "survival")),
                                      DecisionRequest("experience_check", "attacker", ("approve", "deny")))
    ars_harn = LegacyOutcome({"gm_decision": {"kind": "kill", "options": ["death", "incapacitation"]}})
    assert ars_harn.gm_decisions == (DecisionRequest("kill", "attacker", ("death", "incapacitation")),)
    # a request without a kind or options asks nothing
    assert LegacyOutcome({"gm_decision": {"kind": "kill", "options": []}}).gm_decisions == ()
    assert LegacyOutcome({"gm_decision": None}).gm_decisions == () and Thing().gm_decisions == ()


def test_fight_end_only_for_end_fight():
    ended = LegacyOutcome({"action": "end_fight", "ended": ["prone"], "gathered": ["club"]}).fight_end
    assert ended is not None and ended.ended == ("prone",) and ended.gathered == ("club",)
    assert LegacyOutcome({"action": "attack", "ended": ["prone"]}).fight_end is None


def test_read_outcome_falls_back_to_a_legacy_outcome_and_returns_a_record_as_it_is():
    assert read_outcome("no-such-system", {"action": "x", "a": 1}) == {"action": "x", "a": 1}
    assert isinstance(read_outcome("no-such-system", None), LegacyOutcome)
    thing = Thing()
    assert read_outcome("fading-suns", thing) is thing


def test_a_resolution_given_a_plain_mapping_holds_a_legacy_outcome():
    resolution = Resolution("fake", (Roll("d", "1d6", (3,), 3),), {"total": 3}, None, None)  # type: ignore[arg-type]
    assert isinstance(resolution.outcome, LegacyOutcome)
    assert resolution.to_dict()["outcome"] == {"total": 3}
