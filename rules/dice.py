"""The one dice source every engine rolls through.

Every roll carries a label (``attack``, ``location``, ``shock`` ...) and is recorded. Forced faces
can be queued per label; they are consumed in order, and a label whose queue is empty falls back to
the injected random generator. Faces are what the physical die shows: a d10 shows 0-9, every other
die 1-N. That one seam gives exact tests, the scenario runner, and players who roll real dice.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from random import Random
from typing import Any

from rules.errors import DiceError, ForcedFaceError

# Roll-under results, shared by the Pendragon and Fading Suns checks.
CRITICAL = "critical"
SUCCESS = "success"
FAILURE = "failure"
FUMBLE = "fumble"
CRITICAL_FAILURE = "critical_failure"


def face_range(sides: int) -> tuple[int, int]:
    """The faces a physical die of this many sides shows (a d10 is numbered 0-9)."""
    if sides == 10:
        return 0, 9
    return 1, sides


@dataclass(frozen=True)
class Roll:
    """One labelled roll: the faces shown, what they add up to, and what they mean."""

    label: str
    kind: str
    faces: tuple[int, ...]
    total: int
    flags: tuple[str, ...] = ()
    target: int | None = None
    result: str | None = None
    botches: int = 0
    victory_points: int | None = None
    victory_dice: int | None = None

    @property
    def succeeded(self) -> bool:
        return self.result in (SUCCESS, CRITICAL)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "kind": self.kind,
            "faces": list(self.faces),
            "total": self.total,
        }
        if self.flags:
            out["flags"] = list(self.flags)
        for name in ("target", "result", "victory_points", "victory_dice"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.botches:
            out["botches"] = self.botches
        return out


@dataclass(frozen=True)
class VictoryBand:
    low: int
    high: int
    points: int
    dice: int


@dataclass(frozen=True)
class VictoryChart:
    """Fading Suns: a successful roll's face gives victory points (and victory dice) by band."""

    bands: tuple[VictoryBand, ...]

    def __post_init__(self) -> None:
        if not self.bands:
            raise DiceError("the victory chart has no bands")
        ordered = sorted(self.bands, key=lambda b: b.low)
        for before, after in itertools.pairwise(ordered):
            if after.low != before.high + 1:
                raise DiceError(f"the victory chart has a gap or overlap between {before.high} and {after.low}")

    def lookup(self, roll: int) -> VictoryBand:
        for band in self.bands:
            if band.low <= roll <= band.high:
                return band
        # Past the chart's top the last band holds (a goal over 20 can only roll up to 18 anyway).
        top = max(self.bands, key=lambda b: b.high)
        if roll > top.high:
            return top
        raise DiceError(f"roll {roll} is below the victory chart")


@dataclass
class DiceSource:
    """Labelled dice with forced faces per label and an injectable random generator.

    ``forced`` maps a label to the faces to use, in order. ``rng`` is any ``random.Random``;
    by default a fresh, OS-seeded one (never the module-global generator).
    """

    forced: Mapping[str, Sequence[int]] | None = None
    rng: Random | None = None
    rolls: list[Roll] = field(default_factory=list)
    # label -> the label whose forced faces it reads: faces typed in the order the table rolled them
    # (``initiative.botch`` reading ``initiative``: a stress die's botch dice follow its 0)
    aliases: Mapping[str, str] | None = None
    # a label given forced faces is an error once they run out, never a silent random roll
    strict: bool = False
    # Whose roll the engine makes now: the attacker's (the acting character's) unless the engine says otherwise
    # (``rolling_for``). Faces forced under ``"defender:knockdown"`` go to the defender's knockdown roll only; a
    # label forced without a side (``knockdown``) goes to whichever side rolls it (the tests' forced dice).
    side: str = "attacker"

    def __post_init__(self) -> None:
        self._rng: Random = self.rng if self.rng is not None else Random()
        self._queues: dict[str, deque[int]] = {}
        self._rolled: set[str] = set()
        for label, faces in (self.forced or {}).items():
            if not isinstance(label, str) or not label:
                raise ForcedFaceError(f"dice: a label must be a non-empty string, not {label!r}")
            if isinstance(faces, int) and not isinstance(faces, bool):
                faces = [faces]
            if isinstance(faces, str | bytes) or not isinstance(faces, Iterable):
                raise ForcedFaceError(f"dice: faces for '{label}' must be a list of whole numbers")
            queue: deque[int] = deque()
            for face in faces:
                if isinstance(face, bool) or not isinstance(face, int):
                    raise ForcedFaceError(f"dice: face {face!r} for '{label}' is not a whole number")
                queue.append(face)
            self._queues[label] = queue

    # -- raw faces ---------------------------------------------------------------------------

    def face(self, label: str, sides: int) -> int:
        """One physical face for ``label``: forced if one is queued, else random."""
        if sides < 2:
            raise DiceError(f"a die needs at least 2 sides, not {sides}")
        low, high = face_range(sides)
        label = (self.aliases or {}).get(label, label)
        sided = f"{self.side}:{label}"
        self._rolled.update((label, sided))
        queue = self._queues.get(sided if sided in self._queues else label)
        if self.strict and queue is not None and not queue:
            raise ForcedFaceError(f"dice: '{label}' needs another face (the faces given ran out)")
        if queue:
            value = queue.popleft()
            if not low <= value <= high:
                raise ForcedFaceError(
                    f"dice: face {value} for '{label}' is impossible on a d{sides} (faces {low}-{high})"
                )
            return value
        return self._rng.randint(low, high)

    @contextmanager
    def rolling_for(self, who: str) -> Iterator[None]:
        """The rolls made inside are ``who``'s (``attacker`` or ``defender``): a wounded defender's knockdown,
        shock or fall roll takes the faces forced for that side's label, never those of the other side."""
        before, self.side = self.side, who
        try:
            yield
        finally:
            self.side = before

    def record(self, roll: Roll) -> Roll:
        self.rolls.append(roll)
        return roll

    def unused(self) -> dict[str, list[int]]:
        """Forced faces left over after the action: a label never rolled, or more faces than rolls."""
        return {label: list(queue) for label, queue in self._queues.items() if queue}

    def never_rolled(self) -> list[str]:
        return sorted(label for label, queue in self._queues.items() if queue and label not in self._rolled)

    def check_all_used(self) -> None:
        """Raise if any forced face was not consumed, naming the label and why."""
        for label, faces in self.unused().items():
            if label not in self._rolled:
                raise ForcedFaceError(f"dice: faces {faces} were given for '{label}', which was never rolled")
            raise ForcedFaceError(f"dice: faces {faces} for '{label}' were left over (more faces than rolls)")

    # -- die kinds ---------------------------------------------------------------------------

    def dice(self, label: str, count: int, sides: int, bonus: int = 0) -> Roll:
        """Plain NdM+K. A d10 showing 0 counts as 10 here."""
        if count < 0 or count > 1000:
            raise DiceError(f"cannot roll {count} dice")
        faces = tuple(self.face(label, sides) for _ in range(count))
        total = sum(10 if (sides == 10 and f == 0) else f for f in faces) + bonus
        kind = f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")
        return self.record(Roll(label=label, kind=kind, faces=faces, total=total))

    def d100(self, label: str) -> Roll:
        value = self.face(label, 100)
        return self.record(Roll(label=label, kind="d100", faces=(value,), total=value))

    def simple(self, label: str) -> Roll:
        """Ars Magica simple die: a d10 read 1-10 (0 reads 10)."""
        value = self.face(label, 10)
        return self.record(Roll(label=label, kind="simple", faces=(value,), total=10 if value == 0 else value))

    def stress(self, label: str, botch_dice: int = 1) -> Roll:
        """Ars Magica stress die.

        2-9 read as shown. A 1 means roll again and double, and each further 1 doubles again;
        on those re-rolls a 0 reads 10. A 0 on the first roll is 0, and ``botch_dice`` d10s are
        rolled under ``<label>.botch``: each 0 among them is a botch.
        """
        main, botch = self._stress(label, botch_dice)
        self.record(main)
        if botch is not None:
            self.record(botch)
        return main

    def _stress(self, label: str, botch_dice: int) -> tuple[Roll, Roll | None]:
        if botch_dice < 0:
            raise DiceError("the number of botch dice cannot be negative")
        first = self.face(label, 10)
        faces = [first]
        flags: list[str] = []
        botches = 0
        botch_roll: Roll | None = None
        if first == 0:
            total = 0
            flags.append("zero")
            if botch_dice:
                botch_faces = tuple(self.face(f"{label}.botch", 10) for _ in range(botch_dice))
                botches = sum(1 for f in botch_faces if f == 0)
                botch_roll = Roll(
                    label=f"{label}.botch",
                    kind=f"{botch_dice}d10 botch",
                    faces=botch_faces,
                    total=botches,
                    flags=("botch",) if botches else (),
                )
                if botches:
                    flags.append("botch")
        elif first == 1:
            multiplier = 1
            while True:
                multiplier *= 2
                again = self.face(label, 10)
                faces.append(again)
                if again != 1:
                    total = multiplier * (10 if again == 0 else again)
                    break
                if multiplier >= 1 << 20:
                    raise DiceError(f"dice: '{label}' doubled more than 20 times; check the forced faces")
            flags.append("exploded")
        else:
            total = first
        main = Roll(label=label, kind="stress", faces=tuple(faces), total=total, flags=tuple(flags), botches=botches)
        return main, botch_roll

    def pendragon(self, label: str, target: int) -> Roll:
        """King Arthur Pendragon d20 roll-under.

        Under the target succeeds, equal to it is a critical, and a 20 fumbles while the target is
        under 20. A target over 20 adds its excess to the roll; any total of 20 or more is then a
        critical, and nothing fumbles. ``total`` is the roll as compared in an opposed contest
        (capped at 20 for an over-20 target); the natural face stays in ``faces``.
        """
        value = self.face(label, 20)
        flags: list[str] = []
        if value == 1:
            flags.append("natural_1")
        if target > 20:
            total = min(20, value + target - 20)
            result = CRITICAL if value + target - 20 >= 20 else SUCCESS
        else:
            total = value
            if value == 20 and target < 20:
                result = FUMBLE
            elif value == target:
                result = CRITICAL
            elif value < target:
                result = SUCCESS
            else:
                result = FAILURE
        return self.record(
            Roll(
                label=label,
                kind="d20 pendragon",
                faces=(value,),
                total=total,
                flags=tuple(flags),
                target=target,
                result=result,
            )
        )

    def fading_suns(self, label: str, goal: int, chart: VictoryChart) -> Roll:
        """Fading Suns d20 goal roll.

        At or under the goal succeeds, exactly the goal is a critical (victory points doubled),
        a 19 always fails, and a 20 is a critical failure. Victory points come from ``chart``.
        """
        value = self.face(label, 20)
        if value == 20:
            result = CRITICAL_FAILURE
        elif value == 19 or value > goal:
            result = FAILURE
        elif value == goal:
            result = CRITICAL
        else:
            result = SUCCESS
        points = dice = 0
        if result in (SUCCESS, CRITICAL):
            band = chart.lookup(value)
            points, dice = band.points, band.dice
            if result == CRITICAL:
                points, dice = points * 2, dice * 2
        return self.record(
            Roll(
                label=label,
                kind="d20 fading-suns",
                faces=(value,),
                total=value,
                target=goal,
                result=result,
                victory_points=points,
                victory_dice=dice,
            )
        )

    def ars_check(
        self, label: str, modifier: int, ease_factor: int, *, stress: bool = True, botch_dice: int = 1
    ) -> Roll:
        """An Ars Magica roll against an Ease Factor: die + modifier, ties succeed, a botch fails."""
        botch: Roll | None = None
        if stress:
            die, botch = self._stress(label, botch_dice)
        else:
            value = self.face(label, 10)
            die = Roll(label=label, kind="simple", faces=(value,), total=10 if value == 0 else value)
        total = die.total + modifier
        if die.botches:
            result = FUMBLE
        elif total >= ease_factor:
            result = SUCCESS
        else:
            result = FAILURE
        kind = die.kind + (f"{modifier:+d}" if modifier else "")
        check = self.record(
            Roll(
                label=label,
                kind=kind,
                faces=die.faces,
                total=total,
                flags=die.flags,
                target=ease_factor,
                result=result,
                botches=die.botches,
            )
        )
        if botch is not None:
            self.record(botch)
        return check

    # -- records -----------------------------------------------------------------------------

    def rolls_as_dicts(self) -> list[dict[str, Any]]:
        return [roll.to_dict() for roll in self.rolls]
