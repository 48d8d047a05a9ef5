"""The embeds of engine actions (attacks, treatment, rest ...) and of /roll."""

from __future__ import annotations

import discord

from bot.services.views import ActionReport, RollView
from bot.ui import limits
from bot.ui.decision_embeds import WAITING, _pending_lines, decision_line
from bot.ui.embed_common import _embed, signed_modifier, system_title
from bot.ui.outcomes import Severity, decision_words, describe, human, rolls_value, worst

ACTION_TITLES = {
    "attack": "attacks",
    "cast": "casts at",
    "shock": "rolls for shock",
    "kill": "rolls to survive",
    "heal": "is treated",
    "first_aid": "gets first aid",
    "chirurgery": "is treated by a chirurgeon",
    "chirurgy": "is treated by a chirurgeon",
    "rest": "rests",
    "rearm": "re-arms",
    "ready": "readies a weapon",
    "recover": "recovers",
    "stand": "stands up",
    "initiative": "rolls initiative",
    "tactical_advantage": "uses a tactical advantage",
    "gm_decide": "\u2014 the GM decides",
    "effect": "rolls for the wound's effect",
    "knockdown": "rolls against knockdown",
    "major_wound": "rolls for a major wound",
    "fall": "rolls to fall safely",
}


def action(report: ActionReport) -> discord.Embed:
    """The embed of one engine action: headline, rolls, location, impact, injury and checks."""
    target = report.target_name or report.actor_name
    words = describe(report.system, report.outcome, (report.actor_name, target))
    severity = words.severity
    if report.pending:
        severity = worst(severity, Severity.SERIOUS)
    embed = _embed(_action_heading(report), words.headline, severity.colour)
    if report.decided is not None:
        decided = report.decided
        said = words.headline if decided.roll is not None else decision_words(decided.kind, decided.choice,
                                                                               decided.who)
        embed.description = f"{said}\n{decision_line(decided)}"
    rolls = report.resolution.get("rolls") or []
    if rolls:
        embed.add_field(name="Dice", value=rolls_value(rolls), inline=False)
    for name, value, inline in words.fields:
        embed.add_field(name=name, value=value, inline=inline)
    if report.pending:
        embed.add_field(name=WAITING, value=_pending_lines(report.pending), inline=False)
    if report.unused_dice:
        unused = ", ".join(f"{label}={' '.join(str(f) for f in faces)}" for label, faces in report.unused_dice.items())
        embed.add_field(name="Dice not used", value=f"These typed faces were not needed: {unused}", inline=False)
    footer = system_title(report.system)
    if report.encounter is not None:
        footer += f" \u00b7 round {report.encounter.round}"
    embed.set_footer(text=f"{footer} \u00b7 event #{report.event_id}")
    return limits.fit(embed)


def _action_heading(report: ActionReport) -> str:
    return action_heading(report.action, report.actor_name, report.target_name)


def action_heading(action_name: str, actor: str, target: str | None) -> str:
    """``Bjorn attacks Bandit 1``, ``Bandit 1 gets first aid from Sir Owain``, ``Anselm treats Hrolf``."""
    other = target if target and target != actor else None
    if action_name == "gm_decide":
        return f"\u2696\ufe0f The GM decides for {actor}"
    if action_name in ("first_aid", "chirurgery"):  # Pendragon: the patient acts, the healer is the other
        what = "gets first aid" if action_name == "first_aid" else "is treated by a chirurgeon"
        return f"{actor} {what}" + (f" from {other}" if other else "")
    if action_name == "heal":  # ars-harn and Fading Suns: the healer acts on the patient
        return f"{actor} treats {other}" if other else f"{actor} treats their own wounds"
    heading = f"{actor} {ACTION_TITLES.get(action_name, human(action_name))}"
    if other and action_name in ("attack", "cast"):
        heading += f" {other}"
    return heading


def roll(view: RollView, user_name: str) -> discord.Embed:
    verdict = f" \u2014 **{human(view.result)}**" if view.result else ""
    embed = _embed(f"\U0001f3b2 {user_name} rolls {view.expression}", f"Total **{view.total}**{verdict}",
                   _roll_colour(view.result))
    embed.add_field(name="Dice", value=rolls_value(view.rolls) + signed_modifier(view.modifier, "\n"), inline=False)
    if view.unused_dice:
        unused = ", ".join(f"{label}={' '.join(str(f) for f in faces)}" for label, faces in view.unused_dice.items())
        embed.add_field(name="Dice not used", value=unused, inline=False)
    embed.set_footer(text=f"event #{view.event_id}")
    return limits.fit(embed)


def _roll_colour(result: str | None) -> int:
    if result in ("critical",):
        return Severity.LIGHT.colour
    if result in ("botch", "fumble", "critical_failure"):
        return Severity.GRIEVOUS.colour
    if result == "failure":
        return Severity.NONE.colour
    return Severity.INFO.colour
