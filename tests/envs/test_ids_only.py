"""The choices listed as their action ids alone (``ChooseSpec.only``, ``IdTables``, ``IdsOnly``) against the old path.

Where play stops at a choice with ``for``s in a state holding ``IdTables`` (the OpenSpiel adapter's), the
compiled listing writes only the options' ids, and the adapter binds the option taken from its id
(``ActionSpace.option_of``, ``Engine.apply_option``). On every shipped game and example, random walks are
played in lockstep with the old path (the options listed, with their ids or plain): the same ids, the
same options bound from them, the same labels, the same states after every step (locals included), and
through the adapter the same legal actions, chance outcomes, returns, strings and errors.
"""

from __future__ import annotations

import random

import pytest
from env_support import ROOT
from ids_support import GAMES
from ids_support import fresh_ids as _fresh_ids
from ids_support import spec_of as _spec

pyspiel = pytest.importorskip("pyspiel")

from rulelang.compile.runtime import IdsOnly, Listed  # noqa: E402
from rulelang.engine.choices import IdTables  # noqa: E402
from rulelang.envs import openspiel as adapter  # noqa: E402
from rulelang.envs.actions import ActionSpaceError  # noqa: E402
from rulelang.errors import RulelangError  # noqa: E402
from rulelang.rng import Rng  # noqa: E402

CHICKEN = ROOT / "games" / "chicken.rules"


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_ids_alone_bind_the_options_the_old_path_lists(path) -> None:
    """The engine with ``IdTables`` against the engine with no tables: where play stops at a choice with
    ``for``s, its ids alone, equal to the ids of the options listed the old way; each id stands for the
    option at its position (``option_of``); taken by its option (``apply_option``), or by its position
    after the options were asked for (listed again from the same state), the same state as the old path."""
    engine, players, space = _spec(path)
    rng = random.Random(11)
    alone = with_fors = 0
    for game in range(4):
        new, old = engine.new_state(players), engine.new_state(players)
        new.choice_cache = None  # (listed again, now with the tables)
        new.id_tables = IdTables(space.tables)
        chance = (Rng(game, stream=0), Rng(game, stream=0))
        steps = 0
        while not new.over and steps < 400:
            assert not old.over
            steps += 1
            if engine.is_chance(new):
                events = engine.apply_random(new, chance[0], events=True)
                assert events == engine.apply_random(old, chance[1], events=True)
                assert new.to_json() == old.to_json()
                continue
            kind, seat, spec, options = engine.decision_options(new)
            kind_old, seat_old, spec_old, options_old = engine.decision_options(old)
            assert (kind, seat, spec) == (kind_old, seat_old, spec_old)
            if kind == "choose":
                with_fors += spec.ids is not None
                ids_old = space.choose_ids(spec, options_old, None)
                assert ids_old == _fresh_ids(space, spec, options_old)
                assert space.choose_ids(spec, options, None) == ids_old
                i = rng.randrange(len(options_old))
                if type(options) is IdsOnly:
                    alone += 1
                    assert list(options) == ids_old
                    assert [space.option_of(spec, a) for a in options] == list(options_old)
                    # listed again from a copy, with the options: the same, and the same locals left
                    copy = new.copy()
                    again = engine.decision_options(copy)[3]
                    assert type(again) is Listed and list(again) == list(options_old) and again.ids == ids_old
                    assert copy.to_json() == new.to_json()
                    if steps % 3:
                        engine.apply_option(new, space.option_of(spec, options[i]), len(options) == 1)
                    else:  # the options asked for (labels): listed again here, then taken by position
                        assert engine.legal_actions(new) == engine.legal_actions(old)
                        assert type(new.choice_cache) is Listed
                        engine.apply_index(new, i)
                else:
                    assert list(options) == list(options_old)
                    assert engine.legal_actions(new) == engine.legal_actions(old)
                    engine.apply_index(new, i)
                engine.apply_index(old, i)
            else:
                answer = rng.randrange(len(options))
                engine.answer(new, (seat, options), answer)
                engine.answer(old, (seat_old, options_old), answer)
            assert new.to_json() == old.to_json()
        assert new.over == old.over
    assert alone == with_fors  # every choice with 'for's, where play stopped, was listed as its ids alone


def _games(path, monkeypatch, length: int):
    """The game through the adapter as loaded (ids alone) and with its choices listed with their options
    (plain tables: the old path), nothing kept, each its own loaded game."""
    new = adapter.load(path, max_game_length=length)
    new.loaded.keep = 0
    with monkeypatch.context() as patch:
        patch.setattr(adapter, "IdTables", lambda tables: tables)
        old = adapter.load(path, max_game_length=length + 1)
    old.loaded.keep = 0
    assert type(new.loaded.start.id_tables) is IdTables and type(old.loaded.start.id_tables) is dict
    return new, old


def _same(a, b) -> None:
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a._st.to_json() == b._st.to_json()
    if a.is_terminal():
        assert a.returns() == b.returns()
    elif a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    else:
        assert a.legal_actions() == b.legal_actions()


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_adapter_with_ids_alone_plays_the_old_paths_games(path, monkeypatch) -> None:
    """Random games through the OpenSpiel adapter, ids alone against the old path, in lockstep: the same
    nodes, legal actions, chance outcomes, engine states, returns, histories and strings; an action that is
    not legal refused alike (nothing changed); a clone sent another way leaves the original as it was."""
    new_game, old_game = _games(path, monkeypatch, 5000)
    rng = random.Random(5)
    for _ in range(1 if path == CHICKEN else 3):
        new, old = new_game.new_initial_state(), old_game.new_initial_state()
        while True:
            _same(new, old)
            if new.is_terminal():
                break
            if new.is_chance_node():
                outcomes = new.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = new.legal_actions()
                assert new.information_state_string() == old.information_state_string()
                refused = [a for a in range(new_game.num_distinct_actions()) if a not in legal][:1]
                for bad in refused:
                    with pytest.raises(RulelangError) as got_new:
                        new.apply_action(bad)
                    with pytest.raises(RulelangError) as got_old:
                        old.apply_action(bad)
                    assert str(got_new.value) == str(got_old.value)
                    _same(new, old)
                action = legal[rng.randrange(len(legal))]
                if len(legal) > 1 and rng.random() < 0.2:  # a clone sent another way
                    other = legal[(legal.index(action) + 1) % len(legal)]
                    twin_new, twin_old = new.clone(), old.clone()
                    twin_new.apply_action(other)
                    twin_old.apply_action(other)
                    _same(twin_new, twin_old)
                    assert twin_new.history() == twin_old.history()
            new.apply_action(action)
            old.apply_action(action)
            assert new.history() == old.history()
            assert str(new) == str(old)


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
"""


def test_a_value_outside_its_domain_raises_the_same_error_with_ids_alone(tmp_path, monkeypatch) -> None:
    """A range bounded by ``max_actions`` only, through the adapter: listed as its ids alone while its values
    fit, the same legal actions as the old path; once one does not, no wrong id: ``ActionSpaceError`` as
    before, on both paths alike."""
    rules = tmp_path / "counting.rules"
    rules.write_text(UNBOUNDED)
    new_game = adapter.load(rules, players=2, max_actions=4)
    with monkeypatch.context() as patch:
        patch.setattr(adapter, "IdTables", lambda tables: tables)
        old_game = adapter.load(rules, players=2, max_actions=4, max_game_length=adapter.DEFAULT_MAX_GAME_LENGTH + 1)
    new, old = new_game.new_initial_state(), old_game.new_initial_state()
    alone = 0
    errors = []
    for state, game in ((new, new_game), (old, old_game)):
        try:
            while not state.is_terminal():
                if game is new_game:
                    alone += type(state._st.choice_cache) is IdsOnly
                legal = state.legal_actions()
                state.apply_action(legal[-1])
        except ActionSpaceError as err:
            errors.append(str(err))
    assert alone > 0
    assert len(errors) == 2 and errors[0] == errors[1] and "outside the domains" in errors[0]
    assert new._st.to_json() == old._st.to_json()


def _answer_one_by_one(engine, st, most: int):
    """What ``answer_forced`` stands for: ``ask_answers`` and ``answer`` while the answer is forced, until the
    ask is left (or, with after-step triggers, after one answer: play went through the loop)."""
    answered = []
    while len(answered) < most:
        who, allowed = engine.ask_answers(st)
        if len(allowed) != 1:
            return answered, (who, allowed)
        answered.append(who)
        fr = st.stack[-1]
        last = len(fr[2][engine.code[fr[0]][fr[1]][1].pending_slot]) == 1
        engine.answer(st, (who, allowed), 0)
        if last or engine.after_step:
            break
    return answered, None


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_forced_answers_given_at_once_are_those_given_one_by_one(path) -> None:
    """``Engine.answer_forced`` (the adapter's forced answers of an ask, given in one call) against
    ``ask_answers`` and ``answer`` one by one, at every ask of random games, at most 1, 2 or all of them:
    the same who answered, the same next answers, the same state (locals, step, answers) after."""
    engine, players, _space = _spec(path)
    rng = random.Random(3)
    asks = 0
    for game in range(4):
        st = engine.new_state(players)
        chance = Rng(game, stream=0)
        steps = 0
        while not st.over and steps < 400:
            steps += 1
            if engine.is_chance(st):
                engine.apply_random(st, chance)
                continue
            asked = engine.ask_answers(st)
            if asked is not None:
                asks += 1
                for most in (1, 2, 10_000):
                    one, together = st.copy(), st.copy()
                    assert engine.answer_forced(together, most) == _answer_one_by_one(engine, one, most)
                    assert together.to_json() == one.to_json()
                engine.answer(st, asked, rng.randrange(len(asked[1])))
            else:
                engine.apply_index(st, rng.randrange(engine.choice_size(st)[1]))
    if path.stem == "barnyard":  # (its asks: most answers forced)
        assert asks > 20
