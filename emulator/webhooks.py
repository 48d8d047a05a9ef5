"""Interaction callbacks and the interaction webhook (follow-ups, @original edits), with Discord's deadlines."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import errors as err
from . import limits
from .httpio import Body, current_call, flag, json_reply, no_content, read_body
from .models import EPHEMERAL, IS_COMPONENTS_V2, LOADING, SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, Message
from .ratelimits import CLOUDFLARE
from .records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PING,
    PONG,
    UPDATE_MESSAGE,
    InteractionHandle,
    ResponseEvent,
)

if TYPE_CHECKING:
    from .server import Emulator

JSONDict = dict[str, Any]
ID = r"{%s:\d+}"
RESPONSE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

ALLOWED_CALLBACKS: dict[int, set[int]] = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE},
}


def unknown_interaction(note: str) -> err.DiscordError:
    return err.DiscordError(404, err.UNKNOWN_INTERACTION, "Unknown interaction", note=note)


class InteractionWebhooks:
    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        self.state = emulator.state

    def routes(self, prefix: str) -> list[web.RouteDef]:
        base = f"{prefix}/webhooks/{ID % 'application_id'}/{{token}}"
        return [
            web.post(f"{prefix}/interactions/{ID % 'interaction_id'}/{{token}}/callback", self.callback),
            web.post(base, self.followup),
            web.get(base + "/messages/@original", self.get_message),
            web.patch(base + "/messages/@original", self.edit_message),
            web.delete(base + "/messages/@original", self.delete_message),
            web.get(base + f"/messages/{ID % 'message_id'}", self.get_message),
            web.patch(base + f"/messages/{ID % 'message_id'}", self.edit_message),
            web.delete(base + f"/messages/{ID % 'message_id'}", self.delete_message),
        ]

    def _record(self, handle: InteractionHandle, event: ResponseEvent) -> None:
        handle.events.append(event)
        self.emu.notifier.notify()

    # -- POST /interactions/{id}/{token}/callback -----------------------------------------------------

    async def _fault(self, fault: str) -> web.Response:
        """A fault a test injected (``Emulator.callback_faults``): the answer to the callback instead."""
        if fault == "hold":
            await asyncio.Event().wait()  # no answer, until the bot's connection goes
        if fault == "cloudflare":  # topics/rate-limits.mdx "Invalid Request Limit": Cloudflare's ban, no JSON, no Via
            banned = web.Response(status=429, text="error code: 1015", content_type="text/plain")
            banned[CLOUDFLARE] = True
            return banned
        # topics/rate-limits.mdx: a 429's JSON body (retry_after in seconds, global) and its headers
        retry_after = self.emu.callback_retry_after
        reply = json_reply({"message": "You are being rate limited.", "retry_after": retry_after, "global": False},
                           status=429)
        reply.headers.update({"Retry-After": str(retry_after), "X-RateLimit-Scope": "user", "Via": "1.1 google",
                              "X-Emulator-Fault": fault})  # sent by a fault switch, marked (not Discord's)
        return reply

    async def callback(self, request: web.Request) -> web.Response:
        handle = self.emu.interaction_by_id.get(int(request.match_info["interaction_id"]))
        if handle is None or handle.token != request.match_info["token"]:
            raise unknown_interaction("no interaction with this id and token")
        current_call().interaction = handle
        body = await read_body(request)
        if self.emu.callback_faults:
            fault = current_call().fault = self.emu.callback_faults.pop(0)
            return await self._fault(fault)
        if handle.acknowledged:  # topics/opcodes-and-status-codes.mdx: 40060
            raise err.DiscordError(400, err.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.",
                                   note="already acknowledged")
        elapsed = time.monotonic() - handle.created_at
        if elapsed > self.emu.interaction_deadline:
            deadline = self.emu.interaction_deadline
            raise unknown_interaction(f"answered after {elapsed:.2f}s; the deadline is {deadline:g}s")
        payload = body.dict
        kind = payload.get("type")
        data: JSONDict = payload.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(handle.type, set()) or (
            kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and handle.source_message is None
        ):
            tree = err.ErrorTree()
            tree.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID",
                     f"Interaction response type {kind} is not valid for interaction type {handle.type}")
            raise err.invalid_form(tree)
        message = self._perform(handle, int(kind), data, body)
        self._record(handle, ResponseEvent("callback", data, message, type=int(kind)))
        if not flag(request, "with_response"):
            return no_content()
        reply: JSONDict = {"interaction": {"id": str(handle.id), "type": handle.type}}
        if message is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            reply["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
        # receiving-and-responding.mdx:384 `resource?`, :409 its `message` "Only present if type is either
        # CHANNEL_MESSAGE_WITH_SOURCE or UPDATE_MESSAGE"; the spec's resources are those two (and activities):
        # a defer, a modal or choices answer without one.
        if message is not None and kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            reply["resource"] = {"type": kind, "message": self.state.message_payload(message)}
        return json_reply(reply)

    def _perform(self, handle: InteractionHandle, kind: int, data: JSONDict, body: Body) -> Message | None:
        if kind == CHANNEL_MESSAGE:
            limits.check_message(data, path=("data",), has_files=bool(body.uploads))
            limits.check_attachments(data, list(body.uploads), path=("data",))
            handle.original = self._new_message(handle, data, body, flags=int(data.get("flags") or 0) & RESPONSE_FLAGS)
            return handle.original
        if kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            handle.original = self._new_message(handle, {}, Body({}), flags=flags)
            return handle.original
        if kind == DEFERRED_UPDATE_MESSAGE:
            handle.original = handle.source_message
            return None
        if kind == UPDATE_MESSAGE:
            target = handle.source_message
            assert target is not None
            limits.check_edit(target, data, list(body.uploads), path=("data",))
            self.state.edit_message(target, data, body.uploads)
            handle.original = target
            return target
        if kind == AUTOCOMPLETE_RESULT:
            limits.check_autocomplete(data)
        elif kind == MODAL:
            limits.check_modal(data)
        return None

    def _metadata(self, handle: InteractionHandle, original: Message | None = None) -> JSONDict:
        meta: JSONDict = {
            "id": str(handle.id),
            "type": handle.type,
            "user": handle.user.payload(),
            "authorizing_integration_owners": handle.payload.get("authorizing_integration_owners", {}),
        }
        # receiving-and-responding.mdx "Message Interaction Metadata Object": no command name or type; a user
        # command names its target user, a message command its target message.
        data = handle.payload.get("data") or {}
        if handle.type == APPLICATION_COMMAND and data.get("type") == 2 and data.get("target_id"):
            target = self.state.users.get(int(data["target_id"]))
            if target is not None:
                meta["target_user"] = target.payload()
        if handle.type == APPLICATION_COMMAND and data.get("type") == 3 and data.get("target_id"):
            meta["target_message_id"] = str(data["target_id"])
        if handle.type == MESSAGE_COMPONENT and handle.source_message is not None:
            meta["interacted_message_id"] = str(handle.source_message.id)
        if handle.type == MODAL_SUBMIT and handle.opened_by is not None:
            meta["triggering_interaction_metadata"] = self._metadata(handle.opened_by)
        if original is not None:
            meta["original_response_message_id"] = str(original.id)
        return meta

    def _new_message(self, handle: InteractionHandle, data: JSONDict, body: Body, *, flags: int,
                     followup_of: Message | None = None) -> Message:
        msg_type = 0
        if handle.type == APPLICATION_COMMAND and followup_of is None:
            msg_type = 20 if handle.payload["data"].get("type", 1) == 1 else 23
        if not flags & EPHEMERAL:
            self.state.answer_in_thread(handle.channel)
        return self.state.create_message(
            handle.channel,
            self.state.bot,
            data,
            body.uploads,
            type=msg_type,
            flags=flags,
            webhook_id=self.state.application_id,
            interaction_id=handle.id,
            interaction_metadata=self._metadata(handle, followup_of),
        )

    # -- the interaction webhook --------------------------------------------------------------------

    def _handle(self, request: web.Request) -> InteractionHandle:
        handle = self.emu.interaction_by_token.get(request.match_info["token"])
        if handle is None or int(request.match_info["application_id"]) != self.state.application_id:
            raise err.unknown("Webhook", err.UNKNOWN_WEBHOOK)
        current_call().interaction = handle
        age = time.monotonic() - handle.created_at
        if age > self.emu.followup_lifetime:
            lifetime = self.emu.followup_lifetime
            raise err.DiscordError(401, err.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token",
                                   note=f"interaction token is {age:.0f}s old; it lasts {lifetime:g}s")
        if not handle.acknowledged:
            raise err.DiscordError(404, err.UNKNOWN_WEBHOOK, "Unknown Webhook",
                                   note="the interaction has not been responded to yet")
        return handle

    def _target(self, request: web.Request, handle: InteractionHandle) -> Message:
        message_id = request.match_info.get("message_id")
        if message_id is None:
            msg = handle.original
        else:
            mine = ([handle.original] if handle.original else []) + handle.followup_messages
            msg = next((m for m in mine if m.id == int(message_id)), None)
        if msg is None or msg.deleted:
            raise err.unknown("Message", err.UNKNOWN_MESSAGE)
        return msg

    async def followup(self, request: web.Request) -> web.Response:
        handle = self._handle(request)
        body = await read_body(request)
        data = body.dict
        limits.check_message(data, has_files=bool(body.uploads))
        limits.check_attachments(data, list(body.uploads))
        original = handle.original
        callback = handle.callback
        if (self.emu.legacy_followup_edit and callback is not None and callback.type == DEFERRED_CHANNEL_MESSAGE
                and original is not None and original.loading and not original.deleted
                and not handle.followup_messages):
            # Discord, for backwards compatibility only ("This behavior is deprecated"): the first follow-up
            # after a deferred response edits the "thinking" message instead. Off by default: a follow-up
            # is a new message, and "thinking" stays until edited through @original.
            msg = self.state.edit_message(original, data, body.uploads)
        else:
            msg = self._new_message(handle, data, body, flags=int(data.get("flags") or 0) & RESPONSE_FLAGS,
                                    followup_of=original or handle.source_message)
        handle.followup_messages.append(msg)
        self._record(handle, ResponseEvent("followup", data, msg))
        if not flag(request, "wait"):
            return no_content()
        return json_reply(self.state.message_payload(msg))

    async def get_message(self, request: web.Request) -> web.Response:
        handle = self._handle(request)
        return json_reply(self.state.message_payload(self._target(request, handle)))

    async def edit_message(self, request: web.Request) -> web.Response:
        handle = self._handle(request)
        msg = self._target(request, handle)
        body = await read_body(request)
        data = body.dict
        limits.check_edit(msg, data, list(body.uploads))
        self.state.edit_message(msg, data, body.uploads)
        self._record(handle, ResponseEvent("edit", data, msg))
        return json_reply(self.state.message_payload(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        handle = self._handle(request)
        msg = self._target(request, handle)
        self.state.delete_message(msg)
        self._record(handle, ResponseEvent("delete", {}, msg))
        return no_content()
