"""What both environment adapters share: loading, the action space, payoffs, chance."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from rulelang.engine.engine import Engine
from rulelang.engine.payoffs import payoffs_of_result
from rulelang.engine.state import State
from rulelang.envs.actions import ActionSpace, ActionSpaceError, build_action_space
from rulelang.errors import RulelangError
from rulelang.game import load_game
from rulelang.rng import Rng
from rulelang.wording import player_counts_text

__all__ = ["ActionSpaceError", "GameSpec", "load_spec", "payoffs", "rank_payoffs", "seat_label", "settle"]

def seat_label(seat: int) -> str:
    """The rules' name of a seat: P1, P2, ..."""
    return f"P{seat + 1}"


def option_strings(options: dict[str, Any] | None) -> dict[str, str] | None:
    """Game options as the checker reads them (text, as after ``-o``); True/False become true/false."""
    if options is None:
        return None
    out: dict[str, str] = {}
    for name, value in options.items():
        out[str(name)] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return out


@attrs.define
class GameSpec:
    """A loaded game, its number of players and its fixed action space."""

    path: str
    engine: Engine
    players: int
    options: dict[str, str] | None
    actions: ActionSpace
    declared: int | None = None  # the max_actions given, if any

    @property
    def max_actions(self) -> int:
        """The number of distinct actions (the size of the fixed action space)."""
        return self.actions.size


_SPACES: dict[tuple, ActionSpace] = {}


def load_spec(path: str | Path, players: int | None, options: dict[str, Any] | None,
              max_actions: int | None) -> GameSpec:
    """Load the game and fix its player count and action space (``max_actions``: a declared bound)."""
    opts = option_strings(options)
    engine = load_game(path, opts)
    model = engine.model
    n = model.default_players if players is None else int(players)
    if not model.min_players <= n <= model.max_players:
        raise RulelangError(f"{model.title} takes {player_counts_text(model.min_players, model.max_players)}, not {n}",
                            hint=f"pass players= a number from {model.min_players} to {model.max_players}")
    if max_actions is not None and int(max_actions) < 1:
        raise RulelangError(f"max_actions must be 1 or more, not {max_actions}")
    declared = None if max_actions is None else int(max_actions)
    return GameSpec(str(path), engine, n, opts, build_action_space(engine, n, declared), declared)


@attrs.define
class PayoffInfo:
    """What a game pays: the utility kind ("zero_sum", "constant_sum", "general_sum"), its sum, bounds."""

    utility: str
    total: float
    low: float
    high: float


def payoff_info(engine: Engine, players: int) -> PayoffInfo:
    """The game's utility kind and payoff bounds for ``players`` players (``Engine.payoff_spec_for``)."""
    spec = engine.payoff_spec_for(players)
    total = spec.total
    return PayoffInfo(str(spec.utility), float(total or 0), float(spec.low), float(spec.high))


def payoffs(engine: Engine, st: State, players: int) -> list[float]:
    """Each player's payoff at the end (``Engine.payoffs``: declared, else the rank payoff of the standings)."""
    out = [float(v) for v in engine.payoffs(st)]
    assert len(out) == players
    return out


def rank_payoffs(result: dict[str, Any], players: int) -> list[float]:
    """Each player's payoff from a finished game's result: the declared payoff if the result has one,
    else from the final ranking, in [-1, 1] and summing to 0.

    A player gets (players ranked below her - players ranked above her) / (players - 1):
    with two players, +1 for a win, -1 for a loss, 0 for a tie (see ``Engine.payoffs``).
    """
    return [float(v) for v in payoffs_of_result(result, players)]


def game_payoffs(engine: Engine, st: State) -> list[float]:
    """Each seat's payoff in a finished game (``Engine.payoffs``: declared, else from the ranking)."""
    return [float(v) for v in engine.payoffs(st)]


def settle(engine: Engine, st: State, chance: Rng, events: list[dict[str, Any]] | None = None) -> None:
    """Resolve chance with ``chance`` until a player must decide or the game is over.

    With ``events``, the chance events are appended to it as trace events.
    """
    while not st.over and engine.is_chance(st):
        if events is None:
            engine.apply_random(st, chance, events=False)
        else:
            events.extend(engine.apply_random(st, chance, events=True))


def chance_outcomes(engine: Engine, st: State, shuffled: Sequence[str] = ()) -> list[tuple[int, str, int]]:
    """The pending chance's outcomes as (fixed id, label, weight), by id; a shuffle's next position.

    Ids are fixed per game: a face's number among the game's faces for a roll, a kind's number
    for a random draw or a shuffle's position, a seat for a first player or a pick.
    """
    d = engine.pending(st)
    assert d is not None and d.kind == "chance"
    model = engine.model
    if d.pool is not None:
        left = Counter(d.pool)
        for kind, n in Counter(shuffled).items():
            left[kind] -= n
        return [(engine.kind_by_name[kind], kind, n) for kind, n in sorted(left.items(),
                key=lambda item: engine.kind_by_name[item[0]]) if n > 0]
    assert d.labels is not None and d.weights is not None
    if "roll" in d.event:
        index = {f.name: f.index for f in model.faces}
        index.update({f.display: f.index for f in model.faces if f.display not in index})
        out = [(index[label], label, w) for label, w in zip(d.labels, d.weights)]
    elif "draw" in d.event:
        out = [(engine.kind_by_name[label], label, w) for label, w in zip(d.labels, d.weights)]
    else:  # a first player or a pick: a seat
        out = [(int(label[1:]) - 1, label, w) for label, w in zip(d.labels, d.weights)]
    return sorted(out)


def max_chance_outcomes(engine: Engine, players: int) -> int:
    """How many distinct chance ids the game has (faces, kinds, seats)."""
    return max(len(engine.model.faces), len(engine.model.kinds), players, 1)
