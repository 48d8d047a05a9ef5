"""Issue 11's hostile inputs on the command line: each is one line on stderr and exit 2, within a second."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main

HOSTILE = {
    "deep.yaml": "system: ars-harn\nx: " + "[" * 5000 + "]" * 5000 + "\n",  # 10 KB, 5,000 deep
    "deep.json": '{"system": "ars-harn", "x": ' + "[" * 20000 + "]" * 20000 + "}",  # 40 KB, 20,000 deep
    "deep-json-as.yaml": '{"system": "ars-harn", "x": ' + "[" * 20000 + "]" * 20000 + "}",
    "block.yaml": "".join(" " * i + f"k{i}:\n" for i in range(3000)),
    "seed.yaml": "system: ars-harn\nseed: " + "9" * 5000 + "\n",  # 5,000-digit integer
    "surrogate.yaml": 'system: ars-harn\ndescription: "G\\ud800"\n',
    "surrogate.json": '{"system": "ars-harn", "description": "G\\ud800"}',
    "control.yaml": "system: ars-harn\ndescription: a\x01b\n",
    "huge.yaml": "system: ars-harn\ndescription: '" + "x" * 300_000 + "'\n",
    "inf.yaml": "system: ars-harn\nseed: .inf\n",
}


def one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    started = time.process_time()  # CPU time: the machine running the suite may be shared
    code = main(argv)
    elapsed = time.process_time() - started
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.startswith("grievous") and err.endswith("\n") and err.count("\n") == 1, err
    assert elapsed < 1.0, f"{argv}: {elapsed:.2f} s"
    return err.strip()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_resolve_refuses_hostile_files_with_one_line(tmp_path: Path, capsys: Any, name: str) -> None:
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8", errors="surrogatepass")
    line = one_line_exit_2(capsys, ["resolve", str(path)])
    assert line.startswith(f"grievous: {path}: ")


def test_each_refusal_says_what_is_wrong(tmp_path: Path, capsys: Any) -> None:
    expected = {
        "deep.yaml": "line 2, column 1003: nests more than 32 levels deep",
        "deep.json": "nests more than 32 levels deep",
        "seed.yaml": "line 2, column 7: a number of more than 100 digits",
        "surrogate.json": "field 'description' holds a lone surrogate (U+D800); remove it",
        "control.yaml": "line 2, column 15: holds a control character (U+0001); remove it",
        "huge.yaml": "is 300033 bytes, over the 256 KiB limit",
        "inf.yaml": "line 2, column 7: field 'seed': .inf is not a finite number",
    }
    for name, why in expected.items():
        path = tmp_path / name
        path.write_text(HOSTILE[name], encoding="utf-8")
        assert one_line_exit_2(capsys, ["resolve", str(path)]) == f"grievous: {path}: {why}"


@pytest.mark.parametrize(("dice", "shown"), [("{kill: true}", "true"), ("{kill: [3, false]}", "false"),
                                             ("{shock: '7'}", '"7"'), ("{shock: [1.5]}", "1.5")])
def test_resolve_reads_no_die_face_from_a_boolean_or_text(tmp_path: Path, capsys: Any, dice: str,
                                                          shown: str) -> None:
    """Issue 24: ``kill: true`` was read as a die face of 1."""
    path = tmp_path / "faces.yaml"
    path.write_text(f"system: ars-harn\ndice: {dice}\naction: {{type: attack}}\n", encoding="utf-8")
    label = "kill" if "kill" in dice else "shock"
    assert one_line_exit_2(capsys, ["resolve", str(path)]) == (
        f"grievous: {path}: field 'dice': '{label}': a die face is a whole number (or a list of them), not {shown}")


def test_roll_refuses_hostile_text_with_one_line(capsys: Any) -> None:
    assert one_line_exit_2(capsys, ["roll", "9" * 5000]) == "grievous: roll: at most 100 characters"
    assert one_line_exit_2(capsys, ["roll", "d6\x01"]) == (
        "grievous: roll: holds a control character (U+0001); remove it")
    assert one_line_exit_2(capsys, ["roll", "d6\udcff"]) == "grievous: roll: holds a lone surrogate (U+DCFF); remove it"
    assert one_line_exit_2(capsys, ["roll", "d6", "--dice", "9" * 5000]) == "grievous: --dice: at most 200 characters"
    assert one_line_exit_2(capsys, ["roll", "d6", "--seed", "9" * 5000]).startswith(
        "grievous roll: argument --seed: --seed: '99999999999999999999\u2026' is too large a number")


def test_content_check_refuses_a_hostile_pack_with_one_line(tmp_path: Path, capsys: Any) -> None:
    pack = tmp_path / "ars_harn"
    pack.mkdir()
    (pack / "weapons.yaml").write_text("weapons:\n  axe: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n")
    assert one_line_exit_2(capsys, ["content", "check", str(pack)]) == (
        f"grievous: {pack / 'weapons.yaml'}: line 2, column 128: nests more than 32 levels deep")


@pytest.mark.parametrize(("url", "why"), [
    ("nonsense", "DATABASE_URL is not usable: Could not parse SQLAlchemy URL from given URL string"),
    ("sqlite+aiosqlite:////no/such/dir/grievous.db",
     "database sqlite+aiosqlite:////no/such/dir/grievous.db is not usable: there is no folder /no/such/dir"),
    ("sqlite+aiosqlite:////etc/passwd",
     "database sqlite+aiosqlite:////etc/passwd is not usable: file is not a database"),
    ("postgresql+asyncpg://grievous:secret@127.0.0.1:9/grievous",
     "database postgresql+asyncpg://grievous:***@127.0.0.1:9/grievous is not usable: "),
])
@pytest.mark.parametrize("command", ["db upgrade", "run"])
def test_a_bad_or_unreachable_database_is_one_line(capsys: Any, monkeypatch: pytest.MonkeyPatch, url: str,
                                                   why: str, command: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_URL", url)
    code = main(command.split())
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.startswith(f"grievous: {why}") and err.count("\n") == 1, err
    assert "secret" not in err


def test_a_file_far_over_the_limit_is_not_read(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"#" * 3_000_000)
    line = one_line_exit_2(capsys, ["resolve", str(path)])
    assert line == f"grievous: {path}: is 3000000 bytes, over the 256 KiB limit"
