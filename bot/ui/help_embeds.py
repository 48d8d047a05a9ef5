"""The /help topics."""

from __future__ import annotations

import discord

from bot.ui import limits
from bot.ui.embed_common import _embed

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
        "`/setup ruling` \u2014 change one of the engine's rulings (autocompletes)\n"
        "`/pack upload file:weapons.yaml` \u2014 (GM) homebrew content: the file replaces the default pack's "
        "file of that name for this channel's system; checked whole before it is stored\n"
        "`/pack show` \u2014 the homebrew files in use; `/pack reset [file]` \u2014 back to the default")),
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
        "`/odds` \u2014 the same options as `/attack`: your exact chances before you strike, only for you; "
        "`compare:aim:mid` sets a second choice beside it\n"
        "`/shock` \u2014 re-roll shock; `/advantage` \u2014 use a Tactical Advantage; `/rearm` after a fumble\n"
        "`dice:\"attack=7 location=55\"` uses the faces you rolled at the table; the rest are rolled.")),
    "injuries": ("Injuries and healing", (
        "`/injuries character` \u2014 every wound: location, code, levels, bleeding, penalty, and a body diagram\n"
        "`/injuries party:true` \u2014 every player character's wounds at a glance\n"
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
        "`/undo` takes back only what the last action changed, and says what stands in the way if a later "
        "change depends on it.\n"
        "`/encounter npcs` drops in NPCs from the content pack; they go when `/encounter end` does (unless "
        "`keep_npcs`), and `/encounter clear-npcs` removes leftovers. Your `/attack` with no `attacker` is the "
        "NPC whose turn it is.\n"
        "`/setup turns` keeps players to their turn (or warns); `/setup secret-rolls` hides the NPCs' dice "
        "from the players and sends them to you; `/roll ... secret:true` rolls behind the screen.")),
}


def help_topic(topic: str) -> discord.Embed:
    name, body = HELP.get(topic, HELP["start"])
    embed = _embed(f"\u2753 {name}", body)
    others = ", ".join(f"`{t}`" for t in HELP if t != topic)
    embed.set_footer(text=f"More: /help topic: {others}".replace("`", ""))
    return limits.fit(embed)
