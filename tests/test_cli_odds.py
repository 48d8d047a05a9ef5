"""`grievous odds`: a scenario's exact distribution as JSON; bad input exits 2 with one line."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "content" / "examples"


def run(capsys: Any, monkeypatch: pytest.MonkeyPatch, text: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code = main(["odds", "-", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_prints_every_leaf_and_the_summary(capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # the example's own forced dice stay fixed except the location: 1 leaf per location band
    text = (EXAMPLES / "fading-suns-crippling-axe.yaml").read_text()
    text = text.replace("location: [3]", "location: []")
    code, out, err = run(capsys, monkeypatch, text, "--compact")
    assert code == 0, err
    data = json.loads(out)
    assert data["system"] == "fading-suns" and data["complete"] is True
    assert math.isclose(sum(leaf["p"] for leaf in data["leaves"]) + data["cut_mass"], 1.0, abs_tol=1e-9)
    assert {leaf["outcome"]["location"] for leaf in data["leaves"]} >= {"right_leg", "head"}
    assert data["summary"]["hit"] == pytest.approx(1.0)


def test_the_files_forced_dice_stay_fixed(capsys: Any) -> None:
    """The blaster example forces attack 12 (a critical), defence 9 and location 17: nothing is left to follow."""
    code = main(["odds", str(EXAMPLES / "fading-suns-dodged-blaster.yaml"), "--compact"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert data["summary"]["critical"] == 1.0
    assert len(data["leaves"]) == 1 and data["leaves"][0]["outcome"]["location"] == "right_arm"


@pytest.mark.parametrize(("text", "message"), [
    ("system: nope\n", "unknown system 'nope'"),
    ("system: pendragon\naction: {type: first_aid}\n", "odds: pendragon can give odds for attack"),
    ("system: fading-suns\ndice: {location: [3]}\n", "attacker: the sheet is missing"),
    ("system: ars-harn\ndice: {nonsense: [3]}\n", "unknown label 'nonsense'"),
    ("- just\n- a list\n", "must be a mapping"),
])
def test_bad_input_exits_2_with_one_line(capsys: Any, monkeypatch: pytest.MonkeyPatch, text: str,
                                         message: str) -> None:
    code, out, err = run(capsys, monkeypatch, text)
    assert code == 2
    assert out == ""
    assert message in err and err.count("\n") == 1


def test_a_missing_file_and_a_bad_budget_exit_2(capsys: Any) -> None:
    assert main(["odds", "/no/such/file.yaml"]) == 2
    assert main(["odds", str(EXAMPLES / "fading-suns-dodged-blaster.yaml"), "--budget", "-1"]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and "--budget" in err
