"""Four rewrites, against the code written without them (same games, same traces, same standings, same MCTS
choices, same errors):

- a zone table read inside a loop is looked up once, before the outermost loop that reads it, into a local
  ``Z_n`` (``source_text.zone_locals``);
- ``bool(x)`` whose value is only tested for truth (in an ``if``/``elif``/``while`` test, under ``not``, as an
  operand of ``and``/``or`` so tested) is written ``(x)`` (``source_text.truth_tests``);
- a ``spend`` whose budget or cost is written as a number uses that number: no bound checked on it, no test that
  the cost is at least 1 (``budgets.written_number``);
- a number stored is tested against the bound where it is written, ``bounded`` called only outside the common
  case (``CodeGen.bound``).

Each is also shown to matter: a broken variant of either plays other games or gives other truths here.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, GAMES, budget_outcome, build, flagged_builds, mcts_choices, noticed, plain, trace

from rulelang.agents.base import RandomAgent
from rulelang.check import budgets
from rulelang.compile import blocks, exprs, source_text
from rulelang.errors import RulelangError
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]


FLAGS = [(source_text, "ZONE_LOCALS"), (source_text, "TRUTH_TESTS"), (budgets, "WRITTEN_NUMBERS"),
         (exprs, "INLINE_BOUNDS")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    source, before = new.program.generated.source, old.program.generated.source
    assert re.search(r"^    Z_\d+ = Z\[\d+\]$", source, re.M) and "Z_" not in before  # (applies to every game)
    assert source.count("bool(") < before.count("bool(")
    players = sorted({new.model.min_players, new.model.default_players, new.model.max_players})
    for n, seed in itertools.product(players, range(8)):
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)
        assert trace(new, n, seed) == trace(old, n, seed), (n, seed)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str) -> None:
    path = REPO / example
    new, old = flagged_builds(path, FLAGS)[:2]
    players = new.model.default_players
    for seed in range(6):
        assert plain(new, players, seed) == plain(old, players, seed), seed
        assert trace(new, players, seed) == trace(old, players, seed), seed


@pytest.mark.parametrize("game", ["hippe-kippen", "barnyard", "rule-the-roost"])
def test_mcts_chooses_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 60, 200])
def test_the_step_budget_runs_out_where_it_did(budget: int) -> None:
    path = REPO / "games" / "hippe-kippen.rules"
    outcomes = [budget_outcome(build(path, FLAGS, on, budget), 4, 1) for on in (True, False)]
    assert outcomes[0] == outcomes[1]


def test_a_zone_table_copied_instead_of_read_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a ``Z_n`` that is not the state's own list (here: a copy of it)."""
    path = REPO / "games" / "hippe-kippen.rules"
    right = build(path, FLAGS)

    def copied(lines: list, ind: int) -> list:
        return [(i, text.replace(" = Z[", " = list(Z[").replace("]", "])", 1) if re.fullmatch(
            r"Z_\d+ = Z\[\d+\]", text) else text, sp) for i, text, sp in source_text.zone_locals(lines, ind)]

    with monkeypatch.context() as patch:
        patch.setattr(exprs, "zone_locals", copied)
        patch.setattr(blocks, "zone_locals", copied)
        wrong = build(path, FLAGS)
    assert "= list(Z[" in wrong.program.generated.source
    assert noticed(wrong, right)


def test_zone_locals_rewrites_the_tables_read_in_loops_before_each_loop() -> None:
    lines = [(1, "x = Z[3][st.current]", None), (1, "for v in Z[4]:", None), (2, "y = Z[5][v] + Z[13][v]", None),
             (2, "for w in v:", None), (3, "y += len(Z[5][w])", None), (1, "z = Z[5][0]", None),
             (1, "while Z[6]:", None), (2, "Z[6].pop()", None), (1, "u = XZ[3]", None)]
    out = [(i, t) for i, t, _s in source_text.zone_locals(lines, 1)]
    assert out == [(1, "x = Z[3][st.current]"), (1, "Z_5 = Z[5]"), (1, "Z_13 = Z[13]"), (1, "for v in Z[4]:"),
                   (2, "y = Z_5[v] + Z_13[v]"), (2, "for w in v:"), (3, "y += len(Z_5[w])"), (1, "z = Z[5][0]"),
                   (1, "Z_6 = Z[6]"), (1, "while Z_6:"), (2, "Z_6.pop()"), (1, "u = XZ[3]")]


def test_a_number_out_of_bound_fails_as_bounded_fails(tmp_path: Path) -> None:
    """A counter tripled at every turn passes the bound: the same error, at the same place, either way."""
    path = tmp_path / "grow.rules"
    path.write_text(GROW, encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    assert "MAXNUM" in new.program.generated.source and "MAXNUM" not in old.program.generated.source
    errors = []
    for engine in (new, old):
        with pytest.raises(RulelangError) as exc:  # (no decision: the state is played to the error as it is made)
            engine.new_state(2)
        errors.append(exc.value.format())
    assert errors[0] == errors[1] and "beyond what rulelang keeps" in errors[0]


GROW = """game "Grow"
players 2

section "Setup"

counter n = 1
counter half = 1

setup:
  pass

turn:
  set n to n * 3
  let m = half * 2
  set half to m
  if n < 0:
    end game

rank p by highest n
"""


TESTS = [
    "bool(a)", "not bool(a)", "bool(a) and b", "b or bool(a)", "(bool(a) and (bool(b) or c))",
    "bool(a) == b", "bool(a) != bool(b)", "f(bool(a))", "(bool(a) if c else bool(b))", "(x if bool(a) else y)",
    "bool(a) + 1 > 1", "[bool(a)][0]", "not (bool(a) == c)", "bool(bool(a))", "(bool(a) and b) == c",
]


@pytest.mark.parametrize("test", TESTS)
def test_truth_tests_keep_every_tested_truth(test: str) -> None:
    """Each rewritten test is true exactly when the original is, for lists, numbers and truth values; and a
    ``bool`` whose value is compared, added or passed on stays."""
    (_i, out, _s), = source_text.truth_tests([(1, f"if {test}:", None)])
    assert out.startswith("if ") and out.endswith(":")
    rewritten = out[3:-1]
    values = [[], [0], 0, 2, True, False, None, ""]
    for a, b, c in itertools.product(values, values, [True, False, [], [1]]):
        env = {"a": a, "b": b, "c": c, "x": 1, "y": 0, "f": lambda v: v is True}
        assert bool(eval(test, env)) == bool(eval(rewritten, env)), (test, rewritten, a, b, c)  # noqa: S307
    kept = {"bool(a) == b": 1, "bool(a) != bool(b)": 2, "f(bool(a))": 1, "bool(a) + 1 > 1": 1, "[bool(a)][0]": 1,
            "not (bool(a) == c)": 1, "(bool(a) and b) == c": 1, "bool(bool(a))": 0}
    assert rewritten.count("bool(") == kept.get(test, 0), rewritten


def test_truth_tests_leave_other_lines() -> None:
    lines = [(1, "return bool(a)", None), (1, "x = bool(a) and b", None), (1, "if a: b = bool(c)", None),
             (2, "while bool(q) and r:", None), (1, "elif not bool(a):", None)]
    out = [t for _i, t, _s in source_text.truth_tests(lines)]
    assert out == ["return bool(a)", "x = bool(a) and b", "if a: b = bool(c)", "while (q) and r:", "elif not (a):"]


SPEND = """game "Spend"
players 2

section "Components"

3 Red cards
3 Blue cards

section "Setup"

zone deck "the deck": ordered
zone table "the table"
counter price = 2

setup:
  move all from box to deck

turn:
  spend 3 action points:
    "take a card" costs 1 if any(all in deck):
      move 1 from deck to table
    "take two cards" costs 2 if count(all in deck) >= 2:
      move 2 from deck to table
    "pay the price" costs price:
      price -= 1
  if not any(all in deck):
    end game

rank p by highest count(all in table)
"""


def test_a_spend_of_written_and_computed_costs_plays_and_fails_as_it_did(tmp_path: Path) -> None:
    """Costs written as numbers lose their test and bound; a computed cost keeps both (here it falls to 0,
    and the game fails there with the same message, at the same step, in both)."""
    path = tmp_path / "spend.rules"
    path.write_text(SPEND, encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    source, before = new.program.generated.source, old.program.generated.source
    assert source.count("< 1):") == 1 < before.count("< 1):")  # the computed cost alone is tested
    assert before.count("bounded(") - source.count("bounded(") >= 3  # the budget and the two written costs paid
    outcomes = {True: [], False: []}
    for seed in range(40):
        for on, engine in ((True, new), (False, old)):
            events: list[Any] = []
            st = engine.new_state(2)
            try:
                play(engine, st, [RandomAgent(seed, s) for s in range(2)], seed, digests=True,
                     on_event=lambda event, _told, events=events: events.append(event))
                outcomes[on].append(("played", events, st.step, st.counters, engine.standings(st)))
            except RulelangError as exc:
                outcomes[on].append(("error", events, st.step, exc.format()))
    assert outcomes[True] == outcomes[False]
    assert {o[0] for o in outcomes[True]} == {"played", "error"}
