"""Autocomplete on a slow database: Discord drops an autocomplete answer that comes over 3 s after the
keystroke, and an autocomplete cannot be deferred. Every autocomplete answers in time (the emulator refuses a
late callback with 10062, which fails the test): with what it last offered for that field, narrowed to what
is typed now, or nothing; once the database answers again, so does autocomplete."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from bot.ui import autocomplete
from emulator import InteractionHandle
from tests.e2e.slow_support import slow_reads

SLOW = 4.0  # seconds every database read takes while the database is slow: past Discord's 3


async def offered(handle: InteractionHandle) -> list[str]:
    return [c["value"] for c in await handle.choices()]


async def test_autocomplete_answers_in_time_when_the_database_is_slow(table: Any) -> None:
    await table.setup("ars-harn")
    for name in ("Bjorn", "Brunhild", "Aldo"):
        await table.run("character create", {"name": name, "stats": "str=2 sta=1 dex=1 qik=1"}, user=table.alice)

    def typing(command: str, options: dict[str, str], focused: str, user: Any = None) -> Awaitable[InteractionHandle]:
        return table.emu.autocomplete(command, options, focused=focused, user=user or table.alice,
                                      channel=table.combat)

    assert await offered(await typing("injuries", {"character": "B"}, "character")) == ["Bjorn", "Brunhild"]
    restore = slow_reads(table, SLOW)
    try:
        # the same field, typed further: what it offered last, narrowed; in time
        assert await offered(await typing("injuries", {"character": "Bj"}, "character")) == ["Bjorn"]
        # a field it never offered: nothing, in time (Bob has typed nothing anywhere yet)
        assert await offered(await typing("injuries", {"character": "A"}, "character", user=table.bob)) == []
        # an autocomplete that reads more than once (the acting character, then its sheet): in time too
        assert await offered(await typing("attack", {"target": "Aldo", "weapon": ""}, "weapon")) == []
    finally:
        restore()
    reads = autocomplete._memory(table.bot).reads
    await table.emu.wait_until(lambda: not reads or None, 2 * SLOW, "the slow reads to end")
    # the database answers again: so does autocomplete (the late reads were remembered, or read anew)
    assert await offered(await typing("injuries", {"character": "A"}, "character", user=table.bob)) == ["Aldo"]
