"""The pinned tracker in the game's words, one short line per combatant (issue 34, N5 and N6): every command edits
it, and its old lines ("Bjorn (initiative 4) — prone; 3 wounds; penalty −4; declared spent recover:prone") wrapped
to two each on a phone."""

from __future__ import annotations

from typing import Any

from bot.services.results import CombatantView, EncounterView
from bot.ui import encounter_embeds
from rules.model import TurnReadiness, Wound

PHONE = 40  # characters a 360-px phone shows on one line of an embed


def _wounds(count: int, penalty: int) -> tuple[Wound, ...]:
    return tuple(Wound(index=i, location="thorax", code="S2", severity="serious", penalty=-penalty)
                 for i in range(1, count + 1))


def _combatant(name: str, condition: str = "ok", wounds: int = 0, penalty: int = 0, initiative: int | None = 7,
               declaration: dict[str, Any] | None = None, readiness: TurnReadiness | None = None,
               npc: bool = False) -> CombatantView:
    return CombatantView(character_id=hash(name) % 1000, name=name, owner_id=5, npc=npc, initiative=initiative,
                         condition=condition, wounds=_wounds(wounds, penalty), penalty=-penalty * wounds,
                         declaration=declaration or {}, readiness=readiness or TurnReadiness())


def _view(*combatants: CombatantView, turn: int = 0, active: bool = True) -> EncounterView:
    return EncounterView(id=3, guild_id=1, channel_id=2, system="ars-harn", round=2, turn=turn, active=active,
                         combatants=combatants, tracker_message_id=None, version=1)


def _lines(view: EncounterView) -> list[str]:
    """The tracker's lines as a phone shows them (no bold marks)."""
    return (encounter_embeds.tracker(view).description or "").replace("**", "").splitlines()


def test_one_short_line_per_combatant_in_the_games_words() -> None:
    view = _view(
        _combatant("Bandit 1", declaration={"spent": "attack"}, initiative=11, npc=True),
        _combatant("Bandit 2", condition="incapacitated, awaiting GM decision", wounds=1, penalty=5, npc=True,
                   readiness=TurnReadiness("incapacitated", "is incapacitated", skipped=True),
                   declaration={"spent": "attack"}),
        _combatant("Bjorn", condition="prone", wounds=3, penalty=1, initiative=4,
                   declaration={"spent": "recover:prone"}),
        _combatant("Wulf", declaration={"spent": "ready:spear"}, initiative=3),
        turn=2)
    lines = _lines(view)
    assert lines == [
        "\u2003 1. Bandit 1 (11) \u00b7 acted",
        "\u23ed\ufe0f 2. Bandit 2 (7) \u00b7 incapacitated \u00b7 1 wound (\u22125)",
        "\u25b6\ufe0f 3. Bjorn (4) \u00b7 prone \u00b7 3 wounds (\u22123) \u00b7 acted",
        "\u2003 4. Wulf (3) \u00b7 acted",
    ]
    # a combatant with one thing to say fits a phone's line; one with three (prone, wounded, acted) wraps once at most
    # (before: 56 to 82 characters each, two lines on a phone)
    assert len(lines[0]) <= PHONE and len(lines[3]) <= PHONE
    assert all(len(line) <= PHONE + 10 for line in lines), [line for line in lines if len(line) > PHONE + 10]
    said = str(encounter_embeds.tracker(view).to_dict())
    for old in ("declared", "spent", "ready:spear", "recover:prone", "initiative", "penalty", "the turn is only",
                "cannot act", " ok", "awaiting"):
        assert old not in said, old


def test_whose_turn_says_what_a_combatant_who_cannot_act_may_still_do() -> None:
    """An ars-harn character in shock keeps the turn only to re-roll Shock: the Turn field says so in the engine's
    words (was a legend under the list: "the turn is only for what they still may do")."""
    shocked = TurnReadiness("shock", "is in shock: re-roll Shock (/shock) or be led off", skipped=False)
    view = _view(_combatant("Bjorn", condition="shock", readiness=shocked), _combatant("Bandit 1", npc=True))
    embed = encounter_embeds.tracker(view)
    assert _lines(view)[0] == "\u25b6\ufe0f 1. Bjorn (7) \u00b7 shock"
    assert [f.value for f in embed.fields if f.name == "Turn"] == [
        "Bjorn (<@5>) is in shock: re-roll Shock (/shock) or be led off"]
    assert len(_lines(view)) == 2  # no legend line


def test_a_declaration_reads_as_the_blow_planned_and_an_ended_fight_shows_no_round_plans() -> None:
    view = _view(_combatant("Bjorn", declaration={"aspect": "edge", "aim": "high", "target": "Bandit 1"}),
                 _combatant("Bandit 1", condition="ready", npc=True, declaration={"spent": "attack"}))
    assert _lines(view) == ["\u25b6\ufe0f 1. Bjorn (7) \u00b7 high edge \u2192 Bandit 1",
                            "\u2003 2. Bandit 1 (7) \u00b7 acted"]
    ended = _view(*view.combatants, active=False)
    assert _lines(ended) == ["\u2003 1. Bjorn (7)", "\u2003 2. Bandit 1 (7)"]
