"""A loopback Discord: REST + gateway on 127.0.0.1 for driving a real, unpatched discord.py bot.

    async with running_emulator() as emu:              # emulator.harness; also sets the two redirections
        guild = emu.add_guild("Test Guild")
        combat = emu.add_channel(guild, "combat")
        alice = emu.add_member(guild, "alice")
        async with running_bot(emu, MyBot()) as bot:    # login + connect + wait for on_ready
            await bot.tree.sync()                       # commands land in emu.commands()
            handle = await emu.slash("attack", {"target": "Bjorn"}, user=alice, channel=combat)
            message = await handle.message()            # what the bot answered
        emu.assert_no_refusals()                        # Discord would have accepted everything

Modules: `server` (Emulator), `gateway`, `rest`, `webhooks` (interaction responses), `state` and `models`
(the world), `interactions` (payload building), `limits` (Discord's refusals), `records` (what tests await),
`harness` (running discord.py against it), `testing` (pytest fixtures), `launch` and `processes` (a bot in a
process of its own: started, SIGKILLed, restarted).
"""

from .errors import DiscordError
from .interactions import InteractionError
from .models import Attachment, Channel, Guild, Member, Message, Role, User
from .permissions import Overwrite
from .records import InteractionHandle, Refusal, ResponseEvent
from .server import Emulator, NoBotConnected

__all__ = [
    "Attachment",
    "Channel",
    "DiscordError",
    "Emulator",
    "Guild",
    "InteractionError",
    "InteractionHandle",
    "Member",
    "Message",
    "NoBotConnected",
    "Overwrite",
    "Refusal",
    "ResponseEvent",
    "Role",
    "User",
]
