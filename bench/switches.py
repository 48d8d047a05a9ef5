"""What a benchmark compares, chosen where the bot is built: ``SwitchedServices`` (a ``Services`` whose runtime is
a ``SwitchedRuntime``) with the production choices switched as ``Switches`` says. The production constructors
take no such switch; the tests that compare both ways build their services here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.db.engine import Database
from bot.services import Services
from bot.services.encounter_cache import EncounterCache
from bot.services.group_commit import GroupCommitter
from bot.services.odds_worker import WORKER, OddsWorker
from bot.services.runtime import Runtime, RuntimeInputs
from bot.services.transactions import TransactionRunner
from bot.systems.pictures import WoundPicture
from rules.model import Catalog


@dataclass(frozen=True)
class Switches:
    # the bot's commands through the group committer (bot/services/group_commit.py): None as in production
    # (SQLite only), True on every backend (PostgreSQL too), False on none
    group_commit: bool | None = None
    encounter_cache: bool = True  # active encounters kept between commands; False: every command loads them
    attack_pictures: bool = True  # an attack that marks its target reports the target's picture (the thumbnail)
    odds_worker: bool = True  # /odds in the worker process; False: in a thread, as before the worker


class SwitchedRuntime(Runtime):
    """``attack_pictures`` may be flipped between commands (bench/latency.py interleaves attacks with and without
    the picture on one bot)."""

    def __init__(self, db: Database, switches: Switches, **kwargs: Any) -> None:
        self.switches = switches
        self.attack_pictures = switches.attack_pictures
        super().__init__(db, **kwargs)

    def _transaction_runner(self) -> TransactionRunner:
        wanted = self.db.dialect == "sqlite" if self.switches.group_commit is None else self.switches.group_commit
        return TransactionRunner(self.db, committer=GroupCommitter(self.db) if wanted else None,
                                 encounters=EncounterCache() if self.switches.encounter_cache else None,
                                 build=self.slow_work.build)

    def wound_picture(self, system: str, sheet: Mapping[str, Any], catalog: Catalog,
                      rulings: Mapping[str, Any]) -> WoundPicture | None:
        return super().wound_picture(system, sheet, catalog, rulings) if self.attack_pictures else None


class SwitchedServices(Services):
    runtime: SwitchedRuntime

    def __init__(self, db: Database, switches: Switches, **kwargs: Any) -> None:
        self.switches = switches
        super().__init__(db, **kwargs)

    def _runtime(self, db: Database, inputs: RuntimeInputs) -> SwitchedRuntime:
        return SwitchedRuntime(db, self.switches, **inputs)

    def _odds_worker(self) -> OddsWorker | None:
        return WORKER if self.switches.odds_worker else None
