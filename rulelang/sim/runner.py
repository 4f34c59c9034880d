"""Playing many games: one game from its (seed, index) and a batch of them (local processes: pool.py).

A simulation is a :class:`SimJob` (plain data: which rules, options, players, agents,
first seed) and a range of game indices. Game ``i`` is played with seed ``seed + i``
(dice, shuffles and every agent's stream derive from it), so the records do not depend
on how the indices are split into batches, processes or machines.
"""

from __future__ import annotations

import os
from typing import Any

import attrs

from rulelang.agents.spec import AgentSpec
from rulelang.engine.determinize import World
from rulelang.engine.engine import DEFAULT_BUDGET, Engine
from rulelang.engine.state import Picking, State, ones_free
from rulelang.errors import ErrorList, RulelangError
from rulelang.rng import Rng


class CoverageUnavailable(RuntimeError):
    """The engine cannot count which rule constructs fired."""


COVERAGE_NEEDS = ("coverage needs an engine that counts rule constructs: Engine(program, coverage=True) "
                  "with program.constructs and engine.coverage (the generated back end)")


@attrs.frozen
class SimJob:
    """What to simulate (everything a worker needs to play any game of the run)."""

    path: str
    options: tuple[tuple[str, str], ...]
    players: int
    agents: tuple[AgentSpec, ...]
    seed: int = 1
    max_steps: int = 100_000
    budget: int = DEFAULT_BUDGET
    coverage: bool = False
    metrics: bool = False  # watch each game: the leaders at each turn's end, the options at each decision


@attrs.frozen
class GameRecord:
    """The outcome of one game, as plain data."""

    index: int
    seed: int
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    keys: tuple[tuple[float, ...], ...]  # per seat, the ranking keys
    sheets: tuple[tuple[tuple[str, str, float], ...], ...]  # per seat, (sheet, line, value)
    payoffs: tuple[float, ...]  # per seat, Engine.payoffs: the declared payoff, else from the ranking
    steps: int
    turns: int
    first: int | None  # who took the first turn (None if it went by unseen)
    # With SimJob.metrics only (else empty): the seats ranked first at the end of each turn (or
    # round), the last being the final standings; and per decision point ("file:line" of the choose
    # or ask) and number of options, how many decisions had that many: (where, options, decisions).
    leaders: tuple[tuple[int, ...], ...] = ()
    branching: tuple[tuple[str, int, int], ...] = ()


@attrs.define
class Watch:
    """What a watched game notes as it is played (metrics.py reads it): leaders per turn, options per decision."""

    leaders: list[tuple[int, ...]] = attrs.Factory(list)
    options: dict[tuple[Any, int], int] = attrs.Factory(dict)  # (where, options) -> decisions
    turn: int = 0

    def at(self, engine: Engine, st: State) -> None:
        """Note the leaders if a turn (or round) ended since the last call."""
        if st.turn != self.turn:
            if self.turn >= 1:
                self.leaders.append(tuple(int(r["player"][1:]) - 1 for r in engine.standings(st)["standings"]
                                          if r["rank"] == 1))
            self.turn = st.turn

    def decided(self, engine: Engine, st: State, options: int) -> None:
        """Note a decision with ``options`` legal options, at the choose or ask play is paused at."""
        span = engine.where_span(st)
        key = ((getattr(span, "file", "?"), getattr(span, "line", 0)), options)
        self.options[key] = self.options.get(key, 0) + 1

    def branching(self) -> tuple[tuple[str, int, int], ...]:
        """What was noted, as ``GameRecord.branching``: (file:line, options, decisions), in order."""
        return tuple((f"{file}:{line}", n, c) for ((file, line), n), c in sorted(self.options.items()))

    def picker(self, engine: Engine, st: State, pick: Any) -> Any:
        """``pick`` (options -> index, as the engine calls an agent that picks by index) noting each decision."""
        def watched(n: int) -> int:
            self.at(engine, st)
            self.decided(engine, st, n)
            return pick(n)

        return watched


@attrs.frozen
class BatchResult:
    """The records of a batch of games, or the error that stopped it, and coverage counts."""

    records: tuple[GameRecord, ...]
    coverage: tuple[int, ...] | None = None
    error: str | None = None  # a formatted rulelang error, with the game that raised it


_ENGINES: dict[tuple[Any, ...], tuple[Engine, Engine]] = {}


def engines_for(job: SimJob) -> tuple[Engine, Engine]:
    """(the engine that plays, the engine search agents look ahead with), loaded once per process.

    With coverage they differ, so that look-ahead does not count as play.
    """
    key = (job.path, job.options, job.budget, job.coverage)
    cached = _ENGINES.get(key)
    if cached is not None:
        return cached
    from rulelang.game import load_game

    plain = load_game(job.path, dict(job.options), budget=job.budget)
    if not job.coverage:
        pair = (plain, plain)
    else:
        try:
            counting = Engine(plain.program, budget=job.budget, coverage=True)  # type: ignore[call-arg]
        except TypeError:
            raise CoverageUnavailable(COVERAGE_NEEDS) from None
        if not hasattr(plain.program, "constructs") or not hasattr(counting, "coverage"):
            raise CoverageUnavailable(COVERAGE_NEEDS)
        pair = (counting, plain)
    _ENGINES[key] = pair
    return pair


def play_game(engine: Engine, job: SimJob, index: int,
              search_engine: Engine | None = None, watch: Watch | None = None) -> tuple[State, int | None]:
    """Play game ``index`` of ``job`` to its end (without recording): (final state, first player).

    The game is the one ``rulelang run --seed SEED+INDEX`` plays with the same agents.
    With ``watch``, every decision is noted (here, or in the picks the engine makes for the
    agents), with the leaders read at each turn's first decision.
    Raises RulelangError if the rules break or the game runs past ``max_steps``.
    """
    seed = job.seed + index
    look = search_engine or engine
    agents = [spec.make(seed, seat) for seat, spec in enumerate(job.agents)]
    wants_view = [getattr(a, "needs_observation", True) for a in agents]
    by_index = [hasattr(a, "choose_index") and not wants_view[i] for i, a in enumerate(agents)]
    searching = [getattr(a, "searches", False) for a in agents]
    chance = Rng(seed, stream=0)
    st = engine.new_state(job.players)
    st.chance_rng = chance  # dice are rolled as the rules roll them, as play() does
    first: int | None = st.current if st.turn == 1 else None
    # Agents that pick by index and see nothing: once the first turn's player is known, the
    # engine takes their choices and asks itself (as play() does).
    picks = [a.choose_index for a in agents] if all(by_index) else None  # type: ignore[attr-defined]
    if picks is not None and watch is not None:
        picks = [watch.picker(engine, st, pick) for pick in picks]
    try:
        while not st.over:
            if picks is not None and st.picking is None and (first is not None or st.turn > 1):
                st.picking = Picking(picks, job.max_steps, ones=ones_free(picks))
            if st.step >= job.max_steps:
                raise RulelangError(f"the game did not end within {job.max_steps} steps", engine.where_span(st),
                                    hint="raise --max-steps, or check the rules' end condition")
            size = engine.choice_size(st)
            if size is not None and by_index[size[0]]:
                if watch is not None:
                    watch.at(engine, st)
                    watch.decided(engine, st, size[1])
                engine.apply_index(st, agents[size[0]].choose_index(size[1]))  # type: ignore[attr-defined]
            elif engine.is_chance(st):
                engine.apply_random(st, chance, events=False)
            else:
                d = engine.pending(st)
                assert d is not None
                seat = d.player if d.player is not None else st.current
                seen = engine.observe(st, seat) if wants_view[seat] else {}
                if watch is not None:
                    watch.at(engine, st)
                    watch.decided(engine, st, len(d.labels or []))
                if searching[seat]:
                    action = agents[seat].choose(seen, list(d.labels or []), World(look, st, seat))  # type: ignore[call-arg]
                else:
                    action = agents[seat].choose(seen, d.labels or [])
                engine.apply(st, action, player=seat)
            if first is None and st.turn == 1:
                first = st.current
    finally:
        st.chance_rng = None
        st.picking = None
    return st, first


def record_of(engine: Engine, st: State, index: int, seed: int, first: int | None,
              watch: Watch | None = None) -> GameRecord:
    """The plain-data outcome of a finished game (with what ``watch`` noted, if it was watched)."""
    result = st.result
    assert result is not None
    n = st.players
    ranks = [0] * n
    keys: list[tuple[float, ...]] = [()] * n
    sheets: list[tuple[tuple[str, str, float], ...]] = [()] * n
    for row in result["standings"]:
        p = int(row["player"][1:]) - 1
        ranks[p] = row["rank"]
        keys[p] = tuple(row["keys"])
        sheets[p] = tuple((name, line, value) for name, lines in row.get("sheets", {}).items()
                          for line, value in lines.items())
    return GameRecord(
        index=index, seed=seed, winners=tuple(int(w[1:]) - 1 for w in result["winners"]), ranks=tuple(ranks),
        keys=tuple(keys), sheets=tuple(sheets), payoffs=tuple(float(v) for v in engine.payoffs(st)),
        steps=st.step, turns=st.turn, first=first,
        leaders=() if watch is None else (*watch.leaders, tuple(p for p in range(n) if ranks[p] == 1)),
        branching=() if watch is None else watch.branching(),
    )


def run_batch(job: SimJob, indices: list[int]) -> BatchResult:
    """Play the games ``indices`` of ``job`` in this process."""
    try:
        engine, look = engines_for(job)
    except (RulelangError, ErrorList) as exc:
        return BatchResult((), error=exc.format())
    before = list(engine.coverage) if job.coverage else None  # type: ignore[attr-defined]
    records = []
    for i in indices:
        try:
            watch = Watch() if job.metrics else None
            st, first = play_game(engine, job, i, look, watch)
        except RulelangError as exc:
            return BatchResult(tuple(records), error=f"game {i} (seed {job.seed + i}):\n{exc.format()}")
        records.append(record_of(engine, st, i, job.seed + i, first, watch))
    counts = None
    if before is not None:
        after = engine.coverage  # type: ignore[attr-defined]
        counts = tuple(a - b for a, b in zip(after, before))
    return BatchResult(tuple(records), coverage=counts)


def batches(games: int, size: int) -> list[list[int]]:
    """Game indices 0..games-1 cut into consecutive batches of ``size``."""
    size = max(1, size)
    return [list(range(s, min(games, s + size))) for s in range(0, games, size)]


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
