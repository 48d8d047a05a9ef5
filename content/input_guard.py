"""The input guard: every piece of user text (sheets, packs, scenarios, dice expressions, option and
modal values) is read here, and nowhere else.

A document (YAML or JSON) goes through three steps, each linear in its size, each stopping at the
first bound it crosses:

1. bytes: the size cap, then strict UTF-8;
2. characters: one regular-expression pass refuses control characters, lone surrogates and runs of
   digits too long for any honest number (Python's ``int()`` raises a ValueError past 4,300 digits;
   no such text gets that far);
3. structure and values, in one pass:
   - JSON: brackets are counted outside strings before ``json`` parses (so it never recurses deeply),
     then one iterative walk of the result bounds its values;
   - YAML: ``content.plain_yaml`` turns the events of the safe parser (libyaml's when PyYAML has it,
     else PyYAML's own; never the full Loader) straight into dicts, lists and scalars, so no node
     graph is built and nothing recurses; depth, values (aliases expanded), aliases, tags, 64-bit
     integers, finite floats and clean strings are checked as each value is made. It is 4x faster
     than CSafeLoader's own load on a 511 KiB pack (``bench/input_guard.py``).

Everything admitted therefore parses in well under a second; the bot still reads uploads and builds
catalogs in a worker thread with a time budget (``Runtime.off_loop``, ``Runtime.catalog_for``), as a
backstop. Every refusal is an ``InputRejected`` (a ``ContentError``): one line naming the source and,
where it can, the line, column and field.

This module imports nothing from the bot or the engines, so ``content``, ``bot`` and the command line
all use it without import circles.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

import yaml

from content import plain_yaml
from content.errors import ContentError

# -- the limits, in one place -------------------------------------------------------------------

# Far above any honest number (ids are at most 20 digits, a float's exact decimal ~ 40), far below the
# 4,300 digits at which Python's int() raises instead of answering.
MAX_DIGITS = 100
# Stored ids and every stored integer are 64-bit (SQLite INTEGER, PostgreSQL BIGINT).
MAX_INT = 2**63 - 1
# A shared alias is cheap to write and expensive to expand ("billion laughs"); packs use none today.
MAX_ALIASES = 64


@dataclass(frozen=True)
class Limits:
    """The bounds for one kind of document."""

    max_bytes: int
    # Nesting, counted after aliases are expanded. Our own packs nest at most 6 deep.
    max_depth: int
    # Values (collections and scalars), after aliases are expanded.
    max_nodes: int


# A sheet is a few dozen fields; 64 KiB and 5,000 values leave room for a long description and many
# weapons, and bound what one /character import stores as JSON.
SHEET = Limits(64 * 1024, max_depth=12, max_nodes=5_000)
# The largest default pack file is 10 KiB (850 values); 512 KiB of homebrew is ~35,000 values.
PACK_FILE = Limits(512 * 1024, max_depth=32, max_nodes=150_000)
# A scenario is two sheets and an action.
SCENARIO = Limits(256 * 1024, max_depth=32, max_nodes=20_000)

# One-line text a user types (dice expressions, option values, modal fields) is never longer than
# Discord's 4,000-character modal field; callers pass their own, smaller bound.
MAX_TEXT = 4000

# -- errors -------------------------------------------------------------------------------------


class InputRejected(ContentError):
    """User input refused by the guard: ``str()`` is one line naming the source and what is wrong."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__(source, message=one_line(message))


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) made one space."""
    return " ".join(str(text).split())


# -- characters ---------------------------------------------------------------------------------

# C0 controls other than tab, line feed and carriage return; DEL; C1 controls; surrogates (only a lone
# one can reach a ``str``); and the two non-characters YAML refuses.
_BAD_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
# The same, for one-line text (options, dice): line breaks are refused too.
_BAD_LINE_CHAR = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
# A digit followed by MAX_DIGITS more digits or underscores (YAML 1.1 lets ``1_000`` be a number).
_LONG_NUMBER = re.compile(f"[0-9][0-9_]{{{MAX_DIGITS},}}")


_WHOLE = re.compile(r"[+-]?[0-9]+")


def _char_name(char: str) -> str:
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate (U+{code:04X})"
    return f"a control character (U+{code:04X})"


def _where(text: str, position: int) -> str:
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return f"line {line}, column {column}"


def _check_characters(text: str, source: str) -> None:
    bad = _BAD_CHAR.search(text)
    if bad is not None:
        raise InputRejected(source, f"{_where(text, bad.start())}: holds {_char_name(bad.group())}; remove it")
    long = _LONG_NUMBER.search(text)
    if long is not None:
        raise InputRejected(source, f"{_where(text, long.start())}: a number of more than {MAX_DIGITS} digits")


def check_text(text: str, what: str, max_chars: int = MAX_TEXT) -> str:
    """One line of typed text (a dice expression, an option or modal value), returned unchanged if it is
    at most ``max_chars`` long and holds no control character, line break or lone surrogate."""
    if len(text) > max_chars:
        raise InputRejected(what, f"at most {max_chars} characters")
    bad = _BAD_LINE_CHAR.search(text)
    if bad is not None:
        raise InputRejected(what, f"holds {_char_name(bad.group())}; remove it")
    return text


def whole_number(text: str, what: str, low: int = -MAX_INT, high: int = MAX_INT) -> int:
    """The integer ``text`` spells (ASCII digits, a sign, spaces around) if it is from ``low`` to ``high``."""
    stripped = text.strip()
    if not _WHOLE.fullmatch(stripped):
        check_text(text, what)
        raise InputRejected(what, f"'{_short(stripped, 20)}' is not a whole number")
    if len(stripped.lstrip("+-0")) > 19:  # past 64 bits whatever the digits; int() is never asked
        raise InputRejected(what, f"'{_short(stripped, 20)}' is too large a number (at most 19 digits)")
    value = int(stripped)
    if not low <= value <= high:
        if (low, high) == (-MAX_INT, MAX_INT):
            raise InputRejected(what, f"'{stripped}' is too large a number (at most 19 digits)")
        raise InputRejected(what, f"must be a whole number from {low} to {high}")
    return value


def option_value(text: str, what: str, max_chars: int = MAX_TEXT) -> int | str:
    """Typed text that spells a whole number becomes that number (at most 64 bits, else refused); any
    other text comes back stripped."""
    stripped = check_text(text, what, max_chars).strip()
    if _WHOLE.fullmatch(stripped):
        return whole_number(stripped, what)
    return stripped


def bounded_id(text: str) -> int | None:
    """A stored id from a custom id or option (digits only), or None if it cannot be one (over 64 bits)."""
    if not text.isdigit() or len(text) > 19:
        return None
    value = int(text)
    return value if 0 < value <= MAX_INT else None


# -- documents ----------------------------------------------------------------------------------


def _yaml_loader(base: type[Any] | None = None) -> type[Any]:
    """CSafeLoader when PyYAML was built with libyaml, else SafeLoader (or ``base``, for tests); without
    the timestamp (a date stays text) and ``=`` resolvers, so every scalar is plain data."""
    parent: type[Any] = base if base is not None else getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class GuardLoader(parent):  # type: ignore[misc]
        pass

    GuardLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers
                if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:value")]
        for first, resolvers in parent.yaml_implicit_resolvers.items()
    }
    return GuardLoader


_LOADER = _yaml_loader()
LIBYAML = _LOADER.__mro__[1] is not yaml.SafeLoader


def parse_document(data: bytes | str, source: str, limits: Limits) -> Any:
    """The plain data (dicts, lists, str, int, float, bool, None) in one YAML or JSON document.

    JSON is read by ``json`` when the source is named ``.json`` or the text starts with ``{`` or ``[``
    (falling back to YAML, of which JSON is nearly a subset, when that fails).
    """
    text = _decode(data, source, limits)
    _check_characters(text, source)
    stripped = text.lstrip()
    if source.lower().endswith(".json") or stripped[:1] in ("{", "["):
        found = _parse_json(text, source, limits)
        if found is not _NOT_JSON:
            return _plain(found, source, limits)
    return _parse_yaml(text, source, limits)


def _decode(data: bytes | str, source: str, limits: Limits) -> str:
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > limits.max_bytes:
        limit = f"{limits.max_bytes // 1024} KiB" if limits.max_bytes % 1024 == 0 else f"{limits.max_bytes}-byte"
        raise InputRejected(source, f"is {size} bytes, over the {limit} limit")
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise InputRejected(source, f"is not UTF-8 text (byte {exc.start + 1})") from None


_NOT_JSON = object()
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def _parse_json(text: str, source: str, limits: Limits) -> Any:
    # Strings out of the way, every bracket left is structure: the depth is a running sum.
    skeleton = _JSON_STRING.sub('""', text)
    steps = (1 if b in "[{" else -1 for b in _JSON_BRACKET.findall(skeleton))
    depth = max(accumulate(steps, initial=0))
    if depth > limits.max_depth:
        raise InputRejected(source, f"nests more than {limits.max_depth} levels deep")
    nodes = skeleton.count(",") + skeleton.count("[") + skeleton.count("{") + 1
    if nodes > limits.max_nodes:
        raise InputRejected(source, f"holds more than {limits.max_nodes} values")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return _NOT_JSON
    except (ValueError, RecursionError) as exc:  # bounded above; kept so no parser error escapes as a traceback
        raise InputRejected(source, f"is not valid JSON ({exc})") from None


def _parse_yaml(text: str, source: str, limits: Limits) -> Any:
    loader = _LOADER(text)  # only its parser and resolvers are used: plain_yaml builds the values
    try:
        return plain_yaml.load(loader, plain_yaml.Bounds(limits.max_depth, limits.max_nodes, MAX_ALIASES, MAX_INT,
                                                         _text_problem))
    except plain_yaml.Refusal as exc:
        raise InputRejected(source, str(exc)) from None
    except yaml.YAMLError as exc:
        raise InputRejected(source, _yaml_problem(exc, limits)) from None
    except (ValueError, OverflowError, RecursionError, MemoryError) as exc:
        # The bounds make these unreachable; kept so no parser error escapes as a traceback.
        raise InputRejected(source, f"could not be read ({type(exc).__name__})") from None
    finally:
        loader.dispose()


def _text_problem(text: str) -> str | None:
    bad = _BAD_CHAR.search(text)
    return None if bad is None else f"holds {_char_name(bad.group())}; remove it"


def _yaml_problem(exc: yaml.YAMLError, limits: Limits) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = exc.problem or str(exc)
        if "nesting depth" in problem:  # libyaml's own bound, met while it looks ahead for a key
            return f"{where}nests more than {limits.max_depth} levels deep"
        if "python/" in str(exc) or "could not determine a constructor" in problem:
            problem = "tags such as !!python/object are not allowed"
        return f"is not valid YAML ({where}{problem})"
    return f"is not valid YAML ({exc})"


_PLAIN_KEYS = (str, int, float, bool, type(None))


def _plain(root: Any, source: str, limits: Limits) -> Any:
    """Check a parsed JSON tree without recursion (values, depth, keys, scalars); returns it unchanged."""
    budget = limits.max_nodes
    stack: list[tuple[Any, int, str]] = [(root, 0, "")]
    while stack:
        node, depth, path = stack.pop()
        budget -= 1
        if budget < 0:
            raise InputRejected(source, f"holds more than {limits.max_nodes} values (aliases expanded)")
        if depth > limits.max_depth:
            raise InputRejected(source, f"field '{_short(path)}' nests more than {limits.max_depth} levels deep")
        if isinstance(node, dict):
            for key, value in node.items():
                if not isinstance(key, _PLAIN_KEYS):
                    raise InputRejected(source, f"field '{_short(path) or '.'}' has a key that is not text or a number")
                _check_scalar(key, source, path or ".")
                stack.append((value, depth + 1, f"{path}.{key}" if path else str(key)))
        elif isinstance(node, list):
            stack.extend((value, depth + 1, f"{path}[{index}]") for index, value in enumerate(node))
        else:
            _check_scalar(node, source, path)
    return root


def _short(path: str, keep: int = 60) -> str:
    return path if len(path) <= keep else path[:keep] + "\u2026"


def _check_scalar(value: Any, source: str, path: str) -> None:
    where = f"field '{_short(path)}'" if path else "the document"
    if isinstance(value, str):
        bad = _BAD_CHAR.search(value)
        if bad is not None:
            raise InputRejected(source, f"{where} holds {_char_name(bad.group())}; remove it")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise InputRejected(source, f"{where}: the number is out of range (at most 19 digits)")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InputRejected(source, f"{where}: {value} is not a finite number")
    else:
        kind = type(value).__name__
        raise InputRejected(source, f"{where} holds a {kind}, not plain text, a number or a list")
