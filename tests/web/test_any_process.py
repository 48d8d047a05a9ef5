"""Any process serves any web session (issue 33): a link made by one process's web server opens on another's,
whose gateway cache holds no guild at all (another shard's, or `grievous web`'s: bot/web/host.py WebOnlyHost), and a
revoke in the first ends the page in the second. "Another process" is a second ``Services`` with its own engine on
the same database."""

from __future__ import annotations

from typing import Any

import aiohttp

from bot.services import Actor, Services
from bot.web.host import WebOnlyHost
from bot.web.server import COOKIE, WebServer
from bot.web.sessions import Grant
from tests.conftest import CHANNEL, GUILD

GRANT = Grant(guild_id=1, user_id=2, user_name="Alice", role="player", role_ids=(5,), is_manager=False,
              channels=frozenset({10}), guild_name="The Keep", channel_names=((10, "great-hall"),))


def shard_without_guilds(services: Services) -> WebServer:
    return WebServer(WebOnlyHost(services), port=0)


async def test_a_session_opened_on_one_process_is_served_and_revoked_on_another(
        services: Any, other_process: Services) -> None:
    here, there = shard_without_guilds(services), shard_without_guilds(other_process)
    token = (await here.link(GRANT)).split("t=", 1)[1]
    await there.start()
    try:
        async with aiohttp.ClientSession(base_url=there.base_url) as http:
            async with http.get("/web/login", params={"t": token}, allow_redirects=False) as opened:
                assert opened.status == 303
                cookie = {"Cookie": f"{COOKIE}={opened.cookies[COOKIE].value}"}
            async with http.get("/web/log/10", headers=cookie) as page:
                assert page.status == 200 and "great-hall" in await page.text()  # named as /web saw it
            async with http.get("/web/log/11", headers=cookie) as hidden:
                assert hidden.status == 404  # a channel the session was not given
            assert await here.sessions.revoke(1, 2) == 1
            async with http.get("/web/log/10", headers=cookie) as ended:
                assert ended.status == 401
    finally:
        await there.stop()


ALICE_IN_THE_HALL = Grant(guild_id=GUILD, user_id=11, user_name="Alice", role="player", role_ids=(), is_manager=False,
                          channels=frozenset({CHANNEL}), guild_name="The Keep",
                          channel_names=((CHANNEL, "great-hall"),))


async def pages_read_by_alice(services: Services, *paths: str) -> list[str]:
    """Each of ``paths`` as Alice's session reads it from a page server with no gateway cache (`grievous web`'s)."""
    server = shard_without_guilds(services)
    token = (await server.link(ALICE_IN_THE_HALL)).split("t=", 1)[1]
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            async with http.get("/web/login", params={"t": token}, allow_redirects=False) as opened:
                cookie = {"Cookie": f"{COOKIE}={opened.cookies[COOKIE].value}"}
            shown = []
            for path in paths:
                async with http.get(path, headers=cookie) as page:
                    shown.append(await page.text())
            return shown
    finally:
        await server.stop()


async def test_an_owner_who_never_acted_is_named_on_a_process_with_no_gateway_cache(table: Any) -> None:
    """`grievous web` has no member cache, and names a member by the events that name them: a player's character
    whose owner has not acted since making it read "@a member"; the owner's name kept when it was made names them."""
    carol = Actor(GUILD, CHANNEL, 13, "Carol Ann")
    await table.characters.create(carol, "Cadoc", {"str": 10})
    shown, page = await pages_read_by_alice(table, "/web/roster", "/web/character/Cadoc")
    assert "@Carol Ann" in shown and "@a member" not in shown
    assert "@Alice" in shown and "@Bob" in shown  # the owners who acted, by their events
    assert "Player character of @<bdi>Carol Ann</bdi>" in page


async def test_a_mention_of_an_owner_who_never_acted_names_them_on_a_process_with_no_gateway_cache(
        table: Any, gm: Any) -> None:
    """The tracker's turn line mentions the owner (<@id>): with no member cache, the name kept when the character was
    made names a member no event names (the GM added the character and ended the turns before it)."""
    carol = Actor(GUILD, CHANNEL, 13, "Carol Ann")
    await table.characters.create(carol, "Cadoc", {"str": 10})
    await table.encounters.add(gm, "Cadoc")
    for _ in range(3):
        view = await table.encounters.next_turn(gm)
        if view.combatants[view.turn].name == "Cadoc":
            break
    assert view.combatants[view.turn].name == "Cadoc"
    assert 13 not in {e.user_id for e in await table.records.log(gm, 25)}  # Carol never acted
    [shown] = await pages_read_by_alice(table, f"/web/encounter/{CHANNEL}")
    assert "Carol Ann" in shown and "@a member" not in shown, shown
