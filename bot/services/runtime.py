"""What every service shares: the database, dice, clock and engines, the catalog store, the transaction runner
and the work kept off the event loop.

The jobs live in their own modules: ``CatalogStore`` (bot/services/catalog_store.py) holds the catalogs a
server plays with, ``TransactionRunner`` (bot/services/transactions.py) runs each command in one transaction,
and ``SlowWork`` (bot/services/slow_work.py) parses uploads in a thread and builds packs in the build process.
A service asks its runtime for a transaction (``transact``, ``read``) and for a catalog (``catalogs``).

The production choices are made here, with no switch to turn them: group commit where it pays, the encounter
cache, the target's picture after an attack. bench/switches.py builds a runtime with others, to compare.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypedDict, TypeVar

from bot.db.engine import Database
from bot.services.answers import AnswerLog
from bot.services.catalog_store import CatalogStore, load_default
from bot.services.encounter_cache import EncounterCache
from bot.services.group_commit import GroupCommitter
from bot.services.sheet_reads import SheetReads
from bot.services.slow_work import SlowWork
from bot.services.transactions import TransactionRunner, Work
from bot.services.wound_state import wound_picture
from bot.systems.pictures import WoundPicture
from rules.model import Catalog, Engine
from rules.registry import get_engine

T = TypeVar("T")


def utcnow() -> datetime:
    return datetime.now(UTC)


class RuntimeInputs(TypedDict, total=False):
    """What a caller may choose of a ``Runtime`` (``Services`` passes them through): each left out takes
    ``Runtime``'s default."""

    rng: Callable[[], random.Random]
    clock: Callable[[], datetime]
    catalogs: Callable[[str], Catalog]


class Runtime:
    """``rng`` makes a fresh generator per action (seed it in tests); ``clock`` tells the time; ``catalogs`` loads a
    system's default pack (tests may swap in a fake)."""

    def __init__(
        self,
        db: Database,
        *,
        rng: Callable[[], random.Random] = random.Random,
        clock: Callable[[], datetime] = utcnow,
        catalogs: Callable[[str], Catalog] = load_default,
    ) -> None:
        self.db = db
        self.rng = rng
        self.clock = clock
        self.slow_work = SlowWork()
        self.catalogs = CatalogStore(self.slow_work, catalogs)
        self.transactions = self._transaction_runner()
        # how long an attack waits for its target's player to choose a defence (bot/services/defense_prompt.py)
        self.defense_prompt_seconds = 60.0
        # The engine's summaries and turn readiness of the sheets lately seen (bot/services/sheet_reads.py).
        self.sheet_reads = SheetReads()
        # Which committed events still wait for their interaction's answer (bot/services/answers.py).
        self.answers = AnswerLog(self.transactions)

    def _transaction_runner(self) -> TransactionRunner:
        """Group commit where it pays, which is SQLite (the figures: docs/benchmarks.md, "Issue 12: the write path
        under a burst"); PostgreSQL takes concurrent writers itself. Active encounters kept between commands."""
        committer = GroupCommitter(self.db) if self.db.dialect == "sqlite" else None
        return TransactionRunner(self.db, committer=committer, encounters=EncounterCache(),
                                 build=self.slow_work.build)

    def engine(self, system: str) -> Engine:
        return get_engine(system)

    async def transact(self, channel_id: int | None, work: Work[T]) -> T:
        """``work`` in one transaction, behind the channel's lock (``TransactionRunner.transact``)."""
        return await self.transactions.transact(channel_id, work)

    async def read(self, work: Work[T]) -> T:
        """A read-only query: one session, no lock (``TransactionRunner.read``)."""
        return await self.transactions.read(work)

    def wound_picture(self, system: str, sheet: Mapping[str, Any], catalog: Catalog,
                      rulings: Mapping[str, Any]) -> WoundPicture | None:
        """A character's body for a thumbnail (bot/services/wound_state.py)."""
        return wound_picture(system, sheet, catalog, rulings)

    async def close(self) -> None:
        """Stop the writer task and the build process (the bot's shutdown; nothing is queued by then)."""
        await self.transactions.close()
        self.slow_work.stop()
