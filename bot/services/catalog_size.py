"""How many bytes a built catalog holds: a walk of its objects (sys.getsizeof of each, shared ones once).

Run in the build's worker thread, after the build. It counts what the objects themselves hold, not the
allocator's overhead: a test checks it against tracemalloc's figure for the same catalog
(tests/services/test_pack_cache.py), and docs/scaling.md gives both.
"""

from __future__ import annotations

import sys
import types
from typing import Any

_ATOMS = (str, bytes, int, float, bool, type(None), complex)
_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def deep_size(root: Any) -> int:
    seen: set[int] = set()
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _SKIP):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, _ATOMS):
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        else:
            stack.extend(_attributes(obj))
    return total


def _attributes(obj: Any) -> list[Any]:
    """What an object holds: its ``__dict__``, and the value of each slot of its classes that is set."""
    held = []
    attributes = getattr(obj, "__dict__", None)
    if attributes is not None:
        held.append(attributes)
    for cls in type(obj).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if hasattr(obj, slot):
                held.append(getattr(obj, slot))
    return held
