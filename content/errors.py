"""Content errors name the file, the entry and the field, so a GM can find the mistake."""

from __future__ import annotations

from rules.errors import RulesError


def _rebuilt(cls: type[ContentError], args: tuple[object, ...], state: dict[str, object]) -> ContentError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class ContentError(RulesError):
    def __reduce__(self) -> tuple[object, ...]:
        # Intact across a pickle (its fields, and a PackProblems' list): packs are built in another process.
        return _rebuilt, (type(self), self.args, dict(self.__dict__))

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


class PackProblems(ContentError):
    """Every mistake found in a homebrew pack, each a ContentError naming the file, the entry and the field;
    ``more`` counts those past the ones listed."""

    def __init__(self, problems: list[ContentError], more: int = 0) -> None:
        first = problems[0]
        super().__init__(first.file, first.entry, first.field, first.message)
        self.problems = problems
        self.more = more

    def lines(self) -> list[str]:
        """One line per mistake, the file named as the GM named it (``weapons.yaml``, in every system)."""
        out = []
        for problem in self.problems:
            plain = ContentError(problem.file.rpartition("/")[2], problem.entry, problem.field, problem.message)
            out.append(str(plain))
        return out
