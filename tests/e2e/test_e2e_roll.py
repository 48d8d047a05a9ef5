"""/roll through Discord: a number over a limit is one line naming the limit; a sum shows the constant it adds."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import field_value


async def test_roll_over_the_die_size_limit_names_the_limit(table: Any) -> None:
    line = await table.line("roll", {"expression": "1d1000000"}, user=table.alice)
    assert line == "\u26a0\ufe0f a die has between 2 and 1000 sides, not 1000000"


async def test_roll_shows_the_modifier_beside_the_dice(table: Any) -> None:
    message = await table.run("roll", {"expression": "3d6+2", "dice": "4,3,1"}, user=table.alice)
    assert "Total **10**" in table.text(message)
    assert field_value(message, "Dice").endswith("\n+2"), field_value(message, "Dice")
