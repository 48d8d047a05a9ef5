"""What became of the faces a player typed (the ``dice`` option): which were not used, which the bot rolled.

Said only when the bot rolled dice although faces were typed: beside a typed face left unused (Pendragon
damage typed for a blow the other side won: the winner's own damage is rolled), or for a label typed short
(four damage faces for five dice). A command typed in full, or not at all, gets no line; faces merely left
over (a knockdown typed that no blow called for) are in the Details.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.text_safety import plain


def _faces(value: Any) -> list[int]:
    return [f for f in value if isinstance(f, int)] if isinstance(value, list | tuple) else []


def rolled_by_bot(rolls: Sequence[Any], typed: Mapping[str, Any], unused: Mapping[str, Any]) -> list[str]:
    """The labels the bot rolled beside typed faces (``defender_damage``, ``damage (1 of 5 dice)``), when that is
    worth saying: some typed face went unused, or a label was typed short. Empty otherwise."""
    if not typed:
        return []
    shown: dict[str, int] = {}  # label -> faces the engine rolled under it
    for roll in rolls:
        if isinstance(roll, Mapping) and isinstance(roll.get("label"), str):
            shown[roll["label"]] = shown.get(roll["label"], 0) + len(_faces(roll.get("faces")))
    rolled: list[str] = []
    short = False
    for label, count in shown.items():
        used = len(_faces(typed.get(label))) - len(_faces(unused.get(label)))
        if used >= count:
            continue
        short = short or used > 0
        rolled.append(f"{plain(label)} ({count - used} of {count} dice)" if used > 0 else plain(label))
    left = any(_faces(faces) for faces in unused.values())
    return rolled if left or short else []


def typed_dice_line(rolls: Sequence[Any], typed: Mapping[str, Any], unused: Mapping[str, Any]) -> str | None:
    """``🎲 Typed, not used: damage=5,5,4,2 · rolled by the bot: defender_damage``, or None."""
    rolled = rolled_by_bot(rolls, typed, unused)
    if not rolled:
        return None
    left = {label: _faces(faces) for label, faces in unused.items() if _faces(faces)}
    parts = []
    if left:
        parts.append("Typed, not used: " + " ".join(
            f"{plain(label)}={','.join(map(str, faces))}" for label, faces in left.items()))
    parts.append(("rolled by the bot: " if parts else "Rolled by the bot: ") + ", ".join(rolled))
    return "\U0001f3b2 " + " \u00b7 ".join(parts)
