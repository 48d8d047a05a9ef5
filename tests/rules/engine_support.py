"""What the engine tests of more than one system share: an action's Resolution as they read it."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from random import Random
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


# -- seeded random fights (tests/rules/test_engine_purity.py, tests/services/test_changes_reference.py) ------------

# plausible option values; an action an engine refuses with them is skipped
VOCAB: dict[str, list[Any]] = {
    "aspect": ["blunt", "edge", "point"], "aim": ["high", "mid", "low"], "modifier": [-3, 0, 2],
    "defense_modifier": [-2, 3], "save_excess": [True, False], "use_saved": [True, False],
    "decision": ["death", "incapacitation", "live", "die"], "choice": ["death", "live", "unconscious"],
    "who": ["attacker", "defender"], "condition": ["prone", "shock", "unconscious", "stunned", "unhorsed"],
    "free": [True, False], "days": [1, 7], "change": [1, -1], "ease_factor": [6, 9], "add": [["prone"]],
    "remove": [["prone"]], "defense": ["dodge", "parry"],
}


def random_action(rng: Random, system: str, kinds: list[str], *, attacks: float = 0.6,
                  options: bool = True) -> dict[str, Any]:
    """An attack (``attacks`` of the time; ars-harn's with an aspect and aim) or another of the engine's ``kinds``,
    with two of VOCAB's options now and then (``options``)."""
    kind = "attack" if rng.random() < attacks else rng.choice(kinds)
    action: dict[str, Any] = {"type": kind}
    if kind == "attack" and system == "ars-harn":
        action.update(aspect=rng.choice(VOCAB["aspect"]), aim=rng.choice(VOCAB["aim"]))
    elif kind != "attack" and options:
        for key in rng.sample(sorted(VOCAB), 2):
            if rng.random() < 0.3:
                action[key] = rng.choice(VOCAB[key])
    return action


def fresh_sheets(engine: Any, catalog: Any, rng: Random) -> list[dict[str, Any]]:
    """Two of the pack's NPC templates, picked at random, as validated sheets of their own."""
    templates = catalog.npc_templates()
    return [engine.validate_sheet(copy.deepcopy(dict(templates[rng.choice(sorted(templates))])), catalog)
            for _ in range(2)]
