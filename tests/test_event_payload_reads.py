"""No module of the bot reads a stored event's payload, an event's summary, a roll or an action's resolution by
string keys: every event kind has a typed record (bot/services/event_records.py, event_kinds.py) that declares its
keys, a roll is a ``StoredRoll`` and an action's result an ``ActionEvent``, and the code reads their fields (issue
38). The two modules that declare the records are the only ones that may (their tolerant ``from_dict``)."""

from __future__ import annotations

import re
from pathlib import Path

BOT = Path(__file__).parents[1] / "bot"
DECLARE = {"services/event_records.py", "services/event_kinds.py"}
# mappings that are not a stored event's, though their names say payload or summary
NOT_EVENTS = {
    "ui/odds_embeds.py": "an odds distribution's summary",
    "systems/odds_rows.py": "an odds distribution's summary",
    "system_commands.py": "the command payloads sent to Discord",
}

_NAMES = r"(payload|summary|rolls?|resolution)"
KEY_READ = re.compile(rf"\b{_NAMES}(\[\w+\])?\s*(\[\s*[\"']|\.get\(\s*[\"'])")
KEY_TEST = re.compile(rf"[\"'][a-z_]+[\"']\s+(not\s+)?in\s+\(?[\w.]*\b{_NAMES}\b")


def key_reads(text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` that read a payload, a summary, a roll or a resolution by a string key."""
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
            if KEY_READ.search(line) or KEY_TEST.search(line)]


def test_no_module_reads_a_payload_summary_or_roll_by_its_keys() -> None:
    found = []
    for path in sorted(BOT.rglob("*.py")):
        name = path.relative_to(BOT).as_posix()
        if name in DECLARE or name in NOT_EVENTS:
            continue
        found += [f"bot/{name}:{number}: {line}" for number, line in key_reads(path.read_text(encoding="utf-8"))]
    assert not found, "read the typed record (or StoredRoll) instead:\n" + "\n".join(found)


PLANTED = [
    'name = event.summary["target"]',
    "who = payload.get('actor')",
    'shown[roll["label"]] = len(roll.get("faces"))',
    'first = rolls[0]["label"]',
    'outcome = report.resolution["outcome"]',
    'if "label" in roll:',
    'if "secret" not in event.summary:',
]


def test_a_planted_read_of_each_kind_is_found() -> None:
    for line in PLANTED:
        assert key_reads(f"def f():\n    {line}\n") == [(2, line)], line
    # a field of a typed record is no key read
    assert key_reads("label = roll.label\nfaces = [r.faces for r in event.rolls]\nwho = summary.condition\n") == []


def test_the_modules_left_out_still_exist() -> None:
    for name in (*DECLARE, *NOT_EVENTS):
        assert (BOT / name).exists(), name
