"""A loopback Discord: REST + gateway on 127.0.0.1 for driving a real discord.py bot in tests."""

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
