"""What the equivalence tests of the compiler's fast paths compare (a build with a lever against one
without): a random game's final table, played plainly or recorded with digests, and the examples; an MCTS
agent's choices; where a step budget runs out; whether a deliberately broken build is noticed."""

from __future__ import annotations

import itertools
import re
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import attrs
import pytest

from rulelang.agents.base import RandomAgent
from rulelang.agents.search import MctsAgent
from rulelang.engine.determinize import World, random_step
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.game import load_game
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.trace.format import CHANCE_FROM_SEED, header, result_line
from rulelang.trace.replay import Replayer, Trace

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))
EXAMPLES = sorted(str(p.relative_to(REPO)) for p in (REPO / "examples").glob("**/*.rules"))

# A lever of the compiler: ``(module, NAME)``, a module-level flag set True for the build with the levers and
# False for the one without; or ``(owner, name, off)``, an attribute (a method, a function) replaced by ``off``
# in the build without them and left as it is in the build with them.
Flag = tuple[Any, str] | tuple[Any, str, Any]


def build(path: Path | str, flags: Sequence[Flag], on: bool | Mapping[str, bool] = True,
          budget: int | None = None) -> Engine:
    """The game at ``path`` (a relative one: in the repository) compiled afresh with each lever of ``flags`` on or
    off (``on``: all of them, or by name, a name not given on), and the step ``budget`` if given. The patches last
    only while it compiles."""
    path = REPO / path
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        for flag in flags:
            owner, name = flag[0], flag[1]
            want = on if isinstance(on, bool) else on.get(name, True)
            if len(flag) == 2:
                patch.setattr(owner, name, want)
            elif not want:
                patch.setattr(owner, name, flag[2])
        return load_game(path) if budget is None else load_game(path, budget=budget)


class Builds(NamedTuple):
    """A game compiled with the levers (``new``) and without them (``old``); ``changed``: whether the two
    generated modules differ (``same_module``). Where they do not, the two builds are the same code and play
    the same games: comparing their plays could not fail."""

    new: Engine
    old: Engine
    changed: bool


def flagged_builds(path: Path | str, flags: Sequence[Flag], budget: int | None = None) -> Builds:
    """The game at ``path`` built with every lever of ``flags`` and without any (see ``build``)."""
    new, old = build(path, flags, True, budget), build(path, flags, False, budget)
    return Builds(new, old, not same_module(new, old))


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _contents(cell: types.CellType) -> Any:
    """A closure's cell's value (an empty cell: a mark of its own)."""
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


_EMPTY = object()


def _shape(value: Any, seen: set[int]) -> Any:
    """What ``value`` is, to compare two builds: containers by their items, attrs classes by their fields,
    functions by their code (not its file name: each build is a module of its own), defaults and closures' cells,
    anything else by its repr (an address left out)."""
    if isinstance(value, str | bytes | int | float | complex | type(None)):
        return type(value).__name__, value
    if id(value) in seen:
        return "seen", type(value).__name__
    seen.add(id(value))
    if isinstance(value, dict):
        return "dict", [(_shape(k, seen), _shape(v, seen)) for k, v in value.items()]
    if isinstance(value, list | tuple):
        return type(value).__name__, [_shape(v, seen) for v in value]
    if isinstance(value, set | frozenset):
        return type(value).__name__, sorted(repr(_shape(v, seen)) for v in value)
    if isinstance(value, types.FunctionType):
        cells = [_shape(_contents(c), seen) for c in value.__closure__ or ()]
        return ("function", value.__module__, value.__qualname__, _shape(value.__code__, seen),
                _shape(value.__defaults__, seen), cells)
    if isinstance(value, types.CodeType):
        return "code", value.co_name, value.co_code, _shape(value.co_consts, seen)
    if attrs.has(type(value)):
        return type(value).__qualname__, [(a.name, _shape(getattr(value, a.name), seen))
                                          for a in attrs.fields(type(value))]
    return type(value).__qualname__, _ADDRESS.sub("", repr(value))


def same_module(new: Engine, old: Engine) -> bool:
    """Whether two builds of a game have the same generated module: the same source, the same constants (the
    tables and specs it reads) and the same decision table; then they are the same code."""
    a, b = new.program.generated, old.program.generated
    return (a.source == b.source and _shape(a.constants, set()) == _shape(b.constants, set())
            and _shape(new.program.code, set()) == _shape(old.program.code, set()))


def table(engine: Engine, st: State) -> dict[str, Any]:
    """The table of ``st`` as the levers must leave it: zones, counters, who is out, step, turn, faces,
    the result, standings and ranks."""
    return {"zones": st.zones, "counters": st.counters, "out": st.out, "step": st.step, "turn": st.turn,
            "faces": st.faces, "result": st.result, "standings": engine.standings(st), "ranks": engine.ranks(st)}


def played(engine: Engine, players: int, seed: int) -> tuple[State, dict[str, Any]]:
    """A plain random playout (no recording: the fast paths inside the blocks): its final state and table."""
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
    return st, table(engine, st)


def plain(engine: Engine, players: int, seed: int) -> dict[str, Any]:
    """The final table of a plain random playout."""
    return played(engine, players, seed)[1]


def trace(engine: Engine, players: int, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events of a recorded random game (digests included) and its final table."""
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, digests=True,
         on_event=lambda event, _told: events.append(event))
    return events, table(engine, st)


def listed(engine: Engine, players: int, seed: int) -> tuple[list[dict[str, Any]], str]:
    """A random game's events kept in a list with turn digests (as ``run --trace`` records), and its end."""
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, events=events, digests=True)
    return events, st.dumps()


def replays_compliant(engine: Engine, players: int, seed: int) -> None:
    """The game ``listed`` records replays compliant, with the result it ended with."""
    events, _end = listed(engine, players, seed)
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
    head = header(engine, "<game>", players, seed, ["random"] * players, {}, chance=CHANCE_FROM_SEED)
    head["_line"] = 1
    lines = list(enumerate(events, start=2))
    lines.append((len(events) + 2, result_line(st)))
    verdict = Replayer(engine, Trace(f"<seed {seed}>", head, lines)).run()
    assert verdict.status == "compliant", (players, seed, verdict.message)
    assert verdict.result == st.result


def player_counts(engine: Engine) -> list[int]:
    """The game's fewest, default and most players, each once, in order."""
    model = engine.model
    return sorted({model.min_players, model.default_players, model.max_players})


def same_games(new: Engine, old: Engine, players: Iterable[int], seeds: Iterable[int]) -> None:
    """Assert that both builds play (``plain``) and record (``trace``) the same game at every count of
    ``players`` and every seed of ``seeds``."""
    for n, seed in itertools.product(list(players), list(seeds)):
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)
        assert trace(new, n, seed) == trace(old, n, seed), (n, seed)


def mcts_choices(engine: Engine, players: int) -> list[Any]:
    """An MCTS agent's choices (and its stream after) at the first positions with a choice of a seeded game."""
    st = engine.new_state(players)
    rng = Rng(5, stream=3)
    out: list[Any] = []
    while not st.over and len(out) < 4:
        if not engine.is_chance(st):
            d = engine.pending(st)
            assert d is not None
            labels = list(d.labels or [])
            if len(labels) > 1:
                seat = d.player if d.player is not None else st.current
                agent = MctsAgent(3 + len(out), seat, iters=8, depth=30)
                out.append((st.step, agent.choose({}, labels, World(engine, st, seat)), agent.rng._state))
        random_step(engine, st, rng)
    return out


def budget_outcome(engine: Engine, players: int, seed: int) -> tuple[Any, ...]:
    """How a random game under the engine's step budget ends: ("played", step, zones), or ("error", the
    error's text) where the budget runs out."""
    try:
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        return "played", st.step, st.zones
    except RulelangError as exc:
        return "error", exc.format()


def noticed(wrong: Engine, right: Engine, seeds: int = 3, compare: Callable[[Engine, int, int], Any] = plain) -> bool:
    """Whether a deliberately broken build plays other games than the right one (``compare``'s outcome, four
    players, seeds 0 to ``seeds`` - 1) or fails on one: a broken rewrite must not pass unnoticed."""
    for seed in range(seeds):
        try:
            if compare(wrong, 4, seed) != compare(right, 4, seed):
                return True
        except Exception:  # noqa: BLE001 -- a broken build may as well fail: it must not pass unnoticed
            return True
    return False
