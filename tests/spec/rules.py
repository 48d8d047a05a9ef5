"""The documented rules a request's schema cannot say: embed totals, unique custom_ids, what a row may hold,
what a button must carry. Each names the doc line it follows (`discord/discord-api-docs`, developers/...)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

JSONDict = dict[str, Any]

# The operations whose body is (or holds, as `data`) a message.
MESSAGE_BODIES = {"create_message", "update_message", "execute_webhook", "update_original_webhook_message",
                  "update_webhook_message"}
ACTION_ROW, BUTTON, TEXT_INPUT, LABEL = 1, 2, 4, 18
SELECTS = {3, 5, 6, 7, 8}
LINK, PREMIUM = 5, 6
EMBED_TOTAL = 6000


def request_rule_problems(operation: str, body: JSONDict) -> list[tuple[str, str]]:
    if operation == "create_interaction_response":
        data = body.get("data")
        if not isinstance(data, dict):
            return []
        if body.get("type") == 9:
            return [(f"data.{f}", r) for f, r in _component_problems(data.get("components") or [], modal=True)]
        if body.get("type") == 8:
            return [(f"data.{f}", r) for f, r in _choice_problems(data.get("choices") or [])]
        return [(f"data.{f}", r) for f, r in _message_problems(data)]
    if operation in MESSAGE_BODIES:
        return _message_problems(body)
    return []


def _message_problems(body: JSONDict) -> list[tuple[str, str]]:
    problems = list(_embed_total(body.get("embeds") or []))
    problems += _component_problems(body.get("components") or [], modal=False)
    return problems


def _embed_total(embeds: list[JSONDict]) -> Iterator[tuple[str, str]]:
    """message.mdx "Embed Limits": title, description, field names and values, footer text and author name
    together at most 6000 characters across all of a message's embeds."""
    total = 0
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        total += sum(len(str(embed.get(k) or "").strip()) for k in ("title", "description"))
        total += sum(len(str(f.get(k) or "").strip()) for f in embed.get("fields") or [] for k in ("name", "value"))
        total += len(str((embed.get("footer") or {}).get("text") or "").strip())
        total += len(str((embed.get("author") or {}).get("name") or "").strip())
    if total > EMBED_TOTAL:
        yield "embeds", f'embed totals: {total} characters, over 6000 (message.mdx "Embed Limits")'


def _walk(components: list[Any], path: str) -> Iterator[tuple[str, JSONDict]]:
    for n, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = f"{path}[{n}]"
        yield here, component
        yield from _walk(component.get("components") or [], f"{here}.components")
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from _walk([child], f"{here}.{key}")


def _component_problems(components: list[Any], *, modal: bool) -> list[tuple[str, str]]:
    """components/reference.mdx: custom_ids unique within a message or modal ("Custom ID"), a row holds up to
    five buttons or one select and not both ("Action Row"), a link button has a url and no custom_id, a
    premium one a sku_id, any other a custom_id ("Button"); a modal's text inputs sit in labels ("Text Input":
    the label-less layout in an action row is deprecated)."""
    problems: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for path, component in _walk(components, "components"):
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                problems.append((f"{path}.custom_id", f"custom_id {custom_id!r} repeats {seen[custom_id]} "
                                 '(components/reference.mdx "Custom ID": unique per message)'))
            seen.setdefault(custom_id, path)
        if kind == ACTION_ROW:
            children = [c for c in component.get("components") or [] if isinstance(c, dict)]
            buttons = sum(1 for c in children if c.get("type") == BUTTON)
            selects = sum(1 for c in children if c.get("type") in SELECTS)
            if buttons > 5 or selects > 1 or (buttons and selects):
                problems.append((path, f"row makeup: {buttons} buttons and {selects} selects "
                                 '(components/reference.mdx "Action Row": up to 5 buttons or one select)'))
            if modal and any(c.get("type") == TEXT_INPUT for c in children):
                problems.append((path, 'deprecated: a text input in an action row of a modal; put it in a Label '
                                 '(components/reference.mdx "Text Input", "Label")'))
        elif kind == BUTTON:
            style = component.get("style")
            if style == LINK and ("url" not in component or custom_id is not None):
                problems.append((path, 'button rules: a link button has a url and no custom_id '
                                 '(components/reference.mdx "Button")'))
            elif style == PREMIUM and ("sku_id" not in component or custom_id is not None):
                problems.append((path, 'button rules: a premium button has a sku_id and no custom_id'))
            elif style not in (LINK, PREMIUM) and (custom_id is None or "url" in component):
                problems.append((path, 'button rules: a non-link button has a custom_id and no url '
                                 '(components/reference.mdx "Button")'))
            if style != PREMIUM and not (component.get("label") or component.get("emoji")):
                problems.append((path, 'button rules: a button shows a label or an emoji'))
    return problems


def _choice_problems(choices: list[Any]) -> list[tuple[str, str]]:
    """receiving-and-responding.mdx "Autocomplete": at most 25 choices; application-commands.mdx
    "Application Command Option Choice Structure": names 1-100 characters, string values at most 100."""
    problems: list[tuple[str, str]] = []
    if len(choices) > 25:
        problems.append(("choices", f"{len(choices)} autocomplete choices, over 25"))
    for n, choice in enumerate(choices):
        if not isinstance(choice, dict):
            continue
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append((f"choices[{n}].name", "a choice's name is 1 to 100 characters"))
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append((f"choices[{n}].value", "a string choice's value is at most 100 characters"))
    return problems
