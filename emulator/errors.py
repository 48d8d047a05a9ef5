"""Discord-shaped API errors the REST layer turns into JSON replies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

JSONDict = dict[str, Any]


class ErrorTree:
    """Collects form errors in Discord's nested `{"field": {"0": {"_errors": [...]}}}` layout."""

    def __init__(self) -> None:
        self.tree: JSONDict = {}
        self.count = 0

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.count += 1

    def __bool__(self) -> bool:
        return self.count > 0

    def flatten(self) -> list[str]:
        """`path: message (code)` lines, handy in assertion messages."""
        return flatten_errors(self.tree)


def flatten_errors(tree: JSONDict) -> list[str]:
    lines: list[str] = []

    def walk(node: JSONDict, prefix: str) -> None:
        for key, value in node.items():
            if key == "_errors":
                lines.extend(f"{prefix or '<root>'}: {err['message']} ({err['code']})" for err in value)
            else:
                walk(value, f"{prefix}.{key}" if prefix else key)

    walk(tree, "")
    return lines


class DiscordError(Exception):
    """An error reply: HTTP status plus Discord's JSON body (`code`, `message`, optional `errors`)."""

    def __init__(self, status: int, code: int, message: str, errors: ErrorTree | None = None, *,
                 note: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        # Why the emulator refused, when Discord's message alone is vague ("Unknown interaction").
        self.note = note

    def body(self) -> JSONDict:
        body: JSONDict = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors.tree
        return body

    def describe(self) -> str:
        lines = [f"{self.status} {self.message} (code {self.code})" + (f" [{self.note}]" if self.note else "")]
        if self.errors:
            lines.extend("  " + line for line in self.errors.flatten())
        return "\n".join(lines)


def invalid_form(errors: ErrorTree) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


UNKNOWN_ACCOUNT = 10001
UNKNOWN_APPLICATION = 10002
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_ROLE = 10011
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_COMMAND = 10063
ALREADY_ACKNOWLEDGED = 40060
EMPTY_MESSAGE = 50006
CANNOT_EDIT_OTHERS_MESSAGE = 50005
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
MAX_PINS = 30003
THREAD_ARCHIVED = 50083
CANNOT_SEND_IN_NON_TEXT = 50008
INVALID_FORM_BODY = 50035
THREAD_ALREADY_CREATED = 160004
THREAD_LOCKED = 160005
MAX_COMMAND_CREATES = 30034


def empty_message() -> DiscordError:
    return DiscordError(400, EMPTY_MESSAGE, "Cannot send an empty message")


def missing_permissions() -> DiscordError:
    return DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")


def thread_archived() -> DiscordError:
    return DiscordError(400, THREAD_ARCHIVED, "Thread is archived")


def thread_locked() -> DiscordError:
    """topics/opcodes-and-status-codes.mdx 160005 "Thread is locked"; the docs give no status: a 400, as their
    other refusals of a thread's state (50083) are."""
    return DiscordError(400, THREAD_LOCKED, "Thread is locked")


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")
