"""Reading what a person types in the playground.

    /attack target:Bjorn weapon:broadsword aspect:edge aim:high
    /character create name:"Old Bjorn" stats:"str=2 sta=1"
    :as alice          act as another member
    :click 1           press the first button of the last message that has buttons
    :channel tavern    switch channel
    :wait 0.5          pause (for scripts)
    # a comment
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field


class LineError(ValueError):
    """A line the playground cannot read; shown as one line, nothing is sent."""


@dataclass(frozen=True)
class SlashLine:
    path: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MetaLine:
    verb: str
    args: tuple[str, ...] = ()
    rest: str = field(default="", compare=False)  # the text after the verb as typed (quotes kept)


Line = SlashLine | MetaLine | None


def parse_line(text: str) -> Line:
    """A slash command, a ``:meta`` command, or None for a blank line or a comment."""
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith(":"):
        return _meta_line(text)
    return _slash_line(text)


def _meta_line(text: str) -> MetaLine:
    verb, _, rest = text[1:].partition(" ")
    try:
        args = shlex.split(rest)
    except ValueError:  # :choices reads a half-typed line itself
        args = rest.split()
    return MetaLine(verb.lower(), tuple(args), rest.strip())


def _slash_line(text: str) -> SlashLine:
    words = _words(text)
    if not text.startswith("/"):
        raise LineError("type a slash command such as /help, or :help for the playground's own commands")
    path: list[str] = [words[0][1:]]
    options: dict[str, str] = {}
    last: str | None = None
    for word in words[1:]:
        name, colon, value = word.partition(":")
        if not colon:
            if last is not None:
                # Discord's client keeps what follows in the option being typed, until the next option:
                # /roll expression:stress+5 vs 9 dice:1,1,4 reads "stress+5 vs 9", as the docs write it
                options[last] += " " + word
            else:
                path.append(word)
            continue
        if not name:
            raise LineError(f"'{word}' has no option name before the colon")
        if name in options:
            raise LineError(f"option '{name}' is given twice")
        options[name] = value
        last = name
    if not path[0]:
        raise LineError("a slash command needs a name after the /")
    return SlashLine(tuple(path), options)


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise LineError(f"cannot read that line ({exc}); close your quotes") from None


def parse_partial(text: str) -> SlashLine:
    """A slash line still being typed (for :choices and tab completion): an open quote is closed."""
    for ending in ("", '"', "'"):
        try:
            line = parse_line(text + ending)
        except LineError:
            continue
        if isinstance(line, SlashLine):
            return line
    raise LineError("try :choices /attack target:Br")
