"""Every button the bot posts, and every form it opens, works across a restart (issue 21): read from the
source, so that a new button or form cannot quietly depend on this process's memory.

- a button (or select) is made only inside a ``discord.ui.DynamicItem`` subclass: discord.py routes its
  press by the custom_id's pattern, whatever the process remembers;
- a form (modal) is sent only as ``forms.unstored(...)`` made it, so that its submit reaches the routes of
  ``bot.ui.forms`` (discord.py's own store forgets it on a restart) and one of those routes matches it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.app import GrievousBot
from bot.services import Services
from bot.ui import action_message

BOT = Path(__file__).resolve().parents[2] / "bot"
COMPONENTS = {"Button", "Select", "UserSelect", "RoleSelect", "ChannelSelect", "MentionableSelect"}


def modules() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(BOT.parent)), ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(BOT.rglob("*.py")) if "playground" not in path.parts]


def dynamic(cls: ast.ClassDef) -> bool:
    return any("DynamicItem" in ast.unparse(base) for base in cls.bases)


def link(call: ast.Call) -> bool:
    """A link button (``url=``): Discord opens the address itself and sends the bot no press to route."""
    return any(k.arg == "url" for k in call.keywords)


def test_every_button_is_a_dynamic_item() -> None:
    offenders = []
    for name, tree in modules():
        inside: set[int] = set()
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and dynamic(n)):
            inside.update(id(n) for n in ast.walk(cls))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in COMPONENTS and id(node) not in inside and not link(node):
                offenders.append(f"{name}:{node.lineno} {ast.unparse(node.func)}")
    assert offenders == []


def test_every_form_is_sent_unstored() -> None:
    builders: dict[str, bool] = {}  # function name -> it returns forms.unstored(...)
    sent: list[tuple[str, int, ast.expr]] = []
    for name, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                returns = [n.value for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None]
                builders[node.name] = bool(returns) and all(
                    isinstance(r, ast.Call) and ast.unparse(r.func).endswith("unstored") for r in returns)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "send_modal":
                sent.append((name, node.lineno, node.args[0]))
    assert sent, "no form found: the test reads the wrong place"
    offenders = [f"{name}:{line} {ast.unparse(arg)}" for name, line, arg in sent
                 if not (isinstance(arg, ast.Call) and builders.get(ast.unparse(arg.func).split(".")[-1]))]
    assert offenders == []


async def test_every_form_the_bot_opens_has_a_route() -> None:
    bot = GrievousBot(services=object.__new__(Services))
    routes = [pattern for pattern, _ in bot.forms._routes]
    for choice in action_message.VALUE_PROMPTS:
        form = action_message.value_form(12, choice)
        assert form.is_finished()  # unstored
        assert any(re.fullmatch(pattern, form.custom_id) for pattern in routes), form.custom_id
