"""What a message carries is the database's record (issue 38, bot/services/decision_messages.py): the GM's buttons
of the decisions still open on it, in the order they were asked, and the Details of the action it answers. A new
process (a restart) reads the same, so a press after a restart leaves on its message what it would have before."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot.services.decision_messages import MessageButtons
from tests.conftest import CHANNEL
from tests.services.test_gm_rolls import _sir_owain_against

ANSWER, UNDO_POST = 9001, 9002  # the messages' ids (Discord's snowflakes)
BLOW = 8001  # the /attack's interaction


async def _blow(services: Any, manager: Any, gm: Any, alice: Any) -> Any:
    """Pendragon, rolls made by the GM: Sir Owain's blow leaves Bandit 1 owing a knockdown and a major wound roll,
    both asked on the blow's answer (as the answer log records it: the decisions and the event on that message)."""
    await _sir_owain_against(services, manager, gm, alice, "bandit")
    blow = await services.combat.attack(alice, "Bandit 1", "sword", {},
                                        "attacker=14 defender=15 damage=4,4,3,3,2", attacker="Sir Owain")
    assert [p.kind for p in blow.pending] == ["roll:knockdown", "roll:major_wound"]
    await services.combat.set_decision_message(alice, [p.id for p in blow.pending], ANSWER)
    await services.runtime.answers.mark_events({blow.event_id: ANSWER})
    return blow


async def test_a_press_after_a_restart_leaves_on_its_message_what_it_would_have_before(
        make_services: Any, manager: Any, gm: Any, alice: Any) -> None:
    services = make_services()
    blow = await _blow(services, manager, gm, alice)
    knockdown, major = (replace(p, message_id=ANSWER) for p in blow.pending)
    before = await services.combat.buttons_on(gm, CHANNEL, [ANSWER])
    assert before == {ANSWER: MessageButtons((knockdown, major), blow.event_id)}

    restarted = make_services(seed=3)  # a new process: nothing of the last one's memory
    assert await restarted.combat.buttons_on(gm, CHANNEL, [ANSWER]) == before
    pressed = await restarted.combat.press(gm, knockdown.id, "dice", "13", ANSWER)
    assert pressed.report.decided is not None and pressed.report.decided.id == knockdown.id
    assert pressed.left == MessageButtons((major,), blow.event_id)  # the major wound's buttons stay, and Details
    last = await restarted.combat.press(gm, major.id, "roll", None, ANSWER)
    assert last.left == MessageButtons((), blow.event_id)  # Details alone


async def test_the_message_undo_posts_with_decisions_opened_again_has_no_details(
        make_services: Any, manager: Any, gm: Any, alice: Any) -> None:
    services = make_services()
    blow = await _blow(services, manager, gm, alice)
    # decisions asked by the blow, carried by a message that does not answer it (as /undo's is)
    await services.combat.set_decision_message(alice, [blow.pending[1].id], UNDO_POST)
    found = await services.combat.buttons_on(gm, CHANNEL, [ANSWER, UNDO_POST, 9003])
    assert found == {ANSWER: MessageButtons((replace(blow.pending[0], message_id=ANSWER),), blow.event_id),
                     UNDO_POST: MessageButtons((replace(blow.pending[1], message_id=UNDO_POST),), None)}
    assert await services.combat.buttons_on(replace(gm, guild_id=gm.guild_id + 1), CHANNEL, [ANSWER]) == {}


async def test_a_press_before_its_message_is_recorded_leaves_the_other_open_decisions_their_buttons(
        make_services: Any, manager: Any, gm: Any, alice: Any, monkeypatch: Any) -> None:
    """The answer is sent, then the answer log writes which message carries its decisions: a GM quick enough presses
    one in between. The press must not read the message as carrying nothing (the other roll's buttons and Details
    would leave it while that roll is still open)."""
    services = make_services()
    await _sir_owain_against(services, manager, gm, alice, "bandit")
    blow = await services.combat.attack(replace(alice, interaction_id=BLOW), "Bandit 1", "sword", {},
                                        "attacker=14 defender=15 damage=4,4,3,3,2", attacker="Sir Owain")
    knockdown, major = blow.pending
    runner = services.runtime.transactions
    held, real = asyncio.Event(), runner.transact

    async def answer_log_held(channel_id: int | None, work: Any) -> Any:
        if channel_id is None:  # the answer log's write (a command's is in its channel)
            await held.wait()
        return await real(channel_id, work)

    monkeypatch.setattr(runner, "transact", answer_log_held)
    services.runtime.answers.posted(BLOW, ANSWER)  # the answer is sent (bot/ui/publish.py: reply)
    posting = asyncio.ensure_future(services.combat.set_decision_message(alice, [knockdown.id, major.id], ANSWER))
    pressing = asyncio.ensure_future(services.combat.press(gm, knockdown.id, "dice", "13", ANSWER))
    await asyncio.sleep(0.05)
    assert not pressing.done()  # it waits for the write of what its message carries
    held.set()
    await posting
    pressed = await pressing
    assert pressed.report.decided is not None and pressed.report.decided.id == knockdown.id
    assert pressed.left == MessageButtons((replace(major, message_id=ANSWER),), blow.event_id)


async def test_a_press_on_a_message_no_decision_names_leaves_its_buttons_alone_until_recovery_places_them(
        make_services: Any, manager: Any, gm: Any, alice: Any) -> None:
    """The answer was sent, and the process stopped before the write of its message (nothing waits for it now): the
    database cannot say what the message carries, so the press says nothing of its buttons (the UI leaves them).
    Once the restart's recovery finds the answer in the channel, its event's decisions are on it."""
    services = make_services()
    await _sir_owain_against(services, manager, gm, alice, "bandit")
    blow = await services.combat.attack(alice, "Bandit 1", "sword", {},
                                        "attacker=14 defender=15 damage=4,4,3,3,2", attacker="Sir Owain")
    knockdown, major = blow.pending
    restarted = make_services(seed=3)
    pressed = await restarted.combat.press(gm, knockdown.id, "roll", None, ANSWER)
    assert pressed.report.decided is not None and pressed.left is None
    await restarted.runtime.answers.mark_events({blow.event_id: ANSWER})  # recover: the answer found in the channel
    assert await restarted.combat.buttons_on(gm, CHANNEL, [ANSWER]) == {
        ANSWER: MessageButtons((replace(major, message_id=ANSWER),), blow.event_id)}
    last = await restarted.combat.press(gm, major.id, "roll", None, ANSWER)
    assert last.left == MessageButtons((), blow.event_id)
