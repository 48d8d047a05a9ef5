"""Where Discord's OpenAPI spec is looser or stricter than Discord's prose docs, which its README says win.

Each exception names the spec line (tests/spec/openapi.json, at the commit in tests/spec/SOURCE) and the doc
line (the `discord/discord-api-docs` repository) that disagree, and how the check applies it. A shape the
emulator invented, which no doc shows Discord sending, is never an exception: it is a mismatch to mend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

JSONDict = dict[str, Any]


@dataclass(frozen=True)
class SpecException:
    name: str
    spec: str  # openapi.json line and what it says
    docs: str  # the docs' line and what it says
    applied: str  # what the check does about it


EXCEPTIONS: tuple[SpecException, ...] = (
    SpecException(
        "snowflakes accepted as numbers",
        'openapi.json:37973 `SnowflakeType` is `"type": "string"` with a digits pattern, everywhere',
        'developers/resources/message.mdx:679 an attachment\'s `id` is "snowflake or number" (for a new file, the '
        "`n` of `files[n]`), and developers/reference.mdx:136 says only that snowflakes are *returned* as strings; "
        "discord.py sends ids (message references, attachments, option values) as JSON numbers",
        "requests only: a snowflake may be a non-negative integer as well as a digit string. Answers keep the "
        "spec's strings.",
    ),
    SpecException(
        "files[n] parts on callbacks and webhooks",
        "openapi.json:11904 (create_interaction_response), :15897 (execute_webhook), :16347 "
        "(update_original_webhook_message), :16604 (update_webhook_message): their multipart schemas are the JSON "
        "body alone, without the `files[n]` parts that create_message's (:2789) adds",
        "developers/resources/webhook.mdx:244 and :336 list `files[n]` for Execute Webhook and Edit Webhook "
        "Message; developers/interactions/receiving-and-responding.mdx:306 points an interaction response's files "
        'at developers/reference.mdx:427 "Uploading Files"',
        "on these four operations a multipart request's `files[n]` parts are left out of the body the schema "
        "sees; every request's parts are still checked against its `attachments` (the attachment-to-file mapping).",
    ),
    SpecException(
        "nsfw on commands",
        "openapi.json:17897 `ApplicationCommandCreateRequest` and :19717 `ApplicationCommandUpdateRequest` (the "
        "items of a bulk overwrite) have no `nsfw`; the answer, :18954 `ApplicationCommandResponse`, has it",
        "developers/interactions/application-commands.mdx:37 `nsfw?` in the Application Command Structure, and "
        ":1226 in the parameters of Create Global Application Command",
        "`nsfw` (a boolean) is a declared field of a command a bot sends.",
    ),
    SpecException(
        "a 429 body without code",
        "openapi.json:42934 `RatelimitedResponse` requires `code` (through `Error`, :42870)",
        "developers/topics/rate-limits.mdx:59 lists `code?` as optional in the Rate Limit Response Structure, "
        "and its example bodies (:76-80) have no `code`",
        "a 429's body may leave out `code`.",
    ),
)
