"""The playground serves the campaign web page on localhost: /web prints a link that opens it, as the GM and as
a player."""

from __future__ import annotations

import io
import re

import aiohttp

from bot.playground.session import Playground


async def test_web_prints_a_link_that_opens_the_page_for_the_gm_and_a_player() -> None:
    out = io.StringIO()
    playground = Playground(out, seed=1)
    async with playground.running():
        assert playground.web_address is not None and playground.web_address.startswith("http://127.0.0.1:")
        for line in ("/setup system system:ars-harn", ":as alice",
                     '/character create name:"Sir Owain" stats:"str=2 sta=1 dex=1 qik=1 abilities.Sword=5" '
                     "weapons:Broadsword", ":as gm", "/web", ":as alice", "/web"):
            await playground.run_line(line)
        links = re.findall(r"Open the campaign page: (http://127\.0\.0\.1:\d+/web/login\?t=\S+)", out.getvalue())
        assert len(links) == 2, out.getvalue()
        for url, who in zip(links, ("GM view", "alice"), strict=True):
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # an IP address
                async with http.get(url) as response:
                    page = await response.text()
                    assert response.status == 200 and who.lower() in page.lower()
                async with http.get(f"{playground.web_address}roster") as response:
                    assert "Sir Owain" in await response.text()
    assert playground.errors == 0
