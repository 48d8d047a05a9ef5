"""Odds for ars-harn: attack and cast, with the follow-up rolls (amputation, kill, fumble, shock).

States that merge (``key``): after the Attack and Defense rolls only the excess matters, whatever the two
dice were; after the location roll only the location band, the side and the injury band the Effective
Impact falls in (Effective Impact = excess + a constant for that location, learned from the first run
through it). Every check after the wound reads only success, failure or botch.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from random import Random
from typing import Any

from rules.ars_harn.catalog import ArsHarnCatalog
from rules.ars_harn.character import HANDS
from rules.ars_harn.combat import earns_advantage
from rules.ars_harn.outcomes import AttackOutcome, CastOutcome, Check
from rules.ars_harn.rulings import parse_rulings
from rules.dice import FAILURE, FUMBLE, SUCCESS, DiceSource
from rules.model import Resolution, Scenario
from rules.odds.common import group_faces, labels, last, make_leaf, spread
from rules.odds.dice import Policy
from rules.odds.tree import Distribution, History, Leaf, State
from rules.outcome import Outcome

# what the Attack and Defense rolls made of the exchange: hit, excess, tactical advantage, the two botches
Exchange = tuple[bool, int, bool, bool, bool]
CHECKS = frozenset({"shock", "kill", "amputation", "fumble", "stumble", "chirurgy", "healing", "fatigue"})
SEVERITY = {"M": "minor", "S": "serious", "G": "grievous", "K": "kill"}
# The Attack roll's stress die is followed until the chance of one more doubling is under this. Its far tail
# is rare but large (nine doublings read 5,120 and up): cut at the dice source's 1e-9 it took 1e-6 off the
# mean excess on a hit; 17 doublings leave at most 7 x 0.2^18 / P(hit) of it, under 1e-9 when the attack
# hits one time in 500 or more. The Defense roll's tail makes misses (excess 0) and stays at the usual cut.
ATTACK_CUTOFF = 1e-17
# a shock check's result (as the dice source merges it) as the leaf reads it: a botch fails
SHOCK_LEAF: dict[Hashable, str] = {SUCCESS: "passed", FAILURE: "failed", FUMBLE: "botched"}


class ArsHarnOdds:
    def __init__(self, catalog: ArsHarnCatalog, scenario: Scenario, probe: Resolution,
                 forced: Mapping[str, Sequence[int]]) -> None:
        self.catalog = catalog
        out = _struck(probe.outcome)
        self.aim = out.aim
        self.rule = parse_rulings(scenario.rulings).tactical_advantage
        # the Attack and Defense Totals are the die plus these (a botch counts 0); a roll the user forced
        # whole is its total as the probe saw it; one forced in part keeps the keys off (still exact)
        self.mods: dict[str, int] | None = None
        self.fixed: dict[str, tuple[int, bool]] = {}
        self.partial: dict[str, tuple[list[int], list[int]]] = {}
        self.botch_dice = parse_rulings(scenario.rulings).combat_botch_dice
        self.defends = isinstance(out, AttackOutcome) and out.defense_rolled
        if isinstance(out, AttackOutcome):
            self.mods = {"attack": sum((out.attack_modifiers or {}).values()),
                         "defense": sum((out.defense_modifiers or {}).values())}
            for label in ("attack", "defense"):
                if label not in forced and f"{label}.botch" not in forced:
                    continue
                made = [r for r in probe.rolls if r.label in (label, f"{label}.botch")]
                given = [f for name in (label, f"{label}.botch") for f in forced.get(name, [])]
                if [f for r in made for f in r.faces] != given:
                    # forced in part (attack=1: the doubling's next face is followed face by face): its total is
                    # read from the faces, by the dice source's own stress roll, once its chain is complete
                    self.partial[label] = (list(forced.get(label, [])), list(forced.get(f"{label}.botch", [])))
                    continue
                if label == "attack":
                    self.fixed[label] = (out.attack_total or 0, out.attack_botched)
                else:
                    self.fixed[label] = (out.defense_total or 0, out.defense_botched)
        self.rolled = tuple(label for label in ("attack", "defense")
                            if label not in self.fixed and (label == "attack" or self.defends))
        self.offsets: dict[tuple[str, int | None], int] = {}
        self.places = sorted({self._place(g) for g in self._groups("location", 100) or []}, key=str)
        self._bands: dict[int, tuple[int | None, ...]] = {}
        self._last: tuple[History | None, tuple[Exchange, int] | None] = (None, None)
        self.policy = Policy(by_result=CHECKS, face_groups=self._groups, cutoffs={"attack": ATTACK_CUTOFF})

    def _groups(self, label: str, sides: int) -> list[tuple[int, ...]] | None:
        if label != "location" or sides != 100 or self.aim is None:
            return None
        aim = self.aim

        def place(face: int) -> Hashable:
            loc = self.catalog.strike(aim, face)
            return loc.key, (face % 2 if loc.paired else None)

        return group_faces(1, 100, place)

    def _place(self, group: Hashable) -> tuple[str, int | None]:
        assert self.aim is not None and isinstance(group, tuple)
        loc = self.catalog.strike(self.aim, group[0])
        return loc.key, (group[0] % 2 if loc.paired else None)

    def _exchange(self, history: History) -> tuple[Exchange, int] | None:
        """(hit, excess, tactical advantage, attack botched, defence botched) once both rolls are in, and how many
        of the history's outcomes they took (one each, or a roll forced in part: the faces it was followed by)."""
        if self.mods is None or len(history) < len(self.rolled):
            return None
        if history is self._last[0]:  # the driver asks mark, then key, of the same path
            return self._last[1]
        found = self._read_exchange(history)
        self._last = (history, found)
        return found

    def _read_exchange(self, history: History) -> tuple[Exchange, int] | None:
        assert self.mods is not None
        totals: dict[str, tuple[int, bool]] = dict(self.fixed)
        at = 0
        for label in self.rolled:
            if label in self.partial:
                end = at
                while end < len(history) and history[end][0] in (label, f"{label}.botch"):
                    end += 1
                read = self._partial_roll(label, history[at:end])
                if read is None:
                    return None
                total, botched = read
                at = end
            else:
                value = history[at][1] if at < len(history) and history[at][0] == label else None
                if not isinstance(value, tuple):
                    return None
                total, botched = value[0], value[1] > 0
                at += 1
            totals[label] = (0 if botched else total + self.mods[label], botched)
        a_total, a_botched = totals["attack"]
        d_total, d_botched = totals.get("defense", (0, False))
        hit = a_total > d_total
        advantage = not hit and earns_advantage(self.rule, a_total, d_total)
        return (hit, a_total - d_total if hit else 0, advantage, a_botched, d_botched), at

    def _partial_roll(self, label: str, faces: History) -> tuple[int, bool] | None:
        """A stress roll forced in part, followed by ``faces``: its total and botch by the dice source's own
        roll, or None while its chain is still going (a 1 doubles again)."""
        main, botch = self.partial[label]
        given = {label: main + [int(str(f)) for name, f in faces if name == label],
                 f"{label}.botch": botch + [int(str(f)) for name, f in faces if name != label]}
        dice = DiceSource(given, rng=_NoDraw())
        try:
            roll = dice.stress(label, self.botch_dice)
        except _Incomplete:
            return None
        if dice.unused():
            return None
        return roll.total, roll.botches > 0

    def key(self, history: History, resolution: Resolution | None) -> State | None:
        if history and history[-1][0] == "shock" and history[-1][1] in SHOCK_LEAF:
            # the shock roll is the blow's last; it changes only what the leaf says of it, so every result
            # shares the run that came before it (and the leaf takes each result's reading)
            return State(("shock", history[:-1]), (("shock", SHOCK_LEAF[history[-1][1]]),))
        if len(history) == 1 and history[0][0] == "targeting":
            # a damaging spell: only whether Targeting passed (or botched) shapes what follows
            targeting = None if resolution is None else _struck(resolution.outcome)
            if not isinstance(targeting, CastOutcome) or targeting.targeting is None:
                return None
            return State(("targeting", targeting.targeting.passed, targeting.targeting.botched))
        read = self._exchange(history)
        exchange = None if read is None else read[0]
        if history and history[-1][0] == "location" and labels(history).count("location") == 1:
            return self._wound(history[-1][1], exchange, resolution)
        if read is None or read[1] != len(history):
            return None
        hit, excess, advantage, a_botched, d_botched = read[0]
        if hit and self.places and len(self.offsets) == len(self.places):
            # every location's constant is known: the excess matters only through the injury
            # band it gives at each location
            # past the top band's start at the least protected place every place is in the top band: the
            # long stress-die tails all read the same
            excess = min(excess, self.catalog.injury_bands[-1] - min(self.offsets.values()))
            bands = self._bands.get(excess)
            if bands is None:
                bands = tuple(self.catalog.band_index(excess + self.offsets[p]) for p in self.places)
                self._bands[excess] = bands
            # a botch changes only what the leaf says of it (a botched attack still hits a Defense Total below
            # 0): the band's future is shared and each path keeps its own botches
            return State(("bands", bands), _botches(a_botched, d_botched))
        return State(("exchange", hit, excess if hit else 0, advantage, a_botched, d_botched))

    def _wound(self, group: Hashable, exchange: Exchange | None,
               resolution: Resolution | None) -> State | None:
        """After the location roll: what the wound's rolls depend on (its code, the kind of limb, the side that
        may drop a weapon). Every location giving the same shares them; the leaf keeps its own location."""
        place = self._place(group)
        if exchange is not None and place in self.offsets:
            band = self.catalog.band_index(exchange[1] + self.offsets[place])
        elif resolution is not None and (impact := _struck(resolution.outcome).blow.effective_impact) is not None:
            band = self.catalog.band_index(impact)
        else:
            return None
        loc = self.catalog.locations[place[0]]
        side = (HANDS[1] if place[1] else HANDS[0]) if loc.paired else None
        code = None if band is None else loc.injuries[band]
        top = band == len(self.catalog.injury_bands) - 1
        if exchange is not None:
            botches = _botches(exchange[3], exchange[4])
        elif resolution is not None:
            botches = _botches(*_exchange_botches(_struck(resolution.outcome)))
        else:
            return None
        return State(("wound", code, loc.limb, side if loc.limb else None, loc.amputation, loc.severing_kills, top),
                     (("location", loc.key), ("side", side), *botches))

    def same_next(self, history: History) -> bool:
        """The Defense roll follows the Attack roll whatever it showed (the defender's state decides it)."""
        if self.rolled != ("attack", "defense") or self.mods is None or "defense" in self.partial:
            return False
        if "attack" not in self.partial:
            return len(history) == 1 and history[0][0] == "attack"
        # an attack forced in part: once its chain is complete
        return all(name in ("attack", "attack.botch") for name, _ in history) and \
            self._partial_roll("attack", history) is not None

    def observe(self, history: History, resolution: Resolution) -> None:
        read = self._exchange(history)
        impact = _struck(resolution.outcome).blow.effective_impact
        group = last(history, "location")
        if read is None or impact is None or group is None:
            return
        self.offsets.setdefault(self._place(group), int(impact) - read[0][1])

    def mark(self, history: History) -> tuple[str, Hashable] | None:
        if self.mods is None or len(history) < len(self.rolled):
            return None
        read = self._exchange(history)
        if read is None or read[1] != len(history) or not read[0][0]:
            return None
        return "excess", read[0][1]

    def leaf(self, resolution: Resolution) -> Leaf:
        out = _struck(resolution.outcome)
        wounding, injury = out.wounding, out.wounding.injury
        attack_botched, defense_botched = _exchange_botches(out)
        decision = wounding.gm_decision
        return make_leaf([
            ("hit", out.hit),
            ("attack_botched", attack_botched),
            ("defense_botched", defense_botched),
            ("tactical_advantage", isinstance(out, AttackOutcome) and out.advantage_to is not None),
            ("location", out.blow.location),
            ("side", out.blow.side),
            ("code", injury.code if injury else None),
            ("levels", injury.levels if injury else 0),
            ("bleeding", injury.bleeding if injury else False),
            ("amputation", _result(wounding.amputation)),
            ("severed", wounding.severed is not None),
            ("kill", _result(wounding.kill)),
            ("shock", _result(wounding.shock)),
            ("limb", _result(wounding.fumble) or _result(wounding.stumble)),
            ("dropped", wounding.dropped is not None),
            ("dead", "dead" in out.conditions),
            ("incapacitated", "incapacitated" in out.conditions),
            ("gm_decision", decision.kind if decision else None),
        ])


def _struck(outcome: Outcome) -> AttackOutcome | CastOutcome:
    """The attack or spell the odds follow (the only actions ``rules.odds`` runs for ars-harn)."""
    if not isinstance(outcome, AttackOutcome | CastOutcome):
        raise TypeError(f"ars-harn odds follow an attack or a spell, not {type(outcome).__name__}")
    return outcome


def _exchange_botches(out: AttackOutcome | CastOutcome) -> tuple[bool, bool]:
    return (out.attack_botched, out.defense_botched) if isinstance(out, AttackOutcome) else (False, False)


def _result(check: Check | None) -> str | None:
    """A follow-up check as a leaf reads it: passed, failed, botched, automatic (failed without a roll), or None."""
    if check is None:
        return None
    if check.automatic:
        return "automatic"
    if check.passed is None:
        return None
    return "passed" if check.passed else ("botched" if check.botched else "failed")


class _Incomplete(Exception):
    """A stress roll forced in part asked for a face its path has not shown yet."""


class _NoDraw(Random):
    """The generator of a dice source that must only use the faces given."""

    def randint(self, a: int, b: int) -> int:
        raise _Incomplete


def _botches(attack: bool, defense: bool) -> Leaf:
    """The exchange's botches as the leaf reads them, kept by a path through a shared wound."""
    return (("attack_botched", attack), ("defense_botched", defense))


def _failed(value: Hashable) -> bool:
    return value in ("failed", "botched", "automatic")


def _mean_excess(dist: Distribution, hit: float) -> float | None:
    """The mean excess on a hit. It is tallied on the paths, not the leaves (a shared wound's leaves are reached
    from many excesses). None for a spell, which has no excess."""
    excesses = dist.marginals.get("excess")
    if not hit:
        return 0.0
    if excesses is None:
        return None
    # over the hits' own mass, so a follow-up roll's cut-off tail below a hit does not weigh on it
    return sum(float(str(e)) * q for e, q in excesses.items()) / sum(excesses.values())


def summarize(dist: Distribution) -> dict[str, Any]:
    """The numbers a player decides on first; ``detail`` holds the rest."""
    p = dist.prob
    hit = p(lambda r: bool(r["hit"]))
    severity: dict[str, float] = {}
    for name, q in spread(dist, "code").items():
        key = "none" if name == "none" else SEVERITY.get(name[0], name)
        severity[key] = severity.get(key, 0.0) + q
    levels = sum(float(str(row["levels"])) * q for row, q in dist.rows())
    return {
        "hit": hit,
        "injury": p(lambda r: r["code"] is not None),
        "grievous_or_worse": severity.get("grievous", 0.0) + severity.get("kill", 0.0),
        "kill_roll": p(lambda r: r["kill"] is not None),
        "kill_failed": p(lambda r: _failed(r["kill"])),
        "dead": p(lambda r: bool(r["dead"])),
        "shock_failed": p(lambda r: _failed(r["shock"])),
        "detail": {
            "miss": p(lambda r: not r["hit"]),
            "severity": severity,
            "location": spread(dist, "location", lambda r: bool(r["hit"])),
            "code": spread(dist, "code"),
            "mean_excess_on_hit": _mean_excess(dist, hit),
            "bleeding": p(lambda r: bool(r["bleeding"])),
            "amputation_roll": p(lambda r: r["amputation"] is not None),
            "severed": p(lambda r: bool(r["severed"])),
            "limb_roll_failed": p(lambda r: _failed(r["limb"])),
            "incapacitated": p(lambda r: bool(r["incapacitated"])),
            "tactical_advantage": p(lambda r: bool(r["tactical_advantage"])),
            "attack_botched": p(lambda r: bool(r["attack_botched"])),
            "expected_injury_levels": levels,
        },
    }
