"""Generated code for elimination and sided components, and the driver's part of rounds (a part of the generator).

``emit_turn`` and ``emit_drop`` write the statements ``turn QUERY to FACE`` and ``drop out PLAYER``;
the small functions below them are what that code calls at run time (reached through the constants table).
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile.runtime import player_label
from rulelang.errors import RulelangError


def emit_turn(gen: Any, L: list, s: m.TurnS, after: tuple, ind: int) -> bool:
    """``turn QUERY to FACE``: each selected component shows the face (an error for one without that side)."""
    sp = s.span
    allowed = gen.table([s.face in gen.model.kinds[k].faces for k in gen.kind_of], "sd")
    ids = gen.selection(s.query, copy=False)  # turn_to only reads the list
    L.append((ind, f"turn_to(st, {ids}, {s.face}, {allowed}, LB, FD, {gen.const(sp)})", sp))
    gen.consts["turn_to"] = turn_to
    which = gen.comp.triggers_for({z.zone for z in s.query.zones})
    return gen.soft(L, which, after, sp, ind) if which else False


def emit_drop(gen: Any, L: list, s: m.DropS, after: tuple, ind: int) -> bool:
    """``drop out PLAYER``."""
    sp = s.span
    gen.consts["drop_out"] = drop_out
    L.append((ind, f"drop_out(st, {gen.seat_ex(s.player, 'a place in the game to leave', sp)}, {gen.const(sp)})",
              sp))
    return False


def turn_to(st: Any, ids: list[int], face: int, allowed: list[bool], labels: list[str], shown: list[str],
            span: Any) -> None:
    """Set the face of each component of ``ids`` (each must have that side)."""
    faces = st.faces
    for c in ids:
        if not allowed[c]:
            raise RulelangError(f"{labels[c]} has no side {shown[face]!r} to turn to", span,
                                hint="select only components that have that side")
        faces[c] = face
    if ids and st.log is not None:
        st.log.append({"type": "turned", "components": [labels[c] for c in ids], "face": shown[face]})


def drop_out(st: Any, p: int, span: Any) -> None:
    """Player ``p`` leaves play now (in the current turn or round, the moment recorded)."""
    if st.out[p]:
        raise RulelangError(f"{player_label(p)} is already out of the game", span,
                            hint="test 'if not p is out:' before 'drop out p'")
    st.out[p] = max(1, st.turn)
    if st.log is not None:
        st.log.append({"type": "out", "player": player_label(p)})


def out_error(p: int, span: Any) -> RulelangError:
    """The error of asking a player who is out for a decision."""
    return RulelangError(f"{player_label(p)} is out of the game and takes no decisions", span,
                         hint="ask only players still in: 'if not p is out:' or 'for p in players still in'")


EMITTERS = {m.TurnS: emit_turn, m.DropS: emit_drop}
"""The statements this module writes, by IR type (statements.py dispatches on it)."""


def driver_lines(model: m.Model) -> list[tuple[int, str, Any]]:
    """What the driver does after choosing the next turn's player: in a round game, keep nobody's turn
    (seat 0 stands for the table); in a game of turns with players out, skip them (no one left: the end)."""
    if model.rounds:
        return [(1, "st.current = 0", None)]
    if not model.eliminates:
        return []
    return [(1, "for _ in range(st.players):", None),
            (2, "if not st.out[st.current]:", None), (3, "break", None),
            (2, "st.current = (st.current + 1) % st.players", None),
            (1, "else:", None), (2, "return -2", None)]
