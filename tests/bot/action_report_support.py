"""An ``ActionReport`` for the embed tests, made from the mappings the scenarios and the stored events hold (the
service builds one from the engine's records: bot/services/actions.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.services.event_records import ActionEvent
from bot.services.results import ActionReport
from rules.outcome import Outcome


def action_report(system: str, action: str, actor: str, target: str | None,
                  outcome: Mapping[str, Any] | Outcome, rolls: Sequence[Mapping[str, Any]] = (), *,
                  unused_dice: Mapping[str, Sequence[int]] | None = None, secret: bool = False,
                  target_secret: bool = False, event_id: int = 1, **report: Any) -> ActionReport:
    """The report of ``action``: its event read from the mappings as a stored payload is (an ``Outcome`` kept
    whole); ``report``: the report's other fields (pending, decided, out_of_turn ...)."""
    stored = outcome.to_dict() if isinstance(outcome, Outcome) else dict(outcome)
    event = ActionEvent.from_dict({"system": system, "actor": actor, "target": target, "rolls": list(rolls),
                                   "outcome": stored, "unused_dice": dict(unused_dice or {}), "secret": secret,
                                   "target_secret": target_secret})
    if isinstance(outcome, Outcome):
        event = replace(event, outcome=outcome)
    return ActionReport(action=action, event=event, pending=report.pop("pending", ()),
                        encounter=report.pop("encounter", None), event_id=event_id, **report)


def resolved_report(resolution: Mapping[str, Any], action: str, actor: str, target: str | None,
                    **report: Any) -> ActionReport:
    """The report of a scenario's resolution (``Resolution.to_dict()``, as bot/scenario_runner.py gives it)."""
    return action_report(str(resolution["system"]), action, actor, target, resolution["outcome"],
                         resolution.get("rolls") or (), **report)
