"""Generated code for the constructs of control (a part of the generator): ``break`` and ``continue``,
``best ... by ...``, and the guards of ``no kind`` (a kind counter before it is set).

- ``break``/``continue`` inside the Python loop a rulelang loop is written as (nothing paused since the
  loop's pass began in this block) are Python's own; in a block that resumes a pass after a pause (a
  choice, a roll, a called rule run as a frame, a trigger), the loop is no Python loop there: ``break``
  writes what follows the loop, ``continue`` the loop again from its next pass (the continuations that
  :meth:`BlockEmitter.emit_ctx` writes).
- ``best`` is a :class:`~rulelang.check.model.Gen` of func ``best highest [first|none]``: the values and
  their keys are listed as for ``max``, and :func:`best_of` picks.
- ``no kind`` is kind -1. Where a kind is read as a table index (``ATTR of k``, ``move k``, ``count(k in
  Z)``) in a game that can hold no kind, the index goes through :func:`kind_at`, which stops the game
  with an error instead of reading the last kind's row.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.runtime import player_label
from rulelang.errors import RulelangError
from rulelang.numbers import json_number

NO_KIND = "no kind"
"""How the kind that is no kind is shown (narration, observations, positions)."""
NO_FACE = "no face"
"""How the face that is no face is shown (a face counter before it is set)."""


def install(gen: Any) -> None:
    """Put the run-time helpers in the generated module's constants table; tables by kind get an entry
    for no kind (index -1) when the game can hold one."""
    gen.consts.update({"best_of": best_of, "kind_at": kind_at})
    if holds_no_kind(gen.model):
        gen.consts["KD"] = [*gen.consts["KD"], NO_KIND]


def holds_no_kind(model: m.Model) -> bool:
    """Whether a kind value of the game may be no kind: a kind counter, ``no kind`` written, or a ``best``
    among kinds (which gives no kind when there is none to choose)."""
    if any(c.type == m.KIND for c in model.counters):
        return True
    return _has_no_kind([r.body for r in model.rules]) or _has_no_kind(model.triggers) \
        or _has_no_kind(model.sheets) or _has_no_kind(model.ranking)


def _has_no_kind(node: Any) -> bool:
    if isinstance(node, (tuple, list)):
        return any(_has_no_kind(x) for x in node)
    if type(node) is m.Const:
        return node.type == m.KIND and node.value == -1
    if type(node) is m.Gen and node.func.startswith("best") and node.type == m.KIND:
        return True
    if not attrs.has(type(node)):
        return False
    return any(_has_no_kind(getattr(node, f.name)) for f in attrs.fields(type(node)) if f.name != "span")


def kind_index(gen: Any, e: Any, x: str) -> str:
    """Source of the kind ``e`` (written ``x``) used as an index: guarded where it may be no kind."""
    if not gen.no_kind or (type(e) is m.Const and e.value >= 0):
        return x
    return f"kind_at({x})"


def kind_at(k: int) -> int:
    """``k`` itself if it is a kind; an error (at the statement) for no kind."""
    if k < 0:
        raise RulelangError("a kind is needed here, but the value is 'no kind'",
                            hint="a kind counter holds no kind until it is set: test it first "
                                 "('if trump != no kind:')")
    return k


def emit_leave(gen: Any, L: list, s: m.SimpleS, after: tuple, ind: int) -> bool:
    """``break`` or ``continue``: Python's inside the loop's own Python loop, else the continuation."""
    loop = after
    while loop[0] == "seq":
        loop = loop[5]
    assert loop[0] == "loop", "the checker lets 'break' and 'continue' only inside loops"
    if gen.py_loops and gen.py_loops[-1] is loop[1]:
        L.append((ind, s.what, s.span))
        return True
    if s.what == "break":
        return gen.emit_ctx(L, loop[5], ind)  # what follows the loop
    return gen.emit_ctx(L, loop, ind)  # the loop again, from its next pass


def best_of(pairs: list, highest: bool, ties: str | None, none: Any, player: bool, span: Any) -> Any:
    """The value of the best key among ``(key, value)`` pairs (in the iterable's order): on a tie, the
    first (``ties first``), ``none`` (``ties none``) or an error; with no value, ``none`` or an error."""
    if not pairs:
        if none is None:
            raise RulelangError("'best' has nothing to choose from", span,
                                hint="add a value to range over, or test for one first (count(...) > 0)")
        return none
    top = max(k for k, _v in pairs) if highest else min(k for k, _v in pairs)
    tied = [v for k, v in pairs if k == top]
    if len(tied) == 1 or ties == "first":
        return tied[0]
    if ties == "none":
        return none
    shown = ", ".join(player_label(v) for v in tied) if player else f"{len(tied)} values"
    raise RulelangError(f"a tie for 'best': {shown} share the {'highest' if highest else 'lowest'} value",
                        span, hint="say what a tie means: 'ties first' (the first of them in the order of "
                                   "the values) or 'ties none' (nobody, or no kind)")


def best_return(gen: Any, e: m.Gen) -> str:
    """The return line of a ``best``'s helper, from its list ``out`` of (key, value) pairs."""
    words = e.func.split()
    ties = words[2] if len(words) > 2 else None
    none = -1 if e.type in (m.PLAYER, m.KIND) else None
    return (f"return best_of(out, {words[1] == 'highest'}, {ties!r}, {none!r}, {e.type == m.PLAYER}, "
            f"{gen.const(e.span)})")


def counter_shown(type_: str, kinds: list[m.Kind], faces: Any = ()) -> Any:
    """How a counter's value of this type is written in observations, positions and the viewer: a player
    as ``P2`` (``nobody``), a kind by its name (``no kind``), a face by its name (``no face``; ``faces``
    the model's faces), a text as it is, a number as JSON."""
    if type_ == m.PLAYER:
        return player_label
    if type_ == m.KIND:
        return lambda k: kinds[k].name if k >= 0 else NO_KIND
    if type_ == m.FACE:
        return lambda f: faces[f].name if f >= 0 else NO_FACE
    return json_number


def first_turn() -> list:
    """The driver's lines between setup and the first turn: a ``give turn to`` in setup names who plays it."""
    return [(1, "if st.next_player >= 0:", None), (2, "st.current = st.next_player", None),
            (2, "st.next_player = -1", None)]
