"""`bench.scaling --mix` keeps running as the bot changes (a small load, two rounds of each kind alone, not
three: its figures are never asserted, and the second round is the first whose misses need a fresh Bandit)."""

from __future__ import annotations

from pathlib import Path

from bench import evening, profile_summary, scaling


async def test_the_evening_mix_runs_every_kind_without_errors_and_profiles_the_bot(tmp_path: Path) -> None:
    profile = tmp_path / "evening.prof"
    args = scaling.parse_args(["--mix", "--active", "4", "--per-player", "10", "--per-kind", "1", "--rounds", "2",
                               "--wounds", "10",
                               "--combatants", "4", "--profile", str(profile), "--rates", "5", "--seconds", "2"])
    result, profiled = await scaling.run_mix(args, tmp_path)
    assert result.mix.errors == []
    assert {k.kind for k in result.kinds if k.commands} == set(evening.KINDS)
    assert {"attack", "roll", "log", "injuries", "autocomplete", "noop"} <= set(result.mix.latencies)
    # each kind's window holds its own requests and no other's: the no-op's answer alone (no attack's tracker
    # edit late from the round before), the no-op + edit's answer and its one edit (no 429 and retry: the channel's
    # write bucket refilled first)
    calls = {k.kind: k.rest_calls for k in result.kinds}
    assert calls["noop"] == 1.0 and calls["no-op + edit"] == 2.0 and calls["engine only"] == 1.0
    # the wounds: half the tables' Bandits fresh (0-4), the other half's given 5 first (5-9), in the same rounds
    assert [w.label for w in result.by_wounds] == ["0-4", "5-9"] and result.wounds_apart == 5
    assert [len(w.rounds) for w in result.by_wounds] == [5, 5] and [w.hits for w in result.by_wounds] == [10, 10]
    assert [len(e.rounds) for e in result.by_events] == [4, 4]
    # every blow measured as a hit was one, and every miss met a Bandit that could defend: round 2's misses came
    # after round 1's hit, so each table's Bandit was replaced before them (not measured)
    assert result.outside.refused == 0
    assert result.outside.for_room == 1 * 4
    assert [n.label for n in result.by_combatants] == ["2", "4"]
    assert profiled is not None and "0 refused, errors 0" in profiled
    assert "bot" in " ".join(profile_summary.summarize(profile))
    [point] = result.open_loop
    assert point.rate == 5 and point.tally.commands >= 8 and point.cpu_s > 0
    assert evening.render(result) and evening.render_open_loop(result.open_loop, 4)
