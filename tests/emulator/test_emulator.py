"""The loopback Discord emulator drives a real, unpatched discord.py bot end to end."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Literal

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from emulator import Emulator, InteractionError, NoBotConnected
from emulator.testing import World, emu_fixture, running_bot, world_fixture  # noqa: F401

NAMES = ["Astrid", "Bjorn", "Brunhild", "Sigurd"]


class Probe:
    """What the bot saw, for assertions from the test side."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.errors: list[BaseException] = []
        self.late_delay = 0.0


class CombatPanel(discord.ui.View):
    """A persistent view: fixed custom_ids and no timeout, re-registered by every bot instance."""

    def __init__(self, probe: Probe) -> None:
        super().__init__(timeout=None)
        self.probe = probe

    @discord.ui.button(label="Strike", style=discord.ButtonStyle.danger, custom_id="panel:strike")
    async def strike(self, interaction: discord.Interaction, button: discord.ui.Button[CombatPanel]) -> None:
        self.probe.calls["strike"] += 1
        await interaction.response.send_message(f"{interaction.user.display_name} strikes!", ephemeral=True)

    @discord.ui.select(
        custom_id="panel:stance",
        options=[discord.SelectOption(label="Aggressive", value="aggressive"),
                 discord.SelectOption(label="Defensive", value="defensive")],
    )
    async def stance(self, interaction: discord.Interaction, select: discord.ui.Select[CombatPanel]) -> None:
        await interaction.response.edit_message(content=f"Stance: {select.values[0]}")


class NoteModal(discord.ui.Modal, title="Session note"):
    text: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(label="Note", custom_id="note:text", max_length=200)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Noted: {self.text.value}")


class ProbeBot(commands.Bot):
    def __init__(self, probe: Probe) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.probe = probe
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(CombatPanel(self.probe))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every re-IDENTIFY (Discord's identify rate limit); not against a loopback.
        return None

    def _add_commands(self) -> None:
        probe, tree = self.probe, self.tree

        @tree.error
        async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            probe.errors.append(getattr(error, "original", error))

        encounter = app_commands.Group(name="encounter", description="Run an encounter")

        @encounter.command(name="start", description="Start an encounter")
        @app_commands.describe(name="What the fight is called", rounds="How many rounds")
        async def start(interaction: discord.Interaction, name: str,
                        rounds: app_commands.Range[int, 1, 10] = 3) -> None:
            embed = discord.Embed(title=f"Encounter: {name}", description=f"{rounds} rounds")
            embed.add_field(name="Started by", value=interaction.user.display_name)
            await interaction.response.send_message(embed=embed)

        @encounter.command(name="end", description="End the encounter")
        async def end(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("The encounter is over.")

        tree.add_command(encounter)

        @tree.command(description="Attack someone")
        async def attack(interaction: discord.Interaction, target: str,
                         aim: Literal["high", "mid", "low"] = "mid") -> None:
            await interaction.response.send_message(f"{interaction.user.display_name} attacks {target} ({aim})")

        @attack.autocomplete("target")
        async def target_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=n, value=n) for n in NAMES if n.lower().startswith(current.lower())]

        @tree.command(description="Show the combat panel")
        async def panel(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Combat panel", view=CombatPanel(probe))

        @tree.command(description="Roll slowly (deferred, then a follow-up)")
        async def slowroll(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("Rolled 12")

        @tree.command(description="Defer, edit the original, then a follow-up")
        async def fate(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await interaction.edit_original_response(content="Fate: 3")
            await interaction.followup.send("A second thought", ephemeral=True)

        @tree.command(description="Write a note")
        async def note(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NoteModal())

        @tree.command(description="An embed far over Discord's limits")
        async def huge(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(embed=discord.Embed(title="Huge", description="x" * 5000))

        @tree.command(description="Answer after a delay")
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(probe.late_delay)
            await interaction.response.send_message("Sorry I'm late")

        @tree.command(description="Count invocations")
        async def count(interaction: discord.Interaction) -> None:
            probe.calls["count"] += 1
            await interaction.response.send_message(f"count {probe.calls['count']}")

        @tree.command(description="Post and pin the initiative order")
        async def initiative(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            posted = await interaction.channel.send("Initiative: Alice, Bob")
            await posted.pin()
            pins = [m async for m in interaction.channel.pins()]
            await interaction.response.send_message(f"{len(pins)} pinned", ephemeral=True)


@pytest.fixture
def probe() -> Probe:
    return Probe()


@pytest_asyncio.fixture
async def bot(emu: Emulator, world: World, probe: Probe) -> AsyncIterator[ProbeBot]:
    """A ProbeBot, logged in, ready and with its command tree synced."""
    async with running_bot(emu, ProbeBot(probe)) as client:
        await client.tree.sync()
        yield client


# -- login and commands -------------------------------------------------------------------------------


async def test_login_ready_and_guild_cache(emu: Emulator, world: World, probe: Probe) -> None:
    async with running_bot(emu, ProbeBot(probe)) as bot:
        assert bot.user is not None and bot.user.id == emu.bot.id
        guild = bot.get_guild(world.guild.id)
        assert guild is not None and guild.name == "Test Guild"
        assert {c.name for c in guild.text_channels} == {"general", "combat"}
        assert {"@everyone", "GM", "Player", emu.bot.username} <= {r.name for r in guild.roles}
        assert guild.me is not None and guild.member_count == 5
        assert emu.identify_count == 1 and emu.connected
        # Heartbeats are ACKed (latency becomes finite) over the zlib-stream discord.py asks for.
        await emu.wait_until(lambda: bot.latency < 1, what="a heartbeat ACK")
        assert [c.compressed for c in emu.gateway.connections] == [True]
    emu.assert_no_refusals()
    assert emu.unhandled == []


async def test_tree_sync_accepted(emu: Emulator, world: World, probe: Probe) -> None:
    async with running_bot(emu, ProbeBot(probe)) as bot:
        synced = await bot.tree.sync()
    assert sorted(c.name for c in synced) == sorted(emu.command_names())
    encounter = next(c for c in emu.commands() if c["name"] == "encounter")
    assert [o["name"] for o in encounter["options"]] == ["start", "end"]
    assert {c.id for c in synced} == {int(c["id"]) for c in emu.commands()}
    emu.assert_no_refusals()


async def test_invalid_command_tree_is_refused(emu: Emulator, world: World) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    # discord.py checks names itself but lets these through: a 150-character description, 30 choices.
    @bot.tree.command(description="d" * 150)
    @app_commands.choices(level=[app_commands.Choice(name=f"level {i}", value=i) for i in range(30)])
    async def pick(interaction: discord.Interaction, level: int) -> None:
        raise AssertionError("never registered")

    async with running_bot(emu, bot):
        with pytest.raises(discord.HTTPException) as caught:
            await bot.tree.sync()
    assert caught.value.status == 400 and caught.value.code == 50035
    assert emu.commands() == []
    [refusal] = emu.refusals
    too_long = {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}
    assert refusal.errors == {"0": {
        "description": {"_errors": [too_long]},
        "options": {"0": {"choices": {"_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}},
    }}


# -- interactions -------------------------------------------------------------------------------------


@pytest.mark.usefixtures("bot")
async def test_slash_command_with_subcommand_and_typed_options(
    emu: Emulator, world: World, probe: Probe
) -> None:
    handle = await emu.slash("encounter start", {"name": "Ambush at the ford", "rounds": 4},
                             user=world.alice, channel=world.combat)
    message = await handle.message()
    assert message.embed_titles == ["Encounter: Ambush at the ford"]
    assert message.embeds[0]["description"] == "4 rounds"
    assert message.embeds[0]["fields"] == [{"name": "Started by", "value": "Alice", "inline": True}]
    assert message.type == 20 and message.interaction_metadata is not None
    [sub] = handle.payload["data"]["options"]
    assert sub["type"] == 1 and sub["options"][1] == {"type": 4, "name": "rounds", "value": 4}
    assert handle.payload["member"]["permissions"] and handle.payload["app_permissions"]

    attack = await emu.slash("attack", {"target": "Bjorn", "aim": "high"}, user=world.bob, channel=world.combat)
    assert (await attack.message()).content == "Bob attacks Bjorn (high)"
    assert emu.messages(world.combat) == [message, await attack.message()]
    with pytest.raises(InteractionError):
        await emu.slash("attack", {"target": "Bjorn", "aim": "sideways"}, user=world.bob, channel=world.combat)
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_deferred_response_and_followups(emu: Emulator, world: World, probe: Probe) -> None:
    # Discord's deprecated rule (a flag): the first follow-up after a deferral edits the "thinking" message.
    emu.legacy_followup_edit = True
    slow = await emu.slash("slowroll", user=world.alice, channel=world.combat)
    assert (await slow.response()).type == 5
    [followup] = await slow.followups()
    assert followup is await slow.message() and followup.content == "Rolled 12" and not followup.loading
    # By default, as Discord will once it drops that: a new message, and "thinking" stays.
    emu.legacy_followup_edit = False
    strict = await emu.slash("slowroll", user=world.alice, channel=world.combat)
    [followup] = await strict.followups()
    assert strict.original is not None and strict.original.loading and followup.id != strict.original.id

    fate = await emu.slash("fate", user=world.alice, channel=world.combat)
    [extra] = await fate.followups()
    original = await fate.message()
    assert original.content == "Fate: 3" and original.edited_at is not None
    assert extra.content == "A second thought" and extra.ephemeral and extra.id != original.id
    assert [e.kind for e in fate.events] == ["callback", "edit", "followup"]
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_button_press_and_select_on_a_persistent_view(
    emu: Emulator, world: World, probe: Probe
) -> None:
    panel = await (await emu.slash("panel", user=world.gm, channel=world.combat)).message()
    assert panel.custom_ids == ["panel:strike", "panel:stance"]

    press = await emu.click(panel, "panel:strike", user=world.alice)
    reply = await press.message()
    assert reply.content == "Alice strikes!" and reply.ephemeral and probe.calls["strike"] == 1
    # Discord numbers components: the action row is 1, its button 2.
    assert press.payload["data"] == {"custom_id": "panel:strike", "component_type": 2, "id": 2}

    pick = await emu.select(panel, "panel:stance", ["defensive"], user=world.bob)
    assert (await pick.response()).type == 7
    assert panel.content == "Stance: defensive" and panel.revisions[0]["content"] == "Combat panel"
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_autocomplete(emu: Emulator, world: World, probe: Probe) -> None:
    handle = await emu.autocomplete("attack", {"target": "b"}, focused="target", user=world.alice,
                                    channel=world.combat)
    assert [c["value"] for c in await handle.choices()] == ["Bjorn", "Brunhild"]
    assert handle.payload["data"]["options"] == [{"type": 3, "name": "target", "value": "b", "focused": True}]
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_modal_submit(emu: Emulator, world: World, probe: Probe) -> None:
    opened = await emu.slash("note", user=world.gm, channel=world.general)
    modal = await opened.modal()
    assert modal["title"] == "Session note"
    submitted = await emu.submit_modal(opened, {"note:text": "Remember the ford"})
    assert (await submitted.message()).content == "Noted: Remember the ford"
    with pytest.raises(InteractionError):
        await emu.submit_modal(opened, {"note:text": "x" * 201})
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_channel_messages_and_pins(emu: Emulator, world: World, probe: Probe) -> None:
    handle = await emu.slash("initiative", user=world.gm, channel=world.combat)
    assert (await handle.message()).content == "1 pinned"
    [pinned] = emu.pins(world.combat)
    assert pinned.content == "Initiative: Alice, Bob" and pinned.pinned_at is not None
    assert [m.content for m in emu.messages(world.combat, include_ephemeral=False)] == ["Initiative: Alice, Bob"]
    emu.assert_no_refusals()


# -- refusals -----------------------------------------------------------------------------------------


@pytest.mark.usefixtures("bot")
async def test_embed_over_limits_is_refused(emu: Emulator, world: World, probe: Probe) -> None:
    handle = await emu.slash("huge", user=world.alice, channel=world.combat)
    await emu.wait_until(lambda: probe.errors, what="the bot to see the refusal")
    [error] = probe.errors
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 50035
    [refusal] = emu.refusals
    assert refusal.interaction_id == handle.id and handle.refusals == [refusal]
    assert refusal.errors == {"data": {"embeds": {"0": {"description": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 4096 or fewer in length."}]}}}}}
    assert not handle.acknowledged and emu.messages(world.combat) == []


@pytest.mark.usefixtures("bot")
async def test_double_responses_are_already_acknowledged_and_late_ones_unknown(
    emu: Emulator, world: World, probe: Probe
) -> None:
    handle = await emu.slash("count", user=world.alice, channel=world.combat)
    await handle.response()
    url = f"{emu.api_base}/interactions/{handle.id}/{handle.token}/callback"
    async with aiohttp.ClientSession() as session, session.post(
        url, json={"type": 4, "data": {"content": "again"}}
    ) as reply:
        assert reply.status == 400 and reply.content_type == "application/json"
        assert (await reply.json())["code"] == 40060
    assert handle.callback_count == 1 and emu.refusals[-1].note == "already acknowledged"

    emu.interaction_deadline = 0.2
    probe.late_delay = 0.4
    await emu.slash("late", user=world.alice, channel=world.combat)
    await emu.wait_until(lambda: probe.errors, what="the late answer to fail")
    [error] = probe.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert [r.code for r in emu.refusals] == [40060, 10062]


# -- gateway resilience -------------------------------------------------------------------------------


@pytest.mark.usefixtures("bot")
@pytest.mark.parametrize("close_code", [4000, None], ids=["close-4000", "abrupt"])
async def test_gateway_drop_resumes_and_replays_missed_interaction(
    emu: Emulator, world: World, probe: Probe, close_code: int | None
) -> None:
    async with emu.disconnected(code=close_code):
        handle = await emu.slash("count", user=world.alice, channel=world.combat)
        await asyncio.sleep(0.05)
        assert handle.delivered == 0 and not emu.connected
    assert (await handle.message()).content == "count 1"
    assert probe.calls["count"] == 1 and handle.callback_count == 1 and handle.delivered == 1
    assert emu.resume_count == 1 and emu.identify_count == 1
    assert emu.gateway.connect_paths == ["/", "/resume"]
    # The resumed session keeps working.
    after = await emu.slash("count", user=world.bob, channel=world.combat)
    assert (await after.message()).content == "count 2"
    emu.assert_no_refusals()


@pytest.mark.usefixtures("bot")
async def test_invalidated_session_reidentifies(emu: Emulator, world: World, probe: Probe) -> None:
    emu.invalidate_sessions()
    await emu.drop_connection()
    await emu.wait_until(lambda: emu.identify_count == 2 and emu.connected, what="a fresh IDENTIFY")
    assert emu.gateway.invalid_session_count == 1
    handle = await emu.slash("count", user=world.alice, channel=world.combat)
    assert (await handle.message()).content == "count 1"


async def test_two_restarts_against_the_same_emulator(emu: Emulator, world: World) -> None:
    first = Probe()
    async with running_bot(emu, ProbeBot(first)) as bot:
        await bot.tree.sync()
        panel = await (await emu.slash("panel", user=world.gm, channel=world.combat)).message()

    second = Probe()
    async with running_bot(emu, ProbeBot(second)):
        # Commands stay registered and the persistent view answers on a message an earlier process sent.
        press = await emu.click(panel, "panel:strike", user=world.bob)
        assert (await press.message()).content == "Bob strikes!"
    assert second.calls["strike"] == 1 and first.calls["strike"] == 0

    third = Probe()
    async with running_bot(emu, ProbeBot(third)):
        handle = await emu.slash("count", user=world.alice, channel=world.combat)
        assert (await handle.message()).content == "count 1"
    assert emu.identify_count == 3 and emu.resume_count == 0
    emu.assert_no_refusals()

    # With every session gone for good, nothing can receive an interaction.
    emu.invalidate_sessions()
    with pytest.raises(NoBotConnected):
        await emu.slash("count", user=world.alice, channel=world.combat)
