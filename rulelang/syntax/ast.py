"""The abstract syntax tree: frozen attrs nodes, each with the span it came from."""

from __future__ import annotations

from typing import Any

import attrs

from rulelang.syntax.span import Span

# ------------------------------------------------------------------ expressions


@attrs.frozen
class Lit:
    """A literal: an int, a string or a bool."""

    value: int | str | bool
    span: Span


@attrs.frozen
class Name:
    """A bare name: a local, a definition, an option, a kind or an attribute."""

    name: str
    span: Span


@attrs.frozen
class Of:
    """``NAME of X``: a per-player counter, definition or zone of a player."""

    name: str
    target: Expr
    span: Span


@attrs.frozen
class Call:
    """``NAME(args)``: a definition with parameters or a built-in function."""

    name: str
    args: tuple[Expr, ...]
    span: Span


@attrs.frozen
class Current:
    """``current``: the player whose turn it is."""

    span: Span


@attrs.frozen
class PlayerAfter:
    """``next player`` (target None), ``player after X`` or ``player before X`` (step -1)."""

    target: Expr | None
    span: Span
    step: int = 1


@attrs.frozen
class Unary:
    """``-x`` or ``not x``."""

    op: str
    operand: Expr
    span: Span


@attrs.frozen
class Binary:
    """A binary operation: arithmetic, comparison, ``and``/``or``."""

    op: str
    left: Expr
    right: Expr
    span: Span


@attrs.frozen
class Nobody:
    """``nobody``: no player (a player value that is unset)."""

    span: Span


@attrs.frozen
class AnswerOf:
    """``answer of X``: what player X answered to the last ``ask``."""

    target: Expr
    span: Span


@attrs.frozen
class GenCall:
    """``max(E for x in IT if C)``: max, min or total of E over an iterable."""

    func: str
    expr: Expr
    var: str
    iterable: Iterable
    cond: Expr | None
    span: Span


@attrs.frozen
class IfElse:
    """``(A if C else B)``."""

    cond: Expr
    then: Expr
    orelse: Expr
    span: Span


@attrs.frozen
class Secret:
    """``{secret E}`` in a label: shown only to the player who chooses it."""

    expr: Expr
    span: Span


@attrs.frozen
class ZoneRef:
    """A zone, ``pool`` or ``hand of current``."""

    name: str
    owner: Expr | None
    span: Span


@attrs.frozen
class Query:
    """A selection of components: quantity, kinds, zones and a filter."""

    quantity: str  # "all", "default", "count", "random"
    count: int | None
    count_expr: Expr | None
    kinds: tuple[Name, ...]
    exclude: bool
    zones: tuple[ZoneRef, ...]
    where: Expr | None
    span: Span


@attrs.frozen
class Aggregate:
    """``count(q)``, ``any(q)`` or ``sum(attr of q)``."""

    func: str
    attr: Name | None
    query: Query
    span: Span


@attrs.frozen
class The:
    """``the card in turnup``: the one component a query selects (``cls``: a class word, any kind of it)."""

    cls: str | None
    query: Query
    span: Span


Expr = (
    Lit | Name | Of | Call | Current | PlayerAfter | Unary | Binary | Aggregate | Nobody | AnswerOf | GenCall
    | IfElse | The
)


@attrs.frozen
class Template:
    """A string with ``{expr}`` holes, for labels and narration."""

    parts: tuple[str | Expr, ...]
    span: Span


# ------------------------------------------------------------------ iterables


@attrs.frozen
class Iterable:
    """What a ``for`` ranges over: players, other players, kinds, a range, components."""

    kind: str  # "players", "others", "kinds", "kinds_where", "range", "query", "faces", "players_from" (low: who)
    query: Query | None
    low: Expr | None
    high: Expr | None
    span: Span
    cond: Expr | None = None
    of: Name | None = None  # "faces of Die": the kind named


# ------------------------------------------------------------------ statements


@attrs.frozen
class Move:
    """``move QUERY to ZONE [at top|at bottom]``."""

    query: Query
    dest: ZoneRef
    place: str | None
    span: Span


@attrs.frozen
class Roll:
    """``roll QUERY``: roll every die selected."""

    query: Query
    span: Span
    verb: str = "roll"  # "spin": the same chance, named as the rules name it


@attrs.frozen
class Shuffle:
    """``shuffle ZONE``."""

    zone: ZoneRef
    span: Span


@attrs.frozen
class Assign:
    """``COUNTER += x``, ``COUNTER -= x`` or ``set COUNTER to x``."""

    op: str  # "+=", "-=", "="
    name: str
    owner: Expr | None
    value: Expr
    span: Span


@attrs.frozen
class Let:
    """``let NAME = x``: a local of the current rule."""

    name: str
    value: Expr
    span: Span


@attrs.frozen
class Say:
    """``say "text {x}"``: a line of narration."""

    text: Template
    span: Span


@attrs.frozen
class Simple:
    """A statement without arguments: end turn, end game, another turn, pass, pick first."""

    what: str
    span: Span


@attrs.frozen
class GiveTurn:
    """``give turn to X``: the next turn is X's (the seats in between are skipped)."""

    player: Expr
    span: Span


@attrs.frozen
class Reveal:
    """``reveal QUERY to X``: X alone sees those components (a private look); X None: ``to all``."""

    query: Query
    player: Expr | None
    span: Span


@attrs.frozen
class Return:
    """``return VALUE``: the value a definition with a block decides (only there)."""

    value: Expr
    span: Span


@attrs.frozen
class CallRule:
    """``NAME`` or ``NAME(args)``: run a rule."""

    name: str
    args: tuple[Expr, ...]
    span: Span


@attrs.frozen
class If:
    """``if``/``elif``/``else``."""

    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...] | None
    span: Span


@attrs.frozen
class While:
    """``while COND:``."""

    cond: Expr
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Repeat:
    """``repeat N times:`` (N is evaluated once)."""

    count: Expr
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class For:
    """``for NAME in ITERABLE:``."""

    var: str
    iterable: Iterable
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Option:
    """One option of a ``choose``: label, optional ``for`` and ``if``, body."""

    label: Template
    bindings: tuple[tuple[str, Iterable], ...]
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class Choose:
    """``choose [PLAYER]:`` with its options."""

    player: Expr | None
    options: tuple[Option, ...]
    span: Span


@attrs.frozen
class AskOption:
    """One answer of an ``ask``, with the condition under which it may be given."""

    label: str
    cond: Expr | None
    span: Span
    bindings: tuple = ()  # ((name, Iterable), ...): one answer per value, the label showing it
    template: Any = None  # the label with its holes (a Template) when it has bindings or holes
    body: tuple | None = None  # the block run for each player who gave this answer, once all have answered


@attrs.frozen
class Ask:
    """``ask q in IT [if C]:``: every such player answers at once and in secret."""

    var: str
    iterable: Iterable
    cond: Expr | None
    options: tuple[AskOption, ...]
    span: Span


Stmt = (
    GiveTurn | Reveal | Ask | Move | Roll | Shuffle | Assign | Let | Say | Simple | CallRule | If | While | Repeat
    | For | Choose | Return
)

# ------------------------------------------------------------------ declarations


@attrs.frozen
class GameDecl:
    """``game "Title" [extends "file"]``."""

    title: str
    extends: str | None
    span: Span
    extends_span: Span | None = None


@attrs.frozen
class PlayersDecl:
    """``players LOW to HIGH [default N]``, or ``players N`` for exactly N (``high`` is then ``low``)."""

    low: int
    high: int
    default: int | None
    span: Span


@attrs.frozen
class SectionDecl:
    """``section "Title"``: where the rulebook's section starts."""

    title: str
    span: Span


@attrs.frozen
class OptionDecl:
    """``option NAME = value "doc"``: a switch between readings of the rulebook."""

    name: str
    value: int | str | bool
    doc: str | None
    span: Span


@attrs.frozen
class AttributeDecl:
    """``attribute NAME = default``."""

    name: str
    default: int | str | bool
    span: Span


@attrs.frozen
class AttrValue:
    """One ``name value`` pair of a face or component."""

    name: str
    value: int | str | bool
    span: Span


@attrs.frozen
class FaceDecl:
    """``face NAME ["Display"]: attr value, ...``."""

    name: str
    display: str | None
    attrs: tuple[AttrValue, ...]
    span: Span


@attrs.frozen
class ComponentDecl:
    """``4 Red dice "Display": faces`` or ``15 Star cards: points 5``."""

    count: int
    name: str
    cls: str
    display: str | None
    attrs: tuple[AttrValue, ...]
    faces: tuple[Name, ...]
    span: Span
    group: str | None = None  # numbered components: the name they share (``Card`` for Card3, Card4, ...)
    sides: tuple = ()  # (Side, ...): the faces a component that is not a die shows, with weights


@attrs.frozen
class ZoneDecl:
    """``zone NAME ["Display"]: flags``."""

    name: str
    display: str | None
    flags: tuple[Name, ...]
    span: Span


@attrs.frozen
class CounterDecl:
    """``counter NAME [per player] [: TYPE] [= init] ["doc"]``."""

    name: str
    per_player: bool
    init: Expr | None  # None: the stated type's empty value (0, "", no kind, nobody)
    doc: str | None
    span: Span
    visibility: Name | None = None  # ``: owner`` or ``: hidden``
    type_name: Name | None = None  # ``: kind``, ``: text``, ...: the type stated (else the starting value's)


@attrs.frozen
class DefineDecl:
    """``define NAME[(params)] = expr``, or ``define NAME[(params)]:`` and a block that returns a value."""

    name: str
    params: tuple[str, ...]
    expr: Expr | None
    span: Span
    body: tuple | None = None  # ``define NAME(...):`` with a block of let, if and return: the value it decides


@attrs.frozen
class BlockDecl:
    """``setup:``, ``turn:`` or ``rule NAME:``, a named block of statements."""

    kind: str  # "setup", "turn", "rule"
    name: str
    params: tuple[str, ...]
    title: str | None
    override: bool
    body: tuple[Stmt, ...]
    span: Span


@attrs.frozen
class TriggerDecl:
    """``when COND ["title"]:``: runs its body the moment COND becomes true."""

    cond: Expr
    title: str | None
    body: tuple[Stmt, ...]
    span: Span
    each: str | None = None
    after_step: bool = False


@attrs.frozen
class SheetDecl:
    """``sheet NAME for p:`` lines of a score sheet; ``NAME of p`` is their total."""

    name: str
    var: str
    lines: tuple[tuple[str, Expr, Span], ...]
    span: Span


@attrs.frozen
class RankDecl:
    """``rank p by highest X, then lowest Y``."""

    var: str
    keys: tuple[tuple[str, Expr], ...]
    span: Span


@attrs.frozen
class PayoffDecl:
    """``payoff p = EXPR[, between LOW and HIGH][, zero sum | constant sum N | general sum]``."""

    var: str
    expr: Expr
    low: Expr | None
    high: Expr | None
    utility: str | None  # "zero_sum", "constant_sum", "general_sum" or None (not written)
    total: Expr | None  # the N of ``constant sum N``
    span: Span
    utility_span: Span | None = None


Decl = (
    GameDecl | PlayersDecl | SectionDecl | OptionDecl | AttributeDecl | FaceDecl | ComponentDecl
    | ZoneDecl | CounterDecl | DefineDecl | BlockDecl | TriggerDecl | RankDecl | SheetDecl | PayoffDecl
)


@attrs.frozen
class RulesFile:
    """One parsed .rules file: its declarations, in order, with their sections."""

    path: str
    decls: tuple[Decl, ...]


# ------------------------------------------------------------------ rounds, elimination, sides, races


@attrs.frozen
class TurnFace:
    """``turn QUERY to FACE``: every selected component now shows that side (no chance)."""

    query: Query
    face: Name
    span: Span


@attrs.frozen
class DropOut:
    """``drop out PLAYER``: the player leaves play now."""

    player: Expr
    span: Span


@attrs.frozen
class PickAt:
    """``pick w at random from q in IT [if C]``: chance picks one of the players meeting C."""

    var: str
    qvar: str
    iterable: Iterable
    cond: Expr | None
    span: Span


@attrs.frozen
class IsOut:
    """``PLAYER is out``: the player has dropped out."""

    target: Expr
    span: Span


@attrs.frozen
class Side:
    """One side of a two-sided (or many-sided) component, with its weight."""

    name: str
    weight: Any  # an int or a Fraction
    span: Span


# ------------------------------------------------------------------ budgets, markers, places


@attrs.frozen
class SpendOption:
    """One option of a ``spend`` block: label, its cost (None: missing), ``for``s, ``if``, body."""

    label: Template
    cost: Expr | None
    bindings: tuple[tuple[str, Iterable], ...]
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span
    cost_span: Span | None = None


@attrs.frozen
class Spend:
    """``spend N NAME [by PLAYER]:``: the player picks affordable options until the budget is spent."""

    amount: Expr
    name: str
    player: Expr | None
    options: tuple[SpendOption, ...]
    span: Span


@attrs.frozen
class MoveMarker:
    """``move KIND to ZONE``: the one component of a marker kind moves from wherever it is."""

    kind: str
    dest: ZoneRef
    span: Span
    kind_span: Span


@attrs.frozen
class Tally:
    """``tally SHEET into COUNTER``: every player's sheet now, added to a per-player counter."""

    sheet: str
    counter: str
    span: Span


@attrs.frozen
class Places:
    """``places(3, 1 to p by highest KEY for q in IT [if C][ties share|each])``."""

    points: tuple[Expr, ...]
    player: Expr
    direction: str
    key: Expr
    var: str
    iterable: Iterable
    cond: Expr | None
    ties: str | None
    span: Span
    ties_span: Span | None = None


# ---------------------------------------------------------------- control: typed counters, break/continue, best
@attrs.frozen
class NoKind:
    """``no kind``: the kind value that is no kind (a kind counter before it is set)."""

    span: Span


@attrs.frozen
class NoFace:
    """``no face``: the face value that is no face (a face counter before it is set)."""

    span: Span


@attrs.frozen
class Best:
    """``best NAME in IT by highest|lowest KEY [if C] [ties first|none]``: the value with the best key."""

    var: str
    iterable: Iterable
    direction: str
    key: Expr
    cond: Expr | None
    ties: str | None
    span: Span
    ties_span: Span | None = None
