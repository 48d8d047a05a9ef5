"""Saved points: an attack's excess kept for a later attack, and spent on it (docs/rules/ars-harn.md, ruling 4).

Seed: points saved for more than one round may not exceed 3 x weapon skill. The attack takes the store as
it finds it (``draw``), adds what it spends to its Attack or Damage Total (``attack_parts``,
``damage_bonus``), empties it once spent (``spent``) and may put its own excess back (``save_excess``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.ars_harn.character import Character
from rules.ars_harn.rulings import Rulings


@dataclass(frozen=True)
class SavedPoints:
    """The attacker's store as one attack finds it, after the cap."""

    stored: int  # the points in the store, cut to the cap if they have been saved long enough
    rounds: int  # rounds they have been saved, counting this attack if it holds them
    spend: int  # what this attack spends (0 when it holds them: use_saved false)
    held: bool  # kept through this attack (and aged a round by it)
    cap: int  # 3 x the attack's weapon ability
    capped: bool  # the store was cut to the cap
    use: str  # ruling saved_points_use: what the spent points add to
    cap_rule: str  # ruling saved_points_cap: when the cap applies

    def attack_parts(self) -> dict[str, int]:
        """The Attack Total's share of the points spent (none when they go to the Damage Total)."""
        return {"saved_points": self.spend} if self.spend and self.use == "attack_total" else {}

    def damage_bonus(self) -> int:
        """The Damage Total's share of the points spent (lost on a miss)."""
        return self.spend if self.spend and self.use == "damage_total" else 0

    def record_fields(self) -> dict[str, Any]:
        """The attack record's saved-point fields when the excess is not saved."""
        return dict(saved_points_used=self.spend, saved_points_capped=self.capped,
                    saved_points_cap=self.cap if self.capped else None)


def draw(attacker: Character, ability: int, use_saved: bool, rulings: Rulings) -> tuple[SavedPoints, Character]:
    """Take the attacker's store for an attack with a weapon of ``ability``: points kept through this attack
    (``use_saved`` false) are carried past another round, so the cap applies to them now; points spent after
    being held that long are capped as they are spent."""
    stored, rounds, cap = attacker.saved_points, attacker.saved_rounds, 3 * ability
    held = stored > 0 and not use_saved
    if held:
        rounds = max(rounds, 1) + 1
    long_saved = rounds > 1 or rulings.saved_points_cap == "always"
    capped = stored > 0 and long_saved and stored > cap
    if capped:
        stored = cap
    if held:
        attacker = replace(attacker, saved_points=stored, saved_rounds=rounds)
    saved = SavedPoints(stored=stored, rounds=rounds, spend=stored if use_saved else 0, held=held, cap=cap,
                        capped=capped, use=rulings.saved_points_use, cap_rule=rulings.saved_points_cap)
    return saved, attacker


def spent(attacker: Character, saved: SavedPoints) -> Character:
    """The store emptied once the attack has spent it."""
    return replace(attacker, saved_points=0, saved_rounds=0) if saved.spend else attacker


def save_excess(attacker: Character, saved: SavedPoints, excess: int) -> tuple[Character, dict[str, Any]]:
    """Keep a hit's ``excess`` instead of dealing damage; the attack record's fields for it.

    Points from earlier rounds stay in the store (spent into the Attack Total, they are inside the excess
    already); with any of them, the points have been saved over two rounds."""
    carried = saved.stored
    total = excess if (saved.spend and saved.use == "attack_total") else carried + excess
    capped = (carried > 0 or saved.cap_rule == "always") and total > saved.cap
    if capped:
        total = saved.cap
    # held points have already been aged a round by draw
    rounds = (saved.rounds if saved.held else saved.rounds + 1) if carried else 1
    fields = dict(excess_saved=True, saved_points_capped=capped or saved.capped, saved_points_cap=saved.cap)
    return replace(attacker, saved_points=total, saved_rounds=rounds), fields
