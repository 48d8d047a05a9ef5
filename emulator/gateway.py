"""The gateway websocket: HELLO/IDENTIFY/READY, heartbeats, RESUME with replay, sharding, drops."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSCloseCode, WSMsgType, web

from . import traffic
from .snowflake import session_id as new_session_id
from .state import INTENT_GUILD_MEMBERS, INTENT_GUILDS

if TYPE_CHECKING:
    from .server import Emulator

JSONDict = dict[str, Any]
log = logging.getLogger(__name__)

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# A frame the emulator sends out of Discord's shape on purpose (a test's fault switch) carries this key beside
# op/d/s/t, naming the switch; discord.py ignores it, and a check of the traffic against Discord's spec skips
# such frames (agreed in FAULT-MARKER.md). Ordinary frames never carry it.
FAULT_KEY = "_fault"


def is_fault(frame: JSONDict) -> bool:
    """Whether a gateway frame was sent malformed on purpose by a fault switch."""
    return FAULT_KEY in frame


# Intents Discord makes bots switch on in the developer portal.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
# Discord closes a session with 4011 when one shard would hold more guilds than this.
MAX_GUILDS_PER_SHARD = 2500
# Events kept for RESUME; at least a full shard's READY and GUILD_CREATEs, which are queued before sending.
REPLAY_BUFFER = 4000


@dataclass
class BufferedEvent:
    seq: int
    payload: JSONDict
    replay: bool = True
    on_sent: Callable[[], None] | None = None


@dataclass
class Session:
    id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    buffer: deque[BufferedEvent] = field(default_factory=lambda: deque(maxlen=REPLAY_BUFFER))
    connection: Connection | None = None
    invalidated: bool = False
    presence: JSONDict | None = None

    def covers(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id

    @property
    def resumable(self) -> bool:
        return not self.invalidated


class Connection:
    """One websocket. Sends are serialised so dispatches keep their sequence order (and zlib its stream)."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request, *, compress: bool, path: str) -> None:
        self.ws = ws
        self.request = request
        self.path = path
        self.session: Session | None = None
        self.sent_seq = 0
        # Events queued before this socket took over the session that are not replayable (RESUMED) are skipped.
        self.attach_seq = 0
        self.dropped_by_server = False
        # A fault switch (Gateway.mute): the socket stays open and acknowledges heartbeats but delivers no
        # dispatch; they wait in the session's buffer for the next socket (a RESUME replays them).
        self.muted = False
        self._lock = asyncio.Lock()
        self._zlib = zlib.compressobj() if compress else None
        self.latency: Callable[[], float] = lambda: 0.0  # the one-way delay to the bot (Emulator.gateway_latency)
        self._in_transit: deque[tuple[float, str | bytes]] = deque()
        self._carrier: asyncio.Task[None] | None = None

    @property
    def compressed(self) -> bool:
        """Whether this socket speaks zlib-stream (discord.py asks for it; plain text frames work too)."""
        return self._zlib is not None

    async def send(self, payload: JSONDict) -> None:
        async with self._lock:
            await self._send_locked(payload)

    async def _send_locked(self, payload: JSONDict) -> None:
        if self.ws.closed:
            return
        text = json.dumps(payload, separators=(",", ":"))
        frame: str | bytes = text
        if self._zlib is not None:
            frame = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        delay = self.latency()
        if delay <= 0 and not self._in_transit:
            await self._write(frame)
            return
        # On the wire for `delay`: frames arrive in order, each `delay` after it was sent (not one after another).
        self._in_transit.append((time.monotonic() + delay, frame))
        if self._carrier is None or self._carrier.done():
            self._carrier = asyncio.get_running_loop().create_task(self._carry())

    async def _carry(self) -> None:
        while self._in_transit:
            due, frame = self._in_transit[0]
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._in_transit.popleft()
            if not self.ws.closed:
                with contextlib.suppress(ConnectionError):  # the bot hung up while this was on its way
                    await self._write(frame)

    async def _write(self, frame: str | bytes) -> None:
        if isinstance(frame, str):
            await self.ws.send_str(frame)
        else:
            await self.ws.send_bytes(frame)

    async def flush(self) -> None:
        """Send every buffered dispatch of the session this socket has not sent yet, in order."""
        async with self._lock:
            session = self.session
            if session is None or session.connection is not self or self.muted:
                return
            for event in self._unsent(session.buffer):
                if self.ws.closed:
                    break
                if not event.replay and event.seq <= self.attach_seq:
                    continue
                await self._send_locked(event.payload)
                self.sent_seq = event.seq
                if event.on_sent is not None:
                    event.on_sent()

    def _unsent(self, buffer: deque[BufferedEvent]) -> list[BufferedEvent]:
        """The buffer's tail after ``sent_seq``, oldest first. Walked from the newest end: the buffer holds
        up to REPLAY_BUFFER events and a dispatch usually adds one, so walking all of it on every dispatch
        cost the emulator ~0.6 ms an event and made every figure in the benchmark grow over a run."""
        tail: list[BufferedEvent] = []
        for event in reversed(buffer):
            if event.seq <= self.sent_seq:
                break
            tail.append(event)
        tail.reverse()
        return tail


class Gateway:
    def __init__(self, emulator: Emulator, *, heartbeat_interval_ms: int = 41250,
                 allowed_intents: int = -1) -> None:
        self.emu = emulator
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allowed_intents = allowed_intents
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.identify_count = 0
        self.resume_count = 0
        self.invalid_session_count = 0
        self.connection_count = 0
        self.connect_paths: list[str] = []
        self._open = asyncio.Event()
        self._open.set()
        self._tasks: set[asyncio.Task[None]] = set()

    # -- helpers for the emulator --------------------------------------------------------------------

    @property
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connection is not None and not s.invalidated]

    @property
    def resumable_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.resumable]

    def hold(self) -> None:
        """New websockets wait (before HELLO) until release(): lets a test act while the bot is offline."""
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    def dispatch(self, event: str, data: JSONDict, guild_id: int | None = None, intent: int = 0, *,
                 on_sent: Callable[[], None] | None = None,
                 transform: Callable[[Session, JSONDict], JSONDict] | None = None, fault: str | None = None) -> int:
        """Queue an event for every session that should see it; returns how many sessions got it.
        `transform` tailors the payload per session (intents decide what a bot may see); `fault` names the
        fault switch that sends it malformed on purpose (the frame is marked, FAULT_KEY)."""
        targets = [s for s in self.resumable_sessions if s.covers(guild_id) and (not intent or s.intents & intent)]
        for session in targets:
            self._append(session, event, transform(session, data) if transform else data, on_sent=on_sent,
                         fault=fault)
        return len(targets)

    def _append(self, session: Session, event: str, data: JSONDict, *, replay: bool = True,
                on_sent: Callable[[], None] | None = None, fault: str | None = None) -> None:
        session.seq += 1
        if traffic.DISPATCH_SINKS:
            traffic.dispatched(traffic.Dispatch(event, data, fault))
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        if fault is not None:
            payload[FAULT_KEY] = fault
        session.buffer.append(BufferedEvent(session.seq, payload, replay, on_sent))
        if session.connection is not None:
            self._spawn(session.connection.flush())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drop(self, *, code: int | None = 4000, shard_id: int | None = None) -> int:
        """Close the bots' websockets. `code=None` cuts the TCP connection without a close frame."""
        dropped = 0
        for conn in list(self.connections):
            session = conn.session
            if shard_id is not None and (session is None or session.shard_id != shard_id):
                continue
            conn.dropped_by_server = True
            if session is not None and session.connection is conn:
                session.connection = None
            dropped += 1
            if code is None:
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
            else:
                await conn.ws.close(code=code, message=b"emulator dropped the connection")
        self.emu.notifier.notify()
        return dropped

    def mute(self, shard_id: int | None = None) -> int:
        """A fault switch: the open sockets (of ``shard_id``, or all) stop delivering dispatches while they
        go on acknowledging heartbeats; a socket that resumes the session delivers them. How many muted."""
        muted = [c for c in self.connections
                 if shard_id is None or (c.session is not None and c.session.shard_id == shard_id)]
        for conn in muted:
            conn.muted = True
        return len(muted)

    def unmute(self) -> None:
        for conn in self.connections:
            conn.muted = False
            self._spawn(conn.flush())

    async def send_reconnect(self) -> None:
        """Op 7: ask every connected client to reconnect (and resume)."""
        for conn in list(self.connections):
            await conn.send({"op": RECONNECT, "d": None})

    def invalidate_all(self) -> None:
        for session in self.sessions.values():
            session.invalidated = True

    async def close(self) -> None:
        self.release()
        for conn in list(self.connections):
            conn.dropped_by_server = True
            await conn.ws.close(code=WSCloseCode.GOING_AWAY)
        for task in list(self._tasks):
            task.cancel()

    # -- the websocket endpoint ----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress") == "zlib-stream"
        conn = Connection(ws, request, compress=compress, path=request.path)
        conn.latency = lambda: self.emu.gateway_latency
        self.connections.append(conn)
        self.connection_count += 1
        self.connect_paths.append(request.path)
        try:
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"Only JSON encoding is emulated.")
                return ws
            await self._open.wait()
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms,
                                                "_trace": ["[\"grievous-emulator\"]"]}, "s": None, "t": None})
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._receive(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    await self._receive(conn, json.loads(zlib.decompress(msg.data)))
                elif msg.type is WSMsgType.ERROR:
                    break
        except ConnectionResetError:
            pass
        finally:
            self._disconnected(conn)
        return ws

    def _disconnected(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None
            # A client closing cleanly (1000/1001) ends its session; anything else may resume.
            if not conn.dropped_by_server and conn.ws.close_code in (1000, 1001):
                session.invalidated = True
        self.emu.notifier.notify()

    async def _receive(self, conn: Connection, packet: JSONDict) -> None:
        op = packet.get("op")
        data = packet.get("d")
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK, "d": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.ws.close(code=4003, message=b"Not authenticated.")
        elif op == PRESENCE_UPDATE:
            conn.session.presence = data
        elif op == REQUEST_GUILD_MEMBERS:
            self._members_chunk(conn.session, data or {})
        elif op == VOICE_STATE_UPDATE:
            pass
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, conn: Connection, data: JSONDict) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self.emu.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard_id, shard_count = data.get("shard") or [0, 1]
        if not 0 <= shard_id < shard_count:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        state = self.emu.state
        guilds = [g for g in state.guilds.values() if (g.id >> 22) % int(shard_count) == int(shard_id)]
        if len(guilds) > MAX_GUILDS_PER_SHARD:
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return
        self.identify_count += 1
        # A process that died left its session behind; Discord drops it once its heartbeats stop. A new
        # IDENTIFY of the same shard is that restart: the old session stops queueing events.
        for stale in self.sessions.values():
            if (stale.shard_id, stale.shard_count) == (shard_id, shard_count) and stale.connection is None:
                stale.invalidated = True
        session = Session(new_session_id(), int(shard_id), int(shard_count), intents, presence=data.get("presence"))
        self.sessions[session.id] = session
        ready: JSONDict = {
            "v": 10,
            "user": {**state.bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.emu.resume_gateway_url,
            "application": {"id": str(state.application_id), "flags": self.emu.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "_trace": ["[\"grievous-emulator\"]"],
        }
        if data.get("shard"):
            ready["shard"] = [session.shard_id, session.shard_count]
        self._append(session, "READY", ready)
        if intents & INTENT_GUILDS:
            for guild in guilds:
                self._append(session, "GUILD_CREATE", self.guild_create_payload(guild.id, intents))
        conn.session = session
        session.connection = conn
        conn.sent_seq = 0
        await conn.flush()
        self.emu.notifier.notify()

    def guild_create_payload(self, guild_id: int, intents: int) -> JSONDict:
        guild = self.emu.state.guilds[guild_id]
        if intents & INTENT_GUILD_MEMBERS:
            members = list(guild.members.values())
        else:
            # Without the members intent Discord only includes the bot itself.
            members = [m for m in guild.members.values() if m.id == self.emu.state.bot.id]
        return guild.gateway_payload(members)

    async def _resume(self, conn: Connection, data: JSONDict) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        oldest = session.buffer[0].seq if session and session.buffer else 1
        if (
            session is None
            or session.invalidated
            or data.get("token") != self.emu.token
            or seq is None
            or int(seq) > session.seq
            or int(seq) < oldest - 1
        ):
            self.invalid_session_count += 1
            if session is not None:
                session.invalidated = True
            await conn.send({"op": INVALID_SESSION, "d": False})
            self.emu.notifier.notify()
            return
        previous = session.connection
        if previous is not None and previous is not conn:
            previous.dropped_by_server = True
            session.connection = None
            await previous.ws.close(code=4000, message=b"Session resumed elsewhere.")
        self.resume_count += 1
        conn.session = session
        session.connection = conn
        conn.sent_seq = int(seq)
        conn.attach_seq = session.seq
        await conn.flush()
        self._append(session, "RESUMED", {"_trace": ["[\"grievous-emulator\"]"]}, replay=False)
        await conn.flush()
        self.emu.notifier.notify()

    def _members_chunk(self, session: Session, data: JSONDict) -> None:
        guild_ids = data.get("guild_id")
        for raw_id in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.emu.state.guilds.get(int(raw_id or 0))
            if guild is None:
                continue
            members = list(guild.members.values())
            user_ids = data.get("user_ids")
            not_found: list[str] = []
            if user_ids:
                wanted = [int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])]
                not_found = [str(u) for u in wanted if u not in guild.members]
                members = [guild.members[u] for u in wanted if u in guild.members]
            else:
                query = str(data.get("query") or "").lower()
                members = [m for m in members
                           if m.user.username.lower().startswith(query)
                           or (m.nick or "").lower().startswith(query)]
                limit = int(data.get("limit") or 0)
                if limit:
                    members = members[:limit]
            chunk: JSONDict = {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": not_found,
            }
            if data.get("presences"):
                chunk["presences"] = []
            if data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            self._append(session, "GUILD_MEMBERS_CHUNK", chunk)
