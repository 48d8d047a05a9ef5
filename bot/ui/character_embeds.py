"""Character sheets, injuries and wounds, and /heal's treatments, in words."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import discord

from bot.services.results import CharacterBrief, CharacterView, PartyView, SheetEdit, TreatmentOffer
from bot.systems import profile_of
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.embed_common import _embed, system_title
from bot.ui.outcomes import Severity, human, signed, text, title
from rules.model import Wound


def treatment_offer(offer: TreatmentOffer) -> str:
    """``Erik offers Bjorn chirurgy. @Alice: accept?``"""
    who = "the GM" if offer.npc else f"<@{offer.owner_id}>"
    what = treatment_label(offer.system, offer.method).lower()
    return f"\U0001fa7a **{plain(offer.healer)}** offers **{plain(offer.patient)}** {what}. {who}: accept?"


def offer_answered(offer: TreatmentOffer, accepted: bool, user_id: int) -> str:
    verdict = "accepted" if accepted else "declined"
    what = treatment_label(offer.system, offer.method).lower()
    return f"\U0001fa7a **{plain(offer.healer)}** offered **{plain(offer.patient)}** {what}: {verdict} by <@{user_id}>."


def treatment_label(system: str, method: str) -> str:
    """/heal's neutral treatment ``method`` in the system's words (its profile's), else the name titled."""
    profile = profile_of(system)
    treatment = profile.treatments.get(method) if profile is not None else None
    return treatment.label if treatment is not None and treatment.label else title(method)


def _pairs(pairs: Iterable[tuple[str, str]], joiner: str = " \u00b7 ") -> str:
    return joiner.join(f"{plain(name)} **{plain(value)}**" for name, value in pairs)


# a derived figure at nothing: "Encumbrance 0", "Saved points 0", "Initiative -" (none rolled) say nothing a
# player reads a sheet for (issue 34, the reader's 7)
_NOTHING = frozenset({"0", "+0", "\u22120", "-", ""})


def _worth_showing(stats: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(name, value) for name, value in stats if str(value).strip() not in _NOTHING]


def _pendragon_kind(wound: Wound) -> str:
    """Pendragon has no hit locations: a wound is a wound, a major wound or a mortal wound."""
    return {"mortal": "mortal wound", "major": "major wound"}.get(str(wound.code).lower(), "wound")


def _hit_points(count: int) -> str:
    return f"{count} hit point{'s' if count != 1 else ''}"


def _by_hit_points(system: str) -> bool:
    """The system's wounds are hit points lost, not marks on hit locations (Pendragon)."""
    profile = profile_of(system)
    return profile is not None and not profile.hit_locations


def wound_brief(wound: Wound, system: str = "") -> str:
    """A wound in a few words, for a line per character: ``S2 face``; Pendragon's ``major wound (16 hit
    points)`` (``major wound`` where its hit points were left out: an NPC's behind the screen)."""
    if _by_hit_points(system):
        return f"{_pendragon_kind(wound)} ({_hit_points(wound.levels)})" if wound.levels else _pendragon_kind(wound)
    code, severity = plain(wound.code), human(wound.severity)
    # a code that only shortens the severity (Fading Suns' MIN) is said in words (issue 34, F5)
    shown = severity if code and severity.casefold().startswith(code.casefold()) else code
    return f"{shown} {human(wound.location)}".strip()


def wound_line(wound: Wound, system: str = "") -> str:
    code, severity = plain(wound.code), human(wound.severity)
    if _by_hit_points(system):  # no locations; "levels" are the hit points the wound still holds (0: left out)
        # the index marked as one ("#2"): a bare "2 mortal wound" read as two wounds (issue 34, P8)
        parts = [f"`#{wound.index}` **{_pendragon_kind(wound)}**"]
        if wound.levels:
            parts.append(_hit_points(wound.levels))
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
    return ", ".join(f"initiative {signed(int(found[1]))}" if (found := _INITIATIVE_NOTE.fullmatch(part))
                     else plain(part) for part in parts)


def healing_next(wound: Wound, system: str) -> str | None:
    """What comes next for the wound with rest, in the system's words (``next healing roll after 3 more days of
    rest``); None where the system counts no days."""
    profile = profile_of(system)
    if profile is None or not profile.healing_next or wound.next_healing is None:
        return None
    words = profile.healing_next.format(days=wound.next_healing, weeks=wound.next_healing // 7)
    return words.replace(" 1 more days", " 1 more day").replace(" 1 more weeks", " 1 more week")


def _wounds_value(wounds: Sequence[Wound], system: str = "") -> str:
    """The wounds in one field's value; what does not fit is counted, pointing at /injuries."""
    return _wound_values(wounds, system, fields=1, more="see /injuries")[0]


def _wound_values(wounds: Sequence[Wound], system: str, *, fields: int, more: str) -> list[str]:
    """The wound lines spread over at most ``fields`` field values, in order; what does not fit in them is
    counted on the last one (``more`` says where to read the rest)."""
    if not wounds:
        return ["none"]
    lines = [wound_line(w, system) for w in wounds]
    # what bleeding does, and what stops it, said once under the list
    profile = profile_of(system)
    note = profile.bleeding_note if profile and profile.bleeding_note and any(w.bleeding for w in wounds) else None
    room = limits.FIELD_VALUE - len(f"\u2026 and {len(lines)} more ({more})") - 1  # the count line always fits
    values: list[list[str]] = [[]]
    used = 0
    for number, line in enumerate(lines):
        last = len(values) == fields
        if used + len(line) + 1 > room - (len(note) + 1 if note and last else 0):
            if last:
                values[-1].append(f"\u2026 and {len(lines) - number} more ({more})")
                break
            values.append([])
            used = 0
        values[-1].append(line)
        used += len(line) + 1
    if note:
        if used + len(note) + 1 > room:  # only where a field before the last is full: the last keeps room for it
            values.append([])
        values[-1].append(note)
    return ["\n".join(value) for value in values]


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
    return plain(str(condition).replace("_", " "))


def character(view: CharacterView) -> discord.Embed:
    kind = "NPC" if view.npc else f"<@{view.owner_id}>"
    embed = _embed(plain(view.name), f"{system_title(view.system)} \u00b7 {'NPC' if view.npc else 'player character'}",
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
        stats = _worth_showing(summary.stats)
        if stats:
            embed.add_field(name="Stats", value=_pairs(stats), inline=False)
        if summary.equipment:
            embed.add_field(name="Equipment", value=_pairs(summary.equipment, "\n"), inline=False)
        embed.add_field(name=f"Wounds ({len(summary.wounds)})", value=_wounds_value(summary.wounds, view.system),
                        inline=False)
        embed.colour = discord.Colour(_wound_colour(summary.wounds))
    checks = view.sheet.get("experience_checks")
    if isinstance(checks, list) and checks:  # Pendragon: the checks the GM approved (they were only in the export)
        embed.add_field(name="Experience checks", value=limits.clip(
            ", ".join(plain(str(check).replace("_", " ")) for check in checks) + " (approved by the GM)",
            limits.FIELD_VALUE), inline=False)
    if view.behind_screen:
        embed.add_field(name="Sheet", value="The GM keeps the rest behind the screen (secret rolls).", inline=False)
        return limits.fit(embed)
    embed.add_field(name="Owner", value=kind, inline=True)
    embed.set_footer(text=f"character #{view.id} \u00b7 version {view.version}")
    return limits.fit(embed)


# A condition set, and cleared, as the channel reads it; any other reads "is now ..." / "is no longer ...".
_CONDITION_WORDS = {
    "out_of_fight": ("yields: out of the fight", "is back in the fight"),
    "prone": ("is down (prone)", "is back on their feet"),
    "shock": ("is in shock", "is out of shock"),
    "dead": ("is dead", "is no longer dead"),
    "mounted": ("is mounted", "is on foot"),
    "must_rearm": ("must re-arm before attacking again", "no longer needs to re-arm"),
    "chirurgery_needed": ("needs chirurgery", "no longer needs chirurgery"),
}


def _condition_change(name: str, edit: SheetEdit) -> str:
    condition = str(edit.field)
    if not edit.changed:
        return f"Nothing changed: {name} was {'already' if edit.value else 'not'} {condition_text(condition)}"
    words = _CONDITION_WORDS.get(condition)
    if words is not None:
        return f"{name} {words[0] if edit.value else words[1]}"
    return f"{name} is {'now' if edit.value else 'no longer'} {condition_text(condition)}"


def edit_line(view: CharacterView) -> str:
    """The one line the channel reads after a create, an import or an edit: what changed, never the sheet
    (``Black Guard 1 yields: out of the fight``, ``Sir Elyan now carries a spear``, ``Bandit 2 joins the roster
    (NPC)``). Of an NPC behind the GM's screen, it says only that the GM changed it."""
    edit = view.edit
    name = plain(view.name)
    if edit is None:
        return f"{name}'s sheet is saved"
    source = f" from {plain(edit.source)}" if edit.source else ""
    if edit.kind in ("created", "imported"):
        return f"{name} joins the roster{source}" + (" (NPC)" if view.npc else "")
    if edit.kind == "replaced":
        return f"{name}'s sheet is replaced{source}"
    if edit.kind == "condition":
        return _condition_change(name, edit)
    if edit.screened or edit.field is None:
        return f"The GM changed {name}'s {'sheet' if edit.kind == 'stat' else 'gear'} (behind the screen)"
    item = plain(str(edit.field))
    if edit.kind == "stat":
        if not edit.changed:
            return f"{name}'s {item} was {text(edit.value)} already: nothing changed"
        return f"{name}'s {item} is now {text(edit.value)}"
    if edit.item_kind == "armour":
        return f"{name} now wears {item}" if edit.kind == "added" else f"{name} no longer wears the {item}"
    if edit.kind == "added":
        return f"{name} now carries {'an' if item[:1].casefold() in 'aeiou' else 'a'} {item}"
    return f"{name} no longer carries the {item}"


def injuries(view: CharacterView) -> discord.Embed:
    wounds = view.wounds
    condition = condition_text(view.summary.condition) if view.summary else ""
    embed = _embed(f"\U0001fa79 {plain(view.name)}'s injuries", condition, _wound_colour(wounds))
    if not wounds:
        embed.description = (condition + "\n" if condition else "") + "No wounds."
    else:
        total = sum(abs(w.penalty) for w in wounds)
        # /injuries is where the whole list is read: up to five fields of it, then the export has the rest
        for number, value in enumerate(_wound_values(wounds, view.system, fields=5,
                                                     more="/character export has every one")):
            embed.add_field(name=f"Wounds ({len(wounds)})" if number == 0 else "Wounds, continued", value=value,
                            inline=False)
        if total:
            embed.add_field(name="Total penalty", value=signed(-total), inline=True)
        bleeding = sum(1 for w in wounds if w.bleeding)
        if bleeding:
            embed.add_field(name="Bleeding", value=f"{bleeding} wound{'s' if bleeding != 1 else ''}", inline=True)
    embed.set_footer(text=system_title(view.system))
    return limits.fit(embed)


def party_injuries(party: PartyView, pictured: int) -> discord.Embed:
    """One line per character (the picture shows the first ``pictured`` of them, in this order)."""
    lines = []
    for view in party.characters:
        wounds = view.wounds
        codes = ", ".join(wound_brief(w, view.system) for w in wounds[:4]) + (" \u2026" if len(wounds) > 4 else "")
        state = condition_text(view.summary.condition) if view.summary else ""
        state = "" if state in ("ok", "ready") else state
        lines.append(f"**{plain(view.name)}** \u00b7 {codes or 'no wounds'}" + (f" \u00b7 {state}" if state else ""))
    embed = _embed("\U0001fa79 The party's injuries", limits.clip("\n".join(lines), limits.DESCRIPTION),
                   _wound_colour([w for v in party.characters for w in v.wounds]))
    count = len(party.characters)
    who = f"{count} player character{'s' if count != 1 else ''}"
    where = "in this encounter" if party.where == "encounter" else "on this server"
    more = f" \u00b7 the picture shows the first {pictured}" if count > pictured else ""
    embed.set_footer(text=f"{who} {where}{more}")
    return limits.fit(embed)


def character_list(briefs: Sequence[CharacterBrief], *, mine: bool = False) -> discord.Embed:
    heading = "Your characters" if mine else "Characters on this server"
    if not briefs:
        return limits.fit(_embed(heading, "None yet. Create one with `/character create` or `/character import`."))
    lines = [f"**{plain(b.name)}** \u00b7 {b.system} \u00b7 {'NPC' if b.npc else f'<@{b.owner_id}>'}" for b in briefs]
    embed = _embed(heading, limits.clip("\n".join(lines), limits.DESCRIPTION))
    embed.set_footer(text=f"{len(briefs)} character{'s' if len(briefs) != 1 else ''}")
    return limits.fit(embed)
