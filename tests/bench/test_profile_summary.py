"""bench.profile_summary reads py-spy's raw output (``bench.scaling --mix --spy``) into the component table it makes
from a cProfile: a small made-up file, every count known."""

from __future__ import annotations

import cProfile
import sysconfig
from pathlib import Path

from bench import profile_summary
from bench.profile_summary import ROOT, read_spy

SITE = "/venv/lib/python3.11/site-packages"
STDLIB = sysconfig.get_paths()["stdlib"]


def _raw(tmp_path: Path) -> tuple[Path, Path]:
    """A worker loop's source (its queue wait on line 3, its work on line 4) and a raw file of stacks around it."""
    worker = tmp_path / "site-packages" / "aiosqlite" / "core.py"
    worker.parent.mkdir(parents=True)
    worker.write_text("def _connection_worker_thread(tx):\n    while True:\n        future, function = tx.get()\n"
                      "        result = function()\n")
    main = (f"thread (0x7F01): MainThread;<module> (/work/launch.py:38);"
            f"BaseEventLoop.run_forever ({SITE}/asyncio_x.py:607)")
    loop = f"{main};BaseEventLoop._run_once ({STDLIB}/asyncio/base_events.py:1922)"
    lines = [
        # the event loop's work: SQLAlchemy's flush (10), a service (4, through SQLAlchemy's flush again: counted
        # once for the flush), json (3, py-spy's short name for the standard library)
        f"{loop};Session.flush ({SITE}/sqlalchemy/orm/session.py:4626);"
        f"UOWTransaction.execute ({SITE}/sqlalchemy/orm/unitofwork.py:467) 10",
        f"{loop};Session.flush ({SITE}/sqlalchemy/orm/session.py:4626);"
        f"run_action ({ROOT}/bot/services/actions.py:120);Session.flush ({SITE}/sqlalchemy/orm/session.py:4630);"
        f"record_event ({ROOT}/bot/services/actions.py:200) 4",
        f"{loop};dumps (json/__init__.py:231);JSONEncoder.encode (json/encoder.py:200) 3",
        # py-spy's short form of one of ours, without --full-filenames: found in the repository (bot/ui)
        f"{loop};publish_report (action_message.py:341) 2",
        # the loop waiting in epoll: not CPU
        f"{loop};EpollSelector.select ({STDLIB}/selectors.py:468) 50",
        # aiosqlite's threads (two of them, their numbers differ): one sample of work, waits on the queue dropped
        f"thread (0x7F02): Thread-12 (_connection_worker_thread);Thread._bootstrap (threading.py:995);"
        f"_connection_worker_thread ({worker}:4) 1",
        f"thread (0x7F03): Thread-13 (_connection_worker_thread);Thread._bootstrap (threading.py:995);"
        f"_connection_worker_thread ({worker}:3) 40",
        f"thread (0x7F02): Thread-12 (_connection_worker_thread);_connection_worker_thread ({worker}:3) 30",
        # the watchdog waiting on its condition
        "thread (0x7F04): grievous-watchdog;Thread._bootstrap (threading.py:995);Condition.wait (threading.py:331) 9",
        "",
    ]
    raw = tmp_path / "hit.pyspy"
    raw.write_text("\n".join(lines))
    return raw, worker


def test_a_sample_goes_to_its_innermost_frames_component_and_waits_are_left_out(tmp_path: Path) -> None:
    raw, _ = _raw(tmp_path)
    samples = read_spy(raw.read_text().splitlines())
    assert samples.by_component == {"sqlalchemy + driver": 11, "bot/services": 4, "json": 3, "bot/ui": 2}
    assert samples.by_thread == {"MainThread": 19, "Thread-N (_connection_worker_thread)": 1}
    assert samples.waits == {"MainThread": 50, "Thread-N (_connection_worker_thread)": 70, "grievous-watchdog": 9}
    assert samples.busy == 20
    # inclusive: a stack counts once for each function in it, however often it appears
    assert samples.by_function["Session.flush (sqlalchemy/orm/session.py)"] == 14
    assert samples.by_function["run_action (bot/services/actions.py)"] == 4
    assert samples.by_function["BaseEventLoop._run_once (asyncio/base_events.py)"] == 19


def test_the_report_tells_py_spy_from_cprofile_and_shares_the_cpu_out(tmp_path: Path) -> None:
    raw, _ = _raw(tmp_path)
    profile = tmp_path / "p.prof"
    profiler = cProfile.Profile()
    profiler.runcall(sorted, range(1000))
    profiler.dump_stats(profile)
    assert profile_summary.is_spy_output(raw) and not profile_summary.is_spy_output(profile)

    lines = profile_summary.report(raw, per=10, cpu_s=0.02, pattern=r"^run_action ")
    assert lines[0].startswith("py-spy: 20 samples at 500/s") and "129 more samples were waits" in lines[0]
    # 20 ms of CPU shared out by 20 samples, over 10 commands: 0.1 ms a command a sample
    assert "| sqlalchemy + driver | 55.0% | 1.10 |" in lines
    assert "| bot/ui | 10.0% | 0.20 |" in lines
    assert "| run_action (bot/services/actions.py) | 20.0% |" in lines
    # a cProfile still gives its own table
    assert profile_summary.report(profile)[0] == "| component | share of busy time | s |"
