"""Generated code for piles on components, markers, tallies, points by places and stops.

``spend`` needs nothing here: the checker writes it as a loop around a ``choose``.
Each function takes the ``CodeGen`` writing the module and adds its lines to ``L``.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.check.common import reads as _reads
from rulelang.compile import marker_moves, piles_runtime

STATEMENTS = (m.FailS, m.MoveMarkerS, m.TallyS)


def install(gen: Any) -> None:
    """Put the run-time helpers in the generated module's constants table."""
    gen.consts.update({
        "fail_here": piles_runtime.fail, "zone_of_class": piles_runtime.zone_of_class,
        "move_marker": None, "tally_rows": None, "MS": None,  # given at load, the program's own (piles_runtime.owned)
        "log_tally": piles_runtime.log_tally, "places_points": piles_runtime.places_points,
        "place_text": piles_runtime.place_text, "not_in": piles_runtime.not_in,
    })


def place_table(gen: Any) -> str:
    """The constant naming every place kind: (display, "shared" | "player" | "component", first owner)."""
    rows = []
    for z in gen.model.zones:
        if z.per_class is not None:
            rows.append((z.display, "component", 0))
        elif z.per_kind is not None:
            rows.append((z.display, "component", gen.comp.first_of_kind.get(z.per_kind, 0)))
        elif z.per_player:
            rows.append((z.display, "player", 0))
        else:
            rows.append((z.display, "shared", 0))
    return gen.table(rows, "pt")


def owners_mask(gen: Any, zone: m.Zone) -> str:
    """Per component: whether it owns a pile of this ``per CLASS`` zone."""
    kinds = zone.per_class or frozenset()
    return gen.table([k in kinds for k in gen.kind_of], "ow")


def class_zone(gen: Any, sel: m.ZoneSel) -> str:
    """Source of the pile on a component (a ``per card`` zone)."""
    zone = gen.model.zones[sel.zone]
    cls = gen.model.kinds[min(zone.per_class)].cls if zone.per_class else "component"
    o = gen.ex(sel.owner)
    mask = owners_mask(gen, zone)
    slow = (f"zone_of_class(Z[{sel.zone}], {o}, {mask}, LB, {gen.const(zone.name)}, "
            f"{gen.const(cls)}, {gen.const(sel.span)})")
    if isinstance(sel.owner, m.Local) and gen.owners_proven:  # (a counted choice's guard holds: see pause_pick)
        return f"Z[{sel.zone}][{o}]"
    if isinstance(sel.owner, m.Local) and gen.cse_vars is not None and sel.owner.slot in gen.cse_vars:
        # In an option's condition, on a range's value: looked up once per value (``None``: no such pile,
        # the error is raised where it is read, as before)
        key = (sel.zone, sel.owner.slot)
        if key not in gen.cse_piles:
            owns = f"{mask}[{o}]" if o in gen.cse_ids else f"{o} is not None and {o} >= 0 and {mask}[{o}]"
            gen.cse_piles[key] = (gen.var("p"), f"Z[{sel.zone}][{o}] if {owns} else None")
        pile = gen.cse_piles[key][0]
        return f"({pile} if {pile} is not None else {slow})"
    if isinstance(sel.owner, m.Local):  # a component held in a local: look it up once, check it inline
        return f"(Z[{sel.zone}][{o}] if {o} is not None and {o} >= 0 and {mask}[{o}] else {slow})"
    return slow


def marker_zones(gen: Any, kind: int) -> tuple[int, ...]:
    """The zones the rules move a marker to (where to look for it first): a shortcut, never a limit."""
    found: list[int] = []

    def walk(x: Any) -> None:
        if isinstance(x, (tuple, list)):
            for y in x:
                walk(y)
        elif isinstance(x, m.MoveMarkerS):
            if x.kind == kind and x.dest.zone not in found:
                found.append(x.dest.zone)
        elif isinstance(x, (m.IfS, m.WhileS, m.RepeatS, m.ForS, m.ChooseS, m.OptionIR)):
            for field in ("branches", "orelse", "body", "options"):
                walk(getattr(x, field, None))

    for rule in gen.model.rules:
        walk(rule.body)
    return tuple(found)


def emit(gen: Any, L: list, s: Any, after: tuple, ind: int) -> bool:
    """Write one of this module's statements; True when it ends its block on every path."""
    sp = s.span
    if type(s) is m.FailS:
        fail = f"fail_here({gen.template(s.message)}, {gen.const(sp)}, {gen.const(s.hint)})"
        if s.when is None:
            L.append((ind, fail, sp))
            return True
        L.append((ind, f"if {gen.ex(s.when)}:", sp))
        L.append((ind + 1, fail, sp))
        return False
    if type(s) is m.MoveMarkerS:
        zone = gen.model.zones[s.dest.zone]
        c = gen.comp.first_of_kind[s.kind]
        to = f"({gen.zone_name(s.dest)} if st.log is not None else None)"  # named only when narrated
        at = "None"  # where the marker goes, (zone, owner), when it is cheap to say
        if s.dest.owner is None:
            at = f"({s.dest.zone}, -1)"
        elif zone.per_kind is None and type(s.dest.owner) in (m.Local, m.CurrentPlayer):
            at = f"({s.dest.zone}, {gen.ex(s.dest.owner)})"
        call = (f"move_marker(st, {c}, {gen.zone(s.dest)}, {zone.ordered}, {to}, LB, "
                f"{place_table(gen)}, {gen.const(marker_zones(gen, s.kind))}, {at})")
        block = gen.kept_block  # on the way back to a choice that keeps options: from where (see kept.py)
        plan = gen.kept_plans.get(block[0]) if block is not None else None
        taken = marker_moves.emit(gen, L, c, gen.zone(s.dest), zone.ordered, at, call, ind, sp)
        if taken is not None:  # (moved in place where it was last seen, else by the call: from zone ``taken``)
            call = taken
        if plan is not None and block[1] in plan.keep and plan.markers[block[1]]:
            L.append((ind, f"if {call} in {gen.const(plan.markers[block[1]])}:", sp))
            L.append((ind + 1, "kp = None", sp))
        elif taken is None:
            L.append((ind, call, sp))
        which = gen.comp.triggers_for(set(range(len(gen.model.zones))))
        return gen.soft(L, which, after, sp, ind) if which else False
    return _tally(gen, L, s, after, ind)


def _tally(gen: Any, L: list, s: m.TallyS, after: tuple, ind: int) -> bool:
    sp = s.span
    sheet = gen.model.sheets[s.sheet]
    counter = gen.model.counters[s.counter]
    fns = ", ".join(f"sh{s.sheet}_{i}" for i in range(len(sheet.lines)))
    rows, p, old, new = gen.var("rows"), gen.var("p"), gen.var("o"), gen.var("n")
    reads = [_reads(e) for _label, e in sheet.lines]  # the zones and the counters the sheet reads
    read = (tuple(sorted(set().union(*(r[0] for r in reads)))), tuple(sorted(set().union(*(r[1] for r in reads)))))
    L.append((ind, f"{rows} = tally_rows(st, ({fns},), {sheet.nlocals}, reset_memo, {read!r})", sp))
    labels = [label for label, _e in sheet.lines]
    L.append((ind, f"log_tally(st, {gen.const(sheet.name)}, {gen.const(labels)}, {rows})", sp))
    L.append((ind, f"for {p} in range(st.players):", sp))
    cell = f"C[{s.counter}][{p}]"
    L.append((ind + 1, f"{old} = {cell}", sp))
    L.append((ind + 1, f"{new} = {cell} = bounded({old} + sum({rows}[{p}]), {gen.const(sp)})", sp))
    if counter.doc is not None:
        secret = gen.const(counter.visibility) if counter.visibility != "public" else "None"
        L.append((ind + 1, f"if st.log is not None and {new} != {old}:", sp))
        L.append((ind + 2, f"log_counter(st.log, {gen.const(counter.name)}, {p}, {old}, {new}, False, {secret})",
                  sp))
    which = gen.comp.trigger_for_counter.get(s.counter, ())
    return gen.soft(L, which, after, sp, ind) if which else False


def places(gen: Any, e: m.PlacesIR) -> str:
    """Points by places: a module-level function (its variable lives in ``loc``)."""
    name = f"pp{next(gen.names)}"
    lines: list = []
    var = e.var + gen.off
    v = gen.var("v")
    with gen.own_scope():
        _places_lines(gen, e, lines, var, v)
    gen.helper(name, "st, loc", lines)
    return f"{name}(st, loc)"


def _places_lines(gen: Any, e: m.PlacesIR, lines: list, var: int, v: str) -> None:
    lines.append((1, f"me = {gen.ex(e.player)}", e.span))
    lines.append((1, f"pts = ({', '.join(gen.ex(p) for p in e.points)},)", e.span))
    lines.append((1, "out = []", None))
    lines.append((1, f"for {v} in {gen.iterable(e.iterable, copy=False)}:", e.span))
    lines.append((2, f"loc[{var}] = {v}", None))
    if e.cond is not None:
        lines.append((2, f"if {gen.ex(e.cond)}:", e.span))
        lines.append((3, f"out.append(({v}, {gen.ex(e.key)}))", e.span))
    else:
        lines.append((2, f"out.append(({v}, {gen.ex(e.key)}))", e.span))
    lines.append((1, f"return places_points(pts, out, me, {e.highest}, {e.share})", e.span))
