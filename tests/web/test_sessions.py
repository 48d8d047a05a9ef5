"""The /web links and sessions: signed, single-use, short-lived, tied to the member's generation."""

from __future__ import annotations

import base64
import json

import pytest

from bot.web.sessions import (
    EXCHANGE_TRIES,
    EXCHANGE_WINDOW,
    LINK_SECONDS,
    SESSION_SECONDS,
    Grant,
    Refused,
    WebSessions,
)

GRANT = Grant(guild_id=1, user_id=2, user_name="Alice", role="player", role_ids=(5,), is_manager=False,
              channels=frozenset({10}))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def refusal(sessions: WebSessions, token: str | None) -> str:
    with pytest.raises(Refused) as refused:
        sessions.exchange(token)
    return refused.value.why


def test_a_link_opens_one_session_with_what_web_captured() -> None:
    sessions = WebSessions()
    session = sessions.exchange(sessions.link_token(GRANT))
    assert session.grant == GRANT and sessions.session(session.id) == session


def test_a_link_works_once() -> None:
    sessions = WebSessions()
    token = sessions.link_token(GRANT)
    sessions.exchange(token)
    assert refusal(sessions, token) == "used"


def test_a_link_expires_after_ten_minutes() -> None:
    clock = Clock()
    sessions = WebSessions(clock=clock)
    token = sessions.link_token(GRANT)
    clock.now += LINK_SECONDS + 1
    assert refusal(sessions, token) == "expired"


@pytest.mark.parametrize("change", ["guild", "role", "signature", "garbage", "cut"])
def test_a_changed_link_is_refused(change: str) -> None:
    sessions = WebSessions()
    token = sessions.link_token(GRANT)
    body, _, signature = token.partition(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    if change in ("guild", "role"):
        claims["g" if change == "guild" else "r"] = 99 if change == "guild" else "gm"
        forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
        token = f"{forged}.{signature}"
    elif change == "signature":
        token = f"{body}.{signature[:-2]}AA" if not signature.endswith("AA") else f"{body}.{signature[:-2]}BB"
    elif change == "garbage":
        token = "%%%.***"
    else:
        token = token[: len(token) // 2]
    assert refusal(sessions, token) == "tampered"


def test_a_link_from_another_process_is_refused() -> None:
    """Each process signs with its own key: a restart voids every link and session."""
    assert refusal(WebSessions(), WebSessions().link_token(GRANT)) == "tampered"


def test_no_token_is_refused() -> None:
    assert refusal(WebSessions(), None) == "missing"
    assert refusal(WebSessions(), "") == "missing"


def test_revoking_ends_sessions_and_voids_unopened_links() -> None:
    sessions = WebSessions()
    opened = sessions.exchange(sessions.link_token(GRANT))
    waiting = sessions.link_token(GRANT)
    other = sessions.exchange(sessions.link_token(Grant(1, 3, "Bob", "player", (), False, frozenset())))
    assert sessions.revoke(1, 2) == 1
    assert sessions.session(opened.id) is None and sessions.session(other.id) == other
    assert refusal(sessions, waiting) == "revoked"
    assert sessions.exchange(sessions.link_token(GRANT)).generation == 1  # a new link works again


def test_a_session_lasts_twelve_hours() -> None:
    clock = Clock()
    sessions = WebSessions(clock=clock)
    session = sessions.exchange(sessions.link_token(GRANT))
    clock.now += SESSION_SECONDS - 1
    assert sessions.session(session.id) == session
    clock.now += 2
    assert sessions.session(session.id) is None
    assert sessions.session("made-up") is None and sessions.session(None) is None


def test_the_exchange_is_rate_limited_per_address() -> None:
    clock = Clock()
    sessions = WebSessions(clock=clock)
    assert all(sessions.allow_exchange("203.0.113.5") for _ in range(EXCHANGE_TRIES))
    assert not sessions.allow_exchange("203.0.113.5")
    assert sessions.allow_exchange("203.0.113.6")
    clock.now += EXCHANGE_WINDOW
    assert sessions.allow_exchange("203.0.113.5")
