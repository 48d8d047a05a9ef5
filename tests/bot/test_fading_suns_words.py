"""The Fading Suns describer on fresh records (issue 22 §3, §4): a month's rest says which day each wound
mended, on one line a wound; a location is named the one way the results and the sheet use."""

from __future__ import annotations

from random import Random

from bot.ui.outcomes import describe
from content import load_catalog
from rules.dice import DiceSource
from rules.fading_suns.engine import ENGINE
from rules.model import Scenario

CAT = load_catalog("fading-suns")


def test_a_months_rest_gives_one_line_a_wound_with_the_day_of_each_step() -> None:
    sheet = {"name": "Erian", "wounds": [{"location": "chest", "severity": "grievous", "progress": 5},
                                        {"location": "right_arm", "severity": "minor"}]}
    res = ENGINE.resolve(Scenario("fading-suns", {"type": "rest", "days": 30}, sheet), DiceSource(rng=Random(1)), CAT)
    words = describe("fading-suns", res.outcome.to_dict(), ("Erian", "Erian"))
    assert words.brief is not None
    assert words.brief[:2] == [
        "Healing: wound `1` grievous \u2192 major (day 16) \u2192 minor (day 26) \u2192 healed (day 29)",
        "wound `2` minor \u2192 healed (day 3)"]
    assert "wound `1` (grievous) mends to major on day 16" in dict((n, v) for n, v, _ in words.fields)["Healing"]


def test_a_location_typed_any_way_is_named_as_the_results_and_the_sheet_name_it() -> None:
    attacker, defender = {"name": "A", "dex": 10, "skills": {"melee": 10}, "weapons": ["broadsword"]}, {"name": "B"}
    res = ENGINE.resolve(Scenario("fading-suns", {"type": "attack", "aim": "R.Arm"}, attacker, defender,
                                  {"unnamed_defense": "none"}), DiceSource({"attack": [3], "effect": [1]}), CAT)
    assert "**right arm**" in describe("fading-suns", res.outcome, ("A", "B")).headline
    assert res.defender is not None
    [wound] = ENGINE.summarize(res.defender, CAT).wounds
    assert wound.location == "Right Arm"


def test_a_thrown_knife_is_said_to_be_thrown_not_dropped() -> None:
    # issue 34, F2: "Thug 1 drops the knife" after throwing it
    thug = {"name": "Thug 1", "dex": 6, "skills": {"melee": 5}, "weapons": ["knife", "broadsword"]}
    for faces, said, unsaid in (({"attack": [3], "effect": [1]}, "Thug 1 threw the knife", "drops the knife"),
                                ({"attack": [20], "fumble": [15]}, "Thug 1 drops the knife", "threw")):
        res = ENGINE.resolve(Scenario("fading-suns", {"type": "attack", "weapon": "knife", "mode": "missile"}, thug,
                                      {"name": "Erian"}, {"unnamed_defense": "none"}), DiceSource(faces), CAT)
        words = describe("fading-suns", res.outcome, ("Thug 1", "Erian"))
        shown = "\n".join([*(words.brief or []), *(v for _, v, _ in words.fields)])
        assert said in shown and unsaid not in shown, shown


def test_rest_says_what_it_ended_and_a_wound_reads_in_words() -> None:
    # issue 34, F4 and F5: "Recovered: prone", "1 days healed", "MIN Head" in the party view
    from bot.ui.character_embeds import wound_brief
    sheet = {"name": "Erian", "conditions": ["prone"], "wounds": [{"location": "head", "severity": "minor"}]}
    res = ENGINE.resolve(Scenario("fading-suns", {"type": "rest", "days": 1}, sheet), DiceSource(rng=Random(1)), CAT)
    words = describe("fading-suns", res.outcome.to_dict(), ("Erian", "Erian"))
    brief = "\n".join(words.brief or [])
    assert "Erian gets up" in brief and "Recovered" not in brief
    assert res.attacker is not None
    [wound] = ENGINE.summarize(res.attacker, CAT).wounds
    assert wound.note.endswith("1 day healed")
    assert wound_brief(wound, "fading-suns") == "minor Head"
