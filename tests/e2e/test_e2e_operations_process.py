"""`grievous run` as operators run it, in a process of its own: JSON log lines without the token, and
`grievous health` (what compose and systemd ask) answering 0 while it runs and 1 once it is gone."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from bot.cli import main as cli_main
from bot.ops.redact import TOKEN_SHAPE
from emulator.harness import running_emulator
from emulator.processes import ROOT
from emulator.testing import build_world
from tests.e2e.process_support import grievous, problems_in_log


async def test_grievous_run_logs_json_lines_without_the_token_and_answers_grievous_health(
        tmp_path: Path, sqlite_template: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "grievous.db"
    shutil.copyfile(sqlite_template, db)
    async with running_emulator() as emu:
        world = build_world(emu)
        bot = grievous(emu, f"sqlite+aiosqlite:///{db}", tmp_path, "bot", sync=True)
        await bot.start()
        try:
            await emu.wait_for_commands("attack", guild=world.guild)  # the server's own
            found = await emu.wait_until(
                lambda: re.search(r"health and metrics on http://127\.0\.0\.1:(\d+)/healthz", bot.log()), 10.0,
                "the health endpoint")
            port = found.group(1)
            # discord.py is ready a little after the gateway session (it waits for the guilds first).
            await emu.wait_until(lambda: '"message": "ready as ' in bot.log() or None, 15.0, "the bot to be ready")
            assert await asyncio.to_thread(cli_main, ["health", "--port", port]) == 0
            assert capsys.readouterr().out == "healthy: gateway ok, database ok, migrations ok, storage ok\n"
        finally:
            await bot.stop()
        assert await asyncio.to_thread(cli_main, ["health", "--port", port]) == 1
        assert capsys.readouterr().out.startswith(f"unhealthy: no answer from http://127.0.0.1:{port}/healthz")

    lines = [line for line in bot.log().splitlines() if line.startswith("{")]
    records = [json.loads(line) for line in lines]
    assert {"time", "level", "logger", "message"} <= set(records[0])
    assert any(r["logger"] == "grievous" and r["message"].startswith("ready as ") for r in records)
    # grievous run sets the garbage collector once it is ready (bot/ops/gc_tuning.py)
    assert any(r["message"].startswith("garbage collector settled: ") for r in records)
    assert emu.token not in bot.log() and problems_in_log(bot.log()) == []


async def test_a_token_discord_refuses_is_one_line_and_exit_2_without_the_token(
        tmp_path: Path, sqlite_template: Path) -> None:
    db = tmp_path / "grievous.db"
    shutil.copyfile(sqlite_template, db)
    async with running_emulator() as emu:
        wrong = emu.token[:-6] + "AAAAAA"  # shaped like a token, but not the bot's
        assert TOKEN_SHAPE.fullmatch(wrong)
        env = {**os.environ, "DISCORD_TOKEN": wrong, "DATABASE_URL": f"sqlite+aiosqlite:///{db}",
               "HEALTH_PORT": "0"}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "emulator.launch", emu.base_url, "bot.cli:main", "run", env=env, cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL)
        out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2, err.decode()
    last = err.decode().splitlines()[-1]
    assert last == "grievous: Discord refused DISCORD_TOKEN: copy the bot's token again from the developer portal"
    assert wrong not in (out + err).decode() and "Traceback" not in err.decode()
