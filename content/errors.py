"""Content errors name the file, the entry and the field, so a GM can find the mistake."""

from __future__ import annotations

from rules.errors import RulesError


class ContentError(RulesError):
    def __init__(self, file: str, entry: str | None = None, field: str | None = None, message: str = "") -> None:
        self.file = file
        self.entry = entry
        self.field = field
        self.message = message
        where = file
        if entry is not None:
            where += f": entry '{entry}'"
        if field:
            where += f": field '{field}'"
        super().__init__(f"{where}: {message}" if message else where)
