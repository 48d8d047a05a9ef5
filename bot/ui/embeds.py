"""Every word the bot shows: embeds built from service results, and the one-line replies.

Builders take the frozen views of bot/services/views.py (or plain values) and return embeds that
``limits.fit`` has clipped to Discord's limits, so any input, however large, can be sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import discord

from bot.services.views import (
    ActionReport,
    CharacterBrief,
    CharacterView,
    EncounterView,
    EventView,
    GuildSettingsView,
    PendingDecisionView,
    RollView,
)
from bot.ui import limits
from bot.ui.outcomes import Severity, decision_words, describe, human, rolls_value, signed, text, title, worst
from rules.model import Setting, Wound

SYSTEM_TITLES = {
    "ars-harn": "Ars Magica \u00d7 HarnMaster",
    "pendragon": "King Arthur Pendragon",
    "fading-suns": "Fading Suns",
}

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

# A waiting GM decision, as the start of its line under an action ({who} is the character).
DECISION_PROMPTS = {
    "kill": "{who} failed the kill roll",
    "shock": "{who}'s shock roll",
    "death": "{who} took a deadly wound",
    "dying": "{who} is dying",
    "experience": "{who}: an experience check",
    "experience_check": "{who}'s notable success earns an experience check",
    "fall_damage": "{who} fell gently",
}
# How a choice reads in that line, and on its button.
CHOICE_WORDS = {"unconscious": "mercy (unconscious)", "none": "no damage", "damage": "damage (you give the amount)",
                "approve": "approve", "deny": "deny"}
CHOICE_LABELS = {"roll": "Roll", "dice": "Dice", "none": "No damage", "damage": "Damage\u2026"}

# What the other events of the log say (actions of the engines use ACTION_TITLES and their outcome).
EVENT_TITLES = {
    "start": "starts an encounter",
    "end": "ends the encounter",
    "next_turn": "ends the turn",
    "initiative": "sets the turn order",
    "declare": "declares an attack",
    "undo": "takes back an action",
}

# /heal's neutral treatments in each system's words (bot/services/injuries.py TREATMENTS).
TREATMENT_LABELS = {
    ("ars-harn", "chirurgy"): "Chirurgy", ("ars-harn", "spell"): "Healing spell",
    ("pendragon", "first_aid"): "First aid", ("pendragon", "chirurgy"): "Chirurgery",
    ("fading-suns", "first_aid"): "First aid (Remedy)", ("fading-suns", "chirurgy"): "Surgery (Physick)",
}


def treatment_label(system: str, method: str) -> str:
    return TREATMENT_LABELS.get((system, method), title(method))


def system_title(system: str) -> str:
    return SYSTEM_TITLES.get(system, system)


def _embed(title_text: str, description: str = "", colour: int = Severity.INFO.colour) -> discord.Embed:
    return discord.Embed(title=limits.clip(title_text, limits.TITLE), description=description or None,
                         colour=discord.Colour(colour))


# -- one-line replies --------------------------------------------------------------------------

APOLOGY = "Sorry, something went wrong on our side; it has been logged. Nothing you did caused it."
NO_GUILD = "Grievous works in server channels, not in direct messages."
NOT_GM = "Only the GM can do that."
EXPIRED = "This prompt has expired; run the command again."
NOT_YOURS = "This prompt belongs to someone else."


def error_line(message: str) -> str:
    """A user's mistake as one line (the first line of the message, clipped)."""
    first = (str(message).strip().splitlines() or ["That did not work."])[0]
    return limits.clip(f"\u26a0\ufe0f {first}", limits.CONTENT)


def confirm_delete(name: str) -> str:
    return f"Delete **{name}** and every wound on their sheet? This cannot be undone."


def deleted(name: str) -> str:
    return f"**{name}** was deleted."


def name_the_character(owned: int) -> str:
    if owned == 0:
        return "you have no character here: name one, e.g. /injuries character:Bjorn"
    return f"you have {owned} characters: say which, e.g. /injuries character:Bjorn"


def cancelled() -> str:
    return "Cancelled; nothing changed."


def decision_label(choice: str) -> str:
    return limits.clip(CHOICE_LABELS.get(choice, title(choice)), limits.BUTTON_LABEL)


ROLL_NAMES = {"effect": "wound-effect roll", "major_wound": "major wound rolls", "fall": "fall (DEX) roll",
              "knockdown": "knockdown roll", "stumble": "STUMBLE roll", "fumble": "FUMBLE roll", "kill": "kill roll",
              "shock": "shock roll"}


def roll_name(decision: PendingDecisionView) -> str:
    """What a roll the GM makes is called: ``shock roll``, ``wound-effect roll``."""
    roll = decision.roll or decision.kind
    return ROLL_NAMES.get(roll, f"{human(roll)} roll")


def decision_button_label(decision: PendingDecisionView, choice: str) -> str:
    """A GM button's label: the choice, and for a roll the GM makes, whose roll it is (a message may carry
    several): ``Roll: Bandit 1's shock``."""
    if decision.roll is not None:
        what = f"{decision.who}'s {roll_name(decision).removesuffix(' roll').removesuffix(' rolls')}"
        return limits.clip(f"{CHOICE_LABELS.get(choice, title(choice))}: {what}", limits.BUTTON_LABEL)
    return decision_label(choice)


def decision_taken(decision: PendingDecisionView, user_name: str) -> str:
    return f"The GM ({user_name}) chose **{human(decision.choice or '?')}** for {decision.who}."


def decision_line(decision: PendingDecisionView) -> str:
    """``The GM chose **death** for Bandit 1 (@gm).``; for a roll: ``The GM rolled Bandit 1's shock roll (@gm).``"""
    by = f" (<@{decision.decided_by}>)" if decision.decided_by else ""
    if decision.roll is not None:
        how = " with the dice rolled at the table" if decision.choice == "dice" else ""
        return f"The GM rolled {decision.who}'s **{roll_name(decision)}**{how}{by}."
    return f"The GM chose **{human(decision.choice or '?')}** for {decision.who}{by}."


def done(message: str) -> discord.Embed:
    return limits.fit(_embed("\u2705 Done", message, Severity.LIGHT.colour))


# -- combat and other engine actions -----------------------------------------------------------

WAITING = "\u23f3 Waiting for the GM"  # the field listing the decisions whose buttons the message carries


def _pending_head(decision: PendingDecisionView) -> str:
    """The start of a waiting decision's line, which says whose and what it is (and finds the line again)."""
    if decision.roll is not None:
        return f"{decision.who}'s {roll_name(decision)}"
    return DECISION_PROMPTS.get(decision.kind, "{who}: " + human(decision.kind)).format(who=decision.who)


def pending_line(decision: PendingDecisionView) -> str:
    """``Bandit 1's shock roll: the GM presses Roll, or Dice ...``,
    ``Bandit 1 failed the kill roll: the GM chooses death or incapacitation.``"""
    if decision.roll is not None:
        return f"{_pending_head(decision)}: the GM presses **Roll**, or **Dice** to type the faces rolled at the table."
    options = " or ".join(f"**{human(CHOICE_WORDS.get(o, o))}**" for o in decision.options) or "a ruling"
    return f"{_pending_head(decision)}: the GM chooses {options}."


def _pending_lines(pending: Sequence[PendingDecisionView]) -> str:
    return "\n".join(pending_line(decision) for decision in pending)


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


def mark_decided(embed: discord.Embed, decision: PendingDecisionView,
                 moot: Sequence[PendingDecisionView] = ()) -> discord.Embed:
    """The embed of the message the GM's buttons were on, once ``decision`` is taken: its line (and those of
    the ``moot`` rolls it made needless) leave the waiting field (dropped when empty), a field says what was
    decided and by whom, and a "dying" that death or survival settled no longer says so."""
    waiting = WAITING
    decided_name = "\u2696\ufe0f The GM decided"
    if decision.roll is not None:
        ruling = f"{decision_line(decision)} The result is posted below."
    else:
        ruling = f"{decision_line(decision)} {decision_words(decision.kind, decision.choice, decision.who)}"
    heads = tuple(_pending_head(d) for d in (decision, *moot))
    settled = decision.kind in ("dying", "death", "kill")
    fields = [(f.name or "", f.value or "", bool(f.inline)) for f in embed.fields]
    embed.clear_fields()
    placed = False
    for name, value, inline in fields:
        if name == waiting:
            # this decision's line (older messages began every line with "<who>: ")
            left = [line for line in value.splitlines()
                    if not line.startswith(heads) and not line.startswith(f"{decision.who}: ")]
            if left:
                embed.add_field(name=name, value="\n".join(left), inline=inline)
            continue
        if settled and name in _SETTLED_FIELDS and decision.who in value:
            continue
        if name == decided_name:
            value, placed = f"{value}\n{ruling}", True
        embed.add_field(name=name, value=value, inline=inline)
    if not placed:
        embed.add_field(name=decided_name, value=ruling, inline=False)
    return limits.fit(embed)


# Fields saying a character hangs between life and death, which the GM's decision settles.
_SETTLED_FIELDS = ("Dying", "Effect")
NO_LONGER_NEEDED = "\u2716\ufe0f No longer needed"


def closed_line(decision: PendingDecisionView, undone: bool = False) -> str:
    """``Bandit 1's shock roll: a later result made it needless.``, ``... : taken back with /undo.``"""
    return f"{_pending_head(decision)}: " + ("taken back with /undo." if undone else "a later result made it needless.")


def mark_closed(embed: discord.Embed, closed: Sequence[PendingDecisionView], undone: bool = False) -> discord.Embed:
    """The embed of a message whose GM buttons were settled elsewhere (a later action made the roll moot, or
    /undo took back the action that asked for it): their lines leave the waiting field (dropped when empty)
    and a field says they are no longer needed."""
    heads = tuple(_pending_head(d) for d in closed)
    lines = [closed_line(d, undone) for d in closed]
    fields = [(f.name or "", f.value or "", bool(f.inline)) for f in embed.fields]
    embed.clear_fields()
    for name, value, inline in fields:
        if name == WAITING:
            left = [line for line in value.splitlines() if not line.startswith(heads)]
            if left:
                embed.add_field(name=name, value="\n".join(left), inline=inline)
            continue
        if name == NO_LONGER_NEEDED:
            lines = [*value.splitlines(), *(line for line in lines if line not in value.splitlines())]
            continue
        embed.add_field(name=name, value=value, inline=inline)
    if lines:
        embed.add_field(name=NO_LONGER_NEEDED, value=limits.clip("\n".join(lines), limits.FIELD_VALUE),
                        inline=False)
    return limits.fit(embed)


def roll(view: RollView, user_name: str) -> discord.Embed:
    verdict = f" \u2014 **{human(view.result)}**" if view.result else ""
    embed = _embed(f"\U0001f3b2 {user_name} rolls {view.expression}", f"Total **{view.total}**{verdict}",
                   _roll_colour(view.result))
    embed.add_field(name="Dice", value=rolls_value(view.rolls), inline=False)
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


# -- characters and injuries -------------------------------------------------------------------

def _pairs(pairs: Iterable[tuple[str, str]], joiner: str = " \u00b7 ") -> str:
    return joiner.join(f"{name} **{value}**" for name, value in pairs)


def wound_line(wound: Wound, system: str = "") -> str:
    code, severity = str(wound.code), human(wound.severity)
    if system == "pendragon":  # no locations; "levels" are the hit points the wound still holds
        kind = {"mortal": "mortal wound", "major": "major wound"}.get(code.lower(), "wound")
        parts = [f"`{wound.index}` **{kind}**, {wound.levels} hit point{'s' if wound.levels != 1 else ''}"]
        if wound.note:
            parts.append(wound_note(wound.note))
        return ", ".join(parts)
    same = code.casefold() == severity.casefold() or (code and severity.casefold().startswith(code.casefold()))
    parts = [f"`{wound.index}` {human(wound.location)}: " + (f"**{severity}**" if same else
                                                                f"**{code}** {severity}").rstrip()]
    if wound.levels:
        parts.append(f"{wound.levels} level{'s' if wound.levels != 1 else ''}")
    if wound.bleeding:
        parts.append("\U0001fa78 bleeding")
    if wound.penalty:
        parts.append(f"penalty {signed(-abs(wound.penalty))}")
    if wound.note:
        parts.append(wound_note(wound.note))
    return ", ".join(parts)


_INITIATIVE_NOTE = re.compile(r"([+-]?[0-9]+) init")


def wound_note(note: str) -> str:
    """A wound's note from the engine's summary, in the bot's words: Fading Suns' ``-1 init, treated`` reads
    ``initiative \u22121, treated`` (as the wound penalties of an attack do)."""
    parts = [part.strip() for part in note.split(",")]
    return ", ".join(f"initiative {signed(int(found[1]))}" if (found := _INITIATIVE_NOTE.fullmatch(part)) else part
                     for part in parts)


def _wounds_value(wounds: Sequence[Wound], system: str = "") -> str:
    if not wounds:
        return "none"
    lines = [wound_line(w, system) for w in wounds]
    out: list[str] = []
    used = 0
    for number, line in enumerate(lines):
        if used + len(line) + 1 > limits.FIELD_VALUE - 30:
            out.append(f"\u2026 and {len(lines) - number} more (see /injuries)")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


def _wound_colour(wounds: Sequence[Wound]) -> int:
    if not wounds:
        return Severity.LIGHT.colour
    words = {str(w.severity).lower() for w in wounds} | {str(w.code)[:1].upper() for w in wounds}
    if words & {"k", "kill", "crippled", "dying"}:
        return Severity.MORTAL.colour
    if words & {"G", "grievous", "major"}:
        return Severity.GRIEVOUS.colour
    if words & {"S", "serious"}:
        return Severity.SERIOUS.colour
    return Severity.LIGHT.colour


def condition_text(condition: str) -> str:
    """An engine's condition line (``out_of_fight, prone``) in words (``out of fight, prone``)."""
    return str(condition).replace("_", " ")


def character(view: CharacterView) -> discord.Embed:
    kind = "NPC" if view.npc else f"<@{view.owner_id}>"
    embed = _embed(view.name, f"{system_title(view.system)} \u00b7 {'NPC' if view.npc else 'player character'}",
                   Severity.INFO.colour)
    summary = view.summary
    if summary is None:
        embed.description = f"{embed.description}\nThe {view.system} engine is not available, so only the raw sheet " \
                            "is shown."
        stats = [(k, text(v)) for k, v in view.sheet.items() if isinstance(v, int | str) and k != "name"]
        if stats:
            embed.add_field(name="Sheet", value=_pairs(stats), inline=False)
    else:
        if summary.condition:
            embed.add_field(name="Condition", value=condition_text(summary.condition), inline=False)
        if summary.stats:
            embed.add_field(name="Stats", value=_pairs(summary.stats), inline=False)
        if summary.equipment:
            embed.add_field(name="Equipment", value=_pairs(summary.equipment, "\n"), inline=False)
        embed.add_field(name=f"Wounds ({len(summary.wounds)})", value=_wounds_value(summary.wounds, view.system),
                        inline=False)
        embed.colour = discord.Colour(_wound_colour(summary.wounds))
    embed.add_field(name="Owner", value=kind, inline=True)
    embed.set_footer(text=f"character #{view.id} \u00b7 version {view.version}")
    return limits.fit(embed)


def injuries(view: CharacterView) -> discord.Embed:
    wounds = view.wounds
    condition = condition_text(view.summary.condition) if view.summary else ""
    embed = _embed(f"\U0001fa79 {view.name}'s injuries", condition, _wound_colour(wounds))
    if not wounds:
        embed.description = (condition + "\n" if condition else "") + "No wounds."
    else:
        total = sum(abs(w.penalty) for w in wounds)
        embed.add_field(name=f"Wounds ({len(wounds)})", value=_wounds_value(wounds, view.system), inline=False)
        if total:
            embed.add_field(name="Total penalty", value=signed(-total), inline=True)
        bleeding = sum(1 for w in wounds if w.bleeding)
        if bleeding:
            embed.add_field(name="Bleeding", value=f"{bleeding} wound{'s' if bleeding != 1 else ''}", inline=True)
    embed.set_footer(text=system_title(view.system))
    return limits.fit(embed)


def character_list(briefs: Sequence[CharacterBrief], *, mine: bool = False) -> discord.Embed:
    heading = "Your characters" if mine else "Characters on this server"
    if not briefs:
        return limits.fit(_embed(heading, "None yet. Create one with `/character create` or `/character import`."))
    lines = [f"**{b.name}** \u00b7 {b.system} \u00b7 {'NPC' if b.npc else f'<@{b.owner_id}>'}" for b in briefs]
    embed = _embed(heading, limits.clip("\n".join(lines), limits.DESCRIPTION))
    embed.set_footer(text=f"{len(briefs)} character{'s' if len(briefs) != 1 else ''}")
    return limits.fit(embed)


# -- encounters ----------------------------------------------------------------------------------

def tracker(view: EncounterView) -> discord.Embed:
    """The pinned tracker message: round, turn order, each combatant's state."""
    state = f"Round {view.round}" if view.active else "Ended"
    embed = _embed(f"\u2694\ufe0f Encounter \u2014 {state}", "", Severity.INFO.colour if view.active
                   else Severity.NONE.colour)
    current = view.current
    if not view.combatants:
        embed.description = "Nobody is in the encounter yet: `/encounter add` or `/encounter npcs`."
    else:
        lines = []
        for number, combatant in enumerate(view.combatants, 1):
            marker = "\u25b6\ufe0f" if view.active and combatant is current else "\u2003"
            line = f"{marker} **{number}. {combatant.name}**"
            if combatant.initiative is not None:
                line += f" (initiative {combatant.initiative})"
            extra = []
            if combatant.condition:
                extra.append(condition_text(combatant.condition))
            if combatant.wounds:
                extra.append(f"{len(combatant.wounds)} wound{'s' if len(combatant.wounds) != 1 else ''}")
            if combatant.penalty:
                extra.append(f"penalty {signed(-abs(combatant.penalty))}")
            if combatant.declaration:
                extra.append("declared " + text(combatant.declaration))
            if extra:
                line += " \u2014 " + "; ".join(extra)
            lines.append(line)
        embed.description = "\n".join(lines)
        if view.active and current is not None:
            embed.add_field(name="Turn", value=f"{current.name} (<@{current.owner_id}>)" if not current.npc
                            else f"{current.name} (NPC)", inline=True)
    embed.set_footer(text=f"{system_title(view.system)} \u00b7 encounter #{view.id}")
    return limits.fit(embed)


def encounter_started(view: EncounterView) -> str:
    return f"An encounter starts in this channel ({system_title(view.system)}). The tracker below is kept up to date."


def encounter_ended(view: EncounterView) -> str:
    return f"The encounter ended after {view.round} round{'s' if view.round != 1 else ''}. Wounds stay on the sheets."


def tracker_moved() -> str:
    return "Tracker updated above."


# -- records -------------------------------------------------------------------------------------

def _when(moment: datetime | None) -> str:
    return f"<t:{int(moment.timestamp())}:t>" if moment is not None else ""


def event_line(event: EventView) -> str:
    summary: Mapping[str, Any] = event.summary or {}
    what = summary.get("text") or summary.get("headline")
    if not what:
        actor = summary.get("actor_name") or summary.get("actor") or event.user_name
        target = summary.get("target_name") or summary.get("target")
        kind = summary.get("action") or event.kind
        if isinstance(kind, Mapping):
            kind = kind.get("type") or event.kind
        names = summary.get("names")
        if summary.get("expression") is not None:
            what = f"{actor} rolled {summary['expression']} = {summary.get('total', '?')}"
        elif event.kind in ("join", "add_npcs", "leave") and isinstance(names, list):
            who = ", ".join(str(n) for n in names)
            what = f"{actor}: {who} {'left' if event.kind == 'leave' else 'joined'} the encounter"
        elif event.kind in EVENT_TITLES:
            what = f"{actor} {EVENT_TITLES[event.kind]}"
            if event.kind == "next_turn" and summary.get("round") is not None:
                what += f" (round {summary['round']})"
        else:
            what = action_heading(event.kind if event.kind in ACTION_TITLES else str(kind), str(actor),
                                  str(target) if target else None)
            outcome = summary.get("outcome")
            if isinstance(outcome, Mapping) and summary.get("system"):
                headline = describe(str(summary["system"]), outcome, (str(actor), str(target or actor))).headline
                if event.kind == "gm_decide":
                    what = f"The GM decides: {headline}"
                elif headline.startswith((f"**{actor}**", f"{actor} ")):
                    what = headline
                else:
                    what += f": {headline}"
    line = f"`#{event.id}` {_when(event.created_at)} {what}".replace("  ", " ")
    return f"~~{line}~~ (undone)" if event.undone else line


def log(events: Sequence[EventView]) -> discord.Embed:
    embed = _embed("\U0001f4dc Recent events in this channel")
    if not events:
        embed.description = "Nothing has happened here yet."
        return limits.fit(embed)
    lines = [limits.clip(event_line(e), 400) for e in events]
    embed.description = limits.clip("\n".join(lines), limits.DESCRIPTION)
    return limits.fit(embed)


def undone(event: EventView) -> discord.Embed:
    """What /undo took back; the GM decisions it asked for are closed, and those it had settled wait again
    (their buttons come with this embed)."""
    embed = _embed("\u21a9\ufe0f Undone", f"Took back {event_line(event).removeprefix('~~')}", Severity.NONE.colour)
    embed.description = (embed.description or "").split("~~ (undone)")[0]
    if event.closed:
        embed.add_field(name=NO_LONGER_NEEDED, value="\n".join(closed_line(d, undone=True) for d in event.closed),
                        inline=False)
    if event.reopened:
        embed.add_field(name=WAITING, value=_pending_lines(event.reopened), inline=False)
    embed.set_footer(text="The sheets and the encounter are as they were before it.")
    return limits.fit(embed)


# -- settings ------------------------------------------------------------------------------------

def settings(view: GuildSettingsView, rulings: Sequence[Setting] = ()) -> discord.Embed:
    embed = _embed("\u2699\ufe0f Grievous settings")
    system = f"**{view.system}** ({system_title(view.system)})"
    if view.channel_system:
        system += f"\nthis channel overrides the server's {view.guild_system}"
    embed.add_field(name="System here", value=system, inline=False)
    embed.add_field(name="GM role", value=f"<@&{view.gm_role_id}>" if view.gm_role_id else
                    "not set (members with Manage Server are GMs)", inline=True)
    embed.add_field(name="Shock and kill rolls", value="made by the bot" if view.rolls == "auto"
                    else "wait for the GM", inline=True)
    described = {s.name: s for s in rulings}
    lines = []
    for name, value in view.rulings.items():
        mark = " *(changed)*" if name in view.overridden else ""
        about = described.get(name)
        lines.append(f"`{name}` = **{text(value) if not isinstance(value, str) else value}**{mark}"
                     + (f" \u2014 {about.description}" if about else ""))
    embed.add_field(name="Rulings", value=limits.clip("\n".join(lines), limits.FIELD_VALUE) or "none", inline=False)
    return limits.fit(embed)


def system_set(system: str, channel_only: bool) -> discord.Embed:
    where = "this channel" if channel_only else "this server"
    return done(f"{where.capitalize()} now plays **{system_title(system)}** (`{system}`).")


def gm_role_set(role_id: int) -> discord.Embed:
    return done(f"<@&{role_id}> is the GM role: its members adjudicate and run GM commands.")


def rolls_set(mode: str) -> discord.Embed:
    if mode == "gm":
        return done("Shock and kill rolls now wait for the GM's buttons.")
    return done("The bot now makes shock and kill rolls itself.")


def ruling_set(name: str, value: str) -> discord.Embed:
    return done(f"Ruling `{name}` is now **{value}**.")


# -- help ----------------------------------------------------------------------------------------

HELP: dict[str, tuple[str, str]] = {
    "start": ("Getting started", (
        "1. A server manager picks the rules: `/setup system system:ars-harn` and the GM role: `/setup gm-role`.\n"
        "2. Each player makes a character: `/character create` or `/character import` with a YAML/JSON sheet.\n"
        "3. The GM starts a fight: `/encounter start`, `/encounter add`, `/encounter npcs template:bandit count:5`.\n"
        "4. `/encounter initiative`, then on your turn `/attack target:Bjorn weapon:broadsword`.\n"
        "5. Wounds stay on the sheets between sessions: `/injuries`, `/heal`, `/rest`.")),
    "setup": ("Setup (server managers)", (
        "`/setup show` \u2014 the settings here\n"
        "`/setup system` \u2014 ars-harn, pendragon or fading-suns; `channel_only:true` for one channel\n"
        "`/setup gm-role` \u2014 the role whose members are GMs\n"
        "`/setup rolls` \u2014 `auto`: the bot rolls shock and kill; `gm`: they wait for the GM's buttons\n"
        "`/setup ruling` \u2014 change one of the engine's rulings (autocompletes)")),
    "characters": ("Characters", (
        "`/character create name stats weapons armour` \u2014 stats as `str=2 sta=1 dex=1`\n"
        "`/character import sheet:<file>` \u2014 a YAML or JSON sheet (64 KiB at most)\n"
        "`/character show`, `/character list`\n"
        "`/character set-stat`, `/character add-item`, `/character remove-item`\n"
        "`/character delete` \u2014 asks first\n"
        "You own what you create; the GM may edit any character and owns NPCs.")),
    "encounters": ("Encounters", (
        "One per channel, with a pinned tracker that is edited as things change.\n"
        "`/encounter start`, `/encounter add character`, `/encounter npcs template count`\n"
        "`/encounter remove`, `/encounter initiative`, `/encounter declare` (ars-harn movement phase)\n"
        "`/encounter next`, `/encounter status`, `/encounter end`")),
    "combat": ("Combat", (
        "`/attack target weapon aspect aim modifier dice` \u2014 aspect and aim for ars-harn; "
        "`location` for Fading Suns; `save_excess` keeps excess points for next round\n"
        "`/cast target spell damage kind body_levels` \u2014 ars-harn damage and Body Level spells\n"
        "`/attack defense:dodge|parry` \u2014 Fading Suns: the target defends if the attack succeeds\n"
        "`/shock` \u2014 re-roll shock; `/advantage` \u2014 use a Tactical Advantage; `/rearm` after a fumble\n"
        "`dice:\"attack=7 location=55\"` uses the faces you rolled at the table; the rest are rolled.")),
    "injuries": ("Injuries and healing", (
        "`/injuries character` \u2014 every wound: location, code, levels, bleeding, penalty\n"
        "`/heal character method healer` \u2014 ars-harn: `chirurgy` or `spell`; Pendragon and Fading Suns: "
        "`first_aid` or `chirurgy` (Chirurgery; Physick)\n"
        "`/rest character days dice` \u2014 the healing rolls over time (Pendragon: by the week)")),
    "dice": ("Dice and records", (
        "`/roll expression` \u2014 `3d6+2`, `stress+5 vs 9`, `simple+3`, `d20 vs 14` (Pendragon), `fs vs 12` "
        "(Fading Suns)\n"
        "`/log` \u2014 the channel's recent rolls and events\n"
        "`/undo` \u2014 (GM) take back the last action of the encounter")),
    "gm": ("For the GM", (
        "Buttons under an attack ask you to decide (death or incapacitation, dying, an experience check ...); "
        "only the GM role can press them, and they keep working after a restart.\n"
        "With `/setup rolls mode:gm` the shock, kill, knockdown, major wound, fall, effect, STUMBLE and FUMBLE "
        "rolls wait for you: **Roll** lets the bot roll, **Dice** takes the faces you rolled; or "
        "`/pending-roll character roll dice`.\n"
        "`/undo` takes back the last action; `/encounter npcs` drops in NPCs from the content pack.")),
}


def help_topic(topic: str) -> discord.Embed:
    name, body = HELP.get(topic, HELP["start"])
    embed = _embed(f"\u2753 {name}", body)
    others = ", ".join(f"`{t}`" for t in HELP if t != topic)
    embed.set_footer(text=f"More: /help topic: {others}".replace("`", ""))
    return limits.fit(embed)


# -- button labels -------------------------------------------------------------------------------

CONFIRM_LABEL = "Delete"
CANCEL_LABEL = "Cancel"


# -- encounter lines -----------------------------------------------------------------------------

def joined(names: list[str]) -> str:
    return f"{', '.join(f'**{n}**' for n in names)} joined the encounter."


def npcs_joined(template: str, count: int) -> str:
    return f"{count} \u00d7 **{template}** joined the encounter."


def left(name: str) -> str:
    return f"**{name}** left the encounter."


def declared(character: str, aspect: str, aim: str, target: str) -> str:
    return f"**{character}** declares a {aim} {aspect} attack on **{target}**."


def next_turn(view: EncounterView) -> str:
    current = view.current
    if current is None:
        return "Nobody is in the encounter."
    who = "" if current.npc else f" (<@{current.owner_id}>)"
    return f"Round {view.round}: **{current.name}**'s turn{who}."


def initiative(view: EncounterView) -> discord.Embed:
    embed = tracker(view)
    embed.title = f"\U0001f3b2 Initiative \u2014 round {view.round}"
    if view.combatants and all(c.initiative is None for c in view.combatants):
        embed.description = f"{system_title(view.system)} rolls no initiative: both sides of each exchange roll at " \
                            f"once, so the order stays as listed.\n{embed.description}"
    return limits.fit(embed)
