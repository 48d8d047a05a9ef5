"""The cogs through the loopback Discord emulator: the real discord.py client, our bot, the fake engine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.app import GrievousBot
from bot.services import Actor, Services
from emulator.server import Emulator
from emulator.testing import World, emu_fixture, running_bot, world_fixture  # noqa: F401

GM_BUTTON = "grv:gm:"


@pytest.fixture
async def bot(emu: Emulator, world: World, make_services: Any) -> AsyncIterator[GrievousBot]:
    services: Services = make_services()
    manager = Actor(world.guild.id, world.combat.id, 1, "Owner", is_manager=True)
    await services.setup.set_system(manager, "fake")
    await services.setup.set_gm_role(manager, world.gm_role.id)
    async with running_bot(emu, GrievousBot(services=services, sync_commands=True)) as client:
        await emu.wait_for_commands("character")
        await emu.wait_for_commands("attack", "encounter", guild=world.guild)
        yield client


def embed_text(message: Any) -> str:
    return " ".join(str(e) for e in message.embeds)


def buttons(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", [])]


async def ephemeral_line(handle: Any) -> str:
    message = await handle.message()
    assert message.ephemeral, message.content
    return str(message.content)


async def make_table(emu: Emulator, world: World) -> None:
    """Alice's Aldo and Bob's Brun in an encounter in #combat."""
    for user, name, weapons in ((world.alice, "Aldo", "Sword"), (world.bob, "Brun", "Club, Spear")):
        handle = await emu.slash("character create", {"name": name, "stats": "str=12", "weapons": weapons},
                                 user=user, channel=world.combat)
        assert (await handle.message()).content.startswith(name)
    await (await emu.slash("encounter start", user=world.gm, channel=world.combat)).message()
    for user, name in ((world.alice, "Aldo"), (world.bob, "Brun")):
        await (await emu.slash("encounter add", {"character": name}, user=user, channel=world.combat)).message()


async def test_help_is_private(bot: GrievousBot, emu: Emulator, world: World) -> None:
    handle = await emu.slash("help", {"topic": "combat"}, user=world.alice, channel=world.general)
    message = await handle.message()
    assert message.ephemeral and "/attack" in embed_text(message)
    emu.assert_no_refusals()


async def test_attack_posts_the_embed_and_keeps_one_pinned_tracker(bot: GrievousBot, emu: Emulator,
                                                                   world: World) -> None:
    await make_table(emu, world)
    pins = emu.pins(world.combat)
    assert len(pins) == 1 and "Encounter" in embed_text(pins[0])
    handle = await emu.slash("attack", {"target": "Brun", "weapon": "Sword", "aspect": "edge",
                                        "dice": "attack=7 location=55"}, user=world.alice, channel=world.combat)
    message = await handle.message()
    assert not message.ephemeral
    assert "Aldo attacks Brun" in embed_text(message) and "attack" in embed_text(message)
    await emu.wait_until(lambda: "1 wound" in embed_text(emu.pins(world.combat)[0]) or None, what="tracker edit")
    assert len(emu.pins(world.combat)) == 1  # edited, not reposted
    emu.assert_no_refusals()


async def test_bad_input_is_one_private_line_and_changes_nothing(bot: GrievousBot, emu: Emulator,
                                                                 world: World) -> None:
    outside = await emu.slash("attack", {"target": "Brun"}, user=world.alice, channel=world.general)
    assert "encounter" in (await ephemeral_line(outside)).lower()
    await make_table(emu, world)
    before = len(emu.messages(world.combat, include_ephemeral=False))
    for options in ({"target": "Nobody"}, {"target": "Brun", "weapon": "Axe"},
                    {"target": "Brun", "weapon": "Sword", "aspect": "blunt"}, {"target": "Brun", "dice": "zap=3"}):
        line = await ephemeral_line(await emu.slash("attack", options, user=world.alice, channel=world.combat))
        assert "\n" not in line and "Traceback" not in line
    stats = await emu.slash("character create", {"name": "Odd", "stats": "str"}, user=world.alice,
                            channel=world.combat)
    assert "name=value" in await ephemeral_line(stats)
    assert len(emu.messages(world.combat, include_ephemeral=False)) == before
    emu.assert_no_refusals()


async def test_only_the_gm_can_decide_and_the_buttons_survive_a_restart(bot: GrievousBot, emu: Emulator,
                                                                         world: World, make_services: Any) -> None:
    await make_table(emu, world)
    handle = await emu.slash("attack", {"target": "Brun", "dice": "attack=0 location=5"}, user=world.alice,
                             channel=world.combat)
    message = await handle.message()
    ids = [b["custom_id"] for b in buttons(message)]
    assert ids[-1].startswith("grv:details:")  # Details stays when the GM's buttons go
    event_id = int(ids.pop().rsplit(":", 1)[1])
    assert ids and all(i.startswith(GM_BUTTON) for i in ids)
    denied = await emu.click(message, ids[0], user=world.bob)
    assert "GM" in await ephemeral_line(denied)

    await bot.close()  # a restart: a new process with a new Services on the same database
    async with running_bot(emu, GrievousBot(services=make_services(seed=2))):
        pressed = await emu.click(message, ids[0], user=world.gm)
        await pressed.response()
        result = await emu.wait_for_message(world.combat, lambda m: "Chosen by" in embed_text(m))
        assert "dies" in embed_text(result)
        await emu.wait_until(lambda: [b["custom_id"] for b in buttons(message)] == [f"grv:details:{event_id}"]
                             or None, what="the GM's buttons to go")
        details = await emu.click(message, f"grv:details:{event_id}", user=world.bob)
        assert "Dice" in embed_text(await details.message())  # anyone may read the arithmetic, after a restart too
    emu.assert_no_refusals()


async def test_target_autocomplete_comes_from_the_encounter(bot: GrievousBot, emu: Emulator, world: World) -> None:
    await make_table(emu, world)
    handle = await emu.autocomplete("attack", {"target": "b"}, focused="target", user=world.alice,
                                    channel=world.combat)
    assert [c["name"] for c in await handle.choices()] == ["Brun"]
    weapons = await emu.autocomplete("attack", {"target": "Aldo", "attacker": "Brun", "weapon": ""},
                                     focused="weapon", user=world.bob, channel=world.combat)
    assert {c["name"] for c in await weapons.choices()} == {"Club", "Spear"}


async def test_delete_asks_first_and_only_the_owner_may(bot: GrievousBot, emu: Emulator, world: World) -> None:
    await (await emu.slash("character create", {"name": "Aldo"}, user=world.alice, channel=world.general)).message()
    # someone else's character: the refusal comes at once, with no prompt to press
    theirs = await emu.slash("character delete", {"name": "Aldo"}, user=world.bob, channel=world.general)
    assert "not yours" in await ephemeral_line(theirs)
    assert not buttons(await theirs.message())
    handle = await emu.slash("character delete", {"name": "Aldo"}, user=world.alice, channel=world.general)
    prompt = await handle.message()
    assert prompt.ephemeral and "Delete **Aldo**" in prompt.content
    confirm = next(b["custom_id"] for b in buttons(prompt) if b.get("label") == "Delete")
    pressed = await emu.click(prompt, confirm, user=world.alice)
    await pressed.response()
    await emu.wait_until(lambda: "was deleted" in prompt.content or None, what="the deletion")
    gone = await emu.slash("character show", {"name": "Aldo"}, user=world.alice, channel=world.general)
    assert "no character named" in await ephemeral_line(gone)


def test_every_service_call_of_a_command_goes_through_slow() -> None:
    """A command queued behind others in its channel must still answer within Discord's 3 seconds: every
    ``self.bot.services`` call a command awaits is wrapped in ``slow()`` (closures handed to it, and a
    confirmation's callback that defers first, are the exceptions)."""
    import ast
    from pathlib import Path

    cogs = Path(__file__).resolve().parents[2] / "bot" / "cogs"
    offenders = []
    for path in sorted(cogs.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for method in (n for n in cls.body if isinstance(n, ast.AsyncFunctionDef)):
                nested = {id(n) for f in ast.walk(method) if f is not method
                          and isinstance(f, ast.AsyncFunctionDef | ast.FunctionDef) for n in ast.walk(f)}
                for node in ast.walk(method):
                    if not isinstance(node, ast.Await) or id(node) in nested:
                        continue
                    call = node.value
                    called = ast.unparse(call.func) if isinstance(call, ast.Call) else ""
                    if called.startswith("self.bot.services") or (called.startswith("settings.")):
                        offenders.append(f"{path.name}:{node.lineno} {called}")
    assert offenders == []
