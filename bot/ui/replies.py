"""The one-line replies (errors, confirmations) and the labels of the confirm and cancel buttons."""

from __future__ import annotations

from bot.errors import UserError
from bot.text_safety import plain
from bot.ui import limits
from rules.errors import NotInHand, RulingForbids

APOLOGY = "Sorry, something went wrong on our side; it has been logged. Nothing you did caused it."
NO_GUILD = "Grievous works in server channels, not in direct messages."
NOT_GM = "Only the GM can do that."
EXPIRED = "This prompt has expired; run the command again."
NOT_YOURS = "This prompt belongs to someone else."
UNKNOWN_COMMAND = "That command is no longer available; Discord may take a minute to show the current list."
CHANGED_COMMAND = "That command has changed since Discord showed it to you; wait a minute and try it again."
DISCORD_REFUSING = ("Discord is refusing the bot's requests for a while (too many at once); try again in a "
                    "minute or two.")
# The same refusal, after the action was stored: it happened, and is posted in the channel (bot/ui/late.py).
APPLIED_DESPITE_REFUSAL = ("Discord refused the bot's answer for a moment, but your action was applied: it is posted "
                           "in the channel. Do not send it again.")
STALE_BUTTON = "That button is not one Grievous made, or it has expired."
STALE_FORM = "That form is not one Grievous made, or it has expired; press its button again."
# An interaction that arrives while the bot is stopping (a restart): it is not run, so sending it again is safe.
STOPPING = "Grievous is restarting; nothing was done. Send that again in a few seconds."
NEEDS_MANAGE_SERVER = "You need the Manage Server permission for that."
CANNOT_USE_HERE = "You cannot use that command here."


# what a ruling forbids, and the way on, as a player reads it (the engines name the ruling: RulingForbids)
_RULING_REFUSALS = {
    "first_aid_on_self": ("first aid on oneself", "ask another character"),
}


def ruling_forbids(error: RulingForbids) -> str:
    """``This server's rulings don't allow first aid on oneself (ruling `first_aid_on_self`): ask another
    character.``"""
    words = _RULING_REFUSALS.get(error.ruling)
    if words is None:
        return refusal(error)
    what, way_on = words
    return f"This server's rulings don't allow {what} (ruling `{error.ruling}`): {way_on}."


def not_in_hand(error: NotInHand) -> str:
    """``Sir Elyan's lance is broken: /ready weapon:sword``: the weapon's state and the one way on."""
    state = "is broken" if error.broken else "was dropped"
    line = f"{plain(error.who)}'s {plain(error.weapon)} {state}"
    if not error.ready:
        return f"{line}, and no other weapon is to hand."
    return f"{line}: /ready weapon:{plain(error.ready[0])}"


def refusal(error: BaseException) -> str:
    """A service's or an engine's refusal (``UserError``, ``RulesError``): its line, shown as the text it is. The
    check that refuses writes it, with the names it knows in it (``Bandit 1 is dead``, ``no character named 'X'``,
    a file's name, a value as typed), and none of it is markdown: the whole line is made plain, so a name a user
    typed shows as typed, never as markdown, a link or a ping. The markup a service's line holds on purpose
    (``UserError.markup``: a channel's mention, a timestamp) is put back where the line has it last: each is written
    after every name in the line, so a name that holds the same text stays text."""
    line: str = plain(str(error) or type(error).__name__)
    for piece in error.markup if isinstance(error, UserError) else ():
        head, found, tail = line.rpartition(plain(piece))
        line = f"{head}{piece}{tail}" if found else line
    return line


def slow_down(retry_after: float) -> str:
    return f"Slow down: try again in {retry_after:.0f} s."


def not_a_valid_value(value: object) -> str:
    return f"'{plain(value)}' is not a valid value for that option."


def error_line(message: str) -> str:
    """A user's mistake as one line (the first line of the message, clipped)."""
    first = (str(message).strip().splitlines() or ["That did not work."])[0]
    return limits.clip(f"\u26a0\ufe0f {first}", limits.CONTENT)


def confirm_delete(name: str) -> str:
    return f"Delete **{plain(name)}** and every wound on their sheet? This cannot be undone."


def deleted(name: str) -> str:
    return f"**{plain(name)}** was deleted."


def name_the_character(owned: int) -> str:
    if owned == 0:
        return "you have no character here: name one, e.g. /injuries character:Bjorn"
    return f"you have {owned} characters: say which, e.g. /injuries character:Bjorn"


def cannot_post(channel_mention: str, missing: list[str]) -> str:
    """/setup secret-rolls gm_channel: a channel the bot may not post the GM's rolls in."""
    return (f"I cannot post in {channel_mention}: give me {', '.join(missing)} there, or choose another channel; "
            "nothing changed.")


def gm_channel_down(channel_mention: str, why: str) -> str:
    """Told once to the GM whose secret rolls could not go to the GM channel: why, and what happens instead."""
    return (f"\u26a0 The GM channel {channel_mention} is not working ({why}): the NPCs' secret rolls come to the "
            "GM privately until it is mended or `/setup secret-rolls` names another channel. `/log` keeps them too.")


def thread_locked(thread_mention: str) -> str:
    """Told once to a GM when a locked thread (or forum post) refuses the bot's tracker or posts."""
    return (f"\u26a0 {thread_mention} is locked, so I can't update its tracker or post there: unlock it, or give "
            "my role **Manage Threads**. The fight goes on: `/encounter status` shows it.")


def secret_roll_by_dm(guild_name: str, channel_mention: str | None) -> str:
    """A DM to the server's owner: a secret roll that the GM channel could not take, or (no mention) that a
    server without a GM channel could not show its GM privately (a late post answers nobody)."""
    if channel_mention is None:
        return f"A secret roll in **{plain(guild_name)}**, which has no GM channel:"
    return f"A secret roll in **{plain(guild_name)}**, whose GM channel {channel_mention} is not working:"


def cancelled() -> str:
    return "Cancelled; nothing changed."


# -- button labels -------------------------------------------------------------------------------

CONFIRM_LABEL = "Delete"
CANCEL_LABEL = "Cancel"
ACCEPT_LABEL = "Accept"
DECLINE_LABEL = "Decline"
DETAILS_LABEL = "Details"  # under an action: every die and modifier, shown only to whoever presses
