"""Generated code for elimination, sided components and chance picks (a part of the generator).

``emit_turn``, ``emit_drop`` and ``emit_pick`` write the statements ``turn QUERY to FACE``,
``drop out PLAYER`` and ``pick w at random from q in IT if C``; the small functions below
them are what that code calls at run time (reached through the constants table).
"""

from __future__ import annotations

import re
from typing import Any

from rulelang.check import model as m
from rulelang.compile.analysis import never_negative, reads_slots
from rulelang.compile.program import PICK, PickSpec
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


def emit_pick(gen: Any, L: list, s: m.PickS, after: tuple, ind: int) -> bool:
    """``pick w at random``: no chance with fewer than two players to pick from; else a recorded chance event."""
    sp = s.span
    var, lst, qvar = s.var + gen.off, s.list_slot + gen.off, s.qvar + gen.off
    p, among = gen.var("p"), gen.var("l")
    text = answered_text(gen, s)
    if text is not None:
        # 'if answer of q == T': how many gave that answer first, and who when one did (a race's usual
        # outcome); the players are gone through only when several did (the same list, the same draw)
        x, answers, n, w = gen.var("x"), gen.var("an"), gen.var("n"), gen.var("w")
        L.append((ind, f"{x} = {text}", sp))
        L.append((ind, f"{answers} = st.answers", sp))
        L.append((ind, f"{n} = {answers}.count({x})", sp))
        L.append((ind, f"if {n} == 0:", sp))
        L.append((ind + 1, f"loc[{var}] = -1", sp))
        L.append((ind, f"elif {n} == 1:", sp))
        if s.iterable.kind == "players":
            L.append((ind + 1, f"loc[{var}] = {answers}.index({x})", sp))
        else:  # players still in: one who answered, then dropped out, is not among them
            L.append((ind + 1, f"{w} = {answers}.index({x})", sp))
            L.append((ind + 1, f"loc[{var}] = -1 if st.out[{w}] else {w}", sp))
        L.append((ind, "else:", sp))
        ind += 1
    L.append((ind, f"{among} = loc[{lst}] = []", sp))  # the list kept in loc for a pause, built from its variable
    L.append((ind, f"for {p} in {gen.iterable(s.iterable, copy=False)}:", sp))
    if text is not None:
        L.append((ind + 1, f"if {answers}[{p}] == {x}:", sp))
        L.append((ind + 2, f"{among}.append({p})", sp))
    elif s.cond is not None:
        if never_negative(s.iterable):
            gen.cse_ids.add(p)
        gen.loop_vars[qvar] = p  # the condition reads the value from its Python variable
        try:
            cond = gen.ex(s.cond)
        finally:
            del gen.loop_vars[qvar]
        if not slot_unread([(0, cond, sp)], qvar):  # the condition reads it from loc too (through a helper)
            L.append((ind + 1, f"loc[{qvar}] = {p}", sp))
        L.append((ind + 1, f"if {cond}:", sp))
        L.append((ind + 2, f"{among}.append({p})", sp))
    else:
        L.append((ind + 1, f"{among}.append({p})", sp))
    pc = gen.site_pc(s, 2)
    gen.entries.setdefault(pc, (PICK, PickSpec(var, lst, s.name), None, None, sp))
    gen.resume(pc + 1, after, sp)
    gen.consts["picked"] = picked
    L.append((ind, f"if len({among}) < 2:", sp))
    L.append((ind + 1, f"loc[{var}] = {among}[0] if {among} else -1", sp))
    L.append((ind, "else:", sp))
    if gen.after_step_triggers:  # the engine checks those at every chance decision first
        gen.pause(L, pc, ind + 1)
        return False
    rng = gen.var("rng")
    L.append((ind + 1, f"{rng} = st.chance_rng", sp))
    L.append((ind + 1, f"if {rng} is None:", sp))
    gen.pause(L, pc, ind + 2)
    L.append((ind + 1, f"picked(st, loc, {var}, {among}, {rng}.below(len({among})), "
                       f"{gen.const(s.name)})", sp))
    return False


_SURE = re.compile(r"[A-Za-z_]\w*(\[(loc\[\d+\]|_v\d+)\])?")  # a constant, or a table read at a local's value


def answered_text(gen: Any, s: m.PickS) -> str | None:
    """Source of T where a pick's condition is ``answer of q == T`` (either way round), T reads not q,
    and q goes through all players or those still in; None otherwise. T is computed once, before the
    players are gone through: so only where that cannot raise an error the loop would not (all players
    are never none; else T is a constant or a table read at a local's value)."""
    cond = s.cond
    if type(cond) is not m.BinOp or cond.op != "==" or s.iterable.kind not in ("players", "players_in"):
        return None
    for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
        if type(a) is m.AnswerGet and type(a.player) is m.Local and a.player.slot == s.qvar \
                and not reads_slots(b, {s.qvar}):
            text = gen.ex(b)
            if s.iterable.kind == "players" or _SURE.fullmatch(text):
                return text
    return None


_LOC_SLOT = re.compile(r"\bloc\[(\d+)\]")
_LOC_NAME = re.compile(r"\bloc\b")


def slot_unread(lines: list, slot: int) -> bool:
    """Whether these generated lines (``(indent, text, span)``, run without leaving their block) never
    read ``loc[slot]``: by their text, ``loc`` appears in them only subscripted by other written numbers
    (never ``loc[slot]``, never ``loc`` passed on whole, as to a helper)."""
    for _ind, text, _sp in lines:
        if "loc" not in text:
            continue
        rest = _LOC_SLOT.sub(lambda mt: "" if int(mt.group(1)) != slot else mt.group(0), text)
        if _LOC_NAME.search(rest):
            return False
    return True


# ---------------------------------------------------------------------- run time


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


def picked(st: Any, loc: list, var: int, among: list[int], i: int, name: str) -> None:
    """Chance picked ``among[i]``: bind it, count the step, record the event and narrate it."""
    winner = among[i]
    loc[var] = winner
    st.step += 1
    events = st.chance_events
    if events is None and st.log is None:  # nothing records the pick
        return
    labels = [player_label(p) for p in among]
    if events is not None:
        events.append({"type": "chance", "step": st.step, "pick": name, "among": labels,
                       "outcome": player_label(winner)})
    if st.log is not None:
        st.log.append({"type": "pick", "player": player_label(winner), "among": labels})


def out_error(p: int, span: Any) -> RulelangError:
    """The error of asking a player who is out for a decision."""
    return RulelangError(f"{player_label(p)} is out of the game and takes no decisions", span,
                         hint="ask only players still in: 'if not p is out:' or 'for p in players still in'")


EMITTERS = {m.TurnS: emit_turn, m.DropS: emit_drop, m.PickS: emit_pick}
"""The statements this module writes, by IR type (codegen dispatches on it)."""


def ask_enumerator(gen: Any, s: m.AskS) -> str:
    """A function listing the answers allowed to the player in the ask's variable, some given per value."""
    name = f"a{next(gen.names)}"
    gen.consts["same_answers"] = same_answers
    lines: list = [(1, "out = []", s.span)]
    for (label, cond, span), dyn in zip(s.options, s.dynamic):
        if dyn is None:
            if cond is None:
                lines.append((1, f"out.append({gen.const(label)})", span))
            else:
                lines.append((1, f"if {gen.ex(cond)}:", span))
                lines.append((2, f"out.append({gen.const(label)})", span))
            continue
        template, bindings = dyn
        ind = 1
        bound = []
        try:
            for slot, it in bindings:
                v = gen.var("v")
                lines.append((ind, f"for {v} in {gen.iterable(it, copy=False)}:", span))
                lines.append((ind + 1, f"loc[{slot + gen.off}] = {v}", span))
                if never_negative(it):
                    gen.cse_ids.add(v)
                gen.loop_vars[slot + gen.off] = v  # read from its Python variable in this function
                bound.append(slot + gen.off)
                ind += 1
            if cond is not None:
                lines.append((ind, f"if {gen.ex(cond)}:", span))
                ind += 1
            lines.append((ind, f"out.append({gen.template(template)})", span))
        finally:
            for slot in bound:
                del gen.loop_vars[slot]
    if not _distinct_answers(gen, s):
        lines.append((1, "if len(set(out)) != len(out):", s.span))
        lines.append((2, f"same_answers(out, {gen.const(s.span)})", s.span))
    lines.append((1, "return out", s.span))
    gen.helper(name, "st, loc", lines)
    return name


def always_answered(gen: Any, s: m.AskS) -> bool:
    """Whether listing an ask's answers always gives some and never fails: an answer offered without a
    condition, no other conditions, answers per component of zones found without a check, read apart."""
    if any(cond is not None for _label, cond, _span in s.options):
        return False
    if not any(dyn is None for dyn in s.dynamic) or not _distinct_answers(gen, s):
        return False
    for dyn in s.dynamic:
        if dyn is not None:
            q = dyn[1][0][1].query
            if q.count is not None or q.count_expr is not None or q.quantity == "random" \
                    or not all(gen.plain_zone(sel) for sel in q.zones) \
                    or (q.where is not None and gen.comp.pred_table(q) is None):
                return False
    return True


def _distinct_answers(gen: Any, s: m.AskS) -> bool:
    """Whether an ask's answers can never read alike: fixed labels that differ, and one answer per component
    of zones whose label shows the component's kind, where no two components share a kind."""
    fixed = [label for (label, _c, _sp), dyn in zip(s.options, s.dynamic) if dyn is None]
    dynamic = [dyn for dyn in s.dynamic if dyn is not None]
    if len(dynamic) != 1 or len(set(fixed)) != len(fixed) or not gen.unique_kinds:
        return len(dynamic) == 0 and len(set(fixed)) == len(fixed)
    template, bindings = dynamic[0]
    if len(bindings) != 1:
        return False
    slot, it = bindings[0]
    if it.type != m.COMPONENT or it.query is None or it.kind == "kinds":
        return False
    if len({sel.zone for sel in it.query.zones}) != len(it.query.zones):  # a zone named twice lists its own twice
        return False
    holes = [part.expr if isinstance(part, m.SecretPart) else part for part in template.parts
             if not isinstance(part, str)]
    if len(holes) != 1 or type(holes[0]) is not m.CompKind or holes[0].comp != m.Local(slot, m.COMPONENT):
        return False
    texts = ["".join(kind.display if not isinstance(part, str) else part for part in template.parts)
             for kind in gen.model.kinds]
    return len(set(texts)) == len(texts) and not set(texts) & set(fixed)


def same_answers(out: list[str], span: Any) -> None:
    """Two answers of one ``ask`` that read alike: an error at the ``ask``."""
    seen: set[str] = set()
    for label in out:
        if label in seen:
            raise RulelangError(f"two answers are both labelled {label!r}", span,
                                hint="make every answer's label show what differs between them")
        seen.add(label)


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
