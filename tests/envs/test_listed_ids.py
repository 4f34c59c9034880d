"""The compiled listing with action ids (``ChooseSpec.ids``, ``State.id_tables``) against the old path.

On every shipped game and example, random walks are played twice in lockstep: one state holds the
action space's tables (its choices are listed with their ids as the engine lists them), the other
does not (its options listed plain, their ids looked up by ``ActionSpace.choose_ids``). At every
decision both give the same options, the same action ids (and those are what the action space's
blocks compute from the values), the same labels and the same action strings; after every step the
two states are equal, locals included (listing leaves values in ``loc``).
"""

from __future__ import annotations

import random

import pytest
from ids_support import GAMES
from ids_support import fresh_ids as _fresh_ids
from ids_support import spec_of as _spec

from rulelang.compile.runtime import Listed
from rulelang.engine.choices import listed_with_ids
from rulelang.envs.actions import ActionSpaceError, build_action_space
from rulelang.rng import Rng


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_listing_with_ids_gives_the_old_paths_ids_labels_and_states(path) -> None:
    engine, players, space = _spec(path)
    rng = random.Random(7)
    decisions = listed = 0
    for game in range(4):
        new, old = engine.new_state(players), engine.new_state(players)
        new.choice_cache = None  # (listed again, now with the tables)
        new.id_tables = space.tables
        assert old.id_tables is None
        chance = (Rng(game, stream=0), Rng(game, stream=0))
        steps = 0
        while not new.over and steps < 400:
            assert not old.over
            steps += 1
            if engine.is_chance(new):
                assert engine.is_chance(old)
                events = engine.apply_random(new, chance[0], events=True)
                assert events == engine.apply_random(old, chance[1], events=True)
                assert new.to_json() == old.to_json()
                continue
            kind, seat, spec, options = engine.decision_options(new)
            kind_old, seat_old, spec_old, options_old = engine.decision_options(old)
            assert (kind, seat, spec) == (kind_old, seat_old, spec_old)
            assert list(options) == list(options_old)
            assert engine.legal_actions(new) == engine.legal_actions(old)  # the labels
            if kind == "choose":
                decisions += spec.ids is not None  # (a choice without 'for's is listed plain: ids found kept)
                assert type(options_old) is not Listed
                ids_old = space.choose_ids(spec, options_old, None)
                ids_new = space.choose_ids(spec, options, None)
                assert ids_new == ids_old == _fresh_ids(space, spec, options)
                if type(options) is Listed:
                    listed += 1
                    assert options.ids == ids_old
                # listed again with the tables, from the same state: the same options, ids and locals
                copy = new.copy()
                fr = copy.stack[-1]
                again = listed_with_ids(spec, copy, fr[2], space.tables)
                assert list(again) == list(options)
                assert type(again) is not Listed or again.ids == ids_old
                assert copy.to_json() == new.to_json()
                assert [space.string(i) for i in ids_new] == [space.string(i) for i in ids_old]
                i = rng.randrange(len(options))
                engine.apply_index(new, i)
                engine.apply_index(old, i)
            else:
                answer = rng.randrange(len(options))
                engine.answer(new, (seat, options), answer)
                engine.answer(old, (seat_old, options_old), answer)
            assert new.to_json() == old.to_json()
        assert new.over == old.over
    assert listed == decisions  # every choice with 'for's was listed with its ids (no value outside its domain)


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


def test_a_value_outside_its_domain_is_listed_plain_and_its_error_raised_as_before(tmp_path) -> None:
    """A range bounded by ``max_actions`` only: while its values are in the domain, the choice is listed with
    its ids; once one is outside, the listing with ids gives up (no wrong id) and the options come plain,
    the same, and the action space raises its error as it did."""
    from rulelang import load_game

    rules = tmp_path / "counting.rules"
    rules.write_text(UNBOUNDED)
    engine = load_game(rules)
    space = build_action_space(engine, 2, max_actions=4)
    st = engine.new_state(2)
    st.choice_cache = None
    st.id_tables = space.tables
    seen = []
    while not st.over:
        kind, _seat, spec, options = engine.decision_options(st)
        plain = spec.enum(st.copy(), st.copy().stack[-1][2])
        assert list(options) == list(plain)
        if len(options) > space.size:
            assert type(options) is not Listed
            with pytest.raises(ActionSpaceError, match="outside the domains"):
                space.choose_ids(spec, options, None)
            seen.append("plain")
            break
        assert type(options) is Listed and options.ids == space.choose_ids(spec, list(options), None)
        seen.append("ids")
        engine.apply_index(st, len(options) - 1)
    assert seen[0] == "ids" and seen[-1] == "plain"
