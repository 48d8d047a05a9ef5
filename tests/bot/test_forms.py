"""bot.ui.forms: a submitted form's values are read from either shape Discord sends (a text input in an action
row, or in a label), and a form is sent unstored (discord.py's view store would lose it on a restart)."""

from __future__ import annotations

import discord

from bot.ui.forms import text_values, unstored


def test_text_values_reads_inputs_in_action_rows_and_in_labels() -> None:
    data = {"custom_id": "grv:gmv:1:dice", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "value", "value": "shock=7"}]},
        {"type": 18, "id": 2, "component": {"type": 4, "custom_id": "note", "value": "at the table"}},
        {"type": 10, "id": 3, "content": "not an input"},
    ]}
    assert text_values(data) == {"value": "shock=7", "note": "at the table"}
    assert text_values(None) == {} and text_values({"components": "junk"}) == {}


async def test_an_unstored_form_is_finished_so_send_modal_keeps_nothing() -> None:
    form = discord.ui.Modal(title="Dice", custom_id="grv:gmv:1:dice", timeout=None)
    form.add_item(discord.ui.TextInput(label="Faces", custom_id="value"))
    assert unstored(form).is_finished()
    assert form.to_dict()["custom_id"] == "grv:gmv:1:dice"
