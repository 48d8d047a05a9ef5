"""Discord's documented limits, checked the way Discord checks them: every breach lands in one ErrorTree."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import DiscordError, ErrorTree, empty_message, invalid_form
from .models import IS_COMPONENTS_V2, Message, walk_components

JSONDict = dict[str, Any]
Path = tuple[str | int, ...]

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
COMPONENTS_V2_TOTAL_MAX = 40
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
COMMAND_NAME_MAX = 32
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_TOTAL_CHARS_MAX = 8000  # application-commands.mdx "Slash Commands"
CHAT_INPUT_COMMANDS_MAX = 100
CONTEXT_MENU_COMMANDS_MAX = 15  # per type (user, message); "Registering a Command"
# Files a bot sends: at most 10 attachments on one message, and the whole multipart body at most 25 MiB
# in a guild without boosts (Discord answers 413 with code 40005 beyond it; discord.py itself refuses
# more than 10 files before sending).
FILES_MAX = 10
REQUEST_BYTES_MAX = 25 * 1024 * 1024
FILE_BYTES_MAX = 10 * 1024 * 1024  # each file, by default (reference.mdx "Uploading Files")
# Daily command creates per guild (application-commands.mdx "Registering a Command"; 30034).
COMMAND_CREATES_PER_DAY = 200

# application-commands.mdx "Application Command Naming": ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$
# (Python's \w is letters, digits and _ in every script, which covers the Devanagari and Thai ones).
COMMAND_NAME_RE = re.compile(r"^[-_'\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = (3, 5, 6, 7, 8)
ACTION_ROW = 1
LABEL = 18


def _length(tree: ErrorTree, path: Path, value: Any, high: int, low: int = 0, *, trimmed: bool = False) -> None:
    """``trimmed``: embed text, whose leading and trailing whitespace Discord trims before counting
    (resources/message.mdx "Embed Limits"), so whitespace-only text is empty."""
    if value is None:
        return
    if not isinstance(value, str):
        tree.add(path, "STRING_TYPE_CONVERT", "Could not interpret value as string.")
        return
    if trimmed:
        value = value.strip()
    if low and not low <= len(value) <= high:
        tree.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
    elif len(value) > high:
        tree.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")


def _count(tree: ErrorTree, path: Path, items: Sequence[Any] | None, high: int) -> None:
    if items is not None and len(items) > high:
        tree.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")


# -- messages -----------------------------------------------------------------------------------------


def _trim(text: Any) -> str:
    return text.strip() if isinstance(text, str) else ""


def embed_size(embed: Mapping[str, Any]) -> int:
    """Counted after trimming (resources/message.mdx "Embed Limits")."""
    total = len(_trim(embed.get("title"))) + len(_trim(embed.get("description")))
    total += len(_trim((embed.get("footer") or {}).get("text")))
    total += len(_trim((embed.get("author") or {}).get("name")))
    for f in embed.get("fields") or []:
        total += len(_trim(f.get("name"))) + len(_trim(f.get("value")))
    return total


def check_embeds(embeds: Sequence[Mapping[str, Any]] | None, tree: ErrorTree, path: Path = ("embeds",)) -> None:
    if not embeds:
        return
    _count(tree, path, embeds, EMBEDS_MAX)
    for i, embed in enumerate(embeds):
        here = (*path, i)
        _length(tree, (*here, "title"), embed.get("title"), EMBED_TITLE_MAX, trimmed=True)
        _length(tree, (*here, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX, trimmed=True)
        footer = embed.get("footer") or {}
        _length(tree, (*here, "footer", "text"), footer.get("text"), EMBED_FOOTER_MAX, trimmed=True)
        author = embed.get("author") or {}
        _length(tree, (*here, "author", "name"), author.get("name"), EMBED_AUTHOR_MAX, trimmed=True)
        fields = embed.get("fields") or []
        _count(tree, (*here, "fields"), fields, EMBED_FIELDS_MAX)
        for j, f in enumerate(fields):
            _length(tree, (*here, "fields", j, "name"), f.get("name") or "", EMBED_FIELD_NAME_MAX, 1, trimmed=True)
            _length(tree, (*here, "fields", j, "value"), f.get("value") or "", EMBED_FIELD_VALUE_MAX, 1, trimmed=True)
    if sum(embed_size(e) for e in embeds) > EMBED_TOTAL_MAX:
        tree.add(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


def _check_button(button: Mapping[str, Any], tree: ErrorTree, path: Path) -> None:
    _length(tree, (*path, "label"), button.get("label"), BUTTON_LABEL_MAX)
    if button.get("style") == 5:
        if not button.get("url"):
            tree.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("custom_id"):
            tree.add((*path, "custom_id"), "BUTTON_COMPONENT_INVALID_URL", "A link button cannot have a custom_id")
    elif button.get("style") != 6 and not button.get("custom_id"):
        tree.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    if not button.get("label") and not button.get("emoji") and button.get("style") != 6:
        tree.add(path, "BUTTON_COMPONENT_NO_LABEL_OR_EMOJI", "A button must have a label or an emoji")


def _check_select(select: Mapping[str, Any], tree: ErrorTree, path: Path) -> None:
    _length(tree, (*path, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= 25:
        tree.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25.")
    if not 1 <= high <= 25:
        tree.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not options:
        tree.add((*path, "options"), "BASE_TYPE_REQUIRED", "This field is required")
    _count(tree, (*path, "options"), options, SELECT_OPTIONS_MAX)
    for i, option in enumerate(options):
        for key in ("label", "value"):
            _length(tree, (*path, "options", i, key), option.get(key) or "", SELECT_OPTION_TEXT_MAX, 1)
        _length(tree, (*path, "options", i, "description"), option.get("description"), SELECT_OPTION_TEXT_MAX)
    if high > len(options):
        tree.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                 "max_values cannot exceed the number of options")


def _check_text_input(text_input: Mapping[str, Any], tree: ErrorTree, path: Path) -> None:
    _length(tree, (*path, "label"), text_input.get("label"), TEXT_INPUT_LABEL_MAX)
    _length(tree, (*path, "placeholder"), text_input.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX)
    _length(tree, (*path, "value"), text_input.get("value"), TEXT_INPUT_VALUE_MAX)
    if not 0 <= text_input.get("min_length", 0) <= TEXT_INPUT_VALUE_MAX:
        tree.add((*path, "min_length"), "NUMBER_TYPE_MAX", f"int value should be between 0 and {TEXT_INPUT_VALUE_MAX}.")
    if not 1 <= text_input.get("max_length", TEXT_INPUT_VALUE_MAX) <= TEXT_INPUT_VALUE_MAX:
        tree.add((*path, "max_length"), "NUMBER_TYPE_MAX", f"int value should be between 1 and {TEXT_INPUT_VALUE_MAX}.")


def _check_component(component: Mapping[str, Any], tree: ErrorTree, path: Path) -> None:
    kind = component.get("type")
    if "custom_id" in component:
        _length(tree, (*path, "custom_id"), component.get("custom_id"), CUSTOM_ID_MAX, 1)
    if kind == BUTTON:
        _check_button(component, tree, path)
    elif kind in SELECT_TYPES:
        _check_select(component, tree, path)
    elif kind == TEXT_INPUT:
        _check_text_input(component, tree, path)


def _check_row(row: Mapping[str, Any], tree: ErrorTree, path: Path) -> None:
    children = row.get("components") or []
    if not children:
        tree.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    buttons = [c for c in children if c.get("type") == BUTTON]
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    if len(buttons) > ROW_BUTTONS_MAX:
        tree.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    if selects and len(children) > 1:
        tree.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                 "The specified component exceeds the maximum width")
    for i, child in enumerate(children):
        _check_component(child, tree, (*path, "components", i))


def check_components(
    components: Sequence[Mapping[str, Any]] | None, flags: int, tree: ErrorTree, path: Path = ("components",)
) -> None:
    if not components:
        return
    if flags & IS_COMPONENTS_V2:
        total = len(list(walk_components([dict(c) for c in components])))
        if total > COMPONENTS_V2_TOTAL_MAX:
            tree.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {COMPONENTS_V2_TOTAL_MAX} or fewer in length.")
    else:
        _count(tree, path, components, ACTION_ROWS_MAX)
    seen: set[str] = set()
    for i, component in enumerate(components):
        if component.get("type") == ACTION_ROW:
            _check_row(component, tree, (*path, i))
        elif not flags & IS_COMPONENTS_V2:
            tree.add((*path, i, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
        else:
            _check_component(component, tree, (*path, i))
    for component in walk_components([dict(c) for c in components]):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            tree.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
        seen.add(custom_id)


def check_message(body: Mapping[str, Any], *, path: Path = (), require_content: bool = True,
                  has_files: bool = False) -> None:
    """Raise the DiscordError Discord would answer for this create/edit body, if any."""
    tree = ErrorTree()
    content = body.get("content")
    _length(tree, (*path, "content"), content, CONTENT_MAX)
    embeds = body.get("embeds")
    if embeds is None and body.get("embed") is not None:
        embeds = [body["embed"]]
    check_embeds(embeds, tree, (*path, "embeds"))
    check_components(body.get("components"), int(body.get("flags") or 0), tree, (*path, "components"))
    if tree:
        raise invalid_form(tree)
    if require_content and not (
        content or embeds or body.get("components") or has_files or body.get("sticker_ids") or body.get("poll")
        or body.get("attachments")
    ):
        raise empty_message()


def file_too_large(size: int) -> DiscordError:
    return DiscordError(413, 40005, "Request entity too large",
                        note=f"a file of {size} bytes; each file may be at most {FILE_BYTES_MAX}")


def request_too_large(size: int) -> DiscordError:
    return DiscordError(413, 40005, "Request entity too large",
                        note=f"{size} bytes; a request may carry at most {REQUEST_BYTES_MAX}")


def attachment_count(body: Mapping[str, Any], upload_indexes: Sequence[int], kept: int = 0) -> int:
    """How many attachments a message ends up with: the `attachments` list names the ones kept and the
    new uploads it describes; uploads it does not name are added; without the list an edit keeps `kept`."""
    specs = body.get("attachments")
    if specs is None:
        return kept + len(upload_indexes)
    named = {str(spec.get("id")) for spec in specs if isinstance(spec, Mapping)}
    return len(specs) + sum(1 for index in upload_indexes if str(index) not in named)


def check_attachments(body: Mapping[str, Any], upload_indexes: Sequence[int], *, kept: int = 0,
                      path: Path = ()) -> None:
    count = attachment_count(body, upload_indexes, kept)
    if count > FILES_MAX:
        tree = ErrorTree()
        tree.add((*path, "attachments"), "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_MAX} or fewer in length.")
        raise invalid_form(tree)


def check_edit(msg: Message, body: Mapping[str, Any], uploads: Sequence[int], path: Path = ()) -> None:
    """Limits on the edit itself, then Discord's refusal to leave a message with nothing in it."""
    has_files = bool(uploads)
    check_message(body, require_content=False, path=path)
    check_attachments(body, uploads, kept=len(msg.attachments), path=path)
    content = body.get("content", msg.content)
    embeds = body.get("embeds", msg.embeds)
    components = body.get("components", msg.components)
    attachments = body.get("attachments", msg.attachments)
    if not (content or embeds or components or attachments or has_files or msg.loading):
        raise empty_message()


def check_modal(data: Mapping[str, Any], path: Path = ("data",)) -> None:
    tree = ErrorTree()
    _length(tree, (*path, "title"), data.get("title") or "", MODAL_TITLE_MAX, 1)
    _length(tree, (*path, "custom_id"), data.get("custom_id") or "", CUSTOM_ID_MAX, 1)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        tree.add((*path, "components"), "BASE_TYPE_BAD_LENGTH",
                 f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length.")
    for i, component in enumerate(components):
        if component.get("type") == ACTION_ROW:
            _check_row(component, tree, (*path, "components", i))
        elif component.get("type") == LABEL:
            _length(tree, (*path, "components", i, "label"), component.get("label") or "", TEXT_INPUT_LABEL_MAX, 1)
            _check_component(component.get("component") or {}, tree, (*path, "components", i, "component"))
        else:
            _check_component(component, tree, (*path, "components", i))
    if tree:
        raise invalid_form(tree)


def check_choices(choices: Sequence[Mapping[str, Any]] | None, tree: ErrorTree, path: Path) -> None:
    if choices is None:
        return
    _count(tree, path, choices, CHOICES_MAX)
    for i, choice in enumerate(choices):
        _length(tree, (*path, i, "name"), choice.get("name") or "", CHOICE_NAME_MAX, 1)
        value = choice.get("value")
        if isinstance(value, str):
            _length(tree, (*path, i, "value"), value, CHOICE_VALUE_MAX)


def check_autocomplete(data: Mapping[str, Any]) -> None:
    tree = ErrorTree()
    check_choices(data.get("choices") or [], tree, ("data", "choices"))
    if tree:
        raise invalid_form(tree)


# -- application commands ----------------------------------------------------------------------------


def _check_name(tree: ErrorTree, path: Path, name: Any, *, chat_input: bool) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME_MAX:
        tree.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {COMMAND_NAME_MAX} in length.")
    elif chat_input and (not COMMAND_NAME_RE.match(name) or name != name.lower()):
        tree.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _command_chars(node: Mapping[str, Any]) -> int:
    total = len(node.get("name") or "") + len(node.get("description") or "")
    for choice in node.get("choices") or []:
        total += len(choice.get("name") or "") + len(str(choice.get("value", "")))
    return total + sum(_command_chars(o) for o in node.get("options") or [])


def _check_options(options: Sequence[Mapping[str, Any]], tree: ErrorTree, path: Path, depth: int) -> None:
    _count(tree, path, options, COMMAND_OPTIONS_MAX)
    kinds = {o.get("type") for o in options}
    nested = kinds & {1, 2}
    if nested and kinds - {1, 2}:
        tree.add(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                 "Sub-command and sub-command group option types are mutually exclusive to all other types")
    names: set[str] = set()
    seen_optional = False
    for i, option in enumerate(options):
        here = (*path, i)
        kind = option.get("type")
        _check_name(tree, (*here, "name"), option.get("name"), chat_input=True)
        _length(tree, (*here, "description"), option.get("description") or "", COMMAND_DESCRIPTION_MAX, 1)
        name = option.get("name")
        if isinstance(name, str):
            if name in names:
                tree.add((*here, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                         "Option name already exists")
            names.add(name)
        if kind == 2 and depth > 0:
            tree.add((*here, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                     "Sub-command groups can only be nested at the top level")
        if kind == 1 and depth > 1:
            tree.add((*here, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                     "Sub-commands can only be nested in groups")
        if kind in (1, 2):
            children = option.get("options") or []
            if kind == 2 and any(c.get("type") != 1 for c in children):
                tree.add((*here, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                         "Sub-command groups may only contain sub-commands")
            _check_options(children, tree, (*here, "options"), depth + 1)
            continue
        if kind not in (3, 4, 5, 6, 7, 8, 9, 10, 11):
            tree.add((*here, "type"), "BASE_TYPE_CHOICES", f"Value must be one of {{1..11}}, got {kind!r}.")
        required = bool(option.get("required", False))
        if required and seen_optional:
            tree.add((*here, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                     "Required options must be placed before non-required options")
        seen_optional = seen_optional or not required
        if option.get("choices") and option.get("autocomplete"):
            tree.add((*here, "autocomplete"), "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                     "Autocomplete cannot be set on options with choices")
        check_choices(option.get("choices"), tree, (*here, "choices"))
        for key in ("min_length", "max_length"):
            value = option.get(key)
            if value is not None and not 0 <= int(value) <= 6000:
                tree.add((*here, key), "NUMBER_TYPE_MAX", "int value should be between 0 and 6000.")


def check_command(command: Mapping[str, Any], tree: ErrorTree, path: Path) -> None:
    kind = command.get("type", 1)
    chat_input = kind == 1
    _check_name(tree, (*path, "name"), command.get("name"), chat_input=chat_input)
    description = command.get("description") or ""
    if chat_input:
        _length(tree, (*path, "description"), description, COMMAND_DESCRIPTION_MAX, 1)
        _check_options(command.get("options") or [], tree, (*path, "options"), 0)
        if _command_chars(command) > COMMAND_TOTAL_CHARS_MAX:
            tree.add(path, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_TOTAL_CHARS_MAX})")
    elif description:
        tree.add((*path, "description"), "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                 "Context menu commands cannot have description")


def check_commands(commands: Sequence[Mapping[str, Any]]) -> None:
    """Validate a bulk overwrite (PUT .../commands); raises DiscordError like Discord would."""
    if not isinstance(commands, list):
        raise DiscordError(400, 50035, "Invalid Form Body")
    tree = ErrorTree()
    seen: set[tuple[int, str]] = set()
    per_type: dict[int, int] = {}
    for i, command in enumerate(commands):
        check_command(command, tree, (i,))
        key = (int(command.get("type", 1)), str(command.get("name")))
        if key in seen:
            tree.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        seen.add(key)
        per_type[key[0]] = per_type.get(key[0], 0) + 1
    if per_type.get(1, 0) > CHAT_INPUT_COMMANDS_MAX:
        tree.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {CHAT_INPUT_COMMANDS_MAX} or fewer in length.")
    for kind in (2, 3):
        if per_type.get(kind, 0) > CONTEXT_MENU_COMMANDS_MAX:
            tree.add((), "APPLICATION_COMMANDS_TOO_MANY",
                     f"Maximum number of context menu commands reached ({CONTEXT_MENU_COMMANDS_MAX})")
    if tree:
        raise invalid_form(tree)
