"""discord.py's heartbeat latency, measured from the heartbeat it answers.

discord.py's keep-alive thread sends each heartbeat through the event loop and notes the time it was sent
only once it wakes again after the send. An acknowledgement that arrives sooner (a near link: the same
machine, the same data centre) is read on the loop first, and is timed from the heartbeat before: the
latency reads one whole heartbeat interval (41.25 s), and discord.py logs "Can't keep up, shard ID 0
websocket is 41.3s behind" at every acknowledgement, of a connection that is in fact idle and quick.
``install`` notes the time as the heartbeat is built, before it is sent (as discord.py does already for a
heartbeat Discord asks for), so ``latency`` and that warning mean what they say.
"""

from __future__ import annotations

import time
from typing import Any

import discord.gateway


class StampedKeepAlive(discord.gateway.KeepAliveHandler):
    def get_payload(self) -> dict[str, Any]:
        self._last_send = time.perf_counter()
        return super().get_payload()


def install() -> None:
    """Once, before the client connects (bot/app.py does it on import): the class the websocket builds on HELLO."""
    setattr(discord.gateway, "KeepAliveHandler", StampedKeepAlive)  # noqa: B010 (the name discord.py looks up)
