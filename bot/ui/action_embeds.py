"""The embeds of engine actions (attacks, treatment, rest ...) and of /roll."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.services.actions import spent_words
from bot.services.event_records import ActionEvent, StoredRoll
from bot.services.results import ActionReport, EventView, RollView
from bot.systems import PROFILES, profile_of
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.decision_embeds import WAITING, _pending_lines, decision_line
from bot.ui.defense_embeds import defense_line
from bot.ui.embed_common import _embed, signed_modifier, system_title
from bot.ui.outcomes import Severity, decision_words, describe, human, rolls_value, worst
from bot.ui.typed_dice import rolled_by_bot, typed_dice_line, unused_faces
from bot.ui.way_out_words import way_out_headline
from rules.outcome import Outcome

# The heading of each action the neutral commands run, after the actor's name; a system's own actions' are its
# profile's (SystemProfile.action_titles)
_COMMAND_TITLES = {
    "attack": "attacks",
    "heal": "is treated",
    "rest": "rests",
    "rearm": "re-arms",
    "ready": "readies a weapon",
    "recover": "recovers",
    "initiative": "rolls initiative",
    "gm_decide": "\u2014 the GM decides",
}


def action_title(system: str | None, action_name: str) -> str | None:
    """What follows the actor's name in an action's heading (``attacks``), None where no action has the name:
    a neutral command's, else the system's own (any system's for a record that names none)."""
    if action_name in _COMMAND_TITLES:
        return _COMMAND_TITLES[action_name]
    profile = profile_of(system) if system else None
    profiles = (profile,) if profile is not None else tuple(PROFILES.values())
    return next((p.action_titles[action_name] for p in profiles if action_name in p.action_titles), None)


def action(report: ActionReport) -> discord.Embed:
    """The public embed of one engine action, short enough for a phone: the headline, the numbers in one line,
    what followed from them, and the GM's waiting decisions. Every roll and modifier is in ``action_details``
    (the Details button)."""
    target = report.target_name or report.actor_name
    words = describe(report.system, report.public.outcome, (report.actor_name, target))  # as the channel may read it
    severity = words.severity
    if report.pending:
        severity = worst(severity, Severity.SERIOUS)
    brief = words.brief if words.brief is not None else _compact(words.fields)
    # a secret NPC roll: the players see what it did, not its dice; against an NPC, only the actor's own totals
    # (a describer that words no such line yet keeps its whole one)
    numbers = words.own_numbers if report.target_secret and words.own_numbers is not None else words.numbers
    if numbers and not report.secret:
        brief = [numbers, *brief]
    # where side-typed faces went, said for a blow between two characters (in a treatment both are one side's)
    sides = {"attacker": report.actor_name, "defender": report.target_name} \
        if report.action in ("attack", "cast") and report.target_name else {}
    typed = None if report.secret else typed_dice_line(report.event.shown_typed_dice, report.event.unused_dice,
                                                       sides, report.system)
    if typed is not None:
        brief = [*brief, typed]
    if report.defense_asked is not None:  # the target's player chose the defence (or the time ran out)
        brief = [*brief, defense_line(report.defense_asked)]
    headline = words.headline
    if report.way_out is not None and report.way_out.cost != "roll":  # a Shock roll says how it went itself
        headline = way_out_headline(report.system, report.actor_name, report.way_out)
        brief = []
    embed = _embed(_action_heading(report), "\n".join([headline, *brief]), severity.colour)
    if report.decided is not None:
        decided = report.decided
        said = words.headline if decided.roll is not None else decision_words(decided.kind, decided.choice,
                                                                               decided.who)
        by = decision_line(decided)
        embed.description = "\n".join([said, *([by] if by else []), *_not_said(brief, said)])
    if report.spent_before:  # this round's action was spent already (turns: warn; the GM)
        embed.description = (f"{embed.description}\n\u26a0\ufe0f {plain(report.actor_name)} had spent this round's "
                             f"action already ({spent_words(report.spent_before)}).")
    if report.out_of_turn:
        embed.description = f"{embed.description}\n\u26a0\ufe0f Out of turn: it is {plain(report.out_of_turn)}'s turn."
    if report.pending:
        embed.add_field(name=WAITING, value=_pending_lines(report.pending), inline=False)
    embed.set_footer(text=_footer(report.system, report.encounter.round if report.encounter else None,
                                  report.event_id))
    return limits.fit(embed)


def action_details(system: str, action_name: str, actor: str, target: str | None, rolls: Sequence[StoredRoll],
                   outcome: Outcome | Mapping[str, Any], unused_dice: Mapping[str, Any], event_id: int,
                   round_number: int | None = None, typed_dice: Mapping[str, Any] | None = None) -> discord.Embed:
    """Everything behind an action's public embed: every die, every modifier, every field (the Details
    button, shown only to the one who asks)."""
    words = describe(system, outcome, (actor, target or actor))
    embed = _embed(f"\U0001f50e {action_heading(action_name, actor, target, system)}", words.headline,
                   words.severity.colour)
    if rolls:
        embed.add_field(name="Dice", value=rolls_value(rolls), inline=False)
    for name, value, inline in words.fields:
        embed.add_field(name=name, value=value, inline=inline)
    rolled = rolled_by_bot(rolls, typed_dice or {}, unused_dice)
    sides = {"attacker": actor, "defender": target} if action_name in ("attack", "cast") and target else {}
    unused = unused_faces(unused_dice, sides, system)
    if unused:
        embed.add_field(name="Dice not used", value=limits.clip(
            f"These typed faces were not needed: {', '.join(unused)}", limits.FIELD_VALUE), inline=False)
    if rolled:
        embed.add_field(name="Rolled by the bot", value=", ".join(rolled), inline=False)
    embed.set_footer(text=_footer(system, round_number, event_id))
    return limits.fit(embed)


def report_details(report: ActionReport) -> discord.Embed:
    """``action_details`` of an action just made, as the GM reads it (its GM-channel post, or privately)."""
    return _details_of(report.for_gm, report.action, report.event_id,
                       report.encounter.round if report.encounter else None)


def event_details(event: EventView) -> discord.Embed:
    """``action_details`` of a logged action, as the services projected it for its reader."""
    if not isinstance(event.record, ActionEvent):
        raise TypeError(f"event #{event.id} ({event.kind}) is no engine action")
    return _details_of(event.record, event.kind, event.id)


def _details_of(event: ActionEvent, kind: str, event_id: int, round_number: int | None = None) -> discord.Embed:
    return action_details(event.system, kind, event.actor, event.target, event.shown_rolls, event.outcome,
                          event.unused_dice, event_id, round_number, event.shown_typed_dice)


def _compact(fields: Sequence[tuple[str, str, bool]]) -> list[str]:
    """The fields of a small outcome (treatment, rest, a decision) as lines: ``Name: value``, the short inline
    ones side by side; leftovers (``Details``) stay behind the button."""
    lines: list[str] = []
    row: list[str] = []
    for name, value, inline in fields:
        if name == "Details":
            continue
        line = f"{name}: {' '.join(value.split())}"
        if inline and len(line) <= 40:
            row.append(line)
            continue
        if row:
            lines.append(" \u00b7 ".join(row))
            row = []
        lines.append(line)
    if row:
        lines.append(" \u00b7 ".join(row))
    return lines


# a condition a decision's sentence says in other words ("Bandit 1 dies." is "dead")
_SAID_AS = {"dead": "dies"}


def _not_said(brief: Sequence[str], said: str) -> list[str]:
    """``brief`` less what the decision's sentence says already: the conditions it names ("Bandit 1 lives, but is
    incapacitated." over "Condition: Bandit 1: incapacitated"; "dies" over "dead") and the hit points it gives
    ("survives, at 1 hit point" over "Hit points: Bandit 1: 1"). A condition it does not name stays, said as
    added to it ("Thug 1 survives, unconscious." / "Thug 1 is also prone.", not "Condition: Thug 1: prone,
    unconscious", issue 34)."""
    def named(condition: str) -> bool:
        return condition in said or _SAID_AS.get(condition, "\0") in said

    def kept(part: str) -> str:
        name, _, rest = part.partition(": ")
        who, _, value = rest.rpartition(": ")
        if not who:
            return part
        if name == "Condition":
            left = [c.strip() for c in value.split(",") if not named(c.strip())]
            return "" if not left else part if len(left) == len(value.split(",")) \
                else f"{who} is also {', '.join(left)}."
        if name == "Hit points" and f"at {value} hit point" in said:
            return ""
        return part

    lines = [" \u00b7 ".join(p for p in (kept(part) for part in line.split(" \u00b7 ")) if p) for line in brief]
    return [line for line in lines if line]


def _footer(system: str, round_number: int | None, event_id: int) -> str:
    footer = system_title(system)
    if round_number is not None:
        footer += f" \u00b7 round {round_number}"
    return f"{footer} \u00b7 event #{event_id}"


def _action_heading(report: ActionReport) -> str:
    return action_heading(report.action, report.actor_name, report.target_name, report.system)


# Pendragon's treatments: the patient acts, and the outcome's headline names the treatment, the patient and the
# healer ('First aid for Bandit 1 by Sir Owain: success'), so a log line is that headline alone
PATIENT_ACTS = ("first_aid", "chirurgery")


def action_heading(action_name: str, actor: str, target: str | None, system: str | None = None) -> str:
    """``Bjorn attacks Bandit 1``, ``Bandit 1 gets first aid from Sir Owain``, ``Anselm treats Hrolf``."""
    other = plain(target) if target and target != actor else None
    actor = plain(actor)
    if action_name == "gm_decide":
        return f"\u2696\ufe0f The GM decides for {actor}"
    if action_name in PATIENT_ACTS:  # Pendragon: the patient acts, the healer is the other
        # "is treated by a chirurgeon from Brother Aldhelm" named the chirurgeon twice (issue 34, P9)
        what = "gets first aid" if action_name == "first_aid" else "gets chirurgery"
        return f"{actor} {what}" + (f" from {other}" if other else "")
    if action_name == "heal":  # ars-harn and Fading Suns: the healer acts on the patient
        return f"{actor} treats {other}" if other else f"{actor} treats their own wounds"
    heading = f"{actor} {action_title(system, action_name) or human(action_name)}"
    if other and action_name in ("attack", "cast"):
        heading += f" {other}"
    return heading


def roll(view: RollView, user_name: str) -> discord.Embed:
    verdict = f" \u2014 **{human(view.result)}**" if view.result else ""
    embed = _embed(f"\U0001f3b2 {plain(user_name)} rolls {plain(view.expression)}", f"Total **{view.total}**{verdict}",
                   _roll_colour(view.result))
    embed.add_field(name="Dice", value=rolls_value(view.rolls) + signed_modifier(view.modifier, "\n"), inline=False)
    if view.unused_dice:
        unused = ", ".join(f"{plain(label)}={' '.join(str(f) for f in faces)}"
                           for label, faces in view.unused_dice.items())
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
