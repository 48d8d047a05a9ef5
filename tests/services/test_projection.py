"""The GM screen (issue 31): one projection decides what each viewer reads of an event, and what is behind the
screen never reaches a player's words. Read from the stored fixtures, so old events are what is checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.services.actor import Actor
from bot.services.event_records import HIDDEN, ActionEvent, EditEvent, Hidden, RollEvent, StoredRoll, read_event
from bot.services.projection import project, project_encounter
from bot.services.results import CombatantView, EncounterView, EventView, InitiativeRoll
from bot.services.viewer import Seat, Viewer, viewer_of
from bot.ui import action_embeds, encounter_embeds
from rules.pendragon.outcomes import FirstAidOutcome, RestOutcome
from tests.bot.action_report_support import action_report

FIXTURES = Path(__file__).parents[1] / "bot" / "fixtures"
GM = Viewer(Seat.GM, secret_rolls=True, user_id=1)
PLAYER = Viewer(Seat.PLAYER, secret_rolls=True, user_id=2)
OPEN_PLAYER = Viewer(Seat.PLAYER, secret_rolls=False, user_id=2)
TABLE = Viewer(Seat.TABLE, secret_rolls=True)


def _events(system: str) -> dict[str, dict[str, Any]]:
    data = json.loads((FIXTURES / f"{system}_events.json").read_text(encoding="utf-8"))
    return {e["source"]: e for e in data["events"]}


def _details(kind: str, payload: dict[str, Any], viewer: Viewer) -> str:
    record = read_event(kind, payload)
    assert isinstance(record, ActionEvent)
    seen = project(record, viewer)
    view = EventView(id=5, kind=kind, channel_id=1, encounter_id=None, user_id=2, user_name="Alice",
                     record=seen)
    return json.dumps(action_embeds.event_details(view).to_dict(), ensure_ascii=False)


# -- who is looking -------------------------------------------------------------------------------------


class _Settings:
    def __init__(self, gm_role_id: int | None, secret_rolls: bool) -> None:
        self.gm_role_id, self.secret_rolls = gm_role_id, secret_rolls


class _Character:
    def __init__(self, owner_id: int, npc: bool) -> None:
        self.owner_id, self.npc = owner_id, npc


def test_viewer_of_seats_the_gm_the_owner_another_player_and_the_channel() -> None:
    settings: Any = _Settings(gm_role_id=77, secret_rolls=True)
    actor = Actor(guild_id=1, channel_id=2, user_id=3, user_name="Alice")
    assert viewer_of(Actor(1, 2, 9, "GM", role_ids=(77,)), settings).is_gm
    assert viewer_of(Actor(1, 2, 9, "Manager", is_manager=True), None).is_gm
    assert viewer_of(actor, settings, _Character(3, npc=False)).seat is Seat.OWNER  # type: ignore[arg-type]
    assert viewer_of(actor, settings, _Character(4, npc=False)).seat is Seat.PLAYER  # type: ignore[arg-type]
    assert viewer_of(actor, settings, _Character(3, npc=True)).seat is Seat.PLAYER  # type: ignore[arg-type]
    assert viewer_of(None, settings).seat is Seat.TABLE
    assert viewer_of(actor, settings).behind_screen(True) and not viewer_of(actor, settings).behind_screen(False)
    assert not viewer_of(actor, _Settings(77, secret_rolls=False)).behind_screen(True)  # type: ignore[arg-type]


# -- leak 1: a player's Details on his own blow at an NPC ---------------------------------------------


def test_a_players_details_on_his_blow_at_a_pendragon_npc_hide_its_major_wound_and_valorous_targets() -> None:
    """Before: 'major_wound d20 [5] = 5 vs 7', 'valorous d20 [12] = 12 vs 8' and 'Bandit 1 loses heart and leaves
    the fight (Valorous 12 vs 8, failure)': the bandit's CON and Valorous, the GM's numbers."""
    event = _events("pendragon")["playground-pendragon.txt #5"]
    payload = {**event["payload"], "target_secret": True}
    seen = _details("attack", payload, PLAYER)
    for secret in ("major wound d20", "valorous d20", "knockdown d20", "stat loss 1d6", "vs 7", "vs 8", "vs 12", "vs 9",
                   "Valorous 12", "armour 1", "Hit points"):
        assert secret not in seen, secret
    assert "Valorous failure" in seen and "Sir Owain" in seen and "attacker d20 [14] = **14** vs 16" in seen
    gm = _details("attack", payload, GM)
    assert "valorous d20 [12] = **12** vs 8" in gm and "Valorous 12 vs 8, failure" in gm


def test_in_the_open_a_player_reads_the_npcs_rolls_as_before() -> None:
    event = _events("pendragon")["playground-pendragon.txt #5"]
    assert _details("attack", event["payload"], OPEN_PLAYER) == _details("attack", event["payload"], GM)


@pytest.mark.parametrize("system", ["ars-harn", "fading-suns", "pendragon"])
def test_no_npc_roll_target_or_goal_reaches_a_players_details_on_a_blow_at_it(system: str) -> None:
    """The same class of leak in every system: each roll the target made (by the outcome's own labels) is gone,
    and no roll left shows a target or goal of the NPC's."""
    for source, event in _events(system.replace("-", "_")).items():
        if event["kind"] != "attack" or not event["payload"].get("target") or event["payload"].get("secret"):
            continue  # (an NPC's own attack is hidden whole: its dice are the GM's)
        record = read_event("attack", {**event["payload"], "target_secret": True})
        assert isinstance(record, ActionEvent)
        seen = project(record, PLAYER)
        hidden = seen.outcome.target_roll_labels
        assert not any(r.root in hidden for r in seen.shown_rolls), source
        assert all(r.root in ("attacker", "attack", "damage", "location", "targeting") or r.label.startswith("attack")
                   or r.root not in {"defender", "defense", *hidden} for r in seen.shown_rolls), source


def test_fading_suns_players_details_hold_no_goal_or_wound_penalty_of_the_npc() -> None:
    for source, event in _events("fading_suns").items():
        if event["kind"] != "attack" or not event["payload"].get("target") or event["payload"].get("secret"):
            continue  # (an NPC's own attack is hidden whole: its dice are the GM's)
        record = read_event("attack", {**event["payload"], "target_secret": True})
        assert isinstance(record, ActionEvent)
        outcome: Any = project(record, PLAYER).outcome
        assert outcome.defense is None or outcome.defense.roll.goal is None, source
        assert not outcome.after.penalties.any, source


# -- leak 2: a GM decision's public line --------------------------------------------------------------


def test_a_gm_decision_on_a_secret_npc_posts_no_hit_points_publicly_and_the_gm_still_reads_them() -> None:
    """Before: 'Bandit 1 dies. … Hit points: Bandit 1: −5' in the channel."""
    payload = _events("pendragon")["playground-first-session-pendragon.txt #11"]["payload"]
    report = action_report("pendragon", "gm_decide", "Bandit 1", None, payload["outcome"], event_id=11, secret=True)
    public = json.dumps(action_embeds.action(report).to_dict(), ensure_ascii=False)
    assert "dies" in public and "Hit points" not in public and "\u22125" not in public
    assert "\u22125" in json.dumps(action_embeds.report_details(report).to_dict(), ensure_ascii=False)


def test_every_gm_decision_on_a_secret_npc_leaves_its_figures_out_in_every_system() -> None:
    for system in ("ars_harn", "pendragon", "fading_suns"):
        for source, event in _events(system).items():
            if event["kind"] != "gm_decide":
                continue
            record = read_event("gm_decide", {**event["payload"], "secret": True})
            assert isinstance(record, ActionEvent)
            seen = project(record, TABLE)
            assert isinstance(seen.rolls, Hidden)
            assert getattr(seen.outcome, "hit_points", None) is None, source


# -- the other kinds ----------------------------------------------------------------------------------


def test_a_secret_roll_says_to_a_player_only_that_it_happened() -> None:
    roll = RollEvent(expression="d20+3", total=17, rolls=(), secret=True)
    assert project(roll, PLAYER) == RollEvent(rolls=HIDDEN, secret=True)
    assert project(roll, GM) == roll


def test_an_npcs_edit_tells_a_player_that_it_changed_never_the_figure() -> None:
    edit = EditEvent(character="Black Guard 1", stat="skills.spear", value=27, npc=True)
    seen = project(edit, PLAYER)
    assert seen.value is None and isinstance(seen.stat, Hidden) and "27" not in json.dumps(seen.to_dict())
    assert project(edit, GM) == edit
    assert project(EditEvent(character="Bjorn", stat="skills.spear", value=7, npc=False), PLAYER).value == 7
    condition = EditEvent(character="Black Guard 1", condition="yielded", set=True, npc=True)
    assert project(condition, PLAYER) == condition  # a condition is what the table sees


def test_old_payloads_read_back_and_word_as_before() -> None:
    """A stored action, read into its typed record and projected for the GM, words its Details as the mapping
    did (the tolerant reader loses nothing a describer reads)."""
    for system in ("ars_harn", "pendragon", "fading_suns"):
        for source, event in _events(system).items():
            if "outcome" not in event["payload"]:
                continue
            payload = event["payload"]
            record = read_event(event["kind"], payload)
            assert isinstance(record, ActionEvent), source
            old = action_embeds.action_details(payload["system"], event["kind"], payload.get("actor") or "?",
                                               payload.get("target"),
                                               tuple(StoredRoll.from_dict(r) for r in payload.get("rolls") or []),
                                               payload.get("outcome") or {}, payload.get("unused_dice") or {}, 5,
                                               typed_dice=payload.get("typed_dice") or {})
            assert _details(event["kind"], payload, GM) == json.dumps(old.to_dict(), ensure_ascii=False), source


# -- the tracker and a GM decision's figures ------------------------------------------------------------------


def _encounter(secret: bool) -> EncounterView:
    npc = CombatantView(character_id=1, name="Black Guard 1", owner_id=9, npc=True, initiative=19, condition="",
                        wounds=(), penalty=3, declaration={})
    knight = CombatantView(character_id=2, name="Dame Elaine", owner_id=2, npc=False, initiative=12, condition="",
                           wounds=(), penalty=1, declaration={})
    return EncounterView(id=1, guild_id=1, channel_id=1, system="ars-harn", round=1, turn=0, active=True,
                         combatants=(npc, knight), tracker_message_id=None, version=1, secret_npcs=secret,
                         initiative_rolls=(InitiativeRoll("Black Guard 1", 19, (7,), False),
                                           InitiativeRoll("Dame Elaine", 12, (3,), True)))


def test_the_tracker_shows_the_channel_no_npc_initiative_faces_or_penalty_under_secret_rolls() -> None:
    """Before: 'Black Guard 1 (initiative 19) ... penalty −3' on the pinned tracker: the NPC's figures."""
    public = _encounter(secret=True).public
    tracker = json.dumps(encounter_embeds.tracker(public).to_dict(), ensure_ascii=False)
    rolled = json.dumps(encounter_embeds.initiative(public).to_dict(), ensure_ascii=False)
    assert "Black Guard 1" in tracker and "19" not in tracker and "\u22123" not in tracker
    assert "Dame Elaine** (12)" in tracker and "\u22121" in tracker  # the player's own figures stay
    assert "19" not in rolled and "rolled 7" not in rolled and "typed 3" in rolled
    gm = encounter_embeds.gm_initiative(_encounter(secret=True))
    assert gm is not None and "19" in json.dumps(gm.to_dict())
    assert _encounter(secret=False).public == _encounter(secret=False)
    assert project_encounter(_encounter(secret=True), GM) == _encounter(secret=True)


def test_the_gm_gets_the_figures_a_secret_decisions_public_line_left_out() -> None:
    """Leak 2's other half: the public line drops the hit points, and the GM channel (or the GM) gets them."""
    payload = _events("pendragon")["playground-first-session-pendragon.txt #11"]["payload"]
    report = action_report("pendragon", "gm_decide", "Bandit 1", None, payload["outcome"], event_id=11, secret=True)
    assert report.hides  # so publish_report sends the GM report_details, though the decision rolled no dice
    open_report = action_report("pendragon", "gm_decide", "Bandit 1", None, payload["outcome"], event_id=11)
    assert not open_report.hides
    ars = _events("ars_harn")
    decided = next(e["payload"] for e in ars.values() if e["kind"] == "gm_decide")
    nothing_kept = action_report("ars-harn", "gm_decide", "Bandit 1", None, decided["outcome"], event_id=12,
                                 secret=True)
    assert not nothing_kept.hides  # no figure behind an ars-harn decision: no second message for the GM


def test_a_pendragon_npcs_rest_and_treatment_tell_the_channel_no_hit_points() -> None:
    """Before: "Morgan rests 1 week: heals 0 hit points, loses 3 to deterioration" in the channel (the planted
    harness's dump): the NPC's hit points, which the table keeps behind the screen."""
    rest = RestOutcome(weeks=1, weeks_counted=1, healed=0, lost=3, chirurgery_needed=True, hit_points=103,
                       wounds_left=1)
    aid = FirstAidOutcome(healed=4, hit_points=110)
    for action, outcome, gone in (("rest", rest, ("hit point", "loses", "103")), ("first_aid", aid, ("4", "110"))):
        report = action_report("pendragon", action, "Morgan", None, outcome, event_id=9, secret=True)
        public = json.dumps(action_embeds.action(report).to_dict(), ensure_ascii=False)
        assert "Morgan" in public and not any(figure in public.replace("#9", "") for figure in gone), public
        whole = json.dumps(action_embeds.report_details(report).to_dict(), ensure_ascii=False)
        assert all(figure in whole for figure in gone if figure != "loses"), whole


def test_an_ars_harn_wound_on_a_secret_npc_shows_a_player_its_severity_never_its_injury_levels() -> None:
    """The lead's ruling: "G5, grievous" is the wound in the system's words and stays; "5 injury levels" and
    "Bandit 2 now has 9 injury levels" are the NPC's figures, as the tracker hides its penalty."""
    payload = {**_events("ars_harn")["ars_harn_events.txt #22"]["payload"], "target_secret": True}
    seen = _details("attack", payload, PLAYER)
    assert "G5" in seen and "grievous" in seen
    assert "injury level" not in seen
    gm = _details("attack", payload, GM)
    assert "5 injury levels" in gm and "now has 9 injury levels" in gm
    inflict = {**next(e for e in _events("ars_harn").values() if e["kind"] == "inflict")["payload"], "secret": True}
    assert inflict["outcome"]["injury"]["levels"] and inflict["outcome"]["injury_levels"]
    record = read_event("inflict", inflict)
    assert isinstance(record, ActionEvent)
    outcome: Any = project(record, PLAYER).outcome
    assert outcome.wounding.injury.code == "G4" and outcome.wounding.injury.levels == 0
    assert outcome.injury_levels is None
