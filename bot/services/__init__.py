"""The services the Discord layer calls: one method per command, one transaction each, plain results.

No discord imports here. Build one ``Services`` in the bot's ``setup_hook`` and pass an ``Actor``
(plain ids from the interaction) as the first argument of every method.
"""

from __future__ import annotations

from typing import Unpack

from bot.db.engine import Database
from bot.services.actor import Actor
from bot.services.campaign import CampaignService
from bot.services.characters import CharacterService
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.guild_commands import GuildCommandService
from bot.services.injuries import InjuryService
from bot.services.odds import OddsService
from bot.services.odds_worker import WORKER, OddsWorker
from bot.services.packs import PackService
from bot.services.records import RecordService
from bot.services.results import (
    ActionReport,
    CharacterBrief,
    CharacterView,
    CombatantView,
    EncounterView,
    EventView,
    PackFileView,
    PackView,
    PendingDecisionView,
    RollView,
    SetupView,
)
from bot.services.runtime import Runtime, RuntimeInputs
from bot.services.setup import SetupService
from bot.services.web_sessions import WebSessionService

__all__ = [
    "ActionReport",
    "Actor",
    "CharacterBrief",
    "CharacterView",
    "CombatantView",
    "EncounterView",
    "EventView",
    "PackFileView",
    "PackView",
    "PendingDecisionView",
    "RollView",
    "Services",
    "SetupView",
]


class Services:
    """Every service over one database. ``rng`` makes a fresh generator per action (seed it in tests);
    ``catalogs`` loads a system's default pack (tests may swap in a fake). What bench/ compares (group commit,
    the encounter cache, the attack's picture, /odds in a thread) is chosen by bench/switches.py's subclass."""

    def __init__(self, db: Database, **inputs: Unpack[RuntimeInputs]) -> None:
        self.db = db
        self.runtime = self._runtime(db, inputs)
        self.setup = SetupService(self.runtime)
        self.characters = CharacterService(self.runtime)
        self.encounters = EncounterService(self.runtime)
        self.combat = CombatService(self.runtime)
        self.injuries = InjuryService(self.runtime)
        self.odds = OddsService(self.runtime, self.combat, self._odds_worker())
        self.records = RecordService(self.runtime)
        self.packs = PackService(self.runtime)
        self.guild_commands = GuildCommandService(self.runtime)
        self.campaign = CampaignService(self.runtime)
        self.web_sessions = WebSessionService(self.runtime)

    def _runtime(self, db: Database, inputs: RuntimeInputs) -> Runtime:
        return Runtime(db, **inputs)

    def _odds_worker(self) -> OddsWorker | None:
        """/odds enumerates in the worker process."""
        return WORKER
