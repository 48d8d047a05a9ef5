"""Threads and forum posts as Discord keeps them (issue 34; docs/emulator.md "Threads and forum posts"): how they
are made, auto-archiving after their idle time on a clock the test moves, what a post into an archived or a
locked thread does, who may unarchive one, and the events that announce each change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from emulator import DiscordError, Emulator
from emulator import permissions as perms
from emulator.interactions import InteractionError
from emulator.models import GUILD_FORUM, HAS_THREAD, THREAD_STARTER_MESSAGE, Channel
from emulator.testing import World, emu_fixture, world_fixture  # noqa: F401


async def api(emu: Emulator, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as session, \
            session.request(method, f"{emu.api_base}{path}", **kwargs) as reply:
        return reply.status, await reply.json() if reply.content_type == "application/json" else None


@pytest.fixture
def events(emu: Emulator) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """The thread events the emulator announces, in order."""
    seen: list[tuple[str, dict[str, Any]]] = []
    emit = emu.state.emit

    def spy(event: str, data: dict[str, Any], guild_id: int | None, intent: int) -> None:
        if event.startswith("THREAD_"):
            seen.append((event, data))
        emit(event, data, guild_id, intent)

    emu.state.emit = spy
    yield seen
    emu.state.emit = emit


async def send(emu: Emulator, channel: Channel, content: str = "hello") -> tuple[int, Any]:
    return await api(emu, "POST", f"/channels/{channel.id}/messages", json={"content": content})


def test_a_thread_from_a_message_has_its_id_and_opens_with_a_starter_message(emu: Emulator, world: World) -> None:
    origin = emu.state.create_message(world.combat, world.gm.user, {"content": "The ambush begins"})
    thread = emu.add_thread(world.combat, "The ambush", owner=world.gm, from_message=origin)
    assert thread.id == origin.id and origin.flags & HAS_THREAD
    [starter] = emu.messages(thread)
    assert starter.type == THREAD_STARTER_MESSAGE and int(starter.message_reference["message_id"]) == origin.id
    with pytest.raises(DiscordError) as again:
        emu.add_thread(world.combat, "Twice", owner=world.gm, from_message=origin)
    assert again.value.code == 160004


async def test_a_forum_post_opens_with_its_first_message_and_the_forum_takes_no_message(
        emu: Emulator, world: World) -> None:
    forum = emu.add_channel(world.guild, "scenes", type=GUILD_FORUM)
    post = emu.add_thread(forum, "Session 3", owner=world.gm, first_message="We meet at the mill.")
    [first] = emu.messages(post)
    assert (first.id, first.content, first.author.id) == (post.id, "We meet at the mill.", world.gm.user.id)
    status, body = await send(emu, forum)
    assert (status, body["code"]) == (400, 50008)
    emu.clear_refusals()


async def test_an_idle_thread_archives_after_its_duration_and_a_send_unarchives_it(
        emu: Emulator, world: World, events: list[tuple[str, dict[str, Any]]]) -> None:
    thread = emu.add_thread(world.combat, "The ambush", owner=world.gm, members=[emu.bot],
                            auto_archive_duration=60)
    assert emu.advance_clock(59 * 60) == [] and not thread.archived
    await emu.say(thread, world.alice, "I hold the door")  # activity: the hour starts again
    assert emu.advance_clock(59 * 60) == [] and not thread.archived
    assert emu.advance_clock(60) == [thread] and thread.archived
    assert events[-1][0] == "THREAD_UPDATE" and events[-1][1]["thread_metadata"]["archived"] is True
    archived_at = events[-1][1]["thread_metadata"]["archive_timestamp"]

    status, _ = await send(emu, thread, "late news")
    assert status == 200 and not thread.archived
    metadata = events[-1][1]["thread_metadata"]
    assert events[-1][0] == "THREAD_UPDATE" and metadata["archived"] is False
    assert metadata["archive_timestamp"] > archived_at


async def test_an_archived_thread_refuses_edits_and_pins_and_commands(emu: Emulator, world: World) -> None:
    thread = emu.add_thread(world.combat, "The ambush", owner=world.gm, members=[emu.bot])
    _, posted = await send(emu, thread)
    emu.advance_clock(24 * 3600)
    assert thread.archived
    status, body = await api(emu, "PATCH", f"/channels/{thread.id}/messages/{posted['id']}", json={"content": "x"})
    assert (status, body["code"]) == (400, 50083)
    status, body = await api(emu, "PUT", f"/channels/{thread.id}/messages/pins/{posted['id']}")
    assert (status, body["code"]) == (400, 50083)
    with pytest.raises(InteractionError, match="archived"):
        await emu.slash("help", user=world.alice, channel=thread)
    emu.clear_refusals()


async def test_the_bot_unarchives_a_thread_it_is_in_but_not_a_locked_one_without_manage_threads(
        emu: Emulator, world: World) -> None:
    thread = emu.add_thread(world.combat, "The ambush", owner=world.gm, members=[emu.bot])
    emu.set_thread(thread, archived=True)
    status, body = await api(emu, "PATCH", f"/channels/{thread.id}", json={"archived": False})
    assert status == 200 and body["thread_metadata"]["archived"] is False

    emu.set_thread(thread, archived=True, locked=True)
    status, body = await api(emu, "PATCH", f"/channels/{thread.id}", json={"archived": False})
    assert (status, body["code"]) == (403, 50013)
    status, body = await send(emu, thread)
    assert (status, body["code"]) == (400, 50083) and thread.archived
    emu.clear_refusals()


async def test_a_locked_thread_takes_posts_and_edits_only_from_manage_threads(emu: Emulator, world: World) -> None:
    thread = emu.add_thread(world.combat, "The ambush", owner=world.gm, members=[emu.bot])
    _, posted = await send(emu, thread)
    emu.set_thread(thread, locked=True)
    status, body = await send(emu, thread)
    assert (status, body["code"]) == (400, 160005)
    status, body = await api(emu, "PATCH", f"/channels/{thread.id}/messages/{posted['id']}", json={"content": "x"})
    assert (status, body["code"]) == (400, 160005)
    with pytest.raises(InteractionError, match="locked"):
        await emu.slash("help", user=world.alice, channel=thread)
    with pytest.raises(DiscordError):
        await emu.say(thread, world.alice, "let me in")

    bot_role = next(r for r in world.guild.roles.values() if r.managed)
    bot_role.permissions |= perms.MANAGE_THREADS
    status, _ = await send(emu, thread)
    assert status == 200
    emu.set_thread(thread, archived=True)
    status, body = await api(emu, "PATCH", f"/channels/{thread.id}", json={"archived": False})
    assert status == 200 and body["thread_metadata"] == {**body["thread_metadata"], "archived": False, "locked": True}
    emu.clear_refusals()


async def test_posting_in_a_thread_needs_send_messages_in_threads_from_the_parents_overwrites(
        emu: Emulator, world: World) -> None:
    bot_role = next(r for r in world.guild.roles.values() if r.managed)
    emu.set_overwrites(world.combat, [perms.Overwrite(bot_role.id, 0, deny=perms.SEND_MESSAGES_IN_THREADS)])
    thread = emu.add_thread(world.combat, "The ambush", owner=world.gm, members=[emu.bot])
    status, body = await send(emu, thread)
    assert (status, body["code"]) == (403, 50013)
    status, _ = await send(emu, world.combat)  # the channel itself still takes Send Messages
    assert status == 200
    emu.clear_refusals()


def test_guild_create_lists_active_threads_apart_and_thread_create_announces_a_new_one(
        emu: Emulator, world: World, events: list[tuple[str, dict[str, Any]]]) -> None:
    live = emu.add_thread(world.combat, "The ambush", owner=world.gm)
    emu.add_thread(world.combat, "Last week", owner=world.gm, archived=True)
    payload = world.guild.gateway_payload([])
    assert [t["id"] for t in payload["threads"]] == [str(live.id)]
    assert str(live.id) not in [c["id"] for c in payload["channels"]]
    assert events[0][0] == "THREAD_CREATE" and events[0][1]["newly_created"] is True
    assert events[0][1]["parent_id"] == str(world.combat.id)


async def test_the_bot_starts_threads_over_rest_with_the_rights_each_needs(emu: Emulator, world: World) -> None:
    bot_role = next(r for r in world.guild.roles.values() if r.managed)
    _, origin = await send(emu, world.combat, "The ambush begins")
    status, body = await api(emu, "POST", f"/channels/{world.combat.id}/messages/{origin['id']}/threads",
                             json={"name": "The ambush"})
    assert (status, body["code"]) == (403, 50013)  # Create Public Threads is not among the invite's rights
    bot_role.permissions |= perms.CREATE_PUBLIC_THREADS
    status, body = await api(emu, "POST", f"/channels/{world.combat.id}/messages/{origin['id']}/threads",
                             json={"name": "The ambush", "auto_archive_duration": 60})
    assert status == 201 and body["id"] == origin["id"] and body["thread_metadata"]["auto_archive_duration"] == 60
    status, body = await api(emu, "POST", f"/channels/{world.combat.id}/threads", json={"name": "GM only"})
    assert (status, body["code"]) == (403, 50013)  # no type: a private thread, which needs its own right
    status, body = await api(emu, "POST", f"/channels/{world.combat.id}/threads", json={"name": "x" * 101, "type": 11})
    assert (status, body["code"]) == (400, 50035)

    forum = emu.add_channel(world.guild, "scenes", type=GUILD_FORUM)
    status, body = await api(emu, "POST", f"/channels/{forum.id}/threads",
                             json={"name": "Session 3", "message": {"content": "We meet at the mill."}})
    assert status == 201 and body["message"]["id"] == body["id"]
    assert body["message"]["content"] == "We meet at the mill."
    status, body = await api(emu, "POST", f"/channels/{forum.id}/threads", json={"name": "Session 4"})
    assert (status, body["code"]) == (400, 50035)  # a post needs its first message
    emu.clear_refusals()


def test_an_interactions_public_answer_in_an_archived_thread_unarchives_it(emu: Emulator, world: World) -> None:
    """webhooks.InteractionWebhooks._new_message calls it for every public answer and follow-up."""
    thread = emu.add_thread(world.combat, "The ambush", owner=world.gm, members=[emu.bot])
    locked = emu.add_thread(world.combat, "Closed", owner=world.gm, members=[emu.bot])
    emu.advance_clock(24 * 3600)
    emu.set_thread(locked, locked=True)
    emu.state.answer_in_thread(thread)
    emu.state.answer_in_thread(locked)
    assert not thread.archived and locked.archived
