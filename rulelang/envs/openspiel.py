"""A rulebook as an OpenSpiel game (extra ``rulelang[openspiel]``, package ``open_spiel``).

``load("games/my-game.rules", players=2)`` returns a ``pyspiel.Game`` written in
Python; ``pyspiel.load_game("python_rulelang", {"path": ..., "players": 2})`` gives the
same game by name. Player actions are the game's fixed action ids (``rulelang.envs.actions``);
chance nodes list their outcomes with exact probabilities, by fixed ids too (a shuffle is
dealt one position at a time). With ``skip_forced`` (the default) a decision with one legal
action and a chance with one outcome are applied by the adapter, so they are no nodes.
See docs/environments.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("rulelang.envs.openspiel needs OpenSpiel: pip install 'rulelang[openspiel]'") from exc



from rulelang.check import model as m
from rulelang.compile.program import DRAW, PICK, RANDFIRST, ROLL, SHUFFLE
from rulelang.engine.choices import IdTables
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.envs.actions import ActionSpace, ActionSpaceError, find_statements
from rulelang.envs.common import (
    GameSpec,
    chance_outcomes,
    load_spec,
    max_chance_outcomes,
    payoff_info,
    payoffs,
    seat_label,
)
from rulelang.envs.encoding import ObservationEncoder, kinds_entering
from rulelang.envs.progress import (
    CHANCE_ID,
    KEPT_POSITIONS,
    Loaded,
    Progress,
    chance_probabilities,
    legal_of,
    node_of,
    outcomes_of,
    play,
    settle_forced,
    steps_list,
)
from rulelang.errors import RulelangError
from rulelang.rng import Rng

SHORT_NAME = "python_rulelang"
DEFAULT_MAX_GAME_LENGTH = 100_000
KEPT_TEXT = 10_000_000  # ... and as many as about this much JSON text of their states (tens of megabytes)
HISTORY_PROBE_GAMES = 16  # random games played to size the information-state tensor when no length is given

_PARAMETERS = {"path": "", "players": 0, "options": "{}", "max_actions": 0,
               "max_game_length": DEFAULT_MAX_GAME_LENGTH, "skip_forced": True, "history_length": 0}


def _game_type(information: Any = pyspiel.GameType.Information.IMPERFECT_INFORMATION,
               chance: Any = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
               utility: Any = pyspiel.GameType.Utility.ZERO_SUM) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="rulelang rulebook",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=64,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMETERS),
    )


_GAME_TYPE = _game_type()
_UTILITY = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM, "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
            "general_sum": pyspiel.GameType.Utility.GENERAL_SUM}


def load(path: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
         max_actions: int | None = None, max_game_length: int = DEFAULT_MAX_GAME_LENGTH,
         skip_forced: bool = True, history_length: int | None = None) -> RulelangGame:
    """The game in ``path`` as an OpenSpiel game for ``players`` players (default: the game's).

    ``options`` sets game options by name. The action space is computed from the rules;
    ``max_actions`` is a declared bound (an error if the game has more actions; it also sizes
    a ``for`` range the rules do not bound). A game still going after ``max_game_length``
    actions (chance included) ends there with every return 0. ``skip_forced`` applies
    single-action decisions and single-outcome chance inside the adapter.
    ``history_length`` is the number of the player's own decisions the information-state
    tensor holds (None: twice the most seen in 16 seeded random games, to a power of two).
    """
    params: dict[str, Any] = {"path": str(path), "players": 0 if players is None else int(players),
                              "options": json.dumps(options or {}, sort_keys=True),
                              "max_actions": 0 if max_actions is None else int(max_actions),
                              "max_game_length": int(max_game_length), "skip_forced": bool(skip_forced),
                              "history_length": 0 if history_length is None else int(history_length)}
    return RulelangGame(params)


_LOADED: dict[str, Loaded] = {}


def _loaded(params: dict[str, Any]) -> Loaded:
    """Load (once per parameters) the game the parameters name."""
    params = {**_PARAMETERS, **dict(params or {})}
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
    pay = payoff_info(engine, spec.players)
    info = pyspiel.GameInfo(
        num_distinct_actions=spec.actions.size,
        max_chance_outcomes=max_chance_outcomes(engine, spec.players),
        num_players=spec.players,
        min_utility=pay.low,
        max_utility=pay.high,
        utility_sum=pay.total if pay.utility != "general_sum" else None,
        max_game_length=max_game_length,
    )
    game_type = _game_type(
        pyspiel.GameType.Information.PERFECT_INFORMATION if perfect_information(engine)
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if has_chance(engine)
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        _UTILITY.get(pay.utility, pyspiel.GameType.Utility.GENERAL_SUM))
    start = engine.new_state(spec.players)
    # its choices listed with their action ids (ActionSpace.tables), where play stops the ids alone
    start.id_tables = IdTables(spec.actions.tables)
    start.defer_result = True  # the standings are written only when asked for: returns need only the payoffs
    encoder = ObservationEncoder(engine, spec.players, engine.observe(start, 0))
    full = {**params, "path": str(path), "players": spec.players, "options": json.dumps(options, sort_keys=True),
            "max_actions": int(params.get("max_actions", 0)), "max_game_length": max_game_length,
            "skip_forced": bool(params.get("skip_forced", True)),
            "history_length": int(params.get("history_length", 0))}
    loaded = Loaded(spec, encoder, start, None, max_game_length, info, game_type, full,  # type: ignore[arg-type]
                     bool(full["skip_forced"]), int(full["history_length"]))
    initial = Progress(start.copy())
    settle_forced(loaded, initial)
    initial.shared = True  # every new game starts from it
    loaded.initial = initial
    # Kept positions cost memory: about KEPT_TEXT characters of their JSON text in all, at most KEPT_POSITIONS.
    loaded.keep = min(KEPT_POSITIONS, KEPT_TEXT // max(1, len(start.dumps())))
    _LOADED[key] = _LOADED[json.dumps(full, sort_keys=True)] = loaded
    return loaded


def perfect_information(engine: Engine) -> bool:
    """Whether no player can ever hold information another lacks, read from the model.

    False when a zone that only its owner sees, or nobody sees, can ever hold a component
    (the box excepted), a counter is not public, a choice's label has a secret part, the game
    asks players at once (answers are private until all are in), or shows components to one
    player (``reveal``).
    """
    model = engine.model
    entering = kinds_entering(model)
    for z in model.zones:
        if z.index != 0 and z.visibility != "public" and entering.get(z.index):
            return False
    if any(c.visibility != "public" for c in model.counters):
        return False
    for rule in model.rules:
        for s in find_statements(rule.body, (m.ChooseS, m.AskS, m.RevealS)):
            if isinstance(s, m.AskS | m.RevealS):
                return False
            if any(isinstance(p, m.SecretPart) for opt in s.options for p in opt.label.parts):
                return False
    return True


def has_chance(engine: Engine) -> bool:
    """Whether the compiled game has any chance decision (a roll, a random draw, a shuffle, a random pick)."""
    return any(ins[0] in (ROLL, DRAW, SHUFFLE, RANDFIRST, PICK) for code in engine.code for ins in code)


class RulelangGame(pyspiel.Game):
    """One rules file, number of players and options, as a pyspiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        loaded = _loaded(params or {})
        super().__init__(loaded.game_type, loaded.info, loaded.params)
        self._loaded_game = loaded

    @property
    def loaded(self) -> Loaded:
        """The loaded game behind these parameters."""
        found = getattr(self, "_loaded_game", None)
        return found if found is not None else _loaded(self.get_parameters())

    @property
    def spec(self) -> GameSpec:
        """The rules file, players, options and action space."""
        return self.loaded.spec

    @property
    def engine(self) -> Engine:
        """The rulelang engine that plays the game."""
        return self.loaded.spec.engine

    @property
    def actions(self) -> ActionSpace:
        """The game's fixed action space (``actions.string(id)`` reads an id)."""
        return self.loaded.spec.actions

    def new_initial_state(self) -> RulelangState:
        """The game before its first decision (often a chance node)."""
        return RulelangState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RulelangObserver:
        """An observer: the player's view now, or (perfect recall) her views at her decisions and what she did."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RulelangObserver(self.loaded, perfect_recall)


class _Shared:
    """A reference that OpenSpiel's clone (a deepcopy of each attribute) must not copy."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.loaded: Loaded = value.loaded

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def __reduce__(self) -> tuple:
        return (_shared_game, (self.value.get_parameters(),))


def _shared_game(params: dict[str, Any]) -> _Shared:
    """Unpickle a game reference from its parameters."""
    return _Shared(pyspiel.load_game(SHORT_NAME, params))


class RulelangState(pyspiel.State):
    """A game in progress: the engine's state, plus the steps that led there."""

    def __init__(self, game: RulelangGame) -> None:
        super().__init__(game)
        shared = getattr(game, "_shared_ref", None)
        if shared is None:
            shared = _Shared(game)
            try:
                game._shared_ref = shared
            except AttributeError:  # pragma: no cover - a game object that takes no attributes
                pass
        self._shared = shared
        self._progress = shared.loaded.initial  # shared: the first action applied works on a copy

    @property
    def _engine(self) -> Engine:
        return self._shared.loaded.spec.engine

    @property
    def _st(self) -> State:
        return self._progress.st

    def engine_state(self) -> State:
        """A copy of the rulelang state (for tracing or inspection), its result written if the game is over."""
        st = self._st.copy()
        st.defer_result = False
        self._engine.settle_result(st)
        return st

    def legal_labels(self) -> list[str]:
        """The engine's labels of the legal actions, in the order of ``legal_actions()`` (rendered here)."""
        if self.is_terminal() or self._engine.is_chance(self._st):
            return []
        return list(self._engine.pending(self._st).labels or [])

    # ---------------------------------------------------------------- pyspiel API
    def current_player(self) -> int:
        """The seat to move, CHANCE, or TERMINAL."""
        node = self._progress.node
        return node if node is not None else node_of(self._shared.loaded, self._progress)

    def is_terminal(self) -> bool:
        """Whether the game is over (or was cut at max_game_length)."""
        return self._progress.st.over or self._progress.cut

    def is_chance_node(self) -> bool:
        """Whether chance moves now (pyspiel's ``CurrentPlayer() == kChancePlayerId``, without the C++ round trip)."""
        node = self._progress.node
        return (node if node is not None else node_of(self._shared.loaded, self._progress)) == CHANCE_ID

    def legal_actions(self, *player: int) -> list[int]:
        """The legal action ids, sorted: of the seat to move (or of ``player``), as pyspiel's ``legal_actions``
        gives them; at a decision, for its seat, without the C++ round trip (elsewhere, pyspiel's own)."""
        progress = self._progress
        node = progress.node
        if node is None:
            node = node_of(self._shared.loaded, progress)
        if node >= 0 and (not player or player[0] == node):
            legal = progress.legal or legal_of(self._shared.loaded, progress)
            return list(legal[4])
        return pyspiel.State.legal_actions(self, *player)

    def _legal_actions(self, player: int) -> list[int]:
        loaded, progress = self._shared.loaded, self._progress
        node = progress.node
        if (node if node is not None else node_of(loaded, progress)) < 0:
            return []
        legal = progress.legal or legal_of(loaded, progress)
        return list(legal[4]) if player == legal[1] else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) of each possible outcome of the pending chance node."""
        progress = self._progress
        deal = progress.deal
        if deal is not None:  # a shuffle's next position (what chance_probabilities gives, without the call)
            left = deal[2]
            return [(k, n / left) for k, n in zip(deal[0], deal[1])]
        probabilities = progress.probabilities
        if probabilities is not None and progress.outcomes is not None:
            return list(probabilities)
        return chance_probabilities(self._shared.loaded, progress)

    def _apply_action(self, action: int) -> None:
        progress = self._progress
        loaded = self._shared.loaded
        if not progress.shared:  # nobody else holds it: changed in place
            play(loaded, progress, action)
            return
        progress.visits += 1
        children = progress.children
        if children is not None:
            child = children.get(action)
            if child is not None:  # this history was played before: the same position
                self._progress = child
                return
        child = progress.copy()
        play(loaded, child, action)  # (an action that cannot be applied raises: this state keeps its progress)
        self._progress = child
        if loaded.keep > 0 and progress.visits > 1:  # kept for the next game here
            loaded.keep -= 1
            child.shared = True
            if children is None:
                children = progress.children = {}
            children[action] = child

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not self.is_terminal() and self._engine.is_chance(self._st):
                for i, label, _w in chance_outcomes(self._engine, self._st, self._progress.shuffled):
                    if i == action:
                        return label
            return _chance_string(self._engine, action)
        try:
            return self._shared.loaded.spec.actions.string(action)
        except ActionSpaceError:
            return f"action {action}"

    def returns(self) -> list[float]:
        """Each player's payoff once the game is over (0 for everyone before the end, or if cut)."""
        progress = self._progress
        if progress.payoffs is not None:
            return list(progress.payoffs)
        players = self._shared.loaded.spec.players
        if progress.st.over:
            progress.payoffs = payoffs(self._engine, progress.st, players)
            return list(progress.payoffs)
        return [0.0] * players

    def __str__(self) -> str:
        text = json.dumps(self._engine.observe(self._st, None), sort_keys=True)
        if self._progress.shuffled:
            text += " shuffled so far: " + ",".join(self._progress.shuffled)
        return text

    # ---------------------------------------------------------------- what a player saw
    def views_of(self, player: int, now: np.ndarray | None = None) -> list[tuple[np.ndarray, int]]:
        """``player``'s earlier decisions (forced ones skipped): her observation tensor then, the action id taken.

        ``now``: her observation tensor here, if the caller has it: kept, so that the position after her
        next decision finds her views by adding one to these rather than by playing the game again."""
        progress = self._progress
        steps = progress.steps
        cached = progress.views.get(player)
        if cached is not None and cached[0] is steps:
            if now is not None and cached[2] is None:
                progress.views = {**progress.views, player: (steps, cached[1], now)}
            return cached[1]
        views = self._views_after(player, cached) if cached is not None else None
        if views is None:
            views = self._views_replayed(player)
        progress.views = {**progress.views, player: (steps, views, now)}
        return views

    def _views_after(self, player: int, cached: tuple) -> list[tuple[np.ndarray, int]] | None:
        """Her views here from those kept at an earlier position of this game (``cached``: its steps, her
        views, her observation there or None), where the steps since then hold none of her decisions, or
        just one, the first, taken there with her observation kept; else None."""
        since, views, then = cached
        newer = []
        node = self._progress.steps
        while node is not since:
            if node is None:  # (not an earlier position of this game)
                return None
            newer.append(node[1])
            node = node[0]
        newer.reverse()
        mine = [i for i, what in enumerate(newer) if what[0] != "chance" and what[1] == player and not what[4]]
        if not mine:
            return views
        if mine == [0] and then is not None:
            return [*views, (then, newer[0][3])]
        return None

    def _views_replayed(self, player: int) -> list[tuple[np.ndarray, int]]:
        """Her views, by playing the game's steps again from its start."""
        loaded = self._shared.loaded
        engine = self._engine
        st = loaded.start.copy()
        views: list[tuple[np.ndarray, int]] = []
        for what in steps_list(self._progress.steps):
            if what[0] == "chance":
                engine.apply(st, what[1])
                continue
            kind, seat, position, action, forced = what
            if seat == player and not forced:
                views.append((observation_tensor(loaded, st, player), action))
            if kind == "choose":
                engine.apply_index(st, position)
            else:
                answers = engine.ask_answers(st)
                assert answers is not None
                engine.answer(st, answers, position)
        return views


def _chance_string(engine: Engine, action: int) -> str:
    """A chance id's text: the face, kind or seat it stands for (all of them, when it stands for several)."""
    model = engine.model
    names = []
    if action < len(model.faces):
        names.append(model.faces[action].display)
    if action < len(model.kinds):
        names.append(model.kinds[action].name)
    names.append(seat_label(action))
    return " / ".join(dict.fromkeys(names))


def observation_tensor(loaded: Loaded, st: State, player: int) -> np.ndarray:
    """``player``'s view of ``st`` as the observation tensor (float32)."""
    return np.asarray(loaded.encoder.encode(loaded.spec.engine.observe(st, player)), dtype=np.float32)


def tensor_string(names: list[str], tensor: np.ndarray) -> str:
    """The tensor's non-zero slots as ``name=value``, in order: equal strings exactly when equal tensors."""
    out = []
    for i in np.flatnonzero(tensor):
        v = float(tensor[i])
        out.append(f"{names[i]}={int(v) if v.is_integer() else repr(v)}")
    return "; ".join(out)


def history_length(loaded: Loaded) -> int:
    """How many of a player's own decisions the information-state tensor holds (sized once per game)."""
    if loaded.history_length > 0:
        return loaded.history_length
    engine = loaded.spec.engine
    most = 1
    for g in range(HISTORY_PROBE_GAMES):
        progress = loaded.initial.copy()
        pick = Rng(g, stream=1)
        counts = [0] * loaded.spec.players
        while not progress.st.over and not progress.cut:
            if engine.is_chance(progress.st):
                outcomes = outcomes_of(loaded, progress)
                weights = [w for _i, _l, w in outcomes]
                r, k = pick.below(sum(weights)), 0
                while r >= weights[k]:
                    r -= weights[k]
                    k += 1
                play(loaded, progress, outcomes[k][0])
            else:
                legal = legal_of(loaded, progress)
                counts[legal[1]] += 1
                play(loaded, progress, legal[2][pick.below(len(legal[2]))])
        most = max(most, *counts)
    size = 1
    while size < 2 * most:
        size *= 2
    loaded.history_length = size
    return size


class RulelangObserver:
    """OpenSpiel's PyObserver: ``tensor`` and ``dict`` set by ``set_from``, ``string_from``.

    Without perfect recall: the observation tensor (``ObservationEncoder``). With it, the
    information state: the observation now, then for each of the player's earlier decisions
    (at most ``history_length``; forced ones skipped) her observation then and a one-hot of
    the action id she took; slots of decisions not yet made are 0.
    """

    def __init__(self, loaded: Loaded, perfect_recall: bool) -> None:
        self.loaded = loaded
        self.encoder = loaded.encoder
        self.perfect_recall = perfect_recall
        obs = self.encoder.size
        self.entry = obs + loaded.spec.actions.size
        self.history = history_length(loaded) if perfect_recall else 0
        self.tensor = np.zeros(obs + self.history * self.entry, np.float32)
        self.dict = {"observation": self.tensor[:obs]}
        if perfect_recall:
            self.dict["history"] = self.tensor[obs:].reshape(self.history, self.entry)

    def set_from(self, state: RulelangState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state`` (and, with perfect recall, her history)."""
        obs = self.encoder.size
        self.tensor.fill(0.0)
        now = observation_tensor(self.loaded, state._st, player)
        self.tensor[:obs] = now
        if not self.perfect_recall:
            return
        views = state.views_of(player, now)
        if len(views) > self.history:
            raise ActionSpaceError(
                f"{seat_label(player)} has made {len(views)} decisions, more than the information-state tensor "
                f"holds (history_length={self.history})",
                hint=f"load the game with history_length={2 * len(views)} or more")
        for k, (seen, action) in enumerate(views):
            at = obs + k * self.entry
            self.tensor[at:at + obs] = seen
            self.tensor[at + obs + action] = 1.0

    def string_from(self, state: RulelangState, player: int) -> str:
        """``player``'s view now (non-zero slots of the tensor); with perfect recall, after her earlier views."""
        names = self.encoder.names
        seen_now = observation_tensor(self.loaded, state._st, player)
        now = tensor_string(names, seen_now)
        if not self.perfect_recall:
            return now
        space = self.loaded.spec.actions
        lines = [f"{k + 1}. {tensor_string(names, seen)} -> {action} {space.string(action)}"
                 for k, (seen, action) in enumerate(state.views_of(player, seen_now))]
        return "\n".join([*lines, f"now: {now}"])


pyspiel.register_game(_GAME_TYPE, RulelangGame)
