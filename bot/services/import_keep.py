"""A sheet imported over a character play has marked (issue 34, N8): what the file would take away.

An older export imported again would heal the wounds taken since. A player's import never removes or lowers
a wound or condition the bot recorded: the recorded fields (each profile's ``recorded_fields``) stay as they
are, and the answer says so. The GM may import over them, after a confirmation naming what goes.

What is "taken away" is read from the engine's own summary of each sheet (its wounds and conditions), so the
words are the system's; a field the import changes that no summary shows is not counted.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.services.results import RecordedState
from rules.model import SheetSummary, Wound


def with_recorded(imported: Mapping[str, Any], recorded: Mapping[str, Any], fields: tuple[str, ...]
                  ) -> dict[str, Any]:
    """``imported`` with the recorded sheet's play fields (those it has) in place of the file's."""
    out = copy.deepcopy(dict(imported))
    for key in fields:
        if key in recorded:
            out[key] = copy.deepcopy(recorded[key])
        else:
            out.pop(key, None)
    return out


def _wound_key(wound: Wound) -> Wound:
    return replace(wound, index=0)  # a wound is the same wound whatever number the sheet gave it


def _conditions(summary: SheetSummary) -> list[str]:
    flags = (flag.strip() for part in summary.condition.split(";") for flag in part.split(","))
    return [flag for flag in flags if flag and flag != "ok"]


def taken_away(recorded: SheetSummary, imported: SheetSummary, kept: SheetSummary, unmarked: SheetSummary
               ) -> RecordedState:
    """What the recorded sheet shows that the imported one does not and keeping the play fields would keep
    (``unmarked``: the sheet with no play recorded; its flags, "ok" or "ready", are no condition)."""
    now = {_wound_key(w) for w in imported.wounds}
    keeps = {_wound_key(w) for w in kept.wounds}
    wounds = tuple(w for w in recorded.wounds if _wound_key(w) not in now and _wound_key(w) in keeps)
    now_flags, kept_flags = set(_conditions(imported)), set(_conditions(kept))
    plain = set(_conditions(unmarked))
    flags = tuple(f for f in _conditions(recorded) if f not in now_flags and f in kept_flags and f not in plain)
    return RecordedState(wounds, flags)


def weigh(recorded: Mapping[str, Any], imported: dict[str, Any], fields: tuple[str, ...],
          check: Callable[[dict[str, Any]], dict[str, Any]],
          summarize: Callable[[Mapping[str, Any]], SheetSummary]) -> tuple[dict[str, Any], RecordedState]:
    """The checked import with the recorded play fields kept, and what the import alone would take away
    (``check``: the engine's sheet check, naming the file; ``recorded`` is a stored, checked sheet)."""
    alone = check(imported)
    if not fields:
        return alone, RecordedState()
    kept = check(with_recorded(alone, recorded, fields))
    unmarked = check(with_recorded(alone, {}, fields))
    return kept, taken_away(summarize(recorded), summarize(alone), summarize(kept), summarize(unmarked))
