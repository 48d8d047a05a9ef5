"""What a fight sends Discord, byte for byte: every request body the emulator received, held against a recording.

A cut on the REST side (issue 23: building a payload once, leaving discord.py work undone) must change nothing a
user sees or Discord stores. So every body of an evening's commands in each system (attacks that hit, with their
picture, and miss; a GM's buttons and a press) is recorded here as the emulator read it: the JSON text exactly (key
order, escapes), each file's name, type and bytes (as a digest), in the order sent. Ids (snowflakes) are numbered
in order of appearance, since the emulator makes new ones each run. The dice are typed or seeded, so the run is
the same each time.

When a change is meant to change what is sent, write the recording again and read its diff:
``GRIEVOUS_WRITE_PAYLOADS=1 pytest tests/e2e/test_e2e_payloads.py``."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from emulator import httpio, rest, webhooks

GOLDEN = Path(__file__).parent / "golden"
SNOWFLAKE = re.compile(r"(?<![0-9])[0-9]{17,20}(?![0-9])")


class Recorder:
    """Every request body the emulator parses: its route, its JSON text and its files, ids numbered."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self._texts: list[str] = []
        self._ids: dict[str, str] = {}

    def loads(self, raw: str | bytes) -> Any:
        self._texts.append(raw.decode() if isinstance(raw, bytes) else raw)
        return json.loads(raw)

    async def read_body(self, request: Any) -> httpio.Body:
        self._texts = []
        body = await ORIGINAL_READ_BODY(request)
        route = request.match_info.route
        template = route.resource.canonical if route.resource is not None else request.path
        files = [{"index": u.index, "filename": u.filename, "content_type": u.content_type,
                  "sha256": hashlib.sha256(u.data).hexdigest(), "bytes": len(u.data)}
                 for u in sorted(body.uploads.values(), key=lambda u: u.index)]
        self.bodies.append({"request": f"{request.method} {template.removeprefix('/api/{version}')}",
                            "json": [self._numbered(text) for text in self._texts], "files": files})
        return body

    def _numbered(self, text: str) -> str:
        return SNOWFLAKE.sub(lambda m: self._ids.setdefault(m.group(), f"<id{len(self._ids) + 1}>"), text)


ORIGINAL_READ_BODY = httpio.read_body


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recording = Recorder()

    class Json:
        loads = staticmethod(recording.loads)
        dumps = staticmethod(json.dumps)

    monkeypatch.setattr(httpio, "json", Json)
    monkeypatch.setattr(rest, "read_body", recording.read_body)
    monkeypatch.setattr(webhooks, "read_body", recording.read_body)
    return recording


async def step(table: Any, command: str, options: dict[str, Any], **kw: Any) -> Any:
    await table.idle()
    message = await table.run(command, options, **kw)
    await table.idle()
    return message


async def press(table: Any, message: Any, suffix: str) -> None:
    await table.idle()
    [button] = [b for b in table.buttons(message) if b.endswith(suffix)]
    handle = await table.emu.click(message, button, user=table.gm)
    await handle.followups()
    await table.idle()


async def ars_harn(table: Any, recorder: Recorder) -> None:
    await table.bjorn_against_bandits(settings={"setup rolls": {"mode": "gm"}})
    await table.idle()
    recorder.bodies.clear()
    blow = {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "high"}
    await step(table, "attack", {**blow, "dice": "attack=2 defense=9"}, user=table.alice)
    hit = await step(table, "attack", {**blow, "dice": "attack=9 defense=3 location=12"}, user=table.alice)
    await press(table, hit, ":roll")  # the GM rolls the shock
    await step(table, "attack", {**blow, "dice": "attack=9 defense=3 location=40"}, user=table.alice)


async def pendragon(table: Any, recorder: Recorder) -> None:
    await table.setup("pendragon")
    await table.run("character create", {"name": "Sir Kay", "stats": "siz=13 dex=11 str=12 con=12 app=10 "
                                         "skills.sword=14", "weapons": "sword", "armour": "chainmail"},
                    user=table.bob)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Sir Kay"}, user=table.bob)
    await table.run("encounter npcs", {"template": "saxon_warrior", "name_prefix": "Cerdic"})
    await table.idle()
    recorder.bodies.clear()
    await step(table, "attack", {"target": "Cerdic 1", "dice": "attacker=19 defender=18"}, user=table.bob)
    await step(table, "attack", {"target": "Cerdic 1", "weapon": "sword",
                                 "dice": "attacker=12 defender=19 damage=4,4,4,4,4 "
                                         "defender_knockdown=5 defender_major_wound=3"},
               user=table.bob)


async def fading_suns(table: Any, recorder: Recorder) -> None:
    await table.setup("fading-suns")
    await table.run("character create", {"name": "Erian", "stats": "dex=6 end=5 skills.melee=5 skills.dodge=4",
                                         "weapons": "broadsword", "armour": "leather jerkin"}, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Erian"}, user=table.alice)
    await table.run("encounter npcs", {"template": "thug"})
    await table.idle()
    recorder.bodies.clear()
    await step(table, "attack", {"target": "Thug 1", "weapon": "broadsword", "dice": "attack=18"}, user=table.alice)
    await step(table, "attack", {"target": "Thug 1", "weapon": "broadsword",
                                 "dice": "attack=9 defense=15 location=3 defender_effect=4"}, user=table.alice)


FIGHTS = {"ars-harn": ars_harn, "pendragon": pendragon, "fading-suns": fading_suns}


@pytest.mark.parametrize("system", list(FIGHTS))
async def test_a_fight_sends_what_it_sent(table: Any, recorder: Recorder, system: str) -> None:
    await FIGHTS[system](table, recorder)
    sent = recorder.bodies
    assert any(body["files"] for body in sent), json.dumps(sent)  # a hit's picture: multipart
    path = GOLDEN / f"payloads-{system}.json"
    if os.environ.get("GRIEVOUS_WRITE_PAYLOADS"):
        path.write_text(json.dumps(sent, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    recorded = json.loads(path.read_text(encoding="utf-8"))
    assert len(sent) == len(recorded), [b["request"] for b in sent]
    for number, (now, then) in enumerate(zip(sent, recorded, strict=True)):
        assert now == then, f"request {number}, {now['request']}"
