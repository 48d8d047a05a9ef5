"""A stored outcome no record reads (an action or system this code does not have, a payload naming no action)
still renders: the actor acts, with the fields it holds; a GM decision as one. It never raises nor logs an error
(rules.outcome.UnknownOutcome, bot.ui.outcomes.unknown)."""

from __future__ import annotations

import logging

import pytest

from bot.ui.outcomes import Severity, describe

NAMES = ("Bjorn", "Bandit 1")


def test_an_action_the_engine_does_not_have_is_the_actor_acting_with_its_fields() -> None:
    words = describe("ars-harn", {"action": "teleport", "distance": 30, "who": "attacker"}, NAMES)
    assert (words.headline, words.fields, words.severity) == ("Bjorn acts.", [("Details", "Distance: 30", False)],
                                                              Severity.INFO)


def test_a_gm_decision_of_a_system_not_installed_reads_as_the_decision() -> None:
    words = describe("no-such-system", {"action": "gm_decide", "kind": "kill", "choice": "death"}, NAMES)
    assert (words.headline, words.severity) == ("**Bjorn** dies.", Severity.MORTAL)


@pytest.mark.parametrize("stored", [
    {}, [1, 2], "text", None,
    {"action": "x", "nested": {"deep": [1, {"k": None}]}},
    {"action": "gm_decide", "choice": {"a": 1}, "conditions": 5, "hit_points": [1]},
    {"hit": True, "gm_decision": {"kind": "kill"}},  # no action named
])
def test_any_shape_renders_without_an_error(stored: object, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        for system in ("ars-harn", "pendragon", "fading-suns", "no-such-system"):
            assert describe(system, stored, NAMES).headline
    assert not caplog.records
