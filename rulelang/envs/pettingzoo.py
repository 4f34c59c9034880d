"""A rulebook as a PettingZoo AEC environment (extra ``rulelang[pettingzoo]``).

``env("games/my-game.rules", players=2)`` returns an ``AECEnv`` whose agents
``player_0``, ``player_1``, ... are the seats P1, P2, ... of the rules;
``parallel_env(...)`` a ``ParallelEnv`` where every player an ``ask`` waits for acts in one
step. An action is one of the game's fixed action ids (``rulelang.envs.actions``: the same
id means the same option in every state), checked against the action mask; an illegal one
ends the game with -1 for the mover, as PettingZoo's classic environments do.
See docs/environments.md.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("rulelang.envs.pettingzoo needs PettingZoo: pip install 'rulelang[pettingzoo]'") from exc

from rulelang.engine.engine import Engine, IllegalAction
from rulelang.engine.state import State
from rulelang.envs.common import GameSpec, load_spec, payoffs, seat_label, settle
from rulelang.envs.encoding import ObservationEncoder
from rulelang.errors import RulelangError
from rulelang.rng import Rng
from rulelang.trace.format import CHANCE_FROM_SEED, dumps_line, header, result_line, write_atomic

DEFAULT_MAX_STEPS = 100_000
_SEED_MASK = (1 << 64) - 1  # rulelang's generator reads a seed modulo 2**64


def env(path: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
        max_actions: int | None = None, max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None, skip_forced: bool = True, illegal: str = "terminate",
        max_cycles: int | None = None) -> RulelangEnv:
    """The game in ``path`` as a PettingZoo AEC environment.

    ``players`` defaults to the game's default; ``options`` sets game options by name.
    The action space is the game's fixed one; ``max_actions`` is a declared bound (an error
    if the game has more). After ``max_steps`` decisions (or ``max_cycles``, PettingZoo's
    name for it) a game is truncated (None: never). ``skip_forced`` plays decisions with one
    legal action itself. ``illegal`` says what an action outside the mask does:
    "terminate" (PettingZoo classic: the game ends, the mover gets -1, the others 0) or
    "raise" (``IllegalAction``).
    """
    return RulelangEnv(load_spec(path, players, options, max_actions),
                       max_steps=max_cycles if max_cycles is not None else max_steps,
                       render_mode=render_mode, skip_forced=skip_forced, illegal=illegal)


def parallel_env(path: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
                 max_actions: int | None = None, max_cycles: int | None = DEFAULT_MAX_STEPS,
                 render_mode: str | None = None, skip_forced: bool = True) -> RulelangParallelEnv:
    """The game in ``path`` as a PettingZoo parallel environment: in each step, every player the
    game waits for acts (all the players an ``ask`` asks, at once; else the one who chooses).

    Actions of agents that are not to act are ignored; after ``max_cycles`` steps every agent
    is truncated.
    """
    return RulelangParallelEnv(load_spec(path, players, options, max_actions), max_cycles=max_cycles,
                               render_mode=render_mode, skip_forced=skip_forced)


class _Table:
    """One game in progress for the environments: the state, chance from the seed, the trace events."""

    def __init__(self, spec: GameSpec, seed: int, skip_forced: bool) -> None:
        self.spec = spec
        self.engine: Engine = spec.engine
        self.skip_forced = skip_forced
        self.chance = Rng(seed, stream=0)
        self.events: list[dict[str, Any]] = []
        self.st = self.engine.new_state(spec.players)
        self.st.id_tables = spec.actions.tables  # its choices listed with their action ids (ActionSpace.tables)
        self.settle()

    def waiting(self) -> list[int]:
        """The seats the game waits for now (several for an ``ask``), none once over."""
        st = self.st
        if st.over:
            return []
        d = self.engine.pending(st)
        assert d is not None and d.player is not None
        return list(d.players) if d.players is not None else [d.player]

    def legal(self, seat: int) -> tuple[list[int], list[Any]]:
        """(ids, what the engine takes for each: a position for a choose, a label for an answer) of ``seat``."""
        engine, st, space = self.engine, self.st, self.spec.actions
        kind, first, spec, listed = engine.decision_options(st)
        if kind == "choose":
            if seat != first:
                return [], []
            return space.choose_ids(spec, listed, engine.where_span(st)), list(range(len(listed)))
        answers = listed if seat == first else engine.legal_actions(st, seat)
        return space.ask_ids(spec, answers, engine.where_span(st)), list(answers)

    def act(self, seat: int, action: int) -> bool:
        """Play ``seat``'s action id; False (nothing done) if it is not legal."""
        ids, takes = self.legal(seat)
        if action not in ids:
            return False
        self._take(seat, takes[ids.index(action)])
        return True

    def _take(self, seat: int, what: Any) -> None:
        engine, st = self.engine, self.st
        if isinstance(what, str):  # an answer to an ask
            label = what
            self.events.append({"type": "action", "step": st.step + 1, "player": seat_label(seat), "action": label})
            engine.apply(st, label, player=seat)
        else:
            label = engine.option_label(st, what)
            self.events.append({"type": "action", "step": st.step + 1, "player": seat_label(seat), "action": label})
            engine.apply_index(st, what)
        self.settle()

    def settle(self) -> None:
        """Resolve chance from the seed; with skip_forced, play single-action decisions too."""
        while True:
            settle(self.engine, self.st, self.chance, self.events)
            if not self.skip_forced or self.st.over:
                return
            seat = self.waiting()[0]
            ids, takes = self.legal(seat)
            if len(ids) != 1:
                return
            self._take(seat, takes[0])


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat: player_0 is P1."""
    return f"player_{seat}"


def _spaces(spec: GameSpec, encoder: ObservationEncoder) -> tuple[gymnasium.spaces.Space, gymnasium.spaces.Space]:
    """The observation space (bounded from the model) and the action space shared by every agent."""
    low, high = encoder.bounds(spec.engine.program.component_count)
    obs_space = gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(np.asarray(low, np.float32), np.asarray(high, np.float32),
                                            (encoder.size,), np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (spec.actions.size,), np.int8),
    })
    return obs_space, gymnasium.spaces.Discrete(spec.actions.size)


class _Common:
    """What both environments do alike: spaces, observations, the trace, the spectator's view."""

    spec_: GameSpec
    engine: Engine
    encoder: ObservationEncoder
    table: _Table | None
    render_mode: str | None
    seed: int | None
    possible_agents: list[str]

    def _set_up(self, spec: GameSpec, render_mode: str | None, skip_forced: bool) -> None:
        """The agents, spaces and encoder of ``spec``'s game, with no game in progress."""
        self.spec_ = spec
        self.engine = spec.engine
        self.render_mode = render_mode
        self.skip_forced = skip_forced
        n = spec.players
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        template = self.engine.new_state(n)
        self.encoder = ObservationEncoder(self.engine, n, self.engine.observe(template, 0))
        obs_space, act_space = _spaces(spec, self.encoder)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = self._state_space()
        self.table: _Table | None = None
        self._next_seed = secrets.randbits(63)
        self.seed: int | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The observation space of ``agent`` (one object per agent, the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``Discrete(n)`` over the game's fixed action ids."""
        return self.action_spaces[agent]

    @property
    def game_state(self) -> State | None:
        """The engine's state of the game in progress (None before the first reset)."""
        return self.table.st if self.table is not None else None

    @property
    def events(self) -> list[dict[str, Any]]:
        """This game's trace events so far (chance and actions)."""
        return self.table.events if self.table is not None else []

    def _observation(self, seat: int, acting: bool) -> dict[str, np.ndarray]:
        st = self.game_state
        assert st is not None
        vector = np.asarray(self.encoder.encode(self.engine.observe(st, seat)), dtype=np.float32)
        mask = np.zeros(self.spec_.actions.size, dtype=np.int8)
        if acting and not st.over and self.table is not None:
            ids, _takes = self.table.legal(seat)
            mask[ids] = 1
        return {"observation": vector, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state: every player's observation vector, P1's first."""
        st = self.game_state
        if st is None:
            raise RulelangError("no game yet: call reset() first")
        return np.concatenate([np.asarray(self.encoder.encode(self.engine.observe(st, p)), dtype=np.float32)
                               for p in range(self.spec_.players)])

    def _state_space(self) -> gymnasium.spaces.Box:
        low, high = self.encoder.bounds(self.engine.program.component_count)
        n = self.spec_.players
        return gymnasium.spaces.Box(np.asarray(low * n, np.float32), np.asarray(high * n, np.float32),
                                    (self.encoder.size * n,), np.float32)

    def trace(self) -> list[dict[str, Any]]:
        """The game so far as rulelang trace lines (header, events, and the result once over).

        ``rulelang replay`` checks such a trace against the rules; see docs/traces.md.
        """
        st = self.game_state
        if st is None:
            raise RulelangError("no game yet: call reset() first")
        head = header(self.engine, self.spec_.path, self.spec_.players, (self.seed or 0) & _SEED_MASK,
                      ["pettingzoo"] * self.spec_.players, self.spec_.options or {}, chance=CHANCE_FROM_SEED)
        return [head, *self.events, *([result_line(st)] if st.over else [])]

    def write_trace(self, path: str | Path) -> None:
        """Write :meth:`trace` to ``path`` as JSON Lines, atomically."""
        write_atomic(path, "".join(dumps_line(line) + "\n" for line in self.trace()))

    def render(self) -> str | None:
        """The game as a spectator sees it (printed in "human" mode, returned in "ansi" mode)."""
        if self.render_mode is None or self.game_state is None:
            return None
        st = self.game_state
        view = self.engine.observe(st, None)
        lines = [f"turn {view['turn']}, {view['current']} to play"
                 + (f", waiting for {view['waiting_for']}" if "waiting_for" in view else "")]
        for name, value in {**view["counters"]}.items():
            lines.append(f"  {name}: {value}")
        for zone, content in view["zones"].items():
            shown = f"{content['hidden']} hidden" if isinstance(content, dict) else ", ".join(content) or "-"
            lines.append(f"  {zone}: {shown}")
        if st.result is not None:
            lines.append("  winners: " + ", ".join(st.result["winners"]))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class RulelangEnv(_Common, AECEnv):
    """A rulelang game as an agent-environment-cycle environment; chance is resolved inside."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulelang_v1", "is_parallelizable": True}

    def __init__(self, spec: GameSpec, max_steps: int | None = DEFAULT_MAX_STEPS,
                 render_mode: str | None = None, skip_forced: bool = True, illegal: str = "terminate") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal must be 'terminate' or 'raise', not {illegal!r}")
        self._set_up(spec, render_mode, skip_forced)
        self.max_steps = max_steps
        self.illegal = illegal
        self.illegal_reward = -1.0
        self.decisions = 0

    @property
    def max_cycles(self) -> int | None:
        """PettingZoo's name for ``max_steps``: decisions after which a game is truncated."""
        return self.max_steps

    @max_cycles.setter
    def max_cycles(self, value: int | None) -> None:
        self.max_steps = value

    # ---------------------------------------------------------------- the cycle
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; chance is drawn from rulelang's stream of ``seed``.

        Without a seed the next one in sequence is used (the last seed + 1, or a random
        one at first). ``options`` is accepted for the API and ignored: game options are
        fixed when the environment is made.
        """
        if seed is None:
            seed = self._next_seed
        self.seed = int(seed)
        self._next_seed = self.seed + 1
        self.table = _Table(self.spec_, self.seed, self.skip_forced)
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._after_move()

    def step(self, action: Any) -> None:
        """Play action id ``action`` for ``agent_selection`` (None for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        assert table is not None
        seat = self._seat[agent]
        ok = action is not None and not isinstance(action, bool) and isinstance(action, int | np.integer) \
            and table.act(seat, int(action))
        if not ok:
            self._illegal_move(agent, seat, action)
            return
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        self._after_move()

    def _illegal_move(self, agent: str, seat: int, action: Any) -> None:
        table = self.table
        assert table is not None
        ids, _takes = table.legal(seat)
        if self.illegal == "raise":
            space = self.spec_.actions
            raise IllegalAction(
                f"{agent} ({seat_label(seat)}) has no legal action {action!r}",
                self.engine.where_span(table.st),
                hint="legal actions: " + ", ".join(f"{i}: {space.string(i)}" for i in ids[:12])
                     + (" ..." if len(ids) > 12 else ""),
            )
        EnvLogger.warn_on_illegal_move()  # PettingZoo classic: the game ends, the mover loses
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self._accumulate_rewards()

    def _after_move(self) -> None:
        """Set rewards, ends, infos and whose turn it is after a reset or a move."""
        table = self.table
        assert table is not None
        st = table.st
        for a in self.agents:
            self.rewards[a] = 0.0
        if st.over:
            for a, payoff in zip(self.possible_agents, payoffs(self.engine, st, self.spec_.players)):
                self.rewards[a] = payoff
                self.terminations[a] = True
        elif self.max_steps is not None and self.decisions >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = agent_name(table.waiting()[0])
        if st.over or (self.max_steps is not None and self.decisions >= self.max_steps):
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        for a in self.agents:
            self.infos[a] = {"player": seat_label(self._seat[a]),
                             "observation": self.engine.observe(st, self._seat[a])}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s view as a fixed-size vector, and the mask of its legal action ids."""
        acting = agent == self.agent_selection and not self.truncations.get(agent, False) \
            and not self.terminations.get(agent, False)
        return self._observation(self._seat[agent], acting)


class RulelangParallelEnv(_Common, ParallelEnv):
    """A rulelang game where, in each step, every player the game waits for acts (an ``ask``: all at once)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulelang_parallel_v1"}

    def __init__(self, spec: GameSpec, max_cycles: int | None = DEFAULT_MAX_STEPS,
                 render_mode: str | None = None, skip_forced: bool = True) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self._set_up(spec, render_mode, skip_forced)
        self.max_cycles = max_cycles
        self.agents: list[str] = []
        self.cycles = 0

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Start a new game (chance from rulelang's stream of ``seed``); (observations, infos)."""
        if seed is None:
            seed = self._next_seed
        self.seed = int(seed)
        self._next_seed = self.seed + 1
        self.table = _Table(self.spec_, self.seed, self.skip_forced)
        self.cycles = 0
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        assert self.table is not None
        acting = set(self.table.waiting())
        return {a: self._observation(self._seat[a], self._seat[a] in acting) for a in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        st = self.game_state
        assert st is not None
        return {a: {"player": seat_label(self._seat[a]), "observation": self.engine.observe(st, self._seat[a])}
                for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Every agent the game waits for plays its action id (others' actions are ignored).

        An illegal action ends the game: the mover gets -1, the others 0 (PettingZoo classic).
        """
        table = self.table
        assert table is not None
        rewards = dict.fromkeys(self.agents, 0.0)
        illegal = None
        for seat in table.waiting():
            agent = agent_name(seat)
            action = actions.get(agent)
            ok = action is not None and isinstance(action, int | np.integer) and not isinstance(action, bool) \
                and table.act(seat, int(action))
            if not ok:
                illegal = agent
                break
        self.cycles += 1
        st = table.st
        if illegal is not None:
            EnvLogger.warn_on_illegal_move()
            rewards[illegal] = -1.0
            done = dict.fromkeys(self.agents, True)
            cut = dict.fromkeys(self.agents, True)
        else:
            if st.over:
                for a, payoff in zip(self.possible_agents, payoffs(self.engine, st, self.spec_.players)):
                    rewards[a] = payoff
            done = dict.fromkeys(self.agents, st.over)
            cut = dict.fromkeys(self.agents, not st.over and self.max_cycles is not None
                                and self.cycles >= self.max_cycles)
        obs, infos = self._observations(), self._infos()
        if illegal is not None or st.over or any(cut.values()):
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, done, cut, infos
