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
    for setting in get_engine(system).rulings:
        if setting.name == "auto_rolls":  # shown once, as the rolls switch below
            assert "`auto_rolls`" not in text
            continue
        assert f"`{setting.name}` = " in text, setting.name
        assert setting.description in text, setting.description
    assert "\u2026" not in text  # nothing clipped
    table.check_clean()


ROLLS = {"ars-harn": "Shock and kill rolls", "pendragon": "Knockdown, major wound and fall rolls",
         "fading-suns": "Wound-effect, STUMBLE and FUMBLE rolls"}


@pytest.mark.parametrize("system", ["ars-harn", "pendragon", "fading-suns"])
async def test_the_rolls_switch_names_what_each_system_rolls_and_shows_once(table: Any, system: str) -> None:
    """Issue 22 §3: Pendragon and Fading Suns have no shock and kill rolls; the switch showed twice."""
    await table.setup(system)
    switched = table.text(await table.run("setup rolls", {"mode": "gm"}, user=table.manager))
    assert f"{ROLLS[system]} now wait for the GM's buttons" in switched, switched
    shown = await table.run("setup show", user=table.manager)
    assert table.value(shown, ROLLS[system]) == "wait for the GM"
    if system != "ars-harn":
        assert "hock and kill" not in table.text(shown)
    # a ruling set the old way shows in the one switch, and the switch clears it
    await table.run("setup rolls", {"mode": "auto"}, user=table.manager)
    await table.run("setup ruling", {"name": "auto_rolls", "value": "false"}, user=table.manager)
    assert table.value(await table.run("setup show", user=table.manager), ROLLS[system]) == "wait for the GM"
    await table.run("setup rolls", {"mode": "auto"}, user=table.manager)
    assert table.value(await table.run("setup show", user=table.manager), ROLLS[system]) == "made by the bot"
    table.check_clean()
