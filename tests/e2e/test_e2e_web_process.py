"""`grievous web` beside `grievous run` (issue 33): the page served by a process of its own, which never connects to
Discord, on the bot's database (SQLite: one file, both processes writing it; PostgreSQL where it can run).

The bot makes the /web links (WEB_BASE_URL, no WEB_PORT: it serves no page) and the web process opens them, as a
proxy sending /web/ to the web process would; an attack answered by the bot reaches the web process's live streams
within 2 s; the player's stream holds no figure the GM keeps secret, which the GM's does (so the check can fail);
`grievous health` finds it healthy and its /metrics counts its pages; its watchdog's stalls are JSON lines with their
figures; SIGTERM ends the open streams and the process exits 0, its log holding no token, no cookie and no error.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.cli import main as cli_main
from emulator import Emulator, Member
from emulator.harness import running_emulator
from emulator.models import walk_components
from emulator.processes import ROOT
from emulator.testing import build_world
from tests.e2e.process_support import answer, grievous, problems_in_log, run, seat_ars_harn
from tests.e2e.web_support import Reader, Stream

pytestmark = pytest.mark.slow
BASE = "http://grievous.test"  # the address the links carry (http: the cookie comes back over the test's http)
BJORN = {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5", "weapons": "Broadsword"}
BLOW = "attack=9 defense=2 location=85 defender_shock=8 defender_stumble=8"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """SQLite: a file neither process has made yet (both migrate it at once, taking turns); PostgreSQL: the session's,
    emptied."""
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'campaign.db'}"
    return str(request.getfixturevalue("empty_db_url"))


def logged(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


async def web_process(url: str, log: Path, token: str) -> tuple[asyncio.subprocess.Process, str]:
    """`python -m bot web` on ``url`` (its settings as an operator's shared file would give them, the bot's token
    included) and the address it listens on, once it says it is ready."""
    # STALL_LOG_MS 1: its watchdog logs nearly every wake-up, so the test sees the lines a benchmark reads
    env = {**os.environ, "DATABASE_URL": url, "WEB_PORT": "0", "WEB_BASE_URL": BASE, "HEALTH_PORT": "0",
           "DISCORD_TOKEN": token, "PYTHONUNBUFFERED": "1", "STALL_LOG_MS": "1"}
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "web", env=env, cwd=ROOT,
                                                       stdout=out, stderr=out, stdin=asyncio.subprocess.DEVNULL)
    for _ in range(600):
        text = logged(log)
        listening = re.search(r"listening on (127\.0\.0\.1:\d+)", text)
        if "web process ready" in text and listening:
            return process, f"http://{listening.group(1)}"
        assert process.returncode is None, text
        await asyncio.sleep(0.1)
    process.kill()
    raise AssertionError("grievous web did not get ready within 60 s:\n" + logged(log))


async def web_link(emu: Emulator, user: Member, channel: object, served_at: str) -> str:
    """The /web link the bot answers ``user`` with, sent to the web process."""
    message = await answer(emu, "web", {}, user=user, channel=channel)  # type: ignore[arg-type]
    [url] = [c["url"] for c in walk_components(message.components) if c.get("url")]
    assert url.startswith(f"{BASE}/web/login?t="), url
    parts = urlsplit(url)
    return f"{served_at}{parts.path}?{parts.query}"


async def test_grievous_web_serves_the_bots_links_and_live_fights_and_stops_on_sigterm(
        database: str, tmp_path: Path) -> None:
    async with running_emulator() as emu:
        world = build_world(emu)
        bot = grievous(emu, database, tmp_path, "bot", sync=True, settings={"WEB_BASE_URL": BASE})
        (web, served_at), _ = await asyncio.gather(web_process(database, tmp_path / "web.log", emu.token),
                                                   bot.start())
        gm, alice = Reader.new(), Reader.new()
        streams: list[Stream] = []
        try:
            await emu.wait_for_commands("web")  # shared
            await emu.wait_for_commands("attack", guild=world.guild)  # the server's own
            combat = world.combat
            await seat_ars_harn(emu, world.manager, world.gm_role, combat)
            await run(emu, "setup secret-rolls", {"on": True}, user=world.manager, channel=combat)
            await run(emu, "character create", BJORN, user=world.alice, channel=combat)
            await run(emu, "encounter start", {}, user=world.gm, channel=combat)
            await run(emu, "encounter npcs", {"template": "bandit", "count": 1}, user=world.gm, channel=combat)
            await run(emu, "encounter add", {"character": "Bjorn"}, user=world.alice, channel=combat)

            cookies = []
            for reader, member in ((gm, world.gm), (alice, world.alice)):
                link = await web_link(emu, member, combat, served_at)
                status, page = await reader.open(link)  # the login, then the campaign page it redirects to
                assert status == 200 and "combat" in page, page
                cookies.append(link.split("t=", 1)[1])
                cookies += [c.value for c in reader.http.cookie_jar]
            live = f"{served_at}/web/encounter/{combat.id}/live"
            streams = [await Stream(gm).open(live), await Stream(alice).open(live)]
            for stream in streams:
                await stream.shows("Bandit 1", within=10)

            # Secret rolls: the bandit's initiative (9 rolled: 11) is the GM's alone.
            await run(emu, "encounter initiative", {"dice": "Bjorn=4; Bandit 1=9"}, user=world.gm, channel=combat)
            await run(emu, "attack", {"attacker": "Bandit 1", "target": "Bjorn", "aspect": "edge", "dice": BLOW},
                      user=world.gm, channel=combat)
            answered = time.monotonic()  # committed by the bot before it answered
            for stream in streams:
                await stream.shows("Bandit 1 attacks Bjorn", within=2.0 - (time.monotonic() - answered))
            gm_frames, alice_frames = ("".join(data for _, data in stream.frames) for stream in streams)
            assert "Bandit 1</strong> (11)" in gm_frames  # the planted figure, where the GM may read it
            assert "Bjorn</strong> (7)" in alice_frames and "(11)" not in alice_frames

            # Its own health and metrics: healthy with no gateway, the pages counted.
            health = re.search(r"health and metrics on http://127\.0\.0\.1:(\d+)/", logged(tmp_path / "web.log"))
            assert health is not None
            assert await asyncio.to_thread(cli_main, ["health", "--port", health.group(1)]) == 0
            async with gm.http.get(f"http://127.0.0.1:{health.group(1)}/metrics") as metrics:
                assert 'grievous_web_requests_total{page="/web/login",status="303"} 2.0' in await metrics.text()

            web.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(web.wait(), 20) == 0
            for stream in streams:  # each open stream ended with the process, not cut by the test
                assert stream.task is not None
                await asyncio.wait_for(stream.task, 5)
        finally:
            for stream in streams:
                await stream.close()
            await gm.close()
            await alice.close()
            if web.returncode is None:
                web.kill()
                await web.wait()
            bot.kill()  # its own stop is test_e2e_stop's; here it would wait out the attack's last follow-ups
            await bot.wait()
    log = logged(tmp_path / "web.log")
    assert "stopping on a signal" in log and problems_in_log(log) == [], log
    records = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    stalls = [r for r in records if r["logger"] == "grievous.watchdog"]
    assert stalls and all(isinstance(r["stall_ms"], int) and isinstance(r["held_ms"], int) for r in stalls)
    for secret in (emu.token, *cookies):
        assert secret not in log
    assert problems_in_log(bot.log()) == []
