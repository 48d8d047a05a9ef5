"""The bot's own Discord wording (embeds and lines from bot/ui) as safe HTML, so the page says what Discord says.

The text is HTML-escaped first; only then are the markdown marks the bot writes (bold, italic, underline,
strike, inline code, ``-#`` subtext, ``>`` quotes, headings) turned into tags this module writes itself.
A backslash-escaped mark (``plain`` escapes every mark in text a user typed) stays a literal character.
Mentions become names from ``Names`` (never a link); anything else stays the text it was.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from markupsafe import Markup

_SHIFT = 0xF0000  # escaped characters ride in the supplementary private-use plane until the end
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # Discord's escapes: an ASCII mark after a backslash
_SHIFTED = re.compile("[\U000f0000-\U000f007f]")
_CODE = re.compile(r"`([^`\n]+)`")
_PAIRS = (
    (re.compile(r"\*\*(.+?)\*\*"), "strong"),
    (re.compile(r"__(.+?)__"), "u"),
    (re.compile(r"~~(.+?)~~"), "s"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), "em"),
    (re.compile(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])"), "em"),
)
_MENTION = re.compile(r"&lt;(@&amp;|@!?|#)(\d{1,20})&gt;")
_TIME = re.compile(r"&lt;t:(-?\d{1,12})(?::([tTdDfFR]))?&gt;")
_ASIDE_MARKS = re.compile("[\ue000\ue001]")  # in text as typed: replaced, so that only ours are placeholders
_ASIDE = re.compile("\ue000([0-9]+)\ue001")  # a code span set aside


@dataclass(frozen=True)
class Names:
    """How mentions read on the page: ids to names, from the bot's guild cache (a miss reads generically)."""

    user: Callable[[int], str | None] = lambda _id: None  # a member's display name
    role: Callable[[int], str | None] = lambda _id: None
    channel: Callable[[int], str | None] = lambda _id: None


def _shift(match: re.Match[str]) -> str:
    return chr(_SHIFT + ord(match.group(1)))


def _unshift(match: re.Match[str]) -> str:
    return html.escape(chr(ord(match.group(0)) - _SHIFT))


def _inline(text: str, names: Names) -> str:
    """One line: escape, then the marks, then mentions; code spans keep their contents literal, and a mark may
    enclose one (an undone log line: ``~~`#6` ...~~``): each stands aside as a placeholder meanwhile."""
    text = _ESCAPE.sub(_shift, _ASIDE_MARKS.sub("\ufffd", text))
    codes: list[str] = []

    def aside(match: re.Match[str]) -> str:
        codes.append(match.group(1))
        return f"\ue000{len(codes) - 1}\ue001"

    escaped = html.escape(_CODE.sub(aside, text), quote=True)
    for pattern, tag in _PAIRS:
        escaped = pattern.sub(f"<{tag}>\\1</{tag}>", escaped)
    escaped = _MENTION.sub(lambda m: _mention(m, names), escaped)
    escaped = _TIME.sub(_time, escaped)
    escaped = _ASIDE.sub(lambda m: f"<code>{html.escape(codes[int(m.group(1))], quote=True)}</code>", escaped)
    return _SHIFTED.sub(_unshift, escaped)


def _mention(match: re.Match[str], names: Names) -> str:
    kind, ident = match.group(1), int(match.group(2))
    if kind == "#":
        name = names.channel(ident)
        return html.escape(f"#{name}" if name else "#a channel")
    if kind == "@&amp;":
        name = names.role(ident)
        return html.escape(f"@{name}" if name else "@a role")
    name = names.user(ident)
    return html.escape(f"@{name}" if name else "@a member")


def _time(match: re.Match[str]) -> str:
    try:
        moment = datetime.fromtimestamp(int(match.group(1)), UTC)
    except (OverflowError, OSError, ValueError):
        return match.group(0)
    style = match.group(2) or "f"  # Discord's styles: t/T a time, d/D a date, the others both
    return moment.strftime("%H:%M UTC" if style in "tT" else "%Y-%m-%d" if style in "dD" else "%Y-%m-%d %H:%M UTC")


def to_html(text: str | None, names: Names | None = None) -> Markup:
    """Discord markdown, as the bot writes it, in HTML: lines kept, ``-#`` small, ``>`` quoted, headings bold."""
    if not text:
        return Markup("")
    names = names or Names()
    lines = []
    in_block = False
    block: list[str] = []
    for raw in str(text).split("\n"):
        if raw.startswith("```"):
            if in_block:
                lines.append(f"<pre>{html.escape(chr(10).join(block))}</pre>")
                block = []
            in_block = not in_block
            continue
        if in_block:
            block.append(raw)
            continue
        if raw.startswith("-# "):
            lines.append(f'<small class="sub">{_inline(raw[3:], names)}</small>')
        elif raw.startswith("> "):
            lines.append(f'<span class="quote">{_inline(raw[2:], names)}</span>')
        elif re.match(r"#{1,3} ", raw):
            lines.append(f"<strong>{_inline(raw.lstrip('#').lstrip(), names)}</strong>")
        else:
            lines.append(_inline(raw, names))
    if in_block:  # an unclosed block: its lines as text
        lines.append(f"<pre>{html.escape(chr(10).join(block))}</pre>")
    return Markup("<br>".join(lines))


def to_text(text: str | None) -> str:
    """The same wording as plain text (alt text, titles): marks dropped, escapes undone, mentions generic."""
    if not text:
        return ""
    return html.unescape(re.sub(r"<[^>]+>", "", str(to_html(text)).replace("<br>", "\n")))
