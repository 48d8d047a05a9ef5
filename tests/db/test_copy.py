"""`grievous db copy SOURCE TARGET`: a SQLite file's every row, into PostgreSQL or another SQLite file, and the
bot carries on on the copy (PostgreSQL's id sequences moved past the copied ids). Bad input is one line, exit 2,
and changes nothing."""

from __future__ import annotations

import asyncio
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from bot.cli import main
from bot.db.copy import tables
from bot.db.engine import Database
from bot.services import Actor, Services
from bot.services.web_sessions import Grant
from bot.text_safety import skeleton
from tests.conftest import SERVICE_WORK_SECONDS

GUILD, CHANNEL, OTHER_CHANNEL, GM_ROLE = 7001, 7002, 7003, 7004
MANAGER = Actor(GUILD, CHANNEL, 1, "Manager", is_manager=True)
GM = Actor(GUILD, CHANNEL, 2, "Gemma", (GM_ROLE,))
ALICE = Actor(GUILD, CHANNEL, 11, "Alice")
KILL_BLOW = "attack=9 defense=2 location=50 defender_kill=2 defender_shock=8"
# A homebrew pack: the default armour file, uploaded as the server's own.
ARMOUR_PACK = (Path(__file__).resolve().parents[2] / "content" / "ars_harn" / "armour.yaml").read_bytes()


@pytest.fixture
def source(sqlite_template: Path, tmp_path: Path) -> str:
    path = tmp_path / "source.db"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


async def fill(url: str) -> None:
    """A guild mid-fight: settings, a channel's own system, characters, an encounter with NPCs, attacks (one
    waiting on the GM's kill decision)."""
    database = Database.from_url(url)
    services = Services(database)
    services.runtime.slow_work.work_budget = SERVICE_WORK_SECONDS  # the pack's build is not what this test checks
    try:
        await services.setup.set_system(MANAGER, "ars-harn")
        await services.setup.set_gm_role(MANAGER, GM_ROLE)
        await services.setup.set_system(Actor(GUILD, OTHER_CHANNEL, 1, "Manager", is_manager=True), "pendragon",
                                           channel_only=True)
        await services.packs.upload(MANAGER, "armour.yaml", ARMOUR_PACK)
        await services.characters.create(ALICE, "Bjorn", {"str": 2, "sta": 1, "dex": 1, "qik": 1,
                                                          "abilities.Sword": 5}, ["Broadsword"])
        await services.encounters.start(GM)
        await services.encounters.add(ALICE, "Bjorn")
        await services.encounters.add_npcs(GM, "bandit", 3)
        await services.combat.attack(ALICE, "Bandit 1", "Broadsword", {"aspect": "edge", "aim": "mid", "modifier": 8},
                                     dice_text=KILL_BLOW)
        await services.combat.attack(ALICE, "Bandit 2", "Broadsword", {"aspect": "edge"},
                                     dice_text="attack=9 defense=2 location=12 "
                                               "defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9")
        await services.guild_commands.mark_synced({GUILD: "f" * 32})  # what the bot last sent this server
        # a /web link opened (a session) and one not yet opened: the page's logins go with the campaign
        grant = Grant(GUILD, ALICE.user_id, "Alice", "player", (), False, frozenset({CHANNEL}))
        await services.web_sessions.exchange(await services.web_sessions.link_token(grant))
        await services.web_sessions.link_token(grant)
    finally:
        await database.dispose()


async def dump(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, by primary key, times in UTC."""
    database = Database.from_url(url)
    out: dict[str, list[dict[str, Any]]] = {}
    try:
        async with database.engine.connect() as connection:
            for table in tables():
                rows = (await connection.execute(select(table).order_by(*table.primary_key.columns))).mappings()
                out[table.name] = [{k: _utc(v) for k, v in row.items()} for row in rows]
    finally:
        await database.dispose()
    return out


def _utc(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


async def empty(url: str) -> None:
    database = Database.from_url(url)
    try:
        async with database.engine.begin() as connection:
            names = ", ".join(t.name for t in tables())
            await connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    finally:
        await database.dispose()


async def carry_on(url: str) -> int:
    """The bot keeps going on the copy: another attack is stored with the next event id."""
    database = Database.from_url(url)
    try:
        report = await Services(database).combat.attack(
            ALICE, "Bandit 3", "Broadsword", {"aspect": "edge"},
            dice_text="attack=9 defense=2 location=12 "
                      "defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9")
        return int(report.event_id or 0)
    finally:
        await database.dispose()


async def cli(*args: str) -> int:
    """`grievous ARGS` (it runs its own event loop, so in a thread)."""
    return await asyncio.to_thread(main, list(args))


async def copy_and_check(source: str, target: str, capsys: Any) -> None:
    await fill(source)
    before = await dump(source)
    assert all(before[table.name] for table in tables())
    assert await cli("db", "copy", source, target) == 0
    out = capsys.readouterr().out
    rows = sum(len(r) for r in before.values())
    assert out.startswith(f"copied {rows} rows in {len(tables())} tables from sqlite+aiosqlite:///")
    assert out.endswith("row counts verified\n")
    assert await dump(target) == before
    new = await carry_on(target)
    assert new == max(e["id"] for e in before["events"]) + 1
    # the names each event names come along (the filtered log's index), and the copy's new events add theirs
    attacks = {e["id"] for e in before["events"] if e["kind"] == "attack"}
    assert attacks and {n["event_id"] for n in before["event_names"]} >= attacks
    added = [n for n in (await dump(target))["event_names"] if n["event_id"] == new]
    assert sorted(n["skeleton"] for n in added) == sorted(skeleton(name) for name in ("Bjorn", "Bandit 3"))

    # A target that holds rows is refused, and left as it is; --replace empties it first.
    after = await dump(target)
    assert await cli("db", "copy", source, target) == 2
    err = capsys.readouterr().err
    assert "already holds rows" in err and "--replace" in err and err.count("\n") == 1
    assert await dump(target) == after
    assert await cli("db", "copy", source, target, "--replace", "--batch", "2") == 0
    assert await dump(target) == before


async def test_copy_a_sqlite_file_into_another(source: str, tmp_path: Path, capsys: Any) -> None:
    await copy_and_check(source, f"sqlite+aiosqlite:///{tmp_path / 'target.db'}", capsys)


@pytest.mark.postgres
async def test_copy_a_sqlite_file_into_postgresql(source: str, postgres_url: str, capsys: Any) -> None:
    await empty(postgres_url)
    try:
        await copy_and_check(source, postgres_url, capsys)
    finally:
        await empty(postgres_url)


@pytest.mark.parametrize(("args", "says"), [
    (["nonsense", "sqlite+aiosqlite:///x.db"], "is not a database URL"),
    (["mysql://h/db", "sqlite+aiosqlite:///x.db"], "only SQLite and PostgreSQL"),
    (["sqlite+aiosqlite:///{tmp}/missing.db", "sqlite+aiosqlite:///{tmp}/t.db"], "no such SQLite file"),
    (["{source}", "{source}"], "the same database"),
    (["{source}", "sqlite+aiosqlite:///{tmp}/t.db", "--batch", "0"], "--batch must be at least 1"),
    (["{blank}", "sqlite+aiosqlite:///{tmp}/t.db"], "not a Grievous database"),
    (["{source}", "postgresql+asyncpg://grievous:secret@127.0.0.1:1/grievous"], "cannot open target"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], says: str, source: str, tmp_path: Path,
                                          capsys: Any) -> None:
    (tmp_path / "blank.db").write_bytes(b"")
    values = {"tmp": str(tmp_path), "source": source, "blank": f"sqlite+aiosqlite:///{tmp_path / 'blank.db'}"}
    assert main(["db", "copy", *[a.format(**values) for a in args]]) == 2
    err = capsys.readouterr().err
    assert says in err and err.startswith("grievous: ") and err.count("\n") == 1, err
    assert "secret" not in err
    assert not (tmp_path / "t.db").exists() or "cannot open" in says
