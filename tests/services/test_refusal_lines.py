"""Where a refusal's words live (docs/architecture.md, "Where the words live"): a service that refuses raises a
``UserError`` carrying the one line the user sees; the tree's error handler shows it unchanged. So every such
raise in bot/services must carry a line, and a line it is: no newline in any of its literal parts."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import bot.errors
from bot.errors import UserError

SERVICES = Path(__file__).resolve().parents[2] / "bot" / "services"
REFUSALS = {name for name, cls in inspect.getmembers(bot.errors, inspect.isclass) if issubclass(cls, UserError)}
WORDS_ITSELF = {"StorageFull", "DatabaseNotAnswering", "DatabaseFileGone"}  # their one line is in bot/errors.py


def _raises() -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted(SERVICES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in REFUSALS:
                    found.append((f"{path.name}:{node.lineno} {name}", node.exc))
    return found


def test_every_refusal_a_service_raises_carries_one_line() -> None:
    raises = _raises()
    assert len(raises) > 80  # the services' refusals were found (91 when this was written)
    silent = [where for where, call in raises if not call.args and where.split()[-1] not in WORDS_ITSELF]
    assert silent == [], "a refusal with no line shows only its class name"
    broken = [where for where, call in raises for arg in call.args for part in ast.walk(arg)
              if isinstance(part, ast.Constant) and isinstance(part.value, str) and "\n" in part.value]
    assert broken == [], "a refusal is one line"


# Discord markup a line would mean: shown as typed text instead (bot/ui/replies.refusal makes the whole line plain),
# so a refusal that needs a mention or a timestamp names it apart (UserError.markup).
MARKUP = ("`", "**", "__", "||", "~~", "](", "<#", "<@", "<t:", "</")


def test_no_refusal_a_service_raises_holds_markup_in_its_line() -> None:
    marked = [where for where, call in _raises() for arg in call.args for part in ast.walk(arg)
              if isinstance(part, ast.Constant) and isinstance(part.value, str)
              and any(mark in part.value for mark in MARKUP)]
    assert marked == [], "markup in a refusal's line shows as typed text"
