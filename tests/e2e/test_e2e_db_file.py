"""A campaign never vanishes with its database file (bot/db/identity.py), as `grievous run` meets it: a first
start makes the file and its id file silently; `rm grievous.db*` under the running bot is noticed (writes
refused in one line, `grievous health` 503 "database file deleted", one logged error); and the next start
refuses in one line instead of making an empty database."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest

from bot.cli import main as cli_main
from bot.db.identity import id_file
from emulator import Emulator
from emulator.harness import running_emulator
from emulator.processes import ROOT
from emulator.testing import build_world
from tests.e2e.process_support import DEADLINE, grievous, message_text

HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"


def rm_database(folder: Path) -> None:
    """What `rm grievous.db*` does."""
    for path in folder.glob("grievous.db*"):
        path.unlink()


async def start_refused(emu: Emulator, db: Path) -> tuple[int | None, str]:
    """`grievous run` on ``db``: its exit code and the last line it printed."""
    env = {**os.environ, "DISCORD_TOKEN": emu.token, "DATABASE_URL": f"sqlite+aiosqlite:///{db}", "HEALTH_PORT": "0"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "emulator.launch", emu.base_url, "bot.cli:main", "run", env=env, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL)
    _out, err = await asyncio.wait_for(process.communicate(), 60)
    assert "Traceback" not in err.decode()
    return process.returncode, err.decode().strip().splitlines()[-1]


async def test_a_database_file_deleted_under_the_running_bot_is_noticed_and_the_next_start_refuses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "grievous.db"
    async with running_emulator(interaction_deadline=DEADLINE) as emu:
        world = build_world(emu)
        bot = grievous(emu, f"sqlite+aiosqlite:///{db}", tmp_path, "bot", sync=True)
        await bot.start()
        try:
            await emu.wait_for_commands("setup", within=DEADLINE)
            port = (await emu.wait_until(
                lambda: re.search(r"health and metrics on http://127\.0\.0\.1:(\d+)/healthz", bot.log()), 10.0,
                "the health endpoint")).group(1)
            assert db.exists() and id_file(db).exists(), "a first start makes both, silently"
            manager = world.manager
            first = await emu.slash("setup system", {"system": "ars-harn"}, user=manager, channel=world.combat)
            assert "ars-harn" in message_text(await first.message(DEADLINE)).lower()

            rm_database(tmp_path)
            assert id_file(db).exists()
            # noticed while nobody writes: logged once
            await emu.wait_until(lambda: "database file deleted" in bot.log() or None, DEADLINE, "the logged error")
            again = await emu.slash("setup system", {"system": "pendragon"}, user=manager, channel=world.combat)
            line = message_text(await again.message(DEADLINE))
            assert "database file was deleted" in line and "nothing was saved" in line, line
            assert await asyncio.to_thread(cli_main, ["health", "--port", port]) == 1
            assert "database file deleted" in capsys.readouterr().out
            errors = [line for line in bot.log().splitlines() if '"level": "ERROR"' in line]
            assert len(errors) == 1 and "database file deleted" in errors[0], errors
        finally:
            await bot.stop()
        assert not db.exists()

        code, last = await start_refused(emu, db)
        assert code == 2
        assert last.startswith(f"grievous: the database file {db} is gone, but .grievous.db.id"), last
        assert not db.exists(), "no empty database made in its place"

        db.write_bytes(b"")  # another file in its place: refused too
        code, last = await start_refused(emu, db)
        assert code == 2 and f"{db} is not the database that was there" in last, last
