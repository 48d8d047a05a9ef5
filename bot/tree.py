"""The command tree and the one error handler shared by commands, views and buttons."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.errors import UserError
from bot.ops import flights
from bot.ops.redact import redact
from bot.text_safety import plain
from bot.ui import replies, setup_embeds
from bot.ui.publish import still_thinking
from bot.ui.sheet_files import sheet_problems
from content.errors import PackProblems
from content.input_guard import check_text
from rules.errors import NotInHand, RulesError, RulingForbids
from rules.sheet_spec import SheetProblems

log = logging.getLogger("grievous.errors")
TOO_MANY_REQUESTS = 429
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction answered after its deadline
# Discord's own bounds on an option: 6,000 characters of text, numbers within +-2**53.
MAX_OPTION_CHARS = 6000
MAX_OPTION_NUMBER = 2**53


def _unwrapped(error: BaseException) -> BaseException:
    """The error a command raised, out of discord.py's wrappers."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


# The mistakes a user can fix, by the error's type, and the one line each gets: the first type that matches (a
# subclass before its base: CheckFailure last).
_USER_LINES: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], Callable[[Any], str]], ...] = (
    (RulingForbids, replies.ruling_forbids),
    (NotInHand, replies.not_in_hand),
    ((UserError, RulesError), replies.refusal),
    (app_commands.CommandNotFound, lambda _: replies.UNKNOWN_COMMAND),
    # a deploy changed the command (or Discord sent it without a required option)
    (app_commands.CommandSignatureMismatch, lambda _: replies.CHANGED_COMMAND),
    (app_commands.NoPrivateMessage, lambda _: replies.NO_GUILD),
    (app_commands.MissingPermissions, lambda _: replies.NEEDS_MANAGE_SERVER),
    (app_commands.CommandOnCooldown, lambda error: replies.slow_down(error.retry_after)),
    (app_commands.TransformerError, lambda error: replies.not_a_valid_value(error.value)),
    (app_commands.CheckFailure, lambda error: str(error) or replies.CANNOT_USE_HERE),
)


def user_message(error: BaseException) -> str | None:
    """The one line to show for a mistake the user can fix, or None for a bug."""
    error = _unwrapped(error)
    return next((line(error) for kind, line in _USER_LINES if isinstance(error, kind)), None)


async def send_line(interaction: discord.Interaction[Any], line: str) -> None:
    """Send the error ``line`` ephemerally, whether or not the interaction was already answered."""
    line = redact(line)  # a user's text echoed back could hold a token-shaped string
    flight = flights.current()
    if flight is not None:
        flight.fail(flights.USER_ERROR)  # a refusal, unless report_error already counted a bug
    try:
        if still_thinking(interaction) and interaction.extras.get("ephemeral_defer"):
            interaction.extras["answered"] = True  # a private "thinking": the line replaces it
            await interaction.edit_original_response(content=line, embed=None, attachments=[], view=None)
        elif interaction.response.is_done():
            if still_thinking(interaction):
                # A public "thinking" cannot turn private: delete it, so the line is the only answer.
                interaction.extras["answered"] = True
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
            await interaction.followup.send(line, ephemeral=True)
        else:
            await interaction.response.send_message(line, ephemeral=True)
    except (discord.HTTPException, discord.RateLimited):
        log.warning("could not tell user %s: %s", interaction.user, line)
    except (RuntimeError, aiohttp.ClientError, ConnectionError) as exc:
        # The bot is shutting down: its HTTP session closed under this answer (aiohttp's "Session is
        # closed"). One line for the operator, not a traceback; any other RuntimeError is a bug.
        if isinstance(exc, RuntimeError) and "Session is closed" not in str(exc):
            raise
        log.warning("could not tell user %s (the bot's connection to Discord is closing): %s", interaction.user,
                    line)


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """User mistakes become one ephemeral line; anything else is logged with context and apologised for."""
    message = user_message(error)
    cause = _unwrapped(error)
    if isinstance(cause, SheetProblems):  # a sheet's mistakes come all at once, one per line
        await send_line(interaction, sheet_problems(cause.who or "sheet", cause.problems))
        return
    if isinstance(cause, PackProblems):  # so do a homebrew file's
        await send_line(interaction, setup_embeds.pack_problems(cause))
        return
    if message is not None:
        await send_line(interaction, replies.error_line(message))
        return
    original = getattr(error, "original", None) or error.__cause__ or error
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    where = f"/{command}" if command else f"component {custom_id}"
    flight = flights.current()
    if flight is not None:
        flight.fail(flights.ERROR)
    if isinstance(original, discord.NotFound) and original.code == UNKNOWN_INTERACTION:
        # Too late to answer at all (Discord's 3 s passed): an overloaded bot, not a bug to trace.
        if flight is not None:
            flight.missed = True
        log.warning("%s was not answered within Discord's deadline (guild %s, channel %s)",
                    where, interaction.guild_id, interaction.channel_id)
        return
    if isinstance(original, discord.RateLimited) or (isinstance(original, discord.HTTPException)
                                                     and original.status == TOO_MANY_REQUESTS):
        # A 429 discord.py does not wait out: a Cloudflare ban (no Via header) or a wait past its limit. Not
        # a bug in the bot: one warning, and the user told why (if Discord takes that answer).
        log.warning("%s: Discord refused the bot's requests (429%s; guild %s, channel %s)", where,
                    " from Cloudflare" if isinstance(original, discord.HTTPException) else
                    f", retry after {original.retry_after:.1f} s", interaction.guild_id, interaction.channel_id)
        # "Try again" only when nothing was stored: an action that was applied is posted late in the channel,
        # and a player who obeyed would strike twice.
        applied = await _stored(interaction)
        await send_line(interaction, replies.error_line(replies.APPLIED_DESPITE_REFUSAL if applied
                                                        else replies.DISCORD_REFUSING))
        return
    log.error(
        "unexpected error in %s (guild %s, channel %s, user %s)",
        where, interaction.guild_id, interaction.channel_id, interaction.user.id,
        exc_info=(type(original), original, original.__traceback__),
    )
    await send_line(interaction, replies.APOLOGY)


async def _stored(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction stored an action whose answer is still owed (bot/services/answers.py)."""
    services = getattr(interaction.client, "services", None)
    if services is None or not services.runtime.answers.stored(interaction.id):
        return False
    try:
        return bool(await services.runtime.answers.unanswered(interaction.id))
    except Exception:  # the database cannot say: it was recorded, so say it may have happened
        log.warning("could not read whether interaction %s stored its action", interaction.id)
        return True


# What each option type's value is in Discord's payload (ids of users, channels, roles, files are text).
_OPTION_VALUES: dict[int, tuple[type, ...]] = {
    discord.AppCommandOptionType.string.value: (str,),
    discord.AppCommandOptionType.integer.value: (int,),
    discord.AppCommandOptionType.boolean.value: (bool,),
    discord.AppCommandOptionType.number.value: (int, float),
    discord.AppCommandOptionType.user.value: (str, int),
    discord.AppCommandOptionType.channel.value: (str, int),
    discord.AppCommandOptionType.role.value: (str, int),
    discord.AppCommandOptionType.mentionable.value: (str, int),
    discord.AppCommandOptionType.attachment.value: (str, int),
}
_OPTION_WORDS = {5: "true or false", 4: "a whole number", 10: "a number", 3: "text"}


def _wrong_type(option: Mapping[str, Any], value: Any) -> bool:
    kinds = _OPTION_VALUES.get(option.get("type"))  # type: ignore[arg-type]
    if kinds is None or "value" not in option or option.get("focused"):
        return False  # a subcommand (no value), or the text being typed for autocomplete
    return (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds)


def option_problem(options: Iterable[Mapping[str, Any]]) -> str | None:
    """The first option value the input guard refuses (text with control characters or lone surrogates,
    text longer than Discord allows, a number past Discord's range, a value not of its option's type), as a
    line; None if all are fine."""
    for option in options:
        value = option.get("value")
        name = str(option.get("name", "option"))[:32]
        if _wrong_type(option, value):
            what = _OPTION_WORDS.get(option.get("type"), "another kind of value")  # type: ignore[arg-type]
            return f"{name} takes {what}, not {_shown(value)}: pick the value Discord offers"
        if isinstance(value, str):
            try:
                check_text(value, name, MAX_OPTION_CHARS)
            except RulesError as exc:
                return str(exc)
        elif isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > MAX_OPTION_NUMBER:
            return f"{name}: the number is out of range"
        found = option_problem(option.get("options") or ())  # subcommands nest at most two levels
        if found is not None:
            return found
    return None


def _shown(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, str | int | float | bool) or value is None else type(value).__name__
    return text if len(text) <= 40 else text[:39] + "\u2026"


def _declared_types(command: Any, options: Iterable[Mapping[str, Any]]) -> str | None:
    """The first option whose type in the payload is not the type the command declares (a client that still
    shows an older version of the command): the changed-command line; None if all match."""
    for option in options:
        name = str(option.get("name", ""))
        if isinstance(command, app_commands.Group):
            sub = command.get_command(name)
            if sub is not None:
                found = _declared_types(sub, option.get("options") or ())
                if found is not None:
                    return found
            continue
        parameter = command.get_parameter(name) if isinstance(command, app_commands.Command) else None
        if parameter is not None and option.get("type") != parameter.type.value:
            what = _OPTION_WORDS.get(parameter.type.value, "another kind of value")
            return f"{replies.CHANGED_COMMAND} Its option '{name[:32]}' takes {what}."
    return None


class GrievousTree(app_commands.CommandTree[Any]):
    def __init__(self, client: discord.Client, **options: Any) -> None:
        # Guild install, used in servers, said once for every command: Discord otherwise takes the app's
        # configured installs and contexts, and with User Install ticked commands would run where the bot cannot
        # post (interactions/application-commands.mdx "Contexts"; `dm_permission` is deprecated). /help alone
        # says it also works in the bot's DMs.
        options.setdefault("allowed_installs", app_commands.AppInstallationType(guild=True, user=False))
        options.setdefault("allowed_contexts",
                           app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False))
        super().__init__(client, **options)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every option value passes the input guard before any command sees it."""
        data: Mapping[str, Any] = interaction.data or {}
        problem = option_problem(data.get("options") or ())
        if problem is None and interaction.type is discord.InteractionType.application_command:
            command = self.get_command(str(data.get("name", "")), guild=None) or (
                self.get_command(str(data.get("name", "")), guild=interaction.guild) if interaction.guild else None)
            if command is not None:
                problem = _declared_types(command, data.get("options") or ())
        if problem is None:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
        else:
            await send_line(interaction, replies.error_line(plain(problem)))  # it quotes the value typed
        return False

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)
