"""What every system's describer shares: the severity scale, ``OutcomeText`` and the small readers.

Every reader here is defensive: an engine may add fields or leave some out, and nothing here may raise
on a shape it does not know; unknown fields are listed under "Details" (``_details``) rather than lost.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from bot.services.event_records import StoredRoll
from bot.text_safety import Plain, label, plain


class Severity(Enum):
    """How bad a result is, ranked, with the embed colour it gets."""

    INFO = (0, 0x3498DB)
    NONE = (1, 0x95A5A6)
    LIGHT = (2, 0x2ECC71)
    SERIOUS = (3, 0xE67E22)
    GRIEVOUS = (4, 0xE74C3C)
    MORTAL = (5, 0x992D22)

    @property
    def rank(self) -> int:
        return self.value[0]

    @property
    def colour(self) -> int:
        return self.value[1]


def worst(*levels: Severity) -> Severity:
    return max(levels, key=lambda s: s.rank)


Field = tuple[str, str, bool]


@dataclass
class OutcomeText:
    """An outcome in words. ``brief`` holds the few lines the public message shows under the headline (the
    numbers in one line, then what happened because of them); ``fields`` hold every detail, for the Details
    button. ``brief`` None: the outcome is small enough that its fields are shown as they are."""

    headline: str
    fields: list[Field] = field(default_factory=list)
    severity: Severity = Severity.NONE
    brief: list[str] | None = None
    numbers: str | None = None  # the totals in one line (left out where the GM keeps an NPC's rolls secret)
    own_numbers: str | None = None  # ``numbers`` with only the actor's own totals (the target's rolls are secret)


# A brief line about life or death that the GM's decision settles (the decided message drops it).
MORTAL_MARK = "\U0001f480"


def plural(count: Any, noun: str, many: str | None = None) -> str:
    """``1 injury level``, ``3 injury levels``."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def joined(parts: Sequence[str | None]) -> str:
    """The non-empty parts as one line, ``a · b · c``."""
    return " \u00b7 ".join(p for p in parts if p)


# -- small readers ------------------------------------------------------------------------------

def human(name: Any) -> str:
    """``weapon_dropped`` -> ``weapon dropped``, as plain text (an engine's value may be a pack's name)."""
    if isinstance(name, Plain):
        return name
    return plain(str(name).replace("_", " ").replace("-", " ").strip())


def title(name: Any) -> str:
    text = human(name)
    return text[:1].upper() + text[1:]


def text(value: Any) -> str:
    """Any JSON value as short plain text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return signed(value) if isinstance(value, int) and value < 0 else f"{value:g}"
    if isinstance(value, str):  # names from a pack or a sheet: shown as plain text
        return human(value) if value.isidentifier() else plain(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{human(k)} {text(v)}" for k, v in value.items()) or "none"
    if isinstance(value, Sequence):
        return ", ".join(text(v) for v in value) or "none"
    return str(value)


def label_text(value: Any) -> str:
    """A dice label inside backticks: a backtick cannot close the code span early."""
    return label(value).replace("`", "'")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"\u2212{-value}" if value < 0 else "0")


def _num(value: Any) -> str:
    return text(value) if value is not None else "?"


def check_line(check: Any) -> str:
    """A {total, ease_factor|target, passed|result} check as ``12 vs 9: passed``."""
    if not isinstance(check, Mapping):
        return text(check)
    total = check.get("total", check.get("roll"))
    against = check.get("ease_factor", check.get("target", check.get("goal")))
    line = _num(total)
    if against is not None:
        line += f" vs {_num(against)}"
    if "passed" in check and check["passed"] is not None:
        line += ": **passed**" if check["passed"] else ": **failed**"
    elif check.get("result"):
        line += f": **{human(check['result'])}**"
    elif "passed" in check:
        line += ": waiting for the GM"
    return line


_SYSTEM_D20 = re.compile(r"d20 (?:pendragon|fading-suns)")  # a roll kind that names its system: just "d20"
# dice whose total is their faces' sum unless something was added (not a d10, whose 0 face reads 10, nor a stress
# die or a kind that names its own modifier, "5d6-1")
_SUMMED = re.compile(r"[0-9]*d(?:[0-9]|[02-9][0-9]|1[1-9]|[0-9]{3,})")


def _added(kind: str, faces: Sequence[Any], total: Any) -> str:
    """`` + 2`` where a roll's total differs from its faces (a Pendragon target over 20 adds its excess)."""
    if not (_SYSTEM_D20.fullmatch(kind) or _SUMMED.fullmatch(kind)) or not isinstance(total, int) \
            or not faces or not all(isinstance(f, int) for f in faces):
        return ""
    difference = total - sum(faces)
    if difference == 0:
        return ""
    return f" + {difference}" if difference > 0 else f" \u2212 {-difference}"
_BOTCH_DICE = re.compile(r"([0-9]+)d10 botch")


def roll_line(roll: StoredRoll) -> str:
    """One roll as ``attack stress [1, 4] = 8 (exploded)``, in the game's words: a Pendragon or Fading Suns roll is
    ``d20 [6] = 6 vs 12: success`` (not "d20 pendragon"), Ars Magica's botch dice ``healing botch die [7]: no
    botch`` (not "healing.botch 1d10 botch [7] = 0"); a total that differs from its faces shows what was added
    (``d20 [18] + 2 = 20``)."""
    faces = roll.faces
    shown = ", ".join(str(f) for f in faces)
    kind, name = roll.kind, roll.label
    botch = _BOTCH_DICE.fullmatch(kind)
    if botch:
        count, found = int(botch[1]), roll.total or 0
        dice = "botch die" if count == 1 else f"{count} botch dice"
        said = plural(found, "botch", "botches") if found else "no botch"
        return f"{human(name.removesuffix('.botch'))} {dice} [{shown}]: **{said}**"
    words = "d20" if _SYSTEM_D20.fullmatch(kind) else plain(kind)  # "5d6-1" keeps its minus
    # the roll by its name in words ("major wound"), not its dice key in code ("`major_wound`"): issue 34
    line = f"{human(name)} {words} [{shown}]{_added(kind, faces, roll.total)} = **{roll.total}**"
    if roll.target is not None:
        goal = "goal " if kind == "d20 fading-suns" else ""
        line += f" vs {goal}{roll.target}"
    if roll.result:
        line += f": {human(roll.result)}"
    if roll.victory_points:
        line += f", {roll.victory_points} VP"
    flags = [human(f) for f in roll.flags if f != "botch"]
    if roll.botches:
        flags.append(f"{roll.botches} botch{'es' if roll.botches != 1 else ''}")
    if flags:
        line += f" ({', '.join(flags)})"
    return line


def rolls_value(rolls: Sequence[StoredRoll], limit: int = 1000) -> str:
    """All roll lines, cut at a line boundary with a count of those left out."""
    lines = [roll_line(r) for r in rolls]
    out: list[str] = []
    used = 0
    for number, line in enumerate(lines):
        if used + len(line) + 1 > limit - 24:
            out.append(f"\u2026 and {len(lines) - number} more")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out) or "no dice rolled"


def _brief(value: Any) -> str | None:
    """A leftover value worth showing, or None: false, empty and all-zero values say nothing."""
    if value is None or value is False or value == [] or value == {} or value == "":
        return None
    if isinstance(value, Mapping):
        shown = {k: v for k, v in value.items() if _brief(v) is not None and v != 0}
        return text(shown) if shown else None
    return text(value)


def _details(outcome: Mapping[str, Any], used: set[str]) -> list[Field]:
    lines = []
    for key, value in outcome.items():
        if key in used or key in _NEVER_SHOWN:
            continue
        shown = _brief(value)
        if shown is not None:
            lines.append(f"{title(key)}: {shown}")
    return [("Details", "\n".join(lines), False)] if lines else []


# Bookkeeping fields the engines return that a player does not need to read.
_NEVER_SHOWN = {"gm_decision", "attacker", "defender", "rolls", "system", "action", "pending", "events", "loser",
                "wound_index", "damage_roll_total", "attack_die", "defense_die", "declared_aim", "defense_rolled",
                "location_roll", "saved_points_cap", "rolled_result", "side", "who", "name", "character",
                "hit_points_after", "decisions", "gm_decisions", "weapons_lost", "pending_rolls", "deadline",
                "decision", "choice", "kind", "healer", "patient"}


def modifiers(value: Any) -> str:
    """``{dex: 1, ability: 5, wounds: 0}`` as ``dex +1, ability +5`` (zeros left out)."""
    if not isinstance(value, Mapping):
        return ""
    return ", ".join(f"{human(k)} {signed(v)}" for k, v in value.items() if isinstance(v, int) and v)

