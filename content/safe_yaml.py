"""YAML in, plain data out: ``safe_load`` only, with a size cap and an alias cap.

A file over the size cap is refused before it is parsed; a document with more aliases than any
honest sheet or pack needs (the "billion laughs" shape) is refused before it is built.
"""

from __future__ import annotations

from typing import Any

import yaml

from content.errors import ContentError

MAX_BYTES = 512 * 1024
MAX_ALIASES = 64


def load_yaml(text: str | bytes, source: str, *, max_bytes: int = MAX_BYTES) -> Any:
    """Parse one YAML (or JSON, which is YAML) document safely; errors name ``source`` and the line."""
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > max_bytes:
        raise ContentError(source, message=f"is {size} bytes, over the {max_bytes}-byte limit")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ContentError(source, message="is not UTF-8 text") from exc
    try:
        aliases = sum(1 for event in yaml.parse(text, Loader=yaml.SafeLoader) if isinstance(event, yaml.AliasEvent))
        if aliases > MAX_ALIASES:
            raise ContentError(source, message=f"uses {aliases} YAML aliases (at most {MAX_ALIASES})")
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = exc.problem or str(exc)
        if "python/" in str(exc) or "could not determine a constructor" in problem:
            problem = "tags such as !!python/object are not allowed"
        raise ContentError(source, message=f"is not valid YAML ({where}{problem})") from exc
    except yaml.YAMLError as exc:
        raise ContentError(source, message=f"is not valid YAML ({exc})") from exc
