"""What every service shares: the database, dice, clock, engines and catalogs, and the transaction runner.

``transact`` is the one way a command touches the database: commands in one channel wait on an
in-process lock, each runs in one session and one transaction, and a version clash (another
process saved first) or a transient lock error retries the whole command from a fresh read.
A command may take its channel's encounter from memory (``encounter_cache``); it goes back there
only once the command's transaction has committed.

Slow work never runs on the event loop or inside a transaction: parsing an upload goes to a worker
thread (``off_loop``), and a homebrew catalog that is not built yet stops the transaction
(``BuildNeeded``), is built in the build process (one build per pack version, shared by every command
waiting for it; one build at a time, in a bounded queue), cached, and the command runs again. Merging an
upload into a server's file goes to the same queue (``merged_upload``): libyaml holds the GIL for a
whole parse, so only another process keeps the loop free.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hashlib
import logging
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from bot.db import repositories as repo
from bot.db.engine import Database
from bot.db.repositories import GUILD_SETTINGS
from bot.db.storage import is_storage_full
from bot.db.unreachable import is_unreachable
from bot.errors import Conflict, DatabaseFileGone, DatabaseNotAnswering, StorageFull, UserError
from bot.services.answers import AnswerLog
from bot.services.encounter_cache import LENT, OWNER, EncounterCache, Entry
from bot.services.group_commit import GroupCommitter
from bot.services.sheet_reads import SheetReads
from rules.errors import RulesError
from rules.model import Engine
from rules.registry import available_ids, get_engine

T = TypeVar("T")
log = logging.getLogger(__name__)
RETRIES = 8
# Homebrew catalogs kept in-process, bounded by the bytes they hold (catalog_size.deep_size), least recently
# used dropped first: a max-size weapons pack's catalog holds ~3 MB, a small pack's a few KB (docs/scaling.md).
PACK_CACHE_BYTES = 64 * 1024 * 1024
CANDIDATE_CACHE_SIZE = 8  # catalogs built for an upload, kept until its transaction commits
# Catalog builds run one at a time on one worker thread, so however many servers upload at once, the event
# loop competes with one build for the GIL; past this many waiting, an upload is refused with one line.
MAX_QUEUED_BUILDS = 32
BUSY = "the bot is reading many servers' packs right now, so nothing was changed; try again in a minute"
# The input guard bounds what a parse or a catalog build is given, so each finishes in well under a
# second (a 511 KiB pack: ~0.3 s on an idle core). This is the backstop on a machine under load: past
# it the command answers with one line and changes nothing. A thread cannot be stopped, so the work
# finishes in the background (a pack build is still cached for the next command).
WORK_BUDGET = 10.0
QUEUED_BUDGETS = 6  # a build queued behind others waits for theirs too, up to this many budgets in all
TOO_SLOW = "that took too long to read, so nothing was changed; try again, or with a smaller file"
_CHANNEL_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
# PostgreSQL serialization failure and deadlock; both mean "try the transaction again".
_RETRY_SQLSTATES = {"40001", "40P01"}


def utcnow() -> datetime:
    return datetime.now(UTC)


def _load_catalog(system: str) -> Any:
    from content import load_catalog

    return load_catalog(system)


def _load_pack(system: str, files: Mapping[str, bytes]) -> Any:
    from content import load_catalog_files

    return load_catalog_files(system, files)


def _build_pack(system: str, files: Mapping[str, bytes]) -> tuple[Any, int]:
    """In the build process: a homebrew catalog and the bytes it holds. libyaml holds the GIL for the whole
    parse of a file (~0.6 s for a 511 KiB one), so a thread would still stall the event loop; a process
    does not, and its catalog comes back pickled (~30 ms to read)."""
    from bot.services.catalog_size import deep_size

    catalog = _load_pack(system, files)
    return catalog, deep_size(catalog)


def _merge_and_build(merge: Callable[[], tuple[bytes, list[str], list[str]]], system: str, name: str,
                     others: Mapping[str, bytes]) -> tuple[bytes, list[str], list[str], tuple[Any, int]]:
    """In the build process: an upload merged into the server's file ``name`` (``merge()``: the merged file,
    the entries it added and changed), and the catalog the pack makes with it."""
    text, added, changed = merge()
    return text, added, changed, _build_pack(system, {**others, name: text})


class BuildNeeded(Exception):
    """A catalog this command needs is not built yet. Raised inside a transaction; the runner leaves the
    transaction, builds it off the event loop, ``keep``s it, and runs the command again.

    Code that catches broad exceptions inside a transaction must let this one through.
    """

    def __init__(self, key: Hashable, build: Callable[[], Any], keep: Callable[[Any], None],
                 kept: Callable[[], bool]) -> None:
        super().__init__(f"catalog {key} is being built")
        # ``kept()``: another command's build of it finished meanwhile, so there is nothing to build
        self.key, self.build, self.keep, self.kept = key, build, keep, kept
        self.pack: tuple[str, Mapping[str, bytes]] | None = None  # (system, files): buildable in the process


def _digest(files: Mapping[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


def _retryable(exc: BaseException) -> bool:
    # IntegrityError: a row another command inserted first (same name, same settings row); the
    # retry reads it and answers properly ("already exists").
    if isinstance(exc, StaleDataError | IntegrityError):
        return True
    if isinstance(exc, DBAPIError):
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code in _RETRY_SQLSTATES or "database is locked" in str(exc.orig)
    return False


class Runtime:
    def __init__(
        self,
        db: Database,
        *,
        rng: Callable[[], random.Random] = random.Random,
        clock: Callable[[], datetime] = utcnow,
        catalogs: Callable[[str], Any] = _load_catalog,
        packs: Callable[[str, Mapping[str, bytes]], Any] = _load_pack,
        group_commit: bool | None = None,
        encounter_cache: bool = True,
        attack_pictures: bool = True,
    ) -> None:
        self.db = db
        self.unreachable = False  # the last transaction failed because the database did not answer
        self.rng = rng
        self.clock = clock
        self.catalogs = catalogs
        self.packs = packs
        # (guild id, system) -> (the guild's pack_version when built, catalog, its bytes)
        self._pack_cache: OrderedDict[tuple[int, str], tuple[int, Any, int]] = OrderedDict()
        self.pack_cache_bytes = 0  # what the catalogs above hold
        self.pack_cache_limit = PACK_CACHE_BYTES
        # How long reading an upload or building a pack may take (WORK_BUDGET; WORK_SECONDS in the environment).
        self.work_budget = WORK_BUDGET
        # (system, digest of the files) -> (catalog, its bytes), for an upload or reset about to be stored
        self._candidates: OrderedDict[tuple[str, str], tuple[Any, int]] = OrderedDict()
        # The one worker thread that builds catalogs (a queue in front of it), and how many builds wait there.
        self._builder = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="pack-build")
        self._queued_builds = 0
        self._process: concurrent.futures.ProcessPoolExecutor | None = None  # the real builds (_build_pack)
        # builds under way: a second command needing the same catalog waits for the first one's build
        self._builds: dict[Hashable, asyncio.Future[Any]] = {}
        # A lock lives while some command holds or awaits it, so idle channels cost nothing.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Told each committed transaction's time (seconds, retries included) and attempts (0 for a read-only
        # session): the bot's metrics.
        self.on_transaction: Callable[[float, int], None] | None = None
        # how long an attack waits for its target's player to choose a defence (bot/services/defense_prompt.py)
        self.defense_prompt_seconds = 60.0
        # whether an attack that marks its target's body reports the target's picture (the thumbnail); False: a
        # baseline for what the picture costs (bench/latency.py measures both, interleaved on one bot)
        self.attack_pictures = attack_pictures
        # ``group_commit``: one writer task commits the commands that are ready together
        # (bot/services/group_commit.py). None (the default): where it pays, which is SQLite (the figures:
        # docs/benchmarks.md, "Issue 12: the write path under a burst"). PostgreSQL takes concurrent writers
        # itself; True turns it on there too, for the comparison.
        wanted = db.dialect == "sqlite" if group_commit is None else group_commit
        self.committer = GroupCommitter(db, self._committed) if wanted else None
        # Active encounters between commands (bot/services/encounter_cache.py); None: every command loads them.
        self.encounters: EncounterCache | None = EncounterCache() if encounter_cache else None
        # The engine's summaries and turn readiness of the sheets lately seen (bot/services/sheet_reads.py).
        self.sheet_reads = SheetReads()
        # Which committed events still wait for their interaction's answer (bot/services/answers.py).
        self.answers = AnswerLog(self)
        if self.encounters is not None:
            db.on_change.append(self.encounters.changed)

    def warm_up(self) -> None:
        """Import every engine and build the default catalogs (YAML and validation: about a second), so that
        no command pays for it; the bot runs this in a thread at startup."""
        for system in available_ids():
            self.catalog(system)

    def engine(self, system: str) -> Engine:
        return get_engine(system)

    def catalog(self, system: str) -> Any:
        """The default pack's catalog (no server's homebrew)."""
        return self.catalogs(system)

    def pack_catalog(self, system: str, files: Mapping[str, bytes]) -> Any:
        """The default pack overlaid with ``files`` ({file name: bytes}); a ContentError names what is wrong.
        Slow for a large pack: services ask ``candidate_catalog`` or ``catalog_for``, which build off the loop."""
        return self.packs(system, files) if files else self.catalog(system)

    async def catalog_for(self, session: AsyncSession, guild_id: int, system: str) -> Any:
        """The catalog this server plays ``system`` with: its homebrew pack over the default one, if it has one.

        Reads only the guild's settings row, which the command holds anyway, unless the server's packs
        changed since this process last built them (``pack_version``): then it reads the pack and raises
        BuildNeeded, so the runner builds it outside the transaction and runs the command again.
        """
        settings = await repo.guild_settings(session, guild_id)
        version = settings.pack_version if settings is not None else 0
        if not version:
            return self.catalog(system)
        key = (guild_id, system)
        cached = self._pack_cache.get(key)
        if cached is not None and cached[0] == version:
            self._pack_cache.move_to_end(key)
            return cached[1]
        rows = await repo.content_packs(session, guild_id, system)
        files = {row.filename: row.text.encode("utf-8") for row in rows}
        needed = BuildNeeded((guild_id, system, version), functools.partial(self._measured, system, files),
                             functools.partial(self.remember_pack, guild_id, system, version),
                             lambda: self._pack_cache.get(key, (None,))[0] == version)
        needed.pack = (system, files)
        raise needed

    def candidate_catalog(self, system: str, files: Mapping[str, bytes]) -> Any:
        """The catalog ``files`` would make (an upload or a reset about to be stored), built off the loop:
        raises BuildNeeded the first time, as ``catalog_for`` does."""
        if not files:
            return self.catalog(system)
        key = (system, _digest(files))
        if key in self._candidates:
            return self._candidates[key][0]
        needed = BuildNeeded(key, functools.partial(self._measured, system, dict(files)),
                             functools.partial(self._keep_candidate, key), lambda: key in self._candidates)
        needed.pack = (system, dict(files))
        raise needed

    def _measured(self, system: str, files: Mapping[str, bytes]) -> tuple[Any, int]:
        """In the build worker: the catalog and the bytes it holds."""
        from bot.services.catalog_size import deep_size

        catalog = self.pack_catalog(system, files)
        return catalog, deep_size(catalog)

    def _keep_candidate(self, key: tuple[str, str], built: tuple[Any, int]) -> None:
        self._candidates[key] = built
        while len(self._candidates) > CANDIDATE_CACHE_SIZE:
            self._candidates.popitem(last=False)

    def remember_pack(self, guild_id: int, system: str, version: int, catalog: Any | tuple[Any, int]) -> None:
        """Keep ``catalog`` as the server's for ``system`` at pack ``version`` (a newer one already kept wins);
        the least recently used go while the cache holds more than ``pack_cache_limit`` bytes."""
        if isinstance(catalog, tuple):
            catalog, size = catalog
        else:  # an upload's candidate, measured when it was built
            size = next((s for c, s in self._candidates.values() if c is catalog), 0)
        key = (guild_id, system)
        cached = self._pack_cache.get(key)
        if cached is None or cached[0] <= version:
            if cached is not None:
                self.pack_cache_bytes -= cached[2]
            self._pack_cache[key] = (version, catalog, size)
            self.pack_cache_bytes += size
        self._pack_cache.move_to_end(key)
        while self.pack_cache_bytes > self.pack_cache_limit and len(self._pack_cache) > 1:
            _key, (_version, _catalog, dropped) = self._pack_cache.popitem(last=False)
            self.pack_cache_bytes -= dropped

    async def off_loop(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker thread, so the event loop keeps serving everyone else; past
        ``work_budget`` the command is refused with one line."""
        try:
            return await asyncio.wait_for(asyncio.to_thread(work, *args), self.work_budget)
        except TimeoutError:
            raise UserError(TOO_SLOW) from None

    async def merged_upload(self, merge: Callable[[], tuple[bytes, list[str], list[str]]], system: str, name: str,
                            others: Mapping[str, bytes]) -> tuple[bytes, list[str], list[str]]:
        """``merge()`` (an upload merged into the server's file ``name``: parsing both, CPU-bound; a picklable
        partial) and the catalog the pack makes with the result and ``others`` (the server's other files), in
        the build process, queued with the builds: (the merged file, the entries added, those changed). The
        catalog is kept for the transaction that stores the file (``candidate_catalog``); a mistake is raised
        as the build's."""
        loop = asyncio.get_running_loop()
        if self.packs is _load_pack:
            pool = self._build_process()
            try:
                text, added, changed, built = await self._queued(lambda: loop.run_in_executor(
                    pool, _merge_and_build, merge, system, name, dict(others)))
            except BrokenProcessPool:  # the build process died (killed, out of memory): the next build starts one
                log.exception("the build process failed; merging %s/%s on the build thread", system, name)
                self._drop_broken(pool)
            else:
                self._keep_candidate((system, _digest({**others, name: text})), built)
                return text, added, changed
        # A catalog loader a test swapped in, or no build process: the merge on the build thread (the catalog
        # is built when the transaction asks for it).
        return await self._queued(lambda: loop.run_in_executor(self._builder, merge))

    async def _queued(self, start: Callable[[], asyncio.Future[T]]) -> T:
        """One job for the build worker, in the queue with the builds (refused with one line when it is full)."""
        if self._queued_builds >= MAX_QUEUED_BUILDS:
            raise UserError(BUSY)
        self._queued_builds += 1
        future = start()
        future.add_done_callback(self._dequeued)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self._queued_budget())
        except TimeoutError:
            raise UserError(TOO_SLOW) from None

    def _queued_budget(self) -> float:
        """How long a queued build may take: a budget for each build queued (its own and those before it)."""
        return self.work_budget * min(QUEUED_BUDGETS, max(1, self._queued_builds))

    def _dequeued(self, _future: asyncio.Future[Any]) -> None:
        self._queued_builds -= 1

    async def _build(self, needed: BuildNeeded) -> None:
        """Build what ``needed`` asks for in a thread (joining a build of the same key already under way)."""
        future = self._builds.get(needed.key)
        if future is None and needed.kept():
            return
        if future is None:
            if self._queued_builds >= MAX_QUEUED_BUILDS:
                raise UserError(BUSY)
            self._queued_builds += 1
            loop = asyncio.get_running_loop()
            if needed.pack is not None and self.packs is _load_pack:
                future = asyncio.ensure_future(self._in_process(needed))
            else:  # a catalog loader a test swapped in: on the build thread
                future = loop.run_in_executor(self._builder, needed.build)
            self._builds[needed.key] = future
            future.add_done_callback(functools.partial(self._built, needed))
        try:
            # A build queued behind others' waits for theirs too (each bounded by the input guard).
            await asyncio.wait_for(asyncio.shield(future), self._queued_budget())
        except TimeoutError:
            raise UserError(TOO_SLOW) from None

    async def _in_process(self, needed: BuildNeeded) -> Any:
        assert needed.pack is not None
        loop = asyncio.get_running_loop()
        pool = self._build_process()
        try:
            return await loop.run_in_executor(pool, _build_pack, *needed.pack)
        except RulesError:  # the pack's mistakes (they cross the pickle intact)
            raise
        except Exception:  # the build process died (killed, out of memory): built again here
            log.exception("the build process failed; building %s on the build thread", needed.key)
            self._drop_broken(pool)
            return await loop.run_in_executor(self._builder, needed.build)

    def _drop_broken(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """A broken pool refuses every later job: the next build starts a new process (unless one did already)."""
        if self._process is pool:
            self.stop_builds()

    def _build_process(self) -> concurrent.futures.ProcessPoolExecutor:
        """The one build process, started (spawned: the bot's threads are not forked) at the first build."""
        if self._process is None:
            import multiprocessing

            self._process = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._process

    def _built(self, needed: BuildNeeded, future: asyncio.Future[Any]) -> None:
        self._queued_builds -= 1
        if self._builds.get(needed.key) is future:
            del self._builds[needed.key]
        if not future.cancelled() and future.exception() is None:  # a failed build is not kept: it is retried
            needed.keep(future.result())

    def channel_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    async def transact(self, channel_id: int | None, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run ``work`` in one transaction, serialized per channel, retried on a version clash. A write refused
        for want of space is StorageFull (one line to the user; ``/healthz`` says so until a write commits); a
        database server that does not answer is DatabaseNotAnswering, a deleted SQLite file DatabaseFileGone."""
        if self.db.file_gone() is not None:
            raise DatabaseFileGone()
        try:
            if channel_id is None:
                result = await self._with_retries(work)
            else:
                async with self.channel_lock(channel_id):
                    result = await self._with_retries(self._channel_locked(channel_id, work))
        except Exception as exc:
            if is_storage_full(exc):
                self.db.storage.failed(exc)
                raise StorageFull() from exc
            self._not_answering(exc)
            raise
        self.db.storage.written()
        self._answering()
        return result

    def _not_answering(self, error: BaseException) -> None:
        """DatabaseNotAnswering when ``error`` says the server is out of reach (logged once until it answers)."""
        if isinstance(error, UserError) or not is_unreachable(error):
            return
        if not self.unreachable:
            self.unreachable = True
            log.warning("the database is not answering: commands are refused until it does (%s)",
                        (str(error).strip().splitlines() or [type(error).__name__])[0][:200])
        raise DatabaseNotAnswering() from error

    def _answering(self) -> None:
        if self.unreachable:
            self.unreachable = False
            log.warning("the database answers again")

    def _channel_locked(self, channel_id: int, work: Callable[[AsyncSession], Awaitable[T]],
                        ) -> Callable[[AsyncSession], Awaitable[T]]:
        """On PostgreSQL, ``work`` first takes the channel's advisory lock, held until its transaction ends: two
        processes writing one channel take turns there instead of clashing on its rows and retrying in
        lockstep (each deadlock between them cost PostgreSQL's deadlock_timeout, 1 s). Within a process the
        channel's asyncio lock already takes turns; SQLite writes one transaction at a time anyway."""
        if self.db.dialect != "postgresql":
            return work
        key = channel_id - (1 << 64) if channel_id >= 1 << 63 else channel_id  # a snowflake as a signed bigint

        async def locked(session: AsyncSession) -> T:
            await session.execute(_CHANNEL_LOCK, {"key": key})
            return await work(session)

        return locked

    async def read(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """A read-only query (autocomplete, status): one session, no lock."""
        started = time.perf_counter()
        for _ in range(RETRIES):
            try:
                async with self.db.readers() as session:
                    result = await work(session)
            except BuildNeeded as needed:
                await self._build(needed)  # off the event loop; then read again
                continue
            except Exception as exc:
                self._not_answering(exc)
                raise
            if self.on_transaction is not None:
                self.on_transaction(time.perf_counter() - started, 0)
            return result
        raise Conflict("the server's content pack keeps changing; please try again")

    def _committed(self, seconds: float, attempts: int) -> None:
        if self.on_transaction is not None:
            self.on_transaction(seconds, attempts)

    async def close(self) -> None:
        """Stop the writer task (the bot's shutdown; nothing is queued by then)."""
        if self.committer is not None:
            await self.committer.close()
        self.stop_builds()

    def stop_builds(self) -> None:
        """End the build process (a build under way is dropped; a later build starts another)."""
        if self._process is not None:
            self._process.shutdown(wait=False, cancel_futures=True)
            self._process = None

    async def _with_retries(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        if self.encounters is None:
            return await self._attempts(work)
        cache, lent = self.encounters, list[Entry]()

        async def attempt(session: AsyncSession) -> T:
            for entry in lent:  # a retry: what the last attempt took is stale or half-changed
                cache.release(entry)
            lent.clear()
            session.info[LENT] = (cache, lent)
            try:
                result = await work(session)
                await repo.flush(session)  # its own writes, while the session still knows which entry is its own
                return result
            finally:
                for key in (LENT, OWNER, GUILD_SETTINGS):  # the batch's next command starts clean
                    session.info.pop(key, None)

        try:
            result = await self._attempts(attempt)
        except BaseException:
            for entry in lent:
                cache.release(entry)
            raise
        for entry in lent:  # committed: the next command on the channel starts from here
            cache.put(entry)
        return result

    async def _attempts(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        if self.committer is not None:
            for _ in range(RETRIES):
                try:
                    result: T = await self.committer.submit(work, retryable=_retryable, retries=RETRIES)
                except BuildNeeded as needed:
                    await self._build(needed)  # out of the transaction, off the event loop; then run it again
                    continue
                except Exception as exc:
                    if _retryable(exc):  # still clashing after every retry
                        raise Conflict("someone else changed this at the same moment; please try again") from exc
                    raise
                return result
            raise Conflict("the server's content pack keeps changing; please try again")
        started = time.perf_counter()
        for attempt in range(RETRIES):
            try:
                async with self.db.transaction() as session:
                    result = await work(session)
            except BuildNeeded as needed:
                await self._build(needed)  # out of the transaction, off the event loop; then run it again
            except Exception as exc:
                if not _retryable(exc):
                    raise
                # Back off a little, with jitter, so two processes do not clash in lockstep.
                await asyncio.sleep(random.uniform(0, 0.005 * (2**attempt)))
            else:
                if self.on_transaction is not None:
                    self.on_transaction(time.perf_counter() - started, attempt + 1)
                return result
        raise Conflict("someone else changed this at the same moment; please try again")
