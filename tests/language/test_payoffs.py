"""Payoffs in the language (issue 22 item 1): ``payoff p = EXPR[, between A and B][, zero sum ...]``.

Kuhn poker's payoffs at every terminal, worked out by hand; the bounds and sum checks at the end of
a game (a violation stops with the declaration's place); the rank default when nothing is declared.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from language_support import check_errors, game

from rulelang.check.model import PayoffSpec
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game

REPO = Path(__file__).resolve().parents[2]
KUHN = REPO / "examples" / "kuhn-poker" / "kuhn-poker.rules"
RANKS = {"Jack": 1, "Queen": 2, "King": 3}
DEALS = [(a, b) for a in RANKS for b in RANKS if a != b]


def _kuhn_by_hand(first: str, second: str, moves: str) -> tuple[int, int]:
    """P1's and P2's chips won or lost, from the rules of Kuhn poker (not from the .rules file)."""
    showdown = 1 if RANKS[first] > RANKS[second] else -1
    table = {"pp": showdown, "pbp": -1, "pbb": 2 * showdown, "bp": 1, "bb": 2 * showdown}
    return table[moves], -table[moves]


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: f"{d[0]}-{d[1]}")
@pytest.mark.parametrize("moves", ["pp", "pbp", "pbb", "bp", "bb"])
def test_kuhn_poker_payoff_at_every_terminal(deal: tuple[str, str], moves: str) -> None:
    engine = load_game(KUHN)
    st = engine.new_state(2)
    engine.apply(st, deal[0])
    engine.apply(st, deal[1])
    for i, move in enumerate(moves):
        assert not st.over
        assert engine.pending(st).player == i % 2
        engine.apply(st, {"p": "pass", "b": "bet"}[move])
    assert st.over
    want = _kuhn_by_hand(deal[0], deal[1], moves)
    assert engine.payoffs(st) == tuple(Fraction(v) for v in want)
    assert st.result["payoffs"] == list(want)
    assert st.result["winners"] == ["P1" if want[0] > 0 else "P2"]


def test_kuhn_poker_payoff_spec() -> None:
    spec = load_game(KUHN).payoff_spec
    assert spec == PayoffSpec(True, "zero_sum", Fraction(0), Fraction(-2), Fraction(2), spec.span)
    assert spec.span is not None and spec.span.line == KUHN.read_text().splitlines().index(
        "payoff p = net(p), between -2 and 2, zero sum") + 1


def test_payoffs_before_the_end_are_an_error() -> None:
    engine = load_game(KUHN)
    with pytest.raises(RulelangError, match="not over"):
        engine.payoffs(engine.new_state(2))


GAME = """
counter chips per player = 0
setup:
  pass
turn:
  choose:
    "take 3":
      chips of current += 3
      end game
    "take 1":
      chips of current += 1
      end game
rank p by highest chips of p
"""


def _finish(engine, option: str, players: int = 2):
    st = engine.new_state(players)
    engine.apply(st, option)
    assert st.over
    return st


def test_rank_default_without_a_declaration(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME)
    assert engine.payoff_spec == PayoffSpec(False, "zero_sum", Fraction(0), Fraction(-1), Fraction(1), None)
    st = _finish(engine, "take 3", 3)
    assert engine.payoffs(st) == (Fraction(1), Fraction(-1, 2), Fraction(-1, 2))
    assert "payoffs" not in st.result


def test_zero_sum_violation_stops_at_the_declaration(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = chips of p, between 0 and 3, zero sum\n")
    with pytest.raises(RulelangError) as info:
        _finish(engine, "take 3")
    err = info.value
    assert "the payoffs sum to 3, but the game is declared zero sum (P1 3, P2 0)" in err.message
    assert (err.span.file, err.span.line, err.span.col) == (str(tmp_path / "t.rules"), 16, 1)
    assert err.hint


def test_constant_sum_checked(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = chips of p, between 0 and 3, constant sum 1 + 2\n")
    st = _finish(engine, "take 3")
    assert engine.payoffs(st) == (3, 0)
    with pytest.raises(RulelangError, match="declared constant sum 3"):
        _finish(engine, "take 1")


def test_payoff_outside_its_bounds_stops(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = chips of p, between 0 and 2\n")
    assert engine.payoff_spec.utility == "general_sum" and engine.payoff_spec.total is None
    assert engine.payoffs(_finish(engine, "take 1")) == (1, 0)
    with pytest.raises(RulelangError, match="P1's payoff is 3, outside its bounds 0 to 2") as info:
        _finish(engine, "take 3")
    assert info.value.span.line == 16


def test_fraction_payoffs(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = fraction(chips of p, 2), between 0 and fraction(3, 2)\n")
    st = _finish(engine, "take 3")
    assert engine.payoffs(st) == (Fraction(3, 2), Fraction(0))
    assert st.result["payoffs"] == ["3/2", 0]


def test_bounds_proved_without_between(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = (1 if chips of p == 3 else -1) * 2, zero sum\n")
    assert (engine.payoff_spec.low, engine.payoff_spec.high) == (-2, 2)
    assert engine.payoffs(_finish(engine, "take 3")) == (2, -2)
    engine = game(tmp_path, GAME + "payoff p = abs((1 if chips of p > 1 else -3)) - fraction(1, 2)\n")
    assert (engine.payoff_spec.low, engine.payoff_spec.high) == (Fraction(-1, 2), Fraction(5, 2))
    engine = game(tmp_path, "3 Chip tokens\nzone hand: per player\n" + GAME
                  + "payoff p = count(all in hand of p) - max(1, players - 1)\n")
    assert (engine.payoff_spec.low, engine.payoff_spec.high) == (-3, 2)  # 0..3 chips, 2..4 players


@pytest.mark.parametrize("line, message", [
    ("payoff p = chips of p\n", "the checker cannot find the bounds of this payoff"),
    ("payoff p = p, between 0 and 1\n", "a payoff is a number"),
    ("payoff p = chips of p > 1, between 0 and 1\n", "a payoff is a number"),
    ("payoff p = chips of p, between 3 and 1\n", "the wrong way round: 3 is above 1"),
    ("payoff p = chips of p, between 0 and chips of P1\n", "must be a constant"),
    ("payoff p = chips of p, between 0 and players\n", "must be a constant"),
    ("payoff p = chips of p, between 0 and 3\npayoff q = chips of q, between 0 and 3\n", "a second 'payoff' line"),
    ("payoff p = chips of p, between 0 and 3, constant sum chips of P1\n", "must be a constant"),
])
def test_misuse_is_an_error_at_its_place(tmp_path: Path, line: str, message: str) -> None:
    errors = check_errors(tmp_path, GAME + line)
    assert any(message in e.message for e in errors), [e.message for e in errors]
    assert all(e.span is not None and e.span.line >= 16 for e in errors if message in e.message)


def test_a_variant_may_declare_a_payoff_only_if_the_base_has_none(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text('game "base"\nplayers 2 to 4\n' + GAME)
    (tmp_path / "v.rules").write_text('game "v" extends "base.rules"\npayoff p = chips of p, between 0 and 3\n')
    assert load_game(tmp_path / "v.rules").payoff_spec.declared
    (tmp_path / "base2.rules").write_text('game "base"\nplayers 2 to 4\n' + GAME
                                          + "payoff p = chips of p, between 0 and 3\n")
    (tmp_path / "v2.rules").write_text('game "v" extends "base2.rules"\npayoff p = chips of p, between 0 and 9\n')
    with pytest.raises(ErrorList) as info:
        load_game(tmp_path / "v2.rules")
    assert "the base game already declares the payoff" in info.value.errors[0].message
    assert info.value.errors[0].span.line == 2


# ------------------------------------------------------------------ agents follow the payoff
DISAGREE = """
counter points per player = 0
counter chips per player = 0
setup:
  pass
turn:
  choose:
    "points":
      points of current += 5
      end game
    "chips":
      chips of current += 1
      end game
rank p by highest points of p
"""
PAYS_CHIPS = "payoff p = chips of p - chips of player after p, between -1 and 1, zero sum\n"


@pytest.mark.parametrize("agent", ["greedy", "mcts:iters=30,depth=4"])
@pytest.mark.parametrize("declared", [False, True])
def test_search_agents_maximise_the_declared_payoff(tmp_path: Path, agent: str, declared: bool) -> None:
    from rulelang.agents.base import RandomAgent
    from rulelang.agents.spec import parse_agent
    from rulelang.play import play

    engine = game(tmp_path, DISAGREE + (PAYS_CHIPS if declared else ""), head='game "t"\nplayers 2 to 2\n')
    for seed in range(4):
        st = play(engine, engine.new_state(2), [parse_agent(agent).make(seed, 0), RandomAgent(seed, 1)], seed)
        if declared:  # the ranking says "points", the payoff says "chips": the payoff wins
            assert st.result["payoffs"] == [1, -1] and engine.payoffs(st) == (1, -1)
            assert st.result["winners"] == ["P1", "P2"]  # the winners are still the ranking's (0 points each)
        else:
            assert st.result["winners"] == ["P1"] and engine.payoffs(st) == (1, -1)


def test_payoff_rewards_are_the_payoff_on_zero_one(tmp_path: Path) -> None:
    from rulelang.agents.search import payoff_rewards

    engine = game(tmp_path, DISAGREE + PAYS_CHIPS, head='game "t"\nplayers 2 to 2\n')
    st = _finish(engine, "chips")
    assert payoff_rewards(engine, st) == [1.0, 0.0]
    assert payoff_rewards(engine, engine.new_state(2)) == [0.5, 0.5]  # before the end: as if it ended now
    plain = game(tmp_path, DISAGREE, head='game "t"\nplayers 2 to 3\n')
    st = _finish(plain, "points", 3)
    assert payoff_rewards(plain, st) == [1.0, 0.25, 0.25]  # the share of the others beaten, ties half


# ------------------------------------------------------------------ one-player games can be lost
BLACKJACK = REPO / "examples" / "blackjack" / "blackjack.rules"
# the example draws its cards by rank (suits make no difference): OpenSpiel's "CT" is a Ten
RANK_KINDS = dict(zip("A23456789TJQK", ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
                                       "Jack", "Queen", "King"]))


def _rank(card: str) -> str:
    """The example's kind for a card named as OpenSpiel names it ("CT": the Ten of clubs)."""
    return RANK_KINDS[card[1]]


def _blackjack(cards: list[str], moves: list[str]):
    """A hand dealt ``cards`` (player, player, hole, dealer's up card, then in the order drawn)."""
    engine = load_game(BLACKJACK)
    st = engine.new_state(1)
    todo = list(cards)
    for move in [*moves, None]:
        while not st.over and engine.is_chance(st):
            engine.apply(st, _rank(todo.pop(0)))
        if move is None or st.over:
            break
        engine.apply(st, move)
    assert st.over and not todo
    return engine, st


@pytest.mark.parametrize("cards, moves, payoff, outcome", [
    (["CT", "DT", "C9", "D7", "H2"], ["Stand"], 1, "won"),          # 20 against 16 + 2 = 18
    (["CT", "D6", "C9", "D8"], ["Stand"], -1, "lost"),              # 16 against 17: the dealer stands on 17
    (["CT", "D7", "CA", "D6"], ["Stand"], 0, "drawn"),              # 17 against a soft 17: a push
    (["CT", "D6", "C9", "D7", "HK"], ["Hit"], -1, "lost"),          # busts with 26: the dealer does not play
    (["CA", "D6", "C9", "D7", "HK", "H5"], ["Hit", "Stand"], -1, "lost"),  # soft 17 + K: 17; the dealer 16 + 5
])
def test_blackjack_payoffs_by_hand(cards: list[str], moves: list[str], payoff: int, outcome: str) -> None:
    engine, st = _blackjack(cards, moves)
    assert engine.payoffs(st) == (payoff,)
    assert st.result["outcome"] == outcome
    assert st.result["winners"] == (["P1"] if payoff > 0 else [])


def test_run_says_one_player_lost() -> None:
    from click.testing import CliRunner

    from rulelang.cli import main

    out = CliRunner().invoke(main, ["run", str(BLACKJACK), "-s", "1"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "Blackjack: 1 player, seed 1"
    assert lines[-2:] == ["  1. P1  outcome -1  (payoff -1)", "P1 lost the game"]
    assert "Winner" not in out.output and "players" not in out.output
    check = CliRunner().invoke(main, ["check", str(BLACKJACK)])
    assert "(Blackjack; 1 player, 52 components" in check.output


def test_simulate_counts_one_player_losses() -> None:
    import json

    from click.testing import CliRunner

    from rulelang.cli import main

    out = CliRunner().invoke(main, ["simulate", str(BLACKJACK), "-n", "60", "-j", "1"])
    assert out.exit_code == 0, out.output
    assert "Blackjack: 60 games, 1 player, random agents" in out.output
    assert "Payoff (declared, between -1 and 1, general sum; mean +- sd):" in out.output
    assert "First player" not in out.output
    js = CliRunner().invoke(main, ["simulate", str(BLACKJACK), "-n", "60", "-j", "1", "--json"])
    s = json.loads(js.stdout if hasattr(js, "stdout") else js.output)
    assert 0 < s["win_rate"]["P1"] < 1 and 0 < s["loss_rate"]["P1"] < 1
    assert s["win_rate"]["P1"] + s["loss_rate"]["P1"] <= 1
    assert s["payoff"]["P1"]["mean"] == pytest.approx(s["win_rate"]["P1"] - s["loss_rate"]["P1"])


def test_traces_record_and_check_the_payoffs(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from rulelang.cli import main

    trace = tmp_path / "t.jsonl"
    assert CliRunner().invoke(main, ["run", str(BLACKJACK), "-s", "1", "-q", "--trace", str(trace)]).exit_code == 0
    lines = trace.read_text().splitlines()
    last = json.loads(lines[-1])
    assert (last["payoffs"], last["outcome"], last["winners"]) == ([-1], "lost", [])
    ok = CliRunner().invoke(main, ["replay", str(trace)])
    assert ok.exit_code == 0 and "result: P1 lost (P1 -1; payoffs P1 -1)" in ok.output
    last["payoffs"] = [1]
    trace.write_text("\n".join(lines[:-1] + [json.dumps(last)]) + "\n")
    bad = CliRunner().invoke(main, ["replay", str(trace)])
    assert bad.exit_code == 1 and "the recorded payoffs differ" in bad.output + bad.stderr


def test_the_examples_pay_what_openspiels_native_games_pay() -> None:
    """Kuhn poker at every terminal, and Blackjack over random hands, against pyspiel's own games."""
    import random

    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    kuhn, engine = pyspiel.load_game("kuhn_poker"), load_game(KUHN)
    for a, b in [(a, b) for a in range(3) for b in range(3) if a != b]:
        for moves in ["pp", "pbp", "pbb", "bp", "bb"]:
            native, st = kuhn.new_initial_state(), engine.new_state(2)
            for card in (a, b):
                native.apply_action(card)
                engine.apply(st, list(RANKS)[card])
            for move in moves:
                native.apply_action(0 if move == "p" else 1)
                engine.apply(st, "pass" if move == "p" else "bet")
            assert native.is_terminal() and st.over
            assert engine.payoffs(st) == tuple(Fraction(v) for v in native.returns())
    blackjack, engine = pyspiel.load_game("blackjack"), load_game(BLACKJACK)
    rng = random.Random(7)
    for _ in range(300):
        native, st = blackjack.new_initial_state(), engine.new_state(1)
        while not native.is_terminal():
            assert not st.over and native.is_chance_node() == engine.is_chance(st)
            if native.is_chance_node():
                action = rng.choice([o for o, _ in native.chance_outcomes()])
                engine.apply(st, _rank(native.action_to_string(pyspiel.PlayerId.CHANCE, action)))
            else:
                action = rng.choice(native.legal_actions())
                engine.apply(st, native.action_to_string(0, action))
            native.apply_action(action)
        assert st.over and engine.payoffs(st) == (Fraction(native.returns()[0]),)


def test_the_formatter_and_the_editors_know_payoff() -> None:
    from rulelang.fmt.formatter import format_text
    from rulelang.fmt.words import keywords
    from rulelang.lsp.analysis import local_binding
    from rulelang.lsp.textmate import grammar

    text = KUHN.read_text().replace("payoff p = net(p), between -2 and 2, zero sum",
                                    "payoff   p=net( p ) ,between -2   and 2,zero   sum")
    assert format_text(text, str(KUHN)) == KUHN.read_text()
    assert {"payoff", "between"} <= keywords()
    assert "payoff" in str(grammar())
    lines = KUHN.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("payoff p"))
    assert local_binding(lines, at, "p") == (at, 7, 8)


def test_deep_check_warns_when_ranking_and_payoff_disagree(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulelang.cli import main

    path = tmp_path / "t.rules"
    path.write_text('game "t"\nplayers 2 to 2\n' + DISAGREE + PAYS_CHIPS)
    out = CliRunner().invoke(main, ["check", "--deep", str(path)])
    assert out.exit_code == 0 and ": ok (t;" in out.stdout
    assert "a winner by the ranking did not get the highest payoff (the first: 2 players, seed" in out.stderr
    kuhn = CliRunner().invoke(main, ["check", "--deep", str(KUHN)])
    assert kuhn.exit_code == 0 and "warning" not in kuhn.output
