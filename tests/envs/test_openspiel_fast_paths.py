"""The OpenSpiel adapter's fast paths play exactly as the engine's general ones: a roll's
outcomes cached per die kind and applied without a Decision, cached legal actions, chance
probabilities and returns, and new states copied from the settled start."""

from __future__ import annotations

import random

import pytest
from env_support import CHICKEN, ROOT

pytest.importorskip("numpy", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")
pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")

from rulelang.compile.runtime import IdsOnly, Listed  # noqa: E402
from rulelang.envs.actions import legal_ids  # noqa: E402
from rulelang.envs.common import chance_outcomes, payoffs  # noqa: E402
from rulelang.envs.openspiel import load  # noqa: E402
from rulelang.errors import RulelangError  # noqa: E402

KUHN = ROOT / "examples" / "kuhn-poker" / "kuhn-poker.rules"


def _play_and_check(path, seed: int) -> int:
    """A random game (no forced steps skipped) whose every step is checked against the engine's general path;
    returns the number of rolls."""
    game = load(path, players=2, skip_forced=False)
    engine = game.loaded.spec.engine
    rng = random.Random(seed)
    state = game.new_initial_state()
    rolls = 0
    while not state.is_terminal():
        mirror = state.engine_state()
        if state.is_chance_node():
            shuffled = state._progress.shuffled
            general = [o for o in chance_outcomes(engine, mirror, shuffled) if o[2] > 0]
            total = sum(w for _i, _l, w in general)
            assert state.chance_outcomes() == [(i, w / total) for i, _l, w in general]
            assert state.chance_outcomes() == [(i, w / total) for i, _l, w in general]  # cached: the same again
            action, label, _w = general[rng.randrange(len(general))]
            d = engine.pending(mirror)
            rolls += "roll" in d.event
            if d.pool is None:
                engine.apply(mirror, label)
            elif len(shuffled) + 1 == len(d.pool):
                engine.apply(mirror, [*shuffled, label])
            state.apply_action(action)
        else:
            legal = state.legal_actions()
            assert legal == state.legal_actions(state.current_player())
            before = state.clone()
            position = rng.randrange(len(legal))
            state.apply_action(legal[position])
            assert before.legal_actions() == legal  # a clone keeps its own caches
            mirror = state.engine_state()
        assert state.engine_state().to_json() == mirror.to_json()
    assert state.returns() == payoffs(engine, state.engine_state(), 2)
    assert state.returns() == state.clone().returns()
    return rolls


def test_rolls_through_the_cache_play_as_the_engine_applies_them() -> None:
    rolls = sum(_play_and_check(CHICKEN, seed) for seed in range(3))
    assert rolls > 20  # the roll fast path was taken


def test_draws_and_returns_on_kuhn_are_the_engines() -> None:
    game = load(KUHN, players=2)
    seen = set()
    for seed in range(12):
        _play_and_check(KUHN, seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        seen.add(tuple(state.returns()))
    assert len(seen) > 1 and all(sum(r) == 0 for r in seen)


def _walk(game, seed: int, games: int) -> list:
    """Every node of ``games`` random games (with a clone at each decision sent down another action):
    who moves, the legal actions or chance outcomes, each player's strings, the engine state, the returns."""
    rng = random.Random(seed)
    seen = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            row = [state.current_player(), state.history(), state.engine_state().to_json(),
                   [state.information_state_string(p) for p in range(game.num_players())]]
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                row.append(outcomes)
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                row.append(legal)
                other = state.clone()
                other.apply_action(legal[-1])  # the clone goes its own way; the state keeps its own
                row.append([other.history(), other.engine_state().to_json(), other.is_terminal()])
                state.apply_action(legal[rng.randrange(len(legal))])
            seen.append(row)
        seen.append([state.history(), state.returns(), state.engine_state().to_json()])
    return seen


@pytest.mark.parametrize("path", [KUHN, ROOT / "examples" / "leduc-poker" / "leduc-poker.rules", CHICKEN])
def test_positions_kept_by_history_are_the_positions_computed_afresh(path) -> None:
    """A history played again is looked up among the kept positions (``Progress.children``): the same nodes,
    actions, outcomes, strings, engine states and returns as with nothing kept, clones included."""
    kept = load(path, players=2)
    fresh = load(path, players=2, max_game_length=100_001)  # another loaded game, with nothing kept
    fresh.loaded.keep = 0
    assert kept.loaded is not fresh.loaded and kept.loaded.keep > 0
    games = 3 if path == CHICKEN else 60  # (a Chicken! game is long: its perfect-recall strings grow with it)
    assert _walk(kept, 4, games) == _walk(fresh, 4, games)
    assert kept.loaded.initial.children  # (positions were kept, and looked up: the same walk twice)
    assert _walk(kept, 4, games) == _walk(fresh, 4, games)


def test_action_ids_of_option_lists_seen_before_are_computed_afresh() -> None:
    """Barnyard's choices, played at random: the ids the action space keeps per option list (and per option's
    values) are the ids its blocks compute from the values, and so are the ids the compiled listing wrote
    (``Listed.ids``, and the ids alone where play stopped: ``IdsOnly``) and the adapter's legal actions."""
    game = load(ROOT / "games" / "barnyard.rules", players=2)
    game.loaded.keep = 0
    space = game.actions
    engine = game.engine
    rng = random.Random(3)
    checked = only = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            kind, _seat, spec, listed = engine.decision_options(state._st)
            legal = state.legal_actions()
            alone = None
            if type(listed) is IdsOnly:  # (a choice with 'for's, where play stopped: its ids alone)
                alone = list(listed)
                listed = engine.decision_options(state._st.copy())[3]  # listed again, with the options
                only += 1
            if kind == "choose":
                fresh = [space.choose[id(spec)][index].id_of(values) if values else space.choose[id(spec)][index].base
                         for index, values in listed]
                # listed with their ids (a choice with 'for's; one without has its kept list of ids)
                assert (type(listed) is Listed and listed.ids == fresh) if spec.ids is not None else \
                    type(listed) is not Listed
                plain = list(listed)  # the ids looked up from the options
                assert space.choose_ids(spec, plain, None) == fresh
                assert space.choose_ids(spec, plain, None) == fresh  # kept: the same again
                assert legal == sorted(fresh)
                assert alone is None and spec.ids is None or alone == fresh
                checked += 1
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 20 and only > 10
    assert space.lists  # option lists were kept


LEDUC = ROOT / "examples" / "leduc-poker" / "leduc-poker.rules"
BARNYARD = ROOT / "games" / "barnyard.rules"
GOOFSPIEL = ROOT / "examples" / "goofspiel" / "goofspiel.rules"


def _general_forced(engine, mirror, space) -> None:
    """Apply, by the general path, decisions with one legal action and chance with one outcome (skip_forced)."""
    while not mirror.over:
        if engine.is_chance(mirror):
            general = [o for o in chance_outcomes(engine, mirror, ()) if o[2] > 0]
            d = engine.pending(mirror)
            if len(general) != 1 or d.pool is not None and len(d.pool) > 1:
                return
            engine.apply(mirror, general[0][1] if d.pool is None else [general[0][1]])
        else:
            _seat, ids = legal_ids(engine, space, mirror)
            if len(ids) != 1:
                return
            _general_decide(engine, mirror, 0)


def _general_decide(engine, mirror, position: int) -> None:
    if engine.choice_size(mirror) is not None:
        engine.apply_index(mirror, position)
    else:
        answers = engine.ask_answers(mirror)
        engine.answer(mirror, answers, position)


def _outcome(f, *args) -> tuple:
    """What a call gives: ("value", its value) or ("error", the error's type and text)."""
    try:
        return "value", f(*args)
    except Exception as exc:  # (pyspiel's own errors, e.g. the legal actions of a player who does not move)
        return "error", type(exc).__name__, str(exc)


def _against_the_general_path(path, seed: int, skip_forced: bool) -> int:
    """A random game through the adapter (nothing kept), each step checked against a state of its own played
    by the engine's general path (pending, labels, apply; its result written at the end as usual): the same
    chance outcomes and probabilities, the same action ids, the same engine state after each action, the same
    returns. Returns the number of nodes."""
    game = load(path, players=2, skip_forced=skip_forced, max_game_length=100_002 + skip_forced)
    game.loaded.keep = 0
    engine = game.loaded.spec.engine
    space = game.loaded.spec.actions
    mirror = engine.new_state(2)
    shuffled: list[str] = []
    if skip_forced:
        _general_forced(engine, mirror, space)
    rng = random.Random(seed)
    state = game.new_initial_state()
    nodes = 0
    while not state.is_terminal():
        nodes += 1
        assert not mirror.over
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state) == engine.is_chance(mirror)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for p in (-1, 0, 1):
            assert _outcome(state.legal_actions, p) == _outcome(pyspiel.State.legal_actions, state, p)
        if state.is_chance_node():
            general = [o for o in chance_outcomes(engine, mirror, shuffled) if o[2] > 0]
            total = sum(w for _i, _l, w in general)
            assert state.chance_outcomes() == [(i, w / total) for i, _l, w in general]
            action, label, _w = general[rng.randrange(len(general))]
            d = engine.pending(mirror)
            if d.pool is None:
                engine.apply(mirror, label)
            else:
                shuffled.append(label)
                left = [o for o in chance_outcomes(engine, mirror, shuffled) if o[2] > 0]
                if skip_forced and len(left) == 1:  # the adapter deals the forced rest of the shuffle itself
                    shuffled.extend([left[0][1]] * left[0][2])
                if len(shuffled) == len(d.pool):
                    engine.apply(mirror, shuffled)
                    shuffled = []
        else:
            seat, ids = legal_ids(engine, space, mirror)
            assert state.current_player() == seat and state.legal_actions() == sorted(ids)
            action = ids[rng.randrange(len(ids))]
            _general_decide(engine, mirror, ids.index(action))
        state.apply_action(action)
        if skip_forced and not shuffled:
            _general_forced(engine, mirror, space)
        if not shuffled:
            assert state.engine_state().to_json() == mirror.to_json()
    assert mirror.over and not engine.settled(state._st)  # the adapter's result is written only when asked for
    assert state.returns() == [float(v) for v in engine.payoffs(mirror)]
    assert state.legal_actions() == pyspiel.State.legal_actions(state) == []
    assert not state.is_chance_node()
    return nodes


@pytest.mark.parametrize("skip_forced", [True, False])
@pytest.mark.parametrize("path", [KUHN, LEDUC, GOOFSPIEL, BARNYARD, CHICKEN], ids=lambda p: p.stem)
def test_every_step_is_the_general_paths(path, skip_forced: bool) -> None:
    """Draws and shuffles by kind number, rolls by face number, legal actions and chance answered in Python,
    returns from the declared payoffs alone: the same as the general path, node for node, on seeded games."""
    games = 2 if path in (BARNYARD, CHICKEN) else 25
    assert sum(_against_the_general_path(path, seed, skip_forced) for seed in range(games)) > 4 * games


def test_positions_are_kept_below_positions_played_on_again() -> None:
    """Kept children (``Progress.children``) only below a shared position played on before: one game keeps
    nothing, the root's children appear from the second, a clone played on twice keeps its child; walks agree."""
    game = load(LEDUC, players=2, max_game_length=100_004)
    root = game.loaded.initial

    def one(state, seed: int) -> None:
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    one(game.new_initial_state(), 0)
    assert root.children is None  # a single pass keeps nothing
    one(game.new_initial_state(), 1)
    assert root.children  # the root, played on twice, keeps its child
    start = game.new_initial_state()
    start.apply_action(start.chance_outcomes()[0][0])
    start.apply_action(start.chance_outcomes()[0][0])  # a decision, held by this state alone
    for seed in range(3):
        one(start.clone(), seed)
    assert start._progress.children  # its clones played on it three times
    assert _walk(game, 7, 30) == _walk(load(LEDUC, players=2, max_game_length=100_005), 7, 30)


def test_a_shuffle_dealt_from_its_counts_keeps_clones_and_pickles_apart() -> None:
    """A shuffle is dealt position by position from counts kept in the state (``Progress.deal``): a clone taken
    mid-deal and sent another way, a pickled copy, and an outcome that is not possible leave the original's
    outcomes as they were, and each goes on exactly as a state that dealt the same positions."""
    import pickle

    game = load(BARNYARD, players=2, max_game_length=100_006)
    game.loaded.keep = 0
    engine = game.loaded.spec.engine
    state = game.new_initial_state()
    while state._progress.deal is None:  # on to the deck's shuffle
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    assert state.is_chance_node() and len(state._progress.deal[0]) > 3
    start = len(state.history())
    rng = random.Random(5)
    dealt = []
    for position in range(30):
        outcomes = state.chance_outcomes()
        general = [o for o in chance_outcomes(engine, state._st, state._progress.shuffled) if o[2] > 0]
        total = sum(w for _i, _l, w in general)
        assert outcomes == [(i, w / total) for i, _l, w in general]
        with pytest.raises(RulelangError, match="not possible"):
            state.apply_action(max(i for i, _p in outcomes) + 1000)
        assert state.chance_outcomes() == outcomes  # (nothing changed)
        if position in (3, 17):
            other = state.clone()
            other.apply_action(outcomes[-1][0])
            copied = pickle.loads(pickle.dumps(state))
            assert copied.chance_outcomes() == outcomes and copied._progress.shuffled == state._progress.shuffled
        action = outcomes[rng.randrange(len(outcomes))][0]
        state.apply_action(action)
        dealt.append(action)
    again = game.new_initial_state()
    for action in state.history()[:start] + dealt:
        again.apply_action(action)
    assert again.chance_outcomes() == state.chance_outcomes() and again.history() == state.history()
    for action in dealt[17:]:  # the copy pickled at position 17 deals on as the state did
        copied.apply_action(action)
    assert copied.chance_outcomes() == state.chance_outcomes() and copied.history() == state.history()
    while state._progress.deal is not None:  # the rest of the deck, the same way for all three
        action = state.chance_outcomes()[0][0]
        for s in (state, again, copied):
            s.apply_action(action)
    assert not state.is_chance_node() or state._progress.deal is None
    assert state.engine_state().to_json() == again.engine_state().to_json() == copied.engine_state().to_json()
    assert state.history() == again.history() == copied.history()


@pytest.mark.parametrize("path", [ROOT / "examples" / "leduc-poker" / "leduc-poker.rules",
                                  ROOT / "examples" / "goofspiel" / "goofspiel.rules", CHICKEN])
def test_a_players_views_found_from_the_last_position_are_those_played_again(path) -> None:
    """Information states with perfect recall: a player's earlier views, found by adding to those kept at
    an earlier position (``views_of`` with her observation then), are those found by playing the game
    again from its start, at every node of random games, clones sent down other actions included."""
    game = load(path, players=2)
    rng = random.Random(5)
    checked = added = 0
    for _ in range(4 if path == CHICKEN else 30):
        state = game.new_initial_state()
        while not state.is_terminal():
            for p in range(2):
                tensor = state.information_state_tensor(p)
                text = state.information_state_string(p)
                progress = state._progress
                kept, progress.views = progress.views, {}  # (nothing kept: played again from the start)
                assert state.information_state_tensor(p) == tensor and state.information_state_string(p) == text
                progress.views = kept
                checked += 1
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                other = state.clone()
                other.apply_action(legal[-1])
                if not other.is_terminal():
                    other.information_state_tensor(other.current_player() if other.current_player() >= 0 else 0)
            before = state._progress.views.get(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
            if before is not None and before[2] is not None and not state.is_terminal():
                added += 1
    assert checked > 100 and added > 20
