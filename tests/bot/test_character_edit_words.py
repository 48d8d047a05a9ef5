"""The one line a create, an import or an edit says in the channel (bot/ui/character_embeds.edit_line): what
changed, in words; of an NPC behind the GM's screen, only that the GM changed it; names typed by users as text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services.results import CharacterView, SheetEdit
from bot.ui.character_embeds import edit_line

VIEW = CharacterView(id=1, name="Sir Elyan", system="pendragon", owner_id=7, npc=False, sheet={"name": "Sir Elyan"},
                     summary=None, version=1)
NPC = replace(VIEW, name="Black Guard 1", npc=True)


@pytest.mark.parametrize(("view", "edit", "line"), [
    (VIEW, SheetEdit("created"), "Sir Elyan joins the roster"),
    (NPC, SheetEdit("created"), "Black Guard 1 joins the roster (NPC)"),
    (NPC, SheetEdit("imported", source="guard.yaml"), "Black Guard 1 joins the roster from guard.yaml (NPC)"),
    (VIEW, SheetEdit("replaced", source="elyan.yaml"), "Sir Elyan's sheet is replaced from elyan.yaml"),
    (NPC, SheetEdit("condition", field="out_of_fight", value=True), "Black Guard 1 yields: out of the fight"),
    (NPC, SheetEdit("condition", field="out_of_fight", value=False), "Black Guard 1 is back in the fight"),
    (NPC, SheetEdit("condition", field="stunned", value=True), "Black Guard 1 is now stunned"),
    (NPC, SheetEdit("condition", field="shock", value=False), "Black Guard 1 is out of shock"),
    (NPC, SheetEdit("condition", field="prone", value=True, changed=False),
     "Nothing changed: Black Guard 1 was already prone"),
    (VIEW, SheetEdit("added", field="spear", item_kind="weapon"), "Sir Elyan now carries a spear"),
    (VIEW, SheetEdit("added", field="axe", item_kind="weapon"), "Sir Elyan now carries an axe"),
    (VIEW, SheetEdit("added", field="chainmail", item_kind="armour"), "Sir Elyan now wears chainmail"),
    (VIEW, SheetEdit("removed", field="spear", item_kind="weapon"), "Sir Elyan no longer carries the spear"),
    (VIEW, SheetEdit("stat", field="skills.sword", value=17), "Sir Elyan's skills.sword is now 17"),
    (VIEW, SheetEdit("stat", field="dex", value=12, changed=False), "Sir Elyan's dex was 12 already: nothing changed"),
    (NPC, SheetEdit("stat", screened=True), "The GM changed Black Guard 1's sheet (behind the screen)"),
    (NPC, SheetEdit("added", screened=True), "The GM changed Black Guard 1's gear (behind the screen)"),
])
def test_an_edit_says_what_changed_in_one_line(view: CharacterView, edit: SheetEdit, line: str) -> None:
    assert edit_line(replace(view, edit=edit)) == line


def test_a_name_typed_with_markdown_stays_text() -> None:
    said = edit_line(replace(VIEW, name="**Bold** <@1>", edit=SheetEdit("created")))
    assert "**Bold**" not in said and "<@1>" not in said
