"""Validation helpers shared by every system's schema: pydantic models, located errors."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from content.errors import ContentError

M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    """Base for content schemas: unknown fields are mistakes, values are frozen once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


def validate(model: type[M], data: Any, file: str, entry: str | None = None) -> M:
    """``model`` from ``data``; the first problem becomes a ContentError naming file, entry, field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first.get("loc", ()))
        raise ContentError(file, entry, field or None, first.get("msg", "is not valid")) from None


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
