"""Property tests through Discord: option values and button custom ids, sent as interactions through the
emulator to the real bot. Every one is answered within Discord's 3 s, exactly once, with a result or a
private refusal that changed nothing (one line, or a sheet's list of fields to fix), never the apology
for a bug.

Derandomized, with a fixed number of examples, so CI stays within budget; hypothesis prints the failing
example.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import InteractionHandle

ANY_TEXT = st.characters(blacklist_categories=())  # controls and lone surrogates included
SPICE = "0123456789dDvs+-=,.:;[]{}\"'\\ \t\n\x00\x07\u2028\ud800\udfffabcxyz"
OPTION_TEXT = st.one_of(st.text(ANY_TEXT, min_size=1, max_size=100), st.text(st.sampled_from(SPICE), min_size=1,
                                                                            max_size=100),
                        st.builds(lambda n: "9" * n, st.integers(1, 100)))
SETTINGS = settings(max_examples=30, derandomize=True, deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(autouse=True)
def _hypothesis_in_the_loop(stall_guard: Any) -> None:
    stall_guard.allow_the_tests_own_work()


async def counts(table: Any) -> tuple[int, ...]:
    return tuple([await table.count_rows(f"SELECT count(*) FROM {name}")
                  for name in ("characters", "events", "content_packs")])


def no_apology(handle: InteractionHandle) -> None:
    """Nothing the bot sent for ``handle`` is its apology for a bug."""
    sent = [m for m in (handle.original, *handle.followup_messages) if m is not None]
    assert not any(m.content.startswith("Sorry") for m in sent), [m.content for m in sent]


async def answered(table: Any, handle: InteractionHandle, before: tuple[int, ...]) -> None:
    message = await handle.message(3.0)
    assert handle.callback_count == 1
    assert handle.callback is not None and handle.callback.at - handle.created_at < 3.0
    no_apology(handle)
    if message.content.startswith("\u26a0"):
        # one line, or a sheet's report of every field to fix (the engines list them all, one per line)
        assert message.ephemeral and ("\n" not in message.content or "to fix:" in message.content), message.content
        assert await counts(table) == before


@SETTINGS
@given(command=st.sampled_from(["roll", "set-stat", "create"]), text=OPTION_TEXT,
       other=st.one_of(st.none(), st.text(ANY_TEXT, min_size=1, max_size=100)))
async def test_option_values_get_a_result_or_one_line(table: Any, command: str, text: str, other: str | None) -> None:
    if not await table.count_rows("SELECT count(*) FROM guild_settings"):
        await table.setup("ars-harn")
        await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1"}, user=table.alice)
    before = await counts(table)
    if command == "roll":
        handle = await table.send("roll", {"expression": text, **({"dice": other} if other else {})},
                                  user=table.alice)
    elif command == "set-stat":
        handle = await table.send("character set-stat", {"name": "Bjorn", "stat": other or "str", "value": text},
                                  user=table.alice)
    else:
        handle = await table.send("character create", {"name": text, **({"stats": other} if other else {})},
                                  user=table.bob)
    await answered(table, handle, before)


@settings(SETTINGS, max_examples=15)
@given(custom_id=st.one_of(
    st.builds(lambda digits, choice: f"grv:gm:{digits}:{choice}", st.text("0123456789", min_size=1, max_size=40),
              st.sampled_from(["death", "survival", "dice", "damage", "x"])),
    st.builds(lambda digits: f"grv:details:{digits}", st.text("0123456789", min_size=1, max_size=40))))
async def test_button_custom_ids_get_a_result_or_one_line(table: Any, custom_id: str) -> None:
    if not await table.count_rows("SELECT count(*) FROM guild_settings"):
        await table.setup("ars-harn")
    before = await counts(table)
    # a message of the bot's carrying the button, as an old or corrupted message would
    button = {"type": 2, "style": 2, "label": "Press", "custom_id": custom_id}
    posted = table.emu.state.create_message(table.combat, table.emu.bot, {
        "content": "Buttons", "components": [{"type": 1, "components": [button]}]})
    handle = await table.emu.click(posted, custom_id, user=table.gm)
    response = await handle.response(3.0)
    assert handle.callback_count == 1 and response.at - handle.created_at < 3.0
    if response.type == 6:  # deferred: the decision is looked up, then a line or the result follows
        await handle.followups(1, 3.0)
    elif response.type in (4, 5):  # a message: a private line, or the event's details
        message = await handle.message(3.0)
        assert message.ephemeral and ("\n" not in message.content or message.embeds), message.content
    no_apology(handle)
    assert await counts(table) == before
