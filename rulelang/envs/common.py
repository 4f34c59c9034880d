"""What both environment adapters share: loading, the action bound, payoffs, chance."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from rulelang.engine.engine import Engine
from rulelang.engine.payoffs import payoffs_of_result
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.game import load_game
from rulelang.rng import Rng

PROBE_GAMES = 32  # random games played to size the action space when no bound is given
PROBE_MAX_DECISIONS = 20_000  # per probe game: a game that runs longer is cut short there


class ActionSpaceError(RulelangError):
    """A state offers more legal actions than the environment's fixed action space holds."""


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
    """A loaded game, its number of players and its fixed action bound."""

    path: str
    engine: Engine
    players: int
    options: dict[str, str] | None
    max_actions: int
    probed: int | None  # the largest legal-action count the probe saw (None: the bound was given)


_PROBES: dict[tuple, int] = {}


def load_spec(path: str | Path, players: int | None, options: dict[str, Any] | None,
              max_actions: int | None) -> GameSpec:
    """Load the game and fix its player count and action bound (probing for one if not given)."""
    opts = option_strings(options)
    engine = load_game(path, opts)
    model = engine.model
    n = model.default_players if players is None else int(players)
    if not model.min_players <= n <= model.max_players:
        raise RulelangError(f"{model.title} takes {model.min_players} to {model.max_players} players, not {n}",
                            hint=f"pass players= a number from {model.min_players} to {model.max_players}")
    probed = None
    if max_actions is None:
        key = (tuple(model.files), n, tuple(sorted((opts or {}).items())))
        if key not in _PROBES:
            _PROBES[key] = probe_max_actions(engine, n)
        probed = _PROBES[key]
        max_actions = default_bound(probed)
    elif int(max_actions) < 1:
        raise RulelangError(f"max_actions must be 1 or more, not {max_actions}")
    return GameSpec(str(path), engine, n, opts, int(max_actions), probed)


def default_bound(probed: int) -> int:
    """The action space size used when none is given: twice the probe's maximum, to a power of two."""
    bound = 2
    while bound < 2 * probed:
        bound *= 2
    return bound


def probe_max_actions(engine: Engine, players: int, games: int = PROBE_GAMES) -> int:
    """The largest number of legal actions any player had in ``games`` seeded random games."""
    most = 1
    for g in range(games):
        st = engine.new_state(players)
        chance = Rng(g, stream=0)
        pick = Rng(g, stream=1)
        decisions = 0
        while not st.over and decisions < PROBE_MAX_DECISIONS:
            if engine.is_chance(st):
                engine.apply_random(st, chance, events=False)
                continue
            d = engine.pending(st)
            assert d is not None and d.labels is not None
            for p in d.players or ():
                most = max(most, len(engine.legal_actions(st, p)))
            most = max(most, len(d.labels))
            engine.apply(st, d.labels[pick.below(len(d.labels))], player=d.player)
            decisions += 1
    return most


def check_bound(count: int, spec: GameSpec, st: State) -> None:
    """Raise ActionSpaceError when ``count`` legal actions do not fit the action space."""
    if count > spec.max_actions:
        how = (f"it was sized from random games, whose most was {spec.probed}" if spec.probed is not None
               else "it was given as max_actions")
        raise ActionSpaceError(
            f"this position offers {count} legal actions but the action space holds {spec.max_actions} ({how})",
            spec.engine.where_span(st),
            hint=f"create the environment with max_actions={count} or more",
        )


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


def chooser(engine: Engine, st: State) -> int:
    """The seat that decides now (the first of those still to answer an ``ask``)."""
    d = engine.pending(st)
    assert d is not None and d.kind == "choice" and d.player is not None
    return d.player


def choice_labels(engine: Engine, st: State) -> tuple[int, Sequence[str]]:
    """(the seat that decides now, its legal actions); the labels are rendered only when read."""
    d = engine.pending(st)
    assert d is not None and d.kind == "choice" and d.player is not None and d.labels is not None
    return d.player, d.labels
