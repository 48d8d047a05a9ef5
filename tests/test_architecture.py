"""rules/ stays pure: nothing from discord, sqlalchemy, yaml or the bot, and no global random."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "rules"
FORBIDDEN = {"discord", "sqlalchemy", "yaml", "bot", "content", "aiohttp", "aiosqlite", "asyncpg"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_import_nothing_from_the_outside() -> None:
    offenders = {
        str(path.relative_to(RULES)): sorted(_imports(path) & FORBIDDEN) for path in RULES.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_rules_never_use_the_global_random_module() -> None:
    for path in RULES.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert "random" not in {a.name for a in node.names}, path
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert {a.name for a in node.names} <= {"Random"}, path


# -- no import circles among the bot's modules ---------------------------------------------------------

ROOT = RULES.parent
BOT = ROOT / "bot"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST, package: str) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names) of every import that runs, at the top or inside a function (a late import still
    closes a circle); imports under ``if TYPE_CHECKING:`` are left out."""
    found: list[tuple[str, tuple[str, ...]]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((base, tuple(alias.name for alias in node.names)))
        stack.extend(ast.iter_child_nodes(node))
    return found


def _bot_import_graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in BOT.rglob("*.py") if "migrations" not in path.parts}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        edges: set[str] = set()
        for target, names in _runtime_imports(ast.parse(path.read_text(encoding="utf-8")), package):
            # "from bot.ui import embeds" imports the module bot.ui.embeds; "from bot.x import f" imports bot.x.
            submodules = {f"{target}.{name}" for name in names} & paths.keys()
            edges |= submodules or ({target} & paths.keys())
        graph[module] = edges - {module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_late_import_circle() -> None:
    tree = ast.parse("import bot.b\ndef f():\n    from bot import a\nif TYPE_CHECKING:\n    import bot.c\n")
    assert _runtime_imports(tree, "bot") == [("bot.b", ()), ("bot", ("a",))] or sorted(
        _runtime_imports(tree, "bot")) == [("bot", ("a",)), ("bot.b", ())]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles_among_bot_modules() -> None:
    assert _cycles(_bot_import_graph()) == []
