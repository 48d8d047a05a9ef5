"""Engine outcomes as words: a headline, fields and a severity, per system.

Part of the embed wording (the `*_embeds.py` builders in bot/ui/ make the embeds from these).
``describe`` is the entry point. It reads the outcome as its record (``rules.registry.read_outcome``: the same
path for an action just made and one stored long ago) and picks the describer by the record's type
(``DESCRIBERS``, docs/decisions/typed-outcomes.md), from the describer module each system's profile names
(``bot/systems/<system>.py``). A stored payload no record reads (``UnknownOutcome``: an
action or system this code does not have) is worded from its keys by ``unknown``: a GM decision as one
(decisions.py), anything else as "<name> acts." and its fields listed. The shared readers and the severity scale
are in common.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any, cast

from bot.systems import PROFILES
from bot.text_safety import plain
from bot.ui.outcomes.common import (
    Field,
    OutcomeText,
    Severity,
    _details,
    check_line,
    human,
    modifiers,
    roll_line,
    rolls_value,
    signed,
    text,
    title,
    worst,
)
from bot.ui.outcomes.decisions import decision_words, gm_decided
from rules.outcome import Outcome, UnknownOutcome
from rules.registry import read_outcome

__all__ = [
    "DESCRIBERS",
    "Field",
    "OutcomeText",
    "Severity",
    "check_line",
    "decision_words",
    "describe",
    "generic",
    "gm_decided",
    "human",
    "modifiers",
    "roll_line",
    "rolls_value",
    "signed",
    "text",
    "title",
    "unknown",
    "worst",
]

log = logging.getLogger(__name__)


def generic(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    return OutcomeText(f"{names[0]} acts.", _details(outcome, set()), Severity.INFO)


def unknown(record: UnknownOutcome, names: tuple[str, str]) -> OutcomeText:
    """A stored payload no record reads, from its keys: a GM decision (the kind and choice every system stored)
    as one, anything else as the actor acting, with the fields it holds."""
    if record.action == "gm_decide":
        return gm_decided(record.stored, names)
    return generic(record.stored, names)


Describer = Callable[[Any, tuple[str, str]], OutcomeText]


def _describers() -> dict[type[Outcome], Describer]:
    """Each system's describer module (named by its profile, ``describers``) and its table of record types."""
    out: dict[type[Outcome], Describer] = {}
    for profile in PROFILES.values():
        out.update(cast(Mapping[type[Outcome], Describer], import_module(profile.describers).DESCRIBERS))
    return out


# record type -> the words for it
DESCRIBERS: dict[type[Outcome], Describer] = {**_describers(), UnknownOutcome: unknown}


def describe(system: str, outcome: Outcome | Mapping[str, Any] | Any, names: tuple[str, str]) -> OutcomeText:
    """Words for ``outcome`` (a record, or the mapping an event stored)."""
    names = (plain(names[0]), plain(names[1]))  # every describer writes the names as they are given here
    if not isinstance(outcome, Mapping | Outcome):
        return OutcomeText(f"{names[0]} acts.", [], Severity.INFO)
    record = read_outcome(system, outcome)
    words = DESCRIBERS.get(type(record))
    if words is None:  # a typed record without words: a programming error, shown plainly
        log.error("no describer for %s", type(record).__name__)
        return generic(record.to_dict(), names)
    return words(record, names)
