"""What a body diagram draws: plain, hashable records (the picture's cache key), one shape per kind of body.

Each system's profile (bot/systems/<system>.py) reads its engine's sheet into one of these;
``bot/services/wound_state.py`` asks for it, ``bot/ui/diagram.py`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass


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
