"""The operator's view, piece by piece: settings, interaction names, the watchdog, redaction, log lines, the
health checks and `grievous health` (the running bot's side is in tests/e2e/test_e2e_operations.py)."""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from bot.app import _listening
from bot.cli import main
from bot.config import Config, ConfigError
from bot.db.engine import Database
from bot.db.migrate import head_revision, upgrade
from bot.ops import watchdog as watchdog_module
from bot.ops.flights import Flight, Flights, flight_of, install_task_factory, interaction_name
from bot.ops.health import HealthServer, check
from bot.ops.logs import configure_logging
from bot.ops.metrics import Metrics
from bot.ops.redact import REDACTED, add_secret, redact
from bot.ops.watchdog import PAGE_SERVER, Stall, Watchdog

# -- config ----------------------------------------------------------------------------------------------


def test_operator_config_from_env() -> None:
    default = Config.from_env({"DISCORD_TOKEN": "t"})
    assert (default.health_host, default.health_port, default.stall_ms, default.log_format) == (
        "127.0.0.1", 8081, 100, "json")
    chosen = Config.from_env({"DISCORD_TOKEN": "t", "HEALTH_HOST": "0.0.0.0", "HEALTH_PORT": "9100",
                              "STALL_LOG_MS": "250", "LOG_FORMAT": "Text"})
    assert (chosen.health_host, chosen.health_port, chosen.stall_ms, chosen.log_format) == (
        "0.0.0.0", 9100, 250, "text")
    assert Config.from_env({"DISCORD_TOKEN": "t", "HEALTH_PORT": "off"}).health_port is None


@pytest.mark.parametrize(("env", "message"), [
    ({"HEALTH_PORT": "http"}, "HEALTH_PORT is a port number"),
    ({"HEALTH_PORT": "70000"}, "HEALTH_PORT is a port number"),
    ({"STALL_LOG_MS": "soon"}, "STALL_LOG_MS must be a whole number"),
    ({"LOG_FORMAT": "xml"}, "LOG_FORMAT is one of json, text"),
])
def test_bad_operator_config_is_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.from_env({"DISCORD_TOKEN": "t", **env})


# -- interaction names: bounded, never an id or a user's text ---------------------------------------------


def test_interaction_names() -> None:
    known = {"attack", "character"}.__contains__
    sub = {"type": 2, "data": {"name": "character", "options": [
        {"type": 1, "name": "import", "options": [{"type": 3, "name": "file", "value": "x"}]}]}}
    assert interaction_name(sub, known) == "/character import"
    assert interaction_name({"type": 4, "data": {"name": "attack", "options": []}}, known) == "autocomplete /attack"
    assert interaction_name({"type": 2, "data": {"name": "made-up-1234"}}, known) == "unknown command"
    assert interaction_name({"type": 3, "data": {"custom_id": "grv:gm:123456789:death"}}, known) == "button grv:gm"
    assert interaction_name({"type": 3, "data": {"custom_id": "5f1c2e0a9b"}}, known) == "button"
    assert interaction_name({"type": 5, "data": {"custom_id": "grv:gmv:12:dice"}}, known) == "modal grv:gmv"


# -- flights and the watchdog -----------------------------------------------------------------------------


async def test_a_flight_lands_when_its_tasks_end_and_names_the_task_that_stalled() -> None:
    install_task_factory(asyncio.get_running_loop())
    landed: list[Flight] = []
    done = asyncio.Event()
    flights = Flights(lambda flight: (landed.append(flight), done.set()))
    stalls: list[Stall] = []
    watchdog = Watchdog(0.1, in_flight=flights.names, on_stall=stalls.append, interval=0.02)
    watchdog.start()
    release = asyncio.Event()

    async def blocking_work() -> None:
        await release.wait()
        time.sleep(0.4)  # noqa: ASYNC251 (holding the loop is what is being measured)

    async def handler() -> None:
        await asyncio.ensure_future(blocking_work())  # a child task, as `slow` starts

    def parse(data: dict[str, Any]) -> None:
        asyncio.get_running_loop().create_task(handler())

    flights.wrap_parser(parse, lambda name: name == "roll")({"type": 2, "data": {"name": "roll"}})
    assert flights.names() == ["/roll"] and landed == []
    await asyncio.sleep(0.1)
    release.set()
    await asyncio.wait_for(done.wait(), 5)
    await asyncio.sleep(0.05)
    await watchdog.stop()
    assert [(f.name, f.kind, f.result) for f in landed] == [("/roll", "command", "ok")] and flights.names() == []
    assert len(stalls) == 1 and stalls[0].culprit == "/roll" and 0.35 < stalls[0].seconds < 2, stalls
    assert stalls[0].commands == "/roll"


async def test_a_stall_in_a_task_that_outlived_its_command_names_the_task_not_the_command() -> None:
    """Issue 24: on SQLite, every stall of the database writer (started by the first command, /encounter
    start) was blamed on /encounter start, which had long finished."""
    install_task_factory(asyncio.get_running_loop())
    done = asyncio.Event()
    flights = Flights(lambda flight: done.set())
    stalls: list[Stall] = []
    watchdog = Watchdog(0.1, in_flight=flights.names, on_stall=stalls.append, interval=0.02)
    watchdog.start()
    release = asyncio.Event()
    started: list[asyncio.Task[None]] = []

    async def writer() -> None:  # a long-lived worker, started by the first command that needs it
        await release.wait()
        time.sleep(0.4)  # noqa: ASYNC251 (holding the loop is what is being measured)

    async def handler() -> None:  # the command's own work starts the writer, then answers and ends
        started.append(asyncio.get_running_loop().create_task(writer(), name="database-writer"))
        unlabelled = asyncio.get_running_loop().create_task(asyncio.sleep(0), context=contextvars.Context())
        assert flight_of(unlabelled) is None  # a task given a fresh context is nobody's command

    def parse(data: dict[str, Any]) -> None:
        asyncio.get_running_loop().create_task(handler())

    flights.wrap_parser(parse, lambda name: name == "encounter")({"type": 2, "data": {"name": "encounter"}})
    await asyncio.wait_for(done.wait(), 5)  # /encounter landed; its writer goes on
    assert flight_of(started[0]) is not None and flights.names() == []
    await asyncio.sleep(0.1)
    release.set()
    await started[0]
    await asyncio.sleep(0.05)
    await watchdog.stop()
    assert len(stalls) == 1, stalls
    assert stalls[0].culprit is None and stalls[0].commands == "the bot's own work (task database-writer)"


def test_a_stall_nobody_was_seen_causing_names_the_commands_in_flight() -> None:
    assert Stall(0.7, 0.1, 0.5, "/roll", True, ()).held == pytest.approx(0.2)
    assert Stall(0.3, 0.1, 0.0, None, False, ("/attack", "/roll")).commands == "one of /attack, /roll"
    assert Stall(0.3, 0.1, 0.0, None, True, ("/attack",)).commands == "no task, with /attack in flight"
    assert Stall(0.3, 0.1, 0.05, None, True, ()).blocked == pytest.approx(0.15)
    assert Stall(0.3, 0.1, 0.0, None, False, ()).commands == "no command (the bot's own work)"


def test_a_stall_while_the_bots_other_threads_waited_for_a_cpu_is_the_machines() -> None:
    """A loaded machine: the loop thread blocked 3.7 s on the GIL while the thread holding it sat 3.5 s in
    the run queue. The bot itself held the loop 0.3 s (on a CPU 0.1 s, blocked 0.2 s beyond the wait)."""
    stall = Stall(4.0, 0.1, 0.2, "/attack", True, (), others_waiting_seconds=3.5)
    assert stall.blocked == pytest.approx(3.7) and stall.held == pytest.approx(0.3)
    assert Stall(4.0, 0.1, 0.2, None, True, (), others_waiting_seconds=9.0).held == pytest.approx(0.1)


async def test_the_watchdog_takes_the_other_threads_wait_from_their_schedstat(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = iter(range(0, 1000, 10))  # each look: the other threads queued 10 s more (a machine under a hog)
    monkeypatch.setattr(watchdog_module, "_others_waiting", lambda _me: float(next(waits)))
    stalls: list[Stall] = []
    watchdog = Watchdog(0.1, in_flight=list, on_stall=stalls.append, interval=0.02)
    watchdog.start()
    await asyncio.sleep(0.05)
    time.sleep(0.3)  # noqa: ASYNC251  # the loop held on purpose: blocked, not on a CPU
    await asyncio.sleep(0.05)
    await watchdog.stop()
    [stall] = stalls
    assert stall.others_waiting_seconds == pytest.approx(stall.seconds)  # capped at the stall
    assert stall.held < 0.1


def test_metrics_are_per_bot() -> None:
    one, two = Metrics(), Metrics()
    one.observe_command("/roll", "ok", 0.02, deferred=True, missed=False)
    one.observe_stall(0.3, None)
    assert b'grievous_commands_total{command="/roll",result="ok"} 1.0' in one.exposition()
    assert b'grievous_deferred_answers_total{command="/roll"} 1.0' in one.exposition()
    assert b'grievous_event_loop_stalls_total{command="none"} 1.0' in one.exposition()
    assert b'command="/roll"' not in two.exposition()


# -- redaction and log lines ------------------------------------------------------------------------------

SHAPED = "MTA5ODc2NTQzMjEwOTg3NjU0.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


def test_the_encounter_cache_counts_are_read_at_each_scrape() -> None:
    from bot.services.encounter_cache import EncounterCache

    metrics, cache = Metrics(), EncounterCache()
    metrics.watch_encounter_cache(cache)
    cache.hits, cache.misses, cache.dropped = 7, 2, 1
    text = metrics.exposition().decode()
    assert 'grievous_encounter_cache_lookups_total{result="hit"} 7.0' in text
    assert 'grievous_encounter_cache_lookups_total{result="miss"} 2.0' in text
    assert "grievous_encounter_cache_dropped_total 1.0" in text
    assert "grievous_encounter_cache_entries 0.0" in text


def test_redaction_takes_the_secret_and_anything_token_shaped() -> None:
    add_secret("not-shaped-like-a-token-at-all")
    assert redact("a not-shaped-like-a-token-at-all b") == f"a {REDACTED} b"
    assert redact(f"Bot {SHAPED}, and lower: {SHAPED.lower()}") == f"Bot {REDACTED}, and lower: {REDACTED}"
    assert redact("3d6+2 vs 14, v1.2.3, https://example.org/a.b") == "3d6+2 vs 14, v1.2.3, https://example.org/a.b"


def test_redaction_takes_a_token_a_refusal_made_plain() -> None:
    """A refusal's line is made plain whole (bot/ui/replies.py ``refusal``): a token typed into it comes back with its
    underscores and asterisks escaped, and must still be redacted, ours and any token-shaped text alike."""
    from bot.ui.replies import refusal

    ours = "MTU3OTU1MTMwOTE3NzE1OTY4MA.fOoo_g.1vnnTdM6jmIbDGyQVgOzm_YCXuULORovwkR9"
    add_secret(ours)
    other = "MTA5ODc2NTQzMjEwOTg3NjU0.Ga_cDe.abc_defghijklmnopq_rstuvwxyz0123456789"
    for token in (ours, ours.lower(), other):
        line = refusal(ValueError(f"cannot read '{token}': try 3d6+2 or d20 vs 14"))
        assert token not in line and "\\_" in line  # escaped: the plain token is no longer in it
        assert redact(line) == f"cannot read '{REDACTED}': try 3d6+2 or d20 vs 14", line
    add_secret("a\\_b*c_d*e")  # a secret with escapes of its own
    assert redact("x a\\_b*c_d*e y") == f"x {REDACTED} y"


@pytest.fixture
def restore_logging() -> Any:
    factory, root = logging.getLogRecordFactory(), logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    logging.setLogRecordFactory(factory)
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_lines_are_redacted_with_the_traceback(restore_logging: Any) -> None:
    stream = io.StringIO()
    configure_logging("INFO", "json", token=SHAPED, stream=stream)
    log = logging.getLogger("grievous.test")
    log.debug("not shown")
    log.info("logged in with %s", SHAPED)
    try:
        raise RuntimeError(f"token {SHAPED}")
    except RuntimeError:
        log.exception("it broke")
    log.warning("event loop stalled", extra={"stall": Stall(0.25, 0.2, 0.05, "/roll", True, ("/roll",))})
    log.warning("event loop stalled", extra={"stall": Stall(0.03, 0.03, 0.0, None, True, (), task="web /web/")})
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(line["level"], line["logger"], line["message"]) for line in lines] == [
        ("INFO", "grievous.test", f"logged in with {REDACTED}"), ("ERROR", "grievous.test", "it broke"),
        ("WARNING", "grievous.test", "event loop stalled"), ("WARNING", "grievous.test", "event loop stalled")]
    assert lines[1]["exc"].endswith(f"RuntimeError: token {REDACTED}") and "Traceback" in lines[1]["exc"]
    assert (lines[2]["stall_ms"], lines[2]["cpu_ms"], lines[2]["wait_ms"], lines[2]["held_ms"], lines[2]["command"]
            ) == (250, 200, 50, 200, "/roll")
    assert "task" not in lines[2] and (lines[3]["held_ms"], lines[3]["task"]) == (30, "web /web/")
    assert SHAPED not in stream.getvalue() and lines[0]["time"].endswith("+00:00")


def test_key_value_lines(restore_logging: Any) -> None:
    stream = io.StringIO()
    configure_logging("INFO", "text", stream=stream)
    logging.getLogger("grievous").info("ready as %s", "Grievous#0001")
    line = stream.getvalue()
    assert line.endswith(' level=INFO logger=grievous message="ready as Grievous#0001"\n') and line.count("\n") == 1


# -- health checks and `grievous health` ------------------------------------------------------------------


async def test_a_health_check_logs_nothing_and_a_migration_still_does(tmp_path: Path, restore_logging: Any) -> None:
    # compose.yaml's healthcheck asks /healthz every 30 s; each check reads the database's revision through Alembic
    stream = io.StringIO()
    configure_logging("INFO", "json", stream=stream)
    db = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}")
    try:
        await upgrade(db)
        migrated = [json.loads(line)["message"] for line in stream.getvalue().splitlines()]
        assert migrated and all(message.startswith("Running upgrade ") for message in migrated)
        for _ in range(2):
            assert (await check(lambda: "ok", db, head_revision())).ok
    finally:
        await db.dispose()
    assert len(stream.getvalue().splitlines()) == len(migrated)


async def test_health_checks_name_what_failed(tmp_path: Path) -> None:
    db = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}")
    try:
        behind = await check(lambda: "ok", db, head_revision())
        assert (behind.ok, behind.failed()) == (False, ["migrations"])
        assert behind.migrations == f"database at no revision, code at {head_revision()}"
        await upgrade(db)
        assert (await check(lambda: "ok", db, head_revision())).shown() == {
            "gateway": "ok", "database": "ok", "migrations": "ok", "storage": "ok"}
        assert (await check(lambda: "not connected yet", db, head_revision())).failed() == ["gateway"]
    finally:
        await db.dispose()
    gone = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}")
    health = await check(lambda: "ok", gone, head_revision())
    assert (health.database, health.failed()) == ("unreachable: OperationalError", ["database", "migrations"])
    await gone.dispose()


async def test_an_endpoint_whose_port_is_taken_is_one_error_line_and_the_bot_runs_without_it(caplog: Any) -> None:
    # setup_hook starts the health endpoint and the web page through _listening
    def server(port: int) -> HealthServer:
        return HealthServer(gateway=lambda: "ok", db=lambda: None, metrics=Metrics(), port=port)

    free = server(0)
    assert await _listening(free, "no health endpoint") is free
    await free.stop()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused = server(port)
        with caplog.at_level(logging.ERROR, logger="bot.app"):
            assert await _listening(refused, "no health endpoint") is None
        await refused.stop()
    assert f"no health endpoint: cannot listen on 127.0.0.1:{port} (" in caplog.text


def test_health_command_without_an_endpoint(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("HEALTH_PORT", "off")
    assert main(["health"]) == 2
    assert capsys.readouterr().err == "grievous: HEALTH_PORT is off: the bot has no health endpoint to ask\n"
    monkeypatch.setenv("HEALTH_PORT", "1")  # nothing listens on port 1
    assert main(["health"]) == 1
    assert capsys.readouterr().out.startswith("unhealthy: no answer from http://127.0.0.1:1/healthz")


def test_the_process_tests_find_errors_in_json_log_lines(restore_logging: Any) -> None:
    from tests.e2e.process_support import problems_in_log

    stream = io.StringIO()
    configure_logging("INFO", "json", stream=stream)
    logging.getLogger("grievous").info("ready")
    logging.getLogger("grievous.errors").error("unexpected error in /attack")
    log = stream.getvalue() + "Traceback (most recent call last):\n"
    problems = problems_in_log(log)
    assert len(problems) == 2 and '"unexpected error in /attack"' in problems[0]
    assert problems[1].startswith("Traceback")


def test_interaction_tokens_are_redacted_in_debug_lines() -> None:
    """Issue 24: an interaction's token answers and edits as the bot for 15 minutes; discord.py's DEBUG lines
    carry it in the callback and webhook URLs and in the gateway's payloads."""
    from emulator.snowflake import interaction_token

    token = interaction_token(1234567890123456789)
    lines = [
        f"POST https://discord.com/api/v10/interactions/1234567890123456789/{token}/callback has returned 204",
        f"PATCH https://discord.com/api/v10/webhooks/987654321098765432/{token}/messages/@original has returned 200",
        f"For Shard ID 0: WebSocket Event: {{'t': 'INTERACTION_CREATE', 'd': {{'token': '{token}', 'id': '1'}}}}",
        "POST /webhooks/987654321098765432/unlike-ours-but-still-a-token-0123456789 has returned 200",
        '{"token": "some-other-shaped-interaction-token-value"}',
    ]
    for line in lines:
        shown = redact(line)
        assert token not in shown and REDACTED in shown, shown
        assert "unlike-ours" not in shown and "some-other-shaped" not in shown
    assert redact("GET /webhooks/1/abc has returned 200") == "GET /webhooks/1/abc has returned 200"


def test_a_stall_no_command_caused_names_the_processs_own_work() -> None:
    """`grievous web` runs no commands: its stalls are the page server's own work, not 'no command (the bot's own
    work)'."""
    assert Stall(0.3, 0.1, 0.0, None, False, (), role=PAGE_SERVER).commands == "the page server's own work"
    assert Stall(0.3, 0.1, 0.0, None, True, (), task="web /web/roster", role=PAGE_SERVER).commands == \
        "the page server's own work (task web /web/roster)"
    assert Stall(0.3, 0.1, 0.0, None, True, (), task="web /web/roster").commands == \
        "the bot's own work (task web /web/roster)"
