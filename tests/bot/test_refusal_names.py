"""A refusal that names what a user typed (a character's name, stored before names were checked at entry; a file's
name; a value) shows it as typed in the line the user gets: never as markdown, a mention or a link. The engines'
and the services' lines are plain text, and the tree's handler shows each as the text it is (bot/ui/replies.refusal);
the markup a service's line holds on purpose (a channel's mention, a timestamp) alone shows as markup."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import text

from bot.db import repositories as repo
from bot.errors import UndoBlocked, UserError
from bot.services.retries import AlreadyApplied, applied_line
from bot.tree import user_message
from bot.ui import replies
from bot.ui.sheet_files import sheet_problems
from content import load_catalog
from rules.dice import DiceSource
from rules.errors import RulesError, RulingForbids, no_room_for_a_wound
from rules.model import Scenario
from rules.registry import get_engine
from tests.rules.pendragon.pendragon_support import sheet as knight
from tests.text_safety_checks import check_echoed, wrapped

HOSTILE = wrapped("**Bob** <@123> [x](http://e.example) @everyone <#5> ||s|| `c` # h")


def shown(error: BaseException) -> str:
    """The line the user gets for ``error`` (the tree's handler: ``user_message``, then ``error_line``)."""
    line = user_message(error)
    assert line is not None, f"{error!r} was taken for a bug"
    return replies.error_line(line)


def engine_refusal(system: str, action: dict[str, Any], attacker: dict[str, Any],
                   defender: dict[str, Any] | None = None) -> RulesError:
    scenario = Scenario(system, action, attacker, defender, {}, frozenset())
    with pytest.raises(RulesError) as refused:
        get_engine(system).resolve(scenario, DiceSource(), load_catalog(system))
    return refused.value


ARS = {"name": HOSTILE, "str": 0, "sta": 0, "dex": 0, "qik": 0}
SUNS = {"name": HOSTILE}

ENGINE_REFUSALS: dict[str, Callable[[], RulesError]] = {
    "pendragon: a dead patient": lambda: engine_refusal(
        "pendragon", {"type": "chirurgery"}, knight(HOSTILE, dead=True), knight("Sir Owain")),
    "pendragon: no such wound": lambda: engine_refusal(
        "pendragon", {"type": "first_aid", "wound": 3}, knight(HOSTILE, wounds=[{"amount": 6}]),
        knight("Sir Owain", skills={"first_aid": 12})),
    "pendragon: a dead knight rests": lambda: engine_refusal(
        "pendragon", {"type": "rest", "weeks": 1}, knight(HOSTILE, dead=True)),
    "fading suns: a dead character rests": lambda: engine_refusal(
        "fading-suns", {"type": "rest", "days": 1}, {**SUNS, "conditions": ["dead"]}),
    "fading suns: no wound to treat": lambda: engine_refusal(
        "fading-suns", {"type": "heal"}, {"name": "Doc", "wits": 5, "skills": {"remedy": 5}}, SUNS),
    "ars-harn: a dead defender": lambda: engine_refusal(
        "ars-harn", {"type": "attack", "aspect": "edge", "aim": "mid"}, {**ARS, "name": "Aldo"},
        {**ARS, "conditions": ["dead"]}),
    "ars-harn: no shock to roll": lambda: engine_refusal("ars-harn", {"type": "shock"}, ARS),
    "a sheet full of wounds": lambda: no_room_for_a_wound(HOSTILE, 60),
    "a ruling's refusal the bot has no words for": lambda: RulingForbids("some_ruling", f"{HOSTILE} may not"),
}


@pytest.mark.parametrize("case", ENGINE_REFUSALS)
def test_an_engines_refusal_shows_the_name_as_typed(case: str) -> None:
    check_echoed(shown(ENGINE_REFUSALS[case]()))


LINES: dict[str, Callable[[], str]] = {
    "a sheet's mistakes": lambda: sheet_problems(f"{HOSTILE} (sheet.yaml)", [f"field 'horse' holds {HOSTILE!r}"]),
    "a value not valid for its option": lambda: replies.error_line(replies.not_a_valid_value(HOSTILE)),
}


@pytest.mark.parametrize("case", LINES)
def test_a_line_worded_by_the_ui_shows_the_typed_text_as_typed(case: str) -> None:
    check_echoed(LINES[case](), expected=1)


def test_the_markup_a_services_line_holds_on_purpose_shows_and_a_name_stays_text() -> None:
    """/undo's line names the later change's channel (a mention) after the character's name; a name that holds the
    very same mention stays text."""
    line = shown(UndoBlocked(f"{HOSTILE}'s thorax wound was treated later (event #12 in <#5>): undo that first",
                             markup=("<#5>",)))
    assert line.endswith("(event \\#12 in <#5>): undo that first")
    check_echoed(line)
    when = datetime(2026, 12, 7, 20, 14, tzinfo=UTC)
    applied = shown(AlreadyApplied(applied_line("attack", HOSTILE, when), markup=(f"<t:{int(when.timestamp())}:t>",)))
    assert applied.endswith(f"was applied at <t:{int(when.timestamp())}:t>; see above.")
    check_echoed(applied)


# -- the services' refusals, on a character stored with a hostile name -------------------------------------------


async def hostile_aldo(table: Any) -> None:
    """Alice's Aldo renamed behind the services' back, as a name stored before names were checked at entry."""
    async with table.db.sessions() as session, session.begin():
        await session.execute(text("UPDATE characters SET name = :name, name_key = :key WHERE name = 'Aldo'"),
                              {"name": HOSTILE, "key": repo.name_key(HOSTILE)})
    if table.runtime.transactions.encounters is not None:  # the rename was made behind the cache's back
        table.runtime.transactions.encounters.clear()


SERVICE_REFUSALS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "someone else's character": lambda s, alice, bob: s.combat.attack(bob, "Brun", attacker=HOSTILE),
    "no character by the name typed": lambda s, alice, bob: s.characters.get(alice, HOSTILE + " the Second"),
    "an attack on oneself": lambda s, alice, bob: s.combat.attack(alice, HOSTILE, attacker=HOSTILE),
    "a treatment offered to the unwounded": lambda s, alice, bob: s.injuries.heal(
        bob, HOSTILE, "heal", {"healer": "Brun"}),
}


@pytest.mark.parametrize("backend", ["sqlite"])  # the words are the same on PostgreSQL
@pytest.mark.parametrize("case", SERVICE_REFUSALS)
async def test_a_services_refusal_shows_the_name_as_typed(case: str, backend: str, table: Any, alice: Any,
                                                          bob: Any) -> None:
    await hostile_aldo(table)
    with pytest.raises((UserError, RulesError)) as refused:
        await SERVICE_REFUSALS[case](table, alice, bob)
    check_echoed(shown(refused.value))
