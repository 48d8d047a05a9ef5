"""/setup show through Discord: every ruling of the server's system is there in full, within Discord's limits."""

from __future__ import annotations

from typing import Any

import pytest

from rules.registry import get_engine


@pytest.mark.parametrize("system", ["ars-harn", "pendragon", "fading-suns"])
async def test_setup_show_lists_every_ruling_uncut(table: Any, system: str) -> None:
    await table.setup(system)
    shown = await table.run("setup show", user=table.manager)
    assert shown.ephemeral
    text = table.text(shown)
    for setting in get_engine(system).settings:
        assert f"`{setting.name}` = " in text, setting.name
        assert setting.description in text, setting.description
    assert "\u2026" not in text  # nothing clipped
    table.check_clean()
