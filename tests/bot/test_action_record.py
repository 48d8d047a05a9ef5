"""An action just made is worded from the engine's own outcome record (ActionReport.record), not from the record
read back out of its stored mapping, and the embed is the same either way (every example scenario, in the open
and with the NPC's or the actor's totals hidden)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from bot.services.results import ActionReport
from bot.ui import action_embeds
from content import load_catalog
from content.scenario import parse_scenario
from rules import outcome as outcome_module
from rules.dice import DiceSource
from rules.registry import get_engine

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "content" / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
@pytest.mark.parametrize("hidden", ["open", "target_secret", "secret"])
def test_the_words_of_the_record_itself_are_those_of_the_stored_one(path: Path, hidden: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    scenario, forced, seed = parse_scenario(path.read_bytes(), str(path))
    resolved = get_engine(scenario.system).resolve(scenario, DiceSource(forced, rng=Random(seed or 1)),
                                                   load_catalog(scenario.system))
    resolution = resolved.to_dict()
    stored = ActionReport(system=resolved.system, action=str(resolution["outcome"].get("action", "attack")),
                          actor_name="Bjorn", target_name="Aldo", resolution=resolution, pending=(), unused_dice={},
                          encounter=None, event_id=1, target_secret=hidden == "target_secret",
                          secret=hidden == "secret")
    from_stored = action_embeds.action(stored).to_dict()

    reads: list[str] = []
    real = outcome_module.Record.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: type[outcome_module.Record], data: object) -> outcome_module.Record:
        if issubclass(cls, outcome_module.Outcome):  # the outcome record (its rolls are read into the event)
            reads.append(cls.__name__)
        return real(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(outcome_module.Record, "from_dict", classmethod(counted))
    made = replace(stored, record=resolved.outcome)
    assert action_embeds.action(made).to_dict() == from_stored
    assert reads == []  # nothing read back
    action_embeds.action(replace(stored))  # a fresh report: the first one keeps what it read
    assert reads  # (and the stored one is read: the count sees it)
