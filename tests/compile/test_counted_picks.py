"""A choice whose options can be counted without listing them: while the engine's pickers pick by
position, the generated block counts the options and finds the picked one from its position
(``CodeGen.counted_pick``, ``count_options``, ``counted_option``) instead of calling the choice's
enumerator. The games must be exactly those played with every such choice listed as before
(the same options in the same order, the same pick, the same state), and the listing must
really be skipped where the options were counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scripted import ROOT
from step_support import played, same_stops

from rulelang import load_game
from rulelang.compile import codegen, kept
from rulelang.compile.program import CHOOSE
from rulelang.engine.engine import Engine

pytestmark = pytest.mark.usefixtures("at_root")

# "tokens": an option under a condition tested before its ranges (two ranges that read no other
# value), and an option always offered; "lay": kinds of a hand, how many of that kind, then two
# ranges; "judge": two options chosen by another player; "tidy": a condition on the option's own
# value (counted, its range filtered by it: ``decisions.COUNTED_FILTERS``). END stands for how the game ends.
RULES = """game "Lay"
players 2 to 4 default 3

attribute plain = false

9 Red cards: plain true
7 Blue cards: plain true
5 Green cards
3 Gold cards
5 Token tokens

zone deck: ordered, hidden
zone hand: HAND
zone held: per player, owner
zone pile: per player
zone pool

counter said per player = 0
counter turns = 0

setup:
  move all Token from box to pool
  move all except Token from box to deck
  shuffle deck
  for p in players:
    move 3 from deck to hand of p
    move 1 Token from pool to held of p

turn:
  tokens
  lay
  tidy
  refill

rule tokens:
  let done = false
  while not done:
    choose:
      GIVE:
        move 1 Token from held of current to held of q
      "stop":
        let done = true

rule lay:
  choose:
    LAY:
      move (n) k from hand of current to pile of q
      judge(q)

rule judge(q: player):
  choose q:
    "agree":
      said of q += 1
    "refuse":
      pass

rule tidy:
  choose:
    "discard the {k}s" for k in kinds(all in hand of current) if plain of k:
      move all k from hand of current to box
    "keep":
      pass

rule refill:
  while count(all in hand of current) < 3 and any(all in deck):
    move 1 from deck to hand of current
END

rank p by highest said of p
"""

GIVE = '"give a Token to {q}, naming {k}" for q in other players for k in kinds where plain' \
       " if any(Token in held of current)"
LAY = '"lay {n} {secret k} before {q} as {c}" for k in kinds(all in hand of current)' \
      " for n in 1 to count(k in hand of current) for q in other players for c in kinds where plain"

# The game ends when the deck is empty (a hand is never empty at "lay"), or after 18 turns (hands
# run out once the deck is empty: "lay" then has no option and is skipped).
ENDS = {
    "deck": "  if not any(all in deck):\n    end game",
    "turns": "  turns += 1\n  if turns >= 18:\n    end game",
}
UNORDERED = "per player, owner"


def rules(end: str, hand: str = UNORDERED) -> str:
    return RULES.replace("END", ENDS[end]).replace("HAND", hand).replace("GIVE", GIVE).replace("LAY", LAY)


def line_of(text: str) -> int:
    """The line of the rules where an option starts with ``text``."""
    return next(n for n, line in enumerate(rules("deck").splitlines(), 1) if line.strip().startswith(f'"{text}'))


def careful(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with every choice listed as before (no option counted, none kept: kept.py)."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "counted_pick", lambda self, s, spec: None)
        patch.setattr(kept, "KEPT_LISTINGS", False)
        return load_game(path)


def plans_of(path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[int, tuple[str, ...] | None]:
    """Per choice (the line of its first option): the forms counted_pick planned, or None."""
    found: dict[int, tuple[str, ...] | None] = {}
    original = codegen.CodeGen.counted_pick

    def spy(self: codegen.CodeGen, s: Any, spec: Any) -> Any:
        plans = original(self, s, spec)
        found[s.options[0].span.line] = None if plans is None else tuple(form for _c, form, _o in plans)
        return plans

    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "counted_pick", spy)
        load_game(path)
    return found


def count_listings(engine: Engine) -> Counter:
    """Wrap each choice's generated enumerators (full and lazy) so that calls are counted, by the line
    of the choice's first option; a call that found options counts under (line, "some")."""
    calls: Counter = Counter()
    gen = engine.program.generated
    ns = engine.run.arm.__globals__  # the generated module's namespace, where the blocks look them up

    def wrap(fn: Callable[..., Any], line: int) -> Callable[..., Any]:
        def listing(st: Any, loc: Any) -> Any:
            out = fn(st, loc)
            calls[line] += 1
            if (out[0] if type(out) is tuple else len(out)):
                calls[line, "some"] += 1
            return out
        return listing

    for rule in engine.run.code:
        for ins in rule:
            if ins[0] != CHOOSE:
                continue
            spec = ins[1]
            line = spec.spans[0][0].line
            for names in (gen.enums, gen.pickers):
                name = names.get(id(spec))
                if name is not None:
                    ns[name] = wrap(ns[name], line)
    return calls


def engines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[Path, Engine, Engine]:
    path = tmp_path / "lay.rules"
    path.write_text(text, encoding="utf-8")
    return path, load_game(path), careful(path, monkeypatch)


def test_what_is_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _fast, _slow = engines(tmp_path, monkeypatch, rules("deck"))
    plans = plans_of(path, monkeypatch)
    assert plans[line_of("give a Token")] == ("ranges", "one")
    assert plans[line_of("lay")] == ("kinds",)
    assert plans[line_of("agree")] == ("one", "one")
    assert plans[line_of("discard")] == ("ranges", "one")  # its condition reads the option's value: filtered


def test_an_ordered_hand_is_not_counted_by_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _fast, _slow = engines(tmp_path, monkeypatch, rules("deck", "per player, owner, ordered"))
    plans = plans_of(path, monkeypatch)
    assert plans[line_of("lay")] is None  # its kinds are not in the order of its components
    assert plans[line_of("give a Token")] == ("ranges", "one")


@pytest.mark.parametrize("end", sorted(ENDS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_small_game_plays_the_same_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, end: str,
                                             players: int) -> None:
    _path, fast, slow = engines(tmp_path, monkeypatch, rules(end))
    assert fast.program.generated.source != slow.program.generated.source
    for seed in range(1, 26):
        got, error = played(fast, players, seed)
        want, want_error = played(slow, players, seed)
        assert error == want_error == "", seed
        assert got.over, seed
        assert got.dumps() == want.dumps(), seed


def test_an_ordered_hand_plays_the_same_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _path, fast, slow = engines(tmp_path, monkeypatch, rules("turns", "per player, owner, ordered"))
    for seed in range(1, 16):
        got, error = played(fast, 3, seed)
        want, want_error = played(slow, 3, seed)
        assert error == want_error == "", seed
        assert got.dumps() == want.dumps(), seed


def test_the_step_limit_stops_at_the_same_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _path, fast, slow = engines(tmp_path, monkeypatch, rules("turns"))
    same_stops(fast, slow, 3, 5, range(1, 40))


def test_counted_choices_are_not_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _path, fast, slow = engines(tmp_path, monkeypatch, rules("deck"))
    fast_calls, slow_calls = count_listings(fast), count_listings(slow)
    for seed in range(1, 11):
        assert played(fast, 3, seed)[1] == played(slow, 3, seed)[1] == ""
    for text in ("give a Token", "lay", "agree", "discard"):
        assert slow_calls[line_of(text)] > 10, text  # listed at every decision before
        assert fast_calls[line_of(text)] == 0, text  # counted instead: never listed


def test_a_choice_of_no_options_is_listed_and_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _path, fast, slow = engines(tmp_path, monkeypatch, rules("turns"))
    fast_calls = count_listings(fast)
    for seed in range(1, 11):
        got, error = played(fast, 3, seed)
        want, _error = played(slow, 3, seed)
        assert error == "" and got.dumps() == want.dumps(), seed
    lay = line_of("lay")
    assert fast_calls[lay] > 0  # an empty hand: nothing counted, so listed as before ...
    assert fast_calls[lay, "some"] == 0  # ... and only then
    assert fast_calls[line_of("give a Token")] == 0


@pytest.mark.parametrize(("game", "players"), [("barnyard-2p", 2), ("barnyard", 4), ("barnyard", 3)])
def test_rulebook_games_play_the_same_games(monkeypatch: pytest.MonkeyPatch, game: str, players: int) -> None:
    path = ROOT / "games" / f"{game}.rules"
    plans = plans_of(path, monkeypatch)
    assert ("kinds",) in plans.values()  # the bluff: kinds in hand, how many, to whom, declared as what
    fast, slow = load_game(path), careful(path, monkeypatch)
    fast_calls = count_listings(fast)
    for seed in range(1, 13):
        got, error = played(fast, players, seed)
        want, want_error = played(slow, players, seed)
        assert error == want_error == "", seed
        assert got.dumps() == want.dumps(), seed
    counted = [line for line, forms in plans.items() if forms is not None]
    assert len(counted) >= 3
    assert all(fast_calls[line, "some"] == 0 for line in counted)
