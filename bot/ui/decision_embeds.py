"""GM decisions in words: the waiting lines and button labels, and the messages they are taken or closed on."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.services.results import PendingDecisionView
from bot.systems import PROFILES
from bot.text_safety import label, plain
from bot.ui import limits
from bot.ui.outcomes import human, title
from bot.ui.outcomes.common import MORTAL_MARK

# A waiting GM decision, as the start of its line under an action ({who} is the character): each profile's
# decision kinds, and two kinds no engine leaves any more, which a stored decision may still hold.
DECISION_PROMPTS = {
    "shock": "{who}'s shock roll",
    "experience": "{who}: an experience check",
    **{kind: words.prompt for profile in PROFILES.values() for kind, words in profile.decisions.items()},
}
# How a choice reads in that line, and on its button.
CHOICE_WORDS = {"unconscious": "mercy (unconscious)", "none": "no damage", "damage": "damage (you give the amount)",
                "approve": "approve", "deny": "deny"}
CHOICE_LABELS = {"roll": "Roll", "dice": "Dice", "none": "No damage", "damage": "Damage\u2026"}


def decision_label(choice: str) -> str:
    return limits.clip(CHOICE_LABELS.get(choice, title(choice)), limits.BUTTON_LABEL)


# the rolls a GM may make for the bot (each profile's roll_names)
ROLL_NAMES = {roll: name for profile in PROFILES.values() for roll, name in profile.roll_names.items()}


def roll_name(decision: PendingDecisionView) -> str:
    """What a roll the GM makes is called: ``shock roll``, ``wound-effect roll``."""
    roll = decision.roll or decision.kind
    return ROLL_NAMES.get(roll, f"{human(roll)} roll")


def decision_button_label(decision: PendingDecisionView, choice: str) -> str:
    """A GM button's label: the choice, and for a roll the GM makes, whose roll it is (a message may carry
    several): ``Roll: Bandit 1's shock``."""
    if decision.roll is not None:
        what = f"{label(decision.who)}'s {label(roll_name(decision)).removesuffix(' roll').removesuffix(' rolls')}"
        return limits.clip(f"{CHOICE_LABELS.get(choice, title(choice))}: {what}", limits.BUTTON_LABEL)
    return decision_label(choice)


def decision_taken(decision: PendingDecisionView, user_name: str) -> str:
    return f"The GM ({plain(user_name)}) chose **{human(decision.choice or '?')}** for {plain(decision.who)}."


def decision_line(decision: PendingDecisionView) -> str | None:
    """Who decided, under the line saying what came of it: ``Chosen by @gm.`` (that line names the choice
    already: issue 34, N14); for a roll: ``The GM rolled Bandit 1's shock roll (@gm).``. None for a choice
    nobody is named for."""
    if decision.roll is not None:
        by = f" (<@{decision.decided_by}>)" if decision.decided_by else ""
        how = " with the dice rolled at the table" if decision.choice == "dice" else ""
        return f"The GM rolled {plain(decision.who)}'s **{roll_name(decision)}**{how}{by}."
    return f"Chosen by <@{decision.decided_by}>." if decision.decided_by else None


WAITING = "\u23f3 Waiting for the GM"  # the field listing the decisions whose buttons the message carries


def _pending_head(decision: PendingDecisionView) -> str:
    """The start of a waiting decision's line, which says whose and what it is (and finds the line again)."""
    if decision.roll is not None:
        return f"{plain(decision.who)}'s {roll_name(decision)}"
    return DECISION_PROMPTS.get(decision.kind, "{who}: " + human(decision.kind)).format(who=plain(decision.who))


def pending_line(decision: PendingDecisionView) -> str:
    """``Bandit 1's shock roll: the GM presses Roll, or Dice ...``,
    ``Bandit 1 failed the kill roll: the GM chooses death or incapacitation.``"""
    if decision.roll is not None:
        return f"{_pending_head(decision)}: the GM presses **Roll**, or **Dice** to type the faces rolled at the table."
    options = " or ".join(f"**{human(CHOICE_WORDS.get(o, o))}**" for o in decision.options) or "a ruling"
    return f"{_pending_head(decision)}: the GM chooses {options}."


def _pending_lines(pending: Sequence[PendingDecisionView]) -> str:
    return "\n".join(pending_line(decision) for decision in pending)


def copied_embed(message: discord.Message) -> discord.Embed:
    """The first embed of a sent message, to edit it: its picture pointed back at the message's own file
    (attachment://name). The embed as fetched holds the file's CDN address instead, and an edit saying that
    makes Discord show the file a second time, below the embed (discord-api-docs#5675)."""
    embed = message.embeds[0].copy()
    own = {a.url.split("?")[0]: a.filename for a in message.attachments}
    for media, put in ((embed.thumbnail, embed.set_thumbnail), (embed.image, embed.set_image)):
        name = own.get((media.url or "").split("?")[0])
        if name is not None:
            put(url=f"attachment://{name}")
    return embed


def mark_decided(embed: discord.Embed, decision: PendingDecisionView,
                 moot: Sequence[PendingDecisionView] = ()) -> discord.Embed:
    """The embed of the message the GM's buttons were on, once ``decision`` is taken: its line (and those of
    the ``moot`` rolls it made needless) leave the waiting field (dropped when empty), and a "dying" that death
    or survival settled no longer says so. What the GM decided, and what it led to, is the new message posted
    below it, said once there (issue 34, N14): this message only stops waiting."""
    heads = tuple(_pending_head(d) for d in (decision, *moot))
    settled = decision.kind in ("dying", "death", "kill")
    who = plain(decision.who)
    if settled and embed.description:  # "💀 Bandit 1 is dying": the decision settles it
        embed.description = "\n".join(line for line in embed.description.splitlines()
                                       if not (line.startswith(MORTAL_MARK) and who in line)) or None
    fields = [(f.name or "", f.value or "", bool(f.inline)) for f in embed.fields]
    embed.clear_fields()
    for name, value, inline in fields:
        if name == WAITING:
            # this decision's line (older messages began every line with "<who>: ")
            left = [line for line in value.splitlines()
                    if not line.startswith(heads) and not line.startswith(f"{who}: ")]
            if left:
                embed.add_field(name=name, value="\n".join(left), inline=inline)
            continue
        if settled and name in _SETTLED_FIELDS and who in value:
            continue
        embed.add_field(name=name, value=value, inline=inline)
    return limits.fit(embed)


# Fields saying a character hangs between life and death, which the GM's decision settles; a late post's
# Details also show the Condition the blow left ("Keeper 1: incapacitated"), which death made wrong (issue 34,
# the reader's 11): the decision's own message below says the condition now.
_SETTLED_FIELDS = ("Dying", "Effect", "Condition")
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
