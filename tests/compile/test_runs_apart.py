"""Two moves in a row out of one sorted zone, each of a run of ids, written one after the other (each run cut
out by bisection) instead of in one pass over the zone (``moves.RUNS_APART``): the same games, traces and
standings as the one pass, in every game where it applies; a build cutting the runs one id short plays other
games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, GAMES, build, flagged_builds, noticed, player_counts, same_games

from rulelang.compile import moves

REPO = Path(__file__).resolve().parents[2]
TAKES = ("barnyard", "barnyard-2p", "rooster-rush")  # (the games with two such moves)


FLAGS = [(moves, "RUNS_APART")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_in_one_pass(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    assert changed == (game in TAKES)
    if changed:
        assert "for _c" in old.program.generated.source  # (the one pass)
        same_games(new, old, player_counts(new), range(4))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_in_one_pass(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    if changed:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(4))


def test_runs_cut_one_short_play_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / "barnyard.rules"
    right = build(path, FLAGS)
    real = moves.MoveEmitter.id_span

    def short(self: Any, q: Any) -> Any:
        got = real(self, q)
        return got if got is None or not got[1].isdigit() or got[0] == got[1] else (got[0], str(int(got[1]) - 1))

    with monkeypatch.context() as patch:
        patch.setattr(moves.MoveEmitter, "id_span", short)
        wrong = build(path, FLAGS)
    assert wrong.program.generated.source != right.program.generated.source
    assert noticed(wrong, right, 2)
