"""Shortcuts of the code generator first needed by games/rule-the-roost.rules, each checked against the
careful way of computing the same thing.

- ``kinds(all in Z where ...)`` of a zone kept sorted, whose filter is a table by component: one pass
  over the zone (``kinds_in_order_where``) instead of a set of kinds, sorted.
- ``kinds(all in Z)`` of a short zone kept sorted: one look at each component instead of a search per
  kind (``kinds_in_order``).
- The answers of an ``ask`` listed at once while the engine picks by position: the options' tests read
  the asked player from the loop's variable (a seat) rather than from ``loc``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from scripted import ROOT
from source_support import zones_read_plainly
from step_support import one_at_a_time

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile import runtime
from rulelang.engine.engine import Engine
from rulelang.play import play

ROOST = ROOT / "games" / "rule-the-roost.rules"

pytestmark = pytest.mark.usefixtures("at_root")


def _zones_and_kinds(rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """Components numbered kind by kind (kinds of none included), a sorted zone of some of them, and
    each kind's last id."""
    counts = [rng.choice([0, 1, 1, 2, 4, 9]) for _ in range(rng.randint(1, 8))]
    kind_of = [k for k, n in enumerate(counts) for _ in range(n)]
    first = [sum(counts[:k]) for k in range(len(counts))]
    last = [f + n - 1 for f, n in zip(first, counts)]
    z = sorted(rng.sample(range(len(kind_of)), rng.randint(0, len(kind_of))))
    return z, kind_of, last


def test_the_kinds_of_a_sorted_zone_through_a_mask() -> None:
    """``kinds_in_order_where`` is the sorted set of the kinds of the components the mask lets through,
    for masks that differ between components of one kind too, and zones short and long."""
    rng = random.Random(11)
    lengths = set()
    for _ in range(600):
        z, kind_of, _last = _zones_and_kinds(rng)
        mask = [rng.random() < 0.6 for _ in kind_of]
        want = sorted({kind_of[c] for c in z if mask[c]})
        assert runtime.kinds_in_order_where(z, kind_of, mask) == want, (kind_of, z, mask)
        lengths.add(len(z) > 16)
    assert lengths == {False, True}


def test_the_kinds_of_a_sorted_zone_short_and_long() -> None:
    """``kinds_in_order`` gives the sorted set of kinds on both of its ways (a zone of at most 16
    components, looked at one by one, and a longer one, searched kind by kind)."""
    rng = random.Random(12)
    lengths = set()
    for _ in range(600):
        z, kind_of, last = _zones_and_kinds(rng)
        assert runtime.kinds_in_order(z, kind_of, last) == sorted({kind_of[c] for c in z}), (kind_of, z)
        lengths.add(len(z) > 16)
    assert lengths == {False, True}


def _narrated(engine: Engine, players: int, seed: int) -> tuple[str, Any, list[Any], str]:
    """A random game played twice: as playouts play it (the engine picks; the final state and result)
    and told (its events and narration, and the final state)."""
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
    told = engine.new_state(players)
    log: list[Any] = []
    play(engine, told, [RandomAgent(seed, s) for s in range(players)], seed, narrate=True,
         on_event=lambda e, narration: log.append((e, list(narration))))
    return st.dumps(), st.result, log, told.dumps()


def test_masked_kinds_play_the_games_of_the_sorted_set(monkeypatch) -> None:
    """The game compiled with ``kinds_in_order_where`` plays the same games, results, events and
    narration as with the careful set of kinds, sorted, in its place."""
    fast = load_game(ROOST)
    source = zones_read_plainly(fast.program.generated.source)
    assert "kinds_in_order_where(" in source
    assert not re.search(r"sorted\(\{KO\[\w+\] for \w+ in Z\[\d+\]\[st\.current\] if mk", source)
    with monkeypatch.context() as patch:
        patch.setattr(runtime, "kinds_in_order_where",
                      lambda z, kind_of, mask: sorted({kind_of[c] for c in z if mask[c]}))
        careful = load_game(ROOST)
    for players in (2, 3, 4):
        for seed in range(1, 16):
            assert _narrated(fast, players, seed) == _narrated(careful, players, seed), (players, seed)


def test_answers_listed_at_once_read_the_asked_player_from_the_loop() -> None:
    """The egg question's test reads the hand of the loop's player, not ``loc``; and taking every answer
    at once plays the games the decision interface plays, answer by answer."""
    engine = load_game(ROOST)
    source = zones_read_plainly(engine.program.generated.source)
    # (the answers allowed are one of two answer lists: CodeGen.answers_by_table)
    # (the player stored into the ask's local in the loop, or once after it: steps.ASKED_LOCAL)
    listed = re.findall(r"for (_p\d+) in .*:\n(?:\s+loc\[\d+\] = \1\n)?\s+(_ok\d+) = at\d+ if (.*) else at\d+\n",
                        source)
    assert listed
    for p, _ok, test in listed:
        assert f"Z[4][{p}]" in test and "loc[" not in test, test
    for players in (2, 4):
        for seed in range(1, 21):
            st = engine.new_state(players)
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
            careful = one_at_a_time(engine, players, seed)
            assert st.dumps() == careful.dumps(), (players, seed)
            assert st.result == careful.result and st.step == careful.step, (players, seed)


def test_a_zone_of_each_component_is_named_inline_where_it_is_revealed(monkeypatch) -> None:
    """A reveal of the cards under a barn names the zone inline, as its namer names it: the same games,
    memories of what was seen, events and narration as with the namer."""
    from rulelang.compile import codegen

    fast = load_game(ROOST)
    source = zones_read_plainly(fast.program.generated.source)
    assert re.search(r"reveal(?:_named)?\(st, \w+, \w+, \(k\d+ \+ LB\[", source)  # (no dice: reveal_named)
    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "reveal_where", lambda self, sel: f"{self.zone_name(sel)}[0]")
        careful = load_game(ROOST)
    assert re.search(r"reveal(?:_named)?\(st", careful.program.generated.source)
    # (the namer's pair, of which the reveal takes the name: the zone's name written by the same translation)
    namer = r"reveal(?:_named)?\(st, \w+, \w+, \(k\d+ \+ LB\[\w+\], \[\d+, \w+\]\)\[0\]"
    assert re.search(namer, careful.program.generated.source)
    looked = 0
    for players in (2, 4):
        for seed in range(1, 16):
            got, want = _narrated(fast, players, seed), _narrated(careful, players, seed)
            assert got == want, (players, seed)
            looked += sum(len(looks) for looks in json.loads(got[0])["seen"])
    assert looked


def test_players_giving_one_answer_are_counted_in_one_call(monkeypatch) -> None:
    """``total(1 for q in players if answer of q == "throw an egg")`` is the count of that answer among
    the players' answers: the same games, results, events and narration as the loop over the players,
    with one egg and with two or more (both branches taken)."""
    from rulelang.compile import queries

    fast = load_game(ROOST)
    source = zones_read_plainly(fast.program.generated.source)
    assert re.search(r"if \(st\.answers\.count\(k\d+\) == 1\):", source)
    assert re.search(r"if \(st\.answers\.count\(k\d+\) >= 2\):", source)
    with monkeypatch.context() as patch:
        patch.setattr(queries, "answer_counted", lambda e: None)
        careful = load_game(ROOST)
    assert "st.answers.count(" not in careful.program.generated.source
    said = set()
    for players in (2, 3, 4):
        for seed in range(1, 16):
            got = _narrated(fast, players, seed)
            assert got == _narrated(careful, players, seed), (players, seed)
            said |= {n["text"] for _e, narration in got[2] for n in narration if n.get("type") == "say"}
    assert any("One egg" in line for line in said) and any("cancel each other" in line for line in said)


def test_standings_rank_by_the_key_ties_sharing_a_rank_in_seat_order() -> None:
    """Each player's rank is one more than the number of players with a higher final score; players
    with equal scores share it and are listed by seat; the winners are those of rank 1 (ties seen)."""
    engine = load_game(ROOST)
    ties = 0
    for players in (2, 3, 4):
        for seed in range(1, 31):
            st = engine.new_state(players)
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
            rows = st.result["standings"]
            score = {r["player"]: runtime_number(r["keys"][0]) for r in rows}
            seat = {f"P{i + 1}": i for i in range(players)}
            assert sorted(score) == sorted(seat)
            assert [r["player"] for r in rows] == sorted(score, key=lambda p: (-score[p], seat[p]))
            for r in rows:
                assert r["rank"] == 1 + sum(v > score[r["player"]] for v in score.values())
            assert st.result["winners"] == [r["player"] for r in rows if r["rank"] == 1]
            ties += len(set(score.values())) < players
    assert ties


def runtime_number(v: Any) -> Any:
    """A key of the standings as a number (a fraction is written as the text "7/3")."""
    from fractions import Fraction

    return Fraction(v) if isinstance(v, str) else v
