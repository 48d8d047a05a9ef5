"""`Emulator`: a loopback Discord (REST + gateway) on 127.0.0.1 that a real discord.py client can log in to."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from aiohttp import web

from . import errors as err
from . import interactions as build
from . import permissions as perms
from . import ratelimits, traffic
from .gateway import Gateway, Session
from .httpio import CallInfo, begin_call, current_call, json_reply
from .models import GUILD_TEXT, Attachment, Channel, Guild, Member, Message, Role, User
from .records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DEFAULT_TIMEOUT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    CommandWrite,
    InteractionHandle,
    Notifier,
    Refusal,
)
from .rest import RestApi
from .snowflake import SnowflakeFactory, bot_token, interaction_token
from .state import INTENT_GUILDS, INTENT_MESSAGE_CONTENT, State, Upload
from .webhooks import InteractionWebhooks

JSONDict = dict[str, Any]
T = TypeVar("T")
log = logging.getLogger(__name__)

API_PREFIX = r"/api/{version:v\d+}"
# Application flags: GATEWAY_GUILD_MEMBERS | GATEWAY_MESSAGE_CONTENT (privileged intents switched on).
DEFAULT_APPLICATION_FLAGS = (1 << 15) | (1 << 19)


class NoBotConnected(RuntimeError):
    """An interaction was dispatched but no bot session (live or resumable) could receive it."""


class Emulator:
    """A fake Discord for one bot application.

    Build the world (guilds, channels, roles, members), `await start()`, point discord.py at
    `api_base`/`gateway_url` (see `emulator.harness.redirect_discord`), then drive users'
    interactions and read what the bot answered.
    """

    def __init__(
        self,
        *,
        bot_name: str = "Grievous",
        interaction_deadline: float = 3.0,
        followup_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        recommended_shards: int = 1,
        allowed_intents: int = -1,
        host: str = "127.0.0.1",
        legacy_followup_edit: bool = False,
        rate_limits: bool | ratelimits.RateLimits = True,
        rest_latency: float = 0.0,
        gateway_latency: float = 0.0,
    ) -> None:
        self.host = host
        # Discord's REST rate limits (emulator/ratelimits.py): on unless told; a RateLimits gives its own rules.
        self.rate_limits = (rate_limits if isinstance(rate_limits, ratelimits.RateLimits)
                            else ratelimits.RateLimits(enabled=rate_limits))
        # One-way network delays in seconds: each REST request and response, each gateway event to the bot.
        self.rest_latency = rest_latency
        self.gateway_latency = gateway_latency
        # Discord's deprecated rule that the first follow-up after a defer edits "thinking" (off: strict).
        self.legacy_followup_edit = legacy_followup_edit
        self.interaction_deadline = interaction_deadline
        self.followup_lifetime = followup_lifetime
        self.recommended_shards = recommended_shards
        self.application_flags = DEFAULT_APPLICATION_FLAGS
        self.ids = SnowflakeFactory()
        self.notifier = Notifier()
        self.state = State(bot_name=bot_name, ids=self.ids, cdn_base=lambda: self.base_url)
        self.state.emit = self._emit
        self.token = bot_token(self.state.bot.id)
        self.gateway = Gateway(self, heartbeat_interval_ms=heartbeat_interval_ms, allowed_intents=allowed_intents)
        self.refusals: list[Refusal] = []
        # Every REST request as "METHOD /route/{template}" (interaction callbacks included), in order: tests and
        # benchmarks count the calls a command makes.
        self.requests: list[str] = []
        self.unhandled: list[str] = []
        self.internal_errors: list[str] = []
        self.interactions: list[InteractionHandle] = []
        self.command_writes: list[CommandWrite] = []  # every PUT/POST/PATCH/DELETE of application commands
        # Command creates per (guild id or None for global, UTC day), against Discord's 200 a day.
        self.command_creates: dict[tuple[int | None, str], int] = {}
        self.interaction_by_id: dict[int, InteractionHandle] = {}
        # Faults a test puts on the next interaction callbacks, one each, in order: "429" (Discord's rate
        # limit, with ``retry_after``) or "hold" (the request never gets an answer: a bot killed meanwhile).
        self.callback_faults: list[str] = []
        self.callback_retry_after = 3.5
        self.interaction_by_token: dict[str, InteractionHandle] = {}
        self.port = 0
        self._runner: web.AppRunner | None = None

    # -- lifecycle ----------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be set to."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What `DiscordWebSocket.DEFAULT_GATEWAY` must be set to."""
        return f"ws://{self.host}:{self.port}/"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/resume"

    def build_app(self) -> web.Application:
        @web.middleware
        async def discord_errors(request: web.Request,
                                 handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
            return await self._guard(request, handler)

        app = web.Application(middlewares=[discord_errors], client_max_size=64 * 1024 * 1024)
        app.add_routes([web.get("/", self.gateway.handle), web.get("/resume", self.gateway.handle)])
        app.add_routes(RestApi(self).routes(API_PREFIX))
        app.add_routes(InteractionWebhooks(self).routes(API_PREFIX))
        app.add_routes([web.get(r"/attachments/{channel_id:\d+}/{attachment_id:\d+}/{filename}", self._download)])
        return app

    async def start(self, port: int = 0) -> Emulator:
        if self._runner is not None:
            return self
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, port))
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(self.build_app(), access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        log.info("Discord emulator listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        if self._runner is None:
            return
        await self.gateway.close()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- request guard: auth, Discord errors, refusals ----------------------------------------------

    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if self.rest_latency > 0:
            await asyncio.sleep(self.rest_latency)  # the request on its way to Discord
        response = await self._answer(request, handler)
        if self.rest_latency > 0:
            await asyncio.sleep(self.rest_latency)  # and the response on its way back
        return response

    async def _answer(self, request: web.Request,
                      handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        response = await self._answer_call(request, handler)
        if traffic.listening() and request.path.startswith("/api/"):
            self._hand_over(request, response)
        return response

    def _hand_over(self, request: web.Request, response: web.StreamResponse) -> None:
        """The exchange, for the listeners of emulator/traffic.py (the tests' check against Discord's spec)."""
        call = current_call()
        body = response.body if isinstance(response, web.Response) else None
        query: dict[str, list[str]] = {}
        for key, value in request.query.items():
            query.setdefault(key, []).append(value)
        traffic.exchanged(traffic.Exchange(
            method=request.method, route=self._template(request), path=request.path, query=query,
            multipart=request.headers.get("Content-Type", "").lower().startswith("multipart/"),
            body=call.body, parts=list(call.parts), status=response.status,
            response=body if isinstance(body, bytes) else b"", response_type=response.content_type,
            fault=call.fault))

    async def _answer_call(self, request: web.Request,
                           handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        path = request.path
        call = begin_call()
        if path.startswith("/api/"):
            self.requests.append(f"{request.method} {self._template(request)}")
        verdict = self._rate_limit(request)
        if verdict.text is not None:  # banned for too many invalid requests: Cloudflare's page, not JSON
            self.refusals.append(Refusal(request.method, path, 429, 0, "temporarily banned (invalid requests)",
                                         None, None))
            self.notifier.notify()
            return web.Response(status=429, text=verdict.text, headers=verdict.headers)
        if verdict.body is not None:
            self.rate_limits.answered(429, verdict.headers)
            return json_reply(verdict.body, 429, headers=verdict.headers)
        response = await self._handle(request, handler, call)
        if verdict.headers and not response.get(ratelimits.CLOUDFLARE):  # Cloudflare's own page has no Discord headers
            response.headers.update(verdict.headers)
        self.rate_limits.answered(response.status, verdict.headers)
        return response

    def _rate_limit(self, request: web.Request) -> ratelimits.Verdict:
        if not request.path.startswith("/api/") or request.match_info.http_exception is not None:
            return ratelimits.Verdict()
        return self.rate_limits.check(request.method, self._template(request), request.match_info)

    @staticmethod
    def _template(request: web.Request) -> str:
        """The request's route, its ids as names: "/channels/{channel_id}/messages/{message_id}"."""
        route = request.match_info.route
        template = route.resource.canonical if route.resource is not None else request.path
        return template.removeprefix("/api/{version}")

    async def _handle(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                      call: CallInfo) -> web.StreamResponse:
        path = request.path
        try:
            needs_auth = path.startswith("/api/") and "/webhooks/" not in path and "/interactions/" not in path
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise err.unauthorized()
            return await handler(request)
        except err.DiscordError as exc:
            self._refuse(request, exc, call)
            return json_reply(exc.body(), exc.status)
        except web.HTTPException as exc:
            if exc.status < 400 or not path.startswith("/api/"):
                raise
            message = "404: Not Found" if exc.status == 404 else f"{exc.status}: {exc.reason}"
            self.unhandled.append(f"{request.method} {path}")
            self._refuse(request, err.DiscordError(exc.status, 0, message, note="route not emulated"), call)
            return json_reply({"message": message, "code": 0}, exc.status)
        except ConnectionResetError:
            # The client went away before its request had all arrived (a bot process killed mid-send): no request
            # reached "Discord", so nothing happened and nobody is left to answer. Not the emulator's error.
            log.info("client gone mid-request: %s %s", request.method, path)
            return json_reply({"message": "client gone", "code": 0}, 400)
        except Exception as exc:
            # A 5xx would make discord.py retry for ~25 s; fail fast and loudly instead.
            log.exception("emulator error on %s %s", request.method, path)
            self.internal_errors.append(f"{request.method} {path}: {exc!r}")
            self.notifier.notify()
            return json_reply({"message": f"emulator internal error: {exc!r}", "code": 0}, 400)

    def _refuse(self, request: web.Request, exc: err.DiscordError, call: CallInfo) -> None:
        handle = call.interaction
        refusal = Refusal.from_error(request.method, request.path, exc, call.body, handle.id if handle else None)
        self.refusals.append(refusal)
        if handle is not None:
            handle.refusals.append(refusal)
        log.info("refused: %s", refusal)
        self.notifier.notify()

    async def _download(self, request: web.Request) -> web.Response:
        attachment = self.state.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    # -- events -------------------------------------------------------------------------------------

    def _emit(self, event: str, data: JSONDict, guild_id: int | None, intent: int) -> None:
        transform = self._hide_content if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE") else None
        self.gateway.dispatch(event, data, guild_id, intent, transform=transform)
        self.notifier.notify()

    def _hide_content(self, session: Session, data: JSONDict) -> JSONDict:
        """Without the message-content intent a bot sees other users' guild messages empty, unless mentioned."""
        bot_id = str(self.state.bot.id)
        if (
            session.intents & INTENT_MESSAGE_CONTENT
            or data.get("guild_id") is None
            or data.get("author", {}).get("id") == bot_id
            or any(m.get("id") == bot_id for m in data.get("mentions", []))
        ):
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    # -- world building -----------------------------------------------------------------------------

    @property
    def bot(self) -> User:
        return self.state.bot

    @property
    def application_id(self) -> int:
        return self.state.application_id

    @property
    def guilds(self) -> list[Guild]:
        return list(self.state.guilds.values())

    def add_user(self, username: str, *, global_name: str | None = None, bot: bool = False,
                 user_id: int | None = None) -> User:
        """A user; `user_id` (like the other `*_id` arguments) fixes the id, e.g. to meet a saved game again."""
        return self.state.add_user(username, global_name=global_name, bot=bot, user_id=user_id)

    def add_guild(self, name: str = "Test Guild", *, owner: User | None = None,
                  everyone_permissions: int = perms.DEFAULT_EVERYONE, bot_permissions: int = perms.DEFAULT_BOT,
                  locale: str = "en-US", channels: Iterable[str] = (), guild_id: int | None = None,
                  shard: tuple[int, int] | None = None) -> Guild:
        """A guild the bot is in (with @everyone, the bot's managed role and the owner). A connected bot
        receives GUILD_CREATE for it. `guild_id` picks the shard: (guild_id >> 22) % shard_count; or say
        `shard=(shard_id, shard_count)` and the guild gets an id that shard serves."""
        if guild_id is None and shard is not None:
            guild_id = self.ids.next_on_shard(*shard)
        guild = self.state.add_guild(name, owner=owner, everyone_permissions=everyone_permissions,
                                     bot_permissions=bot_permissions, locale=locale, guild_id=guild_id)
        self.gateway.dispatch("GUILD_CREATE", {}, guild.id, INTENT_GUILDS,
                              transform=lambda s, _: self._joined(
                                  self.gateway.guild_create_payload(guild.id, s.intents)))
        for channel_name in channels:
            self.add_channel(guild, channel_name)
        self.notifier.notify()
        return guild

    @staticmethod
    def _joined(payload: JSONDict) -> JSONDict:
        """A guild the bot joins comes without "unavailable" (a library reads that as a join, not an outage's end)."""
        payload.pop("unavailable", None)
        return payload

    def add_channel(self, guild: Guild, name: str, *, type: int = GUILD_TEXT, topic: str | None = None,
                    parent: Channel | None = None, overwrites: Iterable[perms.Overwrite] = (),
                    channel_id: int | None = None) -> Channel:
        return self.state.add_channel(guild, name, type=type, topic=topic, parent=parent, overwrites=overwrites,
                                      channel_id=channel_id)

    def set_overwrites(self, channel: Channel, overwrites: Iterable[perms.Overwrite]) -> Channel:
        """Change a channel's permission overwrites, as a server manager does (CHANNEL_UPDATE follows)."""
        channel.overwrites = list(overwrites)
        if channel.guild_id is not None:
            self.state.emit("CHANNEL_UPDATE", channel.payload(), channel.guild_id, INTENT_GUILDS)
        self.notifier.notify()
        return channel

    def delete_channel(self, channel: Channel) -> None:
        """Delete a channel, as a server manager does (CHANNEL_DELETE follows; REST about it is 404 after)."""
        self.state.delete_channel(channel)
        self.notifier.notify()

    def add_thread(self, parent: Channel, name: str, *, owner: User | Member, private: bool = False,
                   members: Iterable[User | Member] = (), archived: bool = False,
                   from_message: Message | None = None, first_message: str | None = None,
                   auto_archive_duration: int = 1440, channel_id: int | None = None) -> Channel:
        """A user opens a thread in ``parent`` (from one of its messages with ``from_message``), or a post
        when ``parent`` is a forum, opened by ``first_message`` (see State.add_thread)."""
        thread = self.state.add_thread(parent, name, owner=owner, private=private, members=members,
                                       archived=archived, from_message=from_message, first_message=first_message,
                                       auto_archive_duration=auto_archive_duration, channel_id=channel_id)
        self.notifier.notify()
        return thread

    def set_thread(self, thread: Channel, *, archived: bool | None = None, locked: bool | None = None,
                   auto_archive_duration: int | None = None) -> Channel:
        """A moderator archives, locks, unlocks or unarchives a thread (THREAD_UPDATE follows)."""
        self.state.set_thread(thread, archived=archived, locked=locked, auto_archive_duration=auto_archive_duration)
        self.notifier.notify()
        return thread

    def advance_clock(self, seconds: float) -> list[Channel]:
        """Move the emulator's clock on (only the threads' auto-archive reads it): every thread idle for its
        ``auto_archive_duration`` archives now (THREAD_UPDATE each). The threads archived."""
        self.state.clock_offset += seconds
        archived = self.state.archive_idle_threads()
        self.notifier.notify()
        return archived

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0, color: int = 0, hoist: bool = False,
                 mentionable: bool = False, role_id: int | None = None) -> Role:
        return self.state.add_role(guild, name, permissions=permissions, color=color, hoist=hoist,
                                   mentionable=mentionable, role_id=role_id)

    def add_member(self, guild: Guild, user: User | str, *, roles: Iterable[Role | int] = (),
                   nick: str | None = None) -> Member:
        """Add a user (or a new user with this username) to a guild, with role ids or Role objects."""
        if isinstance(user, str):
            user = self.add_user(user)
        return self.state.add_member(guild, user, roles=roles, nick=nick)

    def set_roles(self, member: Member, roles: Iterable[Role | int]) -> Member:
        return self.state.update_member(member, roles=[r.id if isinstance(r, Role) else int(r) for r in roles])

    def dm_channel(self, user: User | Member) -> Channel:
        return self.state.dm_channel(user.user if isinstance(user, Member) else user)

    def make_attachment(self, filename: str, data: bytes, content_type: str | None = None) -> Attachment:
        """An uploaded file, for ATTACHMENT options."""
        return self.state.new_attachment(0, Upload(0, filename, data, content_type), None, ephemeral=True)

    async def say(self, channel: Channel, author: User | Member, content: str = "", *,
                  embeds: Sequence[JSONDict] = (), reply_to: Message | None = None) -> Message:
        """A user posts a message (MESSAGE_CREATE), e.g. for prefix commands. In a thread it unarchives it
        and joins the user to it; a locked one refuses it (State.post_in_thread)."""
        user = author.user if isinstance(author, Member) else author
        self.state.post_in_thread(channel, user.id)
        body: JSONDict = {"content": content, "embeds": list(embeds)}
        if reply_to is not None:
            body["message_reference"] = {"message_id": reply_to.id, "channel_id": reply_to.channel_id}
        msg = self.state.create_message(channel, user, body, type=19 if reply_to else 0)
        self.notifier.notify()
        return msg

    # -- interactions -------------------------------------------------------------------------------

    def _dispatch_interaction(self, *, type: int, user: User | Member, channel: Channel, data: JSONDict | None,
                              name: str = "", message: Message | None = None, locale: str = "en-US",
                              opened_by: InteractionHandle | None = None,
                              member_hint: tuple[User, Member | None, Guild | None] | None = None) -> InteractionHandle:
        who, member, guild = member_hint or build.invoker(self.state, user, channel)
        interaction_id = self.ids.next()
        token = interaction_token(interaction_id)
        payload = build.base_payload(self.state, interaction_id=interaction_id, token=token, type=type, user=who,
                                     member=member, guild=guild, channel=channel, data=data, locale=locale,
                                     message=message)
        handle = InteractionHandle(id=interaction_id, token=token, type=type, payload=payload, user=who,
                                   member=member, channel=channel, guild=guild, notifier=self.notifier, name=name,
                                   message=message, opened_by=opened_by)

        def delivered() -> None:
            handle.delivered += 1
            self.notifier.notify()

        sessions = self.gateway.dispatch("INTERACTION_CREATE", payload, guild.id if guild else None,
                                         on_sent=delivered)
        if not sessions:
            raise NoBotConnected("no bot session is connected (or resumable) to receive the interaction")
        self.interactions.append(handle)
        self.interaction_by_id[handle.id] = handle
        self.interaction_by_token[handle.token] = handle
        self.notifier.notify()
        return handle

    def _where(self, user: User | Member, channel: Channel) -> tuple[User, Member | None, Guild | None]:
        return build.invoker(self.state, user, channel)

    async def slash(self, command: str, options: Mapping[str, Any] | None = None, *, user: User | Member,
                    channel: Channel, locale: str = "en-US", held: JSONDict | None = None) -> InteractionHandle:
        """Run a slash command as `user`: `slash("encounter start", {"name": "Ambush"}, ...)`.

        Option values are typed from the registered command (ints, floats, bools, strings; Member/User/Role/
        Channel objects, ids or names for snowflake options). Raises InteractionError for anything the
        Discord client itself would not allow (unknown options, missing required ones, values outside choices).
        `held` types them from a command payload the user's client still holds instead (one that
        `commands()` returned before the bot overwrote it): a stale copy, as a client may send.
        """
        who = self._where(user, channel)
        build.require_command_place(self.state, who[0].id, channel)
        data, name = build.slash_data(self.state, command, options or {}, channel=channel, user_id=who[0].id,
                                      guild=who[2], held=held)
        return self._dispatch_interaction(type=APPLICATION_COMMAND, user=user, channel=channel, data=data, name=name,
                                          locale=locale, member_hint=who)

    async def autocomplete(self, command: str, options: Mapping[str, Any], *, focused: str, user: User | Member,
                           channel: Channel, locale: str = "en-US") -> InteractionHandle:
        """The user is typing `options[focused]`; await `.choices()` on the result."""
        who = self._where(user, channel)
        build.require_command_place(self.state, who[0].id, channel)
        data, name = build.slash_data(self.state, command, options, channel=channel, user_id=who[0].id,
                                      guild=who[2], focused=focused)
        return self._dispatch_interaction(type=AUTOCOMPLETE, user=user, channel=channel, data=data, name=name,
                                          locale=locale, member_hint=who)

    async def user_command(self, name: str, target: User | Member, *, user: User | Member, channel: Channel,
                           locale: str = "en-US") -> InteractionHandle:
        who = self._where(user, channel)
        data = build.context_menu_data(self.state, name, 2, target, channel=channel, guild=who[2])
        return self._dispatch_interaction(type=APPLICATION_COMMAND, user=user, channel=channel, data=data, name=name,
                                          locale=locale, member_hint=who)

    async def message_command(self, name: str, target: Message, *, user: User | Member,
                              locale: str = "en-US") -> InteractionHandle:
        channel = self.state.channel(target.channel_id)
        who = self._where(user, channel)
        data = build.context_menu_data(self.state, name, 3, target, channel=channel, guild=who[2])
        return self._dispatch_interaction(type=APPLICATION_COMMAND, user=user, channel=channel, data=data, name=name,
                                          locale=locale, member_hint=who)

    async def click(self, message: Message, custom_id: str, *, user: User | Member,
                    locale: str = "en-US") -> InteractionHandle:
        """Press the button `custom_id` on `message`."""
        return await self._component(message, custom_id, None, user=user, locale=locale)

    async def select(self, message: Message, custom_id: str, values: Sequence[Any], *, user: User | Member,
                     locale: str = "en-US") -> InteractionHandle:
        """Pick `values` in a select menu (option values; or users/roles/channels for the typed selects)."""
        return await self._component(message, custom_id, list(values), user=user, locale=locale)

    async def _component(self, message: Message, custom_id: str, values: list[Any] | None, *,
                         user: User | Member, locale: str) -> InteractionHandle:
        if message.deleted:
            raise build.InteractionError(f"{message!r} was deleted")
        channel = self.state.channel(message.channel_id)
        who = self._where(user, channel)
        data = build.component_data(self.state, message, custom_id, values, channel=channel, user_id=who[0].id,
                                    guild=who[2])
        return self._dispatch_interaction(type=MESSAGE_COMPONENT, user=user, channel=channel, data=data,
                                          name=custom_id, message=message, locale=locale, member_hint=who)

    async def submit_modal(self, opened_by: InteractionHandle, values: Mapping[str, Any], *,
                           user: User | Member | None = None, within: float = DEFAULT_TIMEOUT) -> InteractionHandle:
        """Fill in and submit the modal the bot answered `opened_by` with (text by custom_id; lists for selects)."""
        modal = await opened_by.modal(within)
        submitter = user or opened_by.member or opened_by.user
        who = self._where(submitter, opened_by.channel)
        data = build.modal_submit_data(self.state, modal, values, channel=opened_by.channel, user_id=who[0].id,
                                       guild=who[2])
        return self._dispatch_interaction(type=MODAL_SUBMIT, user=submitter, channel=opened_by.channel, data=data,
                                          name=modal["custom_id"], message=opened_by.source_message,
                                          locale=opened_by.payload.get("locale", "en-US"), opened_by=opened_by,
                                          member_hint=who)

    def inject_dispatch(self, event: str, data: JSONDict, *, fault: str, guild_id: int | None = None) -> int:
        """A fault switch: send the dispatch ``event`` with ``data`` exactly as given (malformed on purpose), to
        the sessions of ``guild_id``'s shard; the frame is marked with ``fault`` (gateway.FAULT_KEY). How many
        sessions got it."""
        return self.gateway.dispatch(event, data, guild_id, fault=fault)

    def subscribe(self, observer: Callable[[str, Message], None]) -> Callable[[], None]:
        """Call `observer(change, message)` on every message created, edited or deleted ("create", "edit",
        "delete"), ephemeral ones and users' included. Returns a function that unsubscribes."""
        self.state.message_observers.append(observer)
        return lambda: self.state.message_observers.remove(observer)

    # -- queries ------------------------------------------------------------------------------------

    def messages(self, channel: Channel | int | None = None, *, include_ephemeral: bool = True,
                 include_deleted: bool = False) -> list[Message]:
        """Messages oldest first: of one channel, or of every channel."""
        if channel is None:
            pool = list(self.state.messages.values())
        else:
            channel_id = channel.id if isinstance(channel, Channel) else int(channel)
            pool = list(self.state.channel_messages.get(channel_id, []))
        return [m for m in pool
                if (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)]

    def bot_messages(self, channel: Channel | int | None = None) -> list[Message]:
        return [m for m in self.messages(channel) if m.author.id == self.bot.id]

    def pins(self, channel: Channel | int) -> list[Message]:
        """Pinned messages, most recently pinned first."""
        return self.state.pins(channel if isinstance(channel, Channel) else self.state.channel(channel))

    def commands(self, guild: Guild | None = None) -> list[JSONDict]:
        """Registered application commands: global ones, or one guild's."""
        return list(self.state.guild_commands.get(guild.id, []) if guild else self.state.global_commands)

    def command_names(self, guild: Guild | None = None) -> list[str]:
        return [c["name"] for c in self.commands(guild)]

    def assert_no_refusals(self) -> None:
        """Fail with every refusal, unemulated route and emulator error if there was any."""
        problems = [str(r) for r in self.refusals] + [f"emulator error: {e}" for e in self.internal_errors]
        if problems:
            raise AssertionError("Discord emulator refused requests:\n  " + "\n  ".join(problems))

    def assert_no_file_shown_twice(self) -> None:
        """No message shows one of its files both in an embed and below it (see Message.embed_files)."""
        twice = [(m.id, [a.filename for a in m.files_shown_twice()]) for m in self.state.messages.values()
                 if not m.deleted and m.files_shown_twice()]
        assert not twice, f"messages showing a file twice (in the embed and below it): {twice}"

    def clear_refusals(self) -> None:
        self.refusals.clear()
        self.unhandled.clear()
        self.internal_errors.clear()

    async def wait_until(self, predicate: Callable[[], T | None], within: float = DEFAULT_TIMEOUT,
                         what: str = "the condition") -> T:
        """Wait until `predicate()` is truthy (re-checked whenever the emulator records anything)."""
        return await self.notifier.wait_until(predicate, within, what)

    async def wait_for_message(self, channel: Channel | int | None = None,
                               check: Callable[[Message], bool] | None = None, *, after: Message | None = None,
                               within: float = DEFAULT_TIMEOUT) -> Message:
        """The first bot message (optionally in `channel`, newer than `after`) matching `check`."""

        def found() -> Message | None:
            for msg in self.bot_messages(channel):
                if (after is None or msg.id > after.id) and (check is None or check(msg)):
                    return msg
            return None

        return await self.wait_until(found, within, "a bot message")

    async def wait_for_commands(self, *names: str, guild: Guild | None = None,
                                within: float = DEFAULT_TIMEOUT) -> list[JSONDict]:
        return await self.wait_until(
            lambda: self.commands(guild) if set(names) <= set(self.command_names(guild)) else None,
            within, f"commands {names} to be registered")

    # -- gateway control ----------------------------------------------------------------------------

    @property
    def identify_count(self) -> int:
        return self.gateway.identify_count

    @property
    def resume_count(self) -> int:
        return self.gateway.resume_count

    @property
    def connected(self) -> bool:
        return bool(self.gateway.live_sessions)

    @property
    def sessions(self) -> list[Session]:
        return list(self.gateway.sessions.values())

    async def wait_connected(self, within: float = 10.0) -> None:
        await self.wait_until(lambda: self.connected, within, "a bot to connect to the gateway")

    async def drop_connection(self, *, code: int | None = 4000, shard_id: int | None = None) -> int:
        """Close the bot's websocket with `code` (resumable by default), or cut it abruptly with `code=None`."""
        return await self.gateway.drop(code=code, shard_id=shard_id)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client closes and resumes."""
        await self.gateway.send_reconnect()

    def invalidate_sessions(self) -> None:
        """Make every session unresumable: the next RESUME gets INVALID_SESSION and the bot re-identifies."""
        self.gateway.invalidate_all()

    @asynccontextmanager
    async def disconnected(self, *, code: int | None = 4000, wait_reconnected: bool = True,
                           within: float = 10.0) -> AsyncIterator[None]:
        """Drop the bot and keep it offline inside the block (its reconnect waits for HELLO); events
        dispatched meanwhile are queued and replayed on RESUME. On exit, waits for it to come back."""
        comebacks = self.gateway.resume_count + self.gateway.identify_count
        self.gateway.hold()
        try:
            await self.gateway.drop(code=code)
            yield
        finally:
            self.gateway.release()
        if wait_reconnected:
            await self.wait_until(
                lambda: self.connected and self.gateway.resume_count + self.gateway.identify_count > comebacks,
                within, "the bot to reconnect")

