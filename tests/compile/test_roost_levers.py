"""Rewrites of an ask's answers, a choice's count and a few reads, against the code written without them (same
games, same traces, same standings, same MCTS choices, same stops at a step limit, same replays, same errors):

- an ask with an answer always allowed: while the pickers are all ``Rng.pick`` and nothing records, its answers
  listed and picked in one loop (``answers.ANSWERS_AT_ONCE``);
- a choice counted also where listing it needs a guard (counted while it holds, a pile's owner then read
  without its test), and where its condition's parts that read an option's value read only its last range's
  (that range filtered once); the current player's zones read once in the count, the kinds of a sorted zone
  with a mask found in the count's own loop, a counted option's values stored where they are found
  (``counted.COUNTED_FILTERS``, ``KINDS_INLINE``, ``TAKEN_DIRECT``);
- a loop over seats whose body only acts on the seats that gave one answer, gone through only if some seat gave
  it (``statements.ANSWER_GATE``); a rule's argument ``st.current`` read in its body without a check
  (``spills.SEAT_ARGS``, barnfast's, which this round had written twice); a look in a game without dice
  through ``runtime.reveal_named``
  (``statements.REVEAL_NAMED``); ``other players`` from the OTHERS table alone (``queries.OTHERS_ONLY``); a
  pile of a kind numbered from 0 indexed by its owner as it is (``queries.ZERO_BASE``).

Each of the two main rewrites is also shown to matter: a broken variant plays other games here.
"""

from __future__ import annotations

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
)
from step_support import recorded, same_stops

from rulelang.agents.base import RandomAgent
from rulelang.compile import answers, counted, queries, spills, statements
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.trace.replay import Replayer

REPO = Path(__file__).resolve().parents[2]
FLAGS = [(answers, "ANSWERS_AT_ONCE"), (counted, "COUNTED_FILTERS"), (counted, "TAKEN_DIRECT"),
         (counted, "KINDS_INLINE"), (statements, "ANSWER_GATE"), (statements, "REVEAL_NAMED"),
         (spills, "SEAT_ARGS"), (queries, "OTHERS_ONLY"), (queries, "ZERO_BASE")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    assert changed and new.program.generated.source != old.program.generated.source  # (every game has one of them)
    players = player_counts(new)
    same_games(new, old, players, range(6))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    if changed:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(6))


def test_rule_the_roost_takes_every_rewrite() -> None:
    new = build(REPO / "games" / "rule-the-roost.rules", FLAGS)
    old = build(REPO / "games" / "rule-the-roost.rules", FLAGS, False)
    source, before = new.program.generated.source, old.program.generated.source
    assert "st.step + _nq" in source and "st.step + _nq" not in before  # the answers at once
    assert "zone_of_kind" in before and "for _v" in source  # counted, the barns filtered
    assert " in st.answers:" in source and " in st.answers:" not in before
    assert "reveal_named(" in source and "reveal_named(" not in before
    assert "if st.players <= 4" in before and "if st.players <= 4" not in source


@pytest.mark.parametrize("game", ["rule-the-roost", "hippe-kippen", "barnyard"])
def test_mcts_chooses_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


@pytest.mark.parametrize("game", ["rule-the-roost", "hippe-kippen"])
def test_narrated_games_read_as_without_the_rewrites(game: str) -> None:
    """Narrated (no picks in the blocks: the engine's loop takes every decision), the same story and state."""
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    for seed in range(3):
        told: list[Any] = []
        for engine in (new, old):
            players = engine.model.default_players
            st = engine.new_state(players)
            story: list[Any] = []
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, narrate=True,
                 on_event=lambda event, narration, story=story: story.append((event, narration)))
            assert st.over and any(narration for _event, narration in story)
            told.append((story, st.dumps()))
        assert told[0] == told[1], seed


@pytest.mark.parametrize("players", [2, 4])
def test_a_step_limit_stops_rule_the_roost_where_it_did(players: int) -> None:
    """Stopped at every step of its first 40 (amid an ask's answers too), the whole state is the same."""
    path = REPO / "games" / "rule-the-roost.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    for seed in range(3):
        same_stops(new, old, players, seed, range(1, 41), view=State.dumps, stopped=True)


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 60, 200])
def test_the_step_budget_runs_out_where_it_did(budget: int) -> None:
    path = REPO / "games" / "rule-the-roost.rules"
    outcomes = [budget_outcome(build(path, FLAGS, on, budget), 4, 1) for on in (True, False)]
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("game", ["rule-the-roost", "hippe-kippen"])
def test_recorded_games_replay_as_without_the_rewrites(game: str) -> None:
    """Recorded by one build and replayed (the recorded options taken by their membership tests) by either."""
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    for seed in range(3):
        made, result = recorded(new, game, new.model.default_players, seed)
        assert made.events == recorded(old, game, old.model.default_players, seed)[0].events
        states = []
        for engine in (new, old):
            replayer = Replayer(engine, made)
            assert replayer.run().status == "compliant", seed
            assert replayer.state is not None and replayer.state.result == result
            states.append(replayer.state.dumps())
        assert states[0] == states[1], seed


def _broken(path: Path, monkeypatch: pytest.MonkeyPatch, owner: type, method: str, wrong: Any) -> Engine:
    with monkeypatch.context() as patch:
        patch.setattr(owner, method, wrong)
        return build(path, FLAGS)


def test_answers_picked_otherwise_play_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice answers at once that take the first allowed answer instead of the pick."""
    path = REPO / "games" / "rule-the-roost.rules"
    right = build(path, FLAGS)
    real = answers.AnswerEmitter.answers_at_once

    def first(self: Any, L: list, *args: Any) -> None:
        start = len(L)
        real(self, L, *args)
        L[start:] = [(i, text.replace("](2)]", "](2) * 0]") if type(text) is str else text, sp)
                     for i, text, sp in L[start:]]

    wrong = _broken(path, monkeypatch, answers.AnswerEmitter, "answers_at_once", first)
    assert "(2) * 0]" in wrong.program.generated.source
    assert any(plain(wrong, 4, seed) != plain(right, 4, seed) for seed in range(4))


def test_a_last_range_left_unfiltered_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a count that forgets the parts of a condition that filter its last range."""
    path = REPO / "games" / "rule-the-roost.rules"
    right = build(path, FLAGS)
    real = counted.CountedEmitter.last_range_filter

    def unfiltered(self: Any, opt: Any, slots: list[int]) -> Any:
        cond = real(self, opt, slots)
        self.range_filters[id(opt)] = []
        return cond

    wrong = _broken(path, monkeypatch, counted.CountedEmitter, "last_range_filter", unfiltered)
    assert noticed(wrong, right, 4)


ASK = """game "E"
players 2 to 3 default 3

1 Red card
1 Blue card

zone table
zone hand: per player

counter n = 0

setup:
  move all from box to table

turn:
  ask q in other players:
    "grab" if COND
    "pass"
  n += 1
  if n >= 4:
    end game

rank p by highest count(all in hand of p)
"""


def test_answers_at_once_only_where_no_condition_can_fail(tmp_path: Path) -> None:
    """An answer's condition that may fail (a division by a count) keeps the two loops: the error is raised
    before anyone answers, as before; one that cannot takes the answers at once."""
    outcomes: dict[str, list[Any]] = {}
    conds = {"safe": "any(all in hand of q)", "unsafe": "count(all in table) / count(all in hand of q) > 0"}
    for name, cond in conds.items():
        path = tmp_path / f"{name}.rules"
        path.write_text(ASK.replace("COND", cond), encoding="utf-8")
        new, old = flagged_builds(path, FLAGS)[:2]
        assert ("st.step + _nq" in new.program.generated.source) == (name == "safe")
        for engine in (new, old):
            try:
                st = engine.new_state(3)
                play(engine, st, [RandomAgent(1, s) for s in range(3)], 1)
                outcomes.setdefault(name, []).append(("played", st.dumps()))
            except RulelangError as exc:
                outcomes.setdefault(name, []).append(("error", exc.format()))
    assert outcomes["safe"][0] == outcomes["safe"][1] and outcomes["safe"][0][0] == "played"
    assert outcomes["unsafe"][0] == outcomes["unsafe"][1] and outcomes["unsafe"][0][0] == "error"
