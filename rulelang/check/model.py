"""The checked game model: every name resolved, every expression typed.

The checker turns the AST into these plain attrs records; the compiler turns them into
code the engine runs. Expressions and statements here are the resolved "IR": they name
table indices and local slots, never raw identifiers.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import attrs

from rulelang.syntax.span import Span

# Types of expressions.
INT, BOOL, STR, PLAYER, KIND, COMPONENT = "number", "true/false", "text", "player", "kind", "component"
FACE = "face"


@attrs.define
class Attribute:
    """A named property of faces and components, with its default value."""

    name: str
    default: Any
    type: str
    span: Span


@attrs.define
class Face:
    """A die face and the attribute values it carries."""

    index: int
    name: str
    display: str
    values: dict[str, Any]
    span: Span


@attrs.define
class Kind:
    """A kind of component (a die colour, a card type) and how many exist."""

    index: int
    name: str
    display: str
    cls: str
    count: int
    faces: list[int]
    values: dict[str, Any]
    span: Span


@attrs.define
class Zone:
    """A place components can be: shared or one per player, with its visibility."""

    index: int
    name: str
    display: str
    per_player: bool
    visibility: str  # "public", "hidden", "owner"
    ordered: bool
    unrolled: bool
    span: Span
    per_kind: int | None = None  # one such zone for each component of this kind (a pile under each board card)
    per_class: frozenset[int] | None = None  # one pile per component of these kinds (``per card``): by component id


@attrs.define
class Counter:
    """A number in the state, shared or one per player."""

    index: int
    name: str
    per_player: bool
    init: Any  # IR expression
    doc: str | None
    span: Span
    type: str = INT  # a number, a text, a kind, a player or a face (stated, else the type of its starting value)
    visibility: str = "public"  # "public", "owner" (each player sees only their own) or "hidden"
    stated: Any = None  # the type its declaration states (``counter trump: kind``), an ast.Name, or None


@attrs.define
class Option:
    """A switch between two readings of the rulebook, fixed when the game is loaded."""

    name: str
    value: Any
    doc: str | None
    span: Span


# ------------------------------------------------------------------ IR expressions


@attrs.frozen
class Const:
    value: Any
    type: str


@attrs.frozen
class Local:
    slot: int
    type: str


@attrs.frozen
class CounterGet:
    counter: int
    owner: Any  # IR expr or None
    type: str = INT
    span: Span | None = None  # where it is read (for "nobody has a ...")


@attrs.frozen
class CurrentPlayer:
    type: str = PLAYER


@attrs.frozen
class After:
    """The player ``step`` seats after ``player`` (1: the next one, -1: the one before)."""

    player: Any  # IR expr or None for current
    type: str = PLAYER
    step: int = 1
    span: Span | None = None


@attrs.frozen
class SeatLit:
    """``P3``: the player in that seat (0-based here); an error if fewer play."""

    seat: int
    span: Span
    type: str = PLAYER


@attrs.frozen
class CompAttr:
    """An attribute of one component (``pips of d``): its face's value, else its kind's."""

    attr: str
    comp: Any
    type: str


@attrs.frozen
class CompFace:
    """The face a die shows (``face of d``; -1: not rolled)."""

    comp: Any
    type: str = FACE


@attrs.frozen
class CompKind:
    """The kind of one component (``kind of c``)."""

    comp: Any
    type: str = KIND


@attrs.frozen
class Format:
    """A string with ``{...}`` holes used as a value (a rule's text argument)."""

    text: Any  # TemplateIR
    type: str = STR


@attrs.frozen
class UnOp:
    op: str
    operand: Any
    type: str


@attrs.frozen
class BinOp:
    op: str
    left: Any
    right: Any
    type: str
    span: Span


@attrs.frozen
class ElemAttr:
    """An attribute of the component being filtered in a ``where``."""

    attr: str
    type: str


@attrs.frozen
class ElemIsKind:
    """True when the component being filtered is of one of these kinds."""

    kinds: frozenset[int]
    type: str = BOOL


@attrs.frozen
class ZoneSel:
    zone: int
    owner: Any  # IR expr or None
    span: Span | None = None  # where the zone is named (for "nobody has a ...")


@attrs.frozen
class QueryIR:
    quantity: str
    count: int | None
    kinds: frozenset[int] | None  # None: any kind
    kind_locals: tuple[int, ...]  # local slots holding kinds chosen at run time
    exclude: bool
    zones: tuple[ZoneSel, ...]
    where: Any
    span: Span
    count_expr: Any = None
    one: Any = None  # a component expression: the query of that one component (no zones: wherever it is)


@attrs.frozen
class Agg:
    func: str
    attr: str | None
    query: QueryIR
    type: str


@attrs.frozen
class Builtin:
    func: str
    args: tuple
    type: str
    span: Span | None = None


@attrs.frozen
class IfElseIR:
    cond: Any
    then: Any
    orelse: Any
    type: str


@attrs.frozen
class KindAttr:
    """An attribute of a kind of component (``points of k``)."""

    attr: str
    kind: Any
    type: str


@attrs.frozen
class AnswerGet:
    """What a player answered to the last ``ask`` ("" if nothing)."""

    player: Any
    type: str = STR


@attrs.frozen
class AnswerMatch:
    """Right after an ``ask`` whose answers have blocks: for each seat, None (not asked) or which answer
    it gave (its index in ``ask.options``) followed by that answer's ``for`` values (an internal list)."""

    ask: Any  # the AskS
    span: Span | None = None
    type: str = "answers"


@attrs.frozen
class AnswerIs:
    """Whether the player in ``player`` gave answer number ``option`` (as ``AnswerMatch`` found it)."""

    match: Any  # Local holding the AnswerMatch
    player: Any
    option: int
    type: str = BOOL


@attrs.frozen
class AnswerValue:
    """The ``index``-th ``for`` value of the answer the player in ``player`` gave (as ``AnswerMatch`` found it)."""

    match: Any
    player: Any
    index: int
    type: str


@attrs.frozen
class Gen:
    """max/min/total of ``expr`` over an iterable, ``var`` bound to each value."""

    func: str
    expr: Any
    var: int
    iterable: Any
    cond: Any
    type: str = INT
    span: Span | None = None  # where a ``best`` is written (its run-time errors point there)


@attrs.frozen
class SecretPart:
    """A part of a label only the chooser sees."""

    expr: Any


@attrs.frozen
class TemplateIR:
    parts: tuple  # str | IR expr | SecretPart


IRExpr = Const | Local | CounterGet | CurrentPlayer | After | UnOp | BinOp | ElemAttr | ElemIsKind | Agg | Builtin


@attrs.frozen
class IterIR:
    kind: str
    query: QueryIR | None
    low: Any
    high: Any
    type: str  # type of the loop variable
    cond: Any = None  # for "kinds where": a filter over kinds (an element expression)
    span: Span | None = None
    values: tuple = ()  # for "faces of KIND": the face indices, each once, in the order listed


# ------------------------------------------------------------------ IR statements


@attrs.frozen
class MoveS:
    query: QueryIR
    dest: ZoneSel
    place: str | None
    span: Span


@attrs.frozen
class RollS:
    query: QueryIR
    span: Span
    verb: str = "roll"  # "spin": the same chance, named as the rules name it


@attrs.frozen
class ShuffleS:
    zone: ZoneSel
    span: Span


@attrs.frozen
class AssignS:
    op: str
    counter: int
    owner: Any
    value: Any
    span: Span


@attrs.frozen
class LetS:
    slot: int
    value: Any
    span: Span


@attrs.frozen
class SayS:
    text: TemplateIR
    span: Span


@attrs.frozen
class SimpleS:
    what: str
    span: Span


@attrs.frozen
class GiveTurnS:
    player: Any
    span: Span


@attrs.frozen
class RevealS:
    query: QueryIR
    player: Any  # None: every player (``reveal ... to all``)
    span: Span


@attrs.frozen
class CallS:
    rule: int
    args: tuple
    span: Span


@attrs.frozen
class IfS:
    branches: tuple  # ((cond, body), ...)
    orelse: tuple | None
    span: Span


@attrs.frozen
class WhileS:
    cond: Any
    body: tuple
    span: Span


@attrs.frozen
class RepeatS:
    count: Any
    body: tuple
    slot: int
    span: Span


@attrs.frozen
class ForS:
    var: int
    iterable: IterIR
    body: tuple
    list_slot: int
    idx_slot: int
    span: Span


@attrs.frozen
class OptionIR:
    label: TemplateIR
    bindings: tuple  # ((slot, IterIR), ...)
    cond: Any
    body: tuple
    span: Span
    cond_span: Span | None = None
    names: tuple = ()  # the names of the ``for`` variables, in order


@attrs.frozen
class AskS:
    """Every player of ``iterable`` (bound to ``var``) meeting ``cond`` answers at once, in secret."""

    var: int
    iterable: IterIR
    cond: Any
    options: tuple  # ((label, cond or None, span), ...)
    list_slot: int
    span: Span
    dynamic: tuple = ()  # per option: None, or (TemplateIR, ((slot, IterIR), ...)): one answer per value


@attrs.frozen
class ChooseS:
    player: Any
    options: tuple
    span: Span


IRStmt = MoveS | RollS | ShuffleS | AssignS | LetS | SayS | SimpleS | CallS | IfS | WhileS | RepeatS | ForS | ChooseS


@attrs.define
class Rule:
    """A named block of statements: setup, turn, a rule or a trigger's body."""

    index: int
    name: str
    title: str | None
    kind: str  # "setup", "turn", "rule", "trigger"
    params: tuple[str, ...]
    body: tuple = ()
    nlocals: int = 0
    section: str | None = None
    span: Span | None = None


@attrs.define
class Trigger:
    """``when COND:``: runs ``rule`` the moment COND becomes true.

    With ``each``, the condition is about one player (local slot 0) and is watched for
    every player separately; the rule gets that player as its parameter.
    """

    cond: Any
    rule: int
    reads_zones: frozenset[int]
    reads_counters: frozenset[int]
    reads_current: bool
    span: Span
    each: bool = False
    after_step: bool = False  # ``after each step``: checked only when play next waits for a decision


@attrs.define
class Sheet:
    """A score sheet: labelled lines per player; its name is their total."""

    name: str
    lines: list[tuple[str, Any]]  # expressions with the player in local slot 0
    span: Span
    nlocals: int = 1


@attrs.define
class Ranking:
    """How the final standings are ordered: keys per player, highest or lowest first."""

    keys: list[tuple[str, Any]]
    nlocals: int
    span: Span | None
    labels: list[str] = attrs.field(factory=list)


@attrs.frozen
class PayoffSpec:
    """What a game's payoffs are: declared (``payoff p = ...``) or the rank default, their bounds and sum.

    ``utility`` is "zero_sum", "constant_sum" or "general_sum"; ``total`` is the sum every game's payoffs
    have (0 for zero sum, None for general sum); ``low``/``high`` bound each player's payoff; ``span`` is
    the declaration's place (None for the rank default).
    """

    declared: bool
    utility: str
    total: Fraction | None
    low: Fraction
    high: Fraction
    span: Span | None = None


@functools.lru_cache(maxsize=16)
def rank_payoff_spec(players: int) -> PayoffSpec:
    """The default payoffs, from the ranking: in [-1, 1], zero sum ([0, 0] for one player)."""
    edge = Fraction(0) if players < 2 else Fraction(1)
    return PayoffSpec(False, "zero_sum", Fraction(0), -edge, edge, None)


@attrs.define
class Payoff:
    """A declared payoff: the expression (the player in local slot 0), its bounds and utility kind."""

    expr: Any
    nlocals: int
    spec: PayoffSpec


@attrs.define
class Model:
    """Everything the compiler needs, checked."""

    title: str
    files: list[tuple[str, str]]  # (path, sha256), base first
    min_players: int
    max_players: int
    default_players: int
    options: dict[str, Option]
    attributes: dict[str, Attribute]
    faces: list[Face]
    kinds: list[Kind]
    zones: list[Zone]
    counters: list[Counter]
    rules: list[Rule]
    triggers: list[Trigger]
    ranking: Ranking
    sheets: list[Sheet]
    setup_rule: int
    turn_rule: int
    sections: list[tuple[str, Span]]
    rounds: bool = False  # played in rounds by the whole table ('round:'), not in turns
    eliminates: bool = False  # players may drop out ('drop out')
    payoff: Payoff | None = None  # a declared 'payoff p = ...' (None: payoffs come from the ranking)


# ------------------------------------------------------------------ one component, faces


@attrs.frozen
class ElemIs:
    """True when the component being filtered is ``comp`` (a query of one component: ``c in hand``)."""

    comp: Any
    type: str = BOOL


@attrs.frozen
class ElemFace:
    """The face the component being filtered shows (``where face == Six``; -1: none)."""

    type: str = FACE


@attrs.frozen
class FaceAttr:
    """An attribute of a face (``pips of f``): the value the face sets, else the attribute's default."""

    attr: str
    face: Any
    type: str


@attrs.frozen
class TheOne:
    """``the card in turnup``: the one component the query selects; an error at run time unless exactly one."""

    query: QueryIR
    what: str  # how the query reads, for the error ("the card in turnup")
    span: Span
    type: str = COMPONENT


# ------------------------------------------------------------------ rounds, elimination, sides, races


@attrs.frozen
class IsOut:
    """``PLAYER is out``: whether the player has dropped out."""

    player: Any
    type: str = BOOL


@attrs.frozen
class TurnS:
    """``turn QUERY to FACE``: the selected components show that face (no chance)."""

    query: QueryIR
    face: int
    span: Span


@attrs.frozen
class DropS:
    """``drop out PLAYER``."""

    player: Any
    span: Span


@attrs.frozen
class PickS:
    """``pick w at random from q in IT [if C]``: a chance event picking one player meeting C."""

    var: int
    qvar: int
    iterable: IterIR
    cond: Any
    list_slot: int
    name: str
    span: Span


# ------------------------------------------------------------------ budgets, markers, places


@attrs.frozen
class FailS:
    """Stop the game with an error at ``span`` when ``when`` holds (the rules are incomplete there)."""

    message: TemplateIR
    hint: str | None
    span: Span
    when: Any = None  # a condition; None: always


@attrs.frozen
class MoveMarkerS:
    """The one component of a marker kind moves from wherever it is to ``dest``."""

    kind: int
    dest: ZoneSel
    span: Span


@attrs.frozen
class TallyS:
    """Every player's lines of a sheet now: narrated as a table, each total added to a per-player counter."""

    sheet: int
    counter: int
    span: Span


@attrs.frozen
class PlacesIR:
    """The points ``player`` gets when the values of ``var`` (meeting ``cond``) are ranked by ``key``.

    Places pay ``points`` (then 0); ``share``: tied values add up the points of the places they
    occupy and share them, rounded down; else each tied value gets its place's points and the
    next value takes the next place.
    """

    points: tuple
    player: Any
    highest: bool
    key: Any
    var: int
    iterable: Any
    cond: Any
    share: bool
    span: Span
    type: str = INT
