"""An action just made is worded from the engine's own records (the report's event: its outcome record and its rolls
as ``StoredRoll``s, built once by the service), never read back out of a mapping, and the embed is the same as that
of the stored payload read back (a Details press, a late post): every example scenario, in the open and with the
NPC's or the actor's totals hidden."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from bot.services.event_records import ActionEvent, StoredRoll
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
    event = ActionEvent(system=resolved.system, actor="Bjorn", target="Aldo",
                        rolls=tuple(StoredRoll.of(roll) for roll in resolved.rolls), outcome=resolved.outcome,
                        secret=hidden == "secret", target_secret=hidden == "target_secret")
    action = str(resolved.outcome.to_dict().get("action", "attack"))

    def report(of: ActionEvent) -> ActionReport:
        return ActionReport(action=action, event=of, pending=(), encounter=None, event_id=1)

    from_stored = action_embeds.action(report(ActionEvent.from_dict(event.to_dict()))).to_dict()

    reads: list[str] = []
    real = outcome_module.Record.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: type[outcome_module.Record], data: object) -> outcome_module.Record:
        reads.append(cls.__name__)
        return real(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(outcome_module.Record, "from_dict", classmethod(counted))
    made = report(event)
    assert action_embeds.action(made).to_dict() == from_stored
    assert action_embeds.report_details(made) is not None
    assert reads == []  # nothing read back out of a mapping
    ActionEvent.from_dict(event.to_dict())
    assert reads  # (the count sees a read)
