"""One playground: the loopback Discord, the real bot on SQLite, and a person (or a script) typing.

Everything runs in one process on 127.0.0.1: the emulator serves REST and the gateway, the real
discord.py client connects to it, and each typed slash command becomes an interaction exactly as
Discord would dispatch it. What the bot sends back is printed as text.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import math
import re
import tempfile
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from random import Random
from typing import Any, TextIO

from sqlalchemy import text as sql_text

from bot.app import GrievousBot
from bot.db.engine import Database
from bot.db.migrate import upgrade
from bot.playground.lines import LineError, MetaLine, SlashLine, parse_line, parse_partial
from bot.playground.render import buttons_of, render_message
from bot.services import Services
from bot.ui import publish
from emulator import DiscordError, profiles
from emulator import permissions as perms
from emulator.harness import running_bot, running_emulator
from emulator.interactions import InteractionError
from emulator.limits import TEXT_INPUT
from emulator.models import GUILD_FORUM, Attachment, Channel, Member, Message, Role, walk_components
from emulator.records import DEFERRED_CHANNEL_MESSAGE, MODAL, InteractionHandle
from emulator.server import Emulator

FORUM = "scenes"  # the forum :forum opens posts in
EXAMPLES = Path(str(resources.files("content") / "examples"))
SETTLE_SECONDS = 0.15
RESPONSE_TIMEOUT = 10.0
MAX_ATTACHMENT_BYTES = 1024 * 1024
PLAYGROUND_STALL_MS = 1000  # the bot's default, 100 ms, is for an operator's logs

HELP = """\
Type slash commands as in Discord, options as name:value (quote values with spaces):
  /help
  /attack target:"Bandit 1" weapon:Broadsword aspect:edge aim:high dice:"attack=9 location=55"
Playground commands:
  :as NAME        act as another member (gm, alice, bob; a new name joins as a player)
  :channel NAME   switch channel (combat, general; a new name creates it)
  :thread NAME    open a thread NAME in this channel, or go back into it, and play there
  :forum NAME     open a post NAME in the forum #scenes, or go back into it, and play there
  :say TEXT       post a plain message here (in an archived thread this reopens it)
  :idle TIME      let time pass (90, 2h, 1d, 1w): a thread quiet for a day archives, as Discord's do
  :lock, :unlock  a moderator locks or unlocks this thread (only Manage Threads posts in a locked one)
  :click N        press button [N]; :click N TEXT fills in the form it opens (e.g. :click 2 shock=7)
  :choices /attack target:Br     show what autocomplete offers for the last option
  :who            who and where you are        :pins   the channel's pinned messages
  :wait SECONDS   pause (scripts)              :quit   leave
An option value @path/to/file.yaml uploads that file (for /character import sheet:@bjorn.yaml; names are
looked for here, beside the script, then in the shipped examples). Tab completes commands, options and choices."""


def fixed_id(kind: str, name: str) -> int:
    """The same id for the same server, channel, role or person in every session, so that a game kept with
    --database meets its server, channels and players again. Far below the time-based snowflakes the
    loopback Discord hands out for everything else."""
    return 10**17 + (zlib.crc32(f"{kind}:{name}".encode()) << 8) + _ID_KINDS.index(kind)


_ID_KINDS = ("guild", "channel", "role", "user")


@dataclass
class _Batch:
    """Message changes seen while one line was being answered, final state per message."""

    order: list[int] = field(default_factory=list)
    created: set[int] = field(default_factory=set)
    messages: dict[int, Message] = field(default_factory=dict)

    def add(self, change: str, message: Message) -> None:
        if message.id not in self.messages:
            self.order.append(message.id)
        self.messages[message.id] = message
        if change == "create":
            self.created.add(message.id)


# The dice seed of a replayed script (``--script`` without ``--seed``, and the tests' replays): a replay that the
# script's typed dice do not fully decide (a roll the bot makes for an NPC, a parry nobody typed) must come out the
# same every time, or a transcript read in a test changes from run to run.
SCRIPT_SEED = 7


class Playground:
    def __init__(self, out: TextIO, *, database_url: str | None = None, seed: int | None = None,
                 echo: bool = False, base_dir: Path | None = None, files_dir: Path | None = None,
                 discord: str = "discord", web_port: int | None = 0) -> None:
        self.out = out
        # Which Discord (emulator/profiles.py): "discord" (its rules, no latency), "realistic" (with latency).
        profiles.options(discord)  # an unknown name is refused here, not once the bot is starting
        self.discord = discord
        # The campaign web page on localhost (0: a free port); /web prints its link. None: no web page.
        self.web_port = web_port
        # Where the files the bot sends (diagrams, exports) are written; None lists them without saving.
        self.files_dir = files_dir
        self._saved: dict[int, Path] = {}
        self.base_dir = base_dir
        self.database_url = database_url
        self.seed = seed
        self.echo = echo
        self.errors = 0
        self._buttons: dict[int, tuple[int, str]] = {}
        self._next_button = 1
        self._batch: _Batch | None = None
        self.emu: Emulator
        self.member: Member
        self.channel: Channel
        self._db: Database
        self._bot: GrievousBot
        self._members: dict[str, Member] = {}
        self._channels: dict[str, Channel] = {}
        self._player_role: Role

    @property
    def web_address(self) -> str | None:
        """The web page's address while the playground runs (None: no web page)."""
        web = self._bot.web if hasattr(self, "_bot") else None
        return f"{web.base_url}/web/" if web is not None else None

    # -- setting up ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Playground]:
        with tempfile.TemporaryDirectory(prefix="grievous-playground-") as scratch:
            url = self.database_url or f"sqlite+aiosqlite:///{Path(scratch) / 'playground.db'}"
            db = Database.from_url(url)
            try:
                await upgrade(db)
                self._db = db
                kept = await self._kept_channels()
                rng: Callable[[], Random] = Random
                if self.seed is not None:  # one generator for the session: each action rolls on from the last
                    dice = Random(self.seed)
                    rng = lambda: dice  # noqa: E731
                services = Services(db, rng=rng)
                async with running_emulator(**profiles.options(self.discord)) as emu:
                    self.emu = emu
                    emu.subscribe(self._observe)
                    # The watchdog speaks up (on stderr) only for a stall a player would notice.
                    # A player who stops typing for a minute is not a silent gateway: no reconnect, no warning.
                    bot = GrievousBot(services=services, sync_commands=True, stall_ms=PLAYGROUND_STALL_MS,
                                      web_port=self.web_port, gateway_silence=math.inf)
                    self._bot = bot
                    async with running_bot(emu, bot):
                        await emu.wait_for_commands("help")
                        # The bot joins the server now, as on Discord, and sends it its own commands (this
                        # loopback Discord starts empty, whatever a kept database remembers sending).
                        self._build_world(kept)
                        await emu.wait_for_commands("attack", guild=self._guild)
                        yield self
                        # As a stopping bot does: what is still under way ends (an action's flight lasts until its
                        # tracker edit, which may wait on the channel's rate limit), and only then are the last
                        # answers marked, before the scratch file goes.
                        await bot.drain()
                    await services.runtime.answers.flush()
            finally:
                await db.dispose()

    async def _kept_channels(self) -> list[str]:
        """The channels ``:channel`` made in earlier sessions on this database (the playground's own table:
        the bot keeps only channel ids, and Discord, here the loopback one, keeps the names)."""
        async with self._db.engine.begin() as conn:
            await conn.execute(sql_text("CREATE TABLE IF NOT EXISTS playground_channels "
                                        "(name VARCHAR(100) PRIMARY KEY)"))
            rows = await conn.execute(sql_text("SELECT name FROM playground_channels ORDER BY name"))
            return [str(row[0]) for row in rows]

    async def _keep_channel(self, name: str) -> None:
        async with self._db.engine.begin() as conn:
            await conn.execute(sql_text("INSERT INTO playground_channels (name) VALUES (:name)"), {"name": name})

    def _build_world(self, kept: Sequence[str] = ()) -> None:
        emu = self.emu
        gm_user = emu.add_user("gm", global_name="Game Master", user_id=fixed_id("user", "gm"))
        guild = emu.add_guild("Playground", owner=gm_user, guild_id=fixed_id("guild", "Playground"))
        # The GM moderates the server's threads too (locks them), as many a table's GM does.
        gm_role = emu.add_role(guild, "GM", permissions=perms.MANAGE_MESSAGES | perms.MANAGE_THREADS, color=0xAA3333,
                               role_id=fixed_id("role", "GM"))
        self._player_role = emu.add_role(guild, "Player", color=0x3366AA, role_id=fixed_id("role", "Player"))
        self._guild = guild
        for name in ("combat", "general", *[k for k in kept if k not in ("combat", "general")]):
            self._channels[name] = emu.add_channel(guild, name, channel_id=fixed_id("channel", name))
        self._members["gm"] = emu.add_member(guild, gm_user, roles=[gm_role])
        for name in ("alice", "bob"):
            self._member(name)
        self.member = self._members["gm"]
        self.channel = self._channels["combat"]

    def _observe(self, change: str, message: Message) -> None:
        if self._batch is not None and message.author.id == self.emu.bot.id:
            self._batch.add(change, message)

    # -- one line -----------------------------------------------------------------------------

    @property
    def prompt(self) -> str:
        return f"{self.member.user.username} #{self.channel.name}> "

    async def run_line(self, text: str) -> bool:
        """Run one typed line; False when the person asked to leave."""
        if self.echo and text.strip():
            self.out.write(f"\n{self.prompt}{text.strip()}\n")
        try:
            line = parse_line(text)
            if line is None:
                return True
            if isinstance(line, MetaLine):
                return await self._meta(line)
            await self._slash(line)
        except (LineError, InteractionError) as exc:
            self._error(str(exc))
        except TimeoutError:
            self._error("the bot did not answer in time")
        return True

    def _error(self, message: str) -> None:
        self.errors += 1
        self.out.write(f"! {message}\n")

    def registered_commands(self) -> list[dict[str, Any]]:
        """The slash commands a member here can use: the server's own, then the shared ones."""
        return self.emu.commands(self._guild) + self.emu.commands()

    def _fixed_choices(self, path: tuple[str, ...], option: str) -> list[str] | None:
        """The names of ``option``'s fixed choices (a choice list the command registered), else None."""
        level: list[dict[str, Any]] = [c for c in self.registered_commands() if c.get("type", 1) == 1]
        options: list[dict[str, Any]] = []
        for name in path:
            found = next((c for c in level if c.get("name") == name), None)
            if found is None:
                return None
            options = list(found.get("options") or [])
            level = [o for o in options if o.get("type") in (1, 2)]
        spec = next((o for o in options if o.get("name") == option and o.get("type") not in (1, 2)), None)
        choices = (spec or {}).get("choices")
        return [str(c.get("name")) for c in choices] if choices else None

    def _option_types(self, path: tuple[str, ...]) -> dict[str, int]:
        """Option name -> Discord option type, from the command tree the bot registered."""
        specs = self.registered_commands()
        level: list[dict[str, Any]] = [c for c in specs if c.get("type", 1) == 1]
        options: list[dict[str, Any]] = []
        for name in path:
            found = next((c for c in level if c.get("name") == name), None)
            if found is None:
                return {}
            options = list(found.get("options") or [])
            level = [o for o in options if o.get("type") in (1, 2)]
        return {str(o["name"]): int(o["type"]) for o in options if o.get("type") not in (1, 2)}

    def _typed(self, name: str, value: str, kind: int | None) -> Any:
        try:
            if kind == 4:
                return int(value)
            if kind == 10:
                return float(value)
        except ValueError:
            raise LineError(f"option '{name}' takes a number, not '{value}'") from None
        if kind == 5:
            lowered = value.lower()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
            raise LineError(f"option '{name}' takes true or false, not '{value}'")
        return value

    def _options(self, command: tuple[str, ...], options: dict[str, str]) -> dict[str, Any]:
        types = self._option_types(command)
        values: dict[str, Any] = {}
        unknown = [name for name in options if name not in types]
        if unknown and types:  # as Discord's own client would: only the options this server's command has
            raise LineError(f"/{' '.join(command)} has no option {unknown[0]} here; its options: {', '.join(types)}")
        for name, value in options.items():
            if value.startswith("@") and len(value) > 1:
                values[name] = self._upload(Path(value[1:]).expanduser())
            else:
                values[name] = self._typed(name, value, types.get(name))
        return values

    def _upload(self, given: Path) -> Any:
        """An attachment from a file: a relative name is looked for here, beside the script, then among the
        shipped examples (so the demo's @sheets/bjorn.yaml, or @bjorn.yaml, also works typed by hand)."""
        places = [Path.cwd()] + ([self.base_dir] if self.base_dir is not None else []) + [EXAMPLES,
                                                                                           EXAMPLES / "sheets"]
        candidates = [given] if given.is_absolute() else [place / given for place in places]
        file = next((c for c in candidates if c.is_file()), None)
        if file is None:
            where = "" if given.is_absolute() else " here, beside the script, or in the examples"
            raise LineError(f"{given}: no such file{where} to upload")
        if file.stat().st_size > MAX_ATTACHMENT_BYTES:
            raise LineError(f"{file}: too big to upload here")
        return self.emu.make_attachment(file.name, file.read_bytes())

    def _check_command(self, name: str) -> None:
        """A misspelt command gets a suggestion, not the emulator's note for developers."""
        names = sorted({str(c.get("name")) for c in self.registered_commands()})
        if name in names:
            return
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean /{close[0]}? " if close else ""
        raise LineError(f"there is no /{name} command; {hint}/help lists them all")

    async def _slash(self, line: SlashLine) -> None:
        self._check_command(line.path[0])
        self._check_thread()
        self._batch = _Batch()
        refusals = len(self.emu.refusals)
        try:
            handle = await self.emu.slash(" ".join(line.path), self._options(line.path, line.options), user=self.member,
                                          channel=self.channel)
            if (await handle.response(RESPONSE_TIMEOUT)).type == DEFERRED_CHANNEL_MESSAGE:
                # "Thinking": a slow command (on a loaded machine, even /setup system) is not over until its
                # answer replaces that, however long the bot is quiet meanwhile.
                await handle.wait_for(lambda: _answered(handle), "the answer", RESPONSE_TIMEOUT)
            await self._settle(handle)
        finally:
            batch, self._batch = self._batch, None
        self._print_batch(batch)
        self._print_refusals(refusals)

    async def _settle(self, handle: InteractionHandle | None = None) -> None:
        """Wait until the bot has been quiet for a moment (follow-ups, tracker edits, pins), has no tracker
        update under way (one waits on the channel's bucket, after the answer), and has ended its handling of
        ``handle`` (on a loaded machine the result after a button's answer can come later than the moment).
        The moment is longer by a round trip when the emulator has latency: the bot's next request comes that
        much later."""
        assert self._batch is not None
        quiet = SETTLE_SECONDS + 2 * self.emu.rest_latency + self.emu.gateway_latency
        until = asyncio.get_running_loop().time() + RESPONSE_TIMEOUT
        seen = -1
        while True:
            now = sum(len(m.revisions) + 1 for m in self._batch.messages.values()) + len(self._batch.order)
            busy = any(u.task is not None for u in publish.tracker_updates(self._bot).values())
            handling = handle is not None and asyncio.get_running_loop().time() < until and any(
                f.interaction is not None and f.interaction.id == handle.id for f in self._bot.flights.active)
            if now == seen and not busy and not handling:
                return
            seen = now
            await asyncio.sleep(quiet)

    def _print_batch(self, batch: _Batch) -> None:
        for message_id in batch.order:
            message = batch.messages[message_id]
            if message.deleted or message.loading:
                continue
            where = f"#{self._channel_name(message.channel_id)}"
            what = "new" if message_id in batch.created else "edited"
            if message.pinned:
                what += ", pinned"
            header = f"-- Grievous in {where} ({what})"
            self.out.write(render_message(_as_payload(message), header=header, first_button=self._next_button,
                                          names=self._names()))
            self.out.write("\n")
            for attachment in message.attachments:
                self.out.write(self._file_line(attachment) + "\n")
            for button in buttons_of(_as_payload(message)):
                self._buttons[self._next_button] = (message.id, str(button.get("custom_id", "")))
                self._next_button += 1

    def _file_line(self, attachment: Attachment) -> str:
        """Save a file the bot sent (once, numbered in arrival order) and say where it is."""
        size = attachment.image_size
        about = f"{len(attachment.data) / 1024:.1f} KB" + (f", {size[0]}x{size[1]}" if size else "")
        if self.files_dir is None:
            return f"  [file] {attachment.filename} ({about})"
        path = self._saved.get(attachment.id)
        if path is None:
            self.files_dir.mkdir(parents=True, exist_ok=True)
            path = self.files_dir / f"{len(self._saved) + 1:03d}-{Path(attachment.filename).name}"
            path.write_bytes(attachment.data)
            self._saved[attachment.id] = path
        return f"  [file] {path} ({about})"

    def _print_refusals(self, before: int) -> None:
        for refusal in self.emu.refusals[before:]:
            self.out.write(f"! Discord refused a request: {refusal}\n")

    def _channel_name(self, channel_id: int) -> str:
        for name, channel in self._channels.items():
            if channel.id == channel_id:
                return name
        return str(channel_id)

    # -- playground commands ------------------------------------------------------------------

    async def _meta(self, line: MetaLine) -> bool:
        """Runs a ``:meta`` command; False for :quit. One whose arguments do not fit it is unknown."""
        if line.verb in ("quit", "exit", "q"):
            return False
        fits, run = _META.get(line.verb, (None, None))
        if fits is None or run is None or not fits(line):
            raise LineError(f"unknown playground command ':{line.verb}'; type :help")
        await run(self, line)
        return True

    async def _help(self, line: MetaLine) -> None:
        self.out.write(HELP + "\n")

    async def _become(self, line: MetaLine) -> None:
        self.member = self._member(line.args[0].lower())
        self.out.write(f"(you are now {self.member.user.username})\n")

    async def _enter_channel(self, line: MetaLine) -> None:
        name = line.args[0].lstrip("#").lower()
        if name not in self._channels:
            self._channels[name] = self.emu.add_channel(self._guild, name, channel_id=fixed_id("channel", name))
            await self._keep_channel(name)  # the same channel, with its settings, in the next session
        self.channel = self._channels[name]
        self.out.write(f"(you are now in #{name})\n")

    async def _who(self, line: MetaLine) -> None:
        self.out.write(f"(you are {self.member.user.username} in #{self.channel.name})\n")

    async def _pins(self, line: MetaLine) -> None:
        for message in self.emu.pins(self.channel):
            self.out.write(render_message(_as_payload(message), header="-- pinned", names=self._names()) + "\n")

    async def _wait(self, line: MetaLine) -> None:
        try:
            await asyncio.sleep(min(float(line.args[0]), 10.0))
        except ValueError:
            raise LineError(":wait takes a number of seconds") from None

    # -- threads and forum posts ---------------------------------------------------------------------

    async def _open_thread(self, name: str, *, forum: bool) -> None:
        """A thread of the channel one is in (of its parent, from inside a thread), or a post in the forum
        #scenes; an open one of that name is entered again. Its id is fixed by its name, as a channel's is."""
        thread = self._channels.get(name)
        if thread is not None and thread.is_thread:
            self.channel = thread
            self.out.write(f"(you are now in #{name})\n")
            return
        if thread is not None:
            raise LineError(f"#{name} is a channel: give the thread another name")
        parent = self._forum() if forum else self._text_channel()
        self._batch = _Batch()
        try:
            thread = self.emu.add_thread(parent, name, owner=self.member, channel_id=fixed_id("channel", name),
                                         first_message=name if forum else None)
            self._channels[name] = thread
            self.channel = thread
            what = "a post in the forum" if forum else "a thread in"
            self.out.write(f"({self.member.user.username} opened {what} #{parent.name}: you are now in #{name})\n")
            await self._settle()
        finally:
            self._batch = None

    def _text_channel(self) -> Channel:
        channel = self.channel
        if channel.is_thread and channel.parent_id is not None:
            channel = self.emu.state.channel(channel.parent_id)
        if channel.type == GUILD_FORUM:
            raise LineError(f"#{channel.name} is a forum: :forum NAME opens a post there")
        return channel

    def _forum(self) -> Channel:
        forum = self._channels.get(FORUM)
        if forum is None:
            forum = self._channels[FORUM] = self.emu.add_channel(self._guild, FORUM, type=GUILD_FORUM,
                                                                  channel_id=fixed_id("channel", FORUM))
        return forum

    def _check_thread(self) -> None:
        """Where Discord shows no command box: an archived thread (a message reopens it), or a locked one for
        anyone without Manage Threads (emulator/interactions.py require_command_place)."""
        channel = self.channel
        if not channel.is_thread:
            return
        self.emu.state.archive_if_idle(channel)
        moderator = bool(self.emu.state.permissions_in(channel, self.member.user.id) & perms.MANAGE_THREADS)
        if channel.locked and not moderator:
            raise LineError(f"#{channel.name} is locked: only a member with Manage Threads posts there (:as gm)")
        if channel.archived:
            raise LineError(f"#{channel.name} is archived: Discord shows no command box there until a message "
                            "reopens it (:say TEXT)")

    async def _say(self, text: str) -> None:
        self._batch = _Batch()
        try:
            await self.emu.say(self.channel, self.member, text)
            await self._settle()
        except DiscordError as exc:
            raise LineError(f"Discord refused the message: {exc.message}") from None
        finally:
            batch, self._batch = self._batch, None
        self._print_batch(batch)

    async def _idle(self, span: str) -> None:
        seconds = _span_seconds(span)
        self._batch = _Batch()
        try:
            archived = self.emu.advance_clock(seconds)
            await self._settle()
        finally:
            batch, self._batch = self._batch, None
        self.out.write(f"(time passes: {span})\n")
        for thread in archived:
            self.out.write(f"(#{thread.name} was quiet that long: Discord archived it)\n")
        self._print_batch(batch)

    async def _lock(self, locked: bool) -> None:
        if not self.channel.is_thread:
            raise LineError("only a thread or a forum post is locked: :thread NAME first")
        if not self.emu.state.permissions_in(self.channel, self.member.user.id) & perms.MANAGE_THREADS:
            raise LineError("locking a thread needs Manage Threads (:as gm)")
        self.emu.set_thread(self.channel, locked=locked)
        self.out.write(f"(#{self.channel.name} is {'locked' if locked else 'unlocked'})\n")

    def _names(self) -> dict[int, str]:
        names = {member.user.id: name for name, member in self._members.items()}
        names.update({role.id: role.name for role in self._guild.roles.values()})
        names.update({channel.id: name for name, channel in self._channels.items()})
        return names

    def _member(self, name: str) -> Member:
        if name not in self._members:
            user = self.emu.add_user(name, global_name=name.title(), user_id=fixed_id("user", name))
            self._members[name] = self.emu.add_member(self._guild, user, roles=[self._player_role])
        return self._members[name]

    async def _click(self, number: int, typed: str | None = None) -> None:
        if number not in self._buttons:
            raise LineError(f"there is no button [{number}]")
        message_id, custom_id = self._buttons[number]
        message = self.emu.state.messages.get(message_id)
        if message is None or message.deleted:
            raise LineError(f"the message with button [{number}] is gone")
        if custom_id not in {str(b.get("custom_id")) for b in buttons_of(_as_payload(message))}:
            raise LineError(f"button [{number}] is no longer on its message")
        self._batch = _Batch()
        refusals = len(self.emu.refusals)
        try:
            handle = await self.emu.click(message, custom_id, user=self.member)
            answer = await handle.response(RESPONSE_TIMEOUT)
            if answer.type == MODAL:
                modal = await handle.modal(RESPONSE_TIMEOUT)
                if typed is None:
                    self.out.write(f"(a form opens: {modal.get('title')}; type :click {number} followed by "
                                   "what to fill in)\n")
                else:
                    fields = [c["custom_id"] for c in walk_components(modal.get("components") or [])
                              if c.get("type") == TEXT_INPUT]
                    submitted = await self.emu.submit_modal(handle, {fields[0]: typed} if fields else {})
                    await submitted.response(RESPONSE_TIMEOUT)
                    handle = submitted
            await self._settle(handle)
        finally:
            batch, self._batch = self._batch, None
        self._print_batch(batch)
        self._print_refusals(refusals)

    async def _choices(self, text: str) -> None:
        line = parse_partial(text)
        if not line.options:
            raise LineError("try :choices /attack target:Br")
        focused = list(line.options)[-1]
        fixed = self._fixed_choices(line.path, focused)
        if fixed is not None:  # Discord lists an option's fixed choices itself: no autocomplete is asked
            typed = str(line.options[focused]).casefold()
            names = [name for name in fixed if typed in name.casefold()] or fixed
            self.out.write("  " + "\n  ".join(names) + "\n")
            return
        handle = await self.emu.autocomplete(" ".join(line.path), dict(line.options), focused=focused,
                                             user=self.member, channel=self.channel)
        choices = await handle.choices(RESPONSE_TIMEOUT)
        names = [str(choice.get("name")) for choice in choices]
        self.out.write(("  " + "\n  ".join(names) if names else "(no suggestions)") + "\n")


def _one_arg(line: MetaLine) -> bool:
    return len(line.args) == 1


def _some_text(line: MetaLine) -> bool:
    return bool(line.rest)


def _anything(line: MetaLine) -> bool:
    return True


# The playground's :meta commands (HELP tells them), :quit aside: verb -> whether its arguments fit, what it does.
_META: dict[str, tuple[Callable[[MetaLine], bool], Callable[[Playground, MetaLine], Awaitable[None]]]] = {
    **dict.fromkeys(("help", "h", "?"), (_anything, Playground._help)),
    "as": (_one_arg, Playground._become),
    "channel": (_one_arg, Playground._enter_channel),
    **dict.fromkeys(("thread", "forum"), (_some_text, lambda p, line: p._open_thread(
        line.rest.strip().strip('"').strip(), forum=line.verb == "forum"))),
    "say": (_some_text, lambda p, line: p._say(line.rest.strip())),
    "idle": (_some_text, lambda p, line: p._idle(line.rest.strip())),
    **dict.fromkeys(("lock", "unlock"), (lambda line: not line.args, lambda p, line: p._lock(line.verb == "lock"))),
    "click": (lambda line: bool(line.args) and line.args[0].isdigit(),
              lambda p, line: p._click(int(line.args[0]), " ".join(line.args[1:]) or None)),
    "choices": (_some_text, lambda p, line: p._choices(line.rest)),
    "who": (_anything, Playground._who),
    "pins": (_anything, Playground._pins),
    "wait": (_one_arg, Playground._wait),
}


_SPAN = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(minutes?|m|hours?|h|days?|d|weeks?|w)?")
_SPAN_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}


def _span_seconds(span: str) -> float:
    """``:idle`` time: 90, 90m, 2h, 1 day, 1w (a bare number is minutes); up to four weeks."""
    found = _SPAN.fullmatch(span.strip().lower())
    if found is None:
        raise LineError(":idle takes a time: 90 (minutes), 2h, 1d, 1w")
    seconds = float(found[1]) * _SPAN_SECONDS[(found[2] or "m")[0]]
    if not 0 < seconds <= 4 * _SPAN_SECONDS["w"]:
        raise LineError(":idle takes a time up to four weeks")
    return seconds


def _answered(handle: InteractionHandle) -> bool | None:
    """A deferred command's answer is in: the "thinking" message edited, or replaced by a follow-up."""
    original = handle.original
    done = bool(handle.followup_messages) or (original is not None and (original.deleted or not original.loading))
    return done or None


def _as_payload(message: Message) -> dict[str, Any]:
    return {"content": message.content, "embeds": message.embeds, "components": message.components,
            "flags": message.flags}
