"""The executable form of a game: per-rule entry points (generated blocks and decisions) and tables.

``code[rule][pc]`` is a tuple ``(op, a, b, c, span)``: ``BLOCK`` (generated code runs
from here to the next pause, see codegen.py) or a decision (``CHOOSE``, ``ASK``,
``ROLL``, ``DRAW``, ``SHUFFLE``, ``RANDFIRST``) the engine reads and resumes after.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check.model import Model

# What an entry point of a rule holds: a decision the engine reads, or a generated block.
CHOOSE, ROLL, DRAW, SHUFFLE, RANDFIRST, ASK = 5, 6, 7, 8, 9, 15
DECISION_OPS = frozenset((CHOOSE, ROLL, DRAW, SHUFFLE, RANDFIRST, ASK))
BLOCK = 16  # (BLOCK, generated function, None, None, span): run generated code from this entry point

Fn = Callable[..., Any]


@attrs.define
class ChooseSpec:
    """A compiled ``choose``: who decides, its options, where the choice ends."""

    player: Fn | None
    options: list[tuple]  # (label, ((var slot, values), ...), cond, body pc, public label or None)
    end: int
    spans: list = attrs.field(factory=list)  # per option: (option span, condition span or None)
    shown: list = attrs.field(factory=list)  # per option: ((name, value -> text), ...) of its ``for`` variables
    enum: Fn | None = None  # generated: (st, loc) -> the legal options, as Engine._options lists them
    pick: Fn | None = None  # generated: (st, loc) -> the same options, lazily (codegen's enumerator, lazy)
    # generated: (st, loc, tables) -> the same options with their action ids (codegen's enumerator, ids)
    ids: Fn | None = None
    only: Fn | None = None  # generated: (st, loc, tables) -> those ids alone, a list (``ids`` without the options)
    # generated, for replay: (guard or None, per option: (the text its labels start with, its label if it
    # has no holes, its test, its range's values or None, whether taking it so leaves the locals exact,
    # whether a label read back renders as read, the option)), see CodeGen.member_tests
    member: tuple | None = None
    distinct: bool = False  # no two legal options can render the same label (see label_proof.labels_distinct)
    # where they may only because kinds share a display: the test that tells (label_proof.kinds_alike)
    alike: tuple | None = None


@attrs.define
class Construct:
    """A construct whose runs coverage counts: a rule's body, a choose option, an if branch, a trigger."""

    kind: str  # "rule" | "option" | "branch" | "trigger"
    name: str
    span: Any


@attrs.define
class AskSpec:
    """A compiled ``ask``: the player variable, who is still to answer, the answers."""

    var: int
    pending_slot: int
    options: list[tuple[str, Fn | None]]
    enum: Fn | None = None  # generated: (st, loc) -> the answers allowed to the player in ``var``


@attrs.define
class DrawSpec:
    """A compiled random draw: from which zone, which components, to where."""

    source: Fn  # (st, loc) -> list
    pred: Fn  # (st, loc) -> predicate or None
    dest: Fn  # (st, loc) -> list
    dest_zone: int
    place: str | None
    remaining_slot: int
    source_zone: int
    source_owner: Fn | None
    source_name: Fn
    dest_name: Fn


@attrs.define
class Program:
    """A compiled game, built once and shared by every state of it."""

    model: Model
    code: list[list[tuple]]
    driver: int
    kind_of: list[int]
    component_labels: list[str]
    component_count: int
    trigger_rules: list[int]
    rank_keys: list[tuple[str, Fn]]
    rank_nlocals: int
    nlocals: list[int]
    face_labels: list[list[str]]  # per kind: distinct face names
    face_weights: list[list[int]]
    face_index: list[dict[str, int]]  # per kind: face name -> first face index on the die
    trigger_each: list[bool]
    sheets: list[tuple[str, list[tuple[str, Fn]], int]]
    rank_sheets: list[int | None] = attrs.field(factory=list)  # a ranking key that is a sheet's total
    generated: Any = None  # the generated module (rulelang.compile.codegen.Generated)
    generated_coverage: Any = None  # the same, counting coverage (written when first asked for)
    constructs: list[Construct] = attrs.field(factory=list)  # what coverage counts, in a fixed order


# A chance event that picks a player (``pick w at random from q in IT if C``): (PICK, PickSpec, None, None, span).
PICK = 17
DECISION_OPS = DECISION_OPS | {PICK}


@attrs.define
class PickSpec:
    """A compiled ``pick ... at random``: where the picked player goes, the slot listing the candidates."""

    var: int
    among_slot: int
    name: str  # the picked variable's name, as the trace's chance event names it
