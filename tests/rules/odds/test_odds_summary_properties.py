"""Every summary figure is what the leaves say (issue 20): for random scenarios of each system (the example
fights with other weapons, armour and forced dice), each figure is worked out again here from the leaves by a
plain loop, and must match. The ars-harn mean excess, which the leaves do not hold (it is tallied on the
paths), is checked against the stress die worked out in fractions instead.

Small budgets keep it quick: an enumeration stopped by its time budget is still a set of exact leaves, and
its summary must still be theirs."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from content import load_catalog
from rules.ars_harn.outcomes import AttackOutcome
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Scenario
from rules.odds.api import Odds, compute_odds
from rules.registry import get_engine
from tests.rules.odds.odds_support import example, odds_examples
from tests.rules.odds.test_odds_ars_harn import exact_mean_excess, stress

Row = Mapping[str, Hashable]
BUDGET = 0.3  # seconds per enumeration: a stopped one is still exact leaves

# what each system's sheets may carry instead (the example's own, or one of these)
WEAPONS = {
    "ars-harn": ["Broadsword", "Battleaxe", "Mace", "Dagger", "Spear", "Warflail"],
    "pendragon": ["sword", "axe", "flail", "mace", "great_axe", "spear", "dagger"],
    "fading-suns": ["broadsword", "axe", "club", "flail", "knife", "rapier"],
}
ARMOUR = {
    "ars-harn": [[], ["Quilt Gambeson"], ["Leather Tunic"], ["Quilt Gambeson", "Mail Hauberk", "Mail Coif"]],
    "pendragon": [[], ["leather"], ["chainmail", "shield"], ["full_plate"]],
    "fading-suns": [[], ["leather jerkin"], ["chain mail", "plate helm"]],
}
SKILL = {"ars-harn": "abilities", "pendragon": "skills", "fading-suns": "skills"}


def skill_name(system: str, weapon: str) -> str:
    catalog = load_catalog(system)
    if system == "ars-harn":
        return str(catalog.weapons[weapon].skill)
    if system == "pendragon":
        return str(catalog.weapons[weapon].skill)
    return "melee"


@st.composite
def scenarios(draw: st.DrawFn, system: str) -> tuple[Scenario, dict[str, list[int]]]:
    names = [n for n in odds_examples() if example(n)[0].system == system]
    scenario, forced = example(draw(st.sampled_from(names)))
    attacker, defender, action = dict(scenario.attacker or {}), dict(scenario.defender or {}), dict(scenario.action)
    if action.get("type", "attack") == "attack" and draw(st.booleans()):
        weapon = draw(st.sampled_from(WEAPONS[system]))
        skills = dict(attacker.get(SKILL[system]) or {})
        skill = skill_name(system, weapon)
        skills[skill] = max([int(v) for v in skills.values()] or [5])
        attacker.update({"weapons": [weapon], SKILL[system]: skills})
        action["weapon"] = weapon
        action.pop("aspect", None)
    if draw(st.booleans()):
        defender["armour"] = draw(st.sampled_from(ARMOUR[system]))
    # a few of the example's own forced dice, and maybe another face for its first roll
    kept = {label: faces for label, faces in forced.items() if draw(st.booleans())}
    first = {"ars-harn": "attack", "pendragon": "attacker", "fading-suns": "attack"}[system]
    if draw(st.booleans()):
        low, high = (2, 9) if system == "ars-harn" else (1, 20)
        kept[first] = [draw(st.integers(low, high))]
    return dataclasses.replace(scenario, attacker=attacker, defender=defender, action=action), kept


def work_out(scenario: Scenario, forced: dict[str, list[int]]) -> Odds:
    try:
        return compute_odds(get_engine(scenario.system), scenario, load_catalog(scenario.system), forced, BUDGET)
    except RulesError:
        assume(False)  # a weapon the sheet cannot wield (a lance off a horse): not a scenario
        raise


def total(odds: Odds, test: Callable[[Row], bool]) -> float:
    out = 0.0
    for leaf, p in odds.distribution.leaves.items():
        if test(dict(leaf)):
            out += p
    return out


def by_value(odds: Odds, field: str, test: Callable[[Row], bool] = lambda row: True) -> dict[str, float]:
    out: dict[str, float] = {}
    for leaf, p in odds.distribution.leaves.items():
        row = dict(leaf)
        if test(row):
            name = "none" if row[field] is None else str(row[field])
            out[name] = out.get(name, 0.0) + p
    return out


def same(found: Any, expected: Any, where: str) -> None:
    if isinstance(expected, dict):
        assert isinstance(found, dict), where
        keys = set(found) | set(expected)
        for key in keys:  # a value no leaf has reads 0
            same(found.get(key, 0.0), expected.get(key, 0.0), f"{where}.{key}")
    elif expected is None:  # a spell's mean excess
        assert found is None, where
    else:
        assert math.isclose(found, expected, rel_tol=1e-12, abs_tol=1e-12), f"{where}: {found} != {expected}"


def check_all(summary: Mapping[str, Any], expected: Mapping[str, Any]) -> None:
    """Every figure of the summary is checked: none left out, none made up."""
    flat = {**{k: v for k, v in summary.items() if k != "detail"}, **summary["detail"]}
    assert set(flat) == set(expected)
    for name, value in expected.items():
        same(flat[name], value, name)


def failed(value: Hashable) -> bool:
    return value in ("failed", "botched", "automatic")


def check_mass(odds: Odds) -> None:
    dist = odds.distribution
    assert math.isclose(sum(dist.leaves.values()) + dist.cut + dist.missing, 1.0, abs_tol=1e-9)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios("ars-harn"))
def test_every_ars_harn_summary_figure_is_the_leaves(case: tuple[Scenario, dict[str, list[int]]]) -> None:
    scenario, forced = case
    odds = work_out(scenario, forced)
    check_mass(odds)
    hit = total(odds, lambda r: r["hit"] is True)
    severity: dict[str, float] = {}
    for code, p in by_value(odds, "code").items():
        name = "none" if code == "none" else {"M": "minor", "S": "serious", "G": "grievous", "K": "kill"}[code[0]]
        severity[name] = severity.get(name, 0.0) + p
    levels = sum(float(str(dict(leaf)["levels"])) * p for leaf, p in odds.distribution.leaves.items())
    summary = odds.summary
    mean = summary["detail"]["mean_excess_on_hit"]
    check_all(summary, {
        "hit": hit,
        "injury": total(odds, lambda r: r["code"] is not None),
        "grievous_or_worse": total(odds, lambda r: str(r["code"])[:1] in ("G", "K")),
        "kill_roll": total(odds, lambda r: r["kill"] is not None),
        "kill_failed": total(odds, lambda r: failed(r["kill"])),
        "dead": total(odds, lambda r: r["dead"] is True),
        "shock_failed": total(odds, lambda r: failed(r["shock"])),
        "miss": total(odds, lambda r: r["hit"] is False),
        "severity": severity,
        "location": by_value(odds, "location", lambda r: r["hit"] is True),
        "code": by_value(odds, "code"),
        "mean_excess_on_hit": mean,  # checked below
        "bleeding": total(odds, lambda r: r["bleeding"] is True),
        "amputation_roll": total(odds, lambda r: r["amputation"] is not None),
        "severed": total(odds, lambda r: r["severed"] is True),
        "limb_roll_failed": total(odds, lambda r: failed(r["limb"])),
        "incapacitated": total(odds, lambda r: r["incapacitated"] is True),
        "tactical_advantage": total(odds, lambda r: r["tactical_advantage"] is True),
        "attack_botched": total(odds, lambda r: r["attack_botched"] is True),
        "expected_injury_levels": levels,
    })
    if scenario.action.get("type") == "cast":
        assert mean is None if hit else mean == 0.0
        return
    # the mean excess, from the stress die in fractions: each of the two rolls free or forced whole
    out = get_engine(scenario.system).resolve(scenario, DiceSource(forced), load_catalog(scenario.system)).outcome
    assert isinstance(out, AttackOutcome)
    rolls = {"attack": sum((out.attack_modifiers or {}).values()),
             "defense": sum((out.defense_modifiers or {}).values())}
    totals = {}
    for label, modifier in rolls.items():
        if label == "defense" and not out.defense_rolled:
            totals[label] = [(0, Fraction(1))]
        elif label in forced:
            totals[label] = [((out.attack_total if label == "attack" else out.defense_total) or 0, Fraction(1))]
        else:
            totals[label] = stress(modifier)
    if odds.distribution.complete and hit:
        assert mean == pytest.approx(exact_mean_excess(totals["attack"], totals["defense"]), abs=1e-9)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios("pendragon"))
def test_every_pendragon_summary_figure_is_the_leaves(case: tuple[Scenario, dict[str, list[int]]]) -> None:
    odds = work_out(*case)
    check_mass(odds)

    def hurt(r: Row) -> bool:
        return r["loser"] == "defender"

    damage = by_value(odds, "damage_taken", hurt)
    check_all(odds.summary, {
        "win": total(odds, lambda r: r["winner"] == "attacker"),
        "tie": total(odds, lambda r: r["tie"] is True),
        "loss": total(odds, lambda r: r["winner"] == "defender"),
        "critical": total(odds, lambda r: r["winner"] == "attacker" and r["critical"] is True),
        "major_wound": total(odds, lambda r: hurt(r) and r["major_wound"] is True),
        "unconscious": total(odds, lambda r: hurt(r) and r["unconscious"] is True),
        "neither": total(odds, lambda r: r["winner"] == "none" and r["tie"] is False),
        "fumble": total(odds, lambda r: r["fumble"] is not None),
        "knockdown": total(odds, lambda r: hurt(r) and r["knocked_down"] is True),
        "dying": total(odds, lambda r: hurt(r) and r["dying"] is True),
        "out_of_the_fight": total(odds, lambda r: hurt(r) and r["out_of_fight"] is True),
        "weapon_broken": total(odds, lambda r: r["weapon_broken"] is not None),
        "damage_taken": damage,
        "mean_damage_taken": sum(float(k) * p for k, p in damage.items() if k != "none"),
        "attacker_hurt": total(odds, lambda r: r["loser"] == "attacker"),
    })


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios("fading-suns"))
def test_every_fading_suns_summary_figure_is_the_leaves(case: tuple[Scenario, dict[str, list[int]]]) -> None:
    odds = work_out(*case)
    check_mass(odds)

    def has(r: Row, condition: str) -> bool:
        return condition in (r["conditions"] or ())  # type: ignore[operator]

    def hit(r: Row) -> bool:
        return r["hit"] is True

    check_all(odds.summary, {
        "success": total(odds, lambda r: r["result"] in ("success", "critical")),
        "hit": total(odds, hit),
        "critical": total(odds, lambda r: r["result"] == "critical"),
        "wound": total(odds, lambda r: r["severity"] is not None),
        "dead": total(odds, lambda r: has(r, "dead")),
        "miss": total(odds, lambda r: r["result"] not in ("success", "critical")),
        "severity": by_value(odds, "severity", hit),
        "location": by_value(odds, "location", hit),
        "victory_points": by_value(odds, "victory_points", hit),
        "effect": by_value(odds, "effect", lambda r: r["severity"] is not None),
        "stunned": total(odds, lambda r: has(r, "stunned")),
        "unconscious": total(odds, lambda r: has(r, "unconscious")),
        "crippled": total(odds, lambda r: r["severity"] == "crippled"),
        "defended": total(odds, lambda r: r["defended"] is True),
        "critical_failure": total(odds, lambda r: r["result"] == "critical_failure"),
    })
