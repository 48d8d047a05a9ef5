"""Drive an unchanged engine down every branch of its dice and add up the leaves.

The engine is deterministic once its faces are fixed, so one run follows one path: each request the
``EnumeratingDice`` records is a node, the outcome the plan picked is the edge taken. A run answers every
request past its plan with the first outcome, so it always reaches a leaf; the siblings are then run
with the same prefix and their own index (one engine run per new leaf).

Branches merge in two ways. Outcomes of one roll that read the same are one edge (``rules.odds.dice``).
And a system's adapter may name the *state* a path has reached (``key``): two paths in the same state
have the same future, so the second reuses the first one's sub-distribution (ars-harn: every attack and
defence pair with the same excess; pendragon: every pair of d20s with the same winner and results).
A key may come from the history of outcomes alone (free) or from the first run through the node.
If the time budget runs out, unexplored branches are counted as ``missing`` rather than guessed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rules.model import Resolution
from rules.odds.dice import EnumeratingDice, Exhausted, Policy, Request

History = tuple[tuple[str, Hashable], ...]
Leaf = tuple[tuple[str, Hashable], ...]


@dataclass(frozen=True)
class State:
    """Where a path has got to: paths with equal ``key`` have the same future, except for the leaf fields
    in ``fixed``, which the path so far decided (who won, a critical) and which stay as they are below."""

    key: Hashable
    fixed: Leaf = ()


class Adapter(Protocol):
    """What one system tells the driver: how outcomes merge, which states are the same, what a leaf is."""

    policy: Policy

    def key(self, history: History, resolution: Resolution | None) -> State | None:
        """The state after ``history`` (None: unknown, explore it), from the history or a run through it."""

    def observe(self, history: History, resolution: Resolution) -> None:
        """Learn from a finished run (constants the keys need, e.g. Effective Impact minus excess)."""

    def mark(self, history: History) -> tuple[str, Hashable] | None:
        """A fact of the path so far to tally as a marginal (ars-harn's excess), or None."""

    def leaf(self, resolution: Resolution) -> Leaf:
        """What the summary reads from one finished action: plain, hashable name/value pairs."""

    # optional: ``same_next(history)`` True when the roll after ``history``'s last is the same request
    # whatever that last one showed (ars-harn's Defense roll after the Attack roll)


@dataclass
class Sub:
    """A sub-distribution: its own leaves, plus weighted references to memoised states (added up once,
    at the end, so a state reached from a thousand paths costs a thousand additions, not a thousand copies)."""

    leaves: dict[Leaf, float] = field(default_factory=dict)
    refs: dict[tuple[Hashable, Leaf], float] = field(default_factory=dict)
    cut: float = 0.0
    missing: float = 0.0

    def add(self, other: Sub, weight: float) -> None:
        for leaf, p in other.leaves.items():
            self.leaves[leaf] = self.leaves.get(leaf, 0.0) + p * weight
        for ref, p in other.refs.items():
            self.refs[ref] = self.refs.get(ref, 0.0) + p * weight
        self.cut += other.cut * weight
        self.missing += other.missing * weight

    def refer(self, state: State, memoised: Sub, weight: float) -> None:
        ref = (state.key, state.fixed)
        self.refs[ref] = self.refs.get(ref, 0.0) + weight
        self.cut += memoised.cut * weight


@dataclass
class Distribution:
    """Every leaf outcome with its probability; ``cut`` + ``missing`` + the leaves sum to 1."""

    leaves: dict[Leaf, float]
    cut: float
    missing: float
    marginals: dict[str, dict[Hashable, float]]
    runs: int
    seconds: float
    _rows: list[tuple[dict[str, Hashable], float]] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def complete(self) -> bool:
        return self.missing == 0.0

    def rows(self) -> list[tuple[dict[str, Hashable], float]]:
        """Every leaf as a mapping, with its probability (made once: a summary reads them twenty times)."""
        if self._rows is None:
            self._rows = [(dict(leaf), p) for leaf, p in self.leaves.items()]
        return self._rows

    def prob(self, test: Callable[[dict[str, Hashable]], bool]) -> float:
        return sum(p for row, p in self.rows() if test(row))


@dataclass(frozen=True)
class _Run:
    choices: tuple[int, ...]
    requests: tuple[Request, ...]
    resolution: Resolution | None  # None: the path fell under the cut-off inside the engine
    # a sibling's run borrowed up to its next request (``Adapter.same_next``): no engine ran it
    borrowed: bool = False


class _Driver:
    def __init__(self, resolve: Callable[[EnumeratingDice], Resolution],
                 make: Callable[[Sequence[int]], EnumeratingDice], adapter: Adapter, deadline: float) -> None:
        self.resolve, self.make, self.adapter, self.deadline = resolve, make, adapter, deadline
        self.memo: dict[Hashable, Sub] = {}
        self.same_next: Callable[[History], bool] = getattr(adapter, "same_next", lambda history: False)
        self.marginals: dict[str, dict[Hashable, float]] = {}
        self.runs = 0

    def run(self, plan: Sequence[int]) -> _Run:
        dice = self.make(plan)
        resolution: Resolution | None
        try:
            resolution = self.resolve(dice)
        except Exhausted:
            resolution = None
        self.runs += 1
        done = _Run(tuple(dice.choices), tuple(dice.requests), resolution)
        if resolution is not None:
            history = tuple((r.label, r.outcomes[c].key) for r, c in zip(done.requests, done.choices, strict=True))
            self.adapter.observe(history, resolution)
        return done

    def tally(self, marked: tuple[str, Hashable] | None, weight: float) -> None:
        if marked is not None:
            tally = self.marginals.setdefault(marked[0], {})
            tally[marked[1]] = tally.get(marked[1], 0.0) + weight

    def subtree(self, run: _Run, depth: int, history: History, weight: float) -> Sub:
        if depth == len(run.requests):
            if run.resolution is None:
                return Sub(cut=1.0)
            return Sub({self.adapter.leaf(run.resolution): 1.0})
        request = run.requests[depth]
        sub = Sub(cut=request.cut)
        for index, outcome in enumerate(request.outcomes):
            path = (*history, (request.label, outcome.key))
            self.tally(self.adapter.mark(path), weight * outcome.prob)
            state = self.adapter.key(path, None)
            if state is not None and state.key in self.memo:
                sub.refer(state, self.memo[state.key], outcome.prob)
                continue
            if index == run.choices[depth] and not run.borrowed:
                child_run = run
            elif time.perf_counter() > self.deadline:
                sub.missing += outcome.prob
                continue
            elif state is None and depth + 1 < len(run.requests) and self.same_next(path):
                # the next roll is the same whatever this one showed: follow it without running the engine,
                # which runs only for the outcomes of that roll whose state is new
                child_run = _Run((*run.choices[:depth], index, -1), run.requests[:depth + 2], None, borrowed=True)
            else:
                child_run = self.run((*run.choices[:depth], index))
            if state is None and child_run.resolution is not None:
                state = self.adapter.key(path, child_run.resolution)
                if state is not None and state.key in self.memo:
                    sub.refer(state, self.memo[state.key], outcome.prob)
                    continue
            child = self.subtree(child_run, depth + 1, path, weight * outcome.prob)
            if state is not None and child.missing == 0.0:
                self.memo[state.key] = child
                sub.refer(state, child, outcome.prob)
            else:
                sub.add(child, outcome.prob)
        return sub


def enumerate_action(resolve: Callable[[EnumeratingDice], Resolution],
                     make: Callable[[Sequence[int]], EnumeratingDice], adapter: Adapter,
                     budget: float | None = None) -> Distribution:
    """The exact distribution of leaves of one action (``budget`` seconds at most, if given)."""
    start = time.perf_counter()
    driver = _Driver(resolve, make, adapter, float("inf") if budget is None else start + budget)
    first = driver.run(())
    # a fact the forced dice fix before any roll is followed (every die forced, or the Attack and Defense rolls)
    driver.tally(adapter.mark(()), 1.0)
    sub = driver.subtree(first, 0, (), 1.0)
    return Distribution(flatten(sub, driver.memo), sub.cut, sub.missing, driver.marginals, driver.runs,
                        time.perf_counter() - start)


def flatten(root: Sub, memo: dict[Hashable, Sub]) -> dict[Leaf, float]:
    """Resolve the references: a memoised state only refers to states finished before it, so walking
    them newest first hands every state its whole weight before its own leaves are added. A reference's
    fixed fields replace those of the leaves below it (an outer reference's win over an inner one's)."""
    leaves = dict(root.leaves)
    weights: dict[Hashable, dict[Leaf, float]] = {}
    for (key, fixed), p in root.refs.items():
        bucket = weights.setdefault(key, {})
        bucket[fixed] = bucket.get(fixed, 0.0) + p
    for key in reversed(list(memo)):
        for fixed, weight in weights.pop(key, {}).items():
            state = memo[key]
            for leaf, p in state.leaves.items():
                if fixed:
                    leaf = _override(leaf, fixed)
                leaves[leaf] = leaves.get(leaf, 0.0) + p * weight
            for (ref, inner), p in state.refs.items():
                combined = _combine(inner, fixed)
                bucket = weights.setdefault(ref, {})
                bucket[combined] = bucket.get(combined, 0.0) + p * weight
    return leaves


def _override(leaf: Leaf, fixed: Leaf) -> Leaf:
    """``leaf`` with ``fixed``'s values. A system's leaves name their fields in one order, so where each field
    sits is found once (and checked on every use)."""
    shape = (len(leaf), leaf[0][0] if leaf else None)
    where = _POSITIONS.get(shape)
    if where is None:
        where = _POSITIONS[shape] = {name: index for index, (name, _) in enumerate(leaf)}
    out = list(leaf)
    for pair in fixed:
        index = where.get(pair[0])
        if index is not None and out[index][0] == pair[0]:
            out[index] = pair
        elif pair[0] in dict(leaf):  # another order after all
            return tuple((name, dict(fixed).get(name, value)) for name, value in leaf)
    return tuple(out)


_POSITIONS: dict[tuple[int, str | None], dict[str, int]] = {}


def _combine(inner: Leaf, outer: Leaf) -> Leaf:
    if not inner:
        return outer
    merged = dict(inner)
    merged.update(outer)
    return tuple(merged.items())
