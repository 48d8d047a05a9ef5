"""A shard whose gateway has gone quiet while its servers are playing: reconnected by the bot itself.

discord.py closes a shard only when nothing at all arrives for a minute; heartbeat acknowledgements keep a
connection that delivers no dispatch looking alive. A shard that delivered interactions in the last few
minutes (``expect`` seconds: its servers are playing) and then no dispatch of any kind for ``silence``
seconds is closed with a resumable code, so discord.py resumes it and Discord replays what the shard
missed. The health endpoint says the shard is silent while it is, and that it reconnected by itself for a
while after (``note``).

A quiet table that simply stopped playing costs one resume at most: after a reconnect the shard waits for a
new interaction before it can count as silent again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

SILENCE = 60.0  # seconds without a dispatch on a shard that expects interactions
EXPECT = 300.0  # an interaction within this many seconds before the silence: interactions are expected
NOTE_FOR = 3600.0  # how long the health endpoint mentions a reconnect
CHECK_EVERY = 1.0  # seconds between looks (a look is a few comparisons)


@dataclass
class ShardClock:
    dispatch: float  # when its gateway last delivered any dispatch
    interaction: float | None = None  # when it last delivered an interaction (None: none since the last reconnect)


@dataclass(frozen=True)
class Reconnect:
    shard_id: int
    silent: float  # seconds without a dispatch
    at: datetime
    when: float  # the watch's clock at the reconnect


class GatewayWatch:
    def __init__(self, *, silence: float = SILENCE, expect: float = EXPECT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.silence = silence
        self.expect = expect
        self._clock = clock
        self._shards: dict[int, ShardClock] = {}
        self.reconnects: list[Reconnect] = []

    def dispatched(self, shard_id: int, *, interaction: bool) -> None:
        """The gateway of ``shard_id`` delivered a dispatch (an interaction, if told)."""
        now = self._clock()
        shard = self._shards.setdefault(shard_id, ShardClock(now))
        shard.dispatch = now
        if interaction:
            shard.interaction = now

    def silent(self, shard_ids: Iterable[int]) -> list[tuple[int, float]]:
        """The shards (with how long they have been silent) that expect interactions and delivered no dispatch
        for ``silence`` seconds."""
        now = self._clock()
        found = []
        for shard_id in shard_ids:
            shard = self._shards.get(shard_id)
            if shard is None or shard.interaction is None:
                continue
            quiet = now - shard.dispatch
            if quiet >= self.silence and shard.dispatch - shard.interaction <= self.expect:
                found.append((shard_id, quiet))
        return found

    def reconnecting(self, shard_id: int, silent: float) -> Reconnect:
        """Note a reconnect of ``shard_id``: it counts as silent again only after a new interaction."""
        now = self._clock()
        self._shards[shard_id] = ShardClock(now)
        done = Reconnect(shard_id, silent, datetime.now(UTC), now)
        self.reconnects.append(done)
        return done

    def problem(self, shard_ids: Iterable[int]) -> str | None:
        """What the health endpoint says of a silent shard (unhealthy), or None."""
        silent = self.silent(shard_ids)
        if not silent:
            return None
        return "; ".join(f"shard {shard_id} delivered no event for {quiet:.0f} s while its servers were playing "
                         "(reconnecting)" for shard_id, quiet in silent)

    def note(self) -> str:
        """The reconnects of the last hour, for the health endpoint (not a failure: the bot recovered)."""
        now = self._clock()
        recent = [r for r in self.reconnects if now - r.when <= NOTE_FOR]
        if not recent:
            return ""
        last = recent[-1]
        return (f"shard {last.shard_id} reconnected by itself at {last.at:%H:%M:%S} UTC after {last.silent:.0f} s "
                f"without an event ({len(recent)} such reconnects in the last hour)")
