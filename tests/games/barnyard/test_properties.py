"""Barnyard Roundup played many times at random: every game ends, nothing is lost or doubled, the winner is right.

Hundreds of seeded games of games/barnyard.rules (2 to 6 players, and a few with each option
switched) and games/barnyard-2p.rules are played by random agents. After every step (each
chance outcome, choice and ``ask`` answer) every card and token is in exactly one place, and
the table keeps what the rulebook promises: hands never exceed the hand limit, Farm Animals
never leave a pen, removed cards never come back, a pen never waits for an Action Token it
has earned. At the start of each turn every hand is full and nothing lies face down. At the
end the deck and the hands are empty and the standings are recomputed here from the pens,
straight from the rulebook's Scoring section:

"When the game ends, determine who has the most of each type of Farm Animal and pass out
the Farm Animal bonus cards. If two or more players are tied for the most of a particular
Farm Animal, nobody gets the bonus for that type of Farm Animal. [...] you will get 10
points added to your score for each set that you managed to collect. [...] Whoever has the
most points after adding all this up is the winner. In case of a tie, the player with the
most Farm Animals is the winner. If there is STILL a tie, whoever has the least amount of
Crows is the winner."
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[3]
BASE = "games/barnyard.rules"
TWO = "games/barnyard-2p.rules"
ANIMALS = ["Cow", "Pig", "Sheep", "Goat", "Chicken"]
POINTS = {"Cow": 5, "Pig": 4, "Sheep": 3, "Goat": 2, "Chicken": 1, "Crow": -5}
BONUS = {"Cow": 10, "Pig": 8, "Sheep": 7, "Goat": 6, "Chicken": 4}  # option equal_bonuses = false
TOKENS = {"Robber", "ExcuseMe", "Scarecrow"}
MAX_STEPS = 5_000

RUNS: list[tuple[str, int, int, tuple[tuple[str, str], ...]]] = (
    [(BASE, 2 + seed % 5, seed, ()) for seed in range(200)]
    + [(TWO, 2, seed, ()) for seed in range(100)]
    + [(BASE, 2 + seed % 5, seed, (("scarecrow_split", "true"),)) for seed in range(30)]
    + [(BASE, 2 + seed % 5, seed, (("equal_bonuses", "false"),)) for seed in range(20)]
    + [(BASE, 2 + seed % 5, seed, (("crow_tokens_again", "false"),)) for seed in range(20)]
    + [(TWO, 2, seed, (("crow_tokens_again", "false"), ("scarecrow_split", "true"))) for seed in range(20)]
)


@cache
def engine_for(game: str, options: tuple[tuple[str, str], ...]) -> Engine:
    return rulelang.load_game(ROOT / game, dict(options) or None)


class View:
    """Reads a state by zone and kind name."""

    def __init__(self, engine: Engine, st: State) -> None:
        self.engine, self.st = engine, st
        self.zone = {z.name: z for z in engine.model.zones}
        self.kind_name = [engine.model.kinds[k].name for k in engine.program.kind_of]
        self.counter = {c.name: c.index for c in engine.model.counters}

    def ids(self, name: str, p: int | None = None) -> list[int]:
        content = self.st.zones[self.zone[name].index]
        return content[p] if p is not None else content

    def kinds(self, name: str, p: int | None = None) -> Counter[str]:
        return Counter(self.kind_name[c] for c in self.ids(name, p))

    def everything(self) -> list[int]:
        out: list[int] = []
        for z in self.engine.model.zones:
            content = self.st.zones[z.index]
            if z.per_player:
                for lst in content:
                    out.extend(lst)
            else:
                out.extend(content)
        return out

    def count(self, name: str, p: int | None = None) -> int:
        return len(self.ids(name, p))

    def value(self, name: str) -> Any:
        return self.st.counters[self.counter[name]]


def expected_standings(pens: list[Counter[str]], equal_bonuses: bool) -> list[dict[str, Any]]:
    """Scores and ranking straight from the rulebook's Scoring section (and the file's bonus ASSUMPTION)."""
    rows = []
    n = len(pens)
    for p, pen in enumerate(pens):
        sheet = {label: POINTS[k] * pen[k] for label, k in
                 zip(["Cows", "Pigs", "Sheep", "Goats", "Chickens", "Crows"], ANIMALS + ["Crow"])}
        sheet["Animal Bonus cards"] = sum(
            (5 if equal_bonuses else BONUS[k]) for k in ANIMALS
            if all(pen[k] > pens[q][k] for q in range(n) if q != p))
        sheet["Set Bonus cards"] = 10 * min(pen[k] for k in ANIMALS)
        animals = sum(pen[k] for k in ANIMALS)
        rows.append({"player": f"P{p + 1}", "keys": [sum(sheet.values()), animals, pen["Crow"]],
                     "sheets": {"final_score": sheet}})
    rows.sort(key=lambda r: (-r["keys"][0], -r["keys"][1], r["keys"][2], int(r["player"][1:])))
    for i, row in enumerate(rows):
        same = i > 0 and rows[i - 1]["keys"] == row["keys"]
        row["rank"] = rows[i - 1]["rank"] if same else i + 1
    return [{"player": r["player"], "rank": r["rank"], "keys": r["keys"], "sheets": r["sheets"]} for r in rows]


def play_checked(game: str, players: int, seed: int, options: tuple[tuple[str, str], ...]) -> State:
    engine = engine_for(game, options)
    st = engine.new_state(players)
    v = View(engine, st)
    total = engine.program.component_count
    hand_limit = 6 if players <= 4 else 5
    in_play = Counter({"Robber": players, "ExcuseMe": 0 if game == TWO else players, "Scarecrow": 1})
    chance = Rng(seed, stream=0)
    agents = [RandomAgent(seed, s) for s in range(players)]
    box_cards = 0
    pens_before = [Counter() for _ in range(players)]
    turn_seen = 0
    while not st.over:
        assert st.step < MAX_STEPS, f"{game} {players}p seed {seed}: no end after {MAX_STEPS} steps"
        if engine.is_chance(st):
            engine.apply_random(st, chance, events=False)
        else:
            d = engine.pending(st)
            assert d is not None and d.labels, "a choice with nothing to choose"
            seat = d.player if d.player is not None else st.current
            engine.apply(st, agents[seat].choose({}, list(d.labels)), player=seat)
        where = f"{game} {players}p seed {seed} step {st.step}"
        # every card and token is in exactly one place
        everything = v.everything()
        assert len(everything) == total and sorted(everything) == list(range(total)), where
        if st.turn == 0:  # still setting up
            continue
        # removed or discarded cards never come back; unused tokens stay in the box
        box = v.kinds("box")
        cards_in_box = sum(n for k, n in box.items() if k not in TOKENS)
        assert cards_in_box >= box_cards, where
        box_cards = cards_in_box
        assert box["Robber"] == 6 - in_play["Robber"] and box["ExcuseMe"] == 6 - in_play["ExcuseMe"], where
        tokens = Counter()
        for zone in ("pool", "held"):
            for p in (range(players) if zone == "held" else [None]):
                tokens += Counter({k: n for k, n in v.kinds(zone, p).items() if k in TOKENS})
        assert tokens == in_play, where
        for p in range(players):
            assert v.count("hand", p) <= hand_limit, where
            pen = v.kinds("pen", p)
            assert all(pen[k] >= pens_before[p][k] for k in ANIMALS), f"{where}: an animal left P{p + 1}'s pen"
            pens_before[p] = pen
            if p != st.current:
                assert v.count("laid", p) == 0, where
        laid = v.kinds("laid", st.current)
        assert len(laid) <= 1, f"{where}: laid cards do not match"
        if st.over:
            break
        d = engine.pending(st)
        if d is not None and d.kind == "choice":
            crow_tokens = v.value("crow_tokens")
            for p in range(players):
                assert v.kinds("pen", p)["Crow"] // 3 <= crow_tokens[p], f"{where}: P{p + 1} is owed a token"
                assert v.kinds("held", p)["Scarecrow"] == 0, f"{where}: the Scarecrow is kept"
            if st.turn != turn_seen:  # the first decision of a new turn
                turn_seen = st.turn
                for p in range(players):
                    assert v.count("hand", p) == hand_limit, f"{where}: P{p + 1}'s hand is not full"
                    assert v.count("laid", p) == 0, where
    return st


@pytest.mark.parametrize("chunk", range(10))
def test_random_games_end_with_every_component_in_one_place_and_the_right_winner(chunk: int) -> None:
    for game, players, seed, options in RUNS[chunk::10]:
        st = play_checked(game, players, seed, options)
        engine = engine_for(game, options)
        v = View(engine, st)
        where = f"{game} {players}p seed {seed} {options}"
        assert st.over and st.result is not None, where
        assert v.count("deck") == 0, f"{where}: the game ended with cards in the deck"
        for p in range(players):
            assert v.count("hand", p) == 0 and v.count("laid", p) == 0, where
        pens = [v.kinds("pen", p) for p in range(players)]
        equal = dict(options).get("equal_bonuses") != "false"
        assert st.result["standings"] == expected_standings(pens, equal), where
        winners = st.result["winners"]
        assert winners and winners == [r["player"] for r in st.result["standings"] if r["rank"] == 1], where


def test_the_runs_cover_every_player_count_and_both_files() -> None:
    assert {(g, n) for g, n, _s, _o in RUNS} == {(BASE, n) for n in range(2, 7)} | {(TWO, 2)}
    assert len(RUNS) >= 300
