"""The layers of docs/architecture.md hold: rules/ stays pure (nothing from discord, sqlalchemy, yaml or the bot,
no global random), every import runs downward (the services never touch discord, the UI and the cogs never the
database, the emulator nothing of the bot's), and neither bot/ nor emulator/ has an import circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
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


def _import_graph(top: Path, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``top`` (a package directory under ``root``) it imports when it runs."""
    paths = {_module_name(path, root): path for path in top.rglob("*.py") if "migrations" not in path.parts}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        edges: set[str] = set()
        for target, names in _runtime_imports(ast.parse(path.read_text(encoding="utf-8")), package):
            # "from bot.ui import replies" imports the module bot.ui.replies; "from bot.x import f" imports bot.x.
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
    assert _cycles(_import_graph(BOT)) == []


def test_no_import_circles_among_emulator_modules() -> None:
    assert _cycles(_import_graph(ROOT / "emulator")) == []


# -- every import runs downward (docs/architecture.md, "The layers") -------------------------------------

# (the package directory, what none of its modules may import, why). Type-only imports count here: a service
# typed with a discord object, or a view typed with a table row, is the dependency the layer forbids.
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("bot/services", ("discord", "bot.ui", "bot.cogs", "bot.app", "bot.tree", "bot.interactions", "bot.web"),
     "the services return frozen views, never discord objects, and know nothing of the UI above them"),
    ("bot/ui", ("bot.db", "bot.cogs"), "the UI reads what the services return, never the database"),
    ("bot/cogs", ("bot.db",), "a cog calls one service method; the service owns the transaction"),
    ("bot/web", ("bot.db", "bot.cogs"), "the web page reads through the services and words with bot/ui, as a cog does"),
    ("bot/db", ("bot.services", "bot.ui", "bot.cogs", "bot.app", "discord", "content", "rules"),
     "tables and repositories, below everything that uses them"),
    ("content", ("bot", "emulator", "bench", "discord", "sqlalchemy"), "content/ builds catalogs from rules/ alone"),
    ("emulator", ("bot", "content", "rules", "bench", "tests"), "a loopback Discord knows nothing of the bot"),
)


def _all_imports(path: Path, root: Path = ROOT) -> set[str]:
    """Every module ``path`` names in an import, type-only ones too, relative ones resolved."""
    module = _module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _upward(directory: str, forbidden: tuple[str, ...], root: Path = ROOT) -> dict[str, list[str]]:
    """The modules under ``directory`` that import a module of ``forbidden`` (or one inside it), with what."""
    found: dict[str, list[str]] = {}
    for path in sorted((root / directory).rglob("*.py")):
        bad = sorted(name for name in _all_imports(path, root)
                     if any(name == f or name.startswith(f + ".") for f in forbidden))
        if bad:
            found[str(path.relative_to(root))] = bad
    return found


@pytest.mark.parametrize(("directory", "forbidden", "why"), LAYERS, ids=[layer[0] for layer in LAYERS])
def test_imports_run_downward(directory: str, forbidden: tuple[str, ...], why: str) -> None:
    assert _upward(directory, forbidden) == {}, why


@pytest.mark.parametrize(("directory", "forbidden", "why"), LAYERS, ids=[layer[0] for layer in LAYERS])
def test_each_layer_check_finds_a_planted_upward_import(tmp_path: Path, directory: str, forbidden: tuple[str, ...],
                                                        why: str) -> None:
    """Each check can fail: an upward import planted in a copy of the layer (at the top, in a function, type
    only, or relative) is found."""
    planted = tmp_path / directory / "sub" / "planted.py"
    planted.parent.mkdir(parents=True)
    for init in (tmp_path / directory, planted.parent):
        (init / "__init__.py").write_text("")
    lines = [f"import {forbidden[0]}", f"def f():\n    from {forbidden[-1]} import x\n",
             f"if TYPE_CHECKING:\n    import {forbidden[-1]}.deep\n"]
    for line in lines:
        planted.write_text(line + "\n")
        assert _upward(directory, forbidden, tmp_path) != {}, line
    planted.write_text("import os\nfrom . import planted_too\n")
    assert _upward(directory, forbidden, tmp_path) == {}
    if directory.startswith("bot/") and "bot.db" in forbidden:  # relative: from ...db import x, from bot/ui/sub/
        planted.write_text("from ...db import models\n")
        assert _upward(directory, forbidden, tmp_path) == {"/".join((directory, "sub", "planted.py")): [
            "bot.db", "bot.db.models"]}


def test_the_import_graph_finds_an_emulator_style_relative_circle(tmp_path: Path) -> None:
    top = tmp_path / "emu"
    top.mkdir()
    (top / "__init__.py").write_text("")
    (top / "rest.py").write_text("from .limits import check\n")
    (top / "limits.py").write_text("def check():\n    from . import rest\n")
    (top / "server.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .rest import x\n")
    assert _cycles(_import_graph(top, tmp_path)) == [["emu.limits", "emu.rest"]]
