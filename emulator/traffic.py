"""Every REST exchange and gateway dispatch, handed to whoever listens: the tests' check against Discord's
own API spec (tests/spec/) listens to every emulator in the process. Nobody listening costs one list test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]


@dataclass
class Exchange:
    """One REST request the bot sent and the emulator's answer, as they crossed the wire."""

    method: str
    route: str  # the route with its ids named: "/channels/{channel_id}/messages"
    path: str
    query: dict[str, list[str]]
    multipart: bool
    body: Any  # the JSON body, or a multipart body's payload_json (None: no body)
    parts: list[str] = field(default_factory=list)  # a multipart body's part names: payload_json, files[0], ...
    status: int = 0
    response: bytes = b""
    response_type: str = ""
    fault: str | None = None  # sent on purpose by a fault switch (Emulator.callback_faults): exempt


@dataclass
class Dispatch:
    """One gateway event the emulator sent (or would send) to the bot."""

    event: str
    data: JSONDict
    fault: str | None = None


# Listeners, process-wide: called once per exchange and per dispatch, by every emulator in the process.
EXCHANGE_SINKS: list[Callable[[Exchange], None]] = []
DISPATCH_SINKS: list[Callable[[Dispatch], None]] = []


def listening() -> bool:
    return bool(EXCHANGE_SINKS)


def exchanged(exchange: Exchange) -> None:
    for sink in EXCHANGE_SINKS:
        sink(exchange)


def dispatched(dispatch: Dispatch) -> None:
    for sink in DISPATCH_SINKS:
        sink(dispatch)
