"""What a system's character sheet holds, field by field, and the check that reports every mistake at once.

A ``SheetSpec`` is built by the content pack from the system's ``sheet.yaml`` (meanings, ranges, template
values): one source for the engine's first check of a sheet, the bot's sheet template and its help.
``SheetSpec.check`` looks at the top level of a sheet only (unknown fields, missing ones, kinds, ranges,
pack names); the engine then parses the details, such as inline weapons and the state the bot keeps.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from rules.errors import SheetError

# How a field's value is written on a sheet.
KINDS = (
    "text",     # a short text (the name)
    "number",   # a whole number from low to high
    "decimal",  # a number from low to high (kg)
    "choice",   # one of ``choices``
    "flag",     # true or false
    "scores",   # a mapping of names to whole numbers from low to high (skills, abilities)
    "items",    # a list of names from the pack's ``items`` list, or inline mappings the engine reads
    "item",     # one name from the pack's ``items`` list, an inline mapping, or nothing
    "kept",     # state the bot keeps (wounds, conditions): checked by the engine, not written by players
)
MAX_ENTRIES = 200
_SEPARATORS = re.compile(r"[\s_\-]+")


def name_key(name: str) -> str:
    """How a written name is matched in every system: case, spaces, underscores and hyphens do not matter
    ("Rapier" is "rapier", "chain mail" is "chainmail", "Main-Gauche" is "main gauche")."""
    return _SEPARATORS.sub("", name.strip().casefold())


class SheetProblems(SheetError):
    """Every problem found on a sheet; ``str()`` is one line, ``problems`` the separate items."""

    def __init__(self, message: str, problems: Sequence[str] = (), who: str = "") -> None:
        super().__init__(message)
        self.problems = tuple(problems) or (message,)
        self.who = who


class ItemSource(Protocol):
    """The pack a sheet's names are checked against (every system's catalog)."""

    def sheet_names(self, items: str) -> Sequence[str]:
        """The names a sheet may use for ``items`` (weapons, armour, horses, shields, skills)."""
        ...

    def item_problem(self, items: str, name: str) -> str | None:
        """Why ``name`` is not one of the pack's ``items`` (with close matches), or None if it is."""
        ...


@dataclass(frozen=True)
class SheetField:
    name: str
    kind: str
    label: str  # a few words: "Strength"
    meaning: str = ""  # one short sentence for the template and /help
    required: bool = False
    default: Any = None  # the template's value; None: left out (the engine derives it)
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    items: str = ""  # which pack list a name comes from ("weapons", "armour", ...)
    names: tuple[str, ...] = ()  # scores: the names the rules use
    closed: bool = False  # scores: only ``names`` are allowed

    @property
    def player(self) -> bool:
        """A field a player writes (the rest is state the bot keeps)."""
        return self.kind != "kept"

    def range_text(self) -> str:
        """The values this field takes, in a few words."""
        if self.kind in ("number", "decimal", "scores") and self.low is not None and self.high is not None:
            return f"{_num(self.low)} to {_num(self.high)}"
        if self.kind == "text" and self.high is not None:
            return f"1 to {_num(self.high)} characters" if self.required else f"up to {_num(self.high)} characters"
        if self.kind == "choice":
            return " or ".join(self.choices) if len(self.choices) <= 2 else f"one of {', '.join(self.choices)}"
        if self.kind == "flag":
            return "true or false"
        return ""

    def describe(self) -> str:
        """The label and range, as an error or /help shows them: "Strength, -10 to 10"."""
        rng = self.range_text()
        return f"{self.label}, {rng}" if rng else self.label


@dataclass(frozen=True)
class SheetSpec:
    system: str
    fields: tuple[SheetField, ...]
    aliases: Mapping[str, str]  # other spellings a sheet may use for a field (armor: armour)
    hints: Mapping[str, str] = field(default_factory=dict)  # a name people try -> the field they mean

    def field_named(self, name: str) -> SheetField:
        for candidate in self.fields:
            if candidate.name == name:
                return candidate
        raise KeyError(name)

    @cached_property
    def _by_name(self) -> dict[str, SheetField]:
        return {f.name: f for f in self.fields}

    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def player_fields(self) -> tuple[SheetField, ...]:
        return tuple(f for f in self.fields if f.player)

    def problems(self, sheet: Mapping[str, Any], pack: ItemSource) -> list[str]:
        """Every top-level mistake on ``sheet``, one short clause each, in the order of the spec."""
        out: list[str] = []
        known = self._by_name
        given: dict[str, Any] = {}
        spelt: dict[str, str] = {}  # field -> the key the sheet used for it
        for key, value in sheet.items():
            if not isinstance(key, str):
                out.append(f"field names must be text, not {_shown(key)}")
                continue
            name = self.aliases.get(key, key)
            if name not in known:
                out.append(_unknown(key, [*known, *self.aliases], {**self.score_hints(pack), **self.hints}))
            elif name in given:
                other = key if key != name else spelt[name]
                out.append(f"give field '{name}' once, not also as '{other}'")
            else:
                given[name] = value
                spelt[name] = key
        for spec in self.fields:
            if given.get(spec.name) is not None:
                problem = _check(spec, given[spec.name], pack)
                if problem:
                    out.append(problem)
            elif spec.required:
                out.append(f"field '{spec.name}' is missing: {spec.describe()}")
        return out

    def score_hints(self, pack: ItemSource) -> dict[str, str]:
        """A score written as a field of its own ("Sword: 15") -> where it goes (``skills.sword``)."""
        hints: dict[str, str] = {}
        for spec in self.fields:
            if spec.kind == "scores":
                for entry in (*spec.names, *(pack.sheet_names(spec.items) if spec.items else ())):
                    hints.setdefault(name_key(entry), f"{spec.name}.{entry}")
        return hints

    def check(self, sheet: Mapping[str, Any], who: str, pack: ItemSource) -> None:
        """Raise ``SheetProblems`` listing every problem ``problems`` finds, if there is one."""
        found = self.problems(sheet, pack)
        if not found:
            return
        if len(found) == 1:
            raise SheetProblems(f"{who}: {found[0]}", found, who)
        raise SheetProblems(f"{who}: {len(found)} fields to fix: {'; '.join(found)}", found, who)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _unknown(key: str, known: Sequence[str], hints: Mapping[str, str]) -> str:
    wanted = key.lower()
    hinted = hints.get(wanted) or hints.get(name_key(key))
    close = [hinted] if hinted else difflib.get_close_matches(wanted, known, n=1, cutoff=0.7)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown field {_quoted(key)}{hint}"


def _quoted(text: str) -> str:
    """``text`` in quotes, with line breaks escaped so that a problem stays one line."""
    shown = text if len(text) <= 40 else text[:40] + "…"
    return "'" + shown.replace("\r", "\\r").replace("\n", "\\n") + "'"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _in_range(spec: SheetField, value: float) -> bool:
    return (spec.low is None or value >= spec.low) and (spec.high is None or value <= spec.high)


def _range_problem(spec: SheetField, value: float) -> str | None:
    if _in_range(spec, value):
        return None
    return f"field '{spec.name}' must be {spec.range_text()} ({spec.label}), not {value}"


def _check(spec: SheetField, value: Any, pack: ItemSource) -> str | None:
    """What is wrong with ``value`` for ``spec``, or None."""
    name = spec.name
    if spec.kind == "number":
        if not _whole(value):
            return f"field '{name}' must be a whole number ({spec.describe()}), not {_shown(value)}"
        return _range_problem(spec, value)
    if spec.kind == "decimal":
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return f"field '{name}' must be a number ({spec.describe()}), not {_shown(value)}"
        return _range_problem(spec, value)
    if spec.kind == "text":
        if not isinstance(value, str) or (spec.required and not value.strip()):
            return f"field '{name}' must be text ({spec.describe()}), not {_shown(value)}"
        too_long = spec.high is not None and len(value.strip()) > spec.high
        return f"field '{name}' must be {spec.range_text()} ({spec.label})" if too_long else None
    if spec.kind == "choice":
        return None if value in spec.choices else f"field '{name}' must be {spec.range_text()} ({spec.label}), " \
                                                  f"not {_shown(value)}"
    if spec.kind == "flag":
        return None if isinstance(value, bool) else f"field '{name}' must be true or false, not {_shown(value)}"
    if spec.kind == "scores":
        return _check_scores(spec, value)
    if spec.kind == "items":
        return _check_items(spec, value, pack)
    if spec.kind == "item":
        if value is None or isinstance(value, Mapping):
            return None
        if not isinstance(value, str):
            return f"field '{name}' must be a name from the pack ({spec.label}), not {_shown(value)}"
        problem = pack.item_problem(spec.items, value)
        return f"field '{name}': {problem}" if problem else None
    return None  # kept: the engine checks it


def _check_scores(spec: SheetField, value: Any) -> str | None:
    name = spec.name
    if value is None:
        return None
    if not isinstance(value, Mapping):
        return f"field '{name}' must be a list of name: number pairs ({spec.label}), not {_shown(value)}"
    if len(value) > MAX_ENTRIES:
        return f"field '{name}' holds more than {MAX_ENTRIES} entries"
    for entry, score in value.items():
        # A line break or control character in a name would break the one-line error it is quoted in.
        if not isinstance(entry, str) or not entry.strip() or len(entry) > 100 or not entry.isprintable():
            return f"field '{name}' has a name that is not short text: {_shown(entry)}"
        if spec.closed and entry not in spec.names:
            close = difflib.get_close_matches(entry, spec.names, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(spec.names)}"
            return f"field '{name}' has unknown entry {_quoted(entry)} ({hint})"
        if not _whole(score) or not _in_range(spec, score):
            return f"field '{name}.{entry.strip()}' must be a whole number {spec.range_text()}, not {_shown(score)}"
    return None


def _check_items(spec: SheetField, value: Any, pack: ItemSource) -> str | None:
    name = spec.name
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        return f"field '{name}' must be a list, like [{', '.join(pack.sheet_names(spec.items)[:2])}]"
    if len(value) > MAX_ENTRIES:
        return f"field '{name}' holds more than {MAX_ENTRIES} entries"
    wrong: list[str] = []
    for entry in value:
        if isinstance(entry, str):
            problem = pack.item_problem(spec.items, entry)
            if problem:
                wrong.append(problem)
        elif not isinstance(entry, Mapping):
            wrong.append(f"{_shown(entry)} is not a name")
    return f"field '{name}': {'; '.join(wrong)}" if wrong else None
