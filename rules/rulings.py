"""Rulings checked one way for every engine and for the bot, against each ``Ruling`` declaration.

An engine overlays its defaults with a scenario's overrides (``overlay``) and builds its own typed
rulings from the result; the bot turns what a GM typed into a typed value (``parse_value``). A bad
name or value is one RulesError line that names the ruling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import RulesError
from rules.model import Ruling

Value = str | int | bool

TEXT_LIMIT = 100
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def overlay(rulings: Sequence[Ruling], given: Any, system: str) -> dict[str, Value]:
    """Every ruling's default, overlaid with ``given`` (None: no overrides); unknown names and bad values raise."""
    values: dict[str, Value] = {s.name: s.default for s in rulings}
    if given is None:
        return values
    if not isinstance(given, Mapping):
        raise RulesError("rulings must be a mapping of ruling name to value")
    known = {s.name: s for s in rulings}
    for name, value in given.items():
        ruling = known.get(name) if isinstance(name, str) else None
        if ruling is None:
            raise RulesError(f"unknown ruling '{name}' ({system} rulings: {', '.join(known) or 'none'})")
        values[ruling.name] = check_value(ruling, value)
    return values


def check_value(ruling: Ruling, value: Any) -> Value:
    """``value`` if it is one ``ruling`` allows (of its default's type, in its range or choices)."""
    default = ruling.default
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool) and _in_range(ruling, value):
            return value
    elif ruling.choices:
        if isinstance(value, str) and value in ruling.choices:
            return value
    elif isinstance(value, str) and 0 < len(value) <= TEXT_LIMIT:
        return value
    raise _refused(ruling, value)


def parse_value(ruling: Ruling, text: str) -> Value:
    """A typed value for ``ruling`` from typed text (true/yes/on/1, a whole number, a choice in any case)."""
    typed = text.strip()
    default = ruling.default
    value: Value = typed
    if isinstance(default, bool):
        if typed.casefold() not in _TRUE | _FALSE:
            raise _refused(ruling, text)
        value = typed.casefold() in _TRUE
    elif isinstance(default, int):
        try:
            value = int(typed)
        except ValueError:
            raise _refused(ruling, text) from None
    elif ruling.choices:
        value = next((c for c in ruling.choices if c.casefold() == typed.casefold()), typed)
    return check_value(ruling, value)


def _in_range(ruling: Ruling, value: int) -> bool:
    return (ruling.low is None or value >= ruling.low) and (ruling.high is None or value <= ruling.high)


def _refused(ruling: Ruling, value: Any) -> RulesError:
    default = ruling.default
    if isinstance(default, bool):
        wanted = "true or false"
    elif isinstance(default, int):
        wanted = "a whole number" + _range_text(ruling.low, ruling.high)
    elif ruling.choices:
        wanted = f"one of {', '.join(ruling.choices)}"
    else:  # free text: too long to echo, or empty
        return RulesError(f"ruling '{ruling.name}' must be text of 1 to {TEXT_LIMIT} characters")
    return RulesError(f"ruling '{ruling.name}' must be {wanted}, not {value!r}")


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""
