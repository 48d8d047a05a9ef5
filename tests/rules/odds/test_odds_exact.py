"""The enumerating dice source drives the unchanged engines: every leaf, exact, summing to one."""

from __future__ import annotations

import dataclasses
import math

import pytest

from content import load_catalog
from rules.dice import DiceSource
from rules.errors import RulesError
from rules.model import Scenario
from rules.odds.api import compute_odds
from rules.odds.dice import CUTOFF, stress_branches, stress_request
from rules.odds.tree import Distribution, State
from rules.registry import get_engine
from tests.rules.odds.odds_support import exact, example, odds_examples, scenario_named


def test_a_stress_die_is_followed_until_less_than_the_cutoff_is_left() -> None:
    branches = stress_branches(1, CUTOFF)
    covered = sum(p for *_, p in branches)
    assert 0 < 1 - covered < CUTOFF
    # nine doublings deep: 1,1,1,1,1,1,1,1,1 then a 10 reads 512 x 10
    assert max(total for _, _, total, _, _ in branches) == 5120
    request = stress_request("attack", 1, CUTOFF, None)
    assert math.isclose(sum(o.prob for o in request.outcomes) + request.cut, 1.0, abs_tol=1e-12)
    # a 4 shown, and a 1 then a 2 (doubled), read the same: one outcome, 0.1 + 0.01
    four = next(o for o in request.outcomes if o.key == (4, 0))
    assert math.isclose(four.prob, 0.11)


def test_a_check_merges_faces_by_result() -> None:
    request = stress_request("shock", 1, CUTOFF, (1, 5))  # Stamina +1 against Ease Factor 5
    probs = {o.key: o.prob for o in request.outcomes}
    assert set(probs) == {"success", "failure", "fumble"}
    assert math.isclose(probs["fumble"], 0.01)
    # a zero that does not botch, or 2 and 3 fail: 0.09 + 0.2
    assert math.isclose(probs["failure"], 0.29)


@pytest.mark.parametrize("name", ["ars-harn-sword-vs-mail", "pendragon-tie-sword-breaks-spear",
                                  "fading-suns-dodged-blaster"])
def test_the_leaves_and_the_cut_off_mass_sum_to_one(name: str) -> None:
    odds = exact(name)
    dist = odds.distribution
    assert dist.complete
    assert dist.cut < CUTOFF
    assert math.isclose(sum(dist.leaves.values()) + dist.cut, 1.0, abs_tol=1e-9)
    assert all(p > 0 for p in dist.leaves.values())


@pytest.mark.parametrize("name", ["ars-harn-axe-amputation", "pendragon-sword-against-axe",
                                  "fading-suns-crippling-axe"])
def test_with_every_die_forced_there_is_one_leaf_and_it_is_the_resolution(name: str) -> None:
    scenario, forced = example(name)
    engine, catalog = get_engine(scenario.system), load_catalog(scenario.system)
    odds = compute_odds(engine, scenario, catalog, forced)
    assert len(odds.distribution.leaves) == 1
    [(leaf, p)] = odds.distribution.leaves.items()
    assert p == 1.0
    from rules.odds.api import adapter_for

    resolution = engine.resolve(scenario, DiceSource(forced), catalog)
    adapter, _ = adapter_for(scenario.system, catalog, scenario, resolution, forced)
    assert leaf == adapter.leaf(resolution)


def test_a_forced_attack_die_stays_fixed_and_the_rest_is_followed() -> None:
    """'I rolled 7 on the attack: what now?' The Attack Total is 7 + 13 in every leaf."""
    scenario, _ = example("ars-harn-axe-amputation")
    engine, catalog = get_engine(scenario.system), load_catalog(scenario.system)
    seven = compute_odds(engine, scenario, catalog, {"attack": [7]})
    free = exact("ars-harn-axe-amputation")
    assert seven.distribution.complete
    assert math.isclose(sum(seven.distribution.leaves.values()) + seven.distribution.cut, 1.0, abs_tol=1e-9)
    assert seven.summary["hit"] != pytest.approx(free.summary["hit"])
    # no botch can happen on a forced 7
    assert seven.summary["detail"]["attack_botched"] == 0


@pytest.mark.parametrize(("name", "forced"), [
    ("fading-suns-crippling-axe", {}),
    ("fading-suns-dodged-blaster", {}),  # wounds shared by location, after a defence that may stumble first
    ("ars-harn-axe-amputation", {"attack": [9], "defense": [2]}),  # the wounds shared between locations
    ("ars-harn-sword-vs-mail", {"attack": [1, 1, 4]}),  # an attack forced whole, doubled twice
    ("pendragon-sword-against-axe", {"attacker": [14]}),  # the exchanges and the damage states
    ("pendragon-lance-charge", {"attacker": [14]}),  # damage totals worked out (odd-damage lance), knockdowns
    ("pendragon-unconscious-rider", {"attacker": [5]}),  # a wounded rider's falls: knocked off, or unconscious
    ("pendragon-unconscious-rider", {"attacker": [9]}),  # a critical: his fall after a major wound's toll
    ("pendragon-sword-against-axe", {"defender": [1]}),  # the defender's d20 forced: no exchange node to key
    ("ars-harn-sword-vs-mail+save_excess", {"attack": [1, 1, 4]}),  # the excess kept for next round, not damage
    # a flail's natural 1: the winner's blow, then the wielder's own, shared by how it leaves him
    ("pendragon-flail-natural-1", {"attacker": [1], "defender": [11]}),
    ("pendragon-flail-natural-1", {"attacker": [1], "defender": [12]}),  # a critical: doubled, major wounds
    ("ars-harn-sword-vs-mail", {"attack": [7], "defense": [1]}),  # a defence forced in part: read from its faces
    ("ars-harn-defenceless", {"defense": [2]}),  # DT -1: a botched attack hits, keeping its botch through a wound
])
def test_merging_states_changes_no_probability(name: str, forced: dict[str, list[int]]) -> None:
    """The same action with every state key switched off (one branch per outcome, no sharing)."""
    name, _, extra = name.partition("+")
    scenario = scenario_named(name)
    if extra:  # an option of the action switched on
        scenario = dataclasses.replace(scenario, action={**scenario.action, extra: True})
    plain, merged = unshared_and_shared(scenario, forced)
    assert plain.runs > merged.runs
    assert set(plain.leaves) == set(merged.leaves)
    for leaf, p in merged.leaves.items():
        assert plain.leaves[leaf] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("forced", [
    {"attacker": [1], "defender": [3], "defender_damage": [6, 6, 6, 4]},  # the winner's blow: 22
    {"attacker": [1], "defender": [3], "damage": [6, 6, 6, 6, 6, 6]},  # the flail's own blow: 36
])
def test_a_forced_damage_roll_is_the_winners_blow_not_the_flails_own(forced: dict[str, list[int]]) -> None:
    """One blow's damage forced, the winner's (the man-at-arms' spear, 22 against the flail's wielder) or the
    flail's own (the wielder's label): the first damage roll the odds are asked for is then the other one. It
    was taken for the winner's: its totals shared states by the winner's armour and dice, and some leaves read
    40 damage taken (there are none)."""
    scenario, _ = example("pendragon-flail-natural-1")
    plain, merged = unshared_and_shared(scenario, forced)
    if "defender_damage" in forced:
        assert {dict(leaf)["damage_taken"] for leaf in merged.leaves} == {12}  # 22 less his chainmail's 10
    assert set(plain.leaves) == set(merged.leaves)
    for leaf, p in merged.leaves.items():
        assert plain.leaves[leaf] == pytest.approx(p, abs=1e-12)


def unshared_and_shared(scenario: Scenario, forced: dict[str, list[int]]) -> tuple[Distribution, Distribution]:
    """The action's distribution with every state key switched off (one branch per outcome), then on."""
    from rules.odds import api

    engine, catalog = get_engine(scenario.system), load_catalog(scenario.system)
    original = api.adapter_for

    def no_states(*args):  # type: ignore[no-untyped-def]
        adapter, summarize = original(*args)

        class Plain:
            policy = adapter.policy

            def key(self, history, resolution) -> State | None:  # type: ignore[no-untyped-def]
                return None

            observe, mark, leaf = adapter.observe, adapter.mark, adapter.leaf

        return Plain(), summarize

    api.adapter_for = no_states  # type: ignore[assignment]
    try:
        plain = compute_odds(engine, scenario, catalog, forced)
    finally:
        api.adapter_for = original
    return plain.distribution, compute_odds(engine, scenario, catalog, forced).distribution


def test_a_budget_too_small_reports_missing_mass_instead_of_guessing() -> None:
    scenario, _ = example("pendragon-sword-against-axe")
    odds = compute_odds(get_engine(scenario.system), scenario, load_catalog(scenario.system), budget=1e-6)
    dist = odds.distribution
    assert not dist.complete
    assert dist.missing > 0
    assert math.isclose(sum(dist.leaves.values()) + dist.cut + dist.missing, 1.0, abs_tol=1e-9)


def test_odds_are_only_for_attacks_and_spells() -> None:
    scenario, _ = example("pendragon-first-aid")
    with pytest.raises(RulesError, match="odds: pendragon can give odds for attack, not 'first_aid'"):
        compute_odds(get_engine(scenario.system), scenario, load_catalog(scenario.system))


def test_every_example_attack_is_covered() -> None:
    names = odds_examples()
    assert {n.split("-")[0] for n in names} == {"ars", "pendragon", "fading"}
    assert len(names) == 12


def test_a_fading_suns_wound_is_shared_at_the_location_only_when_damage_is_fixed() -> None:
    """Rolled damage and armour come after the location: the run through it does not tell the wound."""
    from dataclasses import replace

    from rules.odds.fading_suns import FadingSunsOdds

    scenario, forced = example("fading-suns-crippling-axe")
    engine, catalog = get_engine(scenario.system), load_catalog(scenario.system)
    history = (("attack", ("success", 3, 0)), ("location", (forced["location"][0],)))
    for mode, shared in (("fixed", True), ("rolled", False)):
        ruled = replace(scenario, rulings={**scenario.rulings, "damage_mode": mode})
        resolution = engine.resolve(ruled, DiceSource(forced), catalog)
        adapter = FadingSunsOdds(catalog, ruled, resolution, {})
        assert (adapter.key(history, resolution) is not None) is shared


def test_paths_that_share_no_state_give_the_same_odds_with_more_runs() -> None:
    """``share_states=False`` (what bench.odds times against the shared enumeration, as a real argument, not a
    patched adapter) explores every path on its own: the same leaves and chances, many more engine runs."""
    scenario, _ = example("fading-suns-dodged-blaster")
    engine, catalog = get_engine(scenario.system), load_catalog(scenario.system)
    shared = compute_odds(engine, scenario, catalog).distribution
    alone = compute_odds(engine, scenario, catalog, share_states=False).distribution
    assert alone.complete and alone.runs > 3 * shared.runs
    assert alone.leaves.keys() == shared.leaves.keys()
    assert all(abs(alone.leaves[leaf] - p) < 1e-12 for leaf, p in shared.leaves.items())
