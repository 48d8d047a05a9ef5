"""A PostgreSQL URL as hosting providers give it (libpq's query options) made into what asyncpg takes.

``postgresql+asyncpg://...?sslmode=require`` would reach ``asyncpg.connect(sslmode=...)``, which has no
such argument (it takes ``ssl``). The options operators paste are mapped here; the other libpq options
asyncpg has no equivalent for are refused in one line (a ValueError) that says what to write instead.
"""

from __future__ import annotations

import ssl
from typing import Any

from sqlalchemy.engine import URL

# libpq's sslmode values -> asyncpg's ssl argument (asyncpg reads the same words, without a root cert).
_SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
# libpq connection options (PostgreSQL's "Parameter Key Words") that asyncpg has no argument for.
_UNSUPPORTED = frozenset({
    "passfile", "channel_binding", "client_encoding", "options", "fallback_application_name", "keepalives",
    "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode",
    "requiressl", "sslcompression", "sslpassword", "sslcertmode", "sslcrl", "sslcrldir", "sslsni", "requirepeer",
    "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service",
    "load_balance_hosts", "hostaddr",
})
_MAPPED = ("sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name")


def asyncpg_options(url: URL) -> tuple[URL, dict[str, Any]]:
    """``url`` without the libpq options, and the ``connect_args`` they become for asyncpg."""
    query = dict(url.query)
    for option in query:
        if option in _UNSUPPORTED:
            raise ValueError(f"the query option '{option}' is a libpq option that asyncpg does not take; remove it "
                             f"(understood: {', '.join(_MAPPED)})")
    args: dict[str, Any] = {}
    tls = _ssl_argument(query)
    if tls is not None:
        args["ssl"] = tls
    timeout = _one(query.pop("connect_timeout", None), "connect_timeout")
    if timeout is not None:
        try:
            args["timeout"] = float(timeout)
        except ValueError:
            raise ValueError(f"connect_timeout={timeout} is not a number of seconds") from None
    name = _one(query.pop("application_name", None), "application_name")
    if name is not None:
        args["server_settings"] = {"application_name": name}
    return url.set(query=query), args


def _ssl_argument(query: dict[str, Any]) -> ssl.SSLContext | str | bool | None:
    """asyncpg's ``ssl`` argument for the URL's sslmode and certificates (taken out of ``query``); None for none."""
    mode = _one(query.pop("sslmode", None), "sslmode")
    root, cert, key = (_one(query.pop(name, None), name) for name in ("sslrootcert", "sslcert", "sslkey"))
    if mode is not None and mode not in _SSL_MODES:
        raise ValueError(f"sslmode={mode} is not one of {', '.join(_SSL_MODES)}")
    if mode == "require" and root is not None:
        mode = "verify-ca"  # libpq: a root certificate given with require verifies the server's certificate
    if root is None and cert is None and key is None:
        return None if mode is None else False if mode == "disable" else mode
    if mode in ("disable", "allow", "prefer"):
        raise ValueError(f"sslmode={mode} with certificates: write sslmode=require, verify-ca or verify-full")
    verify = mode in ("verify-ca", "verify-full")
    context = ssl.create_default_context(cafile=root) if verify else ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = mode == "verify-full"
    if not verify:
        context.verify_mode = ssl.CERT_NONE
    if cert is not None:
        context.load_cert_chain(cert, key)
    return context


def _one(value: str | tuple[str, ...] | None, key: str) -> str | None:
    if isinstance(value, tuple):
        raise ValueError(f"the query option '{key}' is given more than once")
    return value
