"""The campaign web page in a real browser: Debian's Chromium driven by Selenium through its own chromedriver
(an explicit Service: nothing is downloaded), against the emulator, the real bot and the web server of this
process. Selenium's calls block, so each runs in a thread while the bot keeps the event loop.

Skipped, with the reason, where /usr/bin/chromium or /usr/bin/chromedriver is missing; .ci/run installs them and
fails if these tests did not run. ``--screenshots DIR`` (or GRIEVOUS_SCREENSHOTS) keeps a phone-width picture
of each page.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import text

from bot.services.web_sessions import WebSessionService
from bot.web.sessions import LINK_SECONDS
from tests.e2e.web_support import campaign, link, serve

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SIZES = {"phone-360": (360, 780), "phone-390": (390, 844), "desktop": (1280, 900)}
HOSTILE = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> javascript:alert(1) \u202eevil"
T = TypeVar("T")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                       reason="needs Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)"),
]


class Browser:
    """One headless Chromium, driven from a thread."""

    def __init__(self, shots: Path | None, who: str) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not look for a driver: it is given
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                         "--hide-scrollbars", "--force-device-scale-factor=1"):
            options.add_argument(argument)
        if os.geteuid() == 0:
            options.add_argument("--no-sandbox")  # Chromium refuses to run as root inside its sandbox
        self.driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        self.shots = shots
        self.who = who

    async def do(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(work, *args)

    async def open(self, url: str) -> str:
        await self.do(self.driver.get, url)
        return str(await self.do(lambda: self.driver.find_element("tag name", "body").text))

    async def size(self, width: int, height: int) -> None:
        await self.do(self.driver.set_window_size, width, height)

    async def js(self, script: str) -> Any:
        return await self.do(self.driver.execute_script, script)

    async def shot(self, name: str) -> None:
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            await self.do(self.driver.save_screenshot, str(self.shots / f"{self.who}-{name}.png"))

    async def no_dialog(self) -> None:
        from selenium.common.exceptions import NoAlertPresentException

        def check() -> None:
            try:
                alert = self.driver.switch_to.alert
            except NoAlertPresentException:
                return
            raise AssertionError(f"a dialog ran: {alert.text}")

        await self.do(check)
        assert await self.js("return window.pwned === undefined")

    async def wait_text(self, wanted: str, within: float = 2.5) -> float:
        """Seconds until ``wanted`` shows on the page as it is (no reload)."""
        start = time.monotonic()
        while time.monotonic() - start < within:
            shown = await self.do(lambda: self.driver.find_element("tag name", "body").text)
            if wanted in shown:
                return time.monotonic() - start
            await asyncio.sleep(0.1)
        raise AssertionError(f"{wanted!r} did not show within {within} s on {self.who}'s page")

    def close(self) -> None:
        self.driver.quit()


async def fits(browser: Browser, page: str) -> None:
    """Nothing on the page is wider than the window: it reads without scrolling sideways."""
    overflow = await browser.js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{browser.who}'s {page} page is {overflow} px wider than the window"


async def images_loaded(browser: Browser) -> list[tuple[int, str]]:
    return list(await browser.js("return Array.from(document.images).map(i => [i.complete ? i.naturalWidth : 0,"
                                 " i.alt])"))


async def test_the_page_in_a_browser_for_a_player_the_gm_and_the_table(table: Any,
                                                                       pytestconfig: pytest.Config) -> None:
    prep = await campaign(table)
    # A name from before the name rules (or a pack): the page shows it as the text it is.
    await table.run("character create", {"name": "Gorm", "stats": "str=1 sta=1 dex=1 qik=0 abilities.Club=4",
                                         "weapons": "Mace"}, user=table.bob)
    async with table.bot.services.db.engine.begin() as connection:
        await connection.execute(text("UPDATE characters SET name = :name WHERE name = 'Gorm'"), {"name": HOSTILE})
    # Bjorn carries a wound before the pages open: a diagram with something on it.
    hit = await table.run("attack", {"target": "Bjorn", "attacker": "Bandit 1", "aspect": "edge", "aim": "mid",
                                     "modifier": 10, "dice": "attack=9 defense=3 location=85 "
                                                             "defender_shock=8 defender_stumble=8"})
    assert "thigh" in table.text(hit), table.text(hit)
    offset = [0.0]
    web = await serve(table, live_seconds=0.5, sessions=WebSessionService(table.bot.services.runtime,
                                                                          clock=lambda: time.time() + offset[0]))
    shots_dir = pytestconfig.getoption("--screenshots")
    shots = Path(shots_dir) if shots_dir else None
    gm = await asyncio.to_thread(Browser, shots, "gm")
    player = await asyncio.to_thread(Browser, shots, "player")
    screen = await asyncio.to_thread(Browser, shots, "table")
    try:
        base = f"{web.base_url}/web"
        assert "GM view" in await gm.open(await link(table, table.gm))
        assert "Alice" in await player.open(await link(table, table.alice))
        for browser in (gm, player):
            for size, (width, height) in SIZES.items():
                await browser.size(width, height)
                roster = await browser.open(f"{base}/roster")
                assert "Bjorn" in roster and HOSTILE.replace("\u202e", "") in roster.replace("\u202e", "")
                await browser.no_dialog()
                await fits(browser, "roster")
                if size == "phone-360":
                    await browser.shot("roster")
                page = await browser.open(f"{base}/character/Bjorn")
                assert "Wounds (1)" in page and "next healing roll after 5 more days of rest" in page
                await fits(browser, "character")
                [(width_px, alt)] = await images_loaded(browser)
                assert width_px > 0 and alt.startswith("Body diagram of Bjorn: ") and "Thigh" in alt, alt
                if size == "phone-360":
                    await browser.shot("character")
                campaign_page = await browser.open(f"{base}/")
                assert "Running fights" in campaign_page
                await fits(browser, "campaign")
                if size == "phone-360":
                    await browser.shot("campaign")
                await browser.open(f"{base}/log/{table.combat.id}")
                await fits(browser, "log")
                if size == "phone-360":
                    await browser.shot("log")
                page = await browser.open(f"{base}/encounter/{table.combat.id}")
                assert "Bandit 1" in page and "Round" in page
                await fits(browser, "encounter")
                if size == "phone-360":
                    await browser.shot("encounter")
        assert "Cutthroat" in await gm.open(f"{base}/encounter/{prep.id}")
        assert "Cutthroat" not in await player.open(f"{base}/roster")

        # An attack made in Discord shows on both encounter pages, live, without a reload.
        for browser in (gm, player):
            await browser.open(f"{base}/encounter/{table.combat.id}")
            await browser.js("window.stillHere = true")
        # Alice types only her own faces: under secret rolls the bandit's are the GM's, rolled by the bot
        await table.run("attack", {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid",
                                   "dice": "attack=5 location=85"}, user=table.alice)
        for browser in (gm, player):
            await browser.wait_text("Bjorn attacks Bandit 1")
            assert await browser.js("return window.stillHere === true"), "the page was reloaded"

        # The table's screen sees what #combat sees.
        assert "Table view" in await screen.open(await link(table, table.gm, {"view": "table"}))
        shown = await screen.open(f"{base}/encounter/{table.combat.id}")
        assert "Bjorn" in shown and "Bandit 1" in shown and "Cutthroat" not in shown
        tracker = table.text(await table.tracker())
        for line in ("Bjorn", "Bandit 1"):
            assert line in tracker
        assert "404" in await screen.open(f"{base}/encounter/{prep.id}") or \
            "no such page" in (await screen.open(f"{base}/encounter/{prep.id}"))
        await screen.size(*SIZES["phone-360"])
        await screen.open(f"{base}/encounter/{table.combat.id}")
        await screen.shot("encounter")

        # A tampered link and an expired one are refused, in a page that says what to do.
        fresh = await link(table, table.bob)
        tampered = fresh[:-2] + ("AA" if not fresh.endswith("AA") else "BB")
        assert "not one the bot made" in await player.open(tampered)
        offset[0] = LINK_SECONDS + 1
        assert "expired" in await player.open(fresh)
        await player.shot("refused")
    finally:
        for browser in (gm, player, screen):
            await asyncio.to_thread(browser.close)
