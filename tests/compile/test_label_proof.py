"""Recording a game skips the look at every option's label only where the compiler proved that no two
options can read alike (rulelang/compile/label_proof.py): the proof is checked against every label
rendered by brute force on thousands of random templates, and games whose labels do collide still
stop with the duplicate-label error when recorded."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from rulelang.agents.base import RandomAgent
from rulelang.check import model as m
from rulelang.compile.label_proof import kinds_alike, labels_distinct
from rulelang.compile.program import CHOOSE
from rulelang.compile.runtime import kinds_apart, kinds_differ
from rulelang.engine.decision import DuplicateLabel
from rulelang.game import load_game
from rulelang.play import Recorder, play

ROOT = Path(__file__).resolve().parents[2]


def load_game_text(tmp_path: Path, text: str) -> Any:
    """The engine of a game given as text."""
    path = tmp_path / "t.rules"
    path.write_text(text)
    return load_game(path)


def choice_specs(engine: Any) -> list[Any]:
    """The compiled ``choose`` specs of a game, once each, in code order."""
    specs: list[Any] = []
    for block in engine.code:
        for ins in block:
            if ins and ins[0] == CHOOSE and all(ins[1] is not s for s in specs):
                specs.append(ins[1])
    return specs


# ------------------------------------------------------------------ the proof against brute force

KIND_SETS = [["A", "B", "C"], ["a", "a a", "b"], ["1", "1 1", "P1"], ["A", "A B", "B"], ["x", "xy", "y"],
             ["1", "P", "Q R"], ["of", "o", "f of"]]
PIECES = ["", " ", "a", "P", "1", "-", "x ", " of ", "y", ":", "B"]
DOMAINS = {m.INT: [str(n) for n in range(-2, 13)], m.PLAYER: [f"P{p}" for p in range(1, 13)]}


def _random_choice(rng: random.Random, kinds: list[str]) -> tuple[m.ChooseS, list[list[tuple[int, str]]]]:
    """A random ``choose`` of 1-3 options (0-2 ``for`` values each, holes of every readable type and
    holes showing a value fixed for the decision), and per option its ``for`` slots with their types."""
    options = []
    shapes = []
    slot = 0
    for _ in range(rng.randint(1, 3)):
        bindings = []
        for _ in range(rng.randint(0, 2)):
            type_ = rng.choice([m.INT, m.PLAYER, m.KIND, m.COMPONENT])
            kind = {m.INT: "range", m.PLAYER: "players", m.KIND: "kinds"}.get(type_, "all")
            query = None
            if type_ == m.COMPONENT:
                query = m.QueryIR("all", None, None, (), False, (m.ZoneSel(0, None),), None, None)
            bindings.append((slot, m.IterIR(kind, query, None, None, type_)))
            slot += 1
        parts: list[Any] = []
        holes = [m.Local(s, it.type) for s, it in bindings] * rng.choice([1, 1, 2])
        holes += [m.Local(99, m.STR)] * rng.randint(0, 1)  # a value fixed for the decision
        rng.shuffle(holes)
        for hole in holes:
            parts.append(rng.choice(PIECES))
            parts.append(m.SecretPart(hole) if rng.random() < 0.2 else hole)
        parts.append(rng.choice(PIECES))
        options.append(m.OptionIR(m.TemplateIR(tuple(parts)), tuple(bindings), None, (), None))
        shapes.append([(s, it.type) for s, it in bindings])
    return m.ChooseS(None, tuple(options), None), shapes


def _all_labels(choice: m.ChooseS, shapes: list, kinds: list[str], comps: list[str], fixed: str) -> list[str]:
    """Every label the options of ``choice`` render over the whole domains of their values."""
    domains = {**DOMAINS, m.KIND: kinds, m.COMPONENT: comps}
    out = []
    for opt, shape in zip(choice.options, shapes):
        for values in itertools.product(*(domains[t] for _s, t in shape)):
            shown = dict(zip((s for s, _t in shape), values))
            text = ""
            for part in opt.label.parts:
                part = part.expr if isinstance(part, m.SecretPart) else part
                text += part if isinstance(part, str) else shown.get(part.slot, fixed)
            out.append(text)
    return out


class _Model:
    def __init__(self, kinds: list[str]) -> None:
        self.kinds = [type("K", (), {"display": d})() for d in kinds]
        self.faces: list[object] = []  # (no face values in these choices)


def test_no_proved_choice_renders_two_labels_alike() -> None:
    rng = random.Random(11)
    proved = 0
    for trial in range(4000):
        kinds = rng.choice(KIND_SETS)
        comps = rng.choice(KIND_SETS)
        choice, shapes = _random_choice(rng, kinds)
        if not labels_distinct(_Model(kinds), comps, choice):  # type: ignore[arg-type]
            continue
        proved += 1
        for fixed in ("", "a", "P1", " of "):
            labels = _all_labels(choice, shapes, kinds, comps, fixed)
            assert len(set(labels)) == len(labels), (trial, choice, fixed)
    assert proved > 400  # the proof says yes often enough for the check to mean something


SHARED_KIND_SETS = [["A", "A", "B"], ["a", "b", "a", "b"], ["1", "1", "1 1"], ["x", "xy", "x", "y"]]


def test_kinds_that_share_a_display_are_told_apart_at_the_choice() -> None:
    """Where the proof fails only because kinds share a display, ``kinds_apart`` of the listed options
    says yes only if their labels all differ (brute force: random listings of random choices)."""
    rng = random.Random(12)
    tested = said_apart = 0
    for trial in range(3000):
        kinds = rng.choice(SHARED_KIND_SETS)
        comps = rng.choice(KIND_SETS)
        choice, shapes = _random_choice(rng, kinds)
        if labels_distinct(_Model(kinds), comps, choice):  # type: ignore[arg-type]
            continue  # (proved without a test: kinds_alike is not asked)
        alike = kinds_alike(_Model(kinds), comps, choice)  # type: ignore[arg-type]
        if alike is None:
            continue
        tested += 1
        domains = {**DOMAINS, m.KIND: kinds, m.COMPONENT: comps}
        for _ in range(12):
            listed, labels = [], []
            for index, (opt, shape) in enumerate(zip(choice.options, shapes)):
                ranges = [rng.sample(range(len(domains[t])), rng.randint(0, len(domains[t]))) for _s, t in shape]
                for values in itertools.product(*ranges):
                    listed.append((index, values))
                    shown = {slot: domains[t][v] for (slot, t), v in zip(shape, values)}
                    labels.append("".join(p if isinstance(p, str) else shown.get(p.slot, "a")
                                          for p in (q.expr if isinstance(q, m.SecretPart) else q
                                                    for q in opt.label.parts)))
            if kinds_apart(alike, listed):
                said_apart += 1
                assert len(set(labels)) == len(labels), (trial, choice, listed)
    assert tested > 100 and said_apart > 300  # (the test says yes often enough to mean something)


def test_kinds_told_apart_range_by_range_as_by_their_options() -> None:
    """Where every option's ranges are all offered (a choice counted, not listed), ``kinds_differ`` of
    each range of kinds of an option that offers any says what ``kinds_apart`` of the options listed says
    (brute force; the generated code tests every range, the stricter test: a no only costs a look at the
    labels in the engine's loop)."""
    rng = random.Random(13)
    for _ in range(3000):
        class_of = [rng.choice([-1, 0, 1]) for _k in range(5)]
        where: dict[int, tuple[int, ...]] = {}
        ranges: list[list[list[int]]] = []
        for index in range(rng.randint(1, 3)):
            shape = [rng.random() < 0.6 for _b in range(rng.randint(0, 2))]  # True: a range of kinds
            ranges.append([rng.sample(range(5), rng.randint(0, 5)) if is_kind else list(range(rng.randint(0, 3)))
                           for is_kind in shape])
            if any(shape):
                where[index] = tuple(j for j, is_kind in enumerate(shape) if is_kind)
        listed = [(index, values) for index, lists in enumerate(ranges) for values in itertools.product(*lists)]
        by_range = all(kinds_differ(class_of, ranges[index][j]) for index, js in where.items() for j in js
                       if all(ranges[index]))  # (an option with an empty range offers nothing)
        assert by_range == kinds_apart((where, class_of), listed), (class_of, ranges)


@pytest.mark.parametrize(("template", "ranges", "distinct"), [
    ("take {n} of {m}", "for n in 1 to 3 for m in 1 to 3", True),
    ("take {n}{m}", "for n in 1 to 12 for m in 1 to 12", False),  # 1 and 11, 11 and 1
    ("take {n}-{m}", "for n in 1 to 3 for m in 1 to 3", False),  # a number's text may hold a minus
    ("give {n} to {p}", "for n in 1 to 3 for p in players", True),
    ("give {p}{n}", "for n in 1 to 3 for p in players", False),  # P1 and 2, P12 and ...
    ("give it to {p}", "for p in players for n in 1 to 3", False),  # n not shown
])
def test_a_choice_of_one_option(tmp_path: Path, template: str, ranges: str, distinct: bool) -> None:
    engine = load_game_text(tmp_path, _game(f'"{template}" {ranges}:\n      end game'))
    assert [s.distinct for s in choice_specs(engine)] == [distinct]


@pytest.mark.parametrize(("options", "distinct"), [
    (['"take {n}" for n in 1 to 3', '"pass"'], True),
    (['"take {n}" for n in 1 to 3', '"take 2"'], False),
    (['"take {n}" for n in 1 to 3', '"take two"'], False),  # (a hole may spell "two" as far as it knows)
    (['"take {n} now" for n in 1 to 3', '"take it later"'], True),  # no "... now" spells "take it later"
    (['"a {n}" for n in 1 to 3', '"b {n}" for n in 1 to 3'], True),
    (['"a {n}" for n in 1 to 3', '"a {n} b" for n in 1 to 3'], False),  # both start "a ", and any text ends ""
])
def test_options_apart(tmp_path: Path, options: list[str], distinct: bool) -> None:
    body = "\n    ".join(f"{o}:\n      end game" for o in options)
    engine = load_game_text(tmp_path, _game(body))
    assert [s.distinct for s in choice_specs(engine)] == [distinct]


def _game(options: str) -> str:
    return f"""game "Labels"
players 2 to 3
counter score per player = 0 "points"
zone pool

setup:
  pass

turn:
  choose:
    {options}

rank p by highest score of p
"""


# ------------------------------------------------------------------ what recording does with it

@pytest.mark.parametrize("options", [
    ['"take {n}" for n in 1 to 3', '"take 2"'],
    ['"take {n}{m}" for n in 1 to 12 for m in 1 to 12'],
])
def test_labels_that_collide_still_stop_a_recorded_game(tmp_path: Path, options: list[str]) -> None:
    body = "\n    ".join(f"{o}:\n      end game" for o in options)
    engine = load_game_text(tmp_path, _game(body))
    st = engine.new_state(2)
    with pytest.raises(DuplicateLabel, match="both labelled"):
        play(engine, st, [RandomAgent(1, s) for s in range(2)], 1, on_event=lambda _e, _n: None)


PROVED = {  # per shipped game: how many of its choices the proof covers, of how many
    "barnyard": (6, 6), "chicken": (2, 2), "chicken-eggspansion": (2, 4), "hippe-kippen": (2, 2),
    "rooster-rush": (1, 1), "rule-the-roost": (3, 3),
}


@pytest.mark.parametrize("game", sorted(PROVED))
def test_shipped_games_choices_proved(game: str) -> None:
    specs = choice_specs(load_game(ROOT / "games" / f"{game}.rules"))
    assert (sum(s.distinct for s in specs), len(specs)) == PROVED[game]


def test_a_recorded_game_renders_only_the_labels_it_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """Barnyard's choices are all proved: recording renders the one label it records, in the block that
    takes the choice (``Recorder.took``), and never looks at the others (no ``Labels`` rendered)."""
    engine = load_game(ROOT / "games" / "barnyard.rules")
    looked = []
    original = type(engine)._label_renderer

    def counting(self: Any, st: Any, fr: Any, options: Any) -> Any:
        looked.append(1)
        return original(self, st, fr, options)

    monkeypatch.setattr(type(engine), "_label_renderer", counting)
    took = []
    recorder_took = Recorder.took

    def told(self: Any, st: Any, seat: int, action: str) -> None:
        took.append(action)
        recorder_took(self, st, seat, action)

    monkeypatch.setattr(Recorder, "took", told)
    events: list[dict[str, Any]] = []
    st = engine.new_state(4)
    play(engine, st, [RandomAgent(3, s) for s in range(4)], 3, on_event=lambda e, _n: events.append(e))
    actions = [e["action"] for e in events if e["type"] == "action"]
    assert st.over and actions
    assert not looked  # no label rendered but through the recorder
    assert took == actions  # one label per choice or answer: the one recorded


def _alike_game(both: bool) -> str:
    return f"""game "Alike"
players 2 to 3
counter score per player = 0 "points"
face Blank
2 Red dice "Die": Blank, Blank
2 Crimson dice "Die": Blank, Blank
zone pool

setup:
  move all Red from box to pool
{"  move all Crimson from box to pool" if both else ""}

turn:
  choose:
    "take {{k}}" for k in kinds(all in pool):
      score of current += 1
    "pass":
      pass

when score of current >= 3 "three taken":
  end game

rank p by highest score of p
"""


@pytest.mark.parametrize("both", [False, True])
def test_kinds_sharing_a_display_stop_a_recorded_game_only_when_both_are_listed(
        tmp_path: Path, both: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_game_text(tmp_path, _alike_game(both))
    rendered: list[int] = []
    original = type(engine).labels_apart
    monkeypatch.setattr(type(engine), "labels_apart", lambda *a: rendered.append(1) or original(*a))
    (spec,) = choice_specs(engine)
    assert not spec.distinct and spec.alike is not None
    events: list[Any] = []
    if both:
        with pytest.raises(DuplicateLabel, match="both labelled"):
            play(engine, engine.new_state(2), [RandomAgent(1, s) for s in range(2)], 1, events=events)
    else:
        play(engine, engine.new_state(2), [RandomAgent(1, s) for s in range(2)], 1, events=events)
        actions = [e["action"] for e in events if e["type"] == "action"]
        assert len(actions) >= 3 and set(actions) <= {"take Die", "pass"}
        assert not rendered  # (one kind of the two listed: told apart without rendering a label)
