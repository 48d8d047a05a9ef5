"""No module of the bot reads a stored event's payload (or an event view's summary) by its string keys: every
kind has a typed record (bot/services/event_records.py, event_kinds.py) that declares its keys, and the code reads
the record's fields (issue 38). The two modules that declare the records are the only ones that may."""

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

KEY_READ = re.compile(r"\b(payload|summary)\s*(\[\s*[\"']|\.get\(\s*[\"'])")
KEY_TEST = re.compile(r"[\"'][a-z_]+[\"']\s+(not\s+)?in\s+\(?[\w.]*\b(payload|summary)\b")


def test_no_module_reads_an_event_payload_by_its_keys() -> None:
    found = []
    for path in sorted(BOT.rglob("*.py")):
        name = path.relative_to(BOT).as_posix()
        if name in DECLARE or name in NOT_EVENTS:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if KEY_READ.search(line) or KEY_TEST.search(line):
                found.append(f"bot/{name}:{number}: {line.strip()}")
    assert not found, "read the event's typed record instead:\n" + "\n".join(found)


def test_the_modules_left_out_still_exist() -> None:
    for name in (*DECLARE, *NOT_EVENTS):
        assert (BOT / name).exists(), name
