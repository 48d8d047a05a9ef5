"""Initiative faces typed at the table, and whose they are.

Two forms (docs/commands.md, /encounter initiative):

- by name: ``Wulf=9; Archer 1=1,4`` (``;`` or a space between entries). Each named combatant's faces are
  read in the order that combatant's roll needs them (a stress die's 1 takes the next face as its
  re-roll, its 0 the next faces as botch dice); those not named are rolled, and the reply says so.
- in turn order: ``initiative=9,1,4``: one list for everyone, read down the tracker as each roll needs it.

Either way a face list that does not fit (too few faces, faces left over, a name not in the fight) is one
line that changes nothing: no face is ever replaced by a random roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from random import Random

from bot.errors import UserError
from content.input_guard import check_text
from rules.dice import DiceSource

MAX_TEXT = 300
MAX_FACES = 60
LABEL = "initiative"
ALIASES = {f"{LABEL}.botch": LABEL}
_ENTRY = re.compile(r"\s*([^=;,]+?)\s*[=:]\s*(-?[0-9]{1,4}(?:\s*,\s*-?[0-9]{1,4})*)\s*;?")


@dataclass
class TypedFaces:
    """The faces one /encounter initiative was given: by combatant name, or one list in turn order."""

    combatants: list[str]
    by_name: dict[str, list[int]] = field(default_factory=dict)
    in_order: list[int] | None = None

    @property
    def given(self) -> bool:
        return bool(self.by_name) or self.in_order is not None

    def names(self, name: str) -> bool:
        return name in self.by_name

    def positional_source(self, rng: Random) -> DiceSource | None:
        if self.in_order is None:
            return None
        return DiceSource({LABEL: list(self.in_order)}, rng=rng, aliases=ALIASES, strict=True)

    def source_for(self, name: str, rng: Random) -> DiceSource:
        faces = self.by_name.get(name)
        if faces is None:
            return DiceSource(rng=rng)
        return DiceSource({LABEL: list(faces)}, rng=rng, aliases=ALIASES, strict=True)

    def ran_out(self, name: str, why: str) -> str:
        if self.in_order is not None:
            return (f"initiative: the {len(self.in_order)} faces ran out at {name} (a stress die's 1 takes the "
                    f"next face as its re-roll): nothing changed. Give one roll per combatant, or name them: "
                    f"{self.example()}")
        if "impossible" in why:
            return f"initiative: {name}: {why.removeprefix('dice: ')}: nothing changed"
        return (f"initiative: {name}'s faces {self.by_name.get(name)} ran out (a 1 on a stress die rolls again, "
                f"a 0 rolls botch dice): nothing changed")

    def check_used(self, name: str, dice: DiceSource) -> None:
        left = dice.unused().get(LABEL)
        if left:
            raise UserError(f"initiative: {name}'s roll needed fewer faces: {left} left over. Nothing changed")
        if name in self.by_name and LABEL not in {r.label.split(".")[0] for r in dice.rolls}:
            raise UserError(f"initiative: {name}'s initiative rolls no die here: no faces to type. Nothing changed")

    def check_positional_used(self, dice: DiceSource) -> None:
        left = dice.unused().get(LABEL)
        if left:
            raise UserError(f"initiative: {len(left)} face{'s' if len(left) != 1 else ''} left over ({left}) after "
                            f"{len(self.combatants)} combatants: nothing changed. Name them: {self.example()}")
        if not any(r.label.split(".")[0] == LABEL for r in dice.rolls):
            raise UserError("initiative: this system's initiative rolls no die: no faces to type. Nothing changed")

    def example(self) -> str:
        return "; ".join(f"{name}=7" for name in self.combatants[:2]) or "Name=7"


def parse(combatants: list[str], text: str | None) -> TypedFaces:
    """The typed faces, checked against the combatants' names (case and spacing aside)."""
    typed = TypedFaces(list(combatants))
    if text is None or not text.strip():
        return typed
    check_text(text, "dice", MAX_TEXT)
    known = {_key(name): name for name in combatants}
    position, rest = 0, text.strip()
    count = 0
    while position < len(rest):
        match = _ENTRY.match(rest, position)
        if match is None:
            word = rest[position:].split()[0] if rest[position:].split() else rest[position:]
            raise UserError(f"initiative: cannot read '{word[:40]}': write Name=faces, e.g. {typed.example()}")
        given, faces = match.group(1), [int(f) for f in match.group(2).split(",")]
        count += len(faces)
        position = match.end()
        key = _key(given)
        if key == LABEL and key not in known:
            if typed.by_name or typed.in_order is not None:
                raise UserError("initiative: give the faces by name or as one initiative= list, not both")
            typed.in_order = faces
            continue
        name = known.get(key)
        if name is None:
            allowed = ", ".join(combatants[:25]) or "nobody yet"
            raise UserError(f"initiative: '{given[:60]}' is not in the fight (combatants: {allowed}). "
                            "Nothing changed")
        if typed.in_order is not None:
            raise UserError("initiative: give the faces by name or as one initiative= list, not both")
        if name in typed.by_name:
            raise UserError(f"initiative: {name} is named twice: give all of a roll's faces at once ({name}=1,4)")
        typed.by_name[name] = faces
    if count > MAX_FACES:
        raise UserError(f"initiative: at most {MAX_FACES} faces")
    return typed


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()
