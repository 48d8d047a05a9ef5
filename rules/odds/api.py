"""One call for the CLI and the bot: a scenario (and the faces a user forced) in, its exact odds out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from time import time
from typing import Any

from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Catalog, Engine, Resolution, Scenario
from rules.odds import ars_harn, fading_suns, pendragon
from rules.odds.dice import CUTOFF, EnumeratingDice
from rules.odds.tree import Adapter, Distribution, History, State, enumerate_action
from rules.registry import available_ids, get_engine

# what /odds can be asked about, by system
ACTIONS = {"ars-harn": ("attack", "cast"), "pendragon": ("attack",), "fading-suns": ("attack",)}


@dataclass(frozen=True)
class Odds:
    system: str
    distribution: Distribution
    summary: dict[str, Any]
    # what the engine made of the declaration where it left choices open (the weapon, the aspect)
    declared: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dist = self.distribution
        leaves = sorted(dist.leaves.items(), key=lambda kv: -kv[1])
        return {
            "system": self.system,
            "complete": dist.complete,
            "covered": sum(dist.leaves.values()),
            "cut_mass": dist.cut,
            "missing_mass": dist.missing,
            "cutoff": CUTOFF,
            "engine_runs": dist.runs,
            "seconds": round(dist.seconds, 4),
            "declared": self.declared,
            "summary": self.summary,
            "leaves": [{"p": p, "outcome": dict(leaf)} for leaf, p in leaves],
        }


def adapter_for(system: str, catalog: Any, scenario: Scenario, probe: Resolution,
             forced: Mapping[str, Sequence[int]]) -> tuple[Adapter, Callable[[Distribution], dict[str, Any]]]:
    if system == "ars-harn":
        return ars_harn.ArsHarnOdds(catalog, scenario, probe, forced), ars_harn.summarize
    if system == "pendragon":
        return pendragon.PendragonOdds(catalog, scenario, probe, forced), pendragon.summarize
    return fading_suns.FadingSunsOdds(catalog, scenario, probe, forced), fading_suns.summarize


class _Unshared:
    """An adapter whose paths never share a state: each explored to its end on its own (outcomes of one roll
    still merge, by the adapter's policy)."""

    def __init__(self, adapter: Adapter) -> None:
        self.policy = adapter.policy
        self.observe, self.mark, self.leaf = adapter.observe, adapter.mark, adapter.leaf

    def key(self, history: History, resolution: Resolution | None) -> State | None:
        return None


def compute_odds(engine: Engine, scenario: Scenario, catalog: Catalog,
                 forced: Mapping[str, Sequence[int]] | None = None, budget: float | None = None, *,
                 share_states: bool = True) -> Odds:
    """The exact distribution of ``scenario``'s outcomes, follow-up rolls included.

    Rolls the GM would make later (GM mode) are made at once, as the engine's automatic mode does, so
    kill and death odds are part of the answer. ``budget`` bounds the seconds spent; whatever is left
    unexplored is reported as missing mass. ``share_states`` False: no two paths share a future (the same
    odds, far slower; bench.odds measures what sharing saves)."""
    kind = scenario.action.get("type", "attack")
    if kind not in ACTIONS.get(scenario.system, ()):
        allowed = ", ".join(ACTIONS.get(scenario.system, ())) or "nothing"
        raise RulesError(f"odds: {scenario.system} can give odds for {allowed}, not '{kind}'")
    forced = {label: list(faces) for label, faces in (forced or {}).items()}
    scenario = replace(scenario, rulings={**scenario.rulings, "auto_rolls": True})
    # one ordinary run first: it checks the scenario (a bad one fails here, once) and shows the constants
    probe = engine.resolve(scenario, DiceSource(forced, rng=Random(0)), catalog)
    adapter, summarize = adapter_for(scenario.system, catalog, scenario, probe, forced)
    if not share_states:
        adapter = _Unshared(adapter)

    unused = Random(0)  # every face is fed, none drawn: one generator serves every run

    def make(plan: Sequence[int]) -> EnumeratingDice:
        return EnumeratingDice(forced, rng=unused, plan=plan, policy=adapter.policy)

    # an engine that can read the sheets once for many runs says so (a third of a run's time was parsing)
    prepare: Callable[[Scenario, Catalog], Callable[[DiceSource], Resolution]] | None = getattr(engine, "prepare", None)
    resolve: Callable[[DiceSource], Resolution] = (
        prepare(scenario, catalog) if prepare is not None else lambda dice: engine.resolve(scenario, dice, catalog))

    dist = enumerate_action(resolve, make, adapter, budget)
    return Odds(scenario.system, dist, summarize(dist), declared(probe.outcome.to_dict()))


def compute_for(system: str, scenario: Scenario, catalog: Catalog, forced: Mapping[str, Sequence[int]] | None,
                until: float | None) -> Odds:
    """``compute_odds`` from plain data, for a worker process: the system's id (not its engine), and the time
    (``time.time()``) to stop by rather than a budget, so that waiting for the worker counts."""
    budget = None if until is None else max(0.05, until - time())
    return compute_odds(get_engine(system), scenario, catalog, forced, budget)


def warm() -> list[str]:
    """Import what an enumeration needs (every engine, and this module's adapters) in a fresh worker process."""
    return available_ids()


def declared(outcome: Mapping[str, Any]) -> dict[str, str]:
    """The weapon (and ars-harn aspect and aim) an action used, as its outcome names them; why a Pendragon
    attack is unopposed, when it is."""
    out: dict[str, str] = {}
    roll = outcome.get("attacker_roll")
    weapon = outcome.get("weapon") or (roll.get("weapon") if isinstance(roll, Mapping) else None)
    if isinstance(weapon, str):
        out["weapon"] = weapon
    for key in ("aspect", "aim"):
        if isinstance(outcome.get(key), str):
            out[key] = outcome[key]
    if outcome.get("unopposed"):  # Pendragon: the attacker rolls alone (the foe is down, disarmed, or shot at)
        out["unopposed"] = str(outcome.get("unopposed_why") or "asked")
    return out
