"""The statistics behind simulate and compare, checked against published values."""

from __future__ import annotations

import io
import math

import pytest
from scripted import ROOT

from rulelang.sim.compare import compare_summaries, sentence
from rulelang.sim.stats import Moments, newcombe, t_quantile, welch, wilson


@pytest.mark.parametrize(("x", "n", "lo", "hi"), [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3 (score).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombe_table(x: int, n: int, lo: float, hi: float) -> None:
    got = wilson(x, n)
    assert got == pytest.approx((lo, hi), abs=1e-4)


def test_wilson_all_successes_and_no_games() -> None:
    assert wilson(20, 20)[1] == 1.0 and wilson(20, 20)[0] == pytest.approx(1 - 0.1611, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("x1", "n1", "x2", "n2", "d", "lo", "hi"), [
    # Newcombe (1998), "Interval estimation for the difference between independent proportions", method 10.
    (48, 80, 56, 70, 0.2, 0.0524, 0.3339),
    (3, 10, 9, 10, 0.6, 0.1705, 0.8090),
])
def test_newcombe_difference_matches_published_values(x1, n1, x2, n2, d, lo, hi) -> None:
    got = newcombe(x1, n1, x2, n2)
    assert got == pytest.approx((d, lo, hi), abs=1e-4)


@pytest.mark.parametrize(("df", "t", "tol"), [
    (1, 12.7062, 1e-4), (2, 4.3027, 1e-4), (3, 3.1824, 5e-3), (5, 2.5706, 1e-3), (10, 2.2281, 1e-4),
    (30, 2.0423, 1e-4), (120, 1.9799, 1e-4),
])
def test_t_quantile_matches_tables(df: int, t: float, tol: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(t, abs=tol)


def test_moments_and_t_interval() -> None:
    m = Moments.of([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    assert (m.n, m.mean, m.lo, m.hi) == (8, 5.0, 2.0, 9.0)
    assert m.sd == pytest.approx(math.sqrt(32 / 7))
    lo, hi = m.interval()
    half = 2.3646 * math.sqrt(32 / 7) / math.sqrt(8)  # t(0.975, 7) = 2.3646
    assert (lo, hi) == pytest.approx((5 - half, 5 + half), abs=2e-3)
    assert Moments.of([]).n == 0 and Moments.of([3.0]).interval() == (3.0, 3.0)


def test_welch_by_hand() -> None:
    a = Moments(10, 20.0, 4.0, 0, 0)
    b = Moments(20, 23.0, 6.0, 0, 0)
    va, vb = 16 / 10, 36 / 20
    df = (va + vb) ** 2 / (va**2 / 9 + vb**2 / 19)  # Welch-Satterthwaite: 11.56 / 0.45497 = 25.41
    half = t_quantile(0.975, df) * math.sqrt(va + vb)
    d, lo, hi = welch(a, b)
    assert d == 3.0
    assert df == pytest.approx(25.41, abs=0.01)
    assert (lo, hi) == pytest.approx((3 - half, 3 + half))
    # t(0.975, 25.41) = 2.0579, between the tables' 2.0595 (df 25) and 2.0555 (df 26)
    assert lo == pytest.approx(3 - 2.0579 * math.sqrt(3.4), abs=1e-3)


def _summary(wins_p1: float, games: int, turns_mean: float) -> dict:
    m = {"n": games, "mean": turns_mean, "sd": 2.0, "min": 0, "max": 0, "ci": [0, 0]}
    return {"games": games, "seed": 1, "win_rate": {"P1": wins_p1 / games, "P2": 1 - wins_p1 / games},
            "wins": {"P1": wins_p1, "P2": games - wins_p1}, "first_player": {"games": 0},
            "keys": {}, "sheets": {}, "payoff": {}, "turns": m, "steps": m}


def test_compare_flags_only_real_differences() -> None:
    rows = compare_summaries(_summary(48, 80, 10.0), _summary(56, 80, 10.1))
    p1 = next(r for r in rows if r["name"] == "win rate" and r["seat"] == "P1")
    assert p1["diff"] == pytest.approx(0.1)
    assert not p1["significant"] and p1["sentence"] is None
    rows = compare_summaries(_summary(20, 100, 10.0), _summary(60, 100, 12.0))
    p1 = next(r for r in rows if r["name"] == "win rate" and r["seat"] == "P1")
    assert p1["significant"] and p1["ci"][0] > 0
    assert p1["sentence"].startswith("P1 wins more often in B: 60.0% in B against 20.0% in A (+40.0 points")
    turns = next(r for r in rows if r["name"] == "turns")
    assert turns["significant"] and sentence(turns).startswith("Games are longer in B (turns): 12.00 in B")


# Student's sleep data (Cushny and Peebles 1905), as in R's `sleep`: extra hours of sleep per patient.
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def test_welch_matches_r_on_the_sleep_data() -> None:
    # R: t.test(extra ~ group, data = sleep): df = 17.776, 95% CI -3.3654832 0.2054832 (group 1 - group 2).
    d, lo, hi = welch(Moments.of(SLEEP_1), Moments.of(SLEEP_2))
    assert d == pytest.approx(1.58)
    assert (lo, hi) == pytest.approx((-0.2054832, 3.3654832), abs=1e-3)


def test_paired_matches_r_on_the_sleep_data() -> None:
    # R: t.test(sleep$extra[11:20], sleep$extra[1:10], paired = TRUE): 95% CI 0.7001142 2.4598858.
    from rulelang.sim.compare import paired

    d, lo, hi = paired(SLEEP_1, SLEEP_2)
    assert d == pytest.approx(1.58)
    assert (lo, hi) == pytest.approx((0.7001142, 2.4598858), abs=1e-3)


def test_paired_comparison_of_runs() -> None:
    from rulelang.sim.compare import compare_runs
    from rulelang.sim.runner import GameRecord

    def record(i: int, winner: int, score_shift: float, turns: int) -> GameRecord:
        return GameRecord(index=i, seed=i + 1, winners=(winner,), ranks=(1, 2) if winner == 0 else (2, 1),
                          keys=((10.0 + i + score_shift,), (5.0 + i,)), sheets=((), ()),
                          payoffs=(1.0, 0.0) if winner == 0 else (0.0, 1.0), steps=turns * 3, turns=turns, first=0)

    a = [record(i, i % 2, 0.0, 20 + i % 5) for i in range(40)]
    same = compare_runs(_two(a), _two(a), a, a)
    assert all(r["diff"] == 0 and not r["significant"] for r in same)
    # B: P1 scores exactly 1 more in every game; the spread between games (0..39) does not hide it.
    b = [record(i, i % 2, 1.0, 20 + i % 5) for i in range(40)]
    rows = compare_runs(_two(a), _two(b), a, b)
    score = next(r for r in rows if r["name"] == "score" and r["seat"] == "P1")
    assert score["diff"] == pytest.approx(1.0) and score["ci"] == pytest.approx([1.0, 1.0]) and score["significant"]
    assert score["sentence"] == ("score for P1 is higher in B: 30.50 in B against 29.50 in A "
                                 "(+1.00, 95% CI +1.00 to +1.00).")
    assert not next(r for r in rows if r["name"] == "win rate" and r["seat"] == "P1")["significant"]


def _two(records) -> dict:
    return {"players": 2, "keys": {"score": {}}, "games": len(records)}


def test_the_text_says_who_went_first_next_to_the_win_rate_by_seat() -> None:
    """Issue 26: 'P1 wins 31%' beside 'First player wins 21%' must say that who starts varies."""
    from rulelang.agents.spec import AgentSpec
    from rulelang.game import load_game
    from rulelang.sim.driver import simulate
    from rulelang.sim.runner import SimJob
    from rulelang.sim.summary import render_text, summarize

    path = str(ROOT / "games/chicken.rules")
    job = SimJob(path, (), 2, (AgentSpec("random"), AgentSpec("random")), seed=3)
    records, _ = simulate(job, 40, jobs=1)
    summary = summarize(load_game(path), job, records)
    by_seat = summary["first_player"]["by_seat"]
    assert by_seat["P1"] and by_seat["P2"] and by_seat["P1"] + by_seat["P2"] == 40  # Chicken! draws who starts
    share = f"P1 {100 * by_seat['P1'] / 40:.1f}%, P2 {100 * by_seat['P2'] / 40:.1f}% of games"
    assert any(f"Who goes first changes from game to game: {share}" in line for line in render_text(summary))
    summary["first_player"]["by_seat"] = {"P1": 40, "P2": 0}  # as a game where P1 always starts
    assert "  (P1 went first in every game.)" in render_text(summary)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal_and_writes_whole_lines_elsewhere() -> None:
    from rulelang.sim.driver import Progress

    log = io.StringIO()  # a log file or a pipe: no carriage returns, one line at the end
    progress = Progress(3, stream=log)
    progress(1)
    progress(1)
    progress(1)
    progress.close()
    assert log.getvalue().startswith("playing: 3/3 games (") and log.getvalue().count("\n") == 1
    assert "\r" not in log.getvalue()
    tty = _Tty()
    progress = Progress(2, stream=tty)
    progress(1)
    progress(1)
    progress.close()
    assert tty.getvalue().startswith("\rplaying: 1/2 games (") and "\rplaying: 2/2 games (" in tty.getvalue()
    assert tty.getvalue().endswith("\n")
