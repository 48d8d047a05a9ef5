"""Rulings checked one way for every engine and for the bot, against each ``Setting`` declaration.

An engine overlays its defaults with a scenario's overrides (``overlay``) and builds its own typed
rulings from the result; the bot turns what a GM typed into a typed value (``parse_value``). A bad
name or value is one RulesError line that names the setting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import RulesError
from rules.model import Setting

Value = str | int | bool

TEXT_LIMIT = 100
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def overlay(settings: Sequence[Setting], given: Any, system: str) -> dict[str, Value]:
    """Every setting's default, overlaid with ``given`` (None: no overrides); unknown names and bad values raise."""
    values: dict[str, Value] = {s.name: s.default for s in settings}
    if given is None:
        return values
    if not isinstance(given, Mapping):
        raise RulesError("settings must be a mapping of setting name to value")
    known = {s.name: s for s in settings}
    for name, value in given.items():
        setting = known.get(name) if isinstance(name, str) else None
        if setting is None:
            raise RulesError(f"unknown setting '{name}' ({system} settings: {', '.join(known) or 'none'})")
        values[setting.name] = check_value(setting, value)
    return values


def check_value(setting: Setting, value: Any) -> Value:
    """``value`` if it is one ``setting`` allows (of its default's type, in its range or choices)."""
    default = setting.default
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool) and _in_range(setting, value):
            return value
    elif setting.choices:
        if isinstance(value, str) and value in setting.choices:
            return value
    elif isinstance(value, str) and 0 < len(value) <= TEXT_LIMIT:
        return value
    raise _refused(setting, value)


def parse_value(setting: Setting, text: str) -> Value:
    """A typed value for ``setting`` from typed text (true/yes/on/1, a whole number, a choice in any case)."""
    typed = text.strip()
    default = setting.default
    value: Value = typed
    if isinstance(default, bool):
        if typed.casefold() not in _TRUE | _FALSE:
            raise _refused(setting, text)
        value = typed.casefold() in _TRUE
    elif isinstance(default, int):
        try:
            value = int(typed)
        except ValueError:
            raise _refused(setting, text) from None
    elif setting.choices:
        value = next((c for c in setting.choices if c.casefold() == typed.casefold()), typed)
    return check_value(setting, value)


def _in_range(setting: Setting, value: int) -> bool:
    return (setting.low is None or value >= setting.low) and (setting.high is None or value <= setting.high)


def _refused(setting: Setting, value: Any) -> RulesError:
    default = setting.default
    if isinstance(default, bool):
        wanted = "true or false"
    elif isinstance(default, int):
        wanted = "a whole number" + _range_text(setting.low, setting.high)
    elif setting.choices:
        wanted = f"one of {', '.join(setting.choices)}"
    else:  # free text: too long to echo, or empty
        return RulesError(f"setting '{setting.name}' must be text of 1 to {TEXT_LIMIT} characters")
    return RulesError(f"setting '{setting.name}' must be {wanted}, not {value!r}")


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""
