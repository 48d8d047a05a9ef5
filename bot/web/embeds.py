"""A bot/ui embed as the page shows it: the same words, as safe HTML, and its colour as a class (no inline style)."""

from __future__ import annotations

from dataclasses import dataclass

import discord
from markupsafe import Markup

from bot.ui.outcomes import Severity
from bot.web.markdown import Names, to_html

_SEVERITY_CLASS = {severity.colour: f"sev-{severity.name.lower()}" for severity in Severity}


@dataclass(frozen=True)
class Field:
    name: Markup
    value: Markup
    inline: bool


@dataclass(frozen=True)
class Card:
    """One embed, ready for the ``card`` macro of the templates."""

    title: Markup
    description: Markup
    fields: tuple[Field, ...]
    footer: Markup
    tone: str  # a CSS class for the embed's colour

    @property
    def empty(self) -> bool:
        return not (self.title or self.description or self.fields)


def card(embed: discord.Embed, names: Names | None = None, *, footer: bool = True) -> Card:
    colour = embed.colour.value if embed.colour is not None else Severity.INFO.colour
    return Card(
        title=to_html(embed.title, names),
        description=to_html(embed.description, names),
        fields=tuple(Field(to_html(f.name, names), to_html(f.value, names), bool(f.inline)) for f in embed.fields),
        footer=to_html(embed.footer.text, names) if footer else Markup(""),
        tone=_SEVERITY_CLASS.get(colour, "sev-info"),
    )
