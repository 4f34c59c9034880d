"""Three rewrites of the standings at the end of a game, against the code without them (same games, same traces
with their result events, same standings and ranks, same MCTS choices, same errors):

- every seat's sheet lines and ranking keys computed by one generated function, in locals, a key that is a
  sheet's total added up from the lines just computed (``standings.ONE_FUNCTION``);
- a count or total read from a zone's counts by kind written where it is read, without a memo of its own
  (``standings.COUNTS_UNKEPT``); in the standings function, the seat read from the loop's variable and the
  counts by kind of each of its zones computed once per seat (``standings.SEAT_LOCALS``); a total computed at
  most once per values of what it reads written without a memo (``standings.ONCE_UNKEPT``);
- the engine's standings and ranks written as a hand-written program would (``results.LEAN_STANDINGS``).

A broken variant (a sheet's total read from the first seat's sheet) is shown to be noticed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, mcts_choices, noticed, plain, trace

from rulelang import load_game
from rulelang.compile import standings
from rulelang.engine import results
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(standings, "ONE_FUNCTION", on)
        patch.setattr(standings, "COUNTS_UNKEPT", on)
        patch.setattr(standings, "SEAT_LOCALS", on)
        patch.setattr(standings, "ONCE_UNKEPT", on)
        return load_game(path)


def _both(monkeypatch: pytest.MonkeyPatch, new: Engine, old: Engine, f: Callable[..., Any], *args: Any
          ) -> tuple[Any, Any]:
    """``f(engine, *args)`` for the new build (LEAN_STANDINGS on) and the old one (off)."""
    out = []
    for engine, on in ((new, True), (old, False)):
        with monkeypatch.context() as patch:
            patch.setattr(results, "LEAN_STANDINGS", on)
            try:
                out.append(f(engine, *args))
            except RulelangError as exc:  # the same error, at the same place
                out.append(("error", exc.format()))
    return out[0], out[1]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    assert "def stv(st):" in new.program.generated.source and "def stv(" not in old.program.generated.source
    players = sorted({new.model.min_players, new.model.default_players, new.model.max_players})
    for n, seed in itertools.product(players, range(8)):
        a, b = _both(monkeypatch, new, old, plain, n, seed)
        assert a == b and "standings" in a, (n, seed)
        a, b = _both(monkeypatch, new, old, trace, n, seed)
        assert a == b and a[1]["result"]["standings"], (n, seed)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    players = new.model.default_players
    for seed in range(6):
        a, b = _both(monkeypatch, new, old, plain, players, seed)
        assert a == b, seed
        a, b = _both(monkeypatch, new, old, trace, players, seed)
        assert a == b, seed


@pytest.mark.parametrize("game", ["barnyard", "rule-the-roost", "hippe-kippen"])
def test_mcts_chooses_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search's rollouts end in lean results (ranks alone): the same ranks, so the same choices."""
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    a, b = _both(monkeypatch, new, old, mcts_choices, new.model.default_players)
    assert a and a == b


def test_a_sheet_total_read_from_another_seat_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / "barnyard.rules"
    right = _load(path, monkeypatch, True)
    with monkeypatch.context() as patch:
        patch.setattr(standings, "SHEET_TOTAL", "{tot}[0]")
        wrong = _load(path, monkeypatch, True)
    assert re.search(r"_tot\d+\[0\]", wrong.program.generated.source)
    assert noticed(wrong, right)


SHEETS = """game "Sheets"
players 2 to 3

section "Components"

attribute value = 0

4 Red cards: value 2
4 Blue cards: value 3

section "Setup"

zone deck "the deck": ordered
zone pile: per player
counter n per player = 1
counter turns = 0

setup:
  move all from box to deck
  shuffle deck

turn:
  set n of current to n of current * GROWTH
  set turns to turns + 1
  if any(all in deck):
    move 1 from deck to pile of current
  if turns >= TURNS:
    end game

define reds(p: player) = count(Red in pile of p)

sheet score for p:
  "Reds": reds(p)
  "Blues": count(Blue in pile of p) * 3
  "Values": sum(value of all in pile of p)
  "Thirds": fraction(n of p * n of p, 3)

rank p by highest score of p, then lowest reds(p), then highest count(all in pile of p)
"""


@pytest.mark.parametrize(("growth", "turns"), [(1, 9), (2, 9), (100, 10)])
def test_fractions_ties_and_a_number_out_of_bound_are_as_without_the_rewrites(
        growth: int, turns: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fractions in the sheets (written as texts), tied seats, and a line beyond the bound (the same error)."""
    path = tmp_path / "sheets.rules"
    path.write_text(SHEETS.replace("GROWTH", str(growth)).replace("TURNS", str(turns)), encoding="utf-8")
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    outcomes = []
    for n, seed in itertools.product((2, 3), range(4)):
        a, b = _both(monkeypatch, new, old, plain, n, seed)
        assert a == b, (n, seed)
        outcomes.append(a)
    if growth == 100:  # 100^5 squared: beyond the bound in the standings alone
        errors = [o for o in outcomes if isinstance(o, tuple)]  # (three players: 100^4 squared is within it)
        assert len(errors) == 4 and all(o[0] == "error" and "beyond what rulelang keeps" in o[1] for o in errors)
    else:
        assert all(isinstance(o["standings"]["standings"][0]["sheets"]["score"]["Thirds"], (int, str))
                   for o in outcomes)
        assert any(isinstance(o["standings"]["standings"][0]["sheets"]["score"]["Thirds"], str) for o in outcomes)
