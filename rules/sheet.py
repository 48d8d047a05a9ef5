"""Reading plain-mapping sheets safely: every mistake becomes a SheetError naming who and which field.

Engines parse the JSON-like sheets they are given through these helpers, so a sheet typed by a
player (or uploaded to the bot) can never surface as a KeyError or TypeError.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import SheetError

_MISSING: Any = object()


def _where(who: str, key: str) -> str:
    return f"{who}: field '{key}'" if who else f"field '{key}'"


def as_mapping(value: Any, who: str, key: str = "") -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SheetError(f"{_where(who, key) if key else who} must be a mapping")
    return value


def get_int(sheet: Mapping[str, Any], key: str, who: str, default: Any = _MISSING,
            low: int | None = None, high: int | None = None) -> int:
    value = sheet.get(key, default)
    if value is _MISSING:
        raise SheetError(f"{_where(who, key)} is missing")
    if isinstance(value, bool) or not isinstance(value, int):
        raise SheetError(f"{_where(who, key)} must be a whole number, not {value!r}")
    if low is not None and value < low:
        raise SheetError(f"{_where(who, key)} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise SheetError(f"{_where(who, key)} must be at most {high}, not {value}")
    return value


def get_float(sheet: Mapping[str, Any], key: str, who: str, default: Any = _MISSING,
              low: float | None = None) -> float:
    value = sheet.get(key, default)
    if value is _MISSING:
        raise SheetError(f"{_where(who, key)} is missing")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SheetError(f"{_where(who, key)} must be a number, not {value!r}")
    if low is not None and value < low:
        raise SheetError(f"{_where(who, key)} must be at least {low}, not {value}")
    return float(value)


def get_str(sheet: Mapping[str, Any], key: str, who: str, default: Any = _MISSING,
            choices: Sequence[str] | None = None) -> str:
    value = sheet.get(key, default)
    if value is _MISSING:
        raise SheetError(f"{_where(who, key)} is missing")
    if not isinstance(value, str):
        raise SheetError(f"{_where(who, key)} must be text, not {value!r}")
    if choices is not None and value not in choices:
        raise SheetError(f"{_where(who, key)} must be one of {', '.join(choices)}, not {value!r}")
    return value


def get_bool(sheet: Mapping[str, Any], key: str, who: str, default: bool = False) -> bool:
    value = sheet.get(key, default)
    if not isinstance(value, bool):
        raise SheetError(f"{_where(who, key)} must be true or false, not {value!r}")
    return value


def get_list(sheet: Mapping[str, Any], key: str, who: str, default: Any = _MISSING) -> list[Any]:
    value = sheet.get(key, default)
    if value is _MISSING:
        raise SheetError(f"{_where(who, key)} is missing")
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise SheetError(f"{_where(who, key)} must be a list")
    return list(value)


def get_mapping(sheet: Mapping[str, Any], key: str, who: str, default: Any = _MISSING) -> Mapping[str, Any]:
    value = sheet.get(key, default)
    if value is _MISSING:
        raise SheetError(f"{_where(who, key)} is missing")
    return as_mapping(value, who, key)
