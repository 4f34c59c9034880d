"""The HTML page of ``sweep --report``: the value closest to fair, then each statistic against the value.

The numbers are the sweep's rows (rulelang/sim/sweep.py: one cell per value, with its interval)
and the summaries of the values (rulelang/sim/summary.py); the layout and the figures are those
of rulelang/sim/report.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulelang.sim import headline, svg
from rulelang.sim.coverage import KIND_WORDS, CoverageRow
from rulelang.sim.report import esc, interval, page, players_section, rank_section, section, table
from rulelang.sim.runner import GameRecord

PANEL_COLUMNS = 2


def cell_interval(c: dict[str, Any] | None, unit: str) -> svg.Interval:
    """A sweep cell (value, ci or None) as a chart's interval, rates in percent."""
    if c is None:
        return None
    k = 100 if unit == "rate" else 1
    lo, hi = c["ci"] if c["ci"] else (c["value"], c["value"])
    return (k * c["value"], k * lo, k * hi)


def cell_text(c: dict[str, Any] | None, unit: str) -> str:
    """A sweep cell as the table prints it."""
    if c is None:
        return "-"
    k, fmt = (100, ".1f") if unit == "rate" else (1, ".2f")
    ci = f" [{k * c['ci'][0]:{fmt}}, {k * c['ci'][1]:{fmt}}]" if c["ci"] else ""
    return f"{k * c['value']:{fmt}}{'%' if unit == 'rate' else ''}{ci}"


def rows_table(labels: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """The sweep's rows: one line per statistic, one column per value."""
    return table(["statistic", *labels], [[f"{r['name']} {r['seat']}".strip(), *(cell_text(c, r["unit"])
                                                                                 for c in r["cells"])]
                                          for r in rows], range(1, len(labels) + 1))


def fair_shares(summaries: Sequence[dict[str, Any]]) -> list[float | None]:
    """The fair share at each value, in percent."""
    return [100 / s["players"] for s in summaries]


def win_section(labels: Sequence[str], rows: Sequence[dict[str, Any]], summaries: Sequence[dict[str, Any]]) -> str:
    """Each seat's win rate against the value, the fair share dashed."""
    win = [r for r in rows if r["section"] == "win_rate"]
    series = [(r["seat"], [cell_interval(c, "rate") for c in r["cells"]]) for r in win]
    chart = svg.lines([("win rate by seat (%)", series, fair_shares(summaries))], labels,
                      "Win rate by seat at each value",
                      "Each seat's win rate at each value with its 95% interval; dashed: the fair share.",
                      cols=1, suffix="%", ref_label="fair share")
    fair = [r for r in rows if r["section"] in ("win_rate", "fairness", "first_player")]
    settings = {tuple(sorted(s["options"].items())) for s in summaries}
    if len({s["players"] for s in summaries}) > 1 and len(settings) == 1:
        chart = ""  # only the player count moves: the figure of win rate by player count below is this one
    return section("Win rate by seat at each value", chart, "Each seat's win rate at each value with its 95% "
                   "Wilson interval; the dashed line is the fair share (1 / players). The spread is the root mean "
                   "square distance of the seats' win rates from it.", rows_table(labels, fair))


def players_groups(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, dict[int, dict[str, Any]]]]:
    """The values grouped by the setting of the options, each group's summaries by player count."""
    groups: dict[tuple[tuple[str, str], ...], dict[int, dict[str, Any]]] = {}
    for s in summaries:
        groups.setdefault(tuple(sorted(s["options"].items())), {})[s["players"]] = s
    return [(" ".join(f"{k}={v}" for k, v in opts), by) for opts, by in groups.items()]


def statistics_section(labels: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """Every other statistic and metric against the value: one panel each, seats as lines."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        if r["section"] not in ("win_rate",):
            groups.setdefault((r["section"], r["name"]), []).append(r)
    panels = []
    for (_section, name), group in groups.items():
        unit = group[0]["unit"]
        panels.append((name + (" (%)" if unit == "rate" else ""),
                       [(r["seat"] or "all seats", [cell_interval(c, unit) for c in r["cells"]]) for r in group],
                       [None] * len(labels)))
    chart = svg.lines(panels, labels, "Each statistic at each value",
                      "One panel per statistic and metric: its value at each swept value with its 95% interval; "
                      "the numbers are in the table below.", cols=PANEL_COLUMNS)
    return section("Every statistic and metric at each value", chart,
                   "Each statistic's mean (or share) at each value with its 95% interval (Wilson for shares, "
                   "Student t for means); seats as lines where the statistic is per seat.", rows_table(labels, rows))


def per_seat_sections(labels: Sequence[str], summaries: Sequence[dict[str, Any]]) -> str:
    """Payoff and every score-sheet line, each seat's mean at each value with its interval."""
    seats = [f"P{p + 1}" for p in range(max(s["players"] for s in summaries))]

    def series(get: Any) -> list[tuple[str, list[svg.Interval]]]:
        out = []
        for p in seats:
            cells: list[svg.Interval] = []
            for s in summaries:
                try:
                    cells.append(interval(get(s)[p]))
                except KeyError:
                    cells.append(None)
            out.append((p, cells))
        return out

    def rows_of(name: str, ss: list[tuple[str, list[svg.Interval]]]) -> list[list[object]]:
        return [[f"{name} {p}", *(f"{c[0]:.2f} [{c[1]:.2f}, {c[2]:.2f}]" if c else "-" for c in cells)]
                for p, cells in ss]

    pay = series(lambda s: s["payoff"])
    out = section("Payoff by seat at each value", svg.lines(
        [("payoff by seat", pay, [None] * len(labels))], labels, "Payoff by seat at each value",
        "Each seat's mean payoff at each value with its 95% interval.", cols=1),
        "Each seat's mean payoff per game at each value, with its 95% Student t interval.",
        table(["statistic", *labels], rows_of("payoff", pay), range(1, len(labels) + 1)))
    first = summaries[0]
    for sheet, lines in first["sheets"].items():
        panels, trows = [], []
        for line in lines:
            ss = series(lambda s, sheet=sheet, line=line: s["sheets"][sheet][line])
            panels.append((line, ss, [None] * len(labels)))
            trows += rows_of(line, ss)
        chart = svg.lines(panels, labels, f"Score sheet {sheet} by seat at each value",
                          "One panel per line of the sheet: each seat's mean at each value with its 95% interval.",
                          cols=PANEL_COLUMNS)
        out += section(f"Score sheet {sheet}, by seat, at each value", chart,
                       "Each seat's mean of each line at each value, with its 95% Student t interval.",
                       table(["line, seat", *labels], trows, range(1, len(labels) + 1)))
    return out


def coverage_section(labels: Sequence[str], coverage: Sequence[Sequence[CoverageRow] | None]) -> str:
    """The constructs that never fired at some value, with their counts at every value."""
    if not coverage or any(c is None for c in coverage):
        return section("Rule coverage", "", "", "<p>Not counted: coverage was left out (--no-coverage).</p>")
    keys: dict[tuple[str, str, str], list[int]] = {}
    for j, rows in enumerate(coverage):
        for r in rows or ():
            keys.setdefault((r.where, r.kind, r.name), [0] * len(labels))[j] = r.count
    some = {k: v for k, v in keys.items() if 0 in v}
    never = [k for k, v in keys.items() if not any(v)]
    text = (f"<p>{len(keys)} rules, options, branches and triggers; {len(never)} never fired at any value, "
            f"{len(some) - len(never)} more never fired at some value.</p>")
    if not some:
        return section("Rule coverage", "", "", text.replace("</p>", " Every construct fired at every value.</p>"))
    trows = [[w, KIND_WORDS.get(k, k), n, *counts] for (w, k, n), counts in some.items()]
    classes = ["dead" if not any(counts) else "" for counts in some.values()]
    return section("Rule coverage", "", "", text + table(["where", "construct", "name", *labels], trows,
                                                         range(3, 3 + len(labels)), classes))


def sweep_body(labels: list[str], rows: list[dict[str, Any]], summaries: Sequence[dict[str, Any]],
               records: Sequence[Sequence[GameRecord]], coverage: Sequence[Sequence[CoverageRow] | None],
               ) -> tuple[str, str]:
    """The sections of the sweep page and the line saying what was run."""
    if not summaries:
        return win_section_rows_only(labels, rows), ""
    s0 = summaries[0]
    meta = (f"{s0['games']} games at each of {len(labels)} values of <code>{esc(s0['file'])}</code>, the same "
            f"seeds ({s0['seed']}..{s0['seed'] + s0['games'] - 1}) and agents. Intervals are 95%: Wilson for "
            "shares, Student t for means.")
    body = win_section(labels, rows, summaries) + players_section(players_groups(summaries), "options")
    body += statistics_section(labels, rows) + per_seat_sections(labels, summaries)
    by_count: dict[int, list[tuple[str, Sequence[GameRecord]]]] = {}
    for label, s, recs in zip(labels, summaries, records):
        by_count.setdefault(s["players"], []).append((label, recs))
    for n, runs in by_count.items():
        if n == 1:  # one player always finishes first
            continue
        note = f"({n} players.)" if len(by_count) > 1 else ""
        body += rank_section(runs, n, note)
    body += coverage_section(labels, coverage)
    return body, meta


def win_section_rows_only(labels: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """The sweep's table alone (no summaries given)."""
    return section("Statistics", "", "", rows_table(labels, rows))


def sweep_report(title: str, labels: list[str], rows: list[dict[str, Any]], verdict: dict[str, Any],
                 summaries: Sequence[dict[str, Any]] = (), records: Sequence[Sequence[GameRecord]] = (),
                 coverage: Sequence[Sequence[CoverageRow] | None] = ()) -> str:
    """The HTML page of a sweep: the value closest to fair, each statistic against the value, the tables."""
    body, meta = sweep_body(labels, rows, summaries, records, coverage)
    return page(f"{title}: sweep", headline.sweep(verdict), meta, body)
