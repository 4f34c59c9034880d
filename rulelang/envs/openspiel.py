"""A rulebook as an OpenSpiel game (extra ``rulelang[openspiel]``, package ``open_spiel``).

``load("games/my-game.rules", players=2)`` returns a ``pyspiel.Game`` written in
Python; ``pyspiel.load_game("python_rulelang", {"path": ..., "players": 2})`` gives the
same game by name. Player actions are indices into the legal actions; chance nodes list
their outcomes with exact probabilities (a shuffle is dealt one position at a time).
See docs/environments.md.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("rulelang.envs.openspiel needs OpenSpiel: pip install 'rulelang[openspiel]'") from exc

import attrs

from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.envs.common import GameSpec, check_bound, choice_labels, chooser, game_payoffs, load_spec, seat_label
from rulelang.envs.encoding import ObservationEncoder
from rulelang.errors import RulelangError
from rulelang.views import redact_narration

SHORT_NAME = "python_rulelang"
DEFAULT_MAX_GAME_LENGTH = 100_000

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="rulelang rulebook",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=64,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"path": "", "players": 0, "options": "{}", "max_actions": 0,
                             "max_game_length": DEFAULT_MAX_GAME_LENGTH},
)


def load(path: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
         max_actions: int | None = None, max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> RulelangGame:
    """The game in ``path`` as an OpenSpiel game for ``players`` players (default: the game's).

    ``options`` sets game options by name; ``max_actions`` fixes ``num_distinct_actions``
    (without it: twice the most legal actions seen in 32 seeded random games, rounded up
    to a power of two; a position that offers more raises ``ActionSpaceError``). A game
    still going after ``max_game_length`` actions (chance included) ends there as a draw.
    """
    params: dict[str, Any] = {"path": str(path), "players": 0 if players is None else int(players),
                              "options": json.dumps(options or {}, sort_keys=True),
                              "max_actions": 0 if max_actions is None else int(max_actions),
                              "max_game_length": int(max_game_length)}
    return RulelangGame(params)


@attrs.define
class _Loaded:
    """What a game needs at run time, kept by its parameters (pyspiel may hand back a
    game object without the Python attributes it was built with)."""

    spec: GameSpec
    encoder: ObservationEncoder
    initial: _Progress
    max_game_length: int
    info: Any
    params: dict[str, Any]


_LOADED: dict[str, _Loaded] = {}


def _loaded(params: dict[str, Any]) -> _Loaded:
    """Load (once per parameters) the game the parameters name."""
    params = dict(params or {})
    key = json.dumps(params, sort_keys=True)
    if key in _LOADED:
        return _LOADED[key]
    path = params.get("path", "")
    if not path:
        raise RulelangError(f"{SHORT_NAME} needs the parameter 'path': the .rules file to play")
    options = json.loads(params.get("options", "{}") or "{}")
    if not isinstance(options, dict):
        raise RulelangError("the parameter 'options' must be a JSON object of option names to values")
    players = int(params.get("players", 0)) or None
    max_actions = int(params.get("max_actions", 0)) or None
    spec = load_spec(path, players, options, max_actions)
    engine = spec.engine
    max_game_length = int(params.get("max_game_length", DEFAULT_MAX_GAME_LENGTH))
    model = engine.model
    info = pyspiel.GameInfo(
        num_distinct_actions=spec.max_actions,
        max_chance_outcomes=max(len(model.faces), len(model.kinds), spec.players, 1),
        num_players=spec.players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length,
    )
    first = engine.new_state(spec.players, narrate=True)
    encoder = ObservationEncoder(engine, spec.players, engine.observe(first, 0))
    initial = _Progress(first)
    drain(initial)
    if not first.over and not engine.is_chance(first):
        check_bound(len(choice_labels(engine, first)[1]), spec, first)
    full = {"path": str(path), "players": spec.players, "options": json.dumps(options, sort_keys=True),
            "max_actions": spec.max_actions, "max_game_length": max_game_length}
    loaded = _Loaded(spec, encoder, initial, max_game_length, info, full)
    _LOADED[key] = _LOADED[json.dumps(full, sort_keys=True)] = loaded
    return loaded


class RulelangGame(pyspiel.Game):
    """One rules file, number of players and options, as a pyspiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        loaded = _loaded(params or {})
        super().__init__(_GAME_TYPE, loaded.info, loaded.params)

    @property
    def loaded(self) -> _Loaded:
        """The loaded game behind these parameters."""
        return _loaded(self.get_parameters())

    @property
    def spec(self) -> GameSpec:
        """The rules file, players, options and action bound."""
        return self.loaded.spec

    @property
    def engine(self) -> Engine:
        """The rulelang engine that plays the game."""
        return self.loaded.spec.engine

    def new_initial_state(self) -> RulelangState:
        """The game before its first decision (often a chance node)."""
        return RulelangState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RulelangObserver:
        """An observer: the player's view now, or (perfect recall) everything the player saw and did."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RulelangObserver(self.loaded, perfect_recall)


class _Shared:
    """A reference that OpenSpiel's clone (a deepcopy of each attribute) must not copy."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.loaded: _Loaded = value.loaded

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def __reduce__(self) -> tuple:
        return (_shared_game, (self.value.get_parameters(),))


def _shared_game(params: dict[str, Any]) -> _Shared:
    """Unpickle a game reference from its parameters."""
    return _Shared(pyspiel.load_game(SHORT_NAME, params))


class _Progress:
    """The part of a game in progress that a clone copies: the engine state and the record."""

    def __init__(self, st: State) -> None:
        self.st = st
        self.shuffled: list[str] = []  # a shuffle is dealt position by position: the kinds so far
        self.length = 0  # actions applied, chance included
        self.cut = False  # stopped at max_game_length
        self.told: _Told | None = None  # the narration so far, shared by copies

    def __deepcopy__(self, memo: dict) -> _Progress:
        new = _Progress.__new__(_Progress)
        new.st = self.st.copy()
        new.st.log = []
        new.shuffled = list(self.shuffled)
        new.length = self.length
        new.cut = self.cut
        new.told = self.told
        return new

    def __reduce__(self) -> tuple:
        events = self.told.all() if self.told is not None else []
        return (_progress_from, (self.st.to_json(), self.shuffled, self.length, self.cut, events))


def _progress_from(st: dict[str, Any], shuffled: list[str], length: int, cut: bool,
                   events: list[dict[str, Any]]) -> _Progress:
    """Unpickle a game in progress."""
    progress = _Progress(State.from_json(st))
    progress.st.log = []
    progress.shuffled, progress.length, progress.cut = list(shuffled), length, cut
    progress.told = _Told(None, tuple(events)) if events else None
    return progress


class _Told:
    """One step's narration, linked to what came before; each player's redacted JSON lines cached."""

    __slots__ = ("earlier", "events", "lines")

    def __init__(self, earlier: _Told | None, events: tuple[dict[str, Any], ...]) -> None:
        self.earlier = earlier
        self.events = events
        self.lines: dict[int, tuple[str, ...]] = {}

    def all(self) -> list[dict[str, Any]]:
        """Every event so far, in order."""
        chunks = []
        node: _Told | None = self
        while node is not None:
            chunks.append(node.events)
            node = node.earlier
        return [e for chunk in reversed(chunks) for e in chunk]

    def lines_for(self, engine: Engine, player: int) -> list[str]:
        """The narration so far as ``player`` saw it, one JSON text per event."""
        chunks = []
        node: _Told | None = self
        while node is not None:
            lines = node.lines.get(player)
            if lines is None:
                me = seat_label(player)
                mine = [e for e in node.events if e["type"] != "answered" or e["player"] == me]
                lines = node.lines[player] = tuple(
                    json.dumps(e, sort_keys=True) for e in redact_narration(engine, mine, player))
            chunks.append(lines)
            node = node.earlier
        return [line for chunk in reversed(chunks) for line in chunk]


def drain(progress: _Progress, actor: int | None = None, answer: str | None = None) -> None:
    """Move the engine's narration into the record.

    ``answer`` is ``actor``'s own answer to an ``ask``: only she is told it until all
    have answered (the engine narrates the answers together then).
    """
    st = progress.st
    events = st.log or []
    st.log = []
    if answer is not None and actor is not None:
        events = [{"type": "answered", "player": seat_label(actor), "answer": answer}, *events]
    if events:
        progress.told = _Told(progress.told, tuple(events))


class RulelangState(pyspiel.State):
    """A game in progress: the engine's state, plus what each player has been told so far."""

    def __init__(self, game: RulelangGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._progress = copy.deepcopy(self._shared.loaded.initial)

    @property
    def _engine(self) -> Engine:
        return self._shared.loaded.spec.engine

    @property
    def _st(self) -> State:
        return self._progress.st

    def history_lines(self, player: int) -> list[str]:
        """Everything ``player`` has been told so far (redacted narration, own answers), as JSON texts."""
        told = self._progress.told
        return told.lines_for(self._engine, player) if told is not None else []

    def history_of(self, player: int) -> list[dict[str, Any]]:
        """Everything ``player`` has been told so far (redacted narration and own answers), in order."""
        return [json.loads(line) for line in self.history_lines(player)]

    def engine_state(self) -> State:
        """A copy of the rulelang state (for tracing or inspection)."""
        return self._st.copy()

    # ---------------------------------------------------------------- pyspiel API
    def current_player(self) -> int:
        """The seat to move, CHANCE, or TERMINAL."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self._engine.is_chance(self._st):
            return pyspiel.PlayerId.CHANCE
        return chooser(self._engine, self._st)

    def is_terminal(self) -> bool:
        """Whether the game is over (or was cut at max_game_length)."""
        return self._st.over or self._progress.cut

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self._engine.is_chance(self._st):
            return []
        seat, labels = choice_labels(self._engine, self._st)
        return list(range(len(labels))) if player == seat else []

    def _outcomes(self) -> list[tuple[str, int]]:
        """The pending chance's outcomes as (label, weight); for a shuffle, the next position's kinds."""
        d = self._engine.pending(self._st)
        assert d is not None and d.kind == "chance"
        if d.pool is not None:
            left = list(d.pool)
            for kind in self._progress.shuffled:
                left.remove(kind)
            return [(kind, left.count(kind)) for kind in sorted(set(d.pool))]
        assert d.labels is not None and d.weights is not None
        return list(zip(d.labels, d.weights))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) of each possible outcome of the pending chance node."""
        outcomes = self._outcomes()
        total = sum(w for _label, w in outcomes)
        return [(i, w / total) for i, (_label, w) in enumerate(outcomes) if w > 0]

    def _apply_action(self, action: int) -> None:
        progress = self._progress
        st = progress.st
        engine = self._engine
        if engine.is_chance(st):
            outcomes = self._outcomes()
            if not 0 <= action < len(outcomes) or outcomes[action][1] == 0:
                raise RulelangError(f"chance outcome {action} is not possible here")
            label = outcomes[action][0]
            d = engine.pending(st)
            assert d is not None
            if d.pool is not None:
                progress.shuffled.append(label)
                if len(progress.shuffled) < len(d.pool):
                    progress.length += 1
                    return
                order, progress.shuffled = progress.shuffled, []
                engine.apply(st, order)
            else:
                engine.apply(st, label)
            drain(progress)
        else:
            seat, labels = choice_labels(engine, st)
            if not 0 <= action < len(labels):
                raise RulelangError(f"{seat_label(seat)} has no legal action {action}: there are {len(labels)}")
            d = engine.pending(st)
            asked = d is not None and d.players is not None
            label = labels[action]
            engine.apply(st, label, player=seat)
            drain(progress, seat, label if asked else None)
        progress.length += 1
        if not st.over and progress.length >= self._shared.loaded.max_game_length:
            progress.cut = True
        if not st.over and not engine.is_chance(st):
            check_bound(len(choice_labels(engine, st)[1]), self._shared.loaded.spec, st)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = self._outcomes() if not self.is_terminal() and self._engine.is_chance(self._st) else []
            return outcomes[action][0] if 0 <= action < len(outcomes) else f"outcome {action}"
        if not self.is_terminal() and not self._engine.is_chance(self._st):
            seat, labels = choice_labels(self._engine, self._st)
            if seat == player and 0 <= action < len(labels):
                return labels[action]
        return f"action {action}"

    def returns(self) -> list[float]:
        """Each player's payoff at the end (Engine.payoffs: declared, else from the ranking); 0 before the end."""
        players = self._shared.loaded.spec.players
        if self._st.over:
            assert self._st.result is not None
            return game_payoffs(self._engine, self._st)
        return [0.0] * players

    def __str__(self) -> str:
        text = json.dumps(self._engine.observe(self._st, None), sort_keys=True)
        if self._progress.shuffled:
            text += " shuffled so far: " + ",".join(self._progress.shuffled)
        return text


class RulelangObserver:
    """OpenSpiel's PyObserver: ``tensor`` and ``dict`` set by ``set_from``, ``string_from``."""

    def __init__(self, loaded: _Loaded, perfect_recall: bool) -> None:
        self.encoder = loaded.encoder
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else self.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RulelangState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state`` (not for perfect recall: no fixed size)."""
        if self.perfect_recall:
            return
        view = state._engine.observe(state._st, player)
        self.tensor[:] = self.encoder.encode(view)

    def string_from(self, state: RulelangState, player: int) -> str:
        """``player``'s view now as JSON; with perfect recall, preceded by everything they saw and did."""
        view = json.dumps(state._engine.observe(state._st, player), sort_keys=True)
        if not self.perfect_recall:
            return view
        return "\n".join([*state.history_lines(player), view])


pyspiel.register_game(_GAME_TYPE, RulelangGame)
