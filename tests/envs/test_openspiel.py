"""The OpenSpiel adapter: OpenSpiel's random simulation test on every game in games/, and
what the adapter promises (exact chance probabilities, shuffles dealt position by
position, information states that hold only what the player was told, clone,
serialisation, returns from the ranking)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from env_support import CHICKEN, GAMES, ROOST, ROOT, players_for

np = pytest.importorskip("numpy", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")
pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")

from rulelang import load_game  # noqa: E402
from rulelang.envs.openspiel import SHORT_NAME, load  # noqa: E402
from rulelang.errors import RulelangError  # noqa: E402

_players = players_for


# Hippe Kippen's information-state tensor holds a full observation per earlier decision (about 1.5 M floats at
# 2 players), so pyspiel's random_sim_test, which reads it at every state, takes minutes: opt-in (-m solver).
_SIM_GAMES = [pytest.param(p, marks=pytest.mark.solver) if p.stem == "hippe-kippen" else p for p in GAMES]


@pytest.mark.parametrize("path", _SIM_GAMES, ids=lambda p: p.stem)
def test_openspiel_random_simulation_test_passes(path: Path) -> None:
    game = load(path, players=_players(path))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_game_with_a_text_counter_passes_the_random_simulation_test() -> None:
    """Whist keeps its trump suit in a text counter: every state's information state reads it."""
    game = load(ROOT / "examples" / "new-games" / "whist.rules", players=4)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _random_until(state, rng: np.random.RandomState, stop) -> None:
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_die_roll_is_a_chance_node_with_the_faces_probabilities() -> None:
    game = load(CHICKEN, players=2, options={"random_first_player": False})
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["Go For It!", "Chicken Out!"]
    state.apply_action(0)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes] == \
        ["Chicken", "Egg", "Fox", "Blank"]  # White die: Chicken, Chicken, Egg, Egg, Fox, Blank
    assert [p for _, p in outcomes] == pytest.approx([2 / 6, 2 / 6, 1 / 6, 1 / 6])


def test_a_shuffle_is_dealt_one_position_at_a_time_and_lands_as_the_engine_would() -> None:
    game = load(ROOST, players=2, skip_forced=False)  # the last position (one kind left) is a node too
    state = game.new_initial_state()
    engine = load_game(ROOST)
    direct = engine.new_state(2)
    pool = list(engine.pending(direct).pool)
    first = state.chance_outcomes()
    kinds = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in first]
    assert sorted(kinds) == sorted(set(pool))
    assert [a for a, _ in first] == [engine.kind_by_name[k] for k in kinds]  # a kind's id is its number
    assert [p for _, p in first] == pytest.approx([pool.count(k) / len(pool) for k in kinds])
    order = []
    rng = np.random.RandomState(4)
    for _ in pool:
        assert state.is_chance_node()
        actions, probs = zip(*state.chance_outcomes())
        a = int(rng.choice(actions, p=probs))
        order.append(state.action_to_string(pyspiel.PlayerId.CHANCE, a))
        state.apply_action(a)
    assert sorted(order) == sorted(pool)
    engine.apply(direct, order)
    assert state.engine_state().digest() == direct.digest()


def test_an_information_state_holds_only_what_the_player_was_told() -> None:
    """Two deals that differ only inside P2's hand: P1 cannot tell them apart, P2 can."""
    game = load(ROOST, players=2, skip_forced=False)
    engine = load_game(ROOST)
    pool = list(engine.pending(engine.new_state(2)).pool)

    def dealt(order):
        state = game.new_initial_state()
        for kind in order:
            ids = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): a for a, _ in state.chance_outcomes()}
            state.apply_action(ids[kind])
        return state

    base = sorted(pool)
    start = dealt(base)
    view = [engine.observe(start.engine_state(), p) for p in (0, 1)]
    for i in range(len(base)):
        for j in range(i + 1, len(base)):
            if base[i] == base[j]:
                continue
            swapped = list(base)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            other = dealt(swapped)
            now = other.engine_state()
            if engine.observe(now, 0) == view[0] and engine.observe(now, 1) != view[1]:
                assert other.information_state_string(0) == start.information_state_string(0)
                assert other.observation_string(0) == start.observation_string(0)
                assert other.information_state_string(1) != start.information_state_string(1)
                assert str(other) == str(start)  # the spectator sees no difference either
                return
    pytest.fail("no two deals differing only in P2's hand were found")


def test_an_earlier_answer_to_an_ask_is_not_in_the_next_players_information_state() -> None:
    game = load(ROOST, players=3, skip_forced=False)  # the next player asked may have one answer only
    engine = game.engine
    rng = np.random.RandomState(2)

    def at_ask(state) -> bool:
        if state.is_chance_node():
            return False
        d = engine.pending(state.engine_state())
        return d.players is not None and len(d.players) >= 2 and len(d.labels) >= 2

    for _ in range(40):
        state = game.new_initial_state()
        _random_until(state, rng, at_ask)
        if state.is_terminal():
            continue
        first = state.current_player()
        one, two = state.clone(), state.clone()
        first_two = state.legal_actions()[:2]
        one.apply_action(first_two[0])
        two.apply_action(first_two[1])
        nxt = one.current_player()
        assert nxt == two.current_player() and nxt not in (first, pyspiel.PlayerId.CHANCE)
        assert one.information_state_string(nxt) == two.information_state_string(nxt)
        assert one.observation_tensor(nxt) == two.observation_tensor(nxt)
        assert one.information_state_string(first) != two.information_state_string(first)
        return
    pytest.fail("no ask with two players to answer was reached")


def test_clone_is_independent_and_returns_are_zero_sum() -> None:
    game = load(CHICKEN, players=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    _random_until(state, rng, lambda s: len(s.history()) >= 25)
    copy = state.clone()
    before = (str(state), state.history())
    _random_until(copy, rng, lambda s: False)
    assert (str(state), state.history()) == before
    assert copy.is_terminal() and not state.is_terminal()
    assert sum(copy.returns()) == pytest.approx(0.0)
    assert max(copy.returns()) == 1.0
    assert state.returns() == [0.0, 0.0, 0.0]


def test_the_game_loads_by_name_and_a_state_survives_serialisation() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"path": str(CHICKEN), "players": 2})
    assert game.num_players() == 2 and game.num_distinct_actions() == 4
    state = game.new_initial_state()
    _random_until(state, np.random.RandomState(1), lambda s: len(s.history()) >= 30)
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.information_state_string(0) == state.information_state_string(0)


def test_a_missing_rules_file_is_a_clear_error() -> None:
    with pytest.raises(RulelangError):
        load(ROOT / "games" / "no-such-game.rules")


def test_the_mcts_example_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("openspiel_mcts", ROOT / "examples" / "openspiel_mcts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main([str(CHICKEN), "--games", "1", "--simulations", "2"]) == 0
    out = capsys.readouterr().out
    assert "game 1: returns" in out and "MCTS (P1) mean return over 1 games" in out


def _sampled_states(game, seeds: int, every: int = 1):
    """States met in seeded random games (every ``every``-th), terminal ones included."""
    for seed in range(seeds):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        k = 0
        while True:
            if k % every == 0:
                yield state.clone()
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            k += 1


@pytest.mark.parametrize("path", [CHICKEN, ROOST, ROOT / "games" / "barnyard.rules"], ids=lambda p: p.stem)
def test_equal_strings_exactly_when_equal_tensors(path: Path) -> None:
    game = load(path, players=2 if path != CHICKEN else 3)
    obs_by_string: dict[str, tuple] = {}
    info_by_string: dict[str, tuple] = {}
    obs_strings: dict[tuple, str] = {}
    info_strings: dict[tuple, str] = {}
    for state in _sampled_states(game, 4, every=3):
        for p in range(game.num_players()):
            obs, info = tuple(state.observation_tensor(p)), tuple(state.information_state_tensor(p))
            assert len(obs) == game.observation_tensor_size() and len(info) == game.information_state_tensor_size()
            for by_string, strings, text, tensor in ((obs_by_string, obs_strings, state.observation_string(p), obs),
                                                     (info_by_string, info_strings,
                                                      state.information_state_string(p), info)):
                assert by_string.setdefault(text, tensor) == tensor
                assert strings.setdefault(tensor, text) == text
    assert len(obs_by_string) > 10 and len(info_by_string) > 10


def test_the_information_state_records_the_players_own_actions_in_order() -> None:
    game = load(CHICKEN, players=2, options={"random_first_player": False})
    state = game.new_initial_state()
    chicken_out = next(a for a in state.legal_actions() if state.action_to_string(a) == "Chicken Out!")
    state.apply_action(chicken_out)
    text = state.information_state_string(0)
    assert text.splitlines()[0].startswith("1. you=P1") and f"-> {chicken_out} Chicken Out!" in text
    assert text.splitlines()[-1].startswith("now: ")
    history = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    history.set_from(state, 0)
    first = history.dict["history"][0]
    assert first[game.observation_tensor_size() + chicken_out] == 1.0
    assert not history.dict["history"][1].any()


def test_game_types_follow_the_model() -> None:
    chicken = load(CHICKEN, players=2).get_type()
    roost = load(ROOST, players=2).get_type()
    assert chicken.information == pyspiel.GameType.Information.PERFECT_INFORMATION  # nothing hidden but the box
    assert roost.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION  # hands, hidden barns
    assert chicken.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert chicken.utility == pyspiel.GameType.Utility.ZERO_SUM
    game = load(CHICKEN, players=2)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


def test_skip_forced_leaves_no_node_with_one_choice() -> None:
    for forced in (True, False):
        game = load(ROOST, players=2, skip_forced=forced)
        single = 0
        for state in _sampled_states(game, 3):
            if state.is_terminal():
                continue
            n = len(state.chance_outcomes()) if state.is_chance_node() else len(state.legal_actions())
            single += n == 1
        assert (single == 0) == forced


def test_legal_actions_are_fixed_ids_whose_strings_are_the_labels() -> None:
    game = load(ROOST, players=3)
    for state in _sampled_states(game, 2, every=5):
        if state.is_terminal() or state.is_chance_node():
            continue
        ids = state.legal_actions()
        assert ids == sorted(ids)
        labels = state.legal_labels()
        engine_order = [game.actions.string(a) for a in ids]
        assert sorted(engine_order) == sorted(labels) or all("{" in t for t in engine_order if t not in labels)
