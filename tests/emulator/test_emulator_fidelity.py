"""The emulator's smaller Discord rules (issue 21, findings 12-16): trimmed embed text, limits no stricter than
Discord's, 10 MiB a file, ephemeral messages unknown to channel endpoints, an edit changing only what it sends,
250 pins, 200 command creates a day."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from emulator import DiscordError, Emulator
from emulator import permissions as perms
from emulator.limits import FILE_BYTES_MAX, check_commands, check_message
from emulator.state import PINS_MAX
from emulator.testing import emu_fixture  # noqa: F401


def refused(body: dict[str, Any]) -> list[str]:
    with pytest.raises(DiscordError) as caught:
        check_message(body)
    return caught.value.errors.flatten() if caught.value.errors else [caught.value.message]


def test_embed_text_is_counted_after_trimming() -> None:
    check_message({"embeds": [{"title": " " * 300 + "t" + " " * 300}]})  # 601 raw, 1 counted
    assert any("fields.0.value" in e for e in refused({"embeds": [{"fields": [{"name": "n", "value": "   "}]}]}))


def test_limits_are_discords_not_stricter() -> None:
    check_commands([{"name": f"u{i}", "type": 2} for i in range(15)] + [{"name": f"m{i}", "type": 3}
                                                                          for i in range(15)])
    check_commands([{"name": "don't", "description": "d", "type": 1}, {"name": "नमस्ते", "description": "d"},
                    {"name": "สวัสดี", "description": "d"}])
    long = [{"name": f"o{i}", "description": "d" * 100, "type": 3,
             "choices": [{"name": "c" * 100, "value": str(j)} for j in range(3)]} for i in range(13)]
    check_commands([{"name": "big", "description": "d", "type": 1, "options": long}])  # ~5,300 characters
    assert PINS_MAX == 250


async def api(emu: Emulator, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as session, \
            session.request(method, f"{emu.api_base}{path}", **kwargs) as reply:
        return reply.status, await reply.json() if reply.content_type == "application/json" else None


async def test_each_file_is_at_most_10_mib(emu: Emulator) -> None:
    guild = emu.add_guild()
    channel = emu.add_channel(guild, "general")
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "x"}', content_type="application/json")
    form.add_field("files[0]", b"\0" * (FILE_BYTES_MAX + 1), filename="big.bin")
    status, body = await api(emu, "POST", f"/channels/{channel.id}/messages", data=form)
    assert (status, body["code"]) == (413, 40005)
    emu.clear_refusals()


async def test_channel_endpoints_do_not_know_ephemeral_messages(emu: Emulator) -> None:
    guild = emu.add_guild()
    channel = emu.add_channel(guild, "general")
    msg = emu.state.create_message(channel, emu.bot, {"content": "secret", "flags": 64})
    status, body = await api(emu, "GET", f"/channels/{channel.id}/messages/{msg.id}")
    assert (status, body["code"]) == (404, 10008)
    status, body = await api(emu, "PATCH", f"/channels/{channel.id}/messages/{msg.id}", json={"content": "x"})
    assert (status, body["code"]) == (404, 10008)
    emu.clear_refusals()


async def test_an_edit_changes_only_the_fields_it_sends(emu: Emulator) -> None:
    """Edit Message: "All parameters to this endpoint are optional": an edit of the embed alone keeps the buttons."""
    guild = emu.add_guild()
    channel = emu.add_channel(guild, "general")
    button = {"type": 2, "style": 2, "label": "Roll", "custom_id": "grv:gm:1:roll"}
    msg = emu.state.create_message(channel, emu.bot, {"embeds": [{"title": "a"}],
                                                      "components": [{"type": 1, "components": [button]}]})
    status, _ = await api(emu, "PATCH", f"/channels/{channel.id}/messages/{msg.id}", json={"embeds": [{"title": "b"}]})
    assert status == 200 and msg.embeds[0]["title"] == "b" and msg.custom_ids == ["grv:gm:1:roll"]
    status, _ = await api(emu, "PATCH", f"/channels/{channel.id}/messages/{msg.id}", json={"components": []})
    assert status == 200 and msg.custom_ids == [] and msg.embeds[0]["title"] == "b"


async def test_manage_messages_alone_does_not_pin(emu: Emulator) -> None:
    guild = emu.add_guild(bot_permissions=perms.VIEW_CHANNEL | perms.SEND_MESSAGES | perms.MANAGE_MESSAGES,
                          everyone_permissions=0)
    channel = emu.add_channel(guild, "general")
    msg = emu.state.create_message(channel, emu.bot, {"content": "tracker"})
    status, body = await api(emu, "PUT", f"/channels/{channel.id}/messages/pins/{msg.id}")
    assert (status, body["code"]) == (403, 50013)
    emu.clear_refusals()


async def test_200_command_creates_a_day_then_30034(emu: Emulator) -> None:
    guild = emu.add_guild()
    path = f"/applications/{emu.application_id}/guilds/{guild.id}/commands"
    for batch in range(2):
        commands = [{"name": f"c{batch}-{i}", "description": "d"} for i in range(100)]
        assert (await api(emu, "PUT", path, json=commands))[0] == 200
    status, _ = await api(emu, "PUT", path, json=[{"name": "c1-0", "description": "edited"}])
    assert status == 200  # an existing name is an edit, not a create
    status, body = await api(emu, "POST", path, json={"name": "new", "description": "d"})
    assert (status, body["code"]) == (400, 30034)
    emu.clear_refusals()


async def test_a_name_both_global_and_in_the_guild_is_shown_twice(emu: Emulator) -> None:
    from emulator.interactions import InteractionError

    guild = emu.add_guild()
    channel = emu.add_channel(guild, "general")
    member = emu.add_member(guild, "alice")
    app = emu.application_id
    roll = [{"name": "roll", "description": "d"}]
    assert (await api(emu, "PUT", f"/applications/{app}/commands", json=roll))[0] == 200
    assert (await api(emu, "PUT", f"/applications/{app}/guilds/{guild.id}/commands", json=roll))[0] == 200
    with pytest.raises(InteractionError, match="twice"):
        await emu.slash("roll", user=member, channel=channel)
