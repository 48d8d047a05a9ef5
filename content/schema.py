"""Validation helpers shared by every system's schema: pydantic models, located errors."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from content.errors import ContentError

M = TypeVar("M", bound=BaseModel)
# No weight, range, bonus, table entry or day count in the three games comes near a million; the bound
# keeps every number a pack or scenario gives the engines small, whatever a field's own bounds say.
MAX_NUMBER = 1_000_000


class Strict(BaseModel):
    """Base for content schemas: unknown fields are mistakes, values are frozen once loaded, and every
    number is finite and within +-MAX_NUMBER (in lists and mappings too)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, allow_inf_nan=False)

    @field_validator("*", mode="after")
    @classmethod
    def _numbers_bounded(cls, value: Any) -> Any:
        if _out_of_range(value):
            raise ValueError(f"numbers here run from -{MAX_NUMBER:,} to {MAX_NUMBER:,}")
        return value


def _out_of_range(value: Any, depth: int = 0) -> bool:
    """A number past MAX_NUMBER in ``value``, or in its lists and number tables (``dict[str, int]``) two
    levels down. Mappings of mappings are named entries, each validated (and so bounded) on its own."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return not -MAX_NUMBER <= value <= MAX_NUMBER
    if depth < 2 and isinstance(value, list | tuple):
        return any(_out_of_range(item, depth + 1) for item in value)
    if depth < 2 and isinstance(value, Mapping):
        return any(_out_of_range(item, depth + 1) for item in value.values() if not isinstance(item, Mapping))
    return False


def validate(model: type[M], data: Any, file: str, entry: str | None = None) -> M:
    """``model`` from ``data``; the first problem becomes a ContentError naming file, entry, field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        every = [ContentError(file, entry, ".".join(str(part) for part in error.get("loc", ())) or None,
                              _plain_words(error, model)) for error in exc.errors()]
        first = every[0]
        found = ContentError(file, entry, first.field, first.message)
        found.every = every  # type: ignore[attr-defined]  # all of them, for an answer that lists every mistake
        raise found from None


def _plain_words(error: Mapping[str, Any], model: type[BaseModel]) -> str:
    """Pydantic's message in the words a GM reads, the same in every system's pack."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        loc = error.get("loc", ())
        known = ", ".join(model.model_fields) if len(loc) == 1 else ""
        return "is not a field here" + (f" (fields: {known})" if known else "")
    words = {
        "int_parsing": "must be a whole number", "int_type": "must be a whole number",
        "int_from_float": "must be a whole number", "float_parsing": "must be a number",
        "float_type": "must be a number",
        "bool_parsing": "must be true or false", "bool_type": "must be true or false", "string_type": "must be text",
        "list_type": "must be a list", "dict_type": "must be a mapping", "model_type": "must be a mapping of fields",
        "model_attributes_type": "must be a mapping of fields", "too_short": "must not be empty",
        "string_too_short": "must not be empty",
    }
    if kind in words:
        return words[kind]
    bounds = {"greater_than_equal": ("ge", "at least"), "greater_than": ("gt", "more than"),
              "less_than_equal": ("le", "at most"), "less_than": ("lt", "less than")}
    if kind in bounds and bounds[kind][0] in ctx:
        key, how = bounds[kind]
        return f"must be {how} {ctx[key]}"
    if kind == "literal_error" and "expected" in ctx:
        return f"must be one of {ctx['expected']}"
    return str(error.get("msg", "is not valid")).removeprefix("Value error, ")


def entries(doc: Any, file: str, key: str) -> Iterator[tuple[str, Any]]:
    """The name -> data pairs under ``key`` of a pack file (a mapping of named entries)."""
    if not isinstance(doc, Mapping):
        raise ContentError(file, message="must be a mapping at the top level")
    section = doc.get(key)
    if not isinstance(section, Mapping) or not section:
        raise ContentError(file, field=key, message="must be a non-empty mapping of named entries")
    for name, data in section.items():
        if not isinstance(name, str):
            raise ContentError(file, str(name), message="entry names must be text")
        yield name, data


def require(doc: Any, file: str, key: str) -> Any:
    if not isinstance(doc, Mapping) or key not in doc:
        raise ContentError(file, field=key, message="is missing")
    return doc[key]
