"""How the evening bench shows growth: two halves of the tables measured in turn, each point the median of its
rounds with their range, and a comparison as the median of the rounds' differences (made-up figures)."""

from __future__ import annotations

from bench import evening
from bench.evening import Growth


def test_halves_have_the_same_kinds_of_table() -> None:
    # the tables as add_tables makes them: the GM rolls at every other one, guards at two of every four
    tables = [evening.Table(None, None, gm_rolls=g % 2 == 1, guards=8 if g % 4 >= 2 else 0)  # type: ignore[arg-type]
              for g in range(8)]
    players = [evening.Player(None, t, evening.Tally()) for t in tables]  # type: ignore[arg-type]
    first, second = evening.halves(players)
    kinds = [sorted((p.table.gm_rolls, p.table.guards > 0) for p in half) for half in (first, second)]
    assert kinds[0] == kinds[1] == [(False, False), (False, True), (True, False), (True, True)]
    first, second = evening.halves(players[:4])  # four tables: the GM rolls at one of each half
    assert [[(p.table.gm_rolls, p.table.guards > 0) for p in half] for half in (first, second)] == [
        [(False, False), (True, True)], [(True, False), (False, True)]]


def test_a_point_is_the_median_of_its_rounds_and_a_step_the_median_of_their_differences() -> None:
    low, high = Growth("0-7", [4.0, 9.0, 4.2, 4.1], 40), Growth("32-39", [4.6, 4.4, 9.9, 4.5], 40)
    assert low.render() == "0-7: 4.15 (4.00–9.00, 4 rounds, 40 hits)"
    # one slow round on each side, not in the same round: the differences' median is not thrown by them
    assert evening.render_step(low, high) == "+0.50 ms (+12%; the rounds' differences -4.60 to +5.70)"


def test_the_growth_lines_name_both_halves() -> None:
    wounds = [Growth("0-7", [4.0] * 8, 80), Growth("8-9", [4.0] * 2, 20), Growth("10-17", [5.0] * 8, 80),
              Growth("18-19", [5.0] * 2, 20)]
    night = evening.Evening(evening.Tally(), 1.0, 1.0, 0, [], wounds,
                            [Growth("without the burst", [3.0, 3.2], 8), Growth("with 50 more", [3.1, 3.3], 8)],
                            [Growth("2", [3.0], 4), Growth("10", [3.0], 4)], wounds_apart=10)
    lines = evening.render_growth(night)
    assert lines[0].startswith("- by the wounds already on the target (8 rounds of a blow a table a figure; the "
                               "first half's Bandits fresh, the second half's given 10 first): 0-7: 4.00")
    assert lines[1] == "  - 10 more wounds, the same rounds: +1.00 ms (+25%; the rounds' differences +1.00 to +1.00)"
    assert lines[2].endswith("the burst's cost: +0.10 ms (+3%; the rounds' differences +0.10 to +0.10)")
    assert lines[3].endswith("the larger's cost: +0.00 ms (+0%; the rounds' differences +0.00 to +0.00)")
