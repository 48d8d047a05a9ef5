"""The typed outcome contract (rules/outcome.py, docs/decisions/typed-outcomes.md): records are stored as
mappings and read back tolerantly, so an event stored by older code still renders."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.dice import Roll
from rules.model import Resolution
from rules.outcome import FLAT, Outcome, Record, UnknownOutcome, defaults_complete, stored_as
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


def test_a_stored_outcome_no_record_reads_is_kept_whole():
    # an action the engine does not have, a system not installed, a payload naming no action
    for system, stored in (("ars-harn", {"action": "teleport", "distance": 30}),
                           ("no-such-system", {"action": "attack", "hit": True}),
                           ("fading-suns", {"hit": True, "gm_decision": {"kind": "kill"}})):
        outcome = read_outcome(system, stored)
        assert isinstance(outcome, UnknownOutcome) and outcome.stored == stored and outcome.to_dict() == stored
        assert outcome.action == str(stored.get("action") or "")
        assert outcome.gm_decisions == () and outcome.fight_end is None  # it asks nothing of the GM
        assert outcome.hiding_target() is outcome
    assert read_outcome("no-such-system", None) == UnknownOutcome() and UnknownOutcome().to_dict() == {}
    assert UnknownOutcome.from_dict("not a mapping") == UnknownOutcome()  # type: ignore[arg-type]


def test_read_outcome_returns_a_record_as_it_is_and_reads_a_known_action_by_its_record():
    thing = Thing()
    assert read_outcome("fading-suns", thing) is thing
    assert type(read_outcome("ars-harn", {"action": "attack"})).__name__ == "AttackOutcome"


def test_a_resolution_holds_the_record_it_was_given():
    resolution = Resolution("fake", (Roll("d", "1d6", (3,), 3),), Thing(), None, None)
    assert resolution.outcome == Thing() and resolution.to_dict()["outcome"] == Thing().to_dict()


def _field_types() -> set[object]:
    """Every field type of every registered record, and of the records those name, however deep."""
    from typing import get_args

    from rules.outcome import _hints

    seen: set[object] = set()
    records: list[type] = [Thing, *(r for system in OUTCOMES for r in outcome_records(system).values())]
    done: set[type] = set()
    while records:
        record = records.pop()
        if record in done:
            continue
        done.add(record)
        types_ = list(_hints(record).values())
        while types_:
            tp = types_.pop()
            if tp in seen:
                continue
            seen.add(tp)
            types_.extend(get_args(tp))
            if isinstance(tp, type) and issubclass(tp, Record):
                records.append(tp)
    return seen


def test_the_compiled_reader_reads_every_field_type_as_the_type_walk_does():
    from rules.outcome import _BAD, _load, _loader

    values: list[object] = [None, True, False, 0, 3, -2, 2.5, "", "edge", [], [1, 2], ["a", "b"], [1, "a", None],
                            (4, 5), [[1, 2]], [{"wound": 1}, "junk"], {}, {"roll": 7, "result": "success"},
                            {"action": "attack", "hit": True}, {"a": 1, "b": "two"}, {"a": [1, 2]}, {1: "x"},
                            {"kind": "kill", "options": ["kill", "spare"]}]
    checked = 0
    for tp in _field_types():
        for raw in values:
            try:
                expected: object = _load(tp, raw)
            except TypeError as walked:
                try:
                    _loader(tp)(raw)
                except TypeError as compiled:
                    assert str(compiled) == str(walked)
                    continue
                raise AssertionError(f"{tp!r} read {raw!r} where the type walk failed") from None
            got = _loader(tp)(raw)
            assert (got is _BAD) == (expected is _BAD), (tp, raw)
            assert got == expected and type(got) is type(expected), (tp, raw, got, expected)
            checked += 1
    assert checked > 500
