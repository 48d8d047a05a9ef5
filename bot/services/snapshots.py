"""ORM rows to the frozen views services return (and the engine's summaries they carry)."""

from __future__ import annotations

import copy
import logging
from typing import Any

from bot.db import json_text
from bot.db.models import Character, Encounter
from bot.services.results import (
    CharacterBrief,
    CharacterView,
    CombatantView,
    EncounterView,
)
from bot.services.results import pending_view as pending_view  # beside the views; its callers import it from here
from bot.services.runtime import Runtime
from bot.services.sheet_reads import sheet_key
from bot.services.wound_state import wound_picture
from rules.errors import RulesError
from rules.model import READY, Catalog, SheetSummary, TurnReadiness

log = logging.getLogger(__name__)


def summarize(rt: Runtime, system: str, sheet: dict[str, Any], catalog: Catalog, *,
              key: bytes | None = None) -> SheetSummary | None:
    """The engine's summary (``catalog``: the server's, from ``rt.catalogs.catalog_for``), or None when the engine
    is missing or cannot read the stored sheet; remembered by the sheet's content (bot/services/sheet_reads.py;
    ``key``: the sheet's ``sheet_key``, when the caller has it)."""
    return rt.sheet_reads.get("summary", system, sheet, catalog, None, lambda: _summarize(rt, system, sheet, catalog),
                              key=key)


def _summarize(rt: Runtime, system: str, sheet: dict[str, Any], catalog: Catalog) -> SheetSummary | None:
    try:
        return rt.engine(system).summarize(sheet, catalog)
    except RulesError:
        return None
    except Exception:  # a broken engine must not take /status down with it
        log.exception("summarize failed for %s", system)
        return None


def readiness(rt: Runtime, system: str, sheet: dict[str, Any], catalog: Catalog,
              rulings: dict[str, Any] | None = None, *, key: bytes | None = None) -> TurnReadiness:
    """The engine's word on whether the character can take its turn (ready when it cannot read the sheet);
    ``rulings``: the server's rulings for the system (None: the engine's defaults). Remembered as summaries are."""
    return rt.sheet_reads.get("readiness", system, sheet, catalog, rulings,
                              lambda: _readiness(rt, system, sheet, catalog, rulings), key=key)


def _readiness(rt: Runtime, system: str, sheet: dict[str, Any], catalog: Catalog,
               rulings: dict[str, Any] | None) -> TurnReadiness:
    try:
        return rt.engine(system).turn_readiness(sheet, catalog, rulings)
    except RulesError:
        return READY
    except Exception:  # a broken engine must not take the tracker down with it
        log.exception("turn_readiness failed for %s", system)
        return READY


def character_view(rt: Runtime, row: Character, catalog: Catalog, own: bool = True) -> CharacterView:
    """``catalog``: the server's catalog for the character's system (``rt.catalogs.catalog_for``). The summary and
    the picture are the engine's reads of the sheet, remembered by its content (one digest for both). ``own``: the
    view holds its own copy of the sheet; False only for a read's rows, dropped after it, whose sheets nothing
    else holds (the web roster's 50: a copy each was a quarter of its read)."""
    sheet = copied(row.sheet) if own else row.sheet
    key = sheet_key(sheet)
    picture = rt.sheet_reads.get("picture", row.system, sheet, catalog, None,
                                 lambda: wound_picture(row.system, sheet, catalog), key=key)
    return CharacterView(id=row.id, name=row.name, system=row.system, owner_id=row.owner_id, npc=row.npc,
                         sheet=sheet, summary=summarize(rt, row.system, sheet, catalog, key=key), version=row.version,
                         picture=picture, owner_name=row.owner_name)


def copied(sheet: dict[str, Any]) -> dict[str, Any]:
    """A sheet's own copy for a view: through JSON text, as the database holds it (a few times quicker than
    deepcopy for a sheet with 64 wounds: the web roster reads 50), or deepcopy where the round trip would change
    it (a tuple, a key that is not text)."""
    try:
        again = json_text.loads(json_text.dumps(sheet))
    except (TypeError, ValueError):
        return copy.deepcopy(sheet)
    return again if isinstance(again, dict) and again == sheet else copy.deepcopy(sheet)


def brief(row: Character) -> CharacterBrief:
    return CharacterBrief(id=row.id, name=row.name, system=row.system, owner_id=row.owner_id, npc=row.npc)


def ordered_combatants(encounter: Encounter) -> list[Any]:
    """Combatants in turn order (``order`` holds character ids; anyone missing from it goes last)."""
    position = {character_id: index for index, character_id in enumerate(encounter.order)}
    return sorted(encounter.combatants, key=lambda c: (position.get(c.character_id, len(position)), c.id))


def encounter_view(rt: Runtime, encounter: Encounter, catalog: Catalog, secret_npcs: bool = False) -> EncounterView:
    """``catalog``: the server's catalog for the encounter's system (``rt.catalogs.catalog_for``); ``secret_npcs``: the
    server keeps NPC rolls secret."""
    combatants = []
    for combatant in ordered_combatants(encounter):
        character = combatant.character
        own = catalog if character.system == encounter.system else rt.catalogs.catalog(character.system)
        key = sheet_key(character.sheet)  # one digest of the sheet for both questions
        summary = summarize(rt, character.system, character.sheet, own, key=key)
        wounds = summary.wounds if summary else ()
        combatants.append(CombatantView(
            character_id=character.id, name=character.name, owner_id=character.owner_id, npc=character.npc,
            initiative=combatant.initiative, condition=summary.condition if summary else "",
            wounds=wounds, penalty=sum(w.penalty for w in wounds), declaration=dict(combatant.declaration),
            readiness=readiness(rt, character.system, character.sheet, own, key=key),
        ))
    turn = encounter.turn % len(combatants) if combatants else 0
    return EncounterView(id=encounter.id, guild_id=encounter.guild_id, channel_id=encounter.channel_id,
                         system=encounter.system, round=encounter.round, turn=turn, active=encounter.active,
                         combatants=tuple(combatants), tracker_message_id=encounter.tracker_message_id,
                         version=encounter.version, secret_npcs=secret_npcs)


