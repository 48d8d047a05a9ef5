"""HTTP plumbing shared by the REST and webhook routes: reading JSON or multipart bodies, writing JSON."""

from __future__ import annotations

import json
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, hdrs, web
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from .errors import DiscordError
from .limits import FILE_BYTES_MAX, REQUEST_BYTES_MAX, file_too_large, request_too_large
from .state import Upload

if TYPE_CHECKING:
    from .records import InteractionHandle

JSONDict = dict[str, Any]


@dataclass
class CallInfo:
    """What a request handler learnt that the refusal log wants: the body and the interaction."""

    body: Any = None
    interaction: InteractionHandle | None = None
    parts: list[str] = field(default_factory=list)  # a multipart body's part names, in order
    fault: str | None = None  # the fault switch that answered instead (Emulator.callback_faults)


_current_call: ContextVar[CallInfo] = ContextVar("emulator_call")


def begin_call() -> CallInfo:
    info = CallInfo()
    _current_call.set(info)
    return info


def current_call() -> CallInfo:
    try:
        return _current_call.get()
    except LookupError:
        return begin_call()


@dataclass
class Body:
    json: Any
    uploads: dict[int, Upload] = field(default_factory=dict)

    @property
    def dict(self) -> JSONDict:
        if not isinstance(self.json, dict):
            raise DiscordError(400, 50035, "Invalid Form Body")
        return self.json


def json_reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py only decodes JSON when the content type is exactly this (no charset suffix).
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={**(headers or {}), hdrs.CONTENT_TYPE: "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


def _bad_json() -> DiscordError:
    return DiscordError(400, 50109, "The request body contains invalid JSON.")


async def read_body(request: web.Request) -> Body:
    """Parse a JSON body, or a multipart one (`payload_json` plus `files[n]` parts), refusing one over
    Discord's request size the way Discord does (413) before holding more of it than that."""
    if request.content_length is not None and request.content_length > REQUEST_BYTES_MAX:
        raise request_too_large(request.content_length)
    # The raw header, not ``request.content_type``: aiohttp parses that with the email package, and a
    # multipart type carries a new boundary each request, so its parse cache never hits (~0.4 ms a request).
    if request.headers.get(hdrs.CONTENT_TYPE, "").lstrip().lower().startswith("multipart/"):
        payload: Any = {}
        uploads: dict[int, Upload] = {}
        reader = await request.multipart()
        size = 0
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            buffer = bytearray()
            while chunk := await part.read_chunk():
                size += len(chunk)
                if size > REQUEST_BYTES_MAX:
                    raise request_too_large(size)
                buffer.extend(chunk)
            raw = bytes(buffer)
            name, filename = _disposition(part.headers.get(hdrs.CONTENT_DISPOSITION))
            name = name or ""
            current_call().parts.append(name)
            if name == "payload_json":
                try:
                    payload = json.loads(raw)
                except ValueError:
                    raise _bad_json() from None
            elif (name.startswith("files[") and name.endswith("]")) or name == "file":
                if len(raw) > FILE_BYTES_MAX:
                    raise file_too_large(len(raw))
                index = int(name[6:-1]) if name != "file" else 0
                uploads[index] = Upload(index, filename or f"file{index}", raw,
                                        part.headers.get(hdrs.CONTENT_TYPE))
        body = Body(payload, uploads)
    else:
        raw = await request.read()
        if not raw:
            body = Body({})
        else:
            try:
                body = Body(json.loads(raw))
            except ValueError:
                raise _bad_json() from None
    current_call().body = body.json
    return body


@lru_cache(maxsize=256)
def _disposition(header: str | None) -> tuple[str | None, str | None]:
    """A part's name and filename, as ``BodyPartReader.name`` and ``.filename`` read them. The same few
    headers come in every request (``payload_json``, ``files[0]`` with its name), and aiohttp's parse of
    one builds its regular expressions anew each call, so it is parsed once."""
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name"), content_disposition_filename(params, "filename")


def flag(request: web.Request, name: str, default: bool = False) -> bool:
    value = request.query.get(name)
    if value is None:
        return default
    return value.lower() in ("1", "true", "yes")


def int_param(request: web.Request, name: str, default: int | None = None) -> int | None:
    value = request.query.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise DiscordError(400, 50035, "Invalid Form Body") from None
