"""The text of the JSON columns (sheets, events' payloads and undo records, ...): written and read with
orjson, which is several times faster than the standard library's json, wherever the two agree; where
they do not, the json module does it, so what is stored and what is read back are what they always were.

Writing (``dumps``). orjson refuses, and json writes as before: keys that are not text, integers beyond
64 bits, text with lone surrogates, subclasses of str, int, float, dict and list (passed through to no
``default``), dataclasses and datetimes. orjson writes NaN and the infinities as null where json writes
NaN and Infinity, and writes enum members and UUIDs that json refuses: so orjson's text is kept only for
a value marshal writes whole (builtin types alone, no enum or UUID) with no NaN or infinite double among
its bytes; anything else goes to json, which writes it or refuses it as before. (Reading the text back to
compare allocated a copy of every value and cost more than json.dumps in the bot.)

Reading (``loads``). orjson reads an integer beyond 64 bits as a float, so text with a run of 20 digits,
or 19 after a minus, is read by json; orjson refuses NaN, Infinity, numbers past a double's range and
lone surrogates, which json reads. orjson's text differs from json's (no spaces, UTF-8 rather than
``\\u`` escapes): nothing compares the stored text, and both read both. In an environment set up before
orjson was a dependency, both are the json module's."""

from __future__ import annotations

import json
import marshal
import re
from typing import Any

try:
    import orjson  # type: ignore[import-not-found, unused-ignore]
except ModuleNotFoundError:  # an environment installed before orjson was a dependency: the json module alone
    HAS_ORJSON = False
else:
    HAS_ORJSON = True

# Subclasses (not enums: orjson writes those itself), dataclasses and datetimes to the missing default, that is to json.
_PASS_THROUGH = (orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
                 | orjson.OPT_PASSTHROUGH_DATETIME) if HAS_ORJSON else 0

# Digits to "0", a minus to "-", anything else to ".": a number too large for orjson shows as a run.
_NUMBER_SHAPE = bytes(0x30 if 0x30 <= b <= 0x39 else 0x2D if b == 0x2D else 0x2E for b in range(256))
_PAST_U64 = b"0" * 20  # 2**64 has 20 digits; every integer past it has more
_PAST_I64 = b"-" + b"0" * 19  # -2**63 has 19


# A double with every exponent bit set (NaN, ±Infinity) as marshal writes it: "g" (0xE7 with its reference
# flag), then eight bytes little-endian, the last two 0xF0-0xFF and 0x7F or 0xFF. A value's first copy of any
# float object is written whole; a match elsewhere (in an int's bytes) only sends the value to json.
_NON_FINITE_DOUBLE = re.compile(rb"[g\xe7].{6}[\xf0-\xff][\x7f\xff]", re.DOTALL)


def _plain_and_finite(value: Any) -> bool:
    """Builtin types alone (marshal refuses an enum, a UUID, a subclass) and no NaN or infinite float."""
    try:
        return _NON_FINITE_DOUBLE.search(marshal.dumps(value)) is None
    except ValueError:
        return False


def dumps(value: Any) -> str:
    if not HAS_ORJSON:
        return json.dumps(value)
    try:
        text: bytes = orjson.dumps(value, option=_PASS_THROUGH)
    except orjson.JSONEncodeError:
        return json.dumps(value)
    if not _plain_and_finite(value):
        return json.dumps(value)
    return text.decode()


def loads(text: str | bytes) -> Any:
    if not HAS_ORJSON:
        return json.loads(text)
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    shape = data.translate(_NUMBER_SHAPE)
    if _PAST_U64 in shape or _PAST_I64 in shape:
        return json.loads(text)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(text)
