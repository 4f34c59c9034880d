"""Rule the Roost: properties of many seeded random games (games/rule-the-roost.rules).

Hundreds of games of random players (2, 3 and 4 players; every chance outcome, choice and
egg answer drawn from a seeded stream) are played to the end. After every step each of
the 68 cards (and barns) is in exactly one place; at the end the barns are scored again
here, straight from the rulebook's words, and compared with the engine's standings.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from example_support import random_action

import rulelang
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[3]
GAME = ROOT / "games" / "rule-the-roost.rules"
GAMES_PER_COUNT = 100  # x 3 player counts: 300 games, a few seconds
MAX_STEPS = 5_000
COLOURS = ["RedRooster", "BlueRooster", "GreenRooster", "YellowRooster"]
TOTAL = {"Barn": 3, "RedRooster": 3, "BlueRooster": 3, "GreenRooster": 3, "YellowRooster": 3, "Chicken": 20,
         "Fox": 8, "Egg": 8, "Pitchfork": 15, "Key": 1, "Padlock": 1}


@cache
def engine() -> Engine:
    return rulelang.load_game(GAME)


class View:
    """Zone contents by name, as kind names."""

    def __init__(self, eng: Engine, st: State) -> None:
        self.eng = eng
        self.st = st
        self.zones = {z.name: z for z in eng.model.zones}
        self.kind_names = [eng.model.kinds[k].name for k in eng.program.kind_of]

    def ids(self, name: str, index: int | None = None) -> list[int]:
        content = self.st.zones[self.zones[name].index]
        return list(content if index is None else content[index])

    def kinds(self, name: str, index: int | None = None) -> Counter[str]:
        return Counter(self.kind_names[c] for c in self.ids(name, index))


def every_place(st: State) -> list[int]:
    """Every component id in every zone (per-player and per-barn zones flattened)."""
    out: list[int] = []
    for content in st.zones:
        if content and isinstance(content[0], list):
            for lst in content:
                out.extend(lst)
        else:
            out.extend(content)
    return out


def check_step(eng: Engine, st: State, players: int) -> None:
    """What holds after every step of a game."""
    where = every_place(st)
    assert sorted(where) == list(range(len(eng.program.kind_of))), (
        "a card is in two places or nowhere: "
        + str([eng.program.component_labels[c] for c, n in Counter(where).items() if n != 1]))
    v = View(eng, st)
    assert v.kinds("box") == Counter({c: 3 for c in COLOURS[players:]}), "only unused roosters stay in the box"
    assert len(v.ids("placing")) <= 1, "one card is placed at a time"
    for p in range(players):
        assert len(v.ids("hand", p)) <= 5, "a hand never holds more than five cards"
    locks = [v.ids("lock", b) for b in range(3)]
    assert sum(len(lock) for lock in locks) <= 1, "there is one padlock"
    assert v.kinds("barns") == Counter({"Barn": 3})


def book_scores(eng: Engine, st: State, players: int) -> list[int]:
    """Score the barns from the rulebook's words ("The End")."""
    v = View(eng, st)
    scores = [0] * players
    for b in range(3):
        under = v.kinds("under", b)
        roosters = [under[COLOURS[p]] for p in range(players)]
        most = max(roosters)
        if most == 0:
            continue
        holders = [p for p in range(players) if roosters[p] == most]
        chickens, foxes = under["Chicken"], under["Fox"]
        points = 0 if foxes >= chickens else chickens - foxes
        for p in holders:
            scores[p] += points // len(holders)
    return scores


def play_random(seed: int, players: int, on_step: Any = None) -> State:
    """One game of random players; ``on_step(state)`` after every step."""
    eng = engine()
    rng = Rng(seed, stream=7)
    st = eng.new_state(players)
    if on_step:
        on_step(st)
    while not st.over:
        # a chance outcome, a choice, or the egg question (everyone asked answers, in a random order)
        eng.apply(st, *random_action(eng, st, rng))
        if on_step:
            on_step(st)
        assert st.step < MAX_STEPS, "the game does not end"
    return st


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_card_in_exactly_one_place(players: int) -> None:
    """After every step of every game, each card is in exactly one place."""
    eng = engine()
    steps = 0
    for seed in range(GAMES_PER_COUNT):
        def on_step(st: State) -> None:
            check_step(eng, st, players)

        st = play_random(seed, players, on_step)
        steps += st.step
    assert steps > GAMES_PER_COUNT * 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_end_with_every_card_played(players: int) -> None:
    """"Once the draw deck is empty, the players continue to play their hands until no one
    can place anymore cards on the table." At the end the deck and every hand are empty,
    no card is left half-placed, and every card dealt is under a barn, on a barn (the
    padlock) or on the discard pile (eggs, blocked cards, farmers)."""
    eng = engine()
    for seed in range(GAMES_PER_COUNT):
        st = play_random(seed, players)
        v = View(eng, st)
        assert not v.ids("deck") and not v.ids("placing"), seed
        assert all(not v.ids("hand", p) for p in range(players)), seed
        under = sum((v.kinds("under", b) for b in range(3)), Counter())
        discard = v.kinds("discard")
        locks = sum((v.kinds("lock", b) for b in range(3)), Counter())
        assert locks == Counter({"Padlock": 1}), seed  # the padlock is always played
        assert discard["Pitchfork"] == 15 and discard["Key"] == 1, seed  # every farmer is played and discarded
        assert not under["Pitchfork"] and not under["Key"] and not under["Padlock"], seed
        in_play = Counter({k: n for k, n in TOTAL.items() if k != "Barn" and k not in COLOURS[players:]})
        assert under + discard + locks == in_play, seed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scores_follow_the_book(players: int) -> None:
    """"For every barn, all the cards are laid out on the table. It is first determined which
    player has the majority of roosters in each barn. All the chicken cards are then counted
    with a value of one victory point for each. For every fox card in the barn, one point is
    deducted. If two or more players have the majority of roosters in a barn, the points are
    split evenly amongst them. Players cannot earn fractions of points." """
    eng = engine()
    for seed in range(GAMES_PER_COUNT):
        st = play_random(seed, players)
        assert st.result is not None
        got = {r["player"]: r["keys"][0] for r in st.result["standings"]}
        want = book_scores(eng, st, players)
        assert got == {f"P{p + 1}": want[p] for p in range(players)}, seed
        best = max(want)
        assert sorted(st.result["winners"]) == [f"P{p + 1}" for p in range(players) if want[p] == best], seed


def test_turns_pass_in_order_unless_an_egg_says_otherwise() -> None:
    """"[...] the turn is given to the person who played the egg card." / "Furthermore, she
    receives another turn after playing this card." / "The turn is given to the next player
    in the usual order of play." Turn by turn: one egg hands the turn to its thrower, two or
    more give the placer another turn, and otherwise the next player (with cards or not)
    plays."""
    eng = engine()
    for seed in range(60):
        players = 2 + seed % 3
        rng = Rng(seed, stream=9)
        st = eng.new_state(players)
        expected: int | None = None
        turn = 0
        last_action: str | None = None
        answers: dict[int, str] = {}
        turn_player = 0
        while not st.over:
            if st.turn != turn:  # a new turn started
                if expected is not None:  # turns in between were of players with nothing to place
                    assert st.current == (expected + st.turn - turn - 1) % players, (seed, st.turn, last_action)
                turn = st.turn
                turn_player = st.current
                answers = {}
                last_action = None
            d = eng.pending(st)
            assert d is not None
            if d.kind == "chance":
                eng.apply(st, d.sample(rng))
                continue
            if d.players is not None:
                who = d.players[0]
                options = eng.legal_actions(st, who)
                answer = options[rng.below(len(options))]
                answers[who] = answer
                eng.apply(st, answer, player=who)
            else:
                labels = d.labels or []
                action = labels[rng.below(len(labels))]
                if d.player == turn_player and last_action is None:
                    last_action = action
                eng.apply(st, action)
            throwers = [p for p, a in answers.items() if a == "throw an egg"]
            if last_action is not None and last_action.startswith("place") and len(throwers) == 1:
                expected = throwers[0]
            elif last_action is not None and last_action.startswith("place") and len(throwers) >= 2:
                expected = turn_player
            else:
                expected = (turn_player + 1) % players
