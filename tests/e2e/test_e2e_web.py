"""The campaign web page without a browser: links from /web, each page's access rules, and what each session
received (recorded by the server), on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.db.engine import Database
from bot.services import Services
from bot.services.actor import Actor
from tests.e2e.web_support import Reader, Stream, campaign, link, serve

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def test_each_viewer_reads_only_what_discord_would_show_them(table: Any) -> None:
    prep = await campaign(table)
    web = await serve(table)
    gm, alice, screen = Reader.new(), Reader.new(), Reader.new()
    try:
        status, page = await gm.open(await link(table, table.gm))
        assert status == 200 and "GM view" in page and "Fight in #prep" in page
        status, page = await alice.open(await link(table, table.alice))
        assert status == 200 and "Fight in #combat" in page and "#prep" not in page
        status, page = await screen.open(await link(table, table.gm, {"view": "table"}))
        assert status == 200 and "Table view" in page

        base = f"{web.base_url}/web"
        # The roster: the GM sees every NPC; Alice the bandit she has met, not the Cutthroat.
        _, roster = await gm.open(f"{base}/roster")
        assert "Bjorn" in roster and "Bandit 1" in roster and "Cutthroat 1" in roster
        _, roster = await alice.open(f"{base}/roster")
        assert "Bjorn" in roster and "Bandit 1" in roster and "Cutthroat" not in roster
        # An NPC behind the screen: its name and wounds, not its sheet; one she has not met is not found.
        _, bandit = await alice.open(f"{base}/character/Bandit%201")
        assert "behind the screen" in bandit and "Stats" not in bandit
        _, bandit = await gm.open(f"{base}/character/Bandit%201")
        assert "Stats" in bandit and "behind the screen" not in bandit
        status, page = await alice.open(f"{base}/character/Cutthroat%201")
        assert status == 404 and "Cutthroat" not in page
        status, _ = await alice.open(f"{base}/character/Cutthroat%201/diagram.png")
        assert status == 404
        # #prep's fight and log are the GM's; the table sees its own channel only.
        status, _ = await alice.open(f"{base}/encounter/{prep.id}")
        assert status == 404
        status, _ = await alice.open(f"{base}/log/{prep.id}")
        assert status == 404
        status, page = await gm.open(f"{base}/encounter/{prep.id}")
        assert status == 200 and "Cutthroat 1" in page
        status, _ = await screen.open(f"{base}/encounter/{prep.id}")
        assert status == 404
        status, page = await screen.open(f"{base}/encounter/{table.combat.id}")
        assert status == 200 and "Bandit 1" in page and "Bjorn" in page
        # A channel of no guild of this session's, whatever the address says.
        status, _ = await gm.open(f"{base}/encounter/12345")
        assert status == 404
    finally:
        for reader in (gm, alice, screen):
            await reader.close()
    recorder = web.recorder
    assert recorder is not None
    assert b"Cutthroat" in recorder.of(f"gm:{table.gm.user.id}")
    for player in (f"player:{table.alice.user.id}", f"table:{table.combat.id}"):
        assert b"Cutthroat" not in recorder.of(player)


async def test_links_are_single_use_and_pages_refuse_without_a_session(table: Any) -> None:
    await table.setup("ars-harn")
    web = await serve(table)
    reader = Reader.new()
    try:
        url = await link(table, table.alice)
        status, page = await reader.open(f"{web.base_url}/web/roster")
        assert status == 401 and "/web" in page and "Traceback" not in page
        status, _ = await reader.open(url)
        assert status == 200
        status, page = await Reader.new().open(url)
        assert status == 410 and "already used" in page
        tampered = url[:-3] + ("A" if url[-3] != "A" else "B") + url[-2:]
        status, page = await reader.open(tampered)
        assert status == 400 and "not one the bot made" in page
        status, page = await reader.open(f"{web.base_url}/web/nowhere")
        assert status == 404 and "no such page" in page
        # A character deleted since its page was opened: the short page, nothing else.
        await table.run("character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1"}, user=table.alice)
        assert (await reader.open(f"{web.base_url}/web/character/Bjorn"))[0] == 200
        await table.bot.services.characters.delete(Actor(table.world.guild.id, table.combat.id, table.alice.user.id,
                                                         "Alice"), "Bjorn")
        for address in ("character/Bjorn", "character/Bjorn/diagram.png"):
            status, page = await reader.open(f"{web.base_url}/web/{address}")
            assert status == 404 and "deleted since" in page and "roster" in page and "Traceback" not in page
        # /web revoke:true ends the session at once.
        answer = await table.run("web", {"revoke": True}, user=table.alice)
        assert "ended" in answer.content
        status, _ = await reader.open(f"{web.base_url}/web/roster")
        assert status == 401
        # Another member's sessions: a manager may end them, a player may not.
        bobs = Reader.new()
        try:
            assert (await bobs.open(await link(table, table.bob)))[0] == 200
            refused = await table.line("web", {"revoke": True, "member": table.bob}, user=table.alice)
            assert "only a server manager" in refused
            assert (await bobs.open(f"{web.base_url}/web/roster"))[0] == 200
            answer = await table.run("web", {"revoke": True, "member": table.bob}, user=table.manager)
            assert "Bob's web sessions are ended (1 session open)" in answer.content
            assert (await bobs.open(f"{web.base_url}/web/roster"))[0] == 401
            assert "member: is only for revoke:true" in await table.line("web", {"member": table.bob},
                                                                          user=table.manager)
            assert "only the GM" in await table.line("web", {"view": "table"}, user=table.alice)
        finally:
            await bobs.close()
    finally:
        await reader.close()


async def test_the_login_sets_a_strict_cookie_and_leaves_no_token_in_the_address(table: Any) -> None:
    await table.setup("ars-harn")
    web = await serve(table, base_url=None)
    reader = Reader.new()
    try:
        url = await link(table, table.alice)
        async with reader.http.get(url, allow_redirects=False) as response:
            assert response.status == 303 and response.headers["Location"] == "/web/"
            cookie = response.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/web" in cookie
            assert "Secure" not in cookie  # http://127.0.0.1: a Secure cookie would never come back
            assert response.headers["Referrer-Policy"] == "no-referrer"
        async with reader.http.get(f"{web.base_url}/web/roster") as response:
            page = await response.text()
            assert response.status == 200 and "t=" not in str(response.url)
            csp = response.headers["Content-Security-Policy"]
            assert "script-src 'self'" in csp and "style-src 'self'" in csp and "unsafe-inline" not in csp
            assert response.headers["Referrer-Policy"] == "no-referrer"
            assert "style=" not in page and "<script>" not in page
        # Token exchange is rate-limited per address: guessing gets a 429 quickly.
        statuses = [(await reader.open(f"{web.base_url}/web/login?t=guess{n}"))[0] for n in range(12)]
        assert statuses[0] == 400 and statuses[-1] == 429
    finally:
        await reader.close()


async def test_an_https_base_makes_the_cookie_secure(table: Any) -> None:
    await table.setup("ars-harn")
    await serve(table, base_url="https://grievous.example.org")
    url = await link(table, table.alice)
    assert url.startswith("https://grievous.example.org/web/login?t=")
    port = table.bot.web.port
    reader = Reader.new()
    try:
        async with reader.http.get(url.replace("https://grievous.example.org", f"http://127.0.0.1:{port}"),
                                   allow_redirects=False) as response:
            assert response.status == 303 and "Secure" in response.headers["Set-Cookie"]
    finally:
        await reader.close()


async def test_a_fight_in_another_process_reaches_the_live_pages_here_within_2_s(table: Any) -> None:
    """Issue 33: the GM acts through another process on the same database (its own engine, as a shard process of
    its own); the GM's and Alice's live pages here show it within 2 s, Alice's without the NPC's figures; an
    undo there marks the line here."""
    await campaign(table)
    web = await serve(table, live_seconds=0.5)
    gm, alice = Reader.new(), Reader.new()
    database = Database.from_url(table.db_url)
    other = Services(database)
    gm_actor = Actor(table.world.guild.id, table.combat.id, table.gm.user.id, "GM", (table.world.gm_role.id,))
    streams: list[Stream] = []
    try:
        await gm.open(await link(table, table.gm))
        await alice.open(await link(table, table.alice))
        live = f"{web.base_url}/web/encounter/{table.combat.id}/live"
        streams = [await Stream(gm).open(live), await Stream(alice).open(live)]
        for stream in streams:
            await stream.shows("Bandit 1", within=10)
        await other.encounters.roll_initiative(gm_actor, "Bjorn=4; Bandit 1=9")
        await other.combat.attack(gm_actor, "Bjorn", attacker="Bandit 1", options={"aspect": "edge"},
                                  dice_text="attack=9 defense=2 location=85 defender_shock=8 defender_stumble=8")
        acted = time.monotonic()  # committed by the other process
        for stream in streams:
            await stream.shows("Bandit 1 attacks Bjorn", within=2.0 - (time.monotonic() - acted))
        # The GM's tracker has the bandit's initiative; Alice's stream never had it, nor the table's recording.
        gm_frames, alice_frames = ("".join(data for _, data in stream.frames) for stream in streams)
        assert "Bandit 1</strong> (11)" in gm_frames and "Bjorn</strong> (7)" in alice_frames
        assert "(11)" not in alice_frames
        assert web.recorder is not None and b"(11)" not in web.recorder.of(f"player:{table.alice.user.id}")
        # Taken back there too: the attack's line, worded before, is worded again as undone here.
        await other.records.undo(gm_actor)
        acted = time.monotonic()
        for stream in streams:
            await stream.shows('<li class="undone">', within=2.0 - (time.monotonic() - acted))
        for stream in streams:  # each frame shows newer events than the one before: none sent twice
            ids = [int(frame_id) for frame_id, _ in stream.frames if frame_id is not None]
            assert ids == sorted(set(ids)) and ids[-1] >= 8, ids
    finally:
        for stream in streams:
            await stream.close()
        await gm.close()
        await alice.close()
        await other.runtime.close()
        await database.dispose()
