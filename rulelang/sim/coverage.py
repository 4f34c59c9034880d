"""Rule coverage: how often each rule, option of a ``choose``, answer of an ``ask``, branch of an ``if`` and
trigger fired.

The counting is the engine's (``Engine(program, coverage=True)`` keeps ``engine.coverage``,
one count per entry of ``program.constructs``); this module adds counts up across
batches, and lists, tabulates and exports them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import attrs

KIND_WORDS = {"rule": "rule", "option": "option of a choose", "answer": "answer of an ask", "branch": "branch of an if",
              "trigger": "trigger"}


@attrs.frozen
class CoverageRow:
    """One construct with its count."""

    kind: str
    name: str
    where: str  # file:line
    count: int
    per_game: float


def _where(span: Any) -> str:
    if span is None:
        return "?"
    file = getattr(span, "file", "?")
    line = getattr(span, "line", "?")
    return f"{file}:{line}"


def add_counts(a: Sequence[int] | None, b: Sequence[int] | None) -> list[int] | None:
    """Element-wise sum of two count vectors (None is no counts yet)."""
    if a is None:
        return None if b is None else list(b)
    if b is None:
        return list(a)
    if len(a) != len(b):
        raise ValueError(f"coverage vectors of different lengths ({len(a)} and {len(b)})")
    return [x + y for x, y in zip(a, b)]


def coverage_rows(constructs: Sequence[Any], counts: Sequence[int], games: int) -> list[CoverageRow]:
    """One row per construct, in the order of the program (its order in the rules files)."""
    if len(constructs) != len(counts):
        raise ValueError(f"{len(constructs)} constructs but {len(counts)} counts")
    return [CoverageRow(c.kind, c.name, _where(c.span), n, n / games if games else 0.0)
            for c, n in zip(constructs, counts)]


def never_fired(rows: Sequence[CoverageRow]) -> list[CoverageRow]:
    """The constructs that never fired."""
    return [r for r in rows if r.count == 0]


def render_text(rows: Sequence[CoverageRow], games: int) -> list[str]:
    """The listing: every construct with its count, then those that never fired."""
    if not rows:
        return ["Coverage: the rules have no rule, option, answer, branch or trigger to count."]
    fired = sum(1 for r in rows if r.count)
    out = [f"Coverage over {games} games: {fired} of {len(rows)} constructs fired."]
    width = max(len(r.where) for r in rows)
    kw = max(len(KIND_WORDS.get(r.kind, r.kind)) for r in rows)
    for r in rows:
        out.append(f"  {r.where:<{width}}  {KIND_WORDS.get(r.kind, r.kind):<{kw}}  {r.count:>9}  "
                   f"{r.per_game:9.2f}/game  {r.name}")
    dead = never_fired(rows)
    if dead:
        out += ["", f"Never fired ({len(dead)}):"]
        for r in dead:
            out.append(f"  {r.where}: {KIND_WORDS.get(r.kind, r.kind)} {r.name!r} never fired")
    else:
        out += ["", "Every construct fired at least once."]
    return out


def to_json(rows: Sequence[CoverageRow]) -> list[dict[str, Any]]:
    """The rows as JSON-ready dicts."""
    return [attrs.asdict(r) for r in rows]


def csv_rows(rows: Sequence[CoverageRow]) -> list[list[Any]]:
    """The rows as a table with a header."""
    return [["kind", "name", "where", "count", "per_game"]] + [[r.kind, r.name, r.where, r.count, r.per_game]
                                                               for r in rows]


def html_table(rows: Sequence[CoverageRow]) -> str:
    """An HTML table of the rows; constructs that never fired are marked."""
    cells = []
    for r in rows:
        cls = ' class="dead"' if r.count == 0 else ""
        cells.append(f"<tr{cls}><td>{html.escape(r.where)}</td><td>{html.escape(KIND_WORDS.get(r.kind, r.kind))}"
                     f"</td><td>{html.escape(r.name)}</td><td class=\"num\">{r.count}</td>"
                     f"<td class=\"num\">{r.per_game:.2f}</td></tr>")
    return ("<table class=\"coverage\"><thead><tr><th>where</th><th>construct</th><th>name</th>"
            "<th>count</th><th>per game</th></tr></thead><tbody>" + "".join(cells) + "</tbody></table>")
