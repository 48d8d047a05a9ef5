"""ars-harn in its own words (issue 22 §1, §3, §4), read from payloads today's engine stores.

Each test names the words a table read before and what it reads now; the payloads are the stored fixtures
(tests/bot/fixtures/ars_harn_events.json), so the old events are what is checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.services.results import ActionReport
from bot.ui import action_embeds
from bot.ui.outcomes import describe
from tests.bot.action_report_support import action_report
from tests.rules.ars_harn.ars_harn_support import run, who

EVENTS = {e["source"]: e for e in json.loads(
    (Path(__file__).parent / "fixtures" / "ars_harn_events.json").read_text(encoding="utf-8"))["events"]}
FAILED_KILL = "playground-first-session-ars-harn.txt #9"  # Bjorn's 41 on a bandit's skull, K5, the kill roll failed
AMPUTATION = "ars_harn_events.txt #22"  # a severed forearm: the Fumble fails with no roll
STUMBLE_BY_WOUND = "ars_harn_events.txt #10"  # a grievous thigh: the Stumble fails with no roll
SHOCK_FAILED = "ars_harn_events.txt #29"  # /pending-roll shock: failed
KILL_PASSED = "ars_harn_events.txt #28"
CHIRURGY = "playground-first-session-ars-harn.txt #15"


def _report(source: str, *, target_secret: bool = False) -> ActionReport:
    payload: dict[str, Any] = EVENTS[source]["payload"]
    return action_report("ars-harn", EVENTS[source]["kind"], payload["actor"], payload.get("target"),
                         payload["outcome"], payload["rolls"], event_id=9, target_secret=target_secret)


def test_a_players_attack_on_a_secret_npc_shows_only_the_attackers_total() -> None:
    """Before: 'Broadsword edge high: 41 vs 7 · impact 36' (the bandit's Defense Total, under secret rolls)."""
    public = action_embeds.action(_report(FAILED_KILL, target_secret=True)).description or ""
    assert "Broadsword edge high: attack 41" in public and " vs " not in public and "impact" not in public
    assert "41 vs 7 \u00b7 impact 36" in (action_embeds.action(_report(FAILED_KILL)).description or "")


def test_a_failed_kill_roll_does_not_say_incapacitated_before_the_gm_decides() -> None:
    """Before: '💀 Bandit 1: incapacitated' under the GM's death-or-incapacitation buttons."""
    brief = describe("ars-harn", EVENTS[FAILED_KILL]["payload"]["outcome"], ("Bjorn", "Bandit 1")).brief or []
    assert "\U0001f480 Bandit 1 falls" in brief
    assert not any("incapacitated" in line for line in brief)


def test_a_fumble_or_stumble_the_wound_makes_says_why_no_die_is_shown() -> None:
    """Before: 'Fumble: ? vs 6: **failed**'."""
    for source, title, limb in ((AMPUTATION, "Fumble", "arm"), (STUMBLE_BY_WOUND, "Stumble", "leg")):
        fields = {name: value for name, value, _ in describe("ars-harn", EVENTS[source]["payload"]["outcome"],
                                                             ("Bjorn", "Bandit 2")).fields}
        assert fields[title] == f"fails with no roll: the {limb} is useless"


def test_a_bleeding_wound_says_what_bleeding_does_and_what_stops_it() -> None:
    fields = {name: value for name, value, _ in describe("ars-harn", EVENTS[STUMBLE_BY_WOUND]["payload"]["outcome"],
                                                         ("Bjorn", "Bandit 2")).fields}
    assert "bleeding: \u22121 to Shock and Fatigue rolls until a treatment succeeds" in fields["Injury"]


def test_chirurgy_says_what_was_rolled_and_what_the_treatment_gives_in_plain_words() -> None:
    """Before: 'Chirurgy roll: 12 vs 3: passed · Heals: at rate 6 (the roll each 5 days of rest)'."""
    text = str(action_embeds.action(_report(CHIRURGY)).to_dict())
    assert "Chirurgy: rolled 12, needed 3: **passed**" in text
    assert "Heals: a healing roll every 5 days of rest, +6 for the treatment" in text
    assert "at rate" not in text and "Chirurgy roll" not in text


def test_a_shock_or_kill_roll_made_later_answers_in_its_headline_alone() -> None:
    """Before (issue 22 §4): 'fails the shock roll. In shock.' then 'Shock **failed** · Bandit 3 is **in shock**'
    then 'Bandit 3: shock': three lines for one fact."""
    shock = action_embeds.action(_report(SHOCK_FAILED)).description
    assert shock == "**Bandit 3** fails the shock roll. In shock."
    assert action_embeds.action(_report(KILL_PASSED)).description == "**Bandit 3** passes the kill roll."


def test_the_small_actions_say_what_happened_not_a_list_of_fields() -> None:
    """Before: 'Bjorn acts.' with 'Details: Use: pick up / Held: left 1' and the like."""
    for source in EVENTS:
        words = describe("ars-harn", EVENTS[source]["payload"]["outcome"],
                         (EVENTS[source]["payload"]["actor"], EVENTS[source]["payload"].get("target") or "?"))
        assert not words.headline.endswith(" acts.") and " acts on " not in words.headline, source
        assert "Details" not in {name for name, _, _ in words.fields}, source
        text = words.headline + " ".join(value for _, value, _ in words.fields) + " ".join(words.brief or [])
        for internal in ("upper_arm", "Held:", "In shock: yes", "Severed kills", "? vs"):
            assert internal not in text, (source, internal)


def test_a_long_rest_marks_the_day_of_each_healing_roll() -> None:
    """Before (issue 22 §4): '/rest days:30' gave 'Healing rolls: wound 1: K5 → G4 (14 vs 10) wound 2: …' as one
    unbroken paragraph, with no day marks, and a failed roll read 'G4 → G4'."""
    patient = who("Bjorn", sta=1, rest_days=3, wounds=[{"location": "abdomen", "code": "S3", "aspect": "edge"},
                                                       {"location": "thigh", "code": "S2", "aspect": "edge"}])
    outcome = run({"type": "rest", "days": 12}, patient, None, {"healing": [5, 4, 5, 5, 5, 5]}).outcome.to_dict()
    words = describe("ars-harn", outcome, ("Bjorn", "Bjorn"))
    # three days into his rest already: the rolls come on days 2, 7 and 12 of this one
    assert words.brief == ["Day 2: wound `1` S3 \u2192 S2 (10 vs 10) \u00b7 wound `2` S2 stays (9 vs 10: failed)",
                           "Day 7: wound `1` S2 \u2192 M1 (10 vs 10) \u00b7 wound `2` S2 \u2192 M1 (10 vs 10)",
                           "Day 12: wound `1` M1 \u2192 healed (11 vs 10) \u00b7 wound `2` M1 \u2192 healed (11 vs 10)",
                           "Now: Bjorn has 0 injury levels"]
    report = action_report("ars-harn", "rest", "Bjorn", None, outcome, event_id=9)
    assert (action_embeds.action(report).description or "").splitlines()[1].startswith("Day 2: wound `1` S3")


def test_a_failed_shock_or_stumble_says_what_it_brings_in_its_own_line_once() -> None:
    """Before (issue 22 §4): 'Shock **failed** · Stumble **failed**' and under it 'Bandit 2: shock, prone': two
    lines for one fact."""
    brief = describe("ars-harn", EVENTS[STUMBLE_BY_WOUND]["payload"]["outcome"], ("Bjorn", "Bandit 2")).brief or []
    assert "Shock **failed**: in shock \u00b7 Bandit 2 falls prone" in brief
    assert not any(line.startswith("Bandit 2:") for line in brief)
    # a condition from before (prone, from the earlier blow) is still said: nothing on this blow explains it
    severed = describe("ars-harn", EVENTS[AMPUTATION]["payload"]["outcome"], ("Bjorn", "Bandit 2")).brief or []
    assert severed[:2] == ["Shock **failed**: in shock", "Bandit 2: prone"]


def test_a_limb_roll_says_what_happened_not_whose_roll_failed() -> None:
    """Issue 34, A1: "Amputation failed" meant the limb came off and "Amputation passed" that it did not; a
    failed Fumble or Amputation is said once, by the Lost line (what was dropped or severed)."""
    severed = describe("ars-harn", EVENTS[AMPUTATION]["payload"]["outcome"], ("Bjorn", "Bandit 2")).brief or []
    assert not any("Amputation" in line or "Fumble" in line for line in severed)
    assert any(line.endswith("is severed") for line in severed), severed
