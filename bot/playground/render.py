"""Discord messages as readable text: what the playground prints for each reply, edit and pin."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

WIDTH = 78
_COLOURS = {0x2ECC71: "green", 0xE67E22: "orange", 0xE74C3C: "red", 0x992D22: "dark red", 0x95A5A6: "grey"}


def plain(markdown: str, names: Mapping[int, str] | None = None) -> str:
    """Discord markdown read aloud: bold and code marks dropped, mentions shown by name where known; what
    the bot escaped (bot/text_safety.py) is shown as the characters themselves."""
    escaped: list[str] = []

    def hold(match: re.Match[str]) -> str:  # an escaped character takes no part in the markdown below
        escaped.append(match.group(1))
        return f"\ue000{len(escaped) - 1}\ue001"

    markdown = re.sub(r"\\([^\w\s]|_)", hold, markdown).replace("\u200b", "")  # \_ shows _, as in Discord
    if names:
        markdown = re.sub(r"<@[!&]?(\d+)>", lambda m: "@" + names.get(int(m.group(1)), m.group(1)), markdown)
        # a channel mention reads as Discord shows it: #name (the names hold channels' ids too)
        markdown = re.sub(r"<#(\d+)>", lambda m: "#" + names.get(int(m.group(1)), m.group(1)), markdown)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", markdown)
    text = re.sub(r"__(.+?)__", r"\1", text)
    text = re.sub(r"(?<!\w)[*_](.+?)[*_](?!\w)", r"\1", text)
    text = text.replace("```", "").replace("`", "")
    text = re.sub(r"<@!?(\d+)>", r"@\1", text)
    text = re.sub(r"<@&(\d+)>", r"@role:\1", text)
    text = re.sub(r"<#(\d+)>", r"#\1", text)
    text = re.sub(r"<t:(-?\d{1,12})(?::([tTdDfFR]))?>", _timestamp, text)
    text = re.sub(r"^-# ", "", text, flags=re.MULTILINE)
    return re.sub("\ue000([0-9]+)\ue001", lambda m: escaped[int(m.group(1))], text)


def _timestamp(match: re.Match[str]) -> str:
    """Discord's <t:SECONDS:STYLE> as the reader's local time (date too for the date styles)."""
    moment = datetime.fromtimestamp(int(match.group(1)))
    style = match.group(2) or "f"
    return moment.strftime("%H:%M" if style in "tTR" else "%Y-%m-%d %H:%M")


def _wrap(text: str, indent: str, names: Mapping[int, str] | None = None) -> list[str]:
    out: list[str] = []
    for paragraph in plain(text, names).splitlines() or [""]:
        wrapped = textwrap.wrap(paragraph, WIDTH - len(indent), replace_whitespace=False) or [""]
        out.extend(indent + line for line in wrapped)
    return out


def render_embed(embed: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[str]:
    lines: list[str] = []
    colour = embed.get("color")
    badge = f" [{_COLOURS.get(colour, f'#{colour:06x}')}]" if isinstance(colour, int) else ""
    author = embed.get("author") or {}
    if author.get("name"):
        lines.append(f"| {plain(author['name'])}")
    title = embed.get("title")
    if title or badge:
        lines.append(f"| {plain(title or '')}{badge}".rstrip())
    if embed.get("description"):
        lines.extend(_wrap(embed["description"], "| ", names))
    for item in embed.get("fields") or []:
        name = plain(str(item.get("name", "")))
        value = str(item.get("value", ""))
        if "\n" not in value and len(name) + len(value) < WIDTH - 6:
            lines.append(f"| {name}: {plain(value, names)}")
        else:
            lines.append(f"| {name}:")
            lines.extend(_wrap(value, "|   ", names))
    for key in ("thumbnail", "image"):
        url = str((embed.get(key) or {}).get("url") or "")
        if url:
            lines.append(f"| ({'picture' if key == 'image' else 'small picture'}: {url.rsplit('/', 1)[-1]})")
    footer = embed.get("footer") or {}
    if footer.get("text"):
        lines.extend(_wrap(footer["text"], "| -- "))
    return ["+" + "-" * (WIDTH - 1), *lines, "+" + "-" * (WIDTH - 1)]


def buttons_of(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every button and select in a message, in the order Discord shows them."""
    found: list[Mapping[str, Any]] = []
    for row in message.get("components") or []:
        for component in row.get("components") or []:
            if component.get("type") in (2, 3, 5, 6, 7, 8):
                found.append(component)
    return found


def render_message(message: Mapping[str, Any], *, header: str = "", first_button: int = 1,
                   names: Mapping[int, str] | None = None) -> str:
    lines: list[str] = [header] if header else []
    if message.get("content"):
        lines.extend(_wrap(message["content"], "", names))
    embeds: Sequence[Mapping[str, Any]] = message.get("embeds") or []
    for embed in embeds:
        lines.extend(render_embed(embed, names))
    for number, component in enumerate(buttons_of(message), first_button):
        label = component.get("label") or component.get("placeholder") or component.get("custom_id", "?")
        state = " (disabled)" if component.get("disabled") else ""
        link = f": {component['url']}" if component.get("url") else ""  # a link button: open it in a browser
        lines.append(f"  [{number}] {label}{state}{link}")
    if (message.get("flags") or 0) & 64:
        lines.append("  (only you can see this)")
    return "\n".join(lines)
