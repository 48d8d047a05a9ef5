"""/web's private answers: the campaign page's login link, and what revoking ended."""

from __future__ import annotations

import discord

from bot.text_safety import plain

LINK_MINUTES = 10
OFF = ("The campaign web page is off on this bot: its operator turns it on with WEB_PORT and WEB_BASE_URL "
       "(docs/operations.md).")
MEMBER_NEEDS_REVOKE = "member: is only for revoke:true (a manager ending another member's web sessions)"


def link_line(role: str, channel_id: int | None = None) -> str:
    """The words above the link button: what the page shows this viewer, and how long the link lasts."""
    if role == "table":
        what = f"a read-only view of <#{channel_id}> for a shared screen: it sees what the channel sees"
    elif role == "gm":
        what = "the whole campaign as the GM sees it, NPCs and secrets included"
    else:
        what = "the campaign as you may see it: the roster, wounds and the fights in your channels"
    return (f"\U0001f310 Your link to {what}. It works once, within {LINK_MINUTES} minutes, and the page stays "
            "open for 12 hours. Do not share it. `/web revoke:true` ends your sessions.")


def link_view(url: str) -> discord.ui.View:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label="Open the campaign page", url=url))
    return view


def revoked(ended: int, member_name: str | None = None) -> str:
    whose = f"{plain(member_name)}'s" if member_name else "Your"
    count = f"{ended} session{'s' if ended != 1 else ''}"
    return (f"\U0001f512 {whose} web sessions are ended ({count} open) and links not yet opened no longer work. "
            "A new link comes from /web.")
