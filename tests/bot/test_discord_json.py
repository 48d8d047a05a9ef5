"""discord.py's JSON with orjson installed reads as json reads (bot/discord_json.py, installed by bot/app.py)."""

from __future__ import annotations

import json

import discord.utils
import pytest

import bot.app  # noqa: F401  (installs it)

pytest.importorskip("orjson")  # without it discord.py uses json itself


@pytest.mark.parametrize("raw", [
    '{"op": 0, "d": {"options": [{"name": "expression", "value": "d6\\ud800"}]}}',  # a hostile client's option
    '{"value": 123456789012345678901234567890, "low": -9223372036854775809}',
    '{"value": NaN, "big": 1e400}',
    '{"t": "INTERACTION_CREATE", "d": {"id": "1577580511499517952", "name": "Åse", "n": 3, "x": null}}',
])
def test_gateway_and_rest_text_reads_as_json_reads_it(raw: str) -> None:
    assert repr(discord.utils._from_json(raw)) == repr(json.loads(raw))


@pytest.mark.parametrize("value", [
    {"content": "d6\ud800"}, {1: "a key that is not text"}, {"n": 2**64},
    {"content": "Åse hits", "embeds": [{"title": "t", "color": 0xFFAA00, "fields": []}], "flags": None},
])
def test_bodies_read_back_as_discord_py_wrote_them_with_json(value: object) -> None:
    ours = discord.utils._to_json(value)
    theirs = json.dumps(value, separators=(",", ":"), ensure_ascii=True)  # discord.py without orjson
    assert json.loads(ours) == json.loads(theirs)
