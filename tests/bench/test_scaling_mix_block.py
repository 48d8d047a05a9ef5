"""`bench.scaling --mix --write`'s block for docs/scaling.md and the open loop's table, from made-up figures: every
number known, so each cell can be checked (the figures of a real run are never asserted)."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

from bench import evening, scaling
from bench.doc_block import write_block


def _evening(cpu_ms: dict[str, float], open_loop: list[evening.OpenRate] | None = None) -> evening.Evening:
    mix = evening.Tally()
    mix.latencies["attack"] = [10.0] * 90 + [500.0] * 10
    mix.latencies["noop"] = [1.0] * 100
    kinds = [evening.KindCost(kind, 30, cpu_ms[kind], 5.0, 9.0) for kind in evening.KINDS]
    return evening.Evening(mix, mix_seconds=2.0, mix_cpu_s=0.8, mix_rest_calls=260, kinds=kinds, by_wounds=[],
                           by_events=[], by_combatants=[], open_loop=open_loop or [])


def test_the_mix_block_names_the_commit_machine_and_load_and_has_a_row_a_backend(tmp_path: Path) -> None:
    costs = {kind: 1.0 + i for i, kind in enumerate(evening.KINDS)}  # the no-op first: 1.0
    # 260 requests: 200 through the interaction's token (not counted by the global limit), 60 tracker edits
    requests = (["POST /interactions/{interaction_id}/{token}/callback"] * 150
                + ["PATCH /webhooks/{application_id}/{token}/messages/@original"] * 50
                + ["PATCH /channels/{channel_id}/messages/{message_id}"] * 60)
    runs = [scaling.MixRun("SQLite (WAL, one file)", _evening(costs), scaling.MixSide(requests), None),
            scaling.MixRun("postgres (PostgreSQL) 15.18", _evening(costs), scaling.MixSide(requests, 0.3, 7), None)]
    args = scaling.parse_args(["--mix", "--active", "20", "--per-player", "40"])
    block = scaling.render_mix(runs, args, "0.50 0.40 0.30", datetime(2026, 12, 2, 17, 0, tzinfo=UTC), "abc1234")
    assert block.startswith("Measured 2026-12-02 17:00 UTC at abc1234 with `python -m bench.scaling ")
    assert "load average 0.50 0.40 0.30 at the start" in block and " cores (" in block
    # 200 commands in 2 s, 0.8 s of bot CPU: 4.0 ms a command; 260 REST calls: 1.30, 60 of them counted by the
    # global limit: 0.30; PostgreSQL's 0.3 s: 1.5 ms
    assert "| SQLite (WAL, one file) | 200 | 100 | 4.0 | 1.30 | 0.30 | 1 | 500 | — (SQLite's is in the bot's)" in block
    assert "| postgres (PostgreSQL) 15.18 | 200 | 100 | 4.0 | 1.30 | 0.30 | 1 | 500 | 1.5 | 7 | 0 |" in block
    assert "| attack (hit) | 7.00 (7.0×) | 7.00 (7.0×) |" in block

    doc = tmp_path / "scaling.md"
    doc.write_text("# Scaling\n\n<!-- bench:scaling-mix:start -->\nold\n<!-- bench:scaling-mix:end -->\n\nkept\n")
    write_block(doc, "scaling-mix", block, intro="unused")
    text = doc.read_text()
    assert "old" not in text and text.endswith("<!-- bench:scaling-mix:end -->\n\nkept\n") and block in text


def test_the_open_loop_counts_an_unanswered_command_at_the_wait_and_shows_each_tables_pace() -> None:
    tally = evening.Tally()
    tally.latencies["attack"] = [20.0] * 98
    tally.latencies["unanswered"] = [evening.WAIT * 1000.0]
    tally.errors = ["attack: TimeoutError no answer", "roll: TimeoutError no answer"]
    point = evening.OpenRate(50.0, tally, seconds=10.0, elapsed=12.0, cpu_s=3.0, load="2.50")
    table = evening.render_open_loop([point], tables=200)
    # 99 commands made in 10 s; a table's step every 200 / 50 = 4 s; the bot's 3 s of CPU over 12 s: a quarter of a
    # core; the unanswered one is the p99 and the max
    assert table[2] == "| 50 | one every 4.0 s | 10 | 0.25 | 2.50 | 20 | 30000 | 30000 | 1 | 2 |"
    assert table[-1].startswith("- at 50/s: attack: TimeoutError")


def test_a_postgres_port_nothing_listens_on_has_no_cpu_to_read() -> None:
    assert math.isnan(scaling.postgres_cpu_seconds(1))


def test_the_mix_runs_on_sqlite_unless_told_and_the_loop_on_both() -> None:
    assert scaling.parse_args(["--mix"]).backends == "sqlite"
    assert scaling.parse_args([]).backends == "sqlite,postgres"
    assert scaling.parse_args(["--mix", "--backends", "postgres"]).backends == "postgres"
