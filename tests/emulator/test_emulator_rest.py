"""Emulator REST details a bot meets beyond the happy path: multipart, fetches, webhooks' lifetimes, sharding."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from emulator import Emulator, Overwrite
from emulator.permissions import SEND_MESSAGES
from emulator.testing import World, build_world, emu_fixture, running_bot, running_emulator, world_fixture  # noqa: F401


class Seen:
    def __init__(self) -> None:
        self.errors: list[BaseException] = []
        self.results: dict[str, object] = {}
        self.messages: list[str] = []
        self.delay = 0.0


class ToolBot(commands.Bot):
    def __init__(self, seen: Seen, *, message_content: bool = True) -> None:
        intents = discord.Intents.default()
        intents.message_content = message_content
        super().__init__(command_prefix="!", intents=intents)
        self.seen = seen
        self._add_commands()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # skip discord.py's 5 s pause before re-IDENTIFY

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:
            self.seen.messages.append(message.content)
        await self.process_commands(message)

    def _add_commands(self) -> None:
        seen, tree = self.seen, self.tree

        @tree.error
        async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            seen.errors.append(getattr(error, "original", error))

        @self.command()
        async def ping(ctx: commands.Context[ToolBot]) -> None:
            await ctx.reply("pong")

        @tree.command(description="Answer with a file")
        async def upload(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("here", file=discord.File(io.BytesIO(b"hello"), "notes.txt"))

        @tree.command(description="Follow up before responding")
        async def early(interaction: discord.Interaction) -> None:
            await interaction.followup.send("too early")

        @tree.command(description="Follow up after the token expired")
        async def stale(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await asyncio.sleep(seen.delay)
            await interaction.followup.send("too late")

        @tree.command(description="Exercise the REST API")
        async def tools(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            assert interaction.guild is not None and interaction.channel_id is not None
            channel = await self.fetch_channel(interaction.channel_id)
            assert isinstance(channel, discord.TextChannel)
            guild = await self.fetch_guild(interaction.guild.id)
            member = await guild.fetch_member(interaction.user.id)
            user = await self.fetch_user(interaction.user.id)
            posted = await channel.send("draft", file=discord.File(io.BytesIO(b"d6,d6"), "dice.csv"))
            posted = await posted.edit(content="final", embed=discord.Embed(title="Roll"))
            await posted.add_reaction("🎲")
            await channel.send("second")
            history = [m.content async for m in channel.history(limit=10)]
            fetched = await channel.fetch_message(posted.id)
            data = await fetched.attachments[0].read()
            await fetched.delete()
            try:
                await self.fetch_channel(1234)
            except discord.NotFound as exc:
                seen.results["missing"] = exc.code
            seen.results.update(channel=channel.name, guild=guild.name, member=member.display_name,
                                user=user.name, history=history, attachment=data,
                                roles=[r.name for r in member.roles])
            await interaction.edit_original_response(content="done")

        @tree.command(description="Post in another channel")
        async def post(interaction: discord.Interaction, channel: discord.TextChannel, who: discord.Member,
                       role: discord.Role, odds: float = 0.5) -> None:
            target = self.get_channel(channel.id)
            assert isinstance(target, discord.TextChannel)
            await target.send(f"{who.mention} ({role.name}, {odds:.2f})")
            await interaction.response.send_message("posted", ephemeral=True)

        @tree.command(description="Look at a file")
        async def inspectfile(interaction: discord.Interaction, file: discord.Attachment) -> None:
            data = await file.read()
            await interaction.response.send_message(f"{file.filename}: {len(data)} bytes, {data.decode()}")

        @tree.context_menu(name="Inspect")
        async def inspect(interaction: discord.Interaction, member: discord.Member) -> None:
            await interaction.response.send_message(f"{member.display_name} has {len(member.roles)} roles")

        @tree.context_menu(name="Quote")
        async def quote(interaction: discord.Interaction, message: discord.Message) -> None:
            await interaction.response.send_message(f"> {message.content}")


@pytest_asyncio.fixture
async def seen() -> Seen:
    return Seen()


@pytest_asyncio.fixture
async def bot(emu: Emulator, world: World, seen: Seen) -> AsyncIterator[ToolBot]:
    async with running_bot(emu, ToolBot(seen)) as client:
        await client.tree.sync()
        yield client


async def test_json_replies_and_auth(emu: Emulator, world: World) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{emu.api_base}/users/@me", headers={"Authorization": f"Bot {emu.token}"}) as reply:
            # discord.py only parses JSON when the content type is exactly this.
            assert reply.status == 200 and reply.headers["Content-Type"] == "application/json"
            assert (await reply.json())["id"] == str(emu.bot.id)
        async with http.get(f"{emu.api_base}/users/@me", headers={"Authorization": "Bot nope"}) as reply:
            assert reply.status == 401
        async with http.get(f"{emu.api_base}/nowhere", headers={"Authorization": f"Bot {emu.token}"}) as reply:
            assert reply.status == 404 and (await reply.json())["code"] == 0
    assert emu.unhandled == ["GET /api/v10/nowhere"]
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()


@pytest.mark.usefixtures("bot")
async def test_rest_calls_a_bot_makes(emu: Emulator, world: World, seen: Seen) -> None:
    handle = await emu.slash("tools", user=world.alice, channel=world.combat)
    assert (await handle.message()).content == "done"
    assert seen.errors == []
    assert seen.results == {
        "missing": 10003,
        "channel": "combat",
        "guild": "Test Guild",
        "member": "Alice",
        "user": "alice",
        "history": ["second", "final"],
        "attachment": b"d6,d6",
        "roles": ["@everyone", "Player"],
    }
    [deleted] = [m for m in emu.messages(world.combat, include_deleted=True) if m.deleted]
    assert deleted.content == "final" and deleted.embed_titles == ["Roll"] and deleted.reactions == {"🎲": {emu.bot.id}}
    assert [r.code for r in emu.refusals] == [10003]


@pytest.mark.usefixtures("bot")
async def test_multipart_interaction_response(emu: Emulator, world: World) -> None:
    handle = await emu.slash("upload", user=world.alice, channel=world.general)
    message = await handle.message()
    [attachment] = message.attachments
    assert (message.content, attachment.filename, attachment.data) == ("here", "notes.txt", b"hello")
    async with aiohttp.ClientSession() as http, http.get(attachment.url) as reply:
        assert await reply.read() == b"hello"
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_followup_before_response_and_after_expiry(emu: Emulator, world: World, seen: Seen) -> None:
    await emu.slash("early", user=world.alice, channel=world.general)
    await emu.wait_until(lambda: seen.errors, what="the early follow-up to fail")
    emu.followup_lifetime = 0.1
    seen.delay = 0.2
    await emu.slash("stale", user=world.alice, channel=world.general)
    await emu.wait_until(lambda: len(seen.errors) == 2, what="the stale follow-up to fail")
    early, stale = seen.errors
    assert isinstance(early, discord.NotFound) and early.code == 10015
    assert isinstance(stale, discord.HTTPException) and stale.status == 401 and stale.code == 50027


@pytest.mark.usefixtures("bot")
async def test_context_menus_and_dm_interactions(emu: Emulator, world: World) -> None:
    inspect = await emu.user_command("Inspect", world.bob, user=world.gm, channel=world.general)
    assert (await inspect.message()).content == "Bob has 2 roles"
    said = await emu.say(world.general, world.alice, "Charge!")
    quote = await emu.message_command("Quote", said, user=world.gm)
    assert (await quote.message()).content == "> Charge!"
    assert (await quote.message()).type == 23

    dm = emu.dm_channel(world.alice)
    handle = await emu.slash("upload", user=world.alice, channel=dm)
    assert "guild_id" not in handle.payload and handle.payload["context"] == 1
    assert (await handle.message()).channel_id == dm.id
    emu.assert_no_refusals()


async def test_prefix_commands_need_the_message_content_intent(emu: Emulator, world: World) -> None:
    with_content, without_content = Seen(), Seen()
    async with running_bot(emu, ToolBot(with_content)):
        said = await emu.say(world.general, world.alice, "!ping")
        reply = await emu.wait_for_message(world.general)
        assert reply.content == "pong" and reply.message_reference == {
            "type": 0, "message_id": str(said.id), "channel_id": str(world.general.id),
            "guild_id": str(world.guild.id)}
    async with running_bot(emu, ToolBot(without_content, message_content=False)):
        await emu.say(world.general, world.alice, "!ping")
        await emu.say(world.general, world.alice, f"{emu.bot.mention} hello")
        await emu.wait_until(lambda: len(without_content.messages) == 2, what="both messages")
    assert with_content.messages == ["!ping"]
    assert without_content.messages == ["", f"{emu.bot.mention} hello"]


class ShardedBot(commands.AutoShardedBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


async def test_sharding_routes_guilds_by_id(emu: Emulator) -> None:
    even = emu.add_guild("Even", guild_id=2 << 22, channels=["hall"])
    odd = emu.add_guild("Odd", guild_id=3 << 22, channels=["hall"])
    bot = ShardedBot(command_prefix="!", intents=discord.Intents.default(), shard_count=2)
    async with running_bot(emu, bot):
        assert {g.name: g.shard_id for g in bot.guilds} == {"Even": 0, "Odd": 1}
        assert sorted((s.shard_id, s.shard_count) for s in emu.sessions) == [(0, 2), (1, 2)]
        assert emu.identify_count == 2
        late = emu.add_guild("Late", guild_id=5 << 22)
        await emu.wait_until(lambda: bot.get_guild(late.id), what="GUILD_CREATE for a guild joined later")
        assert bot.get_guild(late.id).shard_id == 1  # type: ignore[union-attr]
    assert even.id != odd.id
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_snowflake_options_and_permission_refusals(emu: Emulator, world: World, seen: Seen) -> None:
    changes: list[tuple[str, str]] = []
    unsubscribe = emu.subscribe(lambda change, message: changes.append((change, message.content)))
    handle = await emu.slash("post", {"channel": world.general, "who": world.bob, "role": "Player", "odds": 0.25},
                             user=world.gm, channel=world.combat)
    assert (await handle.message()).content == "posted"
    posted = emu.bot_messages(world.general)[-1]
    assert posted.content == f"<@{world.bob.id}> (Player, 0.25)" and posted.mention_ids == [world.bob.id]
    assert set(handle.payload["data"]["resolved"]) == {"channels", "users", "members", "roles"}

    quiet = emu.add_channel(world.guild, "quiet", overwrites=[Overwrite(emu.bot.id, 1, deny=SEND_MESSAGES)])
    await emu.slash("post", {"channel": quiet, "who": world.bob, "role": world.player_role},
                    user=world.gm, channel=world.combat)
    await emu.wait_until(lambda: seen.errors, what="the post to be refused")
    [error] = seen.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50013
    unsubscribe()
    assert changes == [("create", posted.content), ("create", "posted")]


@pytest.mark.usefixtures("bot")
async def test_attachment_option(emu: Emulator, world: World) -> None:
    upload = emu.make_attachment("notes.txt", b"ambush", "text/plain")
    handle = await emu.slash("inspectfile", {"file": upload}, user=world.alice, channel=world.general)
    assert (await handle.message()).content == "notes.txt: 6 bytes, ambush"
    emu.assert_no_refusals()


async def test_redirection_is_restored() -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    async with running_emulator() as emu:
        assert emu.api_base == Route.BASE and str(DiscordWebSocket.DEFAULT_GATEWAY) == emu.gateway_url
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_a_client_killed_while_sending_is_no_emulator_error() -> None:
    """A bot process killed mid-request (tests/e2e/test_e2e_crash.py's SIGKILL in a burst) leaves a body half
    sent: the request never reached Discord, so nothing is recorded, and the emulator reports no error of its own
    (it did, as ConnectionResetError, once in a full run)."""
    async with running_emulator() as emu:
        channel = build_world(emu).combat
        host, port = emu.base_url.removeprefix("http://").split(":")
        _reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"POST /api/v10/channels/{channel.id}/messages HTTP/1.1\r\nHost: x\r\n"
                     f"Authorization: Bot {emu.token}\r\nContent-Type: application/json\r\n"
                     "Content-Length: 100\r\n\r\n{\"content\": ".encode())
        await writer.drain()
        await asyncio.sleep(0.1)  # the handler is reading the body
        writer.transport.abort()  # gone, as a killed process is
        await asyncio.sleep(0.2)
        assert emu.internal_errors == [] and emu.refusals == []
