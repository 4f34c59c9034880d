"""A rulebook as a PettingZoo AEC environment (extra ``rulelang[pettingzoo]``).

``env("games/my-game.rules", players=2)`` returns an ``AECEnv`` whose agents
``player_0``, ``player_1``, ... are the seats P1, P2, ... of the rules. An action is an
index into the legal actions of the agent to move (their labels are in
``infos[agent]["observation"]["legal_actions"]``), checked against the action mask.
See docs/environments.md.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("rulelang.envs.pettingzoo needs PettingZoo: pip install 'rulelang[pettingzoo]'") from exc

from rulelang.engine.engine import IllegalAction
from rulelang.engine.state import State
from rulelang.envs.common import GameSpec, check_bound, choice_labels, game_payoffs, load_spec, seat_label, settle
from rulelang.envs.encoding import ObservationEncoder
from rulelang.errors import RulelangError
from rulelang.rng import Rng
from rulelang.trace.format import dumps_line, header, result_line, write_atomic

DEFAULT_MAX_STEPS = 100_000
_SEED_MASK = (1 << 64) - 1  # rulelang's generator reads a seed modulo 2**64


def env(path: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
        max_actions: int | None = None, max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None) -> RulelangEnv:
    """The game in ``path`` as a PettingZoo AEC environment.

    ``players`` defaults to the game's default; ``options`` sets game options by name.
    ``max_actions`` fixes the size of the action space; without it the size is twice
    the most legal actions seen in 32 seeded random games, rounded up to a power of
    two, and a position that offers more raises ``ActionSpaceError``. After
    ``max_steps`` decisions a game is truncated (None: never).
    """
    return RulelangEnv(load_spec(path, players, options, max_actions), max_steps=max_steps,
                       render_mode=render_mode)


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat: player_0 is P1."""
    return f"player_{seat}"


class RulelangEnv(AECEnv):
    """A rulelang game as an agent-environment-cycle environment; chance is resolved inside."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulelang_v0", "is_parallelizable": False}

    def __init__(self, spec: GameSpec, max_steps: int | None = DEFAULT_MAX_STEPS,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.spec_ = spec
        self.engine = spec.engine
        self.max_steps = max_steps
        self.render_mode = render_mode
        n = spec.players
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        template = self.engine.new_state(n)
        self.encoder = ObservationEncoder(self.engine, n, self.engine.observe(template, 0))
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (spec.max_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(spec.max_actions) for a in self.possible_agents}
        self.game_state: State | None = None
        self._next_seed = secrets.randbits(63)
        self.seed: int | None = None
        self.decisions = 0
        self.events: list[dict[str, Any]] = []  # this game's trace events, chance and actions

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The observation space of ``agent`` (one object per agent, the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``Discrete(max_actions)``: an index into the legal actions."""
        return self.action_spaces[agent]

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
        self._chance = Rng(self.seed, stream=0)
        st = self.engine.new_state(self.spec_.players)
        self.events = []
        settle(self.engine, st, self._chance, self.events)
        self.game_state = st
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
        """Play legal action number ``action`` for ``agent_selection`` (None for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.game_state
        assert st is not None
        seat = self._seat[agent]
        legal = choice_labels(self.engine, st)[1]
        if action is None or isinstance(action, bool) or not 0 <= int(action) < len(legal):
            raise IllegalAction(
                f"{agent} ({seat_label(seat)}) has no legal action {action!r}: "
                f"the action mask allows 0 to {len(legal) - 1}",
                self.engine.where_span(st),
                hint="legal actions: " + ", ".join(f"{i}: {label}" for i, label in enumerate(legal[:12]))
                     + (" ..." if len(legal) > 12 else ""),
            )
        label = legal[int(action)]
        self.events.append({"type": "action", "step": st.step + 1, "player": seat_label(seat), "action": label})
        self.engine.apply(st, label, player=seat)
        settle(self.engine, st, self._chance, self.events)
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        self._after_move()

    def _after_move(self) -> None:
        """Set rewards, ends, infos and whose turn it is after a reset or a move."""
        st = self.game_state
        assert st is not None
        for a in self.agents:
            self.rewards[a] = 0.0
        if st.over:
            assert st.result is not None
            for a, payoff in zip(self.possible_agents, game_payoffs(self.spec_.engine, st)):
                self.rewards[a] = payoff
                self.terminations[a] = True
        elif self.max_steps is not None and self.decisions >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            seat, labels = choice_labels(self.engine, st)
            check_bound(len(labels), self.spec_, st)
            self.agent_selection = agent_name(seat)
        if st.over or (self.max_steps is not None and self.decisions >= self.max_steps):
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        for a in self.agents:
            self.infos[a] = {"player": seat_label(self._seat[a]),
                             "observation": self.engine.observe(st, self._seat[a])}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def trace(self) -> list[dict[str, Any]]:
        """The game so far as rulelang trace lines (header, events, and the result once over).

        ``rulelang replay`` checks such a trace against the rules; see docs/traces.md.
        """
        st = self.game_state
        if st is None:
            raise RulelangError("no game yet: call reset() first")
        head = header(self.engine, self.spec_.path, self.spec_.players, (self.seed or 0) & _SEED_MASK,
                      ["pettingzoo"] * self.spec_.players, self.spec_.options or {})
        return [head, *self.events, *([result_line(st)] if st.over else [])]

    def write_trace(self, path: str | Path) -> None:
        """Write :meth:`trace` to ``path`` as JSON Lines, atomically."""
        write_atomic(path, "".join(dumps_line(line) + "\n" for line in self.trace()))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s view as a fixed-size vector, and the mask of its legal actions."""
        st = self.game_state
        assert st is not None
        seat = self._seat[agent]
        vector = np.asarray(self.encoder.encode(self.engine.observe(st, seat)), dtype=np.float32)
        mask = np.zeros(self.spec_.max_actions, dtype=np.int8)
        if not st.over and agent == self.agent_selection and not self.truncations.get(agent, False):
            mask[: len(choice_labels(self.engine, st)[1])] = 1
        return {"observation": vector, "action_mask": mask}

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
