"""Eight rewrites of rushfast, against the code written without them (same games, same traces, same standings,
same MCTS choices, same errors):

- a zone's components passing a mask are selected as ``[*filter(MASK.__getitem__, Z)]``, the dice of a roll
  as ``[*filter(ISDIE.__getitem__, ...)]``, and the total of an attribute that no face changes over every
  component of a zone as ``sum(map(VALUES.__getitem__, Z))`` (``queries.TABLE_MAPS``);
- a ``let`` is also kept in a Python variable, which the rest of its sequence reads instead of ``loc`` where
  nothing there binds it again (``statements.LET_LOCALS``);
- a generator whose values are running totals of a generator of their own adds them up in its own loop,
  instead of calling the inner total's helper once per value (``queries.NESTED_TOTALS``);
- a loop that may pause goes through its list as ``for i, v in enumerate(list, 1)`` from the start
  (``statements.ENUMERATED_LOOPS``);
- ``cannot_fail`` reads ``and (``, ``not (`` as keywords, not calls, so that ``total(1 for ... if A and (B)) > 0``
  stops at the first value that passes (``source_text.KEYWORDS_NOT_CALLS``);
- the answers of an ask given per value of one binding, each a table's entry, are listed by
  ``out += map(TABLE.__getitem__, VALUES)`` (``decisions.MAPPED_ANSWERS``);
- a counter of a seat held in a variable sure to hold one is written through that variable, not a copy
  (``statements.SEAT_VARIABLES``);
- an ``if`` that only narrates, its test reading a table and unable to fail, is written inside
  ``if st.log is not None:`` (``statements.NARRATED_IFS``): the narrations are compared too.

Each is also shown to matter: a broken variant plays other games here.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from lever_support import (
    EXAMPLES,
    GAMES,
    budget_outcome,
    build,
    flagged_builds,
    mcts_choices,
    noticed,
    plain,
    player_counts,
    same_games,
    trace,
)

from rulelang.agents.base import RandomAgent
from rulelang.compile import ask_lists, decisions, exprs, queries, source_text, statements
from rulelang.engine.engine import Engine
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
TAKES = {"barnyard", "barnyard-2p", "hippe-kippen", "rooster-rush"}  # the games whose module the rewrites change


FLAGS = [(queries, "TABLE_MAPS"), (statements, "LET_LOCALS"), (queries, "NESTED_TOTALS"),
         (statements, "ENUMERATED_LOOPS"), (source_text, "KEYWORDS_NOT_CALLS"), (decisions, "MAPPED_ANSWERS"),
         (statements, "SEAT_VARIABLES"), (statements, "NARRATED_IFS")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    assert changed or game not in TAKES, game
    if game == "hippe-kippen":
        assert new.program.generated.source.count("return True") > old.program.generated.source.count("return True")
    if game == "rooster-rush":  # (the game the rewrites apply to)
        source, before = new.program.generated.source, old.program.generated.source
        assert "[*filter(mk" in source and "[*filter(mk" not in before
        assert "sum(map(av" in source and "sum(map(av" not in before
        assert "[*filter(ISDIE.__getitem__" in source
        assert re.search(r"^    (out \+= |return \[\*)map\(tk\d+\.__getitem__, ", source, re.M)  # (LISTED_AT_ONCE)
        assert source.count("C[1][_v") > before.count("C[1][_v")
        assert re.search(r"^ +_v\d+ = loc\[\d+\] = ", source, re.M)
        assert source.count("loc[") < before.count("loc[")
        # (one indent deeper where steps.NESTED_BUDGETS writes the loop twice)
        assert re.search(r"^    (    )?for _i\d+, _v\d+ in enumerate\(_s\d+, 1\):$", source, re.M)
        assert re.search(r"^( {4,8})for (_v\d+) in range\(st.players\):\n\1    for _v\d+ in Z_\d+\[\2\]:$",
                         source, re.M)
    players = player_counts(new)
    for n, seed in itertools.product(players, range(6) if changed else ()):  # (the same module plays the same games)
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)
        assert trace(new, n, seed) == trace(old, n, seed), (n, seed)
        if seed < 2:
            assert narrated(new, n, seed) == narrated(old, n, seed), (n, seed)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    players = new.model.default_players
    for seed in range(5 if changed else 0):  # (the same module plays the same games)
        assert plain(new, players, seed) == plain(old, players, seed), seed
        assert trace(new, players, seed) == trace(old, players, seed), seed
        assert narrated(new, players, seed) == narrated(old, players, seed), seed


def narrated(engine: Engine, players: int, seed: int) -> list[Any]:
    """The trace events of a narrated random game, each with its narration, and the final table."""
    told: list[Any] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, narrate=True,
         on_event=lambda event, narration: told.append((event, narration)))
    return [told, plain_table(engine, st)]


def plain_table(engine: Engine, st: Any) -> Any:
    return {"zones": st.zones, "counters": st.counters, "out": st.out, "step": st.step, "result": st.result,
            "standings": engine.standings(st)}


@pytest.mark.parametrize("game", ["rooster-rush", "rule-the-roost"])
def test_mcts_chooses_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


@pytest.mark.parametrize("budget", [1, 3, 8, 25, 90, 300])
def test_the_step_budget_runs_out_where_it_did(budget: int) -> None:
    path = REPO / "games" / "rooster-rush.rules"
    outcomes = [budget_outcome(build(path, FLAGS, on, budget), 4, 2) for on in (True, False)]
    assert outcomes[0] == outcomes[1]


def test_a_mask_left_unread_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a filter that does not read the mask (here: it keeps every component but 0)."""
    path = REPO / "games" / "rooster-rush.rules"
    right = build(path, FLAGS)
    real = queries.QueryWriter.selection

    def unmasked(self: Any, q: Any, copy: bool = True) -> str:
        return re.sub(r"\[\*filter\(mk\d+\.__getitem__, ", "[*filter(None, ", real(self, q, copy))

    with monkeypatch.context() as patch:
        patch.setattr(queries.QueryWriter, "selection", unmasked)
        wrong = build(path, FLAGS)
    assert "[*filter(None, " in wrong.program.generated.source
    assert noticed(wrong, right)


def test_a_let_read_from_its_variable_after_it_changed_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a let read from its Python variable after the rest binds it again."""
    path = REPO / "games" / "barnyard.rules"
    right = build(path, FLAGS)

    def careless(self: Any, L: list, seq: tuple, idx: int, ind: int, kept: list[int]) -> bool:
        s = seq[idx]
        slot = s.slot + self.off
        if slot in self.loop_vars or not statements.reads_slots(seq[idx + 1:], {s.slot}):
            return False
        v = self.var("v")
        L.append((ind, f"{v} = loc[{slot}] = {self.stored(s.value, s.span)}", s.span))
        self.loop_vars[slot] = v
        self.let_slots.add(slot)
        kept.append(slot)
        return True

    with monkeypatch.context() as patch:
        patch.setattr(statements.StatementEmitter, "let_local", careless)
        wrong = build(path, FLAGS)
    assert noticed(wrong, right, compare=trace)


def test_an_inner_total_left_out_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a nested total whose inner loop is left out (nothing added up)."""
    path = REPO / "games" / "rooster-rush.rules"
    right = build(path, FLAGS)
    real = queries.QueryWriter.nested_total

    def emptied(self: Any, e: Any, value: str, var: int, v: str) -> tuple[str, list] | None:
        inner = real(self, e, value, var, v)
        return None if inner is None else (inner[0], [*inner[1][:1], (1, "pass", None)])

    with monkeypatch.context() as patch:
        patch.setattr(queries.QueryWriter, "nested_total", emptied)
        wrong = build(path, FLAGS)
    outcomes = []
    for seed in range(12):
        try:
            outcomes.append(trace(wrong, 4, seed) != trace(right, 4, seed))
        except Exception:  # noqa: BLE001 -- a broken total may as well fail: it must not pass unnoticed
            outcomes.append(True)
    assert any(outcomes)


def test_a_loop_resumed_at_the_wrong_position_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a loop that may pause keeping the position of each value instead of the
    one after it (a pass resumed after a pause runs that value again)."""
    path = REPO / "games" / "barnyard.rules"
    right = build(path, FLAGS)
    real = statements.StatementEmitter.write_loop

    def from_zero(self: Any, L: list, s: Any, after: tuple, ind: int, init: bool) -> None:
        start = len(L)
        real(self, L, s, after, ind, init)
        L[start:] = [(i, re.sub(r"enumerate\((_s\d+), 1\)", r"enumerate(\1)", text), sp) for i, text, sp in L[start:]]

    with monkeypatch.context() as patch:
        patch.setattr(statements.StatementEmitter, "write_loop", from_zero)
        wrong = build(path, FLAGS)
    assert re.search(r"enumerate\(_s\d+\):", wrong.program.generated.source)
    assert noticed(wrong, right, 4, compare=trace)


def test_keywords_are_no_calls_but_calls_still_are() -> None:
    assert source_text.cannot_fail("((C[1][_v4] == 1) and (not Z[8][_v4]))")
    assert source_text.cannot_fail("(not (x in y)) or (len(z) > 0)")
    assert not source_text.cannot_fail("(a and (zone_of(Z[8], loc[3], k1, k2)))")
    assert not source_text.cannot_fail("not (g12(st, loc))")
    assert not source_text.cannot_fail("x if (seat(loc[2], k1, k2)) else y")


def test_an_early_answer_of_the_wrong_truth_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a test of whether any value passes that stops with the wrong answer."""
    path = REPO / "games" / "hippe-kippen.rules"
    right = build(path, FLAGS)
    real = exprs.ExprWriter.helper

    def flipped(self: Any, name: str, args: str, lines: list) -> None:
        real(self, name, args, [(i, "return False" if text == "return True" else text, sp) for i, text, sp in lines])

    with monkeypatch.context() as patch:
        patch.setattr(exprs.ExprWriter, "helper", flipped)
        wrong = build(path, FLAGS)
    assert "return True" in right.program.generated.source and "return True" not in wrong.program.generated.source
    assert noticed(wrong, right)


# A total of totals of exact fractions (the value of each red card held, a third of it, over every player).
REDS = """game "Reds"
players 2 to 4 default 3

attribute colour = ""
attribute value = 0

3 Red1 card "red one": colour "red", value 1
2 Red2 card "red two": colour "red", value 2
4 Blue3 card "blue three": colour "blue", value 3

zone deck: ordered
zone hand: per player

counter turns = 0

setup:
  move all from box to deck
  shuffle deck

define worth = total(total(value of c / 3 for c in all in hand of p where colour == "red") for p in players)
define held = total(total(value of c for c in all in hand of p) for p in players)

turn:
  turns += 1
  choose:
    "draw" if any(all in deck):
      move (1) from deck to hand of current
    "pass":
      turns += 1
  if worth >= 2 or held >= 9 or turns >= 30:
    end game

rank p by highest total(value of c for c in all in hand of p)
"""


def test_totals_of_fractions_add_up_as_without_the_rewrites(tmp_path: Path) -> None:
    path = tmp_path / "reds.rules"
    path.write_text(REDS, encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    assert re.search(r"^    for (_v\d+) in range\(st.players\):\n        for _v\d+ in Z_\d+\[\1\]:$",
                     new.program.generated.source, re.M)
    same_games(new, old, (2, 3, 4), range(6))


def test_answers_listed_in_another_order_play_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice answers per value listed in another order (here: the values reversed)."""
    path = REPO / "games" / "rooster-rush.rules"
    right = build(path, FLAGS)
    real = ask_lists.mapped

    def reversed_values(gen: Any, *args: Any) -> str | None:
        text = real(gen, *args)
        return None if text is None else f"{text[:-1]}[::-1])"

    with monkeypatch.context() as patch:
        patch.setattr(ask_lists, "mapped", reversed_values)
        wrong = build(path, FLAGS)
    assert "[::-1])" in wrong.program.generated.source
    assert noticed(wrong, right)


def test_a_narrated_if_testing_the_other_way_narrates_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """The narrations compared above would notice a narrated ``if`` whose test is turned around."""
    path = REPO / "games" / "rooster-rush.rules"
    right = build(path, FLAGS)
    real = statements.StatementEmitter.narrated_if

    def turned(self: Any, L: list, s: Any, after: tuple, ind: int) -> bool:
        start = len(L)
        if not real(self, L, s, after, ind):
            return False
        i, text, sp = L[start + 1]
        L[start + 1] = (i, f"if not {text[3:]}", sp)
        return True

    with monkeypatch.context() as patch:
        patch.setattr(statements.StatementEmitter, "narrated_if", turned)
        wrong = build(path, FLAGS)
    assert plain(wrong, 4, 0) == plain(right, 4, 0)  # (narration only)
    assert narrated(wrong, 4, 0) != narrated(right, 4, 0)
