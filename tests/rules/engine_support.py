"""What the engine tests of more than one system share: an action's Resolution as they read it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.dice import Roll
from rules.model import Resolution, Sheet
from rules.outcome import Outcome


@dataclass(frozen=True)
class Ran:
    """An action's Resolution as these tests read it: ``outcome`` as an event stores it (the record's ``to_dict``,
    so the tests hold the stored shape too), ``record`` the typed record itself."""

    record: Outcome
    outcome: dict[str, Any]
    rolls: tuple[Roll, ...]
    attacker: Sheet | None
    defender: Sheet | None
    resolution: Resolution

    @classmethod
    def of(cls, resolution: Resolution) -> Ran:
        return cls(resolution.outcome, resolution.outcome.to_dict(), resolution.rolls, resolution.attacker,
                   resolution.defender, resolution)

    def to_dict(self) -> dict[str, Any]:
        return self.resolution.to_dict()
