"""The one logging setup of ``grievous run``: one line per record on stderr, JSON (default) or key=value.

JSON lines carry ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``, ``exc`` (the traceback,
when there is one) and any structured ``extra`` the record carries (a stall's ``stall_ms``, ``cpu_ms``,
``wait_ms``, ``held_ms``, ``command`` and, when one was seen, ``task``). Every record is redacted when it
is made (bot.ops.redact): its message, arguments and traceback, so no handler, a test's included, ever
sees the token.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

from bot.ops.redact import add_secret, redact

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def _record_factory(make: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what can be kept
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = redact(message), None
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip())
            record.exc_info = None
        return record

    factory.grievous_redacts = True  # type: ignore[attr-defined]
    return factory


def install_redaction(token: str | None = None) -> None:
    """Redact every log record from now on (and ``token`` wherever it appears)."""
    add_secret(token)
    current = logging.getLogRecordFactory()
    if not getattr(current, "grievous_redacts", False):
        logging.setLogRecordFactory(_record_factory(current))


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    for key, value in vars(record).items():
        if key in _STANDARD or key.startswith("_"):
            continue
        if key == "stall":  # the watchdog's Stall: its figures, not its repr
            extras["stall_ms"] = round(value.seconds * 1000)
            extras["cpu_ms"] = round(value.cpu_seconds * 1000)
            extras["wait_ms"] = round(value.waiting_seconds * 1000)
            extras["held_ms"] = round(value.held * 1000)
            extras["command"] = value.commands
            if value.task is not None:
                extras["task"] = value.task  # the task seen holding the loop (a web page's names its route)
        elif isinstance(value, str | int | float | bool) or value is None:
            extras[key] = value
    return extras


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **_extras(record),
        }
        exc = record.exc_text or (self.formatException(record.exc_info) if record.exc_info else None)
        if exc:
            line["exc"] = exc
        return redact(json.dumps(line, ensure_ascii=False, default=str))


class KeyValue(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        time = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        fields = {"level": record.levelname, "logger": record.name, **_extras(record)}
        text = f"{time} " + " ".join(f"{key}={_quoted(value)}" for key, value in fields.items())
        text += f" message={_quoted(record.getMessage())}"
        exc = record.exc_text or (self.formatException(record.exc_info) if record.exc_info else None)
        if exc:
            text += f" exc={_quoted(exc)}"
        return redact(text)


def _quoted(value: Any) -> str:
    text = str(value)
    return text if text and all(c.isalnum() or c in "-_./:@+" for c in text) else json.dumps(text)


def _not_alembic_context(record: logging.LogRecord) -> bool:
    """False for the two lines Alembic logs each time it reads the database's revision ("Context impl
    PostgresqlImpl.", "Will assume transactional DDL."): every health check reads it, so a container's healthcheck
    every 30 s put 5,760 such lines a day in the log. Its "Running upgrade" lines are kept."""
    return not (isinstance(record.msg, str) and record.msg.startswith(("Context impl ", "Will assume ")))


def configure_logging(level: str = "INFO", fmt: str = "json", *, token: str | None = None,
                      stream: TextIO | None = None) -> logging.Handler:
    """Send every record to ``stream`` (stderr) as one line; returns the handler (tests remove it)."""
    install_redaction(token)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else KeyValue())
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "grievous", False)]:
        root.removeHandler(old)
    handler.grievous = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    # Alembic announces each of its plugins on every start: noise in an operator's log.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    migration = logging.getLogger("alembic.runtime.migration")
    if _not_alembic_context not in migration.filters:
        migration.addFilter(_not_alembic_context)
    return handler
