"""Wounds as a picture through Discord: /injuries, /character show and /injuries party attach a body diagram
that the embed shows, within Discord's limits; an attack that wounds shows a small one; the playground saves it
to a folder."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from bot.playground.session import Playground
from bot.ui import diagram
from bot.ui.diagram import FULL_SCALE, PARTY_SCALE
from content.diagram import FigureLayout, diagram_layout, rgb
from emulator import Message
from emulator.limits import FILES_MAX, REQUEST_BYTES_MAX


def shown_picture(message: Message, filename: str) -> Image.Image:
    """The one file on the message, the one the embed shows, within Discord's limits."""
    [attachment] = message.attachments
    assert attachment.filename == filename and message.embed_image() is attachment
    assert len(message.attachments) <= FILES_MAX and len(attachment.data) < min(REQUEST_BYTES_MAX, 100 * 1024)
    assert attachment.content_type == "image/png"
    return Image.open(io.BytesIO(attachment.data)).convert("RGB")


async def test_injuries_and_the_sheet_show_the_wounded_body(table: Any) -> None:
    await table.setup("ars-harn")
    await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                         "weapons": "Broadsword"}, user=table.alice)
    await table.run("character create", {"name": "Astrid", "stats": "str=1 sta=1 dex=1 qik=0"}, user=table.bob)
    await table.run("encounter start")
    await table.run("encounter npcs", {"template": "bandit", "count": 1})
    only_npcs = await table.run("injuries", {"party": True})  # nobody's own yet: the server's party instead
    assert only_npcs.embeds[0]["footer"]["text"] == "2 player characters on this server"
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    hit = await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid",
                                     "dice": "attack=5 defense=3 location=85 "
                                             "defender_shock=8 defender_stumble=8"}, user=table.alice)
    assert "left thigh" in hit.embeds[0]["description"]
    # The hit's small picture: the bandit's body, the new wound on the left thigh outlined.
    [small] = hit.attachments
    assert hit.embed_image(kind="thumbnail") is small and small.filename == "hit.png"
    thumb = Image.open(io.BytesIO(small.data)).convert("RGB")
    assert thumb.height <= 220 and diagram.HIGHLIGHT in {c for _, c in thumb.getcolors(4096) or []}
    miss = await table.run("attack", {"target": "Bjorn", "attacker": "Bandit 1", "aspect": "edge", "aim": "mid",
                                      "dice": "attack=2 defense=8"})
    assert "**Miss**" in table.text(miss) and miss.attachments == [] and "thumbnail" not in miss.embeds[0]

    injuries = await table.run("injuries", {"character": "Bandit 1"})
    assert "left Thigh: **S2**" in table.text(injuries)  # the words stay as they were
    image = shown_picture(injuries, "wounds.png")
    layout = diagram_layout("ars-harn")
    assert isinstance(layout, FigureLayout)
    serious = rgb(layout.severities[1].colour)

    def colour(key: str) -> tuple[int, int, int]:
        x, y = layout.locations[key].probe
        found = image.getpixel((round(x * FULL_SCALE), round(y * FULL_SCALE)))
        assert isinstance(found, tuple)
        return found[0], found[1], found[2]

    assert colour("left_thigh") == serious and colour("right_thigh") != serious

    sheet = await table.run("character show", {"name": "Bandit 1"})
    assert shown_picture(sheet, "wounds.png").size == image.size

    # The GM's view between fights: the player characters of the encounter (Bjorn), then of the server.
    party = await table.run("injuries", {"party": True})
    assert "**Bjorn** \u00b7 no wounds" in party.embeds[0]["description"] and "Astrid" not in table.text(party)
    assert party.embeds[0]["footer"]["text"] == "1 player character in this encounter"
    one = shown_picture(party, "party.png")
    await table.run("encounter end")
    everyone = await table.run("injuries", {"party": True})
    assert "Astrid" in table.text(everyone) and "Bandit 1" not in table.text(everyone)
    assert everyone.embeds[0]["footer"]["text"] == "2 player characters on this server"
    assert shown_picture(everyone, "party.png").width > one.width
    assert round(layout.side_column * PARTY_SCALE) < one.width


async def test_the_playground_saves_the_picture_and_prints_where(tmp_path: Path) -> None:
    out = io.StringIO()
    playground = Playground(out, echo=True, files_dir=tmp_path / "files")
    async with playground.running():
        for line in ("/setup system system:fading-suns", '/character create name:Erian stats:"dex=6"',
                     "/injuries character:Erian"):
            assert await playground.run_line(line)
    saved = tmp_path / "files" / "001-wounds.png"
    assert f"[file] {saved} (" in out.getvalue() and "(picture: wounds.png)" in out.getvalue()
    assert Image.open(saved).format == "PNG" and playground.errors == 0
