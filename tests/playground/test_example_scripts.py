"""Issue 22, Done when: every example playground script, replayed, has no internal name and no secret NPC total in
a public message, and no line said twice. One test per script (content/examples/playground-*.txt).

Internal names are the shipped packs' own ids that differ from what the pack shows players
(tests/playground/script_reading.py ``internal_names``: ``great_axe``, ``upper_arm``, ``saxon_warrior``, ``vorox``),
an engine's dotted label (``healing.botch``) and a dice source's label (``d20 pendragon``). A secret NPC total is a
number the GM's copy of an event holds and a player's may not (the engine's ``hiding_target`` takes it off a
player's action on the NPC; every total of an NPC's own action), read in the shapes a total is written in
("12 vs 13", "soak 5", "armour 4", "−11 hit points", "takes 18 damage"), and an NPC's initiative."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from rules.registry import read_outcome
from tests.bot.playground_replay import Replays, examples
from tests.playground.script_reading import PACKS, internal_names

SCRIPTS = sorted(path.name for path in examples().glob("playground-*.txt"))
INTERNAL = internal_names()
_NAMED = {name: re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])") for name in INTERNAL}
DOTTED = re.compile(r"\b[a-z]{3,}\.[a-z_]{3,}\b")  # healing.botch (a file name is no label)
FILE_ENDINGS = (".png", ".yaml", ".yml", ".txt", ".json")
_SYSTEMS = "|".join(pack.replace("_", " ") for pack in PACKS)
DICE_SOURCE = re.compile(rf"\bd\d+ (?:{_SYSTEMS})\b")

def internal_in(text: str) -> list[str]:
    found = [name for name, pattern in _NAMED.items() if pattern.search(text)]
    found += [label for label in DOTTED.findall(text) if not label.endswith(FILE_ENDINGS)]
    return found + DICE_SOURCE.findall(text)


def repeated(text: str) -> list[str]:
    lines = Counter(line.strip() for line in text.splitlines() if len(line.strip()) > 3)
    return [line for line, count in lines.items() if count > 1]


def _flat(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from _flat(value, (*path, str(key)))
    elif isinstance(node, list | tuple):
        for index, value in enumerate(node):
            yield from _flat(value, (*path, str(index)))
    else:
        yield path, node


def secret_numbers(payload: Mapping[str, Any]) -> tuple[set[int], set[int]]:
    """The numbers of one stored action a player may not read: the totals of the NPC's rolls, and what its sheet
    took off (soak, armour, hit points). Every total of an NPC's own action under secret rolls; of a player's
    action on such an NPC, what the engine hides from the actor's side (a total the actor reads anyway, its own,
    tells nothing: "4 vs 5" is Erian's own 4)."""
    system, outcome = str(payload.get("system") or ""), payload.get("outcome") or {}
    rolls = [r for r in payload.get("rolls") or [] if isinstance(r, Mapping) and isinstance(r.get("total"), int)]
    if payload.get("secret"):
        totals = {v for path, v in _flat(outcome) if isinstance(v, int) and not isinstance(v, bool)
                  and path and "total" in path[-1]}
        return totals | {int(r["total"]) for r in rolls}, set()
    record = read_outcome(system, outcome)
    shown = dict(_flat(record.hiding_target().to_dict()))
    taken = {v for path, v in _flat(record.to_dict())
             if isinstance(v, int) and not isinstance(v, bool) and shown.get(path) != v}
    labels = record.target_roll_labels
    theirs = {int(r["total"]) for r in rolls if str(r.get("label", "")).split(".")[0] in labels}
    mine = {int(r["total"]) for r in rolls if str(r.get("label", "")).split(".")[0] not in labels}
    mine |= {v for v in shown.values() if isinstance(v, int) and not isinstance(v, bool)}
    # the target's armour and soak, whether or not the engine hides them (a Pendragon loser's is the attacker's)
    if outcome.get("loser") != "attacker":
        taken |= {v for path, v in _flat(outcome) if isinstance(v, int) and not isinstance(v, bool) and path
                  and any(word in path[-1] for word in ("armour", "armor", "soak"))}
    return (taken | theirs) - mine, taken


def _number(number: int) -> str:
    return rf"[\u2212-]?\**{number}\**(?![\d.])"


def total_shapes(number: int) -> re.Pattern[str]:
    """A total as the lines write one: ``12 vs 13``, ``defence 10``."""
    n = _number(number)
    return re.compile(rf"(?<![\w.]){n} vs |\bvs {n}|\b(?:defence|defense|total) {n}")


def sheet_shapes(number: int) -> re.Pattern[str]:
    """What a sheet took off a blow, and what it has left: ``soak 5``, ``armour 4``, ``−11 hit points``."""
    n = _number(number)
    return re.compile(rf"\b(?:soak|armour|armor) {n}|(?<![\w.]){n} hit points?\b|\btakes {n} damage|= {n}")


@pytest.mark.parametrize("script", SCRIPTS)
async def test_no_internal_name_no_secret_npc_total_and_no_repeated_line_in_a_public_message(
        script: str, replays: Replays) -> None:
    replay = await replays(script)  # the replay the playground tests read too
    assert replay.posted, f"{script} posted nothing public"
    problems: list[str] = []
    for posted in replay.posted:
        where = f"message {posted.message_id} (version {posted.version}):\n{posted.text}\n"
        if internal_in(posted.text):
            problems.append(f"internal names {internal_in(posted.text)} in {where}")
        if repeated(posted.text):
            problems.append(f"said twice {repeated(posted.text)} in {where}")
    if replay.secret_rolls:
        npcs = {str(n) for _, kind, payload in replay.events if kind == "add_npcs" for n in payload.get("names") or ()}
        for npc in npcs:
            initiative = re.compile(rf"{re.escape(npc)}\**\s*\((?:initiative )?\d+\)")
            problems += [f"{npc}'s initiative in message {p.message_id}:\n{p.text}" for p in replay.posted
                         if initiative.search(p.text)]
        for event_id, _, payload in replay.events:
            if "outcome" not in payload or not (payload.get("secret") or payload.get("target_secret")):
                continue
            totals, sheet = secret_numbers(payload)
            shapes = [total_shapes(n) for n in totals] + [sheet_shapes(n) for n in sheet]
            for posted in replay.posted:
                if f"event #{event_id}" not in posted.text:
                    continue
                for shape in shapes:
                    found = shape.search(posted.text)
                    if found:
                        problems.append(f"a secret number ({found.group(0)!r}) of event #{event_id} in "
                                        f"message {posted.message_id}:\n{posted.text}")
    assert not problems, "\n".join(problems)
    if script in SCENES:  # read here, not in a test of its own: one replay per script (CI's time)
        scene_in_its_place(replay.text, *SCENES[script])


# Issue 34: the scripts that play a scene in a thread or a forum post: the place's name, and whether the thread
# archives mid-fight (the bot must reopen it).
SCENES = {"playground-thread-pendragon.txt": ("The ford", True),
          "playground-forum-fading-suns.txt": ("The chapel raid", False)}


def scene_in_its_place(transcript: str, place: str, archives: bool) -> None:
    """The scene's tracker is pinned and kept in its thread or post, the GM's button works there, the fight ends
    there; an archived thread is reopened by the bot (a replay fails on any request Discord refused, such as an
    edit in an archived thread)."""
    scene = transcript[transcript.index(f"you are now in #{place})"):]
    assert f"Grievous in #{place} (new, pinned)" in scene and "Grievous in #combat" not in scene
    assert "The GM decides for" in scene and "Encounter \u2014 Ended" in scene
    if archives:
        after = scene[scene.index(f"(#{place} was quiet that long: Discord archived it)"):]
        assert f"Grievous in #{place} (edited, pinned)" in after


def test_the_checks_catch_what_the_newcomer_walk_read() -> None:
    """Issue 22's own examples, each caught (the internal names taken from the packs, not listed here)."""
    for line in ("2 × saxon_warrior joined the encounter.", "great_axe 13", "reinforced_chainmail 12",
                 "Hit on the upper_arm", "healing.botch 1d10 botch [7] = 0", "d20 pendragon [6]"):
        assert internal_in(line), line
    assert not internal_in("2 × Saxon warrior joined the encounter: great axe, reinforced chainmail, bjorn.yaml")
    assert repeated("Sir Bréhus's lance breaks\n⏳ Waiting\nSir Bréhus's lance breaks")
    assert total_shapes(13).search("Dane Axe edge high: 12 vs 13") and total_shapes(8).search("parry 2 vs 8")
    assert sheet_shapes(5).search("Impact: damage 15 − soak 5 (armour 4)")
    assert sheet_shapes(11).search("Bandit 1 is dying (−11 hit points)") and not sheet_shapes(1).search("1 VP")
