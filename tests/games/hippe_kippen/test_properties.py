"""Hippe Kippen: properties of many seeded random games (games/hippe-kippen.rules).

A hundred games of random players (four hundred with ``-m fuzz``) (2 to 5 players; every chance outcome and choice drawn
from a seeded stream) are played to the end, narrated. After every step each of the 111
components (110 cards and the fox) is in exactly one place, no player has two collections
of one colour (notes: "A player may own only one collection of each motif"), a doubler is
the last card of its collection, and the action points a turn spends, read from the
play-by-play, go 3 -> 0 without ever going below 0 or ending a turn early. Each game ends at
the 10th Rooster Booster card, after exactly three scorings.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from example_support import random_action

import rulelang
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.rng import Rng

GAME = "games/hippe-kippen.rules"
GAMES = {2: 10, 3: 25, 4: 30, 5: 35}  # 100 games, about 12 s
MORE = {2: 40, 3: 100, 4: 120, 5: 140}  # 400 games, opt-in
LEFT = re.compile(r"^\((P\d) has (\d+) of 3 action points left\)$")

pytestmark = pytest.mark.usefixtures("at_root")


@cache
def engine() -> Engine:
    return rulelang.load_game(GAME)


def check_table(eng: Engine, st: State) -> None:
    zones = {z.name: z for z in eng.model.zones}
    everywhere: list[int] = []
    for z in eng.model.zones:
        content = st.zones[z.index]
        if z.per_player or z.per_class is not None:
            for pile in content:
                everywhere += pile
        else:
            everywhere += content
    assert sorted(everywhere) == list(range(eng.program.component_count))  # each in one place
    kind_of, kinds = eng.program.kind_of, eng.model.kinds
    up = st.zones[zones["up"].index]
    for p in range(st.players):
        colours = []
        for chest in st.zones[zones["chests"].index][p]:
            pile = [kinds[kind_of[c]].name for c in up[chest]]
            if pile:
                assert kinds[kind_of[up[chest][0]]].values.get("colour"), pile  # a colour card first
                colours.append(pile[0])
                assert all(k in (pile[0], "Joker", "Doubler") for k in pile), pile
                assert "Doubler" not in pile[:-1], pile  # the doubler is the last card
        assert len(colours) == len(set(colours)), colours


def play_checked(players: int, seed: int) -> None:
    eng = engine()
    st = eng.new_state(players, narrate=True)
    rng = Rng(seed, stream=7)
    left: dict[str, int] = {}
    sheets = 0
    steps = 0
    turn_player = None
    while not st.over:
        eng.apply(st, *random_action(eng, st, rng))
        steps += 1
        assert steps < 20_000
        for event in st.log or []:
            if event["type"] == "turn":
                if turn_player is not None:
                    assert left.get(turn_player) == 0, f"{turn_player} ended a turn with points left"
                turn_player = event["player"]
                left[turn_player] = 3
            elif event["type"] == "say":
                m = LEFT.match(event["text"])
                if m:
                    who, now = m.group(1), int(m.group(2))
                    assert who == turn_player
                    assert 0 <= now < left[who]  # every action costs something, and never more than is left
                    left[who] = now
            elif event["type"] == "sheet":
                sheets += 1
        st.log = []
        check_table(eng, st)
    aside = next(z for z in eng.model.zones if z.name == "aside")
    assert len(st.zones[aside.index]) == 10
    assert sheets == 3
    score = next(c for c in eng.model.counters if c.name == "score")
    assert [row["keys"][0] for row in sorted(st.result["standings"], key=lambda r: r["player"])] == \
        st.counters[score.index]


@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_keep_the_rules(players: int) -> None:
    for seed in range(GAMES[players]):
        play_checked(players, seed)


@pytest.mark.fuzz
@pytest.mark.parametrize("players", sorted(MORE))
def test_more_random_games_keep_the_rules(players: int) -> None:
    for seed in range(GAMES[players], GAMES[players] + MORE[players]):
        play_checked(players, seed)
