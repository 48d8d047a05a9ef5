"""Property tests for the entry points of user text: whatever arrives, the answer is a result or one
clear line (exit 2 on the command line), within a second of CPU time, and a refusal changes nothing.

The examples are derandomized (the same every run) so CI stays within its budget; hypothesis prints
the failing example. Times are CPU time of this process, not wall time: the suite may share a machine.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.errors import UserError
from content.input_guard import SCENARIO, SHEET, InputRejected, parse_document
from rules.errors import RulesError
from tests.conftest import GM_ROLE

# Characters that matter to the parsers: structure, quotes, escapes, digits, anchors, tags, controls.
SPICE = "[]{}:,-?&*!|>'\"\\#%@`\n\t 0123456789.eE+_~x"
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                   st.text(st.characters(blacklist_categories=()), max_size=12))
PLAIN = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                     max_leaves=12)


def _nested(depth: int, opener: str, closer: str, prefix: str) -> str:
    return prefix + opener * depth + closer * depth


HOSTILE = st.one_of(
    st.builds(_nested, st.integers(0, 40_000), st.sampled_from(["[", "{a: ", '{"a": ', "- "]),
              st.sampled_from(["]", "}", ""]), st.sampled_from(["system: ars-harn\nx: ", "name: X\ns: ", ""])),
    st.builds(lambda n, sep: "seed: " + sep.join(["9"] * n), st.integers(1, 6000), st.sampled_from(["", "_"])),
    st.builds(lambda n: "a: &a [1]\n" + "".join(f"b{i}: [*a, *a]\n" for i in range(n)), st.integers(0, 120)),
)
DOCUMENT = st.one_of(
    st.text(st.sampled_from(SPICE), max_size=300),
    st.text(st.characters(blacklist_categories=()), max_size=200),  # controls and lone surrogates included
    PLAIN.map(lambda value: json.dumps(value, allow_nan=True)),
    st.builds(lambda system, rest: json.dumps({"system": system, **rest}),
              st.sampled_from(["ars-harn", "pendragon", "fading-suns", "nope"]),
              st.dictionaries(st.sampled_from(["seed", "dice", "attacker", "defender", "action", "x"]), PLAIN,
                              max_size=4)),
    HOSTILE,
)
FAST = settings(max_examples=120, derandomize=True, deadline=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])


def timed(call: Callable[[], Any]) -> Any:
    started = time.process_time()
    result = call()
    assert time.process_time() - started < 1.0, "over a second of CPU"
    return result


def one_line(message: str) -> None:
    assert message and "\n" not in message and "Traceback" not in message, message


@FAST
@given(text=DOCUMENT)
def test_the_guard_returns_plain_data_or_one_line(text: str) -> None:
    def parse() -> Any:
        try:
            return parse_document(text.encode("utf-8", "surrogatepass"), "x.yaml", SCENARIO)
        except InputRejected as exc:
            one_line(str(exc))
            return exc

    result = timed(parse)
    if not isinstance(result, InputRejected):
        json.dumps(result, allow_nan=False)  # plain, finite, no surrogates: storable as JSON


@FAST
@given(text=DOCUMENT)
def test_resolve_answers_json_or_one_line_exit_2(text: str, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass"))))
    code = timed(lambda: main(["resolve", "-", "--compact"]))
    out, err = capsys.readouterr()
    if code == 0:
        assert err == "" and isinstance(json.loads(out), dict)
    else:
        assert (code, out) == (2, "") and err.startswith("grievous: ") and err.count("\n") == 1, err


EXPRESSION = st.one_of(
    st.text(st.sampled_from("0123456789dD+-vs stresimplfgoaptch"), max_size=40),
    st.text(st.characters(blacklist_categories=()), max_size=150),
    st.builds(lambda n: "9" * n, st.integers(1, 6000)),
)


@settings(FAST, max_examples=150)
@given(expression=EXPRESSION, dice=st.one_of(st.none(), st.text(st.sampled_from("0123456789, =rol"), max_size=30)))
def test_roll_answers_a_roll_or_one_line_exit_2(expression: str, dice: str | None,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["roll", expression, "--seed", "1"] + (["--dice", dice] if dice is not None else [])
    code = timed(lambda: main(argv))
    out, err = capsys.readouterr()
    if code == 0:
        assert err == "" and out.count("\n") == 1
    else:
        assert (code, out) == (2, "") and err.startswith("grievous") and err.count("\n") == 1, err


# -- the services, on SQLite: a refusal leaves every table as it was --------------------------------


@pytest.fixture
def backend() -> str:
    return "sqlite"


async def snapshot(services: Any) -> dict[str, Any]:
    from sqlalchemy import text

    out = {}
    async with services.db.sessions() as session:
        for table in ("characters", "events", "guild_settings", "content_packs"):
            rows = (await session.execute(text(f"SELECT * FROM {table} ORDER BY 1"))).all()
            out[table] = [tuple(map(str, row)) for row in rows]
    return out


async def answered(services: Any, call: Callable[[], Any]) -> None:
    """``call()`` gives a result, or one line and no change; within a second of CPU."""
    before = await snapshot(services)
    started = time.process_time()
    try:
        await call()
    except (UserError, RulesError) as exc:
        one_line(str(exc))
        assert await snapshot(services) == before
    assert time.process_time() - started < 1.0


SHEETS = st.one_of(
    DOCUMENT,
    st.builds(lambda name, stats: json.dumps({"name": name, **stats}),
              st.text(st.characters(blacklist_categories=()), min_size=1, max_size=30),
              st.dictionaries(st.sampled_from(["str", "dex", "abilities", "weapons", "notes"]), PLAIN, max_size=4)),
)


@settings(FAST, max_examples=40)
@given(text=SHEETS, filename=st.sampled_from(["sheet.yaml", "sheet.json", "sheet.txt"]))
async def test_sheet_import_answers_or_refuses_without_a_change(services: Any, manager: Any, alice: Any,
                                                                text: str, filename: str) -> None:
    await services.setup.set_system(manager, "fake")
    data = text.encode("utf-8", "surrogatepass")[: SHEET.max_bytes + 10]
    await answered(services, lambda: services.characters.import_sheet(alice, filename, data))


@settings(FAST, max_examples=40)
@given(expression=EXPRESSION, dice=st.one_of(st.none(), st.text(st.characters(blacklist_categories=()), max_size=60)),
       stat=st.sampled_from(["str", "abilities.Sword", "x" * 101, "a\x00b"]))
async def test_rolls_and_stat_edits_answer_or_refuse_without_a_change(services: Any, manager: Any, alice: Any,
                                                                      expression: str, dice: str | None,
                                                                      stat: str) -> None:
    await services.setup.set_system(manager, "fake")
    if not await services.characters.names(alice, "Aldo"):
        await services.characters.create(alice, "Aldo", {})
    await answered(services, lambda: services.records.roll(alice, expression, dice))
    await answered(services, lambda: services.characters.edit_stat(alice, "Aldo", stat, expression))


PACK_TEXT = st.one_of(
    DOCUMENT,
    st.builds(lambda entries: "weapons:\n" + "".join(f"  W{i}: {json.dumps(e)}\n" for i, e in enumerate(entries)),
              st.lists(st.dictionaries(st.sampled_from(["skill", "weight", "hm_attack", "hm_defence", "blunt",
                                                        "edge", "point"]), SCALAR, max_size=7), max_size=4)),
)


@settings(FAST, max_examples=15)
@given(text=PACK_TEXT)
async def test_pack_upload_answers_or_refuses_without_a_change(services: Any, manager: Any, gm: Any,
                                                               text: str) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    data = text.encode("utf-8", "surrogatepass")
    await answered(services, lambda: services.packs.upload(gm, "weapons.yaml", data))
