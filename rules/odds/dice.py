"""A dice source that follows every branch instead of rolling.

Each roll an engine asks for becomes a *request*: the few outcomes the roll can have, each with its
exact probability and the physical faces that show it. The source answers the request with the outcome
a plan picks (the first one past the end of the plan) and records the request, so a driver can re-run
the engine down every branch (``rules.odds.tree``). The faces are fed through the ordinary forced-face
queues, so every ``Roll`` is built by ``DiceSource`` itself: the engine cannot tell the difference.

Outcomes are grouped by what the engine reads from the roll, so branches merge early: a stress die by
its total and botches (a 4, and a 1 then a 2, both read 4), an Ease Factor check by success/failure/botch
when the system says only the result matters, NdM by its
total, a d100 by the table bands a system names. Probabilities are floats: every outcome's is a sum of
products of 1/sides, exact to about 1e-15 each. A stress chain is cut where the mass left below it is
under ``cutoff``; that mass is reported on the request, never dropped.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

from rules.dice import CRITICAL, CRITICAL_FAILURE, FAILURE, FUMBLE, SUCCESS, DiceSource, Roll, VictoryChart, face_range

CUTOFF = 1e-9

Feed = tuple[tuple[str, tuple[int, ...]], ...]
# one way a stress die comes out: its faces, the botch dice's faces, total, botches, probability
StressBranch = tuple[tuple[int, ...], tuple[int, ...], int, int, float]


@dataclass(frozen=True)
class Outcome:
    """One way a roll can come out: what the engine reads (``key``), its probability, the faces to show."""

    key: Hashable
    prob: float
    feed: Feed


@dataclass(frozen=True)
class Request:
    label: str
    outcomes: tuple[Outcome, ...]
    cut: float = 0.0  # probability of the branches left out (a stress chain's far tail)


@dataclass(frozen=True)
class Policy:
    """How a system lets outcomes merge, label by label.

    ``by_result``: checks whose result (success, failure, botch...) is all the engine reads.
    ``ignore``: rolls whose outcome the summary never reads and nothing after depends on (answered
    with one face). ``face_groups(label, sides)``: faces of a plain die that mean the same thing
    (a d100 strike-location band and side), or None for one branch per face.
    """

    by_result: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    face_groups: Callable[[str, int], Sequence[Sequence[int]] | None] = lambda label, sides: None
    # stress rolls followed deeper than the dice source's cut-off, by label: the chance of going one
    # doubling deeper at which the chain stops
    cutoffs: Mapping[str, float] = field(default_factory=dict, hash=False)
    # requests built from face_groups, by (label, sides): the groups never change within one action
    cache: dict[tuple[str, int], Request | None] = field(default_factory=dict, compare=False, hash=False)

    def grouped(self, label: str, sides: int) -> Request | None:
        if (label, sides) not in self.cache:
            groups = self.face_groups(label, sides)
            self.cache[(label, sides)] = None if groups is None else Request(
                label, tuple(Outcome(tuple(g), len(g) / sides, ((label, (g[0],)),)) for g in groups))
        return self.cache[(label, sides)]


class Exhausted(BaseException):
    """Raised inside the engine when a branch's probability fell under the cut-off (a forced 1 chain)."""


def _group(items: list[tuple[Hashable, float, Feed]], cut: float, label: str) -> Request:
    merged: dict[Hashable, tuple[float, Feed]] = {}
    for key, prob, feed in items:
        if key in merged:
            merged[key] = (merged[key][0] + prob, merged[key][1])
        else:
            merged[key] = (prob, feed)
    return Request(label, tuple(Outcome(k, p, f) for k, (p, f) in merged.items()), cut)


@lru_cache(maxsize=64)
def stress_branches(botch_dice: int, cutoff: float) -> tuple[StressBranch, ...]:
    """Every way an Ars Magica stress die comes out: (faces, botch faces, total, botches, probability).

    A 1 doubles and rolls again; the chain is followed while the chance of reaching the next level is
    at least ``cutoff`` (levels 1..9 for 1e-9), and what lies deeper is the cut mass (1 - the sum)."""
    out: list[StressBranch] = []
    if botch_dice:
        for k in range(botch_dice + 1):
            p = 0.1 * comb(botch_dice, k) * 0.1**k * 0.9 ** (botch_dice - k)
            out.append(((0,), (0,) * k + (5,) * (botch_dice - k), 0, k, p))
    else:
        out.append(((0,), (), 0, 0, 0.1))
    for face in range(2, 10):
        out.append(((face,), (), face, 0, 0.1))
    level = 1
    while 0.1**level >= cutoff:
        for again in (0, *range(2, 10)):
            total = 2**level * (10 if again == 0 else again)
            out.append(((1,) * level + (again,), (), total, 0, 0.1 ** (level + 1)))
        level += 1
    return tuple(out)


def _check_result(total: int, botches: int, modifier: int, ease_factor: int) -> str:
    if botches:
        return FUMBLE
    return SUCCESS if total + modifier >= ease_factor else FAILURE


@lru_cache(maxsize=4096)
def stress_request(label: str, botch_dice: int, cutoff: float, check: tuple[int, int] | None) -> Request:
    """A stress roll's outcomes: by total and botches, or (``check`` = modifier, Ease Factor) by result."""
    items: list[tuple[Hashable, float, Feed]] = []
    total_p = 0.0
    for faces, botch, total, botches, p in stress_branches(botch_dice, cutoff):
        feed: Feed = ((label, faces),) + (((f"{label}.botch", botch),) if botch else ())
        key: Hashable = (total, botches) if check is None else _check_result(total, botches, *check)
        items.append((key, p, feed))
        total_p += p
    return _group(items, max(0.0, 1.0 - total_p), label)


@lru_cache(maxsize=1024)
def simple_check_request(label: str, check: tuple[int, int] | None) -> Request:
    items: list[tuple[Hashable, float, Feed]] = [
        ((f if check is None else _check_result(10 if f == 0 else f, 0, *check)), 0.1, ((label, (f,)),))
        for f in range(10)]
    return _group(items, 0.0, label)


@lru_cache(maxsize=256)
def sum_branches(count: int, sides: int) -> tuple[tuple[int, tuple[int, ...], float], ...]:
    """NdM by total: (total as the dice read, one set of faces showing it, probability)."""
    low, high = face_range(sides)
    values = [10 if (sides == 10 and f == 0) else f for f in range(low, high + 1)]
    ways: dict[int, int] = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for v in values:
                nxt[total + v] = nxt.get(total + v, 0) + n
        ways = nxt
    top = len(values) ** count
    out = []
    for total in sorted(ways):
        # a representative: fill dice greedily from the highest value
        faces, left = [], total
        for i in range(count):
            rest = count - i - 1
            v = max(x for x in values if left - x >= rest * min(values))
            faces.append(0 if (sides == 10 and v == 10) else v)
            left -= v
        out.append((total, tuple(faces), ways[total] / top))
    return tuple(out)


@lru_cache(maxsize=1024)
def sum_request(label: str, count: int, sides: int) -> Request:
    return Request(label, tuple(Outcome(total, p, ((label, faces),)) for total, faces, p in sum_branches(count, sides)))


@dataclass
class EnumeratingDice(DiceSource):
    """A ``DiceSource`` that answers each unforced roll from ``plan`` and records what it could have been."""

    plan: Sequence[int] = ()
    policy: Policy = field(default_factory=Policy)
    cutoff: float = CUTOFF
    requests: list[Request] = field(default_factory=list)
    choices: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._prob = 1.0

    # -- plumbing -------------------------------------------------------------------------------

    def _pending(self, *labels: str) -> bool:
        return any(self._queues.get(label) for label in labels)

    def _answer(self, request: Request) -> Outcome:
        depth = len(self.requests)
        self.requests.append(request)
        index = self.plan[depth] if depth < len(self.plan) else 0
        self.choices.append(index)
        chosen = request.outcomes[index]
        self._prob *= chosen.prob
        for label, faces in chosen.feed:
            self._queues.setdefault(label, deque()).extend(faces)
        return chosen

    def face(self, label: str, sides: int) -> int:
        if self._queues.get(label) or sides < 2:
            return super().face(label, sides)
        # an unforced face the engine asks for directly (effect dice, or past a stress roll forced in part):
        # a path under 1e-17 is cut, so a chain of 1s forced in part is followed 16 doublings deep at most
        # (the dice source refuses more than 20), and a deep Attack roll (to 1e-17) still meets the defence
        if self._prob / sides < self.cutoff * 1e-8:
            raise Exhausted(label)
        low, high = face_range(sides)
        request = self.policy.grouped(label, sides) or Request(
            label, tuple(Outcome(f, 1 / sides, ((label, (f,)),)) for f in range(low, high + 1)))
        self._answer(request)
        return super().face(label, sides)

    def _plain(self, label: str, count: int, sides: int) -> None:
        if label in self.policy.ignore:
            low, _ = face_range(sides)
            self._answer(Request(label, (Outcome(None, 1.0, ((label, (low,) * count),)),)))
            return
        if count == 1:
            request = self.policy.grouped(label, sides)
            if request is not None:
                self._answer(request)
                return
        self._answer(sum_request(label, count, sides))

    # -- die kinds --------------------------------------------------------------------------------

    def dice(self, label: str, count: int, sides: int, bonus: int = 0) -> Roll:
        if count > 0 and not self._pending(label):
            self._plain(label, count, sides)
        return super().dice(label, count, sides, bonus)

    def d100(self, label: str) -> Roll:
        if not self._pending(label):
            self._plain(label, 1, 100)
        return super().d100(label)

    def simple(self, label: str) -> Roll:
        if not self._pending(label):
            self._plain(label, 1, 10)
        return super().simple(label)

    def _stress_request(self, label: str, botch_dice: int, check: tuple[int, int] | None) -> None:
        self._answer(stress_request(label, botch_dice, self.policy.cutoffs.get(label, self.cutoff), check))

    def stress(self, label: str, botch_dice: int = 1) -> Roll:
        if not self._pending(label, f"{label}.botch"):
            if label in self.policy.ignore:
                self._answer(Request(label, (Outcome(None, 1.0, ((label, (5,)),)),)))
            else:
                self._stress_request(label, botch_dice, None)
        return super().stress(label, botch_dice)

    def ars_check(self, label: str, modifier: int, ease_factor: int, *, stress: bool = True,
                  botch_dice: int = 1) -> Roll:
        if not self._pending(label, f"{label}.botch"):
            by_result = label in self.policy.by_result
            if stress:
                self._stress_request(label, botch_dice, (modifier, ease_factor) if by_result else None)
            else:
                self._answer(simple_check_request(label, (modifier, ease_factor) if by_result else None))
        return super().ars_check(label, modifier, ease_factor, stress=stress, botch_dice=botch_dice)

    def pendragon(self, label: str, target: int) -> Roll:
        if not self._pending(label):
            self._answer(pendragon_request(label, target, label in self.policy.by_result))
        return super().pendragon(label, target)

    def fading_suns(self, label: str, goal: int, chart: VictoryChart) -> Roll:
        if not self._pending(label):
            self._answer(fading_suns_request(label, goal, chart, label in self.policy.by_result))
        return super().fading_suns(label, goal, chart)


@lru_cache(maxsize=1024)
def pendragon_request(label: str, target: int, by_result: bool) -> Request:
    """A d20 roll-under: one outcome per face, or (``by_result``) passed/failed, a critical being a pass."""
    items: list[tuple[Hashable, float, Feed]] = []
    for face in range(1, 21):
        key: Hashable = ("passed" if target > 20 or face <= target else "failed") if by_result else face
        items.append((key, 0.05, ((label, (face,)),)))
    return _group(items, 0.0, label)


@lru_cache(maxsize=1024)
def fading_suns_request(label: str, goal: int, chart: VictoryChart, by_result: bool) -> Request:
    """A d20 goal roll by result and victory points/dice (or by result alone)."""
    items: list[tuple[Hashable, float, Feed]] = []
    for face in range(1, 21):
        points = dice = 0
        if face == 20:
            result = CRITICAL_FAILURE
        elif face == 19 or face > goal:
            result = FAILURE
        else:
            band = chart.lookup(face)
            result = CRITICAL if face == goal else SUCCESS
            double = 2 if face == goal else 1
            points, dice = band.points * double, band.dice * double
        key: Hashable = result if by_result else (result, points, dice)
        items.append((key, 0.05, ((label, (face,)),)))
    return _group(items, 0.0, label)
