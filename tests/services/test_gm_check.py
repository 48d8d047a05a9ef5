"""One GM check per press (issue 38): ``CombatService.decide`` seats the presser with ``viewer_of`` in its own
transaction, before it reads the decision, and reads nothing before that transaction; a form's press is checked by
``check_gm``. Counts, never timings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.errors import NotFound, NotGM
from tests.conftest import GUILD
from tests.services.test_command_reads import selects, settings_gets

KILL = "attack=0 location=40"  # Aldo's blow fails Brun's kill roll: the GM decides life or death
ANSWER = 9001  # the message carrying its buttons


def counted(runtime: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often ``runtime`` reads (outside a transaction) and transacts from now on."""
    calls = {"read": 0, "transact": 0}

    def counting(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        async def call(*args: Any) -> Any:
            calls[name] += 1
            return await real(*args)
        return call

    for name in calls:
        monkeypatch.setattr(runtime, name, counting(name, getattr(runtime, name)))
    return calls


async def test_a_gm_press_is_one_transaction_that_seats_the_presser_once(
        table: Any, alice: Any, gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (kill,) = (await table.combat.attack(alice, "Brun", "Sword", dice_text=KILL)).pending
    calls = counted(table.runtime, monkeypatch)
    with settings_gets(monkeypatch) as settings:
        decided = await table.combat.decide(gm, kill.id, "death")
    assert decided.decided is not None and decided.decided.choice == "death"
    assert calls == {"read": 0, "transact": 1}  # no peek at the decision before the write
    assert settings == [GUILD]  # the GM role read once, in that transaction


async def test_a_press_on_its_message_reads_what_the_message_carries_in_one_select(
        table: Any, alice: Any, gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decisions on the pressed message and the event each answers, in the press's transaction: one SELECT
    (by ix_pending_decisions_message_id: tests/services/test_query_plans.py), not one by the channel and one of
    the events."""
    (kill,) = (await table.combat.attack(alice, "Brun", "Sword", dice_text=KILL)).pending
    await table.combat.set_decision_message(alice, [kill.id], ANSWER)
    calls = counted(table.runtime, monkeypatch)
    with selects(table.db) as seen:
        pressed = await table.combat.press(gm, kill.id, "death", None, ANSWER)
    assert pressed.left is not None and pressed.left.decisions == ()
    assert calls == {"read": 0, "transact": 1}
    assert seen == ["guild_settings", "pending_decisions", "pending_decisions events"]  # the GM role, the
    # decision, what its message carries


async def test_a_players_press_is_refused_before_the_decision_is_read(
        table: Any, alice: Any, gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (kill,) = (await table.combat.attack(alice, "Brun", "Sword", dice_text=KILL)).pending
    calls = counted(table.runtime, monkeypatch)
    with selects(table.db) as seen, pytest.raises(NotGM):
        await table.combat.decide(alice, kill.id, "death")
    assert calls == {"read": 0, "transact": 1}
    assert not [tables for tables in seen if "pending_decisions" in tables], seen
    assert (await table.combat.decide(gm, kill.id, "incapacitation")).decided is not None  # still open


async def test_a_decision_is_pressed_only_in_its_own_channel(table: Any, alice: Any, gm: Any) -> None:
    """Its buttons are posted there only; the press takes that channel's lock, so an id forged elsewhere is none."""
    (kill,) = (await table.combat.attack(alice, "Brun", "Sword", dice_text=KILL)).pending
    with pytest.raises(NotFound, match="no longer exists"):
        await table.combat.decide(replace(gm, channel_id=gm.channel_id + 1), kill.id, "death")
    assert (await table.combat.decide(gm, kill.id, "death")).decided is not None


async def test_the_press_that_opens_a_form_is_checked_by_the_services(table: Any, alice: Any, gm: Any,
                                                                      manager: Any) -> None:
    with pytest.raises(NotGM, match="only the GM"):
        await table.combat.check_gm(alice)
    await table.combat.check_gm(gm)  # the GM role
    await table.combat.check_gm(manager)  # a server manager
