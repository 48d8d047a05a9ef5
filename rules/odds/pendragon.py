"""Odds for pendragon: the opposed d20s, damage, knockdown, major wound, falls.

States that merge: after the two d20s, what the exchange made of them (the winner, a tie, a critical,
the loser's success for his shield, fumbles; odd faces under the odd-roll lance ruling), worked out
with the engine's own roll and comparison; a natural 1 (a flail may hit its wielder) is read from a run
instead. After the damage roll, what the loser suffers depends only on the damage taken and whether a
knockdown roll is called, whatever the exchange before it was (that part of the leaf is kept as it was).
The first damage total of an exchange is read from a run; the others are worked out from it (the same
multiplier, bonus and armour, the knockdown trigger by the engine's own test), so only a new state costs a run.
A loser who cannot fall (not mounted, not on a wall) suffers the same after a knockdown roll whether he
passed it or not, so both share the future of a blow that called no roll (the leaf keeps "knocked down").
Knockdown, major wound, Valorous and fall rolls read only success or failure.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from rules.dice import CRITICAL, FUMBLE, DiceSource
from rules.model import Resolution, Scenario
from rules.odds.common import check_result, group_faces, labels, make_leaf, spread
from rules.odds.dice import Policy
from rules.odds.tree import Distribution, History, Leaf, State
from rules.pendragon.character import Character, parse_character
from rules.pendragon.context import Ctx
from rules.pendragon.injury import is_major, knockdown_triggered, lose_stat
from rules.pendragon.opposed import SUCCESSES, compare
from rules.pendragon.outcomes import AttackOutcome
from rules.pendragon.rulings import parse_rulings

CHECKS = frozenset({"knockdown", "major_wound", "valorous", "fall"})
# each side's damage dice have their own label (rules.pendragon.combat.damage_label): the winner's blow, then a
# flail's blow to its own wielder, are the first and the second damage roll whichever side's they are
DAMAGE = frozenset({"damage", "defender_damage"})
# the leaf fields the two d20s (and the damage total) decide before the loser's part begins
EXCHANGE_FIELDS = ("winner", "loser", "tie", "critical", "fumble", "weapon_broken", "lance_broken")


@dataclass(frozen=True)
class _Blow:
    """What the first damage total of an exchange showed: enough to work out the others'."""

    loser: str
    multiplier: int  # 2 for a critical that doubles the damage rolled
    bonus: int  # the weapon's bonus added to the dice
    armour: int  # armour and shield the blow meets


@dataclass(frozen=True)
class _Hurt:
    """Whom the winner's damage roll hurts, and how (the rest of the blow's state)."""

    loser: str
    after: _After
    taken: int | None


@dataclass(frozen=True)
class _Wielder:
    """A flail's wielder when his own blow comes (after the winner's, read from the first run through it):
    what that blow's future reads of him, and what the leaf says of everything before it."""

    who: str
    hit_points: int
    char: Character  # his characteristics then (the winner's blow may have cost him one); no wounds
    bonus: int  # added to the damage dice
    armour: int
    fixed: Leaf


@dataclass(frozen=True)
class _After:
    """The rest of a blow's state, the same for every total (of one parity under the odd-damage ruling)."""

    dropped: Hashable
    broken: Hashable
    self_hits: tuple[bool, ...]
    fixed: Leaf


def _attack(resolution: Resolution) -> AttackOutcome:
    """The exchange a run resolved (the odds are only asked of attacks)."""
    out = resolution.outcome
    if not isinstance(out, AttackOutcome):
        raise TypeError(f"Pendragon odds read an attack, not a {type(out).__name__}")
    return out


class PendragonOdds:
    def __init__(self, catalog: Any, scenario: Scenario, probe: Resolution,
                 forced: Mapping[str, Sequence[int]]) -> None:
        out = _attack(probe)
        self.opposed = not out.unopposed
        self.targets: dict[str, int] | None = None
        defender_roll = out.defender_roll if self.opposed else None
        if not ({"attacker", "defender"} & set(forced)):
            self.targets = {"attacker": int(out.attacker_roll.target or 0)}
            if defender_roll is not None:
                self.targets["defender"] = int(defender_roll.target or 0)
        self.odd_rolls = scenario.rulings.get("lance_breaks") == "odd_roll"
        # the d20s the enumeration rolls: a face the user forced is no request (nor the exchange's node)
        self.d20s = tuple(who for who in (("attacker", "defender") if self.opposed else ("attacker",))
                          if who not in forced)
        self.rulings = parse_rulings(scenario.rulings)
        # the engine's own tests (knockdown, major wound, hit points) are asked with faces given: never drawn
        self.unused = Random(0)
        self.ctx = Ctx(catalog, self.rulings, DiceSource(rng=self.unused))
        # a charging lance breaks on an odd damage total: then a total's parity is part of its state
        self.odd_damage = self.rulings.text("lance_breaks") == "odd_damage"
        self.chars: dict[str, Character] = {
            who: parse_character(sheet, catalog, who)
            for who, sheet in (("attacker", scenario.attacker), ("defender", scenario.defender)) if sheet is not None}
        self.catalog = catalog
        self.can_fall = {who: _may_fall(scenario, who) for who in ("attacker", "defender")}
        # the states past the d20s find the winner's blow as the first damage roll asked for: with damage
        # faces forced and a flail that may hit its wielder, the first one asked may be the flail's own
        self.damage_forced = bool(DAMAGE & set(forced)) and _has_flail(catalog, scenario)
        self.blows: dict[History, _Blow] = {}  # by the d20s' history
        self.afters: dict[tuple[History, int | None], _After] = {}
        self.damage_states: dict[History, tuple[Hashable, Leaf]] = {}  # a blow calling a knockdown roll
        self.losers: dict[History, _Hurt] = {}  # by the history up to the winner's damage roll
        self.wielders: dict[History, _Wielder] = {}  # by the history up to a flail's blow to its wielder
        self.table = table = catalog.combat.stat_loss
        self.table_loss = int(catalog.combat.stat_loss_amount)
        # the most a fall adds to its dice (from a horse or a wall: a fall wound's size, at the most)
        self.fall_bonus = max(catalog.combat.knockdown_fall_damage.bonus, catalog.combat.unconscious_fall_damage.bonus)
        self.knockdown_fall_bonus = catalog.combat.knockdown_fall_damage.bonus
        self.unconscious_fall_bonus = catalog.combat.unconscious_fall_damage.bonus
        # Statistics Lost comes last in the blow; a characteristic nothing after it reads is as good as no
        # loss: APP always; DEX unless someone could still fall (a rider, a man on a wall); STR unless a
        # flail may yet hit its own wielder (its damage dice)
        inert = {"app"}
        if not any(_may_fall(scenario, who) for who in ("attacker", "defender")):
            inert.add("dex")
        if not _has_flail(catalog, scenario):
            inert.add("str")
        # and when each side takes one wound at most (no fall, no flail), only the Statistics Lost roll's
        # effect on hit points (SIZ + CON) is read after it: SIZ and CON are one outcome
        same = {"siz": "hit points", "con": "hit points"} if {"dex", "str"} <= inert else {}

        def meaning(face: int) -> Hashable:
            stat = table.get(face)
            return None if stat in (None, *inert) else same.get(stat, stat)

        self.policy = Policy(by_result=CHECKS, face_groups=lambda label, sides: (
            group_faces(1, 6, meaning) if label == "stat_loss" and sides == 6 else None))

    def _exchange(self, history: History) -> Hashable | None:
        if self.targets is None:
            return None
        results: dict[str, tuple[str, int]] = {}
        parity = []
        for (label, face), who in zip(history, ("attacker", "defender"), strict=False):
            if label != who or not isinstance(face, int) or face == 1:
                return None  # a natural 1: whether a flail hits its wielder is read from a run
            roll = DiceSource({who: [face]}, rng=self.unused).pendragon(who, self.targets[who])
            results[who] = (roll.result or "", roll.total)
            parity.append(face % 2 if self.odd_rolls else 0)
        a = results["attacker"]
        if "defender" in results:
            d = results["defender"]
            winner, tie = compare(a[0], a[1], d[0], d[1])
        else:
            d = ("", 0)
            winner, tie = ("attacker" if a[0] in SUCCESSES else "none"), False
        loser_ok = (d if winner == "attacker" else a)[0] in SUCCESSES
        critical = winner != "none" and results[winner][0] == CRITICAL
        fumbles = tuple(r[0] == FUMBLE for r in (a, d))
        return ("exchange", winner, tie, critical, loser_ok, fumbles, a[0] == CRITICAL and d[0] == CRITICAL,
                tuple(parity))

    def key(self, history: History, resolution: Resolution | None) -> State | None:
        if self.damage_forced and history and history[-1][0] not in self.d20s:
            return None
        if history and history[-1][0] == "stat_loss" and labels_before(history):
            return self._stat_lost(history)
        if history and history[-1][0] == "fall_damage" and labels_before(history):
            return self._knocked_off(history)
        if history and history[-1][0] == "valorous" and labels_before(history):
            # a failed Valorous roll only takes the loser out of the fight, which nothing after it reads: both
            # results share the future of the first (a pass; a later failure still shows through it)
            return State(("valorous", history[:-1]), (("out_of_fight", True),) if history[-1][1] == "failed" else ())
        if labels(history) == self.d20s:
            found = self._exchange(history)
            if found is not None:
                return State(found)
            if resolution is None:
                return None
            out = _attack(resolution)
            rolls = tuple((r.result, r.natural_1, int(r.face or 0) % 2)
                          for r in (out.attacker_roll, out.defender_roll) if r is not None)
            return State(("exchange-run", rolls, out.winner, out.tie, out.critical,
                          tuple("natural_1_hits_self" in out.events.of(w) for w in ("attacker", "defender"))))
        if history and history[-1][0] in DAMAGE and labels_before(history):
            return self._blow(history, resolution)
        if history and history[-1][0] in DAMAGE and _damage_rolls(history) == 2:
            return self._own_blow(history, resolution)
        if history and history[-1][0] == "stat_loss" and isinstance(history[-1][1], tuple):
            damage = [i for i, (name, _) in enumerate(history) if name in DAMAGE]
            if len(damage) == 2 and history[:damage[1]] in self.wielders:
                # the last roll of a flail's blow to its own wielder (who cannot fall): only his hit points
                # are read after it
                stat = self.table.get(history[-1][1][0])
                return State(("own stat lost", history[:-1], "hit points" if stat in ("siz", "con") else None))
        if history and history[-1][0] == "knockdown" and history[:-1] in self.damage_states:
            # a loser who cannot fall: passed or failed, the same future as a blow calling no roll
            key, fixed = self.damage_states[history[:-1]]
            return State(key, (*fixed, ("knocked_down", history[-1][1] != "passed")))
        return None

    def _blow(self, history: History, resolution: Resolution | None) -> State | None:
        """The state after the winner's damage roll, read from a run or worked out from an earlier one."""
        prefix, total = history[:-1], history[-1][1]
        blow = self.blows.get(prefix)
        parity: int | None = None
        if blow is not None and isinstance(total, int):
            parity = (total + blow.bonus) % 2 if self.odd_damage else None
            after = self.afters.get((prefix, parity))
            if after is not None:
                rolled = blow.multiplier * (total + blow.bonus)
                triggered, automatic = knockdown_triggered(self.ctx, self.chars[blow.loser], rolled)
                kind = None if not triggered else ("automatic" if automatic else "roll")
                return self._state(history, blow.loser, max(0, rolled - blow.armour), kind, after)
        if resolution is None:
            return None
        out = _attack(resolution)
        knock = out.knockdown
        kind = None if knock is None else ("automatic" if knock.automatic else "roll")
        leaf = dict(self.leaf(resolution))
        after = _After(out.weapon_dropped, out.weapon_broken,
                       tuple("natural_1_hits_self" in out.events.of(w) for w in ("attacker", "defender")),
                       tuple((name, leaf[name]) for name in EXCHANGE_FIELDS))
        loser, doubled, dice_total = out.loser, out.damage_rolled, out.damage_roll_total
        if isinstance(total, int) and doubled is not None and dice_total is not None and dice_total > 0:
            # everything before the damage roll is fixed by the history: learn how its other totals read
            blow = _Blow(loser, doubled // dice_total, dice_total - total, int(out.armour or 0))
            self.blows.setdefault(prefix, blow)
            self.afters.setdefault((prefix, dice_total % 2 if self.odd_damage else None), after)
        return self._state(history, loser, out.damage_taken, kind, after)

    def _own_blow(self, history: History, resolution: Resolution | None) -> State | None:
        """A flail's blow to its own wielder (a natural 1), after the winner's blow to him. What follows reads
        only his hit points less the wound, whether it is major or mortal (the engine's own tests), his
        characteristics, whether he was already unconscious or dying, and the rolls of the winner's blow
        (a failed Valorous roll, a lost characteristic). Every blow before it that leaves him the same shares
        it; the leaf keeps what the exchange and the first blow made of him. Only for a wielder who cannot
        fall (a fall would read how he came down) and was the loser (the leaf reads the loser)."""
        prefix, total = history[:-1], history[-1][1]
        found = self.wielders.get(prefix)
        if found is None and resolution is not None:
            found = self._learn_wielder(prefix, total, resolution)
        if found is None or not isinstance(total, int):
            return None
        first = next(i for i, (name, _) in enumerate(prefix) if name in DAMAGE)
        # the winner's blow as it reads now: its rolls (a failed Valorous or conscious roll, a lost
        # characteristic), whether it was a major wound, and whether it left him under his Unconscious value or
        # at 0 hit points
        ctx, char = self.ctx, found.char
        derived = ctx.derived(char)
        rolls = prefix[first + 1:]
        left = found.hit_points
        unconscious = left < derived.unconscious or ("major_wound", "failed") in rolls
        before = (tuple(sorted(char.stats.items())), ("valorous", "failed") in rolls, dict(found.fixed)["major_wound"],
                  unconscious, left <= 0)
        taken = max(0, total + found.bonus - found.armour)
        if taken == 0:  # nothing more happens to him
            return State(("own blow", found.who, before, None), found.fixed)
        left -= taken
        if not is_major(ctx, char, taken):
            # no roll follows: only where his hit points now stand against the two thresholds
            after: tuple[Hashable, ...] = (False, left < derived.unconscious, left <= 0)
        elif unconscious or left < derived.unconscious:
            # collapsed: no conscious or Valorous roll, and a lost SIZ or CON (1 hit point) can only make him dying
            after = (True, "collapsed", min(max(left, 0), 1 + self.table_loss))
        else:  # the conscious roll is made against his hit points, and Statistics Lost may lower them
            after = (True, "standing", left)
        return State(("own blow", found.who, before, after), found.fixed)

    def _learn_wielder(self, prefix: History, total: Hashable, resolution: Resolution) -> _Wielder | None:
        out = _attack(resolution)
        own = out.self_hit
        if own is None or not isinstance(total, int) or own.major_wound:
            return None  # a major wound of his own may cost a characteristic: his hit points before are unknown
        who = own.who
        hits = [w for w in ("attacker", "defender") if "natural_1_hits_self" in out.events.of(w)]
        if hits != [who] or out.loser != who or self.can_fall.get(str(who), True):
            return None
        char = self.chars[str(who)]
        for name, value in prefix:  # the characteristics the winner's blow cost him, by the engine's own roll
            if name == "stat_loss" and isinstance(value, tuple):
                lost = DiceSource({"stat_loss": [value[0]]}, rng=self.unused)
                char, _ = lose_stat(Ctx(self.catalog, self.rulings, lost), char, None)
        leaf = dict(self.leaf(resolution))
        fixed = tuple((name, leaf[name]) for name in
                      (*EXCHANGE_FIELDS, "damage_taken", "knocked_down", "major_wound", "fall", "self_hit"))
        found = _Wielder(str(who), int(own.hit_points or 0) + own.damage_taken, char,
                         own.damage_rolled - total, own.armour, fixed)
        self.wielders[prefix] = found
        return found

    def _knocked_off(self, history: History) -> State | None:
        """A rider knocked off his horse by the blow, before its wound: when the fall is no major wound, what
        follows reads only the hit points both leave him (and whether the blow's is a major wound). Blows
        and falls that leave the same share it; the damage taken stays in the leaf."""
        damage = next(i for i, (name, _) in enumerate(history) if name in DAMAGE)
        found = self.losers.get(history[:damage + 1])
        between = history[damage + 1:-1]
        amount = history[-1][1]
        if found is None or found.taken is None or any(found.after.self_hits) or not isinstance(amount, int):
            return None
        char = self.chars[found.loser]
        if between[-1:] == (("fall", "failed"),):
            return self._unconscious_fall(history, char, found.taken, between[:-1], amount)
        if between not in ((), (("knockdown", "failed"),)):
            return None
        fall = amount + self.knockdown_fall_bonus
        if is_major(self.ctx, char, fall):
            return None
        left = self.ctx.hp(char) - fall - found.taken
        return State(("knocked off", found.loser, left, is_major(self.ctx, char, found.taken),
                      found.after.dropped, found.after.broken),
                     (*found.after.fixed, ("damage_taken", found.taken), ("knocked_down", True)))

    def _unconscious_fall(self, history: History, char: Character, taken: int, between: History,
                          amount: int) -> State | None:
        """Fallen unconscious after the blow's wound (not knocked down): the fall's wound decides only
        whether he is dying, so its damage totals are two outcomes at most. His hit points then are his
        own less the blow's damage, after the one Statistics Lost roll its wound may have cost (the engine's
        own roll with that face)."""
        if any(name not in ("knockdown", "major_wound", "valorous", "stat_loss") for name, _ in between) or \
                ("knockdown", "failed") in between or [name for name, _ in between].count("stat_loss") > 1:
            return None
        lost = [value for name, value in between if name == "stat_loss"]
        if lost:
            if not isinstance(lost[0], tuple):
                return None
            forced = DiceSource({"stat_loss": [lost[0][0]]}, rng=self.unused)
            char, _ = lose_stat(Ctx(self.catalog, self.rulings, forced), char, None)
        fall = amount + self.unconscious_fall_bonus
        if is_major(self.ctx, char, fall):
            return None
        return State(("unconscious fall", history[:-1], self.ctx.hp(char) - taken - fall <= 0))

    def _stat_lost(self, history: History) -> State | None:
        """Statistics Lost in the loser's blow, when he will not hit himself: once he cannot fall (on foot and
        off any wall, or fallen already) DEX and STR are not read again, and when it is his last wound
        (he never could fall, or his fall did not make a major wound) only his hit points (SIZ + CON) are."""
        damage = next(i for i, (name, _) in enumerate(history) if name in DAMAGE)
        found = self.losers.get(history[:damage + 1])
        faces = history[-1][1]
        if found is None or any(found.after.self_hits) or not isinstance(faces, tuple):
            return None
        loser = found.loser
        falls = [value for name, value in history[damage + 1:-1] if name == "fall_damage"]
        if self.can_fall.get(loser, True) and not falls:
            return None
        last = not falls or (isinstance(falls[0], int) and not is_major(
            self.ctx, self.chars[loser], falls[0] + self.fall_bonus))
        stat = self.table.get(faces[0])
        if stat in ("siz", "con"):
            return State(("stat_lost", history[:-1], "hit points" if last else stat))
        return State(("stat_lost", history[:-1], None))

    def _state(self, history: History, loser: Any, taken: Any, kind: str | None, after: _After) -> State:
        fixed = after.fixed
        if isinstance(loser, str):
            self.losers[history] = _Hurt(loser, after, taken if isinstance(taken, int) else None)
            if isinstance(taken, int) and self._lethal(loser, taken):
                # every such blow does the same to him (collapse, dying, one Statistics Lost roll, his fall):
                # the damage taken is kept in the leaf
                taken, fixed = "lethal", (*fixed, ("damage_taken", taken))
        key = ("damage", loser, taken, kind, after.dropped, after.broken, after.self_hits)
        if not isinstance(loser, str) or self.can_fall.get(loser, True):
            return State(key, fixed)
        # cannot fall: a knockdown changes only the leaf's "knocked down"
        plain = ("damage", loser, taken, None, after.dropped, after.broken, after.self_hits)
        if kind == "roll":
            self.damage_states[history] = (plain, fixed)
            return State(key, fixed)
        return State(plain, (*fixed, ("knocked_down", kind == "automatic")))

    def _lethal(self, loser: str, taken: int) -> bool:
        """A major, mortal wound that leaves no hit points, by the engine's own tests (a fall before it, or
        the Statistics Lost it costs, only lowers the thresholds: it stays all three)."""
        ctx, char = self.ctx, self.chars[loser]
        return is_major(ctx, char, taken) and taken >= ctx.derived(char).hit_points and ctx.hp(char) - taken <= 0

    def same_next(self, history: History) -> bool:
        """The defender's d20 follows the attacker's whatever it showed (an opposed exchange rolls both)."""
        return len(self.d20s) == 2 and labels(history) == ("attacker",)

    def observe(self, history: History, resolution: Resolution) -> None:
        return None

    def mark(self, history: History) -> tuple[str, Hashable] | None:
        return None

    def leaf(self, resolution: Resolution) -> Leaf:
        out = _attack(resolution)
        knock = out.knockdown
        fumbles = [who for who in ("attacker", "defender")
                   if (roll := out.roll_of(who)) is not None and roll.result == "fumble"]
        return make_leaf([
            ("winner", out.winner),
            ("loser", out.loser),
            ("tie", out.tie),
            ("critical", out.critical),
            ("fumble", ",".join(fumbles) or None),
            ("damage_taken", out.damage_taken),
            ("knocked_down", knock is not None and bool(knock.automatic or not knock.passed)),
            ("major_wound", out.major_wound),
            ("unconscious", out.unconscious),
            ("dying", out.dying),
            ("out_of_fight", "out_of_fight" in out.events.of(out.loser)),
            ("weapon_broken", out.weapon_broken),
            ("lance_broken", out.lance_broken),
            ("self_hit", out.self_hit.who if out.self_hit is not None else None),
            ("fall", check_result(out.fall.to_dict() if out.fall is not None else None)),
        ])


def _may_fall(scenario: Scenario, who: str) -> bool:
    """Whether ``who`` could fall in this action: mounted (on the sheet or by the action), or on a wall."""
    sheet = (scenario.attacker if who == "attacker" else scenario.defender) or {}
    prefix = "" if who == "attacker" else "defender_"
    action = scenario.action
    return bool(sheet.get("mounted") or action.get(f"{prefix}mounted") or action.get(f"{prefix}on_wall"))


def _has_flail(catalog: Any, scenario: Scenario) -> bool:
    """Whether either sheet carries a weapon that can hit its own wielder (unknown names count as one)."""
    for sheet in (scenario.attacker, scenario.defender):
        for entry in (sheet or {}).get("weapons") or []:
            name = entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, Mapping) else None
            weapon = catalog.weapons.get(name) if isinstance(name, str) else None
            if weapon is None or isinstance(entry, Mapping) or weapon.natural_1_hits_self:
                return True
    return False


def _damage_rolls(history: History) -> int:
    return sum(1 for name, _ in history if name in DAMAGE)


def labels_before(history: History) -> bool:
    """The damage roll of the winner's blow (the first one), not a flail's blow to its own wielder."""
    return _damage_rolls(history) == 1


def summarize(dist: Distribution) -> dict[str, Any]:
    p = dist.prob
    damage = spread(dist, "damage_taken", lambda r: r["loser"] == "defender")
    mean = sum(float(k) * q for k, q in damage.items() if k != "none")
    return {
        "win": p(lambda r: r["winner"] == "attacker"),
        "tie": p(lambda r: bool(r["tie"])),
        "loss": p(lambda r: r["winner"] == "defender"),
        "critical": p(lambda r: r["winner"] == "attacker" and bool(r["critical"])),
        "major_wound": p(lambda r: r["loser"] == "defender" and bool(r["major_wound"])),
        "unconscious": p(lambda r: r["loser"] == "defender" and bool(r["unconscious"])),
        "detail": {
            "neither": p(lambda r: r["winner"] == "none" and not r["tie"]),
            "fumble": p(lambda r: r["fumble"] is not None),
            "knockdown": p(lambda r: r["loser"] == "defender" and bool(r["knocked_down"])),
            "dying": p(lambda r: r["loser"] == "defender" and bool(r["dying"])),
            "out_of_the_fight": p(lambda r: r["loser"] == "defender" and bool(r["out_of_fight"])),
            "weapon_broken": p(lambda r: r["weapon_broken"] is not None),
            "damage_taken": dict(sorted(((k, q) for k, q in damage.items()), key=lambda kv: int(kv[0]))),
            "mean_damage_taken": mean,
            "attacker_hurt": p(lambda r: r["loser"] == "attacker"),
        },
    }
