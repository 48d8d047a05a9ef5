"""The `dice` option: faces a player rolled at the table, by label (``attack=7 location=55``).

Labels are the engine's roll labels (``<label>.botch`` too); faces are whole numbers, several per
label with commas (``attack=1,1,4``) or by repeating the label. Whether a face fits its die is the
dice source's business (it names the label and the die).

Dice by side (``side_dice``): a label always one side's roll (``defense``: the defender's) is that side's. Any
other (``knockdown``, ``shock``) is the side of the one typing (the acting character's) unless the label names
another: ``defender_knockdown``, or by the character's name, ``black_guard_1_knockdown``. It is keyed
``defender:knockdown`` for the dice source, which gives it to that side's roll only (``DiceSource.rolling_for``).
Under secret rolls a player types only their own side's dice: a face for the NPC's side is refused in one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.errors import UserError
from content.input_guard import check_text

MAX_TEXT = 200
MAX_FACES = 50
MAX_FACE_DIGITS = 4  # the largest die is a d1000 (rules.dice_expr.MAX_SIDES)
# Faces are ASCII digits (``\d`` would take other scripts' digits, which int() may refuse).
_PAIR = re.compile(r"([A-Za-z][\w.]*)\s*[=:]\s*(-?[0-9]+(?:\s*,\s*-?[0-9]+)*)")
_BARE = re.compile(r"-?[0-9]+(?:\s*,\s*-?[0-9]+)*")


def parse_dice(text: str | None, labels: Iterable[str], default_label: str | None = None,
               read_label: Callable[[str], str] | None = None) -> dict[str, list[int]]:
    """``{label: [faces]}`` from the option text; ``default_label`` takes bare numbers (``/roll``); ``read_label``
    reads each typed label instead of the plain lookup (``side_dice``)."""
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
            label = read_label(pair.group(1)) if read_label is not None else _label(pair.group(1), known)
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


SIDE_KEY = ":"  # ``defender:knockdown``: the faces of the defender's knockdown roll


@dataclass(frozen=True)
class DiceSide:
    """One side of an action whose dice are typed: ``who`` (attacker or defender), its character's name, and
    whether the one typing may type its faces (not those of an NPC the GM keeps behind the screen)."""

    who: str
    name: str
    may_type: bool = True


def side_key(who: str, label: str) -> str:
    return f"{who}{SIDE_KEY}{label}"


def split_key(key: str) -> tuple[str | None, str]:
    """``defender:knockdown`` -> (``defender``, ``knockdown``); a label fixed to one side -> (None, label)."""
    who, sep, label = key.partition(SIDE_KEY)
    return (who, label) if sep else (None, key)


def _name_key(name: str) -> str:
    return "_".join(name.casefold().replace("-", " ").split())


def side_dice(text: str | None, labels: Iterable[str], label_sides: Mapping[str, str], sides: Sequence[DiceSide],
              default_label: str | None = None) -> dict[str, list[int]]:
    """``{key: [faces]}`` for the dice source: a label fixed to one side as it is, any other under its side's key.
    ``sides[0]`` is the side of the one typing (bare labels are theirs). A label naming the wrong side of a fixed
    label, or a face for a side the typer may not type, is one line; nothing is rolled."""
    known = {label.casefold(): label for label in labels}
    prefixes = sorted(((f"{side.who}_", side.who) for side in sides), key=lambda p: -len(p[0]))
    prefixes += sorted(((f"{_name_key(side.name)}_", side.who) for side in sides), key=lambda p: -len(p[0]))
    owners: dict[str, tuple[str, str]] = {}  # key -> (whose, as typed)

    def read(given: str) -> str:
        lowered = given.casefold()
        base = lowered.removesuffix(".botch")
        botch = ".botch" if base != lowered else ""
        side: str | None = None
        if base in known:
            label = known[base]
        else:
            found = next(((who, known[base[len(prefix):]]) for prefix, who in prefixes
                          if base.startswith(prefix) and base[len(prefix):] in known), None)
            if found is None:
                _label(given, known)  # the unknown label's line (it names the labels)
                raise AssertionError("unreachable")
            side, label = found
        fixed = label_sides.get(label)
        if fixed is not None and side is not None and side != fixed:
            raise UserError(f"dice: '{given}': {label} is always the {fixed}'s roll; type it as {label}=...")
        whose = fixed or side or sides[0].who
        key = label + botch if fixed is not None else side_key(whose, label + botch)
        owners[key] = (whose, given)
        return key

    forced = parse_dice(text, labels, default_label, read if sides else None)
    if default_label is not None and default_label in forced and sides and default_label not in label_sides:
        # bare faces for a roll the GM owes: that character's (the acting side's) roll
        owners[side_key(sides[0].who, default_label)] = (sides[0].who, default_label)
        forced.setdefault(side_key(sides[0].who, default_label), []).extend(forced.pop(default_label))
    barred = {side.who: side for side in sides if not side.may_type}
    refused = [f"{given}={','.join(map(str, forced[key]))}" for key, (whose, given) in owners.items()
               if whose in barred and key in forced]
    if refused:
        npc = next(iter(barred.values())).name
        mine = sorted({label for label in labels if label_sides.get(label, sides[0].who) not in barred})
        raise UserError(f"dice: {' '.join(refused)} would be {npc}'s roll, which the GM makes behind the screen; "
                        f"you may type {', '.join(mine)}; nothing was rolled")
    return forced
