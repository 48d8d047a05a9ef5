"""discord.py's JSON, read exactly as the json module reads it.

With orjson installed, discord.py reads every gateway event and REST answer, and writes every request
body, with it (``discord.utils._from_json`` and ``_to_json``, its "speed" extra). orjson refuses some text
json reads: an option holding a lone surrogate (an escape a hostile client can send) ended the gateway
connection, where json read it and the tree refused the option in one line; and it reads integers past
64 bits as floats. ``install`` hands discord.py bot/db/json_text.py's reading (orjson where it gives what
json gives, json where not) and a writer that keeps discord.py's own json text where orjson refuses (a
lone surrogate, a key that is not text, an integer past 64 bits)."""

from __future__ import annotations

import json
from typing import Any

import discord.utils

from bot.db import json_text


def install() -> None:
    """Once, before the client connects (bot/app.py does it on import)."""
    if not (discord.utils.HAS_ORJSON and json_text.HAS_ORJSON):
        return
    import orjson  # type: ignore[import-not-found, unused-ignore]

    def to_json(value: Any) -> str:
        try:
            text: bytes = orjson.dumps(value)
        except orjson.JSONEncodeError:
            return json.dumps(value, separators=(",", ":"), ensure_ascii=True)  # discord.py's own, without orjson
        return text.decode()

    setattr(discord.utils, "_from_json", json_text.loads)  # noqa: B010 (the module attributes discord.py calls)
    setattr(discord.utils, "_to_json", to_json)  # noqa: B010
