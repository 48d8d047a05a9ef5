"""The GM screen on sheets (issue 31): /character show, /injuries, the party and the export go through the
projection (``project_character``); the GM's look at an NPC under secret rolls is answered to the GM alone, and a
player reads an NPC's wounds in words, never in figures (Pendragon's hit points: the blow less the secret armour)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.errors import PermissionDenied
from bot.services.projection import project_character
from bot.services.results import CharacterView
from bot.services.viewer import Seat, Viewer
from bot.systems.pictures import HitPointWounds
from bot.ui import character_embeds
from rules.model import SheetSummary, Wound
from tests.conftest import GM_ROLE

SHEETS = Path(__file__).resolve().parents[2] / "content" / "examples" / "sheets"
# Morgan, a Pendragon NPC, after a blow of 120 against his armour 43: a major wound of 77 hit points
MORGAN = (SHEETS / "gawain.yaml").read_bytes().replace(b"Sir Gawain", b"Morgan") + \
    b"wounds: [{index: 1, amount: 77, remaining: 77, major: true}]\n"
GM = Viewer(Seat.GM, secret_rolls=True, user_id=1)
PLAYER = Viewer(Seat.PLAYER, secret_rolls=True, user_id=2)


async def _table(services: Any, manager: Any, gm: Any, secret: bool = True) -> None:
    await services.setup.set_system(manager, "pendragon")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.import_sheet(gm, "morgan.yaml", MORGAN, npc=True)
    await services.setup.set_secret_rolls(manager, secret)


def _words(view: CharacterView) -> str:
    return str(character_embeds.character(view).to_dict()) + str(character_embeds.injuries(view).to_dict())


async def test_the_gms_look_at_an_npc_under_secret_rolls_answers_the_gm_alone(services: Any, manager: Any,
                                                                               gm: Any, alice: Any) -> None:
    """Before: the GM's /character show of an NPC answered in the channel with its whole sheet (every figure)."""
    await _table(services, manager, gm)
    seen = await services.characters.get(gm, "Morgan")
    assert seen.private and not seen.behind_screen and "77 hit points" in _words(seen)
    assert (await services.injuries.list(gm, "Morgan")).private
    player = await services.characters.get(alice, "Morgan")  # what the channel may read too: answered there
    assert player.behind_screen and not player.private


async def test_in_the_open_the_gms_look_at_an_npc_is_the_tables(services: Any, manager: Any, gm: Any) -> None:
    await _table(services, manager, gm, secret=False)
    assert not (await services.characters.get(gm, "Morgan")).private


async def test_a_player_reads_a_pendragon_npcs_wound_in_words_never_its_hit_points(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    """Before: "Wounds (1): `1` major wound, 77 hit points" in a player's /character show and /injuries (and in the
    body diagram's hit-point bar): the blow less the NPC's secret armour."""
    await _table(services, manager, gm)
    for view in (await services.characters.get(alice, "Morgan"), await services.injuries.list(alice, "Morgan")):
        words = _words(view)
        assert "major wound" in words and "77" not in words and "hit point" not in words, words
        assert view.picture is None  # the bar draws the hit points
    with pytest.raises(PermissionDenied, match="behind the screen"):
        await services.characters.export(alice, "Morgan")


def test_an_npcs_wounds_behind_the_screen_keep_their_words_and_lose_their_figures() -> None:
    wound = Wound(index=1, location="thorax", code="S3", severity="serious", levels=3, bleeding=True, penalty=3,
                  note="-1 init, treated", next_healing=4)
    picture = HitPointWounds("pendragon", "Morgan", 183, 106, 40, 15, 14, ())
    view = CharacterView(id=1, name="Morgan", system="ars-harn", owner_id=1, npc=True, sheet={"name": "Morgan"},
                         summary=SheetSummary("Morgan", (("STR", "17"),), (("sword", "57"),), (wound,), "ok"),
                         version=1, picture=picture)
    seen = project_character(view, PLAYER)
    assert seen.summary is not None and seen.summary.stats == () and seen.summary.equipment == ()
    assert seen.wounds == (Wound(index=1, location="thorax", code="S3", severity="serious", bleeding=True,
                                 note="treated"),)
    assert seen.picture is None and seen.behind_screen
    assert project_character(view, GM) is view
    assert project_character(replace(view, npc=False), PLAYER).wounds == (wound,)  # a PC is never behind it

