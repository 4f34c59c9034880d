"""Options kept between two decisions of one choice (``KEPT_LISTINGS``): what the compiler proves from the
checked model before a picker's listing of a ``choose`` may reuse, at the next decision of the same
``choose``, what it listed at the one before.

A ``choose`` inside a loop of its rule (a ``spend`` is one: a ``while`` around a ``choose``) is taken again
and again. When option X is taken, the generated code runs X's body, the rest of the loop's body and the
loop's test, then lists the options again. Where that way back is *straight* (nothing on it can leave the
block: no decision, no chance, no trigger, no call that is not inlined, no end of turn, see
``CodeGen.can_pause``), nothing but that code runs between the two listings. Option n's listing then gives
the same options again if nothing on the way writes what it reads:

- ``reads``: the zones, counters, locals, the current player, faces, answers and who is out that the
  option's ranges and condition read (anything else read: ``OTHER``, never kept);
- ``writes``: what the statements on the way write (a move: its source and destination zones; a marker's
  move: its destination, and its source, which is only known at run time: the generated code tests it
  there, see ``marker_checks``); None where a statement is not known to this module.

The condition's leading comparisons of locals with numbers (a spend's cost test, ``cost <= left``) are the
option's *gate*: tested again at every listing (they read the budget, which every option changes), and
the kept options used only where the gate held when they were listed. A kept option must also leave
``loc`` as its listing would: the locals its listing writes (its ranges' variables, the variables of the
sums and places in its condition) are written by no other option's listing and by nothing on the way.

``plan`` gives, per option X taken, the options kept for the next listing (none where the way is not
straight); the generated code passes them from the decision to X's block (``kp``) and lists the others.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import runtime
from rulelang.compile.analysis import conjuncts, fold

KEPT_LISTINGS = True
"""Whether a picker's listing of a ``choose`` taken again in a loop reuses the options proved unchanged
(see the module's docstring); the equivalence tests turn it off to compare."""

OTHER = "other"  # something read that this module does not know: such an option is never kept
ANY_LOCAL = "locals"  # a write to locals at slots not known here (an inlined call's own locals)
ANY_ZONE = "zones"  # a read or write of a zone not known here (a component wherever it is)

_PLAIN = (m.Const, m.UnOp, m.BinOp, m.ElemIsKind, m.ElemIs, m.Agg, m.Gen, m.IfElseIR, m.TemplateIR, m.Format,
          m.SeatLit, m.CompKind, m.TheOne, m.PlacesIR, m.SecretPart, m.KindAttr)
_FACES = (m.CompFace, m.ElemFace, m.FaceAttr)
_ANSWERS = (m.AnswerGet, m.AnswerMatch, m.AnswerIs, m.AnswerValue)
_PURE_BUILTINS = ("players", "seat", "min", "max", "fraction", "abs")
_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


def reads(e: Any, model: m.Model | None = None) -> set:
    """What an expression (or a tuple of them) reads of the state and of ``loc`` (see the module). An
    attribute of a component reads its face where a face of the ``model`` gives that attribute a value
    (else its kind's value, fixed; without the model: read)."""
    out: set = set()
    by_face = None if model is None else {name for face in model.faces for name in face.values}

    def walk(x: Any) -> None:
        if isinstance(x, (tuple, list, frozenset)):
            for y in x:
                walk(y)
            return
        t = type(x)
        if not attrs.has(t):
            return
        if t is m.ZoneSel:
            out.add(("zone", x.zone))
        elif t is m.QueryIR:
            if x.one is not None and not x.zones:
                out.add(ANY_ZONE)
            out.update(("local", slot) for slot in x.kind_locals)  # kinds held in locals
        elif t is m.CounterGet:
            out.add(("counter", x.counter))
        elif t is m.Local:
            out.add(("local", x.slot))
        elif t is m.CurrentPlayer:
            out.add("current")
        elif t is m.After:
            if x.player is None:
                out.add("current")
        elif t is m.IterIR:
            if x.kind in ("players", "others", "players_in", "others_in", "players_from"):
                out.update(("current", "out"))
            elif x.kind not in ("kinds", "all", "query", "range", "faces", "kinds_where"):
                out.add(OTHER)
        elif t in _FACES:
            out.add("faces")
        elif t in (m.CompAttr, m.ElemAttr):
            if by_face is None or x.attr in by_face:
                out.add("faces")
        elif t in _ANSWERS:
            out.add("answers")
        elif t is m.IsOut:
            out.add("out")
        elif t is m.Builtin:
            if x.func not in _PURE_BUILTINS:
                out.add(OTHER)
        elif t not in _PLAIN:
            if t.__module__ == m.__name__:
                out.add(OTHER)
            return
        for field in attrs.fields(t):
            walk(getattr(x, field.name))

    walk(e)
    return out


def binders(e: Any) -> set[int]:
    """The local slots an expression binds (the variables of its sums, bests and places)."""
    out: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, (tuple, list)):
            for y in x:
                walk(y)
            return
        if not attrs.has(type(x)):
            return
        if type(x) in (m.Gen, m.PlacesIR):
            out.add(x.var)
        for field in attrs.fields(type(x)):
            walk(getattr(x, field.name))

    walk(e)
    return out


def _query_zones(q: m.QueryIR) -> set:
    if q.one is not None and not q.zones:
        return {ANY_ZONE}
    return {("zone", sel.zone) for sel in q.zones}


def writes(model: m.Model, body: Any, calling: frozenset[int] = frozenset()) -> set | None:
    """What these statements write (see the module), or None where one is not known here. A marker's move
    counts its destination only: its source is tested where the code runs (``marker_checks``)."""
    out: set = set()
    for s in body:
        t = type(s)
        if t is m.MoveS:
            out |= _query_zones(s.query) | {("zone", s.dest.zone), "faces"}
        elif t is m.MoveMarkerS:
            out |= {("zone", s.dest.zone), "faces"}
        elif t is m.ShuffleS:
            out.add(("zone", s.zone.zone))
        elif t in (m.RollS, m.TurnS):
            out |= _query_zones(s.query) | {"faces"}
        elif t in (m.AssignS, m.TallyS):
            out.add(("counter", s.counter))
        elif t is m.LetS:
            out.add(("local", s.slot))
        elif t in (m.SayS, m.RevealS, m.FailS) or (t is m.SimpleS and s.what == "pass"):
            pass
        elif t is m.IfS:
            for _cond, branch in s.branches:
                w = writes(model, branch, calling)
                if w is None:
                    return None
                out |= w
            if s.orelse:
                w = writes(model, s.orelse, calling)
                if w is None:
                    return None
                out |= w
        elif t in (m.WhileS, m.RepeatS, m.ForS):
            w = writes(model, s.body, calling)
            if w is None:
                return None
            out |= w
            if t is m.RepeatS:
                out.add(("local", s.slot))
            elif t is m.ForS:
                out |= {("local", s.var), ("local", s.list_slot), ("local", s.idx_slot)}
        elif t is m.CallS:
            if s.rule in calling:
                return None
            w = writes(model, model.rules[s.rule].body, calling | {s.rule})
            if w is None:
                return None
            out |= {x for x in w if not (type(x) is tuple and x[0] == "local")} | {ANY_LOCAL}
        elif t is m.GiveTurnS:
            out.add("current")
        elif t is m.DropS:
            out |= {"out", "current"}
        else:
            return None
    return out


def meets(read: set, written: set) -> bool:
    """Whether something read may have been written."""
    if OTHER in read or read & written:
        return True
    if ANY_LOCAL in written and any(type(x) is tuple and x[0] == "local" for x in read):
        return True
    zones_read = any(type(x) is tuple and x[0] == "zone" for x in read) or ANY_ZONE in read
    zones_written = any(type(x) is tuple and x[0] == "zone" for x in written) or ANY_ZONE in written
    return (ANY_ZONE in written and zones_read) or (ANY_ZONE in read and zones_written)


def gate(opt: m.OptionIR, assigned: frozenset[int] = frozenset()) -> tuple[list, list]:
    """An option's condition split into its gate (its leading comparisons of number locals ``assigned``
    before the loop, none of them the option's own values, with numbers or such locals: they cannot fail)
    and the rest, in order."""
    if opt.cond is None:
        return [], []
    own = {slot for slot, _it in opt.bindings}
    parts = [p for p in conjuncts(fold(opt.cond)) if not (type(p) is m.Const and p.value is True)]
    n = 0
    for p in parts:
        if type(p) is not m.BinOp or p.op not in _COMPARE:
            break
        if not all(_plain_number(x, own, assigned) for x in (p.left, p.right)):
            break
        n += 1
    return parts[:n], parts[n:]


def _plain_number(x: Any, own: set[int], assigned: frozenset[int]) -> bool:
    if type(x) is m.Const:
        return type(x.value) is int
    return type(x) is m.Local and x.type == m.INT and x.slot not in own and x.slot in assigned


@attrs.define
class Plan:
    """What a ``choose`` keeps between its decisions: ``kept`` the options whose listings may be kept (in
    order: their place in the kept tuple), ``gates`` per kept option its gate, ``keep`` per option taken the
    kept options still valid after it, ``markers`` per option taken the zones a marker's move on its way
    must not take the marker from (else nothing is kept)."""

    kept: tuple[int, ...]
    gates: dict[int, list]
    keep: dict[int, tuple[int, ...]]
    markers: dict[int, frozenset[int]]
    reads: dict[int, set] = attrs.field(factory=dict)


def _container(body: Any, target: Any) -> Any:
    """The statement list (``body`` or one nested in it) that holds ``target`` itself, or None."""
    if any(s is target for s in body):
        return body
    for s in body:
        t = type(s)
        subs: list = []
        if t is m.IfS:
            subs = [b for _c, b in s.branches] + ([s.orelse] if s.orelse else [])
        elif t in (m.WhileS, m.RepeatS, m.ForS):
            subs = [s.body]
        elif t is m.ChooseS:
            subs = [o.body for o in s.options]
        for sub in subs:
            found = _container(sub, target)
            if found is not None:
                return found
    return None


def _find(body: Any, target: Any, chain: list) -> list | None:
    """The statements from the outermost of ``body`` down to ``target`` (included), or None."""
    for s in body:
        if s is target:
            return chain + [s]
        t = type(s)
        subs: list = []
        if t is m.IfS:
            subs = [b for _c, b in s.branches] + ([s.orelse] if s.orelse else [])
        elif t in (m.WhileS, m.RepeatS, m.ForS):
            subs = [s.body]
        elif t is m.ChooseS:
            subs = [o.body for o in s.options]
        for sub in subs:
            found = _find(sub, target, chain + [s])
            if found is not None:
                return found
    return None


def may_leave(gen: Any, body: Any) -> bool:
    """``CodeGen.can_pause`` of these statements, but knowing the three statements it does not: a marker's
    move, a tally and a failure leave their block only through a trigger they may wake (``piles.emit``)."""
    for s in body:
        t = type(s)
        if t is m.MoveMarkerS:
            if gen.comp.triggers_for(set(range(len(gen.model.zones)))):
                return True
        elif t is m.TallyS:
            if gen.comp.trigger_for_counter.get(s.counter, ()):
                return True
        elif t is m.FailS:
            pass
        elif t is m.CallS:
            if not gen.inlines(s):
                return True
            saved = gen.ikey
            gen.ikey = gen.ikey + ((id(s), s.rule),)
            try:
                if may_leave(gen, gen.model.rules[s.rule].body):
                    return True
            finally:
                gen.ikey = saved
        elif t is m.IfS:
            if any(may_leave(gen, b) for _c, b in s.branches) or (s.orelse and may_leave(gen, s.orelse)):
                return True
        elif t in (m.WhileS, m.RepeatS, m.ForS):
            if may_leave(gen, s.body):
                return True
        elif gen.can_pause((s,)):
            return True
    return False


def _around(gen: Any, body: Any, path: list) -> tuple[set | None, bool]:
    """What the statements of ``body`` write and whether any may leave its block, but for the statement
    ``path[-1]`` inside them (``path``: the statements from one of ``body`` down to it)."""
    out: set = set()
    paused = False
    for s in body:
        if path and s is path[0]:
            if len(path) == 1:
                continue  # the choose itself
            if type(s) is not m.IfS:
                return None, True
            for _c, branch in s.branches + ((None, s.orelse),) if s.orelse else s.branches:
                w, p = _around(gen, branch, path[1:]) if any(x is path[1] for x in branch) else \
                    (writes(gen.model, branch), may_leave(gen, branch))
                if w is None:
                    return None, True
                out |= w
                paused = paused or p
            continue
        w = writes(gen.model, (s,))
        if w is None:
            return None, True
        out |= w
        paused = paused or may_leave(gen, (s,))
    return out, paused


def worth(opt: m.OptionIR) -> bool:
    """Whether an option's listing loops over values it tests or over several ranges (a list built, not
    one range's values as they are): worth keeping."""
    own = {slot for slot, _it in opt.bindings}
    _g, rest = gate(opt)
    return len(opt.bindings) >= 2 or (len(opt.bindings) == 1 and any(reads(p) & {("local", s) for s in own}
                                                                      for p in rest))


def plan(gen: Any, s: m.ChooseS) -> Plan | None:
    """The options of ``s`` kept from one decision to the next (see the module), or None."""
    if not KEPT_LISTINGS:
        return None
    path = None
    for rule in gen.model.rules:
        path = _find(rule.body, s, [])
        if path is not None:
            break
    if path is None:
        return None
    loops = [i for i, x in enumerate(path[:-1]) if type(x) in (m.WhileS, m.RepeatS, m.ForS)]
    if not loops:
        return None
    top = loops[-1]
    if any(type(x) is m.ChooseS for x in path[top + 1:-1]):
        return None
    loop = path[top]
    holder = _container(rule.body, loop)
    assigned = frozenset()
    for x in holder:  # the locals set before the loop starts, by statements that always run
        if x is loop:
            break
        if type(x) is m.LetS:
            assigned |= {x.slot}
    around, paused = _around(gen, loop.body, path[top + 1:])
    if around is None or paused:
        return None
    if type(loop) is m.RepeatS:
        around.add(("local", loop.slot))
    elif type(loop) is m.ForS:
        around |= {("local", loop.var), ("local", loop.list_slot), ("local", loop.idx_slot)}
    options = s.options
    own_writes: dict[int, set] = {}
    for n, opt in enumerate(options):
        own_writes[n] = {slot for slot, _it in opt.bindings} | binders(
            (tuple(it for _s, it in opt.bindings), opt.cond))
    candidates: dict[int, set] = {}
    gates: dict[int, list] = {}
    for n, opt in enumerate(options):
        if not worth(opt):
            continue
        if any(own_writes[n] & own_writes[j] for j in own_writes if j != n):
            continue
        g, rest = gate(opt, assigned)
        read = reads((tuple(it for _s, it in opt.bindings), tuple(rest)), gen.model)
        read -= {("local", slot) for slot in own_writes[n]}
        if OTHER in read:
            continue
        candidates[n] = read | {("local", slot) for slot in own_writes[n]}
        gates[n] = g
    if not candidates:
        return None
    keep: dict[int, tuple[int, ...]] = {}
    markers: dict[int, frozenset[int]] = {}
    for x, opt in enumerate(options):
        if may_leave(gen, opt.body):
            continue
        w = writes(gen.model, opt.body)
        if w is None:
            continue
        w = w | around | {("local", slot) for slot, _it in opt.bindings}
        kept = tuple(n for n in sorted(candidates) if not meets(candidates[n], w))
        if kept:
            keep[x] = kept
            markers[x] = frozenset(z[1] for n in kept for z in candidates[n] if type(z) is tuple and z[0] == "zone")
    if not keep:
        return None
    kept_all = tuple(sorted({n for k in keep.values() for n in k}))
    return Plan(kept_all, {n: gates[n] for n in kept_all}, keep, markers, {n: candidates[n] for n in kept_all})


def planned(gen: Any, s: m.ChooseS, spec: Any, pc: int) -> None:
    """At a choice's first site (``pc``): its plan and its listing that keeps (``kept_listers``), and its
    options' blocks marked as taking what the decision before kept (``kept_entries``), where it keeps."""
    if id(spec) not in gen.pickers or gen.tries_bound(s) > runtime.MAX_OPTIONS:
        return
    found = plan(gen, s)
    if found is None:
        return
    gen.kept_listers[id(spec)] = gen.enumerator(s, lazy=True, keeping=found)
    gen.kept_plans[pc] = found
    for n in range(len(s.options)):
        gen.kept_entries[pc + 1 + n] = (pc, n)


def decision(gen: Any, L: list, spec: Any, pc: int, listed: bool, ind: int, sp: Any) -> None:
    """At a decision of the choice at ``pc`` (``listed``: its options listed by a picker, not counted): the
    variables of what its listing keeps and of what it passes on (``gen.kept_now``, None: it keeps nothing).
    The first listing of that choice in one of its options' blocks reads what the decision before kept
    (``kp``), where that option keeps any; every other reads nothing kept."""
    found = gen.kept_plans.get(pc) if listed and id(spec) in gen.kept_listers else None
    block, gen.kept_now = gen.kept_block, None
    if block is not None and block[0] == pc:
        gen.kept_block = None
    if found is not None:
        K, X = gen.var("kk"), gen.var("kx")
        src = "kp" if block is not None and block[0] == pc and block[1] in found.keep else "None"
        gen.kept_now = (found, K, X, src)
        L.append((ind, f"{K} = {X} = None", sp))
