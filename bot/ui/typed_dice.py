"""What became of the faces a player typed (the ``dice`` option): where they went, which were not used, which
dice the bot rolled.

Typed faces are keyed as the dice source took them: a label fixed to one side as typed (``defense``), any other
under its side (``defender:knockdown``, bot/services/dice_option.py). The public line says where each face typed
for a side went ("6 → Bandit 1's stat loss"); a command whose typed faces all went where their label says, or
typed none, gets no line. Every typed face the roll did not use (never given to the other side) and the dice the
bot rolled beside them are said in Details, to the one who asks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.services.dice_option import split_key
from bot.services.event_records import StoredRoll
from bot.systems import profile_of
from bot.text_safety import plain
from bot.ui.outcomes.common import human


def _faces(value: Any) -> list[int]:
    return [f for f in value if isinstance(f, int)] if isinstance(value, list | tuple) else []


def typed_label(key: str) -> str:
    """A typed key as the player would type it: ``defender:knockdown`` -> ``defender_knockdown``; the acting side's
    own (``attacker:knockdown``) bare, as it was typed."""
    who, label = split_key(key)
    return label if who in (None, "attacker") else f"{who}_{label}"


def _roll_word(system: str, label: str) -> str:
    """A typed label's roll as the game calls it (the profile's roll_names: Fading Suns' ``effect`` is the
    ``wound-effect roll``, ars-harn's ``shock`` the ``shock roll``, its ``stumble`` the ``stumble roll``: its
    roll_names or label_names), one roll (``major wound roll``); an engine with no profile, the label in words."""
    profile = profile_of(system)
    name = (profile.roll_names.get(label) or profile.label_names.get(label)) if profile is not None else None
    return name.removesuffix("s") if name is not None and name.endswith(" rolls") else name or human(label)


def _by_label(faces_by_key: Mapping[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for key, faces in faces_by_key.items():
        label = split_key(key)[1]
        counts[label] = counts.get(label, 0) + len(_faces(faces))
    return counts


def rolled_by_bot(rolls: Sequence[StoredRoll], typed: Mapping[str, Any], unused: Mapping[str, Any]) -> list[str]:
    """The labels the bot rolled beside typed faces (``defender_damage``, ``damage (1 of 5 dice)``), when that is
    worth saying: some typed face went unused, or a label was typed short. Empty otherwise."""
    if not typed:
        return []
    typed_count, unused_count = _by_label(typed), _by_label(unused)
    shown: dict[str, int] = {}  # label -> faces the engine rolled under it
    for roll in rolls:
        shown[roll.label] = shown.get(roll.label, 0) + len(roll.faces)
    rolled: list[str] = []
    short = False
    for label, count in shown.items():
        used = typed_count.get(label, 0) - unused_count.get(label, 0)
        if used >= count:
            continue
        short = short or used > 0
        rolled.append(f"{plain(label)} ({count - used} of {count} dice)" if used > 0 else plain(label))
    left = any(_faces(faces) for faces in unused.values())
    return rolled if left or short else []


def typed_dice_line(typed: Mapping[str, Any], unused: Mapping[str, Any], names: Mapping[str, str] | None = None,
                    system: str = "") -> str | None:
    """Where faces typed for one side went, or None: ``🎲 20 → Sir Elyan's knockdown roll`` for one roll, and a
    side's several as one list, ``🎲 Bandit 1's rolls: knockdown 15, major wound 5, Valorous 12, stat loss 6``.
    ``names``: each side's character (``attacker``, ``defender``); ``system`` names the rolls in its words.

    The public line only: it names no key (``defender_knockdown`` was a key the GM never typed when he typed
    ``sir_elyan_knockdown``), and what was typed but not used, or rolled by the bot beside it, is for the one
    who typed it, in Details (``unused_faces``, ``rolled_by_bot``; issue 34: at phone width the line ran to
    nine lines and read as a contradiction of the blow above it). A side's rolls share its name once: four
    faces for one side, each with "→ Bandit 1's ... roll", ran to four lines at 40 columns; listed, two."""
    names = names or {}
    went: dict[str, list[tuple[str, list[int]]]] = {}  # side -> (the roll's words, the faces it used), as typed
    for key, faces in typed.items():
        who, label = split_key(key)
        used = _faces(faces)[:len(_faces(faces)) - len(_faces(unused.get(key)))]
        if who is not None and used and who in names:
            went.setdefault(who, []).append((_roll_word(system, label), used))  # the roll's words, not the label
    lines = [_side_line(plain(names[who]), rolls) for who, rolls in went.items()]
    return "\U0001f3b2 " + " \u00b7 ".join(lines) if lines else None


def _side_line(name: str, rolls: Sequence[tuple[str, list[int]]]) -> str:
    """One side's typed faces: ``20 → Sir Elyan's knockdown roll``, or several as ``Bandit 1's rolls: knockdown 15,
    stat loss 6`` (each roll's words without "roll"; a roll of several dice bracketed, ``damage [3,6]``)."""
    if len(rolls) == 1:
        word, faces = rolls[0]
        return f"{','.join(map(str, faces))} \u2192 {name}'s {word}"
    listed = (f"{word.removesuffix(' roll')} {faces[0] if len(faces) == 1 else _bracketed(faces)}"
              for word, faces in rolls)
    return f"{name}'s rolls: " + ", ".join(listed)


def _bracketed(faces: Sequence[int]) -> str:
    return f"[{','.join(map(str, faces))}]"


def unused_faces(unused: Mapping[str, Any], names: Mapping[str, str] | None = None, system: str = "") -> list[str]:
    """The typed faces no roll used, each as typed and whose roll it would have been: ``defender_major_wound=9
    (Sir Elyan rolled no major wound roll)`` (Details)."""
    names = names or {}
    left = []
    for key, faces in unused.items():
        if not _faces(faces):
            continue
        who, label = split_key(key)
        whose = f" ({plain(names[who])} rolled no {_roll_word(system, label)})" \
            if who is not None and who in names else ""
        left.append(f"{plain(typed_label(key))}={','.join(map(str, _faces(faces)))}{whose}")
    return left
