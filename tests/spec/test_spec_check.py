"""The spec check itself: an emulator answering unlike Discord fails it (a planted regression), and so does a
request Discord refuses; the documented exceptions pass, and nothing else does."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest

from emulator import Emulator, traffic
from emulator import models as emulator_models
from emulator.state import State
from tests.spec.checker import Mismatch, spec
from tests.spec.exceptions import EXCEPTIONS
from tests.spec.gateway import check_dispatch

# These tests send the emulator wrong things on purpose and read the check's verdict themselves.
pytestmark = pytest.mark.spec_exempt

JSONDict = dict[str, Any]


@pytest.fixture
def exchanges() -> Iterator[list[traffic.Exchange]]:
    seen: list[traffic.Exchange] = []
    traffic.EXCHANGE_SINKS.append(seen.append)
    yield seen
    traffic.EXCHANGE_SINKS.remove(seen.append)


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(rate_limits=False) as emulator:
        yield emulator


async def _call(emu: Emulator, method: str, path: str, body: JSONDict | None = None) -> Any:
    async with aiohttp.ClientSession() as http, http.request(
            method, emu.api_base + path, json=body, headers={"Authorization": f"Bot {emu.token}"}) as response:
        return await response.json() if response.status != 204 else None


def _mismatches(exchanges: list[traffic.Exchange]) -> list[Mismatch]:
    return [m for ex in exchanges for m in spec().check(ex)]


async def _post_and_read(emu: Emulator) -> None:
    guild = emu.add_guild("Keep")
    channel = emu.add_channel(guild, "hall")
    sent = await _call(emu, "POST", f"/channels/{channel.id}/messages", {"content": "hello"})
    await _call(emu, "GET", f"/channels/{channel.id}/messages/{sent['id']}")
    await _call(emu, "GET", f"/guilds/{guild.id}/roles")


async def test_the_emulator_as_it_is_fits_the_spec(emu: Emulator, exchanges: list[traffic.Exchange]) -> None:
    await _post_and_read(emu)
    assert len(exchanges) == 3
    assert _mismatches(exchanges) == []


async def test_a_member_put_back_into_a_rest_message_fails(emu: Emulator, exchanges: list[traffic.Exchange],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted regression of issue 37: REST built with the gateway's message shape again."""
    original = State.message_payload

    def with_member(self: State, msg: emulator_models.Message, *, depth: int = 0) -> JSONDict:
        data = original(self, msg, depth=depth)
        guild = self.guilds[msg.guild_id or 0]
        return {**data, "guild_id": str(guild.id), "member": guild.members[msg.author.id].payload(with_user=False)}

    monkeypatch.setattr(State, "message_payload", with_member)
    await _post_and_read(emu)
    found = [str(m) for m in _mismatches(exchanges)]
    assert any(line.startswith("POST /channels/{channel_id}/messages response 200: (body): additionalProperties")
               and "'guild_id', 'member'" in line for line in found), found
    assert any(line.startswith("GET /channels/{channel_id}/messages/{message_id} response 200") for line in found)


async def test_a_permissions_field_as_an_integer_fails(emu: Emulator, exchanges: list[traffic.Exchange],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The other planted regression: a role's permissions sent as a number, not Discord's string."""
    original = emulator_models.Role.payload

    def numeric(self: emulator_models.Role) -> JSONDict:
        return {**original(self), "permissions": self.permissions}

    monkeypatch.setattr(emulator_models.Role, "payload", numeric)
    await _post_and_read(emu)
    found = [str(m) for m in _mismatches(exchanges)]
    assert any(line.startswith("GET /guilds/{guild_id}/roles response 200: [0].permissions: type:")
               for line in found), found


def _exchange(method: str, path: str, body: Any = None, *, status: int = 204, response: Any = None,
              parts: list[str] | None = None, query: dict[str, list[str]] | None = None) -> traffic.Exchange:
    return traffic.Exchange(method=method, route=path, path="/api/v10" + path, query=query or {},
                            multipart=parts is not None, body=body, parts=parts or [], status=status,
                            response=json.dumps(response).encode() if response is not None else b"",
                            response_type="application/json" if response is not None else "")


CALLBACK = "/interactions/1/tok/callback"


def _callback(data: JSONDict, kind: int = 4, parts: list[str] | None = None) -> list[str]:
    return [str(m) for m in spec().check(_exchange("POST", CALLBACK, {"type": kind, "data": data}, parts=parts))]


def test_an_unknown_route_and_an_undeclared_query_fail() -> None:
    assert "no such route" in str(spec().check(_exchange("POST", "/channels/1/dance"))[0])
    found = [str(m) for m in spec().check(_exchange("GET", "/channels/1/messages", query={"loud": ["1"]},
                                                     status=200, response=[]))]
    assert found == ["GET /channels/{channel_id}/messages request: ?loud: query parameter not declared"]


def test_the_rules_a_schema_cannot_say() -> None:
    field = {"name": "n" * 256, "value": "v" * 1024}
    assert any("embed totals" in line for line in _callback({"embeds": [{"fields": [field] * 5}] * 2}))
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "same"}
    assert any("repeats" in line for line in _callback({"components": [{"type": 1, "components": [button] * 2}]}))
    select = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}
    assert any("row makeup" in line for line in _callback(
        {"components": [{"type": 1, "components": [{**button, "custom_id": "b"}, select]}]}))
    link = {"type": 2, "style": 5, "label": "Docs", "url": "https://example.org", "custom_id": "x"}
    assert any("button rules" in line for line in _callback({"components": [{"type": 1, "components": [link]}]}))
    text = {"type": 4, "custom_id": "v", "style": 1, "label": "Value"}
    assert any("deprecated" in line for line in _callback(
        {"custom_id": "m", "title": "T", "components": [{"type": 1, "components": [text]}]}, kind=9))
    choices = [{"name": str(n), "value": str(n)} for n in range(26)]
    assert any("over 25" in line or "maxItems" in line for line in _callback({"choices": choices}, kind=8))


def test_files_must_match_their_attachments() -> None:
    found = _callback({"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]}, parts=["payload_json"])
    assert any("names files[0]" in line for line in found), found
    assert _callback({"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]},
                     parts=["payload_json", "files[0]"]) == []


def test_the_documented_exceptions_pass() -> None:
    assert [e.name for e in EXCEPTIONS] == ["snowflakes accepted as numbers",
                                           "files[n] parts on callbacks and webhooks", "nsfw on commands",
                                           "a 429 body without code"]
    # a snowflake as a number, in a request (not in an answer)
    reply = {"content": "x", "message_reference": {"message_id": 123456789012345678}}
    assert spec().check_request(spec().find("POST", "/api/v10/channels/1/messages"),  # type: ignore[arg-type]
                                _exchange("POST", "/channels/1/messages", reply)) == []
    # nsfw on a command
    command = [{"name": "roll", "description": "Roll", "type": 1, "nsfw": False}]
    assert spec().check_request(spec().find("PUT", "/api/v10/applications/1/commands"),  # type: ignore[arg-type]
                                _exchange("PUT", "/applications/1/commands", command)) == []
    # a 429 without code
    limited = _exchange("POST", "/channels/1/messages", {"content": "x"}, status=429,
                        response={"message": "You are being rate limited.", "retry_after": 1.5, "global": False})
    assert spec().check(limited) == []
    # where an allOf merges two objects (Error and the 429's own fields), the merge is closed too
    odd = _exchange("POST", "/channels/1/messages", {"content": "x"}, status=429,
                    response={"message": "Slow down.", "retry_after": 1.5, "global": False, "mood": "cross"})
    assert ["'mood' was unexpected" in str(m) for m in spec().check(odd)] == [True]


def test_a_gateway_message_holds_its_extra_fields_and_nothing_else() -> None:
    user = {"id": "1", "username": "a", "discriminator": "0", "global_name": None, "avatar": None,
            "public_flags": 0, "flags": 0, "primary_guild": None}
    message = {"id": "2", "channel_id": "3", "author": user, "content": "hi", "timestamp": "2026-01-01T00:00:00Z",
               "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
               "mention_roles": [], "attachments": [], "embeds": [], "components": [], "pinned": False, "type": 0,
               "flags": 0, "guild_id": "4"}
    assert check_dispatch(traffic.Dispatch("MESSAGE_CREATE", message)) == []
    found = [str(m) for m in check_dispatch(traffic.Dispatch("MESSAGE_CREATE", {**message, "nonsense": 1}))]
    assert found and "'nonsense' was unexpected" in found[0]
