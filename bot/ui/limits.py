"""Discord's embed and message limits, and safe truncation to stay within them.

Lengths are measured in UTF-16 code units, which is never less than the code-point count Discord
documents, so a text that fits here fits there whichever way it is counted.
"""

from __future__ import annotations

from typing import Any

import discord

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
TOTAL = 6000
CONTENT = 2000
EMBEDS_PER_MESSAGE = 10
CHOICE_NAME = 100
CHOICE_VALUE = 100
AUTOCOMPLETE_CHOICES = 25
BUTTON_LABEL = 80
CUSTOM_ID = 100

# What a phone shows of an embed before it scrolls: the public embed of an action keeps its body (description
# and fields, not title and footer) within PUBLIC_LINES lines of PHONE_COLUMNS characters; the arithmetic
# goes behind the Details button.
PHONE_COLUMNS = 48
PUBLIC_LINES = 8

ELLIPSIS = "…"
EMPTY = "\u2014"  # an em dash stands in for an empty field value, which Discord refuses


def size(text: str) -> int:
    """Length in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def clip(text: str | None, limit: int) -> str:
    """``text`` cut to at most ``limit`` units, ending in an ellipsis when cut; code fences are closed."""
    text = "" if text is None else str(text)
    if size(text) <= limit:
        return text
    fence = "\n```"
    budget = limit - size(ELLIPSIS)
    cut = _prefix(text, budget)
    if cut.count("```") % 2:
        cut = _prefix(text, budget - size(fence))
        if cut.count("```") % 2:
            return cut + ELLIPSIS + fence
    return cut + ELLIPSIS


def _prefix(text: str, budget: int) -> str:
    """The longest prefix of ``text`` that fits ``budget`` units without splitting a character."""
    if budget <= 0:
        return ""
    if size(text) <= budget:
        return text
    used = 0
    for index, char in enumerate(text):
        used += 2 if ord(char) > 0xFFFF else 1
        if used > budget:
            return text[:index].rstrip()
    return text


def embed_size(embed: discord.Embed) -> int:
    total = size(embed.title or "") + size(embed.description or "")
    total += size(embed.footer.text or "") + size(embed.author.name or "")
    for field in embed.fields:
        total += size(field.name or "") + size(field.value or "")
    return total


def fit(embed: discord.Embed) -> discord.Embed:
    """Clip every part of ``embed`` to its limit, then trim the whole to 6000 units. Returns ``embed``."""
    data: dict[str, Any] = dict(embed.to_dict())
    if _fits(data):
        if "fields" not in data:
            embed.clear_fields()  # as _refit leaves it: an empty list of fields, sent as "fields": []
        return embed  # otherwise what _refit would give back, unchanged: nothing clipped, nothing rebuilt
    return _refit(embed)


# A field as Embed.add_field builds it, and a footer as set_footer does: _refit rebuilds every field and the footer so.
_FIELD_KEYS = ("inline", "name", "value")
_FOOTER_KEYS = (("text",), ("text", "icon_url"))
_LIMITS = (("title", TITLE), ("description", DESCRIPTION))


def _units(text: str) -> int:
    return len(text) if text.isascii() else size(text)


def _fits(data: dict[str, Any]) -> bool:
    """Whether ``_refit`` would leave the embed of ``data`` (its ``to_dict()``) as it is, as nearly every embed: each
    part within its limit and the whole within TOTAL; no author; each field and the footer in the very shape _refit
    rebuilds them in (its keys in that order, a name and a value not empty, inline a bool)."""
    if "author" in data:
        return False
    texts = _texts_units(data)
    footer = _footer_units(data.get("footer")) if texts is not None else None
    if texts is None or footer is None:
        return False
    fields = data.get("fields") or ()
    if len(fields) > FIELDS:
        return False
    total = texts + footer
    for field in fields:
        units = _field_units(field)
        if units is None:
            return False
        total += units
    return total <= TOTAL


def _texts_units(data: dict[str, Any]) -> int | None:
    """The title's and the description's units together; None if either is not text or is over its limit."""
    total = 0
    for key, limit in _LIMITS:
        text = data.get(key)
        if text:
            if not isinstance(text, str):
                return None
            units = _units(text)
            if units > limit:
                return None
            total += units
    return total


def _footer_units(footer: Any) -> int | None:
    """The footer's units; None if it is not in the shape _refit builds or is over its limit."""
    text = footer.get("text") if footer else None
    if not text:
        return 0
    if tuple(footer) not in _FOOTER_KEYS or not isinstance(text, str) or _units(text) > FOOTER:
        return None
    return _units(text)


def _field_units(field: Any) -> int | None:
    """A field's name and value units; None if it is not in the shape _refit builds or is over a limit."""
    name, value = field.get("name"), field.get("value")
    if (tuple(field) != _FIELD_KEYS or not isinstance(field["inline"], bool) or not isinstance(name, str)
            or not isinstance(value, str) or not name or not value):
        return None
    name_units, value_units = _units(name), _units(value)
    if name_units > FIELD_NAME or value_units > FIELD_VALUE:
        return None
    return name_units + value_units


def _refit(embed: discord.Embed) -> discord.Embed:
    """``fit`` the long way: every part clipped and set again, the fields rebuilt, the whole trimmed."""
    if embed.title:
        embed.title = clip(embed.title, TITLE)
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION)
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=clip(embed.author.name, AUTHOR), url=embed.author.url, icon_url=embed.author.icon_url)
    fields = [(clip(f.name or EMPTY, FIELD_NAME) or EMPTY, clip(f.value or EMPTY, FIELD_VALUE) or EMPTY, bool(f.inline))
              for f in embed.fields]
    dropped = max(0, len(fields) - FIELDS)
    if dropped:
        fields = fields[: FIELDS - 1]
        dropped += 1
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if dropped:
        embed.add_field(name=EMPTY, value=f"{dropped} more not shown", inline=False)
    _trim_total(embed)
    return embed


def _trim_total(embed: discord.Embed) -> None:
    excess = embed_size(embed) - TOTAL
    if excess <= 0:
        return
    # Shorten the description first, then the longest field values, then drop trailing fields.
    if embed.description and size(embed.description) > 200:
        keep = max(200, size(embed.description) - excess)
        embed.description = clip(embed.description, keep)
        excess = embed_size(embed) - TOTAL
    while excess > 0 and embed.fields:
        longest = max(range(len(embed.fields)), key=lambda i: size(embed.fields[i].value or ""))
        field = embed.fields[longest]
        value = field.value or ""
        if size(value) > 64:
            new = clip(value, max(64, size(value) - excess))
            embed.set_field_at(longest, name=field.name or EMPTY, value=new, inline=bool(field.inline))
        else:
            embed.remove_field(len(embed.fields) - 1)
        excess = embed_size(embed) - TOTAL
    if excess > 0 and embed.description:
        embed.description = clip(embed.description, max(1, size(embed.description) - excess))
    if embed_size(embed) > TOTAL and embed.footer.text:
        embed.set_footer(text=None)


def phone_lines(embed: discord.Embed, columns: int = PHONE_COLUMNS) -> int:
    """How many lines the embed's body takes on a phone: the description's and each field's (name and value)
    lines, each wrapped at ``columns`` characters (markdown stars and backticks take no room)."""
    parts = [embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    total = 0
    for part in parts:
        for line in part.replace("**", "").replace("`", "").splitlines():
            total += max(1, -(-size(line) // columns))
    return total
