"""What a body diagram draws, read from a stored sheet (the records are in ``bot/systems/pictures.py``).

Each system keeps its wounds its own way (rules/*/character.py); its profile (``bot/systems/<system>.py``)
reads them and keeps only what the picture shows. ``bot/ui/diagram.py`` draws it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from bot.systems import profile_of
from bot.systems.pictures import HitPointWounds, WoundPicture
from rules.errors import RulesError
from rules.model import Catalog
from rules.outcome import Outcome

log = logging.getLogger(__name__)


def wound_picture(system: str, sheet: Mapping[str, Any], catalog: Catalog,
                  rulings: Mapping[str, Any] | None = None) -> WoundPicture | None:
    """The picture's state for a stored sheet; None for a system without a diagram or a sheet the engine
    cannot read (the text answer still goes out). ``rulings``: the server's overrides (the defaults if None)."""
    profile = profile_of(system)
    if profile is None:
        return None
    try:
        return profile.picture(sheet, catalog, rulings or {})
    except (RulesError, KeyError, ValueError, TypeError):
        log.info("no wound picture for a %s sheet the engine cannot read", system, exc_info=True)
    return None


def with_attack(picture: WoundPicture, before: Collection[int], outcome: Outcome) -> WoundPicture:
    """The target's picture after an attack: its new wounds (indexes not in ``before``) highlighted, and for
    HarnMaster the location where armour stopped the blow (the outcome keeps it, the sheet does not)."""
    if isinstance(picture, HitPointWounds):
        return replace(picture, new=tuple(s.index for s in picture.segments if s.index not in before))
    new = tuple(m.key for m in picture.marks if any(w.index not in before for w in m.wounds))
    return replace(picture, new=new, stopped=armour_held_at(picture.system, outcome))


def armour_held_at(system: str, outcome: Outcome) -> str | None:
    """Where the attack's outcome says armour stopped the blow (HarnMaster: the location, side joined), else None."""
    profile = profile_of(system)
    return profile.armour_held_at(outcome) if profile is not None else None
