"""ORM rows to views (bot/services/snapshots.py): a character's picture, as its summary, is the engine's read of
the sheet remembered by the sheet's content: an unchanged sheet is not read again, a changed one is."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.db.models import Character
from bot.services import snapshots
from bot.services.sheet_reads import SheetReads
from bot.services.wound_state import wound_picture


async def test_a_characters_picture_is_read_once_per_sheet_content(table: Any, gm: Any, monkeypatch: Any) -> None:
    drawn: Counter[str] = Counter()

    def counted(system: str, sheet: Any, *args: Any) -> Any:
        drawn[sheet["name"]] += 1
        return wound_picture(system, sheet, *args)

    monkeypatch.setattr(snapshots, "wound_picture", counted)
    monkeypatch.setattr(table.runtime, "sheet_reads", SheetReads())  # none read before this test
    first = {v.name: v.picture for v in await table.campaign.roster(gm, None)}
    assert drawn == {"Aldo": 1, "Brun": 1}
    assert {v.name: v.picture for v in await table.campaign.roster(gm, None)} == first
    assert drawn == {"Aldo": 1, "Brun": 1}
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
    await table.campaign.roster(gm, None)
    assert drawn["Brun"] == 2  # its sheet changed: read again (by the attack's answer or the roster), once
    now = drawn.copy()
    await table.campaign.roster(gm, None)
    assert drawn == now


async def test_a_view_holds_its_own_copy_of_the_sheet_unless_told_the_row_is_a_reads(table: Any) -> None:
    row = Character(id=7, guild_id=1, name="Brun", name_key="brun", system="fake", owner_id=12, npc=False,
                    sheet={"name": "Brun", "str": 11, "wounds": []}, version=3)
    catalog = table.runtime.catalogs.catalog("fake")
    own = snapshots.character_view(table.runtime, row, catalog)
    assert own.sheet == row.sheet and own.sheet is not row.sheet and own.sheet["wounds"] is not row.sheet["wounds"]
    shared = snapshots.character_view(table.runtime, row, catalog, False)  # the web roster's: a read's rows
    assert shared.sheet is row.sheet and (shared.summary, shared.picture, shared.version) == (own.summary,
                                                                                             own.picture, 3)
