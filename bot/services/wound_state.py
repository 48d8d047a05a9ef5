"""What a body diagram draws, read from the engine's state: plain, hashable records (the picture's cache key).

Each system keeps its wounds its own way (rules/*/character.py); this module reads them through the
engine's own sheet parser and keeps only what the picture shows. ``bot/ui/diagram.py`` draws it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.ars_harn.catalog import ArsHarnCatalog
from rules.ars_harn.character import parse_character as parse_ars_harn
from rules.ars_harn.outcomes import AttackOutcome, CastOutcome
from rules.errors import RulesError
from rules.fading_suns.catalog import FadingSunsCatalog
from rules.fading_suns.character import parse as parse_fading_suns
from rules.outcome import Outcome
from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.character import parse_character as parse_pendragon
from rules.pendragon.derived import current_hp, derive
from rules.pendragon.rulings import RULINGS as PENDRAGON_RULINGS

log = logging.getLogger(__name__)

# Whether an attack's report carries the target's picture (its thumbnail). bench/latency.py turns it off for
# a baseline /attack measured in the same run.
ATTACK_PICTURES = True


@dataclass(frozen=True)
class LocationWound:
    severity: str  # the engine's severity key ("S", "grievous"): the diagram's colour and rank
    code: str  # what is written on the location ("S3", "GRI")
    index: int  # the wound's number, as /injuries lists it


@dataclass(frozen=True)
class LocationMark:
    """One wounded (or otherwise marked) location, named as the engine names it."""

    key: str  # "left_forearm", "head" (ars-harn: side and location joined)
    label: str  # "left Forearm": what a fallback box says for a location the diagram does not know
    wounds: tuple[LocationWound, ...] = ()
    bleeding: bool = False
    amputated: bool = False
    crippled: bool = False


@dataclass(frozen=True)
class BodyWounds:
    """A system with hit locations (ars-harn, fading-suns): every marked location, and the whole body's state."""

    system: str
    name: str
    marks: tuple[LocationMark, ...]
    conditions: tuple[str, ...] = ()  # "unconscious", "stunned", "bleeding: 2 wounds" ...
    new: tuple[str, ...] = ()  # locations of the wounds the last attack made (highlighted)
    stopped: str | None = None  # where armour stopped the last blow (from the attack's outcome)


@dataclass(frozen=True)
class Segment:
    """One Pendragon wound on the hit-point bar."""

    index: int
    remaining: int
    major: bool = False
    mortal: bool = False
    first_aid: bool = False


@dataclass(frozen=True)
class HitPointWounds:
    """Pendragon: no locations, so hit points with the thresholds that matter and each wound a segment."""

    system: str
    name: str
    hit_points: int
    current: int
    unconscious: int  # at or below this many hit points the knight falls unconscious
    knockdown: int  # the smallest single blow that may knock down (the rulings say: over SIZ, or at it)
    major_wound: int  # the smallest single blow that is a major wound
    segments: tuple[Segment, ...]
    conditions: tuple[str, ...] = ()  # "chirurgery needed", "unconscious", "prone" ...
    new: tuple[int, ...] = ()  # indexes of the wounds the last attack made


WoundPicture = BodyWounds | HitPointWounds


def wound_picture(system: str, sheet: Mapping[str, Any], catalog: Any,
                  rulings: Mapping[str, Any] | None = None) -> WoundPicture | None:
    """The picture's state for a stored sheet; None for a system without a diagram or a sheet the engine
    cannot read (the text answer still goes out). ``rulings``: the server's overrides (the defaults if None)."""
    try:
        if system == "ars-harn" and isinstance(catalog, ArsHarnCatalog):
            return _ars_harn(sheet, catalog)
        if system == "fading-suns" and isinstance(catalog, FadingSunsCatalog):
            return _fading_suns(sheet, catalog)
        if system == "pendragon" and isinstance(catalog, PendragonCatalog):
            return _pendragon(sheet, catalog, rulings or {})
    except (RulesError, KeyError, ValueError, TypeError):
        log.info("no wound picture for a %s sheet the engine cannot read", system, exc_info=True)
    return None


def with_attack(picture: WoundPicture, before: Collection[int], outcome: Outcome) -> WoundPicture:
    """The target's picture after an attack: its new wounds (indexes not in ``before``) highlighted, and for
    HarnMaster the location where armour stopped the blow (the outcome keeps it, the sheet does not)."""
    if isinstance(picture, HitPointWounds):
        return replace(picture, new=tuple(s.index for s in picture.segments if s.index not in before))
    new = tuple(m.key for m in picture.marks if any(w.index not in before for w in m.wounds))
    return replace(picture, new=new, stopped=armour_held_at(outcome))


def armour_held_at(outcome: Outcome) -> str | None:
    """HarnMaster: the location (side joined) where a hit met armour that left no injury, else None."""
    return outcome.armour_held_at if isinstance(outcome, AttackOutcome | CastOutcome) else None


def _ars_harn(sheet: Mapping[str, Any], catalog: ArsHarnCatalog) -> BodyWounds:
    char = parse_ars_harn(sheet, "sheet", catalog)
    grouped: dict[str, list[Any]] = {}
    for wound in char.wounds:
        grouped.setdefault(wound.where(), []).append(wound)
    marks = []
    for key, wounds in grouped.items():
        first = wounds[0]
        known = catalog.locations.get(first.location)
        label = known.label if known else first.location.replace("_", " ")
        marks.append(LocationMark(
            key=key, label=f"{first.side} {label}" if first.side else label,
            wounds=tuple(LocationWound(w.severity, w.code, w.index) for w in wounds),
            bleeding=any(w.bleeding for w in wounds), amputated=any(w.amputated for w in wounds)))
    conditions = [c for c in char.conditions if c != "prone"]
    if char.bleeding_wounds:
        bleeding = char.bleeding_wounds
        conditions.append(f"bleeding: {bleeding} wound{'s' if bleeding != 1 else ''}")
    return BodyWounds(system="ars-harn", name=char.name, marks=tuple(marks), conditions=tuple(conditions))


def _fading_suns(sheet: Mapping[str, Any], catalog: FadingSunsCatalog) -> BodyWounds:
    char = parse_fading_suns(sheet, catalog)
    grouped: dict[str, list[Any]] = {}
    for wound in char.wounds:
        grouped.setdefault(wound.location, []).append(wound)
    marks = []
    for key, wounds in grouped.items():
        try:
            label = catalog.location(key).label
        except KeyError:
            label = key.replace("_", " ")
        marks.append(LocationMark(
            key=key, label=label,
            wounds=tuple(LocationWound(w.severity, w.severity[:3].upper(), w.index) for w in wounds),
            crippled=any(w.severity == "crippled" for w in wounds)))
    conditions = tuple(c for c in char.conditions if c != "prone")
    return BodyWounds(system="fading-suns", name=char.name, marks=tuple(marks), conditions=conditions)


def _first_blow(value: int, trigger: str) -> int:
    """The smallest blow that counts against ``value``: one more when it must exceed it."""
    return value + 1 if trigger == "exceeds" else value


def _pendragon(sheet: Mapping[str, Any], catalog: PendragonCatalog, rulings: Mapping[str, Any]) -> HitPointWounds:
    char = parse_pendragon(sheet, catalog)
    derived = derive(char, catalog)
    defaults = {s.name: s.default for s in PENDRAGON_RULINGS}
    knockdown = _first_blow(derived.knockdown, str(rulings.get("knockdown_trigger", defaults["knockdown_trigger"])))
    major = _first_blow(derived.major_wound,
                        str(rulings.get("major_wound_threshold", defaults["major_wound_threshold"])))
    segments = tuple(Segment(w.index, w.remaining, w.major, w.mortal, w.first_aid)
                     for w in char.wounds if w.remaining > 0)
    flags = [("chirurgery needed", char.chirurgery_needed), ("dead", char.dead), ("dying", char.dying),
             ("unconscious", char.unconscious), ("prone", char.prone)]
    return HitPointWounds(system="pendragon", name=char.name, hit_points=derived.hit_points,
                          current=current_hp(char, catalog), unconscious=derived.unconscious,
                          knockdown=knockdown, major_wound=major, segments=segments,
                          conditions=tuple(name for name, on in flags if on))
