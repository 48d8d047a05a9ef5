"""The services the Discord layer calls: one method per command, one transaction each, plain results.

No discord imports here. Build one ``Services`` in the bot's ``setup_hook`` and pass an ``Actor``
(plain ids from the interaction) as the first argument of every method.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.db.engine import Database
from bot.services.actor import Actor
from bot.services.campaign import CampaignService
from bot.services.characters import CharacterService
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.guild_commands import GuildCommandService
from bot.services.injuries import InjuryService
from bot.services.odds import OddsService
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
from bot.services.runtime import Runtime, _load_catalog, utcnow
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
    ``catalogs`` loads a system's content pack (tests may swap in a fake). ``group_commit``, ``encounter_cache``,
    ``attack_pictures`` and ``odds_worker`` (/odds in the worker process, else in a thread) are there to be
    compared (bench/)."""

    def __init__(
        self,
        db: Database,
        *,
        rng: Callable[[], random.Random] = random.Random,
        clock: Callable[[], datetime] = utcnow,
        catalogs: Callable[[str], Any] = _load_catalog,
        group_commit: bool | None = None,
        encounter_cache: bool = True,
        attack_pictures: bool = True,
        odds_worker: bool = True,
    ) -> None:
        self.db = db
        self.runtime = Runtime(db, rng=rng, clock=clock, catalogs=catalogs, group_commit=group_commit,
                               encounter_cache=encounter_cache, attack_pictures=attack_pictures)
        self.setup = SetupService(self.runtime)
        self.characters = CharacterService(self.runtime)
        self.encounters = EncounterService(self.runtime)
        self.combat = CombatService(self.runtime)
        self.injuries = InjuryService(self.runtime)
        self.odds = OddsService(self.runtime, self.combat, in_worker=odds_worker)
        self.records = RecordService(self.runtime)
        self.packs = PackService(self.runtime)
        self.guild_commands = GuildCommandService(self.runtime)
        self.campaign = CampaignService(self.runtime)
        self.web_sessions = WebSessionService(self.runtime)
