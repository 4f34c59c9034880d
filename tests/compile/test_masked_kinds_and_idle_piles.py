"""Two rewrites of a choice's count, against the code written without them (same games, same traces, same
standings, same MCTS choices, same stops at a step limit, same replays):

- the kinds of a sorted zone's components passing a mask found with one table read per component, ``MKO[c] >
  last`` (``masked_kinds.MASKED_KINDS``);
- a range over a zone filtered by ``not`` its values' piles of one zone read as the zone's own list while no pile
  of it holds anything (``pile_filters.EMPTY_PILES_PASS``).

Each is also shown to matter: a broken variant plays other games.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from lever_support import EXAMPLES, mcts_choices, noticed, player_counts, same_games
from step_support import recorded, same_stops

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.check import model as m
from rulelang.compile import masked_kinds, pile_filters, unasked
from rulelang.compile.analysis import Analysis
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.play import play
from rulelang.trace.replay import Replayer

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))
ROOST = REPO / "games" / "rule-the-roost.rules"


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, kinds: bool, piles: bool) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(masked_kinds, "MASKED_KINDS", kinds)
        patch.setattr(pile_filters, "EMPTY_PILES_PASS", piles)
        return load_game(path)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True, True), _load(path, monkeypatch, False, False)
    if game == "rule-the-roost":  # the placeable kinds of the hand; the barns without a padlock
        source, before = new.program.generated.source, old.program.generated.source
        assert "= mko" in source and "= mko" not in before
        assert "if not any(Z[" in source and "if not any(Z[" not in before
    same_games(new, old, player_counts(new), range(6))


@pytest.mark.parametrize("kinds,piles", [(True, False), (False, True)])
def test_rule_the_roost_plays_as_without_either_rewrite(kinds: bool, piles: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _load(ROOST, monkeypatch, kinds, piles), _load(ROOST, monkeypatch, False, False)
    same_games(new, old, [2, 3, 4], range(8))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = _load(path, monkeypatch, True, True), _load(path, monkeypatch, False, False)
    same_games(new, old, [new.model.default_players], range(4))


def test_mcts_chooses_as_without_the_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _load(ROOST, monkeypatch, True, True), _load(ROOST, monkeypatch, False, False)
    got = mcts_choices(new, 4)
    assert got and got == mcts_choices(old, 4)


def test_narrated_games_read_as_without_the_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    """Narrated (the engine's loop takes every decision), the same story and state."""
    new, old = _load(ROOST, monkeypatch, True, True), _load(ROOST, monkeypatch, False, False)
    for seed in range(3):
        told: list[Any] = []
        for engine in (new, old):
            st = engine.new_state(4)
            story: list[Any] = []
            play(engine, st, [RandomAgent(seed, s) for s in range(4)], seed, narrate=True,
                 on_event=lambda event, narration, story=story: story.append((event, narration)))
            assert st.over and any(narration for _event, narration in story)
            told.append((story, st.dumps()))
        assert told[0] == told[1], seed


@pytest.mark.parametrize("players", [2, 4])
def test_a_step_limit_stops_rule_the_roost_where_it_did(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _load(ROOST, monkeypatch, True, True), _load(ROOST, monkeypatch, False, False)
    for seed in range(2):
        same_stops(new, old, players, seed, range(1, 31), view=State.dumps, stopped=True)


def test_recorded_games_replay_as_without_the_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _load(ROOST, monkeypatch, True, True), _load(ROOST, monkeypatch, False, False)
    for seed in range(2):
        made, result = recorded(new, "rule-the-roost", 4, seed)
        assert made.events == recorded(old, "rule-the-roost", 4, seed)[0].events
        states = []
        for engine in (new, old):
            replayer = Replayer(engine, made)
            assert replayer.run().status == "compliant", seed
            assert replayer.state is not None and replayer.state.result == result
            states.append(replayer.state.dumps())
        assert states[0] == states[1], seed


def _listed(lines: list, env: dict[str, Any]) -> list[int]:
    text = "\n".join("    " * (i - 1) + t for i, t, _s in lines)
    exec(compile(text, "<listed>", "exec"), env)  # noqa: S102 -- the test's own lines, no user text
    return env["out"]


def test_the_masked_kinds_loop_lists_what_the_two_reads_list() -> None:
    """On random sorted zones of components numbered kind by kind, with random masks: the same kinds."""
    rnd = random.Random(7)
    for _ in range(300):
        sizes = [rnd.randint(1, 4) for _k in range(rnd.randint(1, 7))]
        kind_of = [k for k, n in enumerate(sizes) for _i in range(n)]
        mask = [rnd.random() < 0.6 for _c in kind_of]
        zone = sorted(rnd.sample(range(len(kind_of)), rnd.randint(0, len(kind_of))))
        gen = type("Gen", (), {})()
        gen.kind_of, gen.consts = kind_of, {"mk": mask}
        gen.table = lambda value, prefix, gen=gen: gen.consts.setdefault(prefix, value) and prefix
        table = masked_kinds.kind_table(gen, "mk")
        assert table == "mko"
        lines: list = []
        masked_kinds.kinds_loop(lines, 1, "out", "zone", table, "c", "k", "sk", None)
        expected = []
        for c in zone:
            if mask[c] and (not expected or expected[-1] != kind_of[c]):
                expected.append(kind_of[c])
        assert _listed(lines, {"zone": zone, "mko": gen.consts["mko"]}) == expected


def test_no_masked_kinds_table_where_the_kinds_are_not_in_id_order() -> None:
    gen = type("Gen", (), {})()
    gen.kind_of, gen.consts, gen.table = [0, 1, 0], {"mk": [True, True, True]}, None
    assert masked_kinds.kind_table(gen, "mk") is None
    gen.kind_of = [0, 0, 1]
    gen.consts = {"mk": (True, True, True)}  # (not a list by component)
    assert masked_kinds.kind_table(gen, "mk") is None


def _padlock_option(engine: Engine) -> m.OptionIR:
    """Rule the Roost's ``"lock {b} with the Padlock" for b in all in barns if ... and not locked(b)``."""
    found = [x for r in engine.model.rules for x in unasked._nodes(r.body)
             if type(x) is m.OptionIR and x.label.parts and str(x.label.parts[0]).startswith("lock ")]
    assert len(found) == 1
    return found[0]


def _gen(engine: Engine, proven: bool = True) -> Any:
    """What ``idle_piles`` reads of the generator: the model, its components' first ids, the owners proven."""
    gen = type("Gen", (), {})()
    gen.model, gen.comp, gen.owners_proven = engine.model, Analysis(engine.model), proven
    return gen


def test_idle_piles_is_decided_from_the_model_only_for_a_zones_values_own_empty_piles(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The padlock's filter (``not locked(b)``: ``not any(all in lock of b)``, a ``per Barn`` zone) over all in
    barns is found; near misses of the model are not (decided from the nodes, nothing emitted read)."""
    engine = _load(ROOST, monkeypatch, True, True)
    opt = _padlock_option(engine)
    (slot, it), = opt.bindings
    part = opt.cond.right  # (the left one, 'any(Padlock in hand of current)', is tested before the range)
    lock = next(z.index for z in engine.model.zones if z.name == "lock")
    assert pile_filters.idle_piles(_gen(engine), [part], slot, it) == lock
    assert pile_filters.idle_piles(_gen(engine), [m.BinOp("or", m.Const(False, m.BOOL), part, m.BOOL, None)],
                                   slot, it) == lock  # (folded: 'False or X' is X)
    agg = part.operand
    hand = next(z.index for z in engine.model.zones if z.name == "hand")
    shared = next(z.index for z in engine.model.zones if z.name == "discard")

    def with_query(**changes: Any) -> Any:
        return attrs.evolve(part, operand=attrs.evolve(agg, query=attrs.evolve(agg.query, **changes)))

    def on(zone: int, owner: Any) -> Any:
        return with_query(zones=(attrs.evolve(agg.query.zones[0], zone=zone, owner=owner),))

    misses = {
        "the owners not proven": (_gen(engine, False), [part], slot, it),
        "two filters": (_gen(engine), [part, part], slot, it),
        "a filter on another variable": (_gen(engine), [on(lock, m.Local(slot + 1, m.COMPONENT))], slot, it),
        "a zone not of piles on components": (_gen(engine), [on(hand, m.Local(slot, m.PLAYER))], slot, it),
        "a shared zone": (_gen(engine), [on(shared, None)], slot, it),
        "a filter on the piles' components": (_gen(engine), [with_query(where=m.ElemAttr("points", m.INT))],
                                               slot, it),
        "some kinds of the pile": (_gen(engine), [with_query(kinds=frozenset({0}))], slot, it),
        "not negated": (_gen(engine), [agg], slot, it),
        "a count, not any": (_gen(engine), [attrs.evolve(part, operand=attrs.evolve(agg, func="count"))], slot, it),
        "a range of some kinds of the zone": (_gen(engine), [part], slot,
                                              attrs.evolve(it, query=attrs.evolve(it.query, kinds=frozenset({0})))),
        "a range of a player's zone": (_gen(engine), [part], slot, attrs.evolve(it, query=attrs.evolve(
            it.query, zones=(m.ZoneSel(hand, m.CurrentPlayer()),)))),
        "a range of seats": (_gen(engine), [part], slot, m.IterIR("players", None, None, None, m.PLAYER)),
    }
    for why, args in misses.items():
        assert pile_filters.idle_piles(*args) is None, why
    with monkeypatch.context() as patch:
        patch.setattr(pile_filters, "EMPTY_PILES_PASS", False)
        assert pile_filters.idle_piles(_gen(engine), [part], slot, it) is None


def test_the_idle_piles_list_is_the_zones_own_values_in_order() -> None:
    """The lines written: with every pile empty the zone's list itself, else the values whose pile is empty."""
    lines = [(1, "if not any(P):", None), (2, "out = Z1", None), (1, "else:", None), (2, "out = []", None),
             (2, "for v in Z1:", None), (3, "if (not P[v]):", None), (4, "out.append(v)", None)]
    for piles in itertools.product([[], [9]], repeat=3):
        zone = [2, 0, 1]
        out = _listed(lines, {"P": list(piles), "Z1": zone})
        assert out == [v for v in zone if not piles[v]]


def test_a_broken_variant_of_either_rewrite_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    right = _load(ROOST, monkeypatch, True, True)
    loop = masked_kinds.kinds_loop

    def repeats(L: list, at: int, lst: str, zone: str, table: str, c: str, k: str, seen: str, sp: Any) -> None:
        loop(L, at, lst, zone, table, c, k, seen, sp)
        L[-3] = (L[-3][0], f"if {k} >= 0:", sp)  # a kind listed once per component

    idle = pile_filters.idle_piles
    with monkeypatch.context() as patch:
        patch.setattr(masked_kinds, "kinds_loop", repeats)
        wrong = _load(ROOST, monkeypatch, True, True)
    assert noticed(wrong, right)
    placing = next(z.index for z in right.model.zones if z.name == "placing")
    with monkeypatch.context() as patch:  # the wrong zone's piles tested: the zone's list while some pile holds one
        patch.setattr(pile_filters, "idle_piles", lambda gen, filters, slot, it: (
            None if idle(gen, filters, slot, it) is None else placing))
        wrong = _load(ROOST, monkeypatch, True, True)
    assert f"if not any(Z[{placing}]):" in wrong.program.generated.source
    assert noticed(wrong, right, seeds=6)
