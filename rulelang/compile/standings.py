"""The standings at the end of a game written as one generated function, as a hand-written program would
write them: every seat's score sheet lines and ranking keys computed in one pass each, in locals, each number
tested against the bound where it is computed, a key that is a sheet's total added up from the lines just
computed. It computes what ``Results._standing_values`` computes from the rank and sheet functions (the same
values in the same order, so the same errors at the same places), the memos of pure definitions shared with
them (cleared by ``reset_memo`` before it is called).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.analysis import canonical, same, sheet_total
from rulelang.numbers import MAX_NUMBER

# Whether the standings function is written (off: the engine calls the rank and sheet functions one by one).
ONE_FUNCTION = True
# How a key that is a sheet's total reads the lines just computed (the seat's sheets: ``{p}``; a test breaks it).
SHEET_TOTAL = "{tot}[{p}]"
# Whether the seat is read from the loop's variable (a seat: its zones read without a check) and the counts by
# kind of each of its zones that the lines read are worked out once, at the start of the seat.
SEAT_LOCALS = True
# Whether a pure total, count or best of the standings that is computed at most once per values of the locals
# it reads (``evaluated_once``) is written without a memo (a memo that is never read again only costs).
ONCE_UNKEPT = True
# Whether a count or total read from a zone's counts by kind (``counted_by_kind``) is written where it is read,
# not kept in a memo of its own (the counts are kept already: a memo costs more than the read).
COUNTS_UNKEPT = True


def standings_fn(gen: Any, model: m.Model) -> str | None:
    """Write ``stv(st)`` -> (per seat: sheet name -> line label -> value, per seat: the ranking keys' values),
    with ``gen``'s memos (None: not written, ONE_FUNCTION off)."""
    if not ONE_FUNCTION:
        return None
    span = model.ranking.span
    sheets, rows, p = gen.var("sheets"), gen.var("rows"), gen.var("p")
    # The keys that are a sheet's total (as the engine finds them: the first sheet whose total the key is, its
    # lines then read by the sheet's name) -> the list of that total per seat.
    totalled: dict[str, str] = {}
    for _direction, e in model.ranking.keys:
        sheet = next((sh for sh in model.sheets if same(e, sheet_total(sh))), None)
        if sheet is not None and sheet.name not in totalled:
            totalled[sheet.name] = gen.var("tot")
    lines: list[tuple[int, str, Any]] = [(1, f"{sheets} = []", None)]
    lines += [(1, f"{tot} = []", None) for tot in totalled.values()]
    lines.append((1, f"for {p} in range(st.players):", None))
    entries = []
    by_name: dict[str, list[str]] = {}
    with _Seat(gen, p) as seat:
        for sheet in model.sheets:
            lines.append((2, f"loc = [None] * {max(1, sheet.nlocals)}", None))
            lines.append((2, f"loc[0] = {p}", None))
            at = len(lines)
            kept: dict[str, str] = {}  # label -> its value (a later line of the same label takes its place)
            for label, e in sheet.lines:
                v = gen.var("s")
                lines.append((2, f"{v} = {_bounded(gen, e, gen.ex(e), span)}", sheet.span))
                kept[label] = v
            lines[at:at] = seat.counts()
            by_name[sheet.name] = list(kept.values())  # (a later sheet of the same name takes its place)
            values = ", ".join(f"{gen.const(label)}: {v}" for label, v in kept.items())
            entries.append(f"{gen.const(sheet.name)}: {{{values}}}")
    for name, tot in totalled.items():  # what the sheet's dictionary of lines adds up to
        lines.append((2, f"{tot}.append(sum(({''.join(v + ', ' for v in by_name[name])})))", None))
    lines.append((2, f"{sheets}.append({{{', '.join(entries)}}})", None))
    lines.append((1, f"{rows} = []", None))
    lines.append((1, f"for {p} in range(st.players):", None))
    lines.append((2, f"loc = [None] * {max(1, model.ranking.nlocals)}", None))
    lines.append((2, f"loc[0] = {p}", None))
    keys = []
    with _Seat(gen, p) as seat:
        for _direction, e in model.ranking.keys:
            sheet = next((sh for sh in model.sheets if same(e, sheet_total(sh))), None)
            if sheet is not None:  # the key is a score sheet's total: the lines just computed, added up
                keys.append(_bounded(gen, e, SHEET_TOTAL.format(tot=totalled[sheet.name], p=p), span))
            else:
                keys.append(_bounded(gen, e, gen.ex(e), span))
        lines += seat.counts()
    lines.append((2, f"{rows}.append([{', '.join(keys)}])", span))
    lines.append((1, f"return {sheets}, {rows}", None))
    gen.helper("stv", "st", lines)
    return "stv"


def _bounded(gen: Any, e: Any, x: str, span: Any) -> str:
    """The source ``x`` of expression ``e`` kept within the bound, as ``bounded`` keeps it: as it is when ``e`` is
    sure to be a whole number within the bound (``int_bound``: a count, say)."""
    bound = gen.int_bound(e)
    if bound is not None and bound <= MAX_NUMBER:
        return x
    return gen.bound(x, span)


class _Seat:
    """Context manager: the expressions written inside read the seat (slot 0) from the loop's variable ``p``
    and, for each zone of the seat counted by kind, its counts from one variable (SEAT_LOCALS; see
    ``QueryWriter.seat_counted``); ``counts()``: the lines that compute those, to write before the first read
    (a zone of a seat and its counts cannot fail to be read: computed earlier, the same values, no error)."""

    def __init__(self, gen: Any, p: str) -> None:
        self.gen, self.p = gen, p
        self.read: dict[int, str] = {}
        self.taken = 0

    def __enter__(self) -> _Seat:
        if SEAT_LOCALS:
            gen = self.gen
            self.saved = (gen.loop_vars.get(0), gen.seat_counts, self.p in gen.cse_ids)
            gen.loop_vars[0] = self.p
            gen.cse_ids.add(self.p)
            gen.seat_counts = (self.p, self.read)
        return self

    def counts(self) -> list[tuple[int, str, Any]]:
        """The lines computing the counts first read since the last call."""
        new = list(self.read.items())[self.taken:]
        self.taken = len(self.read)
        return [(2, f"{v} = kind_counts(Z[{z}][{self.p}])", None) for z, v in new]

    def __exit__(self, *exc: object) -> None:
        if SEAT_LOCALS:
            gen = self.gen
            var, gen.seat_counts, had = self.saved
            if var is None:
                del gen.loop_vars[0]
            else:
                gen.loop_vars[0] = var
            if not had:
                gen.cse_ids.discard(self.p)


def evaluated_once(model: m.Model) -> frozenset[Any] | None:
    """The memo forms (``canonical`` with names) of the pure totals, counts and bests of the standings that are
    computed at most once per values of the locals they read, within one standings and the payoffs after it:
    met once in the sheet lines, the keys that are not a sheet's total and the payoff, and reading the seat
    and every variable of the totals around them (each of those values comes once: a seat's lines and keys are
    computed once per seat, the values of a range differ). A memo of one of them would never be read again
    (None: ONCE_UNKEPT off). Whether a value is kept or computed again never changes it (the definitions are
    pure): a form wrongly left out here only costs time."""
    if not ONCE_UNKEPT:
        return None
    met: Counter[Any] = Counter()
    repeated: set[Any] = set()

    def walk(e: Any, around: frozenset[int]) -> None:
        t = type(e)
        if t in (m.Gen, m.Agg, m.PlacesIR):
            free: list[int] = []
            canonical(e, frozenset(), free)
            form = canonical(e, frozenset(), [], {})
            met[form] += 1
            if not around <= set(free):  # computed again for other values of a variable it does not read
                repeated.add(form)
        if t is m.Gen:
            walk(e.iterable, around)
            walk(e.expr, around | {e.var})
            walk(e.cond, around | {e.var})
        elif t is m.PlacesIR:
            for part in (e.points, e.player, e.iterable):
                walk(part, around)
            walk(e.key, around | {e.var})
            walk(e.cond, around | {e.var})
        elif isinstance(e, (tuple, list)):
            for x in e:
                walk(x, around)
        elif attrs.has(t):
            for f in attrs.fields(t):
                if f.name != "span":
                    walk(getattr(e, f.name), around)

    seat = frozenset({0})
    for sheet in model.sheets:
        for _label, e in sheet.lines:
            walk(e, seat)
    for _direction, e in model.ranking.keys:
        if not any(same(e, sheet_total(sh)) for sh in model.sheets):  # (a sheet's total: its lines added up)
            walk(e, seat)
    if model.payoff is not None:
        walk(model.payoff.expr, seat)
    return frozenset(form for form, n in met.items() if n == 1 and form not in repeated)


def seat_kept(model: m.Model) -> bool:
    """Whether no range of the standings (sheet lines, keys, payoff) binds local slot 0, the seat's: then every
    function they call finds the seat there (SEAT_LOCALS; False when off)."""
    if not SEAT_LOCALS:
        return False
    exprs = [e for sheet in model.sheets for _label, e in sheet.lines] + [e for _d, e in model.ranking.keys]
    if model.payoff is not None:
        exprs.append(model.payoff.expr)

    def binds(e: Any) -> bool:
        if isinstance(e, (tuple, list)):
            return any(binds(x) for x in e)
        if not attrs.has(type(e)):
            return False
        if type(e) in (m.Gen, m.PlacesIR) and e.var == 0:
            return True
        return any(binds(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span")

    return not binds(exprs)
