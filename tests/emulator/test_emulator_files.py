"""Files a bot sends: multipart callbacks, follow-ups and edits, embed images, and Discord's file limits."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from PIL import Image

from emulator import Emulator
from emulator.limits import FILES_MAX, REQUEST_BYTES_MAX
from emulator.testing import World, emu_fixture, running_bot, world_fixture  # noqa: F401


def png(width: int, height: int, colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


class FileBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.errors: list[BaseException] = []
        tree = self.tree

        @tree.error
        async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            self.errors.append(getattr(error, "original", error))

        @tree.command(description="An embed showing an attached picture")
        async def picture(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Wounds").set_image(url="attachment://body.png")
            embed.set_thumbnail(url="attachment://missing.png")
            await interaction.response.send_message(embed=embed, file=discord.File(io.BytesIO(png(30, 40)), "body.png"))

        @tree.command(description="Defer, answer with two files, then swap one")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            files = [discord.File(io.BytesIO(png(8, 8)), "a.png"), discord.File(io.BytesIO(b"notes"), "b.txt")]
            message = await interaction.edit_original_response(content="two files", attachments=files)
            kept = [a for a in message.attachments if a.filename == "b.txt"]
            await interaction.edit_original_response(
                content="swapped", attachments=[*kept, discord.File(io.BytesIO(png(9, 9, "blue")), "c.png")])

        @tree.command(description="A file over Discord's request size")
        async def huge(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            blob = io.BytesIO(b"\0" * (REQUEST_BYTES_MAX + 1))
            await interaction.followup.send("too big", file=discord.File(blob, "huge.bin"))


@pytest_asyncio.fixture
async def bot(emu: Emulator, world: World) -> AsyncIterator[FileBot]:
    async with running_bot(emu, FileBot()) as client:
        await client.tree.sync()
        yield client


@pytest.mark.usefixtures("bot")
async def test_an_embed_image_names_its_attachment(emu: Emulator, world: World) -> None:
    message = await (await emu.slash("picture", user=world.alice, channel=world.general)).message()
    shown = message.embed_image()
    assert shown is not None and shown is message.attachment("body.png") and shown.image_size == (30, 40)
    assert message.embeds[0]["image"] == {"url": shown.url, "proxy_url": shown.url, "width": 30, "height": 40,
                                          "content_type": "image/png"}
    # A name the message has no file for stays as sent: Discord shows no picture there.
    assert message.embeds[0]["thumbnail"] == {"url": "attachment://missing.png"}
    async with aiohttp.ClientSession() as http, http.get(shown.url) as reply:
        assert await reply.read() == shown.data
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_followups_and_edits_carry_files(emu: Emulator, world: World) -> None:
    handle = await emu.slash("later", user=world.alice, channel=world.general)
    await handle.wait_events("edit", 2)
    message = handle.original
    assert message is not None and message.content == "swapped"
    assert [(a.filename, a.image_size) for a in message.attachments] == [("b.txt", None), ("c.png", (9, 9))]
    assert message.attachment("b.txt").data == b"notes"
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_a_request_over_25_mib_is_refused_with_413(emu: Emulator, world: World, bot: FileBot) -> None:
    await emu.slash("huge", user=world.alice, channel=world.general)
    await emu.wait_until(lambda: bot.errors, what="the huge follow-up to fail")
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and (error.status, error.code) == (413, 40005)


async def test_more_than_ten_files_are_refused(emu: Emulator, world: World) -> None:
    # discord.py refuses an 11th file itself, so send the request by hand.
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "many"}), content_type="application/json")
    for index in range(FILES_MAX + 1):
        form.add_field(f"files[{index}]", b"x", filename=f"{index}.txt")
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession() as http:
        url = f"{emu.api_base}/channels/{world.general.id}/messages"
        async with http.post(url, data=form, headers=headers) as reply:
            assert reply.status == 400
            body = await reply.json()
    assert body["code"] == 50035 and body["errors"]["attachments"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert emu.messages(world.general) == []
