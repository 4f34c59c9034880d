"""The fixed action space (rulelang/envs/actions.py): one id per option for the whole game,
the same label at every decision of every game, for every shipped game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from env_support import CHICKEN, GAMES, ROOT, players_for

from rulelang import load_game
from rulelang.envs.actions import ActionSpaceError, build_action_space, legal_ids
from rulelang.rng import Rng


def _pattern(stable: str) -> re.Pattern[str]:
    """The labels an id's stable text stands for: its holes that read the state match any text."""
    pieces = re.split(r"\{[^{}]*\}", stable)
    return re.compile("^" + ".+?".join(re.escape(p) for p in pieces) + "$", re.DOTALL)


def _labels(engine, st) -> list[str]:
    d = engine.pending(st)
    return list(d.labels)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_an_action_id_means_the_same_label_at_every_decision(path: Path) -> None:
    engine = load_game(path)
    n = players_for(path)
    space = build_action_space(engine, n)
    meaning: dict[int, set[str]] = {}
    decisions = 0
    for seed in range(6):
        st = engine.new_state(n)
        chance, pick = Rng(seed, stream=0), Rng(seed, stream=1)
        steps = 0
        while not st.over and steps < 400:
            steps += 1
            if engine.is_chance(st):
                engine.apply_random(st, chance, events=False)
                continue
            seat, ids = legal_ids(engine, space, st)
            labels = _labels(engine, st)
            assert len(ids) == len(labels) and len(set(ids)) == len(ids)  # one id per legal action, none twice
            assert all(0 <= i < space.size for i in ids)
            for i, label in zip(ids, labels):
                stable = space.string(i)
                assert _pattern(stable).match(label), (stable, label)
                meaning.setdefault(i, set()).add(label)
            decisions += 1
            d = engine.pending(st)
            engine.apply(st, labels[pick.below(len(labels))], player=seat if d.players else d.player)
    assert decisions > 20
    fixed = [i for i in meaning if "{" not in space.string(i)]
    assert fixed and all(meaning[i] == {space.string(i)} for i in fixed)  # no hole reading the state: its label


def test_ids_are_the_same_for_every_engine_of_a_game() -> None:
    one = build_action_space(load_game(CHICKEN), 2)
    two = build_action_space(load_game(CHICKEN), 2)
    assert one.size == two.size == 4
    assert [one.string(i) for i in range(4)] == [two.string(i) for i in range(4)] == \
        ["Go For It!", "Chicken Out!", "Reroll", "Count Your Chickens"]


UNBOUNDED = """game "Counting"
players 2 to 3
counter score per player = 1 "points"

setup:
  pass

turn:
  choose:
    "add {n}" for n in 1 to score of current:
      score of current += n
  if score of current >= 50:
    end game

rank p by highest score of p
"""


def test_a_range_the_model_does_not_bound_is_an_error_naming_the_option(tmp_path: Path) -> None:
    rules = tmp_path / "counting.rules"
    rules.write_text(UNBOUNDED)
    engine = load_game(rules)
    with pytest.raises(ActionSpaceError) as err:
        build_action_space(engine, 2)
    assert "'add {1}' ranges over numbers the model does not bound" in str(err.value)
    assert "max_actions" in (err.value.hint or "")
    bounded = build_action_space(engine, 2, max_actions=64)  # the declared bound sizes the range
    assert bounded.size <= 64


def test_a_total_of_counts_of_each_players_own_zone_is_bounded_by_one_count() -> None:
    """Liar's Dice bids up to ``on_table = total(count(all in cup of p) for p in players)``: the cups are
    apart, so the total is at most the dice there are (not players times as many)."""
    engine = load_game(ROOT / "examples" / "new-games" / "liars-dice.rules")
    dice = sum(k.count for k in engine.model.kinds)
    space = build_action_space(engine, 2)
    bids = [space.string(i) for i in range(space.size) if space.string(i).startswith("bid ")]
    assert max(int(b.split()[1]) for b in bids) == dice
    assert len(bids) == dice * len(engine.model.faces)


def test_a_declared_bound_smaller_than_the_space_is_an_error_never_a_truncation() -> None:
    with pytest.raises(ActionSpaceError, match="has 4 distinct actions .* max_actions=3"):
        build_action_space(load_game(CHICKEN), 2, max_actions=3)
