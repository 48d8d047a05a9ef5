"""The /help topics, in the words of the channel's system: its sheet fields, options, rolls and healing.

Without a system (a direct message), each topic says what differs between the three systems.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.services.sheet_guide import SheetGuide
from bot.systems import PROFILES, gm_rolls, profile_of
from bot.systems.profile import SystemProfile
from bot.ui import limits
from bot.ui.embed_common import _embed, system_title
from rules.sheet_spec import SheetField

TITLES: dict[str, str] = {
    "start": "Getting started", "setup": "Setup (server managers)", "characters": "Characters",
    "encounters": "Encounters", "combat": "Combat", "injuries": "Injuries and healing", "dice": "Dice and records",
    "gm": "For the GM",
}


def _per_system(words: Callable[[SystemProfile], str], system: str | None) -> str:
    """The line for ``system`` (from its profile), or each system's, labelled, when there is none."""
    profile = profile_of(system or "")
    if profile is not None:
        return words(profile)
    return "\n".join(f"{p.title}: {words(p)}" for p in PROFILES.values() if words(p))


def _body(topic: str, system: str | None, guide: SheetGuide | None, labels: Sequence[str]) -> str:
    systems = list(PROFILES)
    example = system or systems[0]
    if topic == "start":
        return (
            f"1. A server manager picks the rules, `/setup system system:{example}`, and the GM role, "
            "`/setup gm-role`.\n"
            "2. Each player gets a sheet to fill in with `/character template`, then imports it with "
            "`/character import`.\n"
            "3. The GM starts a fight: `/encounter start`, `/encounter add`, `/encounter npcs template count`.\n"
            "4. `/encounter initiative`, then on your turn `/attack target weapon`.\n"
            "5. Wounds stay on the sheets between sessions: `/injuries`, `/heal`, `/rest`.")
    if topic == "setup":
        return (
            "`/setup show` \u2014 the settings here\n"
            "`/setup check` \u2014 what the bot may do here and in the GM channel, and what to change\n"
            f"`/setup system` \u2014 {', '.join(systems[:-1])} or {systems[-1]}; `channel_only:true` for one channel; "
            "`/setup channel-reset` \u2014 this channel follows the server's system again\n"
            "`/setup gm-role` \u2014 the role whose members are GMs\n"
            f"`/setup rolls` \u2014 `auto`: the bot rolls {gm_rolls(example)}; "
            "`gm`: they wait for the GM's buttons\n"
            "`/setup turns` \u2014 `enforce`: players act only on their turn; `warn`; `off`\n"
            "`/setup secret-rolls on gm_channel` \u2014 players see of the NPCs only what their characters would; "
            "the GM gets every die (in the GM channel)\n"
            "`/setup ruling` \u2014 change one of the engine's rulings (autocompletes)\n"
            "`/pack file name` \u2014 a pack file as it is now, to start homebrew from\n"
            "`/pack upload file` \u2014 (GM) homebrew content: its entries are merged into the pack's file of that "
            "name for this channel's system (an entry of the same name replaces the one it names; a new one is "
            "added)\n`/pack show`, `/pack reset [file]` \u2014 what is changed; back to the default")
    if topic == "characters":
        return _characters(guide)
    if topic == "encounters":
        return (
            "One per channel, with a pinned tracker that is edited as things change.\n"
            "`/encounter start`, `/encounter add character`, `/encounter npcs template count`\n"
            f"{_per_system(lambda p: p.help.initiative, system)}\n"
            "`/encounter next` (skips those who cannot act), `/encounter order` and `/encounter delay` (the GM's "
            "turn order, a held turn), `/encounter remove`, `/encounter status`, `/encounter end`")
    if topic == "combat":
        extra = _per_system(lambda p: p.help.combat_extra, system)
        profile = profile_of(system or "")
        return (
            "`/attack target weapon modifier dice attacker`, and\n"
            f"{_per_system(lambda p: p.help.attack_options, system)}\n"
            + "`/odds` \u2014 the same options as `/attack`: your exact chances before you strike, only for you; "
            "`compare` sets a second choice beside it\n"
            + (f"{extra}\n" if extra else "")
            + "`/recover character condition` \u2014 get up, remount, come round (it lists what they have); "
            "`/ready character weapon` \u2014 pick up, draw or replace a weapon\n"
            + (f"{profile.help.dice_example} uses the faces you rolled at the table; the rest are rolled."
               if profile is not None else
               "`dice` takes the faces you rolled at the table, by label (`/help topic:dice`); the rest are rolled."))
    if topic == "injuries":
        return ("`/injuries character` \u2014 every wound: location, severity, penalty, and a body diagram\n"
                "`/injuries party:true` \u2014 every player character's wounds at a glance\n"
                f"{_per_system(lambda p: p.help.heal, system)}")
    if topic == "dice":
        shown = f"\nDice labels: {' '.join(f'`{label}`' for label in labels)}" if labels else ""
        return (f"`/roll expression` \u2014 {_per_system(lambda p: p.help.roll_examples, system)}{shown}\n"
                "`/log` \u2014 the channel's recent rolls and events\n"
                "`/undo` \u2014 (GM) take back the last action of the encounter")
    return (
        "Buttons only the GM role can press ask you to decide: "
        f"{_per_system(lambda p: p.help.decisions, system)}. They keep working after a restart.\n"
        f"With `/setup rolls mode:gm`, {_per_system(lambda p: p.gm_rolls, system)} wait for you: "
        "**Roll** lets the bot roll, "
        "**Dice** takes the faces you rolled; or `/pending-roll character roll dice`.\n"
        "`/undo` takes back only what the last action changed, and says what stands in the way if a later "
        "change depends on it.\n"
        "`/encounter npcs` drops in NPCs from the content pack; they go when `/encounter end` does (unless "
        "`keep_npcs`), and `/encounter clear-npcs` removes leftovers. Your `/attack` with no `attacker` is the "
        "NPC whose turn it is.\n"
        "`/setup turns` keeps players to their turn (or warns); `/setup secret-rolls` hides the NPCs' dice "
        "from the players and sends them to you; `/roll ... secret:true` rolls behind the screen.")


def _characters(guide: SheetGuide | None) -> str:
    lines = ["`/character template` \u2014 a sheet file to fill in, then `/character import sheet:<file>`"]
    if guide is None:
        lines.append("`/character create name stats weapons armour` \u2014 stats as `name=value`")
    else:
        numbers = [f for f in guide.spec.player_fields() if f.kind == "number" and f.default is not None]
        shown = [f for f in numbers if f.required] or numbers[:2]
        stats = " ".join(f"{f.name}={_number(f.default)}" for f in shown) or "name=value"
        lines.append(f"`/character create name stats weapons armour` \u2014 e.g. `stats:\"{stats}\"`")
    lines += ["`/character export` \u2014 the sheet as a file, wounds and all",
              "`/character show`, `/character list`, `/character set-stat`, `/character add-item`, "
              "`/character remove-item`, `/character delete`"]
    if guide is not None:
        lines += ["", f"**{system_title(guide.system)} sheet**", *sheet_lines(guide.spec.player_fields())]
    lines += ["", "You own what you create; the GM may edit any character and owns NPCs."]
    return "\n".join(lines)


def sheet_lines(fields: Sequence[SheetField]) -> list[str]:
    """A system's sheet fields in a few lines: numbers grouped by range, then the rest."""
    out = _number_lines(fields)
    out += [line for line in map(_field_line, fields) if line is not None]
    listed = [f"`{f.name}`" for f in fields if f.kind in ("items", "item")]
    if listed:
        out.append(f"{', '.join(listed)}: names from this server's pack")
    return out


def _number_lines(fields: Sequence[SheetField]) -> list[str]:
    """The number fields, grouped by required or optional, range and default; those derived unless given last."""
    groups: dict[tuple[bool, str, str], list[SheetField]] = {}
    derived: list[SheetField] = []
    out: list[str] = []
    for field in fields:
        if field.kind == "number" and field.default is None:
            derived.append(field)
        elif field.kind == "number":
            default = "" if field.required else f", else {_number(field.default)}"
            groups.setdefault((field.required, field.range_text(), default), []).append(field)
    for (required, rng, default), members in sorted(groups.items(), key=lambda item: not item[0][0]):
        names = ", ".join(f"`{f.name}` {f.label}" for f in members)
        out.append(f"{'Required' if required else 'Optional'}, {rng}{default}: {names}")
    if derived:
        out.append(f"Derived unless given: {', '.join(f'`{f.name}`' for f in derived)}")
    return out


def _field_line(field: SheetField) -> str | None:
    """A scores, choice, decimal or optional text field's line (None for the others)."""
    if field.kind == "scores":
        only = f" ({', '.join(field.names)})" if field.closed else ""
        return f"`{field.name}`: name: value, {field.range_text()}{only}"
    if field.kind == "choice":
        return f"`{field.name}`: {field.range_text()}"
    if field.kind == "decimal" or (field.kind == "text" and not field.required):
        return f"`{field.name}` {field.label}: {field.range_text()}"
    return None


def _number(value: object) -> str:
    return str(value)


HELP: dict[str, tuple[str, str]] = {topic: (title, _body(topic, None, None, ())) for topic, title in TITLES.items()}


def help_topic(topic: str, system: str | None = None, guide: SheetGuide | None = None,
               labels: Sequence[str] = ()) -> discord.Embed:
    """One topic for a channel that plays ``system`` (its sheet in ``guide``, its dice ``labels``)."""
    topic = topic if topic in TITLES else "start"
    heading = TITLES[topic] + (f" \u2014 {system_title(system)}" if system else "")
    embed = _embed(f"\u2753 {heading}", limits.clip(_body(topic, system, guide, labels), limits.DESCRIPTION))
    others = ", ".join(t for t in TITLES if t != topic)
    embed.set_footer(text=f"More: /help topic: {others}")
    return limits.fit(embed)
