"""A choice taken again in a loop keeps, from one decision to the next, the listings of the options nothing
on the way back changes (``kept.KEPT_LISTINGS``), against the code written without it: same games, same
traces, same standings, same MCTS choices, same step-budget stops, same replay verdicts and states, on every
game and example. What it proves from the checked model (``kept.plan``) is tested on Hippe Kippen's spend,
and a marker's move, whose source is only known at run time, is shown to be tested there: without that
test a game whose marker starts among what an option lists plays other games.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from lever_support import (
    EXAMPLES,
    GAMES,
    budget_outcome,
    build,
    flagged_builds,
    mcts_choices,
    noticed,
    player_counts,
    same_games,
)
from step_support import recorded

from rulelang import load_game
from rulelang.compile import decisions, kept
from rulelang.trace.replay import Replayer

REPO = Path(__file__).resolve().parents[2]
TAKES = {"barnyard", "barnyard-2p", "hippe-kippen"}  # the games whose module the lever changes


FLAGS = [(kept, "KEPT_LISTINGS")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_kept_listings(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    assert "kp=None" not in old.program.generated.source
    assert changed or game not in TAKES, game
    if changed:  # (the same module plays the same games)
        same_games(new, old, player_counts(new), range(8))


def test_hippe_kippen_keeps_the_lay_listing_after_a_fox_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The spend's 'lay {k} on {c}' (two ranges, a test) is kept after the two fox moves, which change only
    where the fox is; every other option changes what it reads (or may end the game on the way back)."""
    path = REPO / "games" / "hippe-kippen.rules"
    plans: list[kept.Plan | None] = []
    real = kept.plan

    def spy(gen: object, s: object) -> kept.Plan | None:
        plans.append(real(gen, s))
        return plans[-1]

    monkeypatch.setattr(decisions.kept, "plan", spy)
    engine = build(path, FLAGS)
    (plan,) = [p for p in plans if p is not None]
    assert plan.kept == (3,) and plan.keep == {4: (3,), 5: (3,)}
    assert plan.markers[4] == plan.markers[5] == frozenset({3, 4, 5})  # hand, collections, face-up cards
    assert len(plan.gates[3]) == 1  # the cost, tested again at every decision
    assert "kp=None" in engine.program.generated.source


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_kept_listings(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    if changed:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(6))


@pytest.mark.parametrize("game", ["hippe-kippen", "barnyard"])
def test_mcts_chooses_as_without_kept_listings(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 60, 200, 900])
def test_the_step_budget_runs_out_where_it_did(budget: int) -> None:
    path = REPO / "games" / "hippe-kippen.rules"
    for seed in (1, 2):
        outcomes = [budget_outcome(build(path, FLAGS, on, budget), 4, seed) for on in (True, False)]
        assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("game", ["hippe-kippen", "barnyard"])
def test_replay_gives_the_same_verdicts_and_states(game: str) -> None:
    """A game recorded with kept listings replays, the fast way (pickers by label in the blocks) and the
    careful way, with the verdicts and final states of the build without them."""
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    for seed in (1, 2, 3):
        got = []
        for engine in (new, old):
            tape, _result = recorded(engine, game, engine.model.default_players, seed)
            for fast in (True, False):
                replayer = Replayer(engine, tape)
                replayer.fast = fast
                verdict = replayer.run()
                got.append((verdict.to_json(), replayer.state.dumps() if replayer.state is not None else None))
        assert got[0][0]["status"] == "compliant"
        assert all(g == got[0] for g in got), seed


# A marker that starts in the zone an option lists: moving it away changes that option's listing, which a
# move's destination alone does not tell (the source is wherever the marker is).
PAWN = """game "Pawn Walk"
players 2 to 3 default 2

3 Gem cards "gem"
2 Coin cards "coin"
1 Pawn marker "the pawn"

zone spot "the spot"
zone side "the side"
counter score per player = 0 "points"

setup:
  move all Gem from box to spot
  move all Coin from box to spot
  move Pawn to spot

turn:
  spend 3 points:
    "take {k} {n}" costs 1 for k in kinds(all in spot) for n in 1 to 2:
      score of current += n
    "move the pawn aside" costs 1 if any(Pawn in spot):
      move Pawn to side
    "move the pawn back" costs 1 if any(Pawn in side):
      move Pawn to spot
  if score of current >= 12:
    end game

rank p by highest score of p
"""


def test_a_marker_moved_from_a_listed_zone_is_listed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "pawn.rules"
    path.write_text(PAWN, encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    assert "kp = None" in new.program.generated.source  # the marker's source tested where it moves
    same_games(new, old, (2, 3), range(8))
    real = kept.plan

    def blind(gen: object, s: object) -> kept.Plan | None:  # the broken variant: the marker's source not tested
        plan = real(gen, s)
        return None if plan is None else attrs.evolve(plan, markers={x: frozenset() for x in plan.markers})

    monkeypatch.setattr(decisions.kept, "plan", blind)
    wrong = build(path, FLAGS)
    assert "kp = None" not in wrong.program.generated.source and "kp=None" in wrong.program.generated.source
    assert noticed(wrong, old, seeds=6)


def test_reads_and_writes_are_read_from_the_model() -> None:
    """What an option reads and what statements write, as ``kept.plan`` weighs them."""
    engine = load_game(REPO / "games" / "hippe-kippen.rules")
    model = engine.model
    turn = model.rules[model.turn_rule]
    spend = next(s for s in turn.body if type(s).__name__ == "WhileS")
    choose = spend.body[1]
    lay = choose.options[3]
    gate, rest = kept.gate(lay, frozenset({0, 1}))
    assert len(gate) == 1 and len(rest) == 2
    assert kept.gate(lay)[0] == []  # a local not known to be set before the loop: no gate
    read = kept.reads((tuple(it for _s, it in lay.bindings), tuple(rest)), model)
    zones = {z.name: z.index for z in model.zones}
    assert {("zone", zones["hand"]), ("zone", zones["chests"]), ("zone", zones["up"]), "current"} <= read
    assert kept.OTHER not in read and "faces" not in read
    fox = choose.options[4]
    written = kept.writes(model, fox.body)
    assert ("zone", zones["foxed"]) in written and ("zone", zones["hand"]) not in written
    assert not kept.meets(read, written)
    assert kept.meets(read, kept.writes(model, lay.body))  # laying a card changes what 'lay' lists
    assert kept.writes(model, choose.options[0].body) is None  # a draw may end the game: not known here
    assert kept.meets({("local", 3)}, {kept.ANY_LOCAL}) and kept.meets({kept.ANY_ZONE}, {("zone", 1)})

