"""/odds wording: a compact embed of the few numbers a player decides on, and the chart's rows.

The numbers come from ``rules.odds`` summaries; what each system shows first (and what the chart draws)
is its profile's choice (``bot/systems/<system>.py``, ``odds``), the rest stays in ``grievous odds`` and the docs.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.services.odds import Declaration, OddsView
from bot.systems import profile_of
from bot.systems.profile import OddsWords
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.embed_common import _embed, system_title
from bot.ui.odds_chart import bar_chart, location_map, percent
from bot.ui.outcomes import Severity
from content.diagram import FigureLayout, diagram_layout
from rules.odds.api import Odds

CHART_NAME = "odds.png"


def _words(system: str) -> OddsWords | None:
    profile = profile_of(system)
    return profile.odds if profile is not None else None


def _unopposed(view: OddsView) -> bool:
    """Only the attacker rolls in every declaration, in a system whose odds read differently then (Pendragon)."""
    words = _words(view.system)
    return words is not None and bool(words.unopposed_headline) and \
        all(d.odds.declared.get("unopposed") for d in view.declarations)


_ALONE = {"defender_down": "the target cannot strike back", "missile": "unopposed at range",
          "asked": "unopposed", "disarmed": "the target, disarmed, cannot strike back"}

_SHOWN = ("weapon", "aspect", "aim", "location", "defense", "mounted", "charge", "save_excess", "modifier",
          "modifiers", "spell", "damage", "damage_type", "body_levels", "unopposed")


_CAST_SHOWN = ("spell", "aim", "modifier", "modifiers", "damage", "damage_type", "body_levels", "aspect")


def declaration_text(declaration: Declaration) -> str:
    """``Broadsword, edge, aim high``: the engine action /odds asked about, with the engine's own choices."""
    return action_text({**declaration.action, **declaration.odds.declared}, declaration.odds.system)


def action_text(action: dict[str, Any], system: str) -> str:
    """An engine action in a player's words, each thing said once: ``Pilum of Fire, aim mid, damage 10, fire``."""
    action = dict(action)
    cast = action.get("type") == "cast"
    if cast:
        action.pop("weapon", None)
    parts: list[str] = []
    for key in _CAST_SHOWN if cast else _SHOWN:
        value = action.get(key)
        if value is None or value is False:
            continue
        parts.append(_aim_words(value, system) if key == "aim" else _PART_WORDS.get(key, plain)(value))
    if cast and not action.get("spell"):
        parts.insert(0, "spell")
    said: list[str] = []
    for part in parts:  # a spell's aspect is its damage type: "fire" once
        if part.casefold() not in (p.casefold() for p in said):
            said.append(part)
    return ", ".join(said) or "as declared"


def _aim_words(value: Any, system: str) -> str:
    """ars-harn aims high, mid or low; Fading Suns aims at a location (its /attack location option)."""
    words = _words(system)
    return f"aimed at {plain(str(value).replace('_', ' '))}" if words and words.aims_at_locations \
        else f"aim {plain(value)}"


def _modifier_words(value: Any) -> str:
    return f"{int(value):+d}" if isinstance(value, int) else "modifiers"


# How action_text words an action's value, by its key (another key: the value itself, as plain text).
_PART_WORDS: dict[str, Callable[[Any], str]] = {
    "mounted": lambda _: "mounted",
    "charge": lambda _: "charge",
    "save_excess": lambda _: "excess saved",
    "modifier": _modifier_words,
    "modifiers": _modifier_words,
    "damage": lambda value: f"damage {plain(value)}",
    "body_levels": lambda value: f"{plain(value)} Body Levels",
    "defense": lambda value: f"target {plain(value)}s",
    "unopposed": lambda value: _ALONE.get(str(value), "unopposed"),
}


def _coverage(declarations: Sequence[Declaration]) -> str:
    lines = []
    for index, declaration in enumerate(declarations):
        dist = declaration.odds.distribution
        tag = f"{'AB'[index]}: " if len(declarations) > 1 else ""
        if not dist.complete:
            covered = 1.0 - dist.missing
            lines.append(f"{tag}time ran out: worked out {percent(covered)} of the chances, so each figure is a"
                         " lower bound")
    return "\n".join(lines)


def odds_embed(view: OddsView) -> discord.Embed:
    """The compact /odds answer: who, what was declared, the headline numbers (A and B side by side)."""
    declarations = view.declarations
    compare = len(declarations) > 1
    if compare:
        description = "\n".join(f"**{'AB'[i]}** {declaration_text(d)}" for i, d in enumerate(declarations))
    elif view.refused is not None:
        description = f"**A** {declaration_text(declarations[0])}"
    else:
        description = declaration_text(declarations[0])
    if view.refused is not None:
        action, why = view.refused
        description += f"\n**B** {action_text(action, view.system)}: cannot be made \u2014 {plain(why)}"
    if view.forced:
        dice = " ".join(f"{plain(label)}={','.join(map(str, faces))}"
                        for label, faces in view.forced.items())
        description += f"\nDice kept as rolled: {dice}"
    embed = _embed(f"\U0001f3b2 Odds: {plain(view.attacker)} vs {plain(view.target)}", description,
                   Severity.INFO.colour)
    shown: list[str] | None = None
    words = _words(view.system)
    headline = () if words is None else words.unopposed_headline if _unopposed(view) else words.headline
    for label, get in headline:
        # an unfinished enumeration found only part of each outcome's chances: at least that much
        values = [("\u2265" if not d.odds.distribution.complete else "") + percent(get(d.odds.summary))
                  for d in declarations]
        if values == shown and label == "Injury":  # every hit injures: "Hit" said it
            continue
        shown = values
        embed.add_field(name=label, value=" \u00b7 ".join(f"{'AB'[i]} {v}" for i, v in enumerate(values))
                        if compare else values[0], inline=True)
    coverage = _coverage(declarations)
    footer = coverage or f"Exact: every roll followed, {words.follow_ups if words else 'follow-up'} rolls too. " \
        "Nothing was rolled or saved."
    embed.set_footer(text=limits.clip(f"{system_title(view.system)} \u00b7 {footer}", limits.FOOTER))
    embed.set_image(url=f"attachment://{CHART_NAME}")
    return limits.fit(embed)


def location_chances(odds: Odds) -> dict[str, float]:
    """The chance a blow lands at each location, keyed as the body diagram names them (``right_thigh``)."""
    out: dict[str, float] = {}
    for row, p in odds.distribution.rows():
        location, side = row.get("location"), row.get("side")
        if not row.get("hit") or not isinstance(location, str):
            continue
        key = f"{side}_{location}" if isinstance(side, str) else location
        out[key] = out.get(key, 0.0) + p
    return out


def odds_chart(view: OddsView, chart: str | None = None) -> discord.File:
    """The picture: a bar per outcome, or (``chart`` "locations", where the system has hit locations) where
    blows land on the body diagram's figure."""
    legend = [f"{'AB'[i]}: {declaration_text(d)}" for i, d in enumerate(view.declarations)] \
        if len(view.declarations) > 1 else []
    unfinished = any(not d.odds.distribution.complete for d in view.declarations)
    title = f"{view.attacker} vs {view.target}" + (" (time ran out: at least)" if unfinished else "")
    figure = diagram_layout(view.system) if chart == "locations" else None
    if isinstance(figure, FigureLayout):
        chances = [location_chances(d.odds) for d in view.declarations]
        # no blow lands (a miss, or one parried or dodged): what the locations leave of the whole
        misses = [max(0.0, 1.0 - float(d.odds.summary.get("hit", 1.0))) for d in view.declarations]
        data = location_map(f"Where it lands: {title}", figure, chances, legend, misses)
    else:
        rows = chart_rows(view)
        data = bar_chart(title, rows, legend)
    return discord.File(io.BytesIO(data), filename=CHART_NAME)


def chart_rows(view: OddsView) -> list[tuple[str, list[float]]]:
    """The bars: the outcomes that add up to the whole, then (marked) the grave parts of them."""
    words = _words(view.system)
    chart = () if words is None else words.unopposed_chart if _unopposed(view) else words.chart
    hidden = words.hidden_when_unreachable if words is not None else frozenset()
    rows = [(label, [get(d.odds.summary) for d in view.declarations]) for label, get in chart]
    # rows left out when no declaration can reach them (an ars-harn hit nearly always injures: noise)
    return [(label, values) for label, values in rows if label not in hidden or any(v > 1e-12 for v in values)]
