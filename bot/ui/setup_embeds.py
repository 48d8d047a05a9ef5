"""The /setup embeds: what is in force in a channel, and what a change did."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord_permissions import Needed
from bot.services.results import PackView, SetupView
from bot.services.rulings import ROLLS_RULING
from bot.systems import gm_rolls, gm_rolls_heading
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.embed_common import _embed, done, system_title
from bot.ui.outcomes import Severity, text
from bot.ui.outcomes.common import label_text
from content.errors import PackProblems
from rules.model import Ruling


def setup_shown(view: SetupView, rulings: Sequence[Ruling] = ()) -> discord.Embed:
    embed = _embed("\u2699\ufe0f Grievous settings")
    system = f"**{view.system}** ({system_title(view.system)})"
    if view.channel_system:
        system += f"\nthis channel overrides the server's {view.guild_system}"
    embed.add_field(name="System here", value=system, inline=False)
    embed.add_field(name="GM role", value=f"<@&{view.gm_role_id}>" if view.gm_role_id else
                    "not set (members with Manage Server are GMs)", inline=True)
    embed.add_field(name=gm_rolls_heading(view.system), value="made by the bot" if view.rolls == "auto"
                    else "wait for the GM", inline=True)
    embed.add_field(name="Turns", value=TURNS_WORDS.get(view.turns, view.turns), inline=True)
    embed.add_field(name="NPC rolls", value=_secret_words(view.secret_rolls, view.gm_channel_id), inline=True)
    described = {s.name: s for s in rulings}
    lines = []
    for name, value in view.rulings.items():
        if name == ROLLS_RULING:  # the switch above (/setup rolls) says it
            continue
        mark = " *(changed)*" if name in view.overridden else ""
        about = described.get(name)
        lines.append(f"`{name}` = **{text(value) if not isinstance(value, str) else plain(value)}**{mark}"
                     + (f" \u2014 {about.description}" if about else ""))
    chunks = _chunks(lines, limits.FIELD_VALUE) or ["none"]
    for number, chunk in enumerate(chunks, start=1):
        name = "Rulings" if len(chunks) == 1 else f"Rulings ({number}/{len(chunks)})"
        embed.add_field(name=name, value=chunk, inline=False)
    embed.set_footer(text="/setup ruling changes one of them")
    return limits.fit(embed)


def _chunks(lines: Sequence[str], limit: int) -> list[str]:
    """``lines`` joined into as few texts of at most ``limit`` units as whole lines allow (every ruling shows;
    a single line over the limit is clipped)."""
    chunks: list[str] = []
    current: list[str] = []
    for line in lines:
        line = limits.clip(line, limit)
        if current and limits.size("\n".join([*current, line])) > limit:
            chunks.append("\n".join(current))
            current = []
        current.append(line)
    if current:
        chunks.append("\n".join(current))
    return chunks


def system_set(system: str, channel_only: bool, commands_problem: discord.HTTPException | None = None
               ) -> discord.Embed:
    where = "this channel" if channel_only else "this server"
    said = f"{where.capitalize()} now plays **{system_title(system)}** (`{system}`)."
    if commands_problem is not None:
        said += f"\n\n\u26a0 {commands_not_updated(commands_problem)}"
    return done(said)


def commands_not_updated(exc: discord.HTTPException) -> str:
    """Why this server's command list could not be changed, and what happens now."""
    if exc.code == 30034:
        why = "Discord allows 200 new commands a day in a server, and today's are used up"
    elif exc.status == 429:
        why = "Discord is limiting how fast the bot may change commands just now"
    elif exc.status in (401, 403):
        why = ("the bot may not manage this server's commands: invite it again with the URL "
               "`grievous invite` prints (it has the applications.commands scope)")
    else:
        why = f"Discord answered {exc.status} ({exc.code or 'no code'})"
    return (f"This server's commands could not be updated: {why}. Until they are, commands such as /attack "
            "keep their old options; run this again later (the bot also tries at its next start).")


YES, NO = "\u2705", "\u274c"


def setup_check(here: str, can_here: Sequence[tuple[Needed, bool]], gm: str | None,
                can_gm: Sequence[tuple[Needed, bool]] | None, commands_current: bool,
                commands_problem: discord.HTTPException | None) -> discord.Embed:
    """/setup check: what the bot can and cannot do here and in the GM channel, whether the server's
    commands are current, and what a manager should change."""
    changes = [f"Give my role **{needed.name}** in {where} (Server Settings \u2192 Roles, or the channel's "
               "permissions)." for where, can in ((here, can_here), (gm, can_gm or ())) for needed, has in can
               if not has]
    if gm is not None and can_gm is None:
        changes.append("Choose a GM channel I can see with `/setup secret-rolls`.")
    ok = not changes and commands_current
    if ok:
        summary = "Everything is in order."
    elif changes:
        summary = "Some things need a change: see **What to change**."
    else:  # only the commands lag: the section that says so is Commands (issue 34, N10)
        summary = "Everything here is in order; the commands are not current yet: see **Commands**."
    embed = _embed("\U0001f50e What Grievous can do here", summary, (Severity.LIGHT if ok else Severity.SERIOUS).colour)

    def lines(can: Sequence[tuple[Needed, bool]]) -> str:
        return "\n".join(f"{YES if has else NO} {needed.why[0].upper()}{needed.why[1:]} (**{needed.name}**)"
                         for needed, has in can)

    # A mention shows as a name only in a field's value (a field's name shows it raw: <#1000...>).
    embed.add_field(name="Here", value=f"In {here}:\n{lines(can_here)}", inline=False)
    if gm is None:
        embed.add_field(name="GM channel", value="None chosen: secret rolls go only to the GM who rolled "
                        "(`/setup secret-rolls` chooses one).", inline=False)
    elif can_gm is None:
        embed.add_field(name="GM channel", value=f"{gm}: I cannot see that channel any more.", inline=False)
    else:
        embed.add_field(name="GM channel", value=f"In {gm}:\n{lines(can_gm)}", inline=False)
    if commands_current:
        commands = "\u2705 This server's commands are up to date."
    elif commands_problem is not None:
        commands = f"\u274c {commands_not_updated(commands_problem)}"
    else:
        commands = "\u23f3 This server's commands are being updated; they will be current in a moment."
    embed.add_field(name="Commands", value=commands, inline=False)
    if changes:
        embed.add_field(name="What to change", value="\n".join(f"\u2022 {c}" for c in changes), inline=False)
    return limits.fit(embed)


def gm_role_set(role_id: int) -> discord.Embed:
    return done(f"<@&{role_id}> is the GM role: its members adjudicate and run GM commands.")


def rolls_set(mode: str, system: str) -> discord.Embed:
    """/setup rolls, in the words of the channel's system (the switch holds for every system of the server)."""
    if mode == "gm":
        return done(f"{gm_rolls_heading(system)} now wait for the GM's buttons.")
    return done(f"The bot now makes {gm_rolls(system)} itself.")


TURNS_WORDS = {"enforce": "players act only on their turn", "warn": "out of turn is allowed, and said",
               "off": "anyone acts any time"}


def _secret_words(on: bool, channel_id: int | None) -> str:
    if not on:
        return "shown to everyone"
    return f"secret: full rolls in <#{channel_id}>" if channel_id else "secret: full rolls to the GM only"


def turns_set(mode: str) -> discord.Embed:
    return done(f"Turns: {TURNS_WORDS.get(mode, mode)}.")


def secret_rolls_set(on: bool, channel_id: int | None) -> discord.Embed:
    if not on:
        return done("NPC rolls are shown to everyone again.")
    where = f"in <#{channel_id}>" if channel_id else "to the GM who makes them, privately"
    return done(f"NPC rolls are secret: players see what their characters would, the full rolls go {where}.")


def ruling_set(name: str, value: str) -> discord.Embed:
    return done(f"Ruling `{label_text(name)}` is now **{plain(value)}**.")


def _holds(view: PackView) -> str:
    return f"{view.weapons} weapons, {view.armour} armour pieces, {view.npcs} NPC templates"


def pack(view: PackView) -> discord.Embed:
    """/pack show: which default files this server replaces for its system, and what the pack holds."""
    embed = _embed(f"\U0001f4e6 Content pack: {system_title(view.system)}")
    if view.files:
        lines = [f"`{label_text(f.filename)}` ({f.size} bytes) by <@{f.uploaded_by}>, "
                 f"<t:{int(f.updated_at.timestamp())}:R>" for f in view.files]
        embed.add_field(name="Homebrew files (replace the default ones)",
                        value=limits.clip("\n".join(lines), limits.FIELD_VALUE), inline=False)
    else:
        embed.add_field(name="Homebrew files", value="none: this server plays the default pack", inline=False)
    embed.add_field(name="The pack holds", value=_holds(view), inline=False)
    return limits.fit(embed)


def pack_uploaded(view: PackView) -> discord.Embed:
    if not view.merged:
        return done(f"`{label_text(view.changed)}` now replaces the default one for **{system_title(view.system)}**.\n"
                    f"The pack holds {_holds(view)}.")
    lines = [f"`{label_text(view.changed)}` for **{system_title(view.system)}** takes your entries:"]
    if view.added:
        lines.append("Added: " + ", ".join(plain(name) for name in view.added))
    if view.updated:
        lines.append("Changed: " + ", ".join(plain(name) for name in view.updated))
    if not view.added and not view.updated:
        lines.append("no entries added or changed (its other fields are kept).")
    lines.append(f"The pack holds {_holds(view)}. `/pack file` hands out the file as it is now.")
    return done(limits.clip("\n".join(lines), limits.DESCRIPTION))


def pack_file_given(system: str, filename: str, homebrew: bool) -> str:
    """/pack file: what the attached file is and how to bring it back."""
    whose = "this server's homebrew" if homebrew else "the default"
    return (f"\U0001f4c4 `{filename}`: {whose} file of the {system_title(system)} pack. Keep only the entries you "
            "add or change (same name: yours replaces it) and upload it with `/pack upload file:` ; "
            "`replace:true` makes the file you upload the whole file.")


def pack_problems(problems: PackProblems) -> str:
    """Every mistake of a homebrew upload, one per line, in the same words for every system."""
    lines = problems.lines()
    count = len(lines) + problems.more
    if count == 1:
        return limits.clip(f"\u26a0\ufe0f The pack was not changed: {plain(lines[0])}", limits.CONTENT)
    head = f"\u26a0\ufe0f The pack was not changed: {count} mistake{'s' if count != 1 else ''} to fix:"
    body = [f"\u2022 {plain(line)}" for line in lines]
    if problems.more:
        body.append(f"\u2022 \u2026 and {problems.more} more")
    return limits.clip("\n".join([head, *body]), limits.CONTENT)


def pack_reset(view: PackView) -> discord.Embed:
    what = ("Every homebrew file is gone" if view.changed == "all"
            else f"`{label_text(view.changed)}` is the default one again")
    return done(f"{what} for **{system_title(view.system)}**.\nThe pack holds {_holds(view)}.")
