"""Opposed resolution (seed: "both combatants roll their respective modified Combat Skills")."""

from __future__ import annotations

from rules.dice import CRITICAL, SUCCESS

SUCCESSES = (CRITICAL, SUCCESS)
NOBODY = "none"


def compare(a_result: str, a_total: int, d_result: str, d_total: int) -> tuple[str, bool]:
    """(winner, tie) for two roll-under results: "attacker", "defender" or "none".

    One success against a failure wins; two failures leave two losers; a critical beats a success;
    two successes go to the higher roll; the same successful number, or two criticals, is a tie.
    """
    a_ok = a_result in SUCCESSES
    d_ok = d_result in SUCCESSES
    if a_ok != d_ok:
        return ("attacker" if a_ok else "defender"), False
    if not a_ok:
        return NOBODY, False
    if a_result == CRITICAL and d_result == CRITICAL:
        return NOBODY, True
    if a_result == CRITICAL:
        return "attacker", False
    if d_result == CRITICAL:
        return "defender", False
    if a_total == d_total:
        return NOBODY, True
    return ("attacker" if a_total > d_total else "defender"), False
