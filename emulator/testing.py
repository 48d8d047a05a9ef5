"""pytest helpers: an `emu` fixture and a small ready-made world.

Use from a test module with `from emulator.testing import emu_fixture  # noqa: F401`, then take `emu`
as a parameter. Everything here builds on `emulator.harness`, which has no pytest dependency.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest_asyncio

from . import permissions as perms
from .harness import RunningBot, redirect_discord, running_bot, running_emulator, start_bot
from .models import Channel, Guild, Member, Role
from .server import Emulator

__all__ = [
    "RunningBot",
    "World",
    "build_world",
    "emu_fixture",
    "redirect_discord",
    "running_bot",
    "running_emulator",
    "start_bot",
    "world_fixture",
]


@dataclass
class World:
    """A guild with its owner (`manager`), a GM and two players, a #general and a #combat channel."""

    guild: Guild
    general: Channel
    combat: Channel
    gm_role: Role
    player_role: Role
    gm: Member
    alice: Member
    bob: Member
    manager: Member


def build_world(emu: Emulator, name: str = "Test Guild") -> World:
    guild = emu.add_guild(name)
    general = emu.add_channel(guild, "general")
    combat = emu.add_channel(guild, "combat", topic="Fights happen here")
    gm_role = emu.add_role(guild, "GM", permissions=perms.MANAGE_MESSAGES | perms.PIN_MESSAGES, color=0xAA3333)
    player_role = emu.add_role(guild, "Player", color=0x3366AA)
    gm = emu.add_member(guild, emu.add_user("gm", global_name="Game Master"), roles=[gm_role])
    alice = emu.add_member(guild, emu.add_user("alice", global_name="Alice"), roles=[player_role])
    bob = emu.add_member(guild, emu.add_user("bob", global_name="Bob"), roles=[player_role])
    manager = guild.members[emu.state.owner.id]
    return World(guild, general, combat, gm_role, player_role, gm, alice, bob, manager)


@pytest_asyncio.fixture(name="emu")
async def emu_fixture() -> AsyncIterator[Emulator]:
    """A started emulator with discord.py redirected to it."""
    async with running_emulator() as emu:
        yield emu


@pytest_asyncio.fixture(name="world")
async def world_fixture(emu: Emulator) -> World:
    return build_world(emu)
