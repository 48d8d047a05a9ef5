"""Issue 24: a hosted PostgreSQL's URL as providers give it (libpq's ``sslmode=require`` and friends) is
mapped for asyncpg, or refused in one line that says what to write; it never stops the bot with asyncpg's
"connect() got an unexpected keyword argument 'sslmode'" traceback."""

from __future__ import annotations

import ssl

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.commands_cli import DatabaseUnavailable, ready_database
from bot.db.engine import Database
from bot.db.pg_url import asyncpg_options

BASE = "postgresql+asyncpg://u:p@db.example:5432/grievous"


@pytest.mark.parametrize(("query", "ssl_arg"), [
    ("sslmode=require", "require"), ("sslmode=prefer", "prefer"), ("sslmode=disable", False),
    ("sslmode=verify-full", "verify-full"),
])
def test_sslmode_becomes_asyncpgs_ssl_argument(query: str, ssl_arg: object) -> None:
    url, args = asyncpg_options(make_url(f"{BASE}?{query}"))
    assert args["ssl"] == ssl_arg and "sslmode" not in url.query


def test_a_root_certificate_verifies_the_server_and_the_other_options_map() -> None:
    where = ssl.get_default_verify_paths().cafile or ssl.get_default_verify_paths().openssl_cafile
    url, args = asyncpg_options(make_url(
        f"{BASE}?sslmode=verify-full&sslrootcert={where}&connect_timeout=7&application_name=grievous&x=1"))
    context = args["ssl"]
    assert isinstance(context, ssl.SSLContext) and context.check_hostname
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert args["timeout"] == 7.0 and args["server_settings"] == {"application_name": "grievous"}
    assert dict(url.query) == {"x": "1"}  # not a libpq option: left for SQLAlchemy's dialect
    _, required = asyncpg_options(make_url(f"{BASE}?sslmode=require&sslrootcert={where}"))
    assert required["ssl"].verify_mode == ssl.CERT_REQUIRED and not required["ssl"].check_hostname  # verify-ca


@pytest.mark.parametrize(("query", "says"), [
    ("sslcrl=/x.crl", "the query option 'sslcrl' is a libpq option that asyncpg does not take; remove it"),
    ("sslmode=sometimes", "sslmode=sometimes is not one of disable, allow"),
    ("connect_timeout=soon", "connect_timeout=soon is not a number of seconds"),
])
async def test_an_option_asyncpg_cannot_take_is_one_line(query: str, says: str) -> None:
    with pytest.raises(DatabaseUnavailable) as refused:
        await ready_database(f"{BASE}?{query}")
    assert str(refused.value).startswith(f"DATABASE_URL is not usable: {says}")
    assert "\n" not in str(refused.value)


@pytest.mark.postgres
async def test_a_providers_url_connects(postgres_url: str) -> None:
    # the throwaway server speaks no TLS: prefer falls back to plain, as libpq's would
    db = Database.from_url(f"{postgres_url}?sslmode=prefer&connect_timeout=10&application_name=grievous-test")
    try:
        async with db.engine.connect() as connection:
            name = await connection.scalar(text("SELECT current_setting('application_name')"))
        assert name == "grievous-test"
    finally:
        await db.dispose()
