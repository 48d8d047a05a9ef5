"""What the web page needs of the process serving it (``PageHost``), and the host of a process that serves only
the page (``WebOnlyHost``, ``grievous web``).

The page reads everything it shows through the services; the gateway cache is asked only for a nicer name (a
member's display name, a role's, a channel's). The bot (``GrievousBot``) is one host. A process with no gateway
connection is another: its ``get_guild`` and ``get_user`` find nothing, so the page names members, roles and
channels as it does for a guild of another shard: from what the session captured at ``/web`` and from the
events (bot/web/pages.py ``_names``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot.ops.metrics import Metrics

if TYPE_CHECKING:
    import discord

    from bot.services import Services


class PageHost(Protocol):
    """What bot/web reads of its process: the services, the Prometheus registry its metrics join, and the gateway
    cache's guilds and users (None where it holds none)."""

    @property
    def services(self) -> Services: ...

    @property
    def metrics(self) -> Metrics: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_user(self, id: int, /) -> discord.User | None: ...


@dataclass
class WebOnlyHost:
    """A process that serves the page and never connects to Discord: no guild and no user is cached."""

    services: Services
    metrics: Metrics = field(default_factory=Metrics)

    def get_guild(self, id: int, /) -> None:
        return None

    def get_user(self, id: int, /) -> None:
        return None
