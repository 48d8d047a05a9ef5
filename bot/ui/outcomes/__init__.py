"""Engine outcomes as words: a headline, fields and a severity, per system.

Part of the embed wording (the builders gathered in bot/ui/embeds.py make the embeds from these).
``describe`` is the entry point. It reads the outcome as its record (``rules.registry.read_outcome``: the same
path for an action just made and one stored long ago) and picks the describer by the record's type
(``DESCRIBERS``, docs/decisions/typed-outcomes.md). A stored payload no record reads (``UnknownOutcome``: an
action or system this code does not have) is worded from its keys by ``unknown``: a GM decision as one
(decisions.py), anything else as "<name> acts." and its fields listed. The shared readers and the severity scale
are in common.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from bot.text_safety import plain
from bot.ui.outcomes import ars_harn
from bot.ui.outcomes import fading_suns as fading_suns_words
from bot.ui.outcomes import pendragon as pendragon_words
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
    "ars_harn",
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


# record type -> the words for it (each system's describer module adds its own table here)
DESCRIBERS: dict[type[Outcome], Callable[[Any, tuple[str, str]], OutcomeText]] = {
    **ars_harn.DESCRIBERS, **fading_suns_words.DESCRIBERS, **pendragon_words.DESCRIBERS, UnknownOutcome: unknown,
}


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
