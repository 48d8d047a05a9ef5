"""The gateway watch: a shard silent while its servers play is found once, and a quiet table is left alone."""

from __future__ import annotations

from bot.ops.gateway_watch import GatewayWatch


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_shard_silent_after_interactions_is_found_and_counts_again_only_after_a_new_one() -> None:
    clock = Clock()
    watch = GatewayWatch(silence=60, expect=300, clock=clock)
    watch.dispatched(0, interaction=True)
    watch.dispatched(1, interaction=False)  # no interactions on shard 1: its quiet is expected
    clock.now += 59
    assert watch.silent([0, 1]) == [] and watch.problem([0, 1]) is None
    clock.now += 2
    assert watch.silent([0, 1]) == [(0, 61)]
    assert "shard 0 delivered no event for 61 s" in (watch.problem([0]) or "")
    watch.reconnecting(0, 61)
    assert "shard 0 reconnected by itself" in watch.note()
    assert watch.note().endswith("(1 such reconnects in the last hour)")
    clock.now += 600  # after the reconnect, no interaction: a table that stopped playing is not reconnected again
    assert watch.silent([0]) == []
    watch.dispatched(0, interaction=True)
    clock.now += 60
    assert watch.silent([0]) == [(0, 60)]
    clock.now += 3600
    assert watch.note() == ""


def test_interactions_long_before_the_silence_do_not_make_it_expected() -> None:
    clock = Clock()
    watch = GatewayWatch(silence=60, expect=300, clock=clock)
    watch.dispatched(0, interaction=True)
    clock.now += 400
    watch.dispatched(0, interaction=False)  # a later event: the interactions were 400 s before the silence
    clock.now += 100
    assert watch.silent([0]) == []
