"""The encounter tracker, the initiative embed and the one-line encounter replies."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.services.results import CombatantView, EncounterView, NpcsCleared, SkippedTurn
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.character_embeds import condition_text
from bot.ui.embed_common import _embed, system_title
from bot.ui.outcomes import Severity, signed, text
from bot.ui.way_out_words import fight_ended_line
from rules.sheet_spec import name_key


def tracker(view: EncounterView) -> discord.Embed:
    """The pinned tracker message: round, turn order, one short line per combatant (``combatant_line``), as
    ``view`` holds them (the channel's: ``EncounterView.public``). Every command edits it: each line is kept to
    what fits a phone's width where it can (issue 34, N5)."""
    state = f"Round {view.round}" if view.active else "Ended"
    embed = _embed(f"\u2694\ufe0f Encounter \u2014 {state}", "", Severity.INFO.colour if view.active
                   else Severity.NONE.colour)
    current = view.current
    if not view.combatants:
        embed.description = "Nobody is in the encounter yet: `/encounter add` or `/encounter npcs`."
    else:
        embed.description = "\n".join(combatant_line(number, combatant, view.active, combatant is current)
                                       for number, combatant in enumerate(view.combatants, 1))
        if view.active and current is not None:
            embed.add_field(name="Turn", value=turn_value(current), inline=True)
    embed.set_footer(text=f"{system_title(view.system)} \u00b7 encounter #{view.id}")
    return limits.fit(embed)


# An engine's condition line when nothing is wrong: the tracker says nothing then.
_FINE = frozenset({"ok", "ready"})


def _waiting(part: str) -> bool:
    """A condition part that is a GM decision or a roll still to make ("awaiting GM decision", "owes shock roll",
    "1 pending roll(s)"): the message with its buttons says it; the tracker holds the fight's state."""
    return part.startswith(("awaiting GM", "owes ")) or part.endswith("pending roll(s)")


def combatant_line(number: int, combatant: CombatantView, active: bool = True, current: bool = False) -> str:
    """``▶️ **3. Bjorn** (7) · prone · 3 wounds (−4) · acted``: the turn mark, the place in the order (what
    ``/encounter order position`` counts), initiative, what is wrong with them, their wounds and penalty, and
    while the fight goes on, whether their action this round is spent (or what they declared for it)."""
    marker = "\u25b6\ufe0f" if active and current else turn_mark(combatant)
    line = f"{marker} **{number}. {plain(combatant.name)}**"
    if combatant.initiative is not None:
        line += f" ({combatant.initiative})"
    parts = _condition_parts(combatant.condition)
    penalty = signed(-abs(combatant.penalty)) if combatant.penalty else ""  # left out for a screened NPC
    if combatant.wounds:
        count = len(combatant.wounds)
        wounds = f"{count} wound{'s' if count != 1 else ''}"
        parts.append(f"{wounds} ({penalty})" if penalty else wounds)
    elif penalty:
        parts.append(f"penalty {penalty}")
    plan = _plan(combatant) if active and not combatant.readiness.skipped else ""
    if plan:
        parts.append(plan)
    return " \u00b7 ".join([line, *parts])


def _condition_parts(condition: str) -> list[str]:
    """The engine's condition line (``incapacitated, awaiting GM decision``) as the tracker's parts
    (``incapacitated``); the sheet and /injuries keep the whole line."""
    parts = [part.strip() for chunk in str(condition).split(";") for part in chunk.split(",")]
    return [condition_text(part) for part in parts if part and part not in _FINE and not _waiting(part)]


def _plan(combatant: CombatantView) -> str:
    """What the combatant's round holds: ``acted`` once its action is spent, else an ars-harn declaration
    (``high edge → Bandit 1``)."""
    if combatant.acted:
        return "acted"
    declaration = combatant.declaration
    how = " ".join(text(declaration[key]) for key in ("aim", "aspect") if declaration.get(key))
    target = declaration.get("target")
    if target:
        return f"{how} \u2192 {plain(target)}".strip()
    return how


def turn_value(current: CombatantView) -> str:
    """The tracker's Turn field: whose turn, whose player; one given the turn only for what it still may do says
    what that is in the engine's words (``Bjorn (@bob) is in shock: re-roll Shock (/shock) or be led off``)."""
    who = f"{plain(current.name)} (<@{current.owner_id}>)" if not current.npc else f"{plain(current.name)} (NPC)"
    if not current.readiness.can_act and current.readiness.words:
        who += f" {current.readiness.words}"
    return who


def encounter_started(view: EncounterView) -> str:
    return f"An encounter starts here ({system_title(view.system)}). The tracker below is kept up to date."


def encounter_ended(view: EncounterView) -> str:
    line = f"The encounter ended after {view.round} round{'s' if view.round != 1 else ''}. Wounds stay on the sheets."
    if view.npcs_removed:
        line += f" Its NPCs are gone: {_npcs(view.npcs_removed, view.npcs_left)}."
    if view.npcs_kept:
        line += f" Its NPCs stay: {_npcs(view.npcs_kept, view.npcs_left)}."
    for ended in view.fight_ended[:10]:
        line += f"\n{fight_ended_line(view.system, ended)}"
    return line


def _npcs(names: tuple[str, ...], left: tuple[str, ...]) -> str:
    """``Bandit 1, Bandit 3 (had left)``: an encounter's NPCs, those that left it before its end marked."""
    return ", ".join(f"{plain(name)} (had left)" if name in left else plain(name) for name in names)


def _listed(names: tuple[str, ...]) -> str:
    return ", ".join(map(plain, names[:20])) + (f" and {len(names) - 20} more" if len(names) > 20 else "")


def npcs_cleared(cleared: NpcsCleared) -> str:
    names = cleared.deleted
    if names:
        text = f"Deleted {len(names)} NPC{'s' if len(names) != 1 else ''}: {_listed(names)}."
    else:
        text = "No NPC to clear: every NPC an encounter made is in an encounter, or there are none."
    if cleared.hand_made:
        text += (f" Kept, made by hand: {_listed(cleared.hand_made)} "
                 "(/character delete removes one).")
    return text


def tracker_moved() -> str:
    return "Tracker updated above."


# -- encounter lines -----------------------------------------------------------------------------

def joined(names: list[str]) -> str:
    return f"{', '.join(f'**{plain(n)}**' for n in names)} joined the encounter."


def npcs_joined(template: str, count: int, names: Sequence[str] = ()) -> str:
    """``2 × **Bandit** joined the encounter.``; one NPC by its name (``**Thug 1** joined the encounter.``, as a
    character's join reads); NPCs named apart from their template are named, the template beside them
    (``**Baron Vasska** (Decados Duellist) joined the encounter.``, issue 34, F3)."""
    if not names or all(name_key(name).startswith(name_key(template)) for name in names):
        if len(names) == 1:
            return joined(list(names))
        return f"{count} \u00d7 **{plain(template)}** joined the encounter."
    kind = plain(template) if len(names) == 1 else f"{len(names)} \u00d7 {plain(template)}"
    return f"{', '.join(f'**{plain(n)}**' for n in names)} ({kind}) joined the encounter."


def left(name: str, view: EncounterView | None = None) -> str:
    """/encounter remove; an NPC the encounter made goes with its end: said now, while the GM may still keep it."""
    line = f"**{plain(name)}** left the encounter."
    if view is not None and view.npcs_left:
        line += " They go with it at `/encounter end` (`keep_npcs:true` keeps them)."
    return line


def declared(character: str, aspect: str, aim: str, target: str) -> str:
    return f"**{plain(character)}** declares a {plain(aim)} {plain(aspect)} attack on **{plain(target)}**."


def turn_mark(combatant: CombatantView) -> str:
    """The tracker's mark before a name: passed over (its condition follows the name), or given the turn only
    for what it still may do; a space for those who can act."""
    ready = combatant.readiness
    if ready.can_act:
        return "\u2003"
    return "\u23ed\ufe0f" if ready.skipped else "\u26a0\ufe0f"


def skipped_line(turn: SkippedTurn) -> str:
    """One line a passed-over turn: ``Bandit 1 is dead: skipped.``; a turn lost that ends the condition (a Fading
    Suns stun): ``Thug 1 is stunned: loses this turn, then recovers.``"""
    if turn.recovered:
        return f"**{plain(turn.name)}** {turn.words}: loses this turn, then recovers."
    return f"**{plain(turn.name)}** {turn.words}: skipped."


def next_turn(view: EncounterView) -> str:
    current = view.current
    if current is None:
        return "Nobody is in the encounter."
    lines = [skipped_line(turn) for turn in view.skipped[:10]]
    if len(view.skipped) > 10:
        lines.append(f"\u2026 and {len(view.skipped) - 10} more skipped.")
    if view.stalled:
        lines.append(f"Round {view.round}: nobody in the encounter can act. `/encounter end` it, or mend someone.")
        return "\n".join(lines)
    who = "" if current.npc else f" (<@{current.owner_id}>)"
    line = f"Round {view.round}: **{plain(current.name)}**'s turn{who}."
    if not current.readiness.can_act:
        line += f" {plain(current.name)} {current.readiness.words}."
    lines.append(line)
    return "\n".join(lines)


def order_changed(view: EncounterView) -> str:
    """/encounter order: the new order, in one line (long fights are clipped to the first names)."""
    order = ", ".join(f"{n}. {plain(c.name)}" for n, c in enumerate(view.combatants[:15], 1))
    if len(view.combatants) > 15:
        order += f", \u2026 {len(view.combatants) - 15} more"
    moved = ", ".join(f"**{plain(name)}**" for name in view.moved)
    current = view.current
    if current is None:
        turn = ""
    elif view.round_restarted:  # nobody had acted: the round starts at the new first
        turn = f" Nobody had acted yet: the round starts with **{plain(current.name)}**."
    else:
        turn = f" It is still **{plain(current.name)}**'s turn."
    return f"Turn order changed ({moved} moved): {order}.{turn}"


def delayed(view: EncounterView) -> str:
    """/encounter delay: who holds the turn, whom they now act after, and whose turn it is."""
    who = plain(view.moved[0]) if view.moved else "?"
    line = f"**{who}** holds the turn and will act after **{plain(view.delayed_after or '?')}**."
    return f"{line}\n{next_turn(view)}"


def gm_initiative(view: EncounterView) -> discord.Embed | None:
    """Under secret rolls, the whole initiative (the NPCs' scores and faces) for the GM alone: ``view`` whole, not
    its ``public`` projection (None: nothing was kept back)."""
    if not view.secret_npcs or not any(c.npc and c.initiative is not None for c in view.combatants):
        return None
    return initiative(view)


def initiative(view: EncounterView) -> discord.Embed:
    """/encounter initiative: the order it set, in one paragraph, and the faces; each combatant's state is the
    pinned tracker's to show (it is brought up to date too: not posted a second time here). ``view`` as its
    reader may see it (the channel's: ``EncounterView.public``)."""
    embed = _embed(f"\U0001f3b2 Initiative \u2014 round {view.round}", "", Severity.INFO.colour)
    order = " \u00b7 ".join(f"{number}. **{plain(c.name)}**"
                            + (f" ({c.initiative})" if c.initiative is not None else "")
                            for number, c in enumerate(view.combatants, 1))
    embed.description = order or "Nobody is in the encounter yet: `/encounter add` or `/encounter npcs`."
    if view.combatants and all(c.initiative is None for c in view.combatants):
        embed.description = f"{system_title(view.system)} rolls no initiative: both sides of each exchange roll at " \
                            f"once, so the order stays as listed (`/encounter order` changes it).\n{embed.description}"
    current = view.current
    if view.active and current is not None:
        embed.add_field(name="Turn", value=f"{plain(current.name)} (<@{current.owner_id}>)" if not current.npc
                        else f"{plain(current.name)} (NPC)", inline=True)
    if view.initiative_rolls:
        faces = []
        for roll in view.initiative_rolls:
            if roll.faces:
                shown = ",".join(str(f) for f in roll.faces)
                faces.append(f"{plain(roll.name)}: {'typed' if roll.typed else 'rolled'} {shown}")
        if faces:
            embed.add_field(name="Faces", value=limits.clip("\n".join(faces), limits.FIELD_VALUE), inline=False)
    skipped = [skipped_line(turn) for turn in view.skipped[:10]]
    if skipped:
        embed.add_field(name="Skipped", value=limits.clip("\n".join(skipped), limits.FIELD_VALUE), inline=False)
    return limits.fit(embed)
