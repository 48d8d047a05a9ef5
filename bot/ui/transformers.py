"""Option parsers: text a user types into typed values; a mistake is a one-line UserError."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from content.input_guard import check_text

MAX_PAIRS = 40
MAX_NAMES = 20
MAX_STATS_TEXT = 2000  # 40 pairs of a 60-character name and a short value
_PAIR = re.compile(r"^\s*([A-Za-z][\w .'-]{0,60}?)\s*[=:]\s*(.{1,100}?)\s*$")


def parse_stats(text: str) -> dict[str, int | str]:
    """``str=2 sta=1`` or ``abilities.Single Weapon=5, size=0`` into ``{name: value}``."""
    text = check_text(text, "stats", MAX_STATS_TEXT).strip()
    if not text:
        return {}
    pieces = re.split(r"[,;]", text) if re.search(r"[,;]", text) else text.split()
    if len(pieces) > MAX_PAIRS:
        raise UserError(f"stats: at most {MAX_PAIRS} name=value pairs")
    stats: dict[str, int | str] = {}
    for piece in pieces:
        if not piece.strip():
            continue
        match = _PAIR.match(piece)
        if match is None:
            raise UserError(f"stats: cannot read '{piece.strip()}': write name=value, e.g. str=2 sta=1")
        name, value = match.group(1).strip(), match.group(2).strip()
        stats[name] = int(value) if re.fullmatch(r"[+-]?[0-9]{1,9}", value) else value
    return stats


def parse_names(text: str) -> list[str]:
    """``broadsword, round shield`` into a list of names."""
    names = [part.strip() for part in check_text(text, "names", MAX_STATS_TEXT).split(",") if part.strip()]
    if len(names) > MAX_NAMES:
        raise UserError(f"at most {MAX_NAMES} names, separated by commas")
    return names


class StatsTransformer(app_commands.Transformer[Any]):
    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> dict[str, int | str]:
        return parse_stats(str(value))


class NamesTransformer(app_commands.Transformer[Any]):
    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> list[str]:
        return parse_names(str(value))


Stats = app_commands.Transform[dict[str, int | str], StatsTransformer]
Names = app_commands.Transform[list[str], NamesTransformer]
