"""The web server's rules that need no bot: whose address a request is, behind a trusted proxy or not."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import make_mocked_request

from bot.web.server import WebServer


def address(trusted: tuple[str, ...], peer: str, forwarded: str | None) -> str:
    server = WebServer(bot=None, trusted_proxies=trusted)  # type: ignore[arg-type]
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    transport: Any = type("T", (), {"get_extra_info": lambda self, name, default=None:
                                    (peer, 1234) if name == "peername" else default})()
    request = make_mocked_request("GET", "/web/login", headers=headers, transport=transport)
    return server.client_address(request)


def test_x_forwarded_for_is_read_only_from_a_trusted_proxy() -> None:
    assert address((), "198.51.100.7", "203.0.113.9") == "198.51.100.7"
    assert address(("10.0.0.0/8",), "198.51.100.7", "203.0.113.9") == "198.51.100.7"
    assert address(("10.0.0.0/8",), "10.0.0.2", "203.0.113.9") == "203.0.113.9"


def test_a_forged_first_hop_does_not_choose_the_address() -> None:
    """The proxy appends the real client: the last hop that is not a trusted proxy is the browser's."""
    assert address(("10.0.0.0/8",), "10.0.0.2", "1.2.3.4, 203.0.113.9, 10.0.0.3") == "203.0.113.9"
    assert address(("10.0.0.0/8",), "10.0.0.2", None) == "10.0.0.2"
