"""The standings at the end of a game written as one generated function, as a hand-written program would
write them: every seat's score sheet lines and ranking keys computed in one pass each, in locals, each number
tested against the bound where it is computed, a key that is a sheet's total added up from the lines just
computed. It computes what ``Results._standing_values`` computes from the rank and sheet functions (the same
values in the same order, so the same errors at the same places), the memos of pure definitions shared with
them (cleared by ``reset_memo`` before it is called).
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile.analysis import same, sheet_total
from rulelang.numbers import MAX_NUMBER

# Whether the standings function is written (off: the engine calls the rank and sheet functions one by one).
ONE_FUNCTION = True
# How a key that is a sheet's total reads the lines just computed (the seat's sheets: ``_p``; a test breaks it).
SHEET_TOTAL = "sum(sheets[_p][{name}].values())"
# Whether a count or total read from a zone's counts by kind (``counted_by_kind``) is written where it is read,
# not kept in a memo of its own (the counts are kept already: a memo costs more than the read).
COUNTS_UNKEPT = True


def standings_fn(gen: Any, model: m.Model) -> str | None:
    """Write ``stv(st)`` -> (per seat: sheet name -> line label -> value, per seat: the ranking keys' values),
    with ``gen``'s memos (None: not written, ONE_FUNCTION off)."""
    if not ONE_FUNCTION:
        return None
    span = model.ranking.span
    lines: list[tuple[int, str, Any]] = [(1, "sheets = []", None)]
    if model.sheets:
        lines.append((1, "for _p in range(st.players):", None))
        entries = []
        for sheet in model.sheets:
            lines.append((2, f"loc = [None] * {max(1, sheet.nlocals)}", None))
            lines.append((2, "loc[0] = _p", None))
            names = []
            for _label, e in sheet.lines:
                v = gen.var("s")
                lines.append((2, f"{v} = {_bounded(gen, e, gen.ex(e), span)}", sheet.span))
                names.append(v)
            values = ", ".join(f"{gen.const(label)}: {v}" for (label, _e), v in zip(sheet.lines, names))
            entries.append(f"{gen.const(sheet.name)}: {{{values}}}")
        lines.append((2, f"sheets.append({{{', '.join(entries)}}})", None))
    else:
        lines.append((1, "for _p in range(st.players):", None))
        lines.append((2, "sheets.append({})", None))
    lines.append((1, "rows = []", None))
    lines.append((1, "for _p in range(st.players):", None))
    lines.append((2, f"loc = [None] * {max(1, model.ranking.nlocals)}", None))
    lines.append((2, "loc[0] = _p", None))
    keys = []
    for _direction, e in model.ranking.keys:
        sheet = next((sh for sh in model.sheets if same(e, sheet_total(sh))), None)
        if sheet is not None:  # the key is a score sheet's total: the lines just computed, added up
            keys.append(_bounded(gen, e, SHEET_TOTAL.format(name=gen.const(sheet.name)), span))
        else:
            keys.append(_bounded(gen, e, gen.ex(e), span))
    lines.append((2, f"rows.append([{', '.join(keys)}])", span))
    lines.append((1, "return sheets, rows", None))
    gen.helper("stv", "st", lines)
    return "stv"



def _bounded(gen: Any, e: Any, x: str, span: Any) -> str:
    """The source ``x`` of expression ``e`` kept within the bound, as ``bounded`` keeps it: as it is when ``e`` is
    sure to be a whole number within the bound (``int_bound``: a count, say)."""
    bound = gen.int_bound(e)
    if bound is not None and bound <= MAX_NUMBER:
        return x
    return gen.bound(x, span)
