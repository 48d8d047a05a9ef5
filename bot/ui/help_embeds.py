"""The /help topics, in the words of the channel's system: its sheet fields, options, rolls and healing.

Without a system (a direct message), each topic says what differs between the three systems.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.services.sheet_guide import SheetGuide
from bot.systems import GM_ROLLS, gm_rolls
from bot.ui import limits
from bot.ui.embed_common import _embed, system_title
from rules.sheet_spec import SheetField

SYSTEMS = ("ars-harn", "pendragon", "fading-suns")

# Per system: the words that differ between systems, used by the topics below.
_ATTACK_OPTIONS = {
    "ars-harn": "`aspect` (blunt, edge, point), `aim` (high, mid, low), `save_excess` (keep excess points for "
                "next round)",
    "pendragon": "`mounted` (on horseback), `charge` (a mounted lance charge: the sheet needs a `horse`)",
    "fading-suns": "`location` (a called location), `defense` (the target dodges or parries if the attack "
                   "succeeds)",
}
_COMBAT_EXTRA = {
    "ars-harn": "`/cast target spell damage kind body_levels aim` \u2014 damaging and Body Level spells\n"
                "`/shock` \u2014 re-roll shock; `/advantage` \u2014 use a Tactical Advantage",
    "pendragon": "",
    "fading-suns": "",
}
_DICE_EXAMPLE = {
    "ars-harn": "`dice:\"attack=7 location=55\"`",
    "pendragon": "`dice:\"attacker=14 damage=4,4,3\"`",
    "fading-suns": "`dice:\"attack=7 location=12\"`",
}
_HEAL = {
    "ars-harn": "`/heal character method healer` \u2014 `chirurgy` (the healer's Chirurgy) or `spell` "
                "(`body_levels` healed)\n`/rest character days` \u2014 the healing rolls over the days",
    "pendragon": "`/heal character method healer` \u2014 `first_aid` (once per wound) or `chirurgy` "
                 "(Chirurgery, weekly, when needed)\n`/rest character days` \u2014 healing by the week (7 days a roll)",
    "fading-suns": "`/heal character method healer` \u2014 `remedy` (the healer's Remedy: minor to grievous "
                   "wounds) or `physick` (the healer's Physick: crippled ones too)\n`/rest character days` \u2014 "
                   "the healing rolls over the days",
}
_ROLL_EXAMPLES = {
    "ars-harn": "`3d6+2`, `stress+5 vs 9`, `simple+3`",
    "pendragon": "`3d6+2`, `d20 vs 14`",
    "fading-suns": "`3d6+2`, `fs vs 12`",
}
_DECISIONS = {
    "ars-harn": "a failed kill roll (death or incapacitation)",
    "pendragon": "dying (death or survival), an experience check, a gentle fall",
    "fading-suns": "a deadly wound under `gm_confirms_death` (death or mercy)",
}
_INITIATIVE = {
    "ars-harn": "`/encounter initiative` rolls initiative; `/encounter declare` sets aspect, aim and target in "
                "the movement phase",
    "pendragon": "`/encounter initiative` keeps the order they joined: both sides of an exchange roll at once; "
                 "`/encounter order` changes it",
    "fading-suns": "`/encounter initiative` rolls initiative and sets the turn order",
}

TITLES: dict[str, str] = {
    "start": "Getting started", "setup": "Setup (server managers)", "characters": "Characters",
    "encounters": "Encounters", "combat": "Combat", "injuries": "Injuries and healing", "dice": "Dice and records",
    "gm": "For the GM",
}


def _per_system(words: dict[str, str], system: str | None) -> str:
    """The line for ``system``, or each system's, labelled, when there is none."""
    if system in words:
        return words[system]
    return "\n".join(f"{system_title(s)}: {words[s]}" for s in SYSTEMS if words[s])


def _body(topic: str, system: str | None, guide: SheetGuide | None, labels: Sequence[str]) -> str:
    example = system or "ars-harn"
    if topic == "start":
        return (
            f"1. A server manager picks the rules, `/setup system system:{example}`, and the GM role, "
            "`/setup gm-role`.\n"
            "2. Each player gets a sheet to fill in with `/character template`, then `/character import`s it.\n"
            "3. The GM starts a fight: `/encounter start`, `/encounter add`, `/encounter npcs template count`.\n"
            "4. `/encounter initiative`, then on your turn `/attack target weapon`.\n"
            "5. Wounds stay on the sheets between sessions: `/injuries`, `/heal`, `/rest`.")
    if topic == "setup":
        return (
            "`/setup show` \u2014 the settings here\n"
            "`/setup check` \u2014 what the bot may do here and in the GM channel, and what to change\n"
            "`/setup system` \u2014 ars-harn, pendragon or fading-suns; `channel_only:true` for one channel\n"
            "`/setup gm-role` \u2014 the role whose members are GMs\n"
            f"`/setup rolls` \u2014 `auto`: the bot rolls {gm_rolls(example)}; "
            "`gm`: they wait for the GM's buttons\n"
            "`/setup ruling` \u2014 change one of the engine's rulings (autocompletes)\n"
            "`/pack upload file` \u2014 (GM) homebrew content: the file replaces the pack's file of that name for "
            "this channel's system\n`/pack show`, `/pack reset [file]` \u2014 what is replaced; back to the default")
    if topic == "characters":
        return _characters(guide)
    if topic == "encounters":
        return (
            "One per channel, with a pinned tracker that is edited as things change.\n"
            "`/encounter start`, `/encounter add character`, `/encounter npcs template count`\n"
            f"{_per_system(_INITIATIVE, system)}\n"
            "`/encounter next` (skips those who cannot act), `/encounter order` and `/encounter delay` (the GM's "
            "turn order, a held turn), `/encounter remove`, `/encounter status`, `/encounter end`")
    if topic == "combat":
        extra = _per_system(_COMBAT_EXTRA, system)
        return (
            "`/attack target weapon modifier dice attacker`, and\n"
            f"{_per_system(_ATTACK_OPTIONS, system)}\n"
            + "`/odds` \u2014 the same options as `/attack`: your exact chances before you strike, only for you; "
            "`compare` sets a second choice beside it\n"
            + (f"{extra}\n" if extra else "")
            + "`/recover character condition` \u2014 get up, remount, come round (it lists what they have); "
            "`/ready character weapon` \u2014 pick up, draw or replace a weapon\n"
            + (f"{_DICE_EXAMPLE[system]} uses the faces you rolled at the table; the rest are rolled."
               if system in _DICE_EXAMPLE else
               "`dice` takes the faces you rolled at the table, by label (`/help topic:dice`); the rest are rolled."))
    if topic == "injuries":
        return ("`/injuries character` \u2014 every wound: location, severity, penalty, and a body diagram\n"
                "`/injuries party:true` \u2014 every player character's wounds at a glance\n"
                f"{_per_system(_HEAL, system)}")
    if topic == "dice":
        shown = f"\nDice labels: {' '.join(f'`{label}`' for label in labels)}" if labels else ""
        return (f"`/roll expression` \u2014 {_per_system(_ROLL_EXAMPLES, system)}{shown}\n"
                "`/log` \u2014 the channel's recent rolls and events\n"
                "`/undo` \u2014 (GM) take back the last action of the encounter")
    return (
        "Buttons only the GM role can press ask you to decide: "
        f"{_per_system(_DECISIONS, system)}. They keep working after a restart.\n"
        f"With `/setup rolls mode:gm`, {_per_system(GM_ROLLS, system)} wait for you: **Roll** lets the bot roll, "
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
    for field in fields:
        if field.kind == "scores":
            only = f" ({', '.join(field.names)})" if field.closed else ""
            out.append(f"`{field.name}`: name: value, {field.range_text()}{only}")
        elif field.kind == "choice":
            out.append(f"`{field.name}`: {field.range_text()}")
        elif field.kind == "decimal" or (field.kind == "text" and not field.required):
            out.append(f"`{field.name}` {field.label}: {field.range_text()}")
    listed = [f"`{f.name}`" for f in fields if f.kind in ("items", "item")]
    if listed:
        out.append(f"{', '.join(listed)}: names from this server's pack")
    return out


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
