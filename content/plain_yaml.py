"""YAML to plain data in one pass over the parser's events, with the input guard's bounds.

PyYAML's own loaders build a node graph (the composer) and then Python objects from it (the
constructor): for a 511 KiB pack that is ~80,000 node objects and most of the load time (3.6 s of
the 5.7 s CSafeLoader takes on this machine, measured while shared; libyaml's events alone take
0.6 s). Here the events of the same safe parser (libyaml's, else PyYAML's pure-Python one) become
dicts, lists and scalars directly, so nothing is built twice, nothing recurses, and every bound
(depth, values with aliases expanded, aliases, 64-bit integers, finite floats, clean strings) is
checked as the value is made, stopping at the first one crossed.

Only plain data comes out: the standard scalar tags (str, int, float, bool, null), mappings with
text or number keys (``<<`` merges included), sequences. Any other tag (``!!python/...``,
``!!binary``, ``!!set``, timestamps) is refused; a date without a tag stays text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode

_YAML = "tag:yaml.org,2002:"
_MERGE = object()  # the value of a ``<<`` key


class Refusal(Exception):
    """A bound crossed or a value refused: ``where`` is "line L, column C: " (with the field for a value),
    ``why`` the rest."""

    def __init__(self, why: str, where: str = "") -> None:
        super().__init__(f"{where}{why}")
        self.why = why


@dataclass
class Bounds:
    max_depth: int
    max_nodes: int
    max_aliases: int
    max_int: int
    is_clean: Callable[[str], str | None]  # None when the text is fine, else what is wrong with it


_CONSTRUCTOR = SafeConstructor()


def _as(kind: str) -> Callable[[str], Any]:
    method = getattr(_CONSTRUCTOR, f"construct_yaml_{kind}")
    return lambda value: method(ScalarNode(_YAML + kind, value))


# The standard scalar tags and how each is made from its text (PyYAML's own YAML 1.1 conversions).
_SCALARS: dict[str, Callable[[str], Any]] = {
    _YAML + "str": str, _YAML + "int": _as("int"), _YAML + "float": _as("float"),
    _YAML + "bool": _as("bool"), _YAML + "null": lambda value: None, _YAML + "merge": lambda value: _MERGE,
}
_COLLECTIONS = {None, "!", _YAML + "map", _YAML + "seq"}


@dataclass
class _Open:
    """A mapping or sequence being filled."""

    value: dict[Any, Any] | list[Any]
    anchor: str | None
    nodes_before: int
    height: int = 1
    key: Any = None
    has_key: bool = False
    merges: list[dict[Any, Any]] = field(default_factory=list)


def tag_name(tag: str | None) -> str:
    tag = tag or "!"
    return "!!" + tag[len(_YAML):] if tag.startswith(_YAML) else tag


def _where(event: Any) -> str:
    mark = event.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""


def _field(stack: list[_Open], keep: int = 60) -> str:
    """The dotted path of the value being read (``weapons.Moon Blade.weight``), for messages."""
    parts = []
    for frame in stack:
        if isinstance(frame.value, list):
            parts.append(f"[{len(frame.value)}]")
        elif frame.has_key:
            parts.append(f".{frame.key}")
    path = "".join(parts).lstrip(".")
    return path if len(path) <= keep else path[:keep] + "\u2026"


def load(loader: Any, bounds: Bounds) -> Any:
    """The one document ``loader`` (a SafeLoader or CSafeLoader over the text) holds, as plain data.

    Raises Refusal, or the parser's own yaml.YAMLError for text that is not YAML.
    """
    resolvers: dict[Any, list[tuple[str, Any]]] = loader.yaml_implicit_resolvers
    stack: list[_Open] = []
    anchors: dict[str, tuple[Any, int, int]] = {}  # name -> (value, values it expands to, height)
    nodes = aliases = documents = 0
    root: Any = None

    def add(value: Any, height: int, event: Any) -> None:
        nonlocal root
        if not stack:
            root = value
            return
        top = stack[-1]
        top.height = max(top.height, height + 1)
        if isinstance(top.value, list):
            top.value.append(value)
        elif not top.has_key:
            if isinstance(value, dict | list):
                raise Refusal("a key that is not text or a number", _where(event))
            top.key, top.has_key = value, True
        else:
            if top.key is _MERGE:
                sources = value if isinstance(value, list) else [value]
                if not all(isinstance(source, dict) for source in sources):
                    raise Refusal("'<<' merges mappings only", _where(event))
                top.merges.extend(sources)
            else:
                top.value[top.key] = value
            top.has_key = False

    def counted(more: int, event: Any) -> None:
        nonlocal nodes
        nodes += more
        if nodes > bounds.max_nodes:
            raise Refusal(f"holds more than {bounds.max_nodes} values", _where(event))

    while loader.check_event():
        event = loader.get_event()
        if type(event) is yaml.ScalarEvent:  # most events: the fast path, with add() inlined for lists and values
            nodes += 1
            if nodes > bounds.max_nodes:
                raise Refusal(f"holds more than {bounds.max_nodes} values", _where(event))
            try:
                value = _scalar(event, resolvers, bounds)
            except Refusal as refused:
                path = _field(stack)
                raise Refusal(refused.why, f"{_where(event)}field '{path}': " if path else _where(event)) from None
            if event.anchor is not None:
                anchors[event.anchor] = (value, 1, 0)
            top = stack[-1] if stack else None
            if top is not None and top.has_key and top.key is not _MERGE:
                top.value[top.key] = value
                top.has_key = False
            elif top is not None and type(top.value) is list:
                top.value.append(value)
            else:
                add(value, 0, event)
        elif isinstance(event, yaml.CollectionStartEvent):
            if event.tag not in _COLLECTIONS:
                raise Refusal(f"the tag {tag_name(event.tag)} is not allowed (plain data only)", _where(event))
            if len(stack) + 1 > bounds.max_depth:
                raise Refusal(f"nests more than {bounds.max_depth} levels deep", _where(event))
            counted(1, event)
            container: dict[Any, Any] | list[Any] = {} if isinstance(event, yaml.MappingStartEvent) else []
            stack.append(_Open(container, event.anchor, nodes - 1))
        elif isinstance(event, yaml.CollectionEndEvent):
            done = stack.pop()
            if isinstance(done.value, dict):
                for source in done.merges:  # the mapping's own keys win, then the earlier merged mapping
                    for key, item in source.items():
                        done.value.setdefault(key, item)
            if done.anchor is not None:
                anchors[done.anchor] = (done.value, nodes - done.nodes_before, done.height)
            add(done.value, done.height, event)
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > bounds.max_aliases:
                raise Refusal(f"uses more than {bounds.max_aliases} YAML aliases", _where(event))
            if any(frame.anchor == event.anchor for frame in stack):
                raise Refusal(f"the alias *{event.anchor} refers to the collection it is in", _where(event))
            if event.anchor not in anchors:
                raise Refusal(f"the alias *{event.anchor} has no anchor before it", _where(event))
            value, size, height = anchors[event.anchor]
            counted(size, event)
            if len(stack) + height > bounds.max_depth:
                raise Refusal(f"nests more than {bounds.max_depth} levels deep (aliases expanded)", _where(event))
            add(value, height, event)
        elif isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise Refusal("holds more than one YAML document", _where(event))
    return root


def _scalar(event: Any, resolvers: dict[Any, list[tuple[str, Any]]], bounds: Bounds) -> Any:
    text: str = event.value
    tag = event.tag
    if tag is None and event.implicit[0] and text.isascii() and text.isdigit() and (text[0] != "0" or text == "0"):
        value = int(text)  # a plain decimal integer, the commonest number: no resolver needed (0755 is octal)
        if value > bounds.max_int:
            raise Refusal("the number is out of range (at most 19 digits)")
        return value
    if tag is None or tag == "!":
        tag = _YAML + "str"
        if event.implicit[0]:  # plain (unquoted): the implicit resolvers say what it is
            for candidate, pattern in resolvers.get(text[:1], ()):
                if pattern.match(text):
                    tag = candidate
                    break
    make = _SCALARS.get(tag)
    if make is None:
        raise Refusal(f"the tag {tag_name(tag)} is not allowed (plain data only)")
    try:
        value = make(text)
    except (ValueError, TypeError, KeyError, yaml.YAMLError):
        raise Refusal(f"'{text[:20]}' is not a {tag_name(tag)}") from None
    if isinstance(value, str):
        problem = bounds.is_clean(value)
        if problem is not None:
            raise Refusal(problem)
    elif isinstance(value, bool) or value is None or value is _MERGE:
        pass
    elif isinstance(value, int):
        if not -bounds.max_int <= value <= bounds.max_int:
            raise Refusal("the number is out of range (at most 19 digits)")
    elif not math.isfinite(value):
        raise Refusal(f"{text} is not a finite number")
    return value
