"""The JSON columns' text (bot/db/json_text.py) reads back what the json module's did, and old rows read alike.

``repr`` compares strictly: 1 is not 1.0 nor True, -0.0 is not 0.0, NaN is NaN, and a dict's order counts."""

from __future__ import annotations

import enum
import itertools
import json
import math
import struct
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text

from bot.db import json_text
from bot.db import repositories as repo
from bot.db.engine import Database
from bot.db.models import Character, Event
from content.input_guard import MAX_INT, SHEET, InputRejected, option_value, parse_document

pytest.importorskip("orjson")  # without it json_text is the json module, and these compare it with itself

NOW = datetime(2024, 1, 1, tzinfo=UTC)

# Around the edges orjson and json part at: 64 bits each way, a double's range, text that is not UTF-8.
_EDGE_INTS = st.sampled_from([0, -1, 2**53 + 1, MAX_INT, -MAX_INT, 2**63, -(2**63), 2**63 + 1, -(2**63) - 1,
                              2**64 - 1, 2**64, -(2**64), 10**30, -(10**30), MAX_INT + 6, -MAX_INT - 6])
_SCALARS = (st.none() | st.booleans() | st.integers() | _EDGE_INTS
            | st.floats(allow_nan=True, allow_infinity=True)
            | st.sampled_from([0.0, -0.0, 1e16, 1e-7, 1.7976931348623157e308, 5e-324, 0.1, 1 / 3])
            | st.text() | st.sampled_from(["\ud800", "a\udfffb", "é", "\u2028", "\x00", '"\\', "𝄞", "1" * 25]))
_KEYS = st.text(max_size=8) | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                       | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=30)


def same(a: Any, b: Any) -> bool:
    return repr(a) == repr(b)


@settings(max_examples=600, deadline=None)
@given(_VALUES)
def test_what_is_written_reads_back_as_json_wrote_and_read_it(value: Any) -> None:
    expected = json.loads(json.dumps(value))
    written = json_text.dumps(value)
    assert same(json_text.loads(written), expected)
    assert same(json.loads(written), expected)  # and the bot before this change reads it alike
    assert same(json_text.loads(json.dumps(value)), expected)  # rows the json module wrote


@given(st.text())
def test_any_text_reads_as_json_reads_it(raw: str) -> None:
    try:
        expected: Any = json.loads(raw)
    except ValueError as error:
        with pytest.raises(type(error)):
            json_text.loads(raw)
        return
    assert same(json_text.loads(raw), expected)


@pytest.mark.parametrize("raw", [
    "123456789012345678901234567890", "-9223372036854775809", "[18446744073709551616, -1e400, 1e400]",
    '{"a": NaN, "b": Infinity, "c": -Infinity}', '"\\ud800"', '{"a": 1, "b": 2, "a": 3}', "-0", "-0.0",
    '{"id": 1234567890123456789}', "0.10000000000000000555", " [1 , 2] ",
])
def test_awkward_old_rows_read_as_json_reads_them(raw: str) -> None:
    assert same(json_text.loads(raw), json.loads(raw))


class _Colour(enum.Enum):
    RED = 1


def test_values_json_refuses_are_refused_alike() -> None:
    """orjson writes an enum member and a UUID, and refuses the rest: json's error, as before, for each."""
    for value in ({"when": NOW}, {"set": {1, 2}}, {"bytes": b"x"}, {(1, 2): 3}, {"colour": _Colour.RED},
                  {"id": uuid.UUID(int=7)}, [_Colour.RED, None]):
        with pytest.raises(TypeError):
            json.dumps(value)
        with pytest.raises(TypeError):
            json_text.dumps(value)
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        json_text.dumps(loop)


def test_nan_and_the_infinities_are_written_by_json_wherever_they_are() -> None:
    """orjson writes them as null, which reads back as None; json's NaN and Infinity are kept."""
    nan = math.nan
    quiet_payload = struct.unpack("<d", bytes.fromhex("0100000000 00f87f".replace(" ", "")))[0]
    for value in ({"a": [nan, None]}, {"b": math.inf}, [-math.inf], [nan, nan, {"again": nan}], [-nan],
                  {"deep": [[[{"x": quiet_payload}]]]}, [1.5, 2**40, -1, -(2**31), "g" * 7, nan]):
        assert json_text.dumps(value) == json.dumps(value)
    finite = [1.5, -1.0, 5e-324, 1.7976931348623157e308]
    assert json_text.dumps(finite) == "[1.5,-1.0,5e-324,1.7976931348623157e+308]"  # orjson's text


# -- through the databases -------------------------------------------------------------------------

AWKWARD: list[Any] = [
    {"name": "Åse \u2028 \"q\" \\ 𝄞", "wounds": [], "none": None, "flag": True, "zero": -0.0, "third": 1 / 3},
    {"ints": [MAX_INT, -MAX_INT, 2**63, -(2**63), 2**64 - 1, 2**64, -MAX_INT - 6, 10**30, -(10**30)]},
    {"keys": {7: "seven", 2.5: "x", True: "t", None: "n"}, "tuple": (1, (2, 3)), "nested": [[[{"a": []}]]]},
    {"small": 5e-324, "large": 1.7976931348623157e308, "e": 1e16, "tenth": 0.1},
]


@pytest.fixture
async def old_db(db_url: str, db: Any) -> AsyncIterator[Any]:
    """The same database, through the json module as before bot/db/json_text.py."""
    database = Database.from_url(db_url, json_serializer=json.dumps, json_deserializer=json.loads)
    yield database
    await database.dispose()


_NAMES = itertools.count(1)


async def _store(db: Any, sheet: Any, payload: Any) -> tuple[int, int]:
    name = f"Aldo {next(_NAMES)}"
    async with db.transaction() as session:
        character = Character(guild_id=1, name=name, name_key=repo.name_key(name), owner_id=5, npc=False,
                              system="fake", sheet=sheet, created_at=NOW, updated_at=NOW)
        event = Event(guild_id=1, channel_id=2, user_id=5, user_name="u", kind="roll", payload=payload,
                      before=payload, created_at=NOW)
        session.add_all([character, event])
        await session.flush()
        return character.id, event.id


async def _read(db: Any, character_id: int, event_id: int) -> tuple[Any, Any, Any]:
    async with db.sessions() as session:
        character = (await session.execute(select(Character).where(Character.id == character_id))).scalar_one()
        event = (await session.execute(select(Event).where(Event.id == event_id))).scalar_one()
        return character.sheet, event.payload, event.before


async def _stored_text(db: Any, character_id: int) -> Any:
    async with db.engine.connect() as connection:
        return (await connection.execute(text("SELECT sheet FROM characters WHERE id = :i"),
                                         {"i": character_id})).scalar_one()


@pytest.mark.parametrize("value", AWKWARD, ids=["text", "ints", "keys-tuples", "floats"])
async def test_awkward_values_read_back_as_through_json(db: Any, old_db: Any, value: Any) -> None:
    """Either writer, either reader: what comes back is what json wrote and read (PostgreSQL's jsonb
    orders keys and writes numbers its own way, 1e16 as 10000000000000000, the same for both)."""
    before = await _read(old_db, *await _store(old_db, value, {"outcome": value}))
    assert same(before[0], json.loads(json.dumps(value))) or db.dialect == "postgresql"
    for writer in (db, old_db):
        ids = await _store(writer, value, {"outcome": value})
        for reader in (db, old_db):
            assert same(await _read(reader, *ids), before)


async def test_rows_the_json_module_wrote_read_back_the_same(db: Any, old_db: Any) -> None:
    old = {"name": "Åse", "big": -MAX_INT - 6, "huge": 10**30, "keys": {1: None}, "f": 0.1, "t": (1, 2)}
    ids = await _store(old_db, old, old)
    assert same(await _read(db, *ids), await _read(old_db, *ids))


async def test_nan_is_stored_on_sqlite_as_json_stored_it(db: Any, old_db: Any) -> None:
    if db.dialect != "sqlite":
        pytest.skip("PostgreSQL refuses NaN in jsonb, with either writer")
    value = {"load": math.nan, "cap": -math.inf, "none": None}
    new_ids, old_ids = await _store(db, value, {}), await _store(old_db, value, {})
    assert await _stored_text(db, new_ids[0]) == await _stored_text(db, old_ids[0]) == json.dumps(value)
    sheet, _, _ = await _read(db, *new_ids)
    assert math.isnan(sheet["load"]) and sheet["cap"] == -math.inf


def test_a_number_a_user_types_past_64_bits_is_refused() -> None:
    """The input guard stops every typed integer at 19 digits (content/input_guard.py), which orjson writes."""
    with pytest.raises(InputRejected):
        option_value(str(MAX_INT + 1), "value")
    with pytest.raises(InputRejected):
        option_value(str(-MAX_INT - 1), "value")
    with pytest.raises(InputRejected):
        parse_document(json.dumps({"skill": 2**63}), "sheet.json", SHEET)
    assert option_value(str(-MAX_INT), "value") == -MAX_INT
    typed = parse_document(json.dumps({"skill": -MAX_INT}), "sheet.json", SHEET)
    assert json_text.dumps(typed) == '{"skill":-9223372036854775807}'


async def test_a_typed_number_taken_past_64_bits_by_a_roll_is_stored_as_before(db: Any, old_db: Any) -> None:
    """A typed -MAX_INT less a modifier is past orjson's range: json writes it, and it reads back whole."""
    total = -MAX_INT - 6
    assert json_text.dumps({"total": total}) == json.dumps({"total": total})
    new_ids, old_ids = await _store(db, {"total": total}, {}), await _store(old_db, {"total": total}, {})
    assert await _stored_text(db, new_ids[0]) == await _stored_text(db, old_ids[0])
    sheet, _, _ = await _read(db, *new_ids)
    assert sheet == {"total": total} and type(sheet["total"]) is int
