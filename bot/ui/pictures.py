"""Body diagrams on Discord messages: the PNG as a file, shown by the embed (image or thumbnail)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence

import discord

from bot.systems.pictures import WoundPicture
from bot.ui import diagram

log = logging.getLogger(__name__)


def attach(embed: discord.Embed, png: diagram.Png, *, thumbnail: bool = False) -> discord.File:
    """The file to send with ``embed``, which now shows it (large, or as the small corner picture)."""
    url = f"attachment://{png.filename}"
    if thumbnail:
        embed.set_thumbnail(url=url)
    else:
        embed.set_image(url=url)
    return discord.File(io.BytesIO(png.data), filename=png.filename, description="Body diagram of the wounds")


async def body_picture(picture: WoundPicture | None) -> diagram.Png | None:
    """The full diagram, drawn off the event loop (a cached state costs nothing); None when there is none
    or it cannot be drawn: the words go out all the same."""
    if picture is None:
        return None
    try:
        return await asyncio.to_thread(diagram.render, picture)
    except Exception:  # a drawing fault must never cost the player the answer
        log.exception("cannot draw the %s body diagram", picture.system)
        return None


async def party_picture(pictures: Sequence[WoundPicture]) -> diagram.Png | None:
    if not pictures:
        return None
    try:
        return await asyncio.to_thread(diagram.party, pictures)
    except Exception:
        log.exception("cannot draw the party's diagrams")
        return None


def attack_thumbnail(embed: discord.Embed, picture: WoundPicture | None) -> discord.File | None:
    """The hit's small picture on an action's embed: drawn inline, it is a fraction of a millisecond."""
    if picture is None:
        return None
    try:
        return attach(embed, diagram.thumbnail(picture), thumbnail=True)
    except Exception:
        log.exception("cannot draw the %s attack thumbnail", picture.system)
        return None
