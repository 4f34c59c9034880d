"""Per-game and per-ask shortcuts of the third round on games/rule-the-roost.rules, each checked against
the general way of doing the same thing.

- ``CodeGen.answers_by_table``: while the engine picks by position, the answers a player may give to an
  ``ask`` whose answers have at most three conditions are one of a table of answer lists, indexed by
  the conditions' outcomes (each tested once, in order), not a list built per player.
- ``CodeGen.answer_listed``: those players then answer in a loop that writes who is still waiting and
  the cleared decision caches once, when it is left (at the end, at the step limit, on an error).
- ``ExprWriter.memoized``: in the standings, a pure definition's value already kept is read from its memo
  table where it is used, without a call of the memo's function.
- ``runtime.shuffle_zone`` places each kind's components by two sorts; ``runtime.reveal`` keeps the
  list it made for the one player who looks.

The games must be exactly those of the general emission: same states, stacks, steps and results.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from scripted import ROOT
from step_support import one_at_a_time, played, same_stops

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile import answers, codegen, exprs, runtime
from rulelang.engine.engine import Engine
from rulelang.play import play
from rulelang.rng import Rng

ROOST = ROOT / "games" / "rule-the-roost.rules"

pytestmark = pytest.mark.usefixtures("at_root")

# Asks with no, one, two, three and four conditional answers (the last is past the table's limit), one
# whose answers may all be refused (nobody asked then), and defines the standings keep in memos.
RULES = """game "A"
players 2 to 4 default 4

10 Bean tokens
4 Stone tokens

zone pot: per player
zone pile

counter turns = 0
counter picked = 0

setup:
  move all from box to pile

turn:
  if any(all in pile):
    move 1 from pile to pot of current
  ask e in other players:
    "pass"
  ask e in other players:
    "bean" if any(Bean in pot of e)
    "nothing"
  ask e in other players:
    "stone" if any(Stone in pot of e)
    "bean" if any(Bean in pot of e)
    "nothing"
  for e in other players:
    if answer of e == "stone":
      picked += 1
    if answer of e == "bean":
      picked += 2
  ask e in other players:
    "two" if count(all in pot of e) >= 2
    "stone" if any(Stone in pot of e)
    "nothing"
    "bean" if any(Bean in pot of e)
  for e in other players:
    if answer of e == "two":
      picked += 3
    if answer of e == "stone":
      picked += 5
    if answer of e == "bean":
      move 1 Bean from pot of e to pile
  ask e in other players:
    "one" if count(all in pot of e) >= 1
    "two" if count(all in pot of e) >= 2
    "three" if count(all in pot of e) >= 3
    "four" if count(all in pot of e) >= 4
    "none"
  ask e in other players:
    "give" if any(all in pot of e)
  for e in other players:
    if answer of e == "give":
      move 1 from pot of e to pile
  turns += 1
  if turns >= 12:
    end game

define beans(p: player) = count(Bean in pot of p)
define most = max(beans(q) for q in players)
define leaders = total(1 for q in players if beans(q) == most)

sheet score for p:
  "beans": beans(p)
  "lead": (6 / leaders if beans(p) == most else 0)

rank p by highest score of p
"""


def _general(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with the general emission: answer lists built per player, answers taken by
    a loop that writes who waits and the caches after each answer, memos read by calls."""
    real_memoized = exprs.ExprWriter.memoized
    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "answers_by_table", lambda self, L, s, ok, ind: False)
        patch.setattr(answers, "ANSWERS_AT_ONCE", False)  # (its own tables: the answers listed and picked at once)

        def answer_each_loop(self: Any, L: list, at: int, pc: int, sp: Any, names: tuple, var: int,
                             slot: int) -> None:  # who waits and the caches written after each answer
            P, A, who, ok, i, j, lists, asked = names
            L.append((at, "while True:", sp))
            L.append((at + 1, f"if st.step >= {P}.limit:", sp))
            L.append((at + 2, "return left", sp))
            L.append((at + 1, f"{who} = loc[{var}] = {asked}[{j}]", sp))
            L.append((at + 1, f"{ok} = {lists}[{j}]", sp))
            self.answer(L, at + 1, sp, P, A, who, ok, i)
            for line in (f"{j} += 1", f"loc[{slot}] = {asked}[{j}:]", "st.step += 1",
                         "st.pending_cache = st.choice_cache = None", f"if {j} == len({asked}):"):
                L.append((at + 1, line, sp))
            L.append((at + 2, "break", sp))
            L.append((at, f"fr[1] = {pc + 1}", sp))
            self.taken(L, f"r{self.frame}_{pc + 1}", at, sp)

        patch.setattr(codegen.CodeGen, "answer_listed", answer_each_loop)

        def called(self: Any, e: Any, build: Any, c: Any) -> str:  # the memo's function, always
            return re.sub(r"^\(\w+\[.*\] if .* in \w+ else (m\d+\(st, loc\))\)$", r"\1",
                          real_memoized(self, e, build, c))

        patch.setattr(exprs.ExprWriter, "memoized", called)
        engine = load_game(path)
    source = engine.program.generated.source
    assert not re.search(r"_ok\d+ = at\d+", source) and "_memo[" not in source
    return engine


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    path = tmp_path / "a.rules"
    path.write_text(RULES, encoding="utf-8")
    return load_game(path), _general(path, monkeypatch)


def test_the_shortcuts_are_in_the_small_games_code(small: tuple[Engine, Engine]) -> None:
    fast, _general_engine = small
    source = fast.program.generated.source
    tables = re.findall(r"(_ok\d+) = (at\d+ if .* else at\d+|at\d+\[.*\])\n", source)
    # asks of 0, 1, 2, 3 conditional answers and the one of "give"; not the one of 4; and the tables of the
    # answers at once (answers.ANSWERS_AT_ONCE) of the asks of 2 and 3, which have an answer always allowed,
    # twice each: while nothing records and while play records (answers.ANSWERS_RECORDED)
    assert len(tables) == 9
    assert sum(1 for _ok, how in tables if "[" not in how.split(" if ")[0]) >= 2
    assert len(re.findall(r"_ok\d+ = \[\]\n", source)) == 1  # four conditions: listed per player
    assert "except BaseException:" in source
    # who waits is written once, not per answer, in the one loop every mode runs (replay's too)
    assert not re.search(r"loc\[\d+\] = _a\d+\[_j\d+:\]\n\s+st\.step \+= 1", source)
    assert re.search(r"loc\[\d+\] = _a\d+\[_j\d+:\]\n\s+st\.pending_cache", source)  # (when it is left)
    assert "_memo[" in source


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_small_game_plays_the_same_games(small: tuple[Engine, Engine], players: int) -> None:
    fast, general = small
    answers = set()
    picked = 0
    for seed in range(1, 41):
        got, error = played(fast, players, seed)
        want, want_error = played(general, players, seed)
        assert (error, want_error) == ("", "")
        assert got.dumps() == want.dumps(), seed
        assert (got.step, got.turn, got.result, got.stack) == (want.step, want.turn, want.result, want.stack), seed
        assert got.dumps() == one_at_a_time(fast, players, seed).dumps(), seed
        answers.update(got.answers)
        picked += got.counters[1]
    assert "give" in answers and picked > 10  # answers allowed by a condition were given


def test_the_step_limit_stops_at_the_same_place(small: tuple[Engine, Engine]) -> None:
    """Stopped by ``max_steps`` between two answers, the waiting players and the caches are those of
    the general emission."""
    fast, general = small
    full, _ = played(general, 4, 3)
    assert full.step > 60
    same_stops(fast, general, 4, 3, range(1, 61), stopped=True,
               view=lambda st: (st.dumps(), st.stack, st.pending_cache, st.choice_cache))


class _Fails(Exception):
    pass


class _Breaks:
    """Picks by position at random, and raises at its ``n``-th pick."""

    needs_observation = False

    def __init__(self, seed: int, seat: int, n: int) -> None:
        self.rng = Rng(seed, stream=1 + seat)
        self.n = n

    def choose_index(self, k: int) -> int:
        self.n -= 1
        if self.n == 0:
            raise _Fails
        return self.rng.pick(k)

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:  # pragma: no cover
        return legal[0]


def test_an_error_between_two_answers_leaves_the_same_state(small: tuple[Engine, Engine]) -> None:
    """An agent that fails while answering leaves the game where the general emission leaves it."""
    fast, general = small
    for n in range(1, 30):
        states = []
        for engine in (fast, general):
            st = engine.new_state(3)
            with pytest.raises(_Fails):
                play(engine, st, [RandomAgent(5, 0), _Breaks(5, 1, n), RandomAgent(5, 2)], 5)  # type: ignore[list-item]
            states.append(st)
        got, want = states
        assert got.dumps() == want.dumps(), n
        assert (got.stack, got.step, got.answers) == (want.stack, want.step, want.answers), n


def test_roost_plays_the_same_games_and_standings(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, general = load_game(ROOST), _general(ROOST, monkeypatch)
    assert re.search(r"_ok\d+ = at\d+ if ", fast.program.generated.source)
    for players in (2, 3, 4):
        for seed in range(1, 16):
            got, error = played(fast, players, seed)
            want, want_error = played(general, players, seed)
            assert (error, want_error) == ("", "")
            assert got.dumps() == want.dumps(), (players, seed)
            assert got.result == want.result and got.step == want.step, (players, seed)
            assert fast.standings(got) == general.standings(got), (players, seed)


def _shuffle_zone_by_dict(rng: Rng, src: list[int], kind_of: list[int]) -> None:
    """The general placing of ``shuffle_zone``: each kind's components, smallest id first, in its places."""
    rng.shuffle(src)
    kinds = [kind_of[c] for c in src]
    by_kind: dict[int, list[int]] = {}
    for c in sorted(src, reverse=True):
        by_kind.setdefault(kind_of[c], []).append(c)
    src[:] = [by_kind[k].pop() for k in kinds]


def test_shuffle_zone_places_each_kinds_components_as_the_dict_did() -> None:
    rng = random.Random(3)
    distinct = 0
    for seed in range(400):
        counts = [rng.choice([0, 1, 1, 2, 5, 20]) for _ in range(rng.randint(1, 9))]
        kind_of = [k for k, n in enumerate(counts) for _ in range(n)]
        src = rng.sample(range(len(kind_of)), rng.randint(0, len(kind_of)))  # any order, not only sorted
        got, want = list(src), list(src)
        a, b = Rng(seed, 0), Rng(seed, 0)
        runtime.shuffle_zone(a, got, kind_of)
        _shuffle_zone_by_dict(b, want, kind_of)
        assert got == want, (kind_of, src)
        assert a.next32() == b.next32()  # the same draws
        distinct += len({kind_of[c] for c in src}) == len(src)
    assert 0 < distinct < 400


class _Seen:
    players = 3
    turn = 4
    log = None

    def __init__(self) -> None:
        self.seen: list[list[dict[str, Any]]] = [[], [], []]
        self.looks = 0


def test_reveal_remembers_the_kinds_for_one_player_and_for_all() -> None:
    st = _Seen()
    picked = [4, 0, 2]
    remembered = ["a", "a", "b", "c", "d"]
    runtime.reveal(st, 1, picked, "here", ["a1", "a2", "b", "c", "d"], remembered)
    assert st.seen == [[], [{"turn": 4, "where": "here", "components": ["d", "a", "b"]}], []]
    runtime.reveal(st, None, picked, "there", ["a1", "a2", "b", "c", "d"], remembered)
    looks = [seen[-1]["components"] for seen in st.seen]
    assert looks == [["d", "a", "b"]] * 3
    assert len({id(x) for x in looks}) == 3  # each player's own list
    assert st.looks == sum(map(len, st.seen)) == 4  # (counted: a recorder tests the count)
    picked.append(1)
    assert st.seen[1][0]["components"] == ["d", "a", "b"]  # not the list looked at


# counts of a zone's components that pass a test of their own and whose attribute equals a value
COUNTS = """game "C"
players 2 to 4 default 3

attribute colour = 0
attribute big = false

4 Red tokens: colour 1, big true
4 Blue tokens: colour 2, big true
3 Green tokens: colour 3, big true
5 Small tokens: colour 1

zone pot: per player
zone pile

counter turns = 0
counter leader = nobody

setup:
  move all from box to pile

turn:
  choose:
    "take {k}" for k in kinds(all in pile):
      move 1 k from pile to pot of current
    "pass":
      pass
  if CHECK:
    say "many"
  turns += 1
  if turns >= 12:
    end game

define mine(p: player, q: player) = count(all in pot of p where big and colour == seat(q))
define small(p: player) = count(all in pot of p where colour == 1 and big)

sheet score for p:
  "mine": total(mine(p, q) for q in players)
  "small": small(p)

rank p by highest score of p
"""


def _counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: str) -> tuple[Engine, Engine]:
    path = tmp_path / "c.rules"
    path.write_text(COUNTS.replace("CHECK", check), encoding="utf-8")
    fast = load_game(path)
    with monkeypatch.context() as patch:
        patch.setattr(exprs.ExprWriter, "count_where_equal", lambda self, q: None)
        general = load_game(path)
    assert ".count(" in fast.program.generated.source and ".count(" not in general.program.generated.source
    return fast, general


@pytest.mark.parametrize("players", [2, 4])
def test_counts_where_an_attribute_equals_a_value_as_the_filter_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    fast, general = _counts(tmp_path, monkeypatch, "count(all in pot of current where big and colour == turns) > 1")
    source = fast.program.generated.source
    assert source.count(".count(") >= 2  # the turn's test and mine(p, q); not small(p): the test comes second
    scores = set()
    for seed in range(1, 31):
        got, error = played(fast, players, seed)
        want, want_error = played(general, players, seed)
        assert (error, want_error) == ("", "")
        assert got.dumps() == want.dumps() and got.result == want.result, seed
        scores.update(str(row["sheets"]) for row in got.result["standings"])
    assert len(scores) > 5


def test_the_value_sought_is_computed_only_when_a_component_passes_the_test(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``seat(leader)`` with nobody as the leader is an error, but only once a big token is in the pot:
    the same error, at the same step, as the filter's."""
    check = "count(all in pot of current where big and colour == seat(leader)) > 1"
    fast, general = _counts(tmp_path, monkeypatch, check)
    errors = set()
    for seed in range(1, 11):
        got, error = played(fast, 3, seed)
        want, want_error = played(general, 3, seed)
        assert error == want_error and got.step == want.step, seed
        assert got.dumps() == want.dumps(), seed
        errors.add(error)
        assert got.step > 0  # taken before the first big token: no error
    assert any("nobody" in e for e in errors)
