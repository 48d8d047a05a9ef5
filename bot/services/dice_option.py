"""The `dice` option: faces a player rolled at the table, by label (``attack=7 location=55``).

Labels are the engine's roll labels (``<label>.botch`` too); faces are whole numbers, several per
label with commas (``attack=1,1,4``) or by repeating the label. Whether a face fits its die is the
dice source's business (it names the label and the die).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.errors import UserError
from content.guard import check_text

MAX_TEXT = 200
MAX_FACES = 50
MAX_FACE_DIGITS = 4  # the largest die is a d1000 (rules.dice_expr.MAX_SIDES)
# Faces are ASCII digits (``\d`` would take other scripts' digits, which int() may refuse).
_PAIR = re.compile(r"([A-Za-z][\w.]*)\s*[=:]\s*(-?[0-9]+(?:\s*,\s*-?[0-9]+)*)")
_BARE = re.compile(r"-?[0-9]+(?:\s*,\s*-?[0-9]+)*")


def parse_dice(text: str | None, labels: Iterable[str], default_label: str | None = None) -> dict[str, list[int]]:
    """``{label: [faces]}`` from the option text; ``default_label`` takes bare numbers (``/roll``)."""
    if text is None or not text.strip():
        return {}
    check_text(text, "dice", MAX_TEXT)
    known = {label.casefold(): label for label in labels}
    forced: dict[str, list[int]] = {}
    rest = text.replace(";", " ").strip()
    position = 0
    while position < len(rest):
        if rest[position].isspace():
            position += 1
            continue
        pair = _PAIR.match(rest, position)
        bare = None if pair else _BARE.match(rest, position)
        if pair:
            label = _label(pair.group(1), known)
            faces_text = pair.group(2)
            position = pair.end()
        elif bare and default_label is not None:
            label, faces_text, position = default_label, bare.group(0), bare.end()
        else:
            word = rest[position:].split()[0]
            raise UserError(f"dice: cannot read '{word}': write label=faces, e.g. attack=7 location=55")
        faces = [face.strip() for face in faces_text.split(",")]
        if any(len(face.lstrip("-")) > MAX_FACE_DIGITS for face in faces):
            raise UserError(f"dice: a face is a number a die shows, at most {MAX_FACE_DIGITS} digits")
        forced.setdefault(label, []).extend(int(face) for face in faces)
    if sum(len(faces) for faces in forced.values()) > MAX_FACES:
        raise UserError(f"dice: at most {MAX_FACES} faces")
    return forced


def _label(given: str, known: dict[str, str]) -> str:
    key = given.casefold()
    base = key.removesuffix(".botch")
    if key in known:
        return known[key]
    if base != key and base in known:
        return f"{known[base]}.botch"
    names = ", ".join(sorted(known.values())) or "none"
    raise UserError(f"dice: unknown label '{given}' (labels: {names})")
