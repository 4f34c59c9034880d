"""``rulelang check --deep``: play random games to find the errors only play can show.

The checker sees the text; some mistakes show only in play: two options whose labels
read alike, ``nobody`` held in a name and used as a seat, a number that grows without
bound, a loop or a chain of turns that never asks for a decision. A deep check plays
seeded random games at every player count, rendering every label of every choice (as
recording a trace does), and reports the first such error with its place in the file.
"""

from __future__ import annotations

from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.wording import players_text


def deep_check(engine: Engine, games: int = 20, seed: int = 1, max_steps: int = 100_000,
               warnings: list[str] | None = None) -> tuple[int, RulelangError | None]:
    """Play ``games`` random games at each player count; (games played, the first error or None).

    With ``warnings``, a note is added to it when a ranking's winner did not get the highest
    declared payoff in some game (the ranking and the payoff disagree)."""
    played = 0
    model = engine.model
    disagree: list[tuple[int, int]] = []  # (players, seed) of games where ranking and payoff disagree
    for players in range(model.min_players, model.max_players + 1):
        for g in range(games):
            game_seed = seed + g
            try:
                st = _one_game(engine, players, game_seed, max_steps, narrate=False)
            except RulelangError as exc:
                try:  # the same game again, narrated, so that the error can quote the last narration
                    _one_game(engine, players, game_seed, max_steps, narrate=True)
                except RulelangError as narrated:
                    if narrated.message == exc.message:
                        exc = narrated
                where = f"found in a random game of {players_text(players)}, seed {game_seed}"
                exc.hint = f"{exc.hint} ({where})" if exc.hint else where
                return played, exc
            played += 1
            if players > 1 and st.over and _disagrees(engine, st):
                disagree.append((players, game_seed))
    if warnings is not None and disagree:
        players, first = disagree[0]
        warnings.append(f"in {len(disagree)} of {played} random games a winner by the ranking did not get the "
                        f"highest payoff (the first: {players_text(players)}, seed {first}); the winner comes from "
                        "'rank', the payoff from 'payoff'")
    return played, None


def _disagrees(engine: Engine, st: State) -> bool:
    """Whether a winner of a finished game with a declared payoff got less than the highest payoff."""
    if engine.model.payoff is None or st.result is None or not st.result["winners"]:
        return False
    payoffs = engine.payoffs(st)
    return any(payoffs[int(w[1:]) - 1] < max(payoffs) for w in st.result["winners"])


def _one_game(engine: Engine, players: int, seed: int, max_steps: int, narrate: bool) -> State:
    st = engine.new_state(players, narrate=narrate)
    agents = [RandomAgent(seed, s) for s in range(players)]
    play(engine, st, agents, seed, max_steps=max_steps, on_event=lambda _e, _n: None, narrate=narrate)
    return st
