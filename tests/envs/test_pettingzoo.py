"""The PettingZoo adapter: PettingZoo's own API and seed tests on every game in games/, and
what the adapter promises (fixed action space with a loud bound, rank rewards, chance
from the seed as in `rulelang run`, hidden information and ask answers kept hidden)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from env_support import CHICKEN, GAMES, ROOST, ROOT, players_for

np = pytest.importorskip("numpy", reason="needs the pettingzoo extra: pip install 'rulelang[pettingzoo]'")
pytest.importorskip("gymnasium", reason="needs the pettingzoo extra: pip install 'rulelang[pettingzoo]'")
pytest.importorskip("pettingzoo", reason="needs the pettingzoo extra: pip install 'rulelang[pettingzoo]'")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from rulelang import load_game  # noqa: E402
from rulelang.agents.base import FirstAgent  # noqa: E402
from rulelang.engine.engine import IllegalAction  # noqa: E402
from rulelang.envs.common import ActionSpaceError, rank_payoffs  # noqa: E402
from rulelang.envs.pettingzoo import env, parallel_env  # noqa: E402
from rulelang.errors import RulelangError  # noqa: E402
from rulelang.play import play  # noqa: E402
from rulelang.trace.replay import replay_file  # noqa: E402

_players = players_for


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_pettingzoo_api_and_seed_tests_pass(path: Path) -> None:
    n = _players(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # style advice (agent names, unbounded Box), not failures
        api_test(env(path, players=n), num_cycles=300)
        seed_test(lambda: env(path, players=n), num_cycles=300)
        parallel_api_test(parallel_env(path, players=n), num_cycles=300)


def _first(e) -> int:
    """The id of the engine's first legal option for the agent to move (what FirstAgent picks)."""
    return e.table.legal(e._seat[e.agent_selection])[0][0]


def _play_out(e, pick) -> None:
    for agent in e.agent_iter():
        obs, _reward, done, cut, _info = e.last()
        e.step(None if done or cut else pick(agent, obs))


def test_first_actions_replay_the_game_rulelang_run_plays_with_that_seed() -> None:
    e = env(CHICKEN, players=2)
    e.reset(seed=7)
    _play_out(e, lambda _a, _o: _first(e))
    engine = load_game(CHICKEN)
    expected = play(engine, engine.new_state(2), [FirstAgent(), FirstAgent()], seed=7)
    assert e.game_state is not None and e.game_state.over
    assert e.game_state.digest() == expected.digest()


def test_rewards_come_from_the_final_ranking_and_sum_to_zero() -> None:
    e = env(CHICKEN, players=3)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, done, cut, _info = e.last()
        if done or cut:
            final[agent] = reward
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    result = e.game_state.result
    assert sorted(final) == ["player_0", "player_1", "player_2"]
    assert [final[f"player_{p}"] for p in range(3)] == rank_payoffs(result, 3)
    assert sum(final.values()) == pytest.approx(0.0)
    winner = int(result["winners"][0][1:]) - 1
    assert final[f"player_{winner}"] > 0


def test_rank_payoffs() -> None:
    two = {"standings": [{"player": "P2", "rank": 1}, {"player": "P1", "rank": 2}]}
    assert rank_payoffs(two, 2) == [-1.0, 1.0]
    tie = {"standings": [{"player": "P1", "rank": 1}, {"player": "P3", "rank": 1}, {"player": "P2", "rank": 3}]}
    assert rank_payoffs(tie, 3) == [0.5, -1.0, 0.5]
    with pytest.raises(RulelangError):
        rank_payoffs(two, 3)


def test_a_declared_bound_smaller_than_the_action_space_is_an_error() -> None:
    with pytest.raises(ActionSpaceError) as err:
        env(CHICKEN, players=2, max_actions=1)
    assert "has 4 distinct actions for 2 players, more than the declared max_actions=1" in str(err.value)
    assert "max_actions=4" in (err.value.hint or "")


def test_the_action_space_is_every_option_of_the_rules() -> None:
    e = env(CHICKEN, players=2)
    assert e.action_space("player_0").n == 4  # "Go For It!", "Chicken Out!", "Reroll", "Count Your Chickens"
    assert [e.spec_.actions.string(i) for i in range(4)] == \
        ["Go For It!", "Chicken Out!", "Reroll", "Count Your Chickens"]


def test_an_action_outside_the_mask_ends_the_game_with_minus_one_for_the_mover() -> None:
    e = env(CHICKEN, players=2, options={"random_first_player": False})
    e.reset(seed=0)
    obs, *_ = e.last()
    assert list(obs["action_mask"]) == [1, 1, 0, 0]
    assert e.infos["player_0"]["observation"]["legal_actions"] == ["Go For It!", "Chicken Out!"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(2)  # "Reroll": not legal before the first roll
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": -1.0, "player_1": 0.0}
    strict = env(CHICKEN, players=2, options={"random_first_player": False}, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction, match="no legal action 2"):
        strict.step(2)


def test_options_reach_the_game() -> None:
    e = env(CHICKEN, players=2, options={"random_first_player": False})
    for seed in range(4):
        e.reset(seed=seed)
        assert e.agent_selection == "player_0"  # P1 starts every game


def test_bad_players_is_an_error() -> None:
    with pytest.raises(RulelangError, match="takes 2 to 8 players, not 9"):
        env(CHICKEN, players=9)


def test_games_are_truncated_after_max_steps() -> None:
    e = env(CHICKEN, players=2, max_cycles=3)
    e.reset(seed=1)
    for _ in range(3):
        e.step(_first(e))
    assert all(e.truncations.values()) and not any(e.terminations.values())


def test_hidden_cards_are_not_in_the_observation() -> None:
    e = env(ROOST, players=2)
    e.reset(seed=5)
    names = e.encoder.names
    mine = e.observe("player_0")["observation"]
    theirs = e.observe("player_1")["observation"]
    hand2 = [i for i, name in enumerate(names) if name.startswith("hand of P2: ")]
    count, visible, kinds = hand2[0], hand2[1], hand2[2:]
    assert names[visible] == "hand of P2: visible" and names[count] == "hand of P2: count"
    held = e.infos["player_0"]["observation"]["zones"]["hand of P2"]
    assert held["hidden"] > 0
    assert mine[visible] == 0 and mine[count] == held["hidden"] and not mine[kinds].any()
    assert theirs[visible] == 1 and theirs[kinds].sum() == held["hidden"]


def test_the_encoding_follows_the_readable_observation() -> None:
    e = env(CHICKEN, players=2)
    e.reset(seed=2)
    _play_out_steps(e, 30)
    view = e.infos["player_1"]["observation"]
    vector = e.observe("player_1")["observation"]
    slot = {name: i for i, name in enumerate(e.encoder.names)}
    assert vector[slot["score of P1"]] == view["counters"]["score"]["P1"]
    assert vector[slot["you=P2"]] == 1 and vector[slot["you=P1"]] == 0
    assert vector[slot["turn"]] == view["turn"]
    for zone, content in view["zones"].items():
        shown = content if isinstance(content, list) else []
        assert vector[slot[f"{zone}: count"]] == (len(content) if isinstance(content, list) else content["hidden"])
        counted = [e.encoder.canon[token] for token in shown]  # dice of a kind are alike: counted by kind
        for token in set(counted):
            assert vector[slot[f"{zone}: {token}"]] == counted.count(token)
        names = [n for n in slot if n.startswith(f"{zone}: ") and n not in (f"{zone}: count", f"{zone}: visible")]
        assert sum(vector[slot[n]] for n in names) == len(shown)


def _play_out_steps(e, steps: int) -> None:
    for _ in range(steps):
        obs, _r, done, cut, _i = e.last()
        if done or cut:
            return
        e.step(_first(e))


def test_an_earlier_answer_to_an_ask_is_not_seen_by_the_next_player_asked() -> None:
    """Two games alike up to an ask; the first player asked answers differently in each."""
    n = 3
    rng = np.random.default_rng(11)
    e1 = env(ROOST, players=n)
    for seed in range(40):
        e1.reset(seed=seed)
        actions: list[int] = []
        while not e1.game_state.over:
            d = e1.engine.pending(e1.game_state)
            if d.players is not None and len(d.players) >= 2 and len(d.labels) >= 2:
                break
            obs, *_ = e1.last()
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(a)
            e1.step(a)
        else:
            continue
        e2 = env(ROOST, players=n)
        e2.reset(seed=seed)
        for a in actions:
            e2.step(a)
        legal = list(np.flatnonzero(e1.observe(e1.agent_selection)["action_mask"]))
        e1.step(int(legal[0]))
        e2.step(int(legal[1]))
        assert e1.game_state.answers != e2.game_state.answers
        assert e2.agent_selection == e1.agent_selection
        for agent in e1.possible_agents:
            if e1.game_state.answers[int(agent[-1])] == "":
                assert e1.infos[agent] == e2.infos[agent]
                o1, o2 = e1.observe(agent), e2.observe(agent)
                assert np.array_equal(o1["observation"], o2["observation"])
                assert np.array_equal(o1["action_mask"], o2["action_mask"])
        return
    pytest.fail("no ask with two players to answer was reached")


def test_counters_may_be_hidden_fractions_or_players_and_anything_else_is_an_error() -> None:
    """Counter values as observe() may show them: numbers, fractions as text, seats, hidden."""
    from rulelang.envs.encoding import EncodingError, ObservationEncoder

    engine = load_game(ROOT / "games" / "barnyard.rules")
    st = engine.new_state(3)
    template = engine.observe(st, 0)
    encoder = ObservationEncoder(engine, 3, template)
    slot = {name: i for i, name in enumerate(encoder.names)}
    shared = next(name for name, value in template["bookkeeping"].items() if not isinstance(value, dict))
    per_player = next(name for name, value in template["counters"].items() if isinstance(value, dict))
    obs = engine.observe(st, 0)
    obs["bookkeeping"][shared] = {"hidden": True}
    obs["counters"][per_player] = {"P1": "7/2", "P2": "P3", "P3": "nobody"}
    vector = encoder.encode(obs)
    assert vector[slot[f"{shared}: hidden"]] == 1.0 and vector[slot[shared]] == 0.0
    assert vector[slot[f"{per_player} of P1"]] == 3.5 and vector[slot[f"{per_player} of P1: hidden"]] == 0.0
    assert vector[slot[f"{per_player} of P2"]] == 3.0  # a seat counts from P1 = 1
    assert vector[slot[f"{per_player} of P3"]] == 0.0  # nobody
    obs["counters"][per_player] = {"P1": "lots", "P2": 0, "P3": 0}
    with pytest.raises(EncodingError, match="'lots'"):
        encoder.encode(obs)
    obs = engine.observe(st, 0)
    obs["zones"][next(iter(obs["zones"]))] = ["Unicorn"]
    with pytest.raises(EncodingError, match="Unicorn"):
        encoder.encode(obs)


def test_a_text_counter_is_its_number_among_the_texts_the_rules_hold() -> None:
    """Whist's trump is a text counter holding a suit: encoded as the suit's number among the rules'
    texts (sorted, 1 the first; the empty text 0), and a text the rules cannot hold is an error."""
    from rulelang.envs.encoding import EncodingError, ObservationEncoder, model_texts

    engine = load_game(ROOT / "examples" / "new-games" / "whist.rules")
    texts = sorted(model_texts(engine.model) - {""})
    assert texts == ["Clubs", "Diamonds", "Hearts", "Spades"]
    st = engine.new_state(4)
    template = engine.observe(st, 0)
    encoder = ObservationEncoder(engine, 4, template)
    at = encoder.names.index("trump")
    for suit in ("", *texts):
        obs = engine.observe(st, 0)
        obs["counters" if "trump" in obs["counters"] else "bookkeeping"]["trump"] = suit
        assert encoder.encode(obs)[at] == (texts.index(suit) + 1 if suit else 0.0)
    obs["counters" if "trump" in obs["counters"] else "bookkeeping"]["trump"] = "Roses"
    with pytest.raises(EncodingError, match="'Roses'"):
        encoder.encode(obs)


@pytest.mark.parametrize("path", [ROOST, ROOT / "games" / "barnyard.rules"], ids=lambda p: p.stem)
def test_a_game_played_in_the_environment_replays_as_compliant(path: Path, tmp_path: Path) -> None:
    """The environment's trace, checked by rulelang's own replay: every event keeps the rules."""
    e = env(path, players=3)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    _play_out(e, lambda _a, obs: int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    trace = tmp_path / "game.jsonl"
    e.write_trace(trace)
    verdict = replay_file(trace)
    assert verdict.status == "compliant", verdict.to_json()
    assert verdict.result is not None and verdict.result["winners"] == e.game_state.result["winners"]
    assert verdict.steps == e.game_state.step


def test_a_trace_from_an_unfinished_game_is_incomplete(tmp_path: Path) -> None:
    e = env(CHICKEN, players=2)
    e.reset(seed=1)
    for _ in range(5):
        e.step(_first(e))
    e.write_trace(tmp_path / "part.jsonl")
    assert replay_file(tmp_path / "part.jsonl").status == "incomplete"
