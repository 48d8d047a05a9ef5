"""Errors a user can fix. Each message is one line, safe to show (the tree sends it ephemerally).

``rules.errors.RulesError`` (bad sheet, unknown weapon, illegal action) is shown the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.services.results import RecordedState


class UserError(Exception):
    """A mistake the caller can fix; ``str(error)`` says how, in one line of plain text that the bot shows as the text
    it is (bot/ui/replies.refusal), names and all. ``markup``: the pieces of Discord markup the line holds on purpose
    (a channel's mention, a timestamp), each written after every name in it; they alone show as markup."""

    def __init__(self, message: str = "", *, markup: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.markup = markup


class NotFound(UserError):
    """No such character, decision, template or item."""


class PermissionDenied(UserError):
    """The caller may not do this (someone else's character, a GM-only command)."""


class NotGM(PermissionDenied):
    """Only the GM may do this, and the caller is no GM (``access.require_gm``, from the viewer ``viewer_of`` made in
    the command's own transaction). A GM button words it as its own line (bot/ui/action_message.py)."""


class Conflict(UserError):
    """The state changed under us on every retry, or the thing was already done (a decided decision)."""


class NotInEncounter(UserError):
    """The command needs an encounter in this channel, or the character is not in it."""


class UndoBlocked(UserError):
    """/undo would take back something a later change stands on; the message names it."""


class StorageFull(UserError):
    """The database's storage is full: the command's transaction was rolled back, nothing was saved."""

    def __init__(self) -> None:
        super().__init__("The bot's storage is full, so nothing was saved; the server's operator must free space. "
                         "Try again later.")


class ConfirmDrop(UserError):
    """The GM's /character import replace:true would take away wounds or conditions play recorded: the cog asks
    first, naming them (``dropped``), and imports again with ``drop_recorded``."""

    def __init__(self, name: str, dropped: RecordedState) -> None:
        super().__init__(f"importing this sheet over {name} would drop wounds or conditions the bot recorded: "
                         "confirm first")
        self.name = name
        self.dropped = dropped


class DatabaseNotAnswering(UserError):
    """The database server could not be reached: the command's transaction never committed."""

    def __init__(self) -> None:
        super().__init__("The database is not answering; nothing was saved, try again in a moment.")


class DatabaseFileGone(UserError):
    """The SQLite file the bot opened was deleted or replaced (bot/db/identity.py): writes are refused, since
    they would vanish with the deleted file."""

    def __init__(self) -> None:
        super().__init__("The bot's database file was deleted, so nothing was saved; the server's operator must "
                         "restore it.")
