"""Odds for fading-suns: goal roll, defence, location, damage, wound effect, stumble and fumble.

After the goal roll and the defence only what they made matters (hit, defended, net victory points and
the two results): read from the first run through a pair, others with the same reading share its future.
The d20 location merges faces by the location they give in the attack's column; effect, stumble and
fumble rolls read only their result.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rules.fading_suns.settings import parse_settings
from rules.model import Resolution, Scenario
from rules.odds.common import check_result, group_faces, make_leaf, spread
from rules.odds.dice import Policy
from rules.odds.tree import Distribution, History, Leaf, State

CHECKS = frozenset({"effect", "stumble", "fumble", "heal"})


class FadingSunsOdds:
    def __init__(self, catalog: Any, scenario: Scenario, probe: Resolution,
                 forced: Mapping[str, Sequence[int]]) -> None:
        self.catalog = catalog
        column = probe.outcome.get("column")
        self.column = column if isinstance(column, str) else None
        self.policy = Policy(by_result=CHECKS, face_groups=self._groups)
        # the wound is known once the location is (fixed damage); rolled damage and armour come after it
        self.wound_at_location = parse_settings(scenario.settings).damage_mode == "fixed"

    def _groups(self, label: str, sides: int) -> list[tuple[int, ...]] | None:
        if label != "location" or sides != 20 or self.column is None:
            return None
        column = self.column
        return group_faces(1, 20, lambda face: self.catalog.location_for(column, face).name)

    def key(self, history: History, resolution: Resolution | None) -> State | None:
        if resolution is None or not history:
            return None
        if history[-1][0] == "location" and history.count(history[-1]) == 1:
            return self._wound(history, resolution) if self.wound_at_location else None
        if history[-1][0] not in ("attack", "defense"):
            return None
        if history[-1][0] == "attack" and resolution.outcome.get("defense") is not None:
            return None  # wait for the defence
        out = resolution.outcome
        defense = out["defense"] if isinstance(out.get("defense"), Mapping) else {}
        return State(("exchange", out.get("result"), out.get("hit"), out.get("defended"),
                      out.get("net_victory_points"), defense.get("result")))

    def _wound(self, history: History, resolution: Resolution) -> State | None:
        """After the location roll: the wound's rolls depend on its severity and the location's effect for it
        (and on the defence, whose critical failure may have made the defender roll already), not on the
        location or the victory points that made it: those are kept in the leaf."""
        out = resolution.outcome
        location, severity = out.get("location"), out.get("severity")
        if not isinstance(location, str) or out.get("attacker_roll") is not None:
            return None
        effect = self.catalog.location(location).wound_effect(severity) if isinstance(severity, str) else None
        defense = out["defense"] if isinstance(out.get("defense"), Mapping) else {}
        leaf = dict(self.leaf(resolution))
        fixed = tuple((name, leaf[name]) for name in ("result", "hit", "defended", "victory_points", "location",
                                                         "damage", "attacker_conditions"))
        return State(("wound", severity, None if effect is None else (effect.roll, effect.conditions),
                      defense.get("result"), out.get("result"), leaf["attacker_conditions"],
                      tuple(h for h in history if h[0] not in ("attack", "defense", "location"))), fixed)

    def observe(self, history: History, resolution: Resolution) -> None:
        return None

    def mark(self, history: History) -> tuple[str, Hashable] | None:
        return None

    def leaf(self, resolution: Resolution) -> Leaf:
        out = resolution.outcome
        conditions = (out.get("conditions") or {}).get("defender", [])
        attacker_conditions = (out.get("conditions") or {}).get("attacker", [])
        return make_leaf([
            ("result", out.get("result")),
            ("hit", bool(out.get("hit"))),
            ("defended", bool(out.get("defended"))),
            ("victory_points", out.get("net_victory_points")),
            ("location", out.get("location")),
            ("damage", out.get("damage")),
            ("severity", out.get("severity")),
            ("effect", out.get("effect")),
            ("stumble", check_result(out.get("stumble_roll"))),
            ("fumble", check_result(out.get("fumble_roll"))),
            ("conditions", tuple(sorted(conditions))),
            ("attacker_conditions", tuple(sorted(attacker_conditions))),
        ])


def _has(row: Mapping[str, Hashable], condition: str) -> bool:
    conditions = row["conditions"]
    return isinstance(conditions, tuple) and condition in conditions


def summarize(dist: Distribution) -> dict[str, Any]:
    p = dist.prob
    effects = spread(dist, "effect", lambda r: r["severity"] is not None)
    return {
        "success": p(lambda r: r["result"] in ("success", "critical")),
        "hit": p(lambda r: bool(r["hit"])),
        "critical": p(lambda r: r["result"] == "critical"),
        "wound": p(lambda r: r["severity"] is not None),
        "dead": p(lambda r: _has(r, "dead")),
        "detail": {
            "miss": p(lambda r: r["result"] not in ("success", "critical")),
            "severity": spread(dist, "severity", lambda r: bool(r["hit"])),
            "location": spread(dist, "location", lambda r: bool(r["hit"])),
            "victory_points": spread(dist, "victory_points", lambda r: bool(r["hit"])),
            "effect": effects,
            "stunned": p(lambda r: _has(r, "stunned")),
            "unconscious": p(lambda r: _has(r, "unconscious")),
            "crippled": p(lambda r: r["severity"] == "crippled"),
            "defended": p(lambda r: bool(r["defended"])),
            "critical_failure": p(lambda r: r["result"] == "critical_failure"),
        },
    }
