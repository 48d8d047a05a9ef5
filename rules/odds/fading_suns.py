"""Odds for fading-suns: goal roll, defence, location, damage, wound effect, stumble and fumble.

After the goal roll and the defence only what they made matters (hit, defended, net victory points and
the two results): read from the first run through a pair, others with the same reading share its future.
The d20 location merges faces by the location they give in the attack's column; effect, stumble and
fumble rolls read only their result.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rules.fading_suns.outcomes import AttackOutcome, Check
from rules.fading_suns.rulings import parse_rulings
from rules.model import Resolution, Scenario
from rules.odds.common import group_faces, make_leaf, spread
from rules.odds.dice import Policy
from rules.odds.tree import Distribution, History, Leaf, State

CHECKS = frozenset({"effect", "stumble", "fumble", "heal"})


class FadingSunsOdds:
    def __init__(self, catalog: Any, scenario: Scenario, probe: Resolution,
                 forced: Mapping[str, Sequence[int]]) -> None:
        self.catalog = catalog
        self.column = probe.outcome.column if isinstance(probe.outcome, AttackOutcome) else None
        self.policy = Policy(by_result=CHECKS, face_groups=self._groups)
        # the wound is known once the location is (fixed damage); rolled damage and armour come after it
        self.wound_at_location = parse_rulings(scenario.rulings).damage_mode == "fixed"
        # learned from runs: what reaches the armour after a hit (by the history before the location), with the
        # hit's leaf fields and state; each location's armour; each damage's severity
        self.hits: dict[History, tuple[int, Leaf, tuple[Hashable, ...]]] = {}
        self.armour: dict[str, int] = {}
        self.severities: dict[int, str | None] = {}

    def _groups(self, label: str, sides: int) -> list[tuple[int, ...]] | None:
        if label != "location" or sides != 20 or self.column is None:
            return None
        column = self.column
        return group_faces(1, 20, lambda face: self.catalog.location_for(column, face).name)

    def key(self, history: History, resolution: Resolution | None) -> State | None:
        if not history:
            return None
        if history[-1][0] == "location" and history.count(history[-1]) == 1 and self.wound_at_location:
            return self._wound(history, resolution)
        if resolution is None:
            return None
        if history[-1][0] not in ("attack", "defense"):
            return None
        out = _attack(resolution)
        if history[-1][0] == "attack" and out.defense is not None:
            return None  # wait for the defence
        return State(("exchange", out.attack_roll.result, out.hit, out.defended, out.net_victory_points,
                      None if out.defense is None else out.defense.roll.result))

    def _wound(self, history: History, resolution: Resolution | None) -> State | None:
        """After the location roll: the wound's rolls depend on its severity and the location's effect for it
        (and on the defence, whose critical failure may have made the defender roll already), not on the
        location or the victory points that made it: those are kept in the leaf.

        The first run through a hit shows what reaches the armour (the weapon, the victory bonus, less an
        energy shield), each location's armour and each damage's severity; later locations of the same hit
        are worked out from those when all are known, without a run."""
        prefix, group = history[:-1], history[-1][1]
        if resolution is None:
            hit = self.hits.get(prefix)
            if hit is None or self.column is None or not isinstance(group, tuple):
                return None
            place = self.catalog.location_for(self.column, group[0]).name
            armour = self.armour.get(place)
            if armour is None:
                return None
            worked_out = max(0, hit[0] - armour)
            if worked_out not in self.severities:
                return None
            return self._state(prefix, place, worked_out, self.severities[worked_out], hit[1], hit[2])
        out = _attack(resolution)
        location, severity, damage = out.location, out.severity, out.damage
        if location is None or damage is None:
            return None
        leaf = dict(self.leaf(resolution))
        exchange = tuple((name, leaf[name]) for name in ("result", "hit", "defended", "victory_points",
                                                          "attacker_conditions"))
        shared = (None if out.defense is None else out.defense.roll.result, out.attack_roll.result,
                  leaf["attacker_conditions"])
        raw, armour = out.damage_before_armor, out.armor
        if raw is not None and armour is not None:
            absorbed = out.shield.absorbed if out.shield is not None else 0
            self.hits.setdefault(prefix, (raw - absorbed, exchange, shared))
            self.armour.setdefault(location, armour)
            self.severities.setdefault(damage, severity)
        return self._state(prefix, location, damage, severity, exchange, shared)

    def _state(self, prefix: History, location: str, damage: int, severity: str | None, exchange: Leaf,
               shared: tuple[Hashable, ...]) -> State:
        effect = self.catalog.location(location).wound_effect(severity) if severity is not None else None
        fixed = (*exchange, ("location", location), ("damage", damage))
        return State(("wound", severity, None if effect is None else (effect.roll, effect.conditions), *shared,
                      tuple(h for h in prefix if h[0] not in ("attack", "defense"))), fixed)

    def observe(self, history: History, resolution: Resolution) -> None:
        return None

    def mark(self, history: History) -> tuple[str, Hashable] | None:
        return None

    def leaf(self, resolution: Resolution) -> Leaf:
        out = _attack(resolution)
        conditions = out.after.conditions
        return make_leaf([
            ("result", out.attack_roll.result),
            ("hit", out.hit),
            ("defended", out.defended),
            ("victory_points", out.net_victory_points),
            ("location", out.location),
            ("damage", out.damage),
            ("severity", out.severity),
            ("effect", out.after.effect),
            ("stumble", _check(out.after.stumble_roll)),
            ("fumble", _check(out.after.fumble_roll)),
            ("conditions", tuple(sorted(conditions.get("defender", ())))),
            ("attacker_conditions", tuple(sorted(conditions.get("attacker", ())))),
        ])


def _attack(resolution: Resolution) -> AttackOutcome:
    outcome = resolution.outcome
    if not isinstance(outcome, AttackOutcome):
        raise TypeError(f"Fading Suns odds follow an attack, not {outcome.action!r}")
    return outcome


def _check(check: Check | None) -> str | None:
    """A STUMBLE or FUMBLE as a leaf reads it: its result ("None" when it could not be rolled), or None."""
    return None if check is None else str(check.roll.result)


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
