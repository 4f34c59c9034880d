"""The HTML report of ``simulate``, ``compare`` and ``sweep --report``: one self-contained page.

Each page opens with a headline (rulelang/sim/headline.py: the fairness verdict, whether B changes
who wins, the value closest to fair) and then one section per figure: the figure (inline SVG from
rulelang/sim/svg.py, the page's full width), a caption, and the table of its numbers. The
numbers are the summary's (rulelang/sim/summary.py), the comparison's rows (compare.py), the
sweep's rows (sweep.py) and the metrics (metrics.py): nothing is recomputed differently here. The
page has no script, fetches nothing, and prints (figures are kept whole on a printed page).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from rulelang.sim import headline, svg
from rulelang.sim.coverage import KIND_WORDS, CoverageRow, html_table, never_fired
from rulelang.sim.runner import GameRecord
from rulelang.sim.stats import wilson
from rulelang.sim.summary import agents_line
from rulelang.wording import players_text

CSS = """
:root{color-scheme:light}
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:75rem;padding:0 1.5rem;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.3em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ccc}
h2.count{font-size:1.4em;margin-top:2.4em;border-bottom:3px solid #0072B2}h3{font-size:1.1em;margin-top:1.6em}
p.headline{font-size:1.15em;font-weight:600;border-left:.35em solid #0072B2;padding:.4em .8em;background:#f2f7fb}
p.meta{color:#444}
figure{margin:.6em 0}svg.chart{display:block;width:100%;height:auto}
figcaption{color:#444;font-size:.92em;margin-top:.3em}
svg .tick{fill:#444;font-size:12px}svg .axis{fill:#222}svg .panel{font-weight:600}svg .seg{font-size:12px}
div.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.5em 0;font-size:.92em}
td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
td:first-child{white-space:nowrap}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.dead td{color:#a00}tr.sig td,li.sig,.sig{color:#064;font-weight:600}
@media print{body{max-width:none;margin:0;padding:0}section{break-inside:avoid}p.headline{background:none}
div.scroll{overflow:visible}}
"""

RANK_WORDS = {1: "1st", 2: "2nd", 3: "3rd"}
MAX_RANK_ROWS = 40  # bars of the rank figure of a sweep (values times seats); past it, the table alone


def esc(text: object) -> str:
    """HTML-escaped text."""
    return html.escape(str(text))


def pct(x: float) -> str:
    """0.3612 -> '36.1%'."""
    return f"{100 * x:.1f}%"


def ordinal(k: int) -> str:
    """1 -> '1st', 12 -> '12th'."""
    return RANK_WORDS.get(k, f"{k}th") if not 10 < k % 100 < 14 else f"{k}th"


def table(head: Sequence[str], rows: Sequence[Sequence[object]], numeric: Sequence[int] = (),
          classes: Sequence[str] | None = None) -> str:
    """An HTML table (cells escaped; the columns ``numeric`` right-aligned), in a box that scrolls if it is wide."""
    def cell(tag: str, i: int, v: object) -> str:
        return f"<{tag} class=num>{esc(v)}</{tag}>" if i in numeric else f"<{tag}>{esc(v)}</{tag}>"

    body = []
    for k, r in enumerate(rows):
        cls = f' class="{classes[k]}"' if classes and classes[k] else ""
        body.append(f"<tr{cls}>" + "".join(cell("td", i, v) for i, v in enumerate(r)) + "</tr>")
    return ("<div class=scroll><table><thead><tr>" + "".join(cell("th", i, h) for i, h in enumerate(head))
            + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>")


def section(title: str, chart: str, caption: str, numbers: str) -> str:
    """One figure: heading, the chart, its caption, then the table of its numbers."""
    fig = f"<figure>{chart}<figcaption>{esc(caption)}</figcaption></figure>" if chart else ""
    return f"<section><h2>{esc(title)}</h2>{fig}{numbers}</section>"


def page(title: str, lead: str, meta: str, body: str) -> str:
    """The whole page: title, headline, what was run, the sections."""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{esc(title)}</title>'
            f"<style>{CSS}</style></head><body><header><h1>{esc(title)}</h1>"
            f'<p class="headline">{esc(lead)}</p><p class="meta">{meta}</p></header><main>{body}</main>'
            "</body></html>\n")


def interval(m: dict[str, Any], factor: float = 1.0) -> svg.Interval:
    """A moments dict of the summary (mean, ci) as a chart's interval."""
    return (factor * m["mean"], factor * m["ci"][0], factor * m["ci"][1])


def rate_interval(rate: float, ci: Sequence[float]) -> svg.Interval:
    """A share and its interval, in percent."""
    return (100 * rate, 100 * ci[0], 100 * ci[1])


def moments_row(label: str, m: dict[str, Any], digits: int = 2) -> list[object]:
    """A table row: label, mean, sd, 95% interval of the mean, min, max."""
    return [label, f"{m['mean']:.{digits}f}", f"{m['sd']:.{digits}f}",
            f"{m['ci'][0]:.{digits}f} .. {m['ci'][1]:.{digits}f}", f"{m['min']:g}", f"{m['max']:g}"]


MOMENTS_HEAD = ["", "mean", "sd", "95% interval of the mean", "min", "max"]


# --- the figures a page is made of -------------------------------------------------------------------------------

def rank_counts(records: Sequence[GameRecord], players: int) -> list[list[int]]:
    """Per seat, how many games it finished at rank 1, 2, ... ``players`` (a shared place counts at its rank)."""
    counts = [[0] * players for _ in range(players)]
    for r in records:
        for p in range(players):
            k = min(players, max(1, r.ranks[p]))
            counts[p][k - 1] += 1
    return counts


def rank_section(runs: Sequence[tuple[str, Sequence[GameRecord]]], players: int, note: str = "") -> str:
    """The rank distribution: per seat (and run), the share of games finished 1st, 2nd, ..., with Wilson intervals."""
    rows, shares, trows = [], [], []
    tallies = [(name, rank_counts(records, players), len(records)) for name, records in runs]
    for p in range(players):  # a seat's runs next to each other
        for name, counts, n in tallies:
            label = f"P{p + 1}" + (f" {name}" if name else "")
            rows.append(label)
            shares.append([c / n if n else 0.0 for c in counts[p]])
            cells: list[object] = [label]
            for c in counts[p]:
                lo, hi = wilson(c, n)
                cells.append(f"{pct(c / n if n else 0.0)} [{pct(lo)} .. {pct(hi)}]")
            trows.append(cells)
    parts = [ordinal(k) for k in range(1, players + 1)]
    chart = ""
    if len(rows) <= MAX_RANK_ROWS:
        chart = svg.stacked(rows, parts, shares, "Rank distribution by seat",
                            "For each seat, the share of games it finished in each place; numbers in the table below.")
    caption = ("Share of games each seat finished 1st, 2nd, ...; a place shared by a tie counts for each seat "
               "in it. The table gives each share with its 95% Wilson interval." + (" " + note if note else ""))
    return section("Rank distribution", chart, caption, table(["seat", *parts], trows, range(1, players + 1)))


def players_section(groups: Sequence[tuple[str, dict[int, dict[str, Any]]]], what: str = "run") -> str:
    """Win rate by player count when several counts ran: one panel per group (a run, or a setting of the options),
    each seat's win rate against the count, the fair share 1 / players dashed; '' for a single count."""
    counts = sorted({n for _, by in groups for n in by})
    if len(counts) < 2:
        return ""
    seats = [f"P{p + 1}" for p in range(max(counts))]
    panels, trows = [], []
    for name, by_count in groups:
        series = []
        for p in seats:
            cells: list[svg.Interval] = []
            for n in counts:
                s = by_count.get(n)
                cells.append(rate_interval(s["win_rate"][p], s["win_ci"][p]) if s and p in s["win_rate"] else None)
            series.append((p, cells))
        panels.append((f"{name or 'win rate by seat'} (%)", series, [100 / n for n in counts]))
        for n in counts:
            s = by_count.get(n)
            if s is not None:
                trows.append([name or "-", n, *(f"{pct(s['win_rate'][p])} [{pct(s['win_ci'][p][0])} .. "
                                                f"{pct(s['win_ci'][p][1])}]" if p in s["win_rate"] else "-"
                                                for p in seats), pct(1 / n)])
    chart = svg.lines(panels, [f"{n} players" for n in counts], "Win rate by player count",
                      "Each seat's win rate at each player count with its 95% interval; dashed: the fair share.",
                      cols=min(2, len(panels)), suffix="%", ref_label="fair share")
    head = [what, "players", *seats, "fair share"]
    if len(groups) == 1 and not groups[0][0]:  # one run: no column to name it
        head, trows = head[1:], [row[1:] for row in trows]
    numeric = range(len(head) - len(seats) - 2, len(head))
    return section("Win rate by player count", chart, "Each seat's win rate at each player count, with its 95% "
                   "Wilson interval; the dashed line is the fair share 1 / players.", table(head, trows, numeric))


def win_rows(s: dict[str, Any]) -> list[list[object]]:
    """The win rates of a summary as table rows: seat, agent, wins, rate, interval."""
    out: list[list[object]] = []
    for i, (p, rate) in enumerate(s["win_rate"].items()):
        lo, hi = s["win_ci"][p]
        out.append([p, s["agents"][i] if i < len(s["agents"]) else "", f"{s['wins'][p]:g}", pct(rate),
                    f"{pct(lo)} .. {pct(hi)}"])
    return out


def first_player_text(s: dict[str, Any]) -> str:
    """The first player's line, as in the text output (or '' for one player)."""
    clause = headline.first_player_clause(s)
    if not clause:
        return ""
    movers = {p: c for p, c in s["first_player"].get("by_seat", {}).items() if c}
    who = (f" Who went first changed from game to game: {', '.join(f'{p} {c}' for p, c in movers.items())} games."
           if len(movers) > 1 else f" {next(iter(movers))} went first in every game." if movers else "")
    return f"<p>There is {esc(clause)} over {s['first_player']['games']} games.{esc(who)}</p>"


def payoff_section(runs: Sequence[tuple[str, dict[str, Any], Sequence[GameRecord]]]) -> str:
    """The payoff distribution: a histogram per seat (and run), side by side on one scale, and the moments."""
    players = runs[0][1]["players"]
    panels, colours, trows = [], [], []
    for p in range(players):
        for j, (name, s, records) in enumerate(runs):
            label = f"P{p + 1}" + (f" {name}" if name else "")
            panels.append((label, [r.payoffs[p] for r in records]))
            colours.append(svg.colour(j if len(runs) > 1 else p))
            trows.append(moments_row(label, s["payoff"][f"P{p + 1}"], 3))
    kinds = sorted({s.get("payoff_kind", "from the ranking") for _, s, _ in runs})
    chart = svg.histograms(panels, "payoff", "Payoff distribution by seat",
                           "Histograms of each seat's payoff per game, on one scale; moments in the table below.",
                           cols=4, colours=colours)
    caption = "Payoff per game, one histogram per seat" + (" and run" if len(runs) > 1 else "") + \
        ", same bins and scale. Payoffs " + "; ".join(kinds) + "."
    return section("Payoff distribution", chart, caption, table(["seat", *MOMENTS_HEAD[1:]], trows, range(1, 6)))


def sheet_sections(runs: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """Each score sheet: every seat's mean of every line with its 95% interval (a dot plot), and the table."""
    out = []
    first = runs[0][1]
    players = first["players"]
    for sheet, lines in first["sheets"].items():
        names = list(lines)
        trows: list[list[object]] = []
        if len(runs) == 1:
            s = runs[0][1]
            series = [(f"P{p + 1}", [interval(s["sheets"][sheet][ln][f"P{p + 1}"]) for ln in names])
                      for p in range(players)]
            panels = [(sheet, series)]
            for ln in names:
                per = lines[ln]
                trows.append([ln, *(f"{per[f'P{p + 1}']['mean']:.2f} [{per[f'P{p + 1}']['ci'][0]:.2f}, "
                                    f"{per[f'P{p + 1}']['ci'][1]:.2f}]" for p in range(players)),
                              f"{per['all']['mean']:.2f}"])
            head = ["line", *(f"P{p + 1}" for p in range(players)), "all seats"]
        else:
            panels = []
            for p in range(players):
                series = []
                for name, s in runs:
                    got = s["sheets"].get(sheet, {})
                    series.append((name, [interval(got[ln][f"P{p + 1}"]) if ln in got else None for ln in names]))
                panels.append((f"P{p + 1}", series))
            for ln in names:
                cells: list[object] = [ln]
                for p in range(players):
                    for _name, s in runs:
                        m = s["sheets"].get(sheet, {}).get(ln, {}).get(f"P{p + 1}")
                        cells.append(f"{m['mean']:.2f} [{m['ci'][0]:.2f}, {m['ci'][1]:.2f}]" if m else "-")
                trows.append(cells)
            head = ["line", *(f"P{p + 1} {name}" for p in range(players) for name, _ in runs)]
        chart = svg.dots(panels, names, "mean per game", f"Score sheet {sheet}, mean of each line by seat",
                         "Each seat's mean of each line of the sheet with its 95% interval; numbers in the table.",
                         cols=min(4, len(panels)))
        out.append(section(f"Score sheet {sheet}, by seat", chart,
                           "Each seat's mean of each line over the games, with its 95% Student t interval "
                           "(whiskers).", table(head, trows, range(1, len(head)))))
    return "".join(out)


def key_section(runs: Sequence[tuple[str, dict[str, Any], Sequence[GameRecord]]]) -> str:
    """The first ranking key at the end, a histogram per seat (and run) on one scale; every key in the table."""
    first = runs[0][1]
    if not first["keys"]:
        return ""
    key = next(iter(first["keys"]))
    players = first["players"]
    panels, colours = [], []
    for p in range(players):
        for j, (name, s, records) in enumerate(runs):
            if key in s["keys"]:
                k = list(s["keys"]).index(key)
                panels.append((f"P{p + 1}" + (f" {name}" if name else ""), [r.keys[p][k] for r in records]))
                colours.append(svg.colour(j if len(runs) > 1 else p))
    trows = []
    for name, s, _ in runs:
        for kname, per in s["keys"].items():
            for p, m in per.items():
                trows.append(moments_row(f"{kname} {p}" + (f" ({name})" if name else ""), m))
    chart = svg.histograms(panels, key, f"{key} at the end, by seat",
                           f"Histograms of each seat's {key} at the end of the game; every key in the table below.",
                           cols=4, colours=colours)
    return section(f"Ranking keys: {key} at the end, by seat", chart,
                   f"{key} at the end of each game, one histogram per seat, same bins and scale. The table has every "
                   "ranking key per seat.", table(["key, seat", *MOMENTS_HEAD[1:]], trows, range(1, 6)))


def length_section(runs: Sequence[tuple[str, dict[str, Any], Sequence[GameRecord]]]) -> str:
    """Game length: one histogram per run, side by side on one scale; turns and steps in the table."""
    unit = runs[0][1].get("length_unit", "turns")
    panels = [(name or "all games", [float(r.turns) for r in records]) for name, _s, records in runs]
    colours = [svg.colour(j) for j in range(len(runs))]
    chart = svg.histograms(panels, unit, "Game length", f"Histogram of game length in {unit}; numbers below.",
                           cols=len(runs), colours=colours)
    trows = []
    for name, s, _ in runs:
        for what, label in (("turns", unit), ("steps", "steps")):
            trows.append(moments_row(f"{label}" + (f" ({name})" if name else ""), s[what]))
    return section("Game length", chart, f"Game length in {unit}, one histogram per run, same bins and scale.",
                   table(["length", *MOMENTS_HEAD[1:]], trows, range(1, 6)))


def metrics_section(m: dict[str, Any] | None, name: str = "", how: str = "") -> str:
    """The balance metrics (metrics.py) as a table, or how to get them."""
    title = "Metrics" + (f", {name}" if name else "")
    if m is None:
        return section(title, "", "", f"<p>Not measured: {esc(how)}</p>")
    rows: list[list[object]] = []
    lc, dec, br = m["lead_changes"], m["decisiveness"], m["branching"]
    rows.append(["lead changes per game", f"{lc['mean']:.2f}", f"{lc['ci'][0]:.2f} .. {lc['ci'][1]:.2f}",
                 f"leaders read {m['readings']['mean']:.1f} times a game"])
    rows.append(["drama", pct(m["drama"]["share"]), f"{pct(m['drama']['ci'][0])} .. {pct(m['drama']['ci'][1])}",
                 "games whose winner was behind after the first third"])
    rows.append(["decisiveness", pct(dec["mean"]), f"{pct(dec['ci'][0])} .. {pct(dec['ci'][1])}",
                 "the share of the game after which the winner led for good"])
    rows.append(["branching", f"{br['mean']:.2f}", f"{br['ci'][0]:.2f} .. {br['ci'][1]:.2f}",
                 f"options per decision (sd {br['sd']:.2f}, min {br['min']}, max {br['max']}), "
                 f"{br['per_game_decisions']:.1f} decisions a game"])
    rows.append(["draws", pct(m["draws"]["share"]), f"{pct(m['draws']['ci'][0])} .. {pct(m['draws']['ci'][1])}",
                 "games with a shared first place"])
    d = m["duration"]
    rows.append(["duration", f"{d['mean']:.1f} {d['unit']}", f"{d['ci'][0]:.1f} .. {d['ci'][1]:.1f}", ""])
    if "dead" in m:
        rows.append(["dead constructs", f"{m['dead']['never_fired']} of {m['dead']['constructs']}", "",
                     "never fired"])
    if "skill" in m:
        sk = m["skill"]
        for p, v in sk["seats"].items():
            rows.append([f"skill {p}", f"{v['relative']:.2f}x fair",
                         f"{v['relative_ci'][0]:.2f} .. {v['relative_ci'][1]:.2f}",
                         f"{sk['agent']} as {p} wins {pct(v['rate'])}, random elsewhere; "
                         f"{100 * v['gain']:+.1f} points over a random {p}" + (" (significant)" if v["significant"]
                                                                                else "")])
    points = sorted(br["points"].items(), key=lambda item: -item[1]["decisions"])
    extra = ""
    if points:
        extra = "<p>Options per decision at each decision point:</p>" + table(
            ["decision point", "mean", "sd", "min", "max", "decisions a game"],
            [[w, f"{pt['mean']:.2f}", f"{pt['sd']:.2f}", pt["min"], pt["max"], f"{pt['per_game_decisions']:.1f}"]
             for w, pt in points], range(1, 6))
    return section(title, "", "", table(["metric", "value", "95% interval", "what it is"], rows, (1, 2)) + extra)


def coverage_block(rows: Sequence[CoverageRow] | None, games: int, name: str = "", how: str = "") -> str:
    """Rule coverage: how many constructs fired, those that never did, then the whole table."""
    title = "Rule coverage" + (f", {name}" if name else "")
    if rows is None:
        return section(title, "", "", f"<p>Not counted: {esc(how)}</p>")
    dead = never_fired(rows)
    fired = len(rows) - len(dead)
    text = f"<p>{fired} of {len(rows)} rules, options, branches and triggers fired over {games} games."
    if dead:
        text += f" Never fired ({len(dead)}):</p><ul>" + "".join(
            f"<li>{esc(r.where)}: {esc(KIND_WORDS.get(r.kind, r.kind))} {esc(repr(r.name))}</li>"
            for r in dead) + "</ul>"
    else:
        text += " Every construct fired at least once.</p>"
    return section(title, "", "", text + "<div class=scroll>" + html_table(rows) + "</div>")


# --- the pages ---------------------------------------------------------------------------------------------------

def run_meta(s: dict[str, Any]) -> str:
    """What was run: games, file, options, players, agents, seeds."""
    opts = ", ".join(f"{k}={v}" for k, v in s["options"].items())
    return (f"{s['games']} games of <code>{esc(s['file'])}</code>" + (f" with {esc(opts)}" if opts else "")
            + f", {players_text(s['players'])}, {esc(agents_line(s['agents']))}, seeds {s['seed']}.."
            f"{s['seed'] + s['games'] - 1}. Intervals are 95%: Wilson for shares, Student t for means.")


def win_section(s: dict[str, Any]) -> str:
    """Win rate by seat with the fair share."""
    seats = list(s["win_rate"])
    chart = svg.bars(seats, [("win rate", [rate_interval(s["win_rate"][p], s["win_ci"][p]) for p in seats])],
                     "win rate (%)", "Win rate by seat",
                     "Bars: each seat's win rate with its 95% interval; dashed line: the fair share.",
                     ref=(f"fair share {pct(1 / s['players'])}", 100 / s["players"]) if s["players"] > 1 else None,
                     suffix="%")
    return section("Win rate by seat", chart, "Share of games each seat won (a shared win counts 1/k for each of "
                   "the k winners), with its 95% Wilson interval; the dashed line is the fair share.",
                   table(["seat", "agent", "wins", "win rate", "95% interval"], win_rows(s), (2, 3, 4))
                   + first_player_text(s))


def simulation_report(s: dict[str, Any], records: list[GameRecord],
                      coverage: Sequence[CoverageRow] | None = None) -> str:
    """The HTML page of one simulation."""
    return page(f"{s['game']}: simulation", headline.simulation(s), run_meta(s), simulation_body(s, records, coverage))


def simulation_body(s: dict[str, Any], records: list[GameRecord], coverage: Sequence[CoverageRow] | None) -> str:
    """The sections of one simulation's page."""
    runs = [("", s, records)]
    body = win_section(s) + (rank_section([("", records)], s["players"]) if s["players"] > 1 else "")
    body += payoff_section(runs)
    body += sheet_sections([("", s)]) + key_section(runs) + length_section(runs)
    body += metrics_section(s.get("metrics"), how="run simulate with -m (--metrics) to watch the games.")
    body += coverage_block(coverage, s["games"], how="coverage was left out (--no-coverage).")
    return body


def diff_table(rows: list[dict[str, Any]]) -> str:
    """Every statistic of a comparison: A, B, B - A and its 95% interval, the significant ones marked."""
    trows, classes = [], []
    for r in rows:
        lo, hi = r["ci"]
        scale = 100 if r["unit"] == "rate" else 1
        fmt = ".1f" if r["unit"] == "rate" else ".2f"
        trows.append([f"{r['name']} {r['seat']}".strip(), f"{scale * r['a']:{fmt}}", f"{scale * r['b']:{fmt}}",
                      f"{scale * r['diff']:+{fmt}}", f"{scale * lo:+{fmt}} .. {scale * hi:+{fmt}}",
                      "yes" if r["significant"] else ""])
        classes.append("sig" if r["significant"] else "")
    return table(["statistic", "A", "B", "B - A", "95% interval", "significant"], trows, (1, 2, 3, 4), classes)


def comparison_report(a: dict[str, Any], b: dict[str, Any], rows: list[dict[str, Any]], a_name: str, b_name: str,
                      records_a: list[GameRecord], records_b: list[GameRecord],
                      coverage: tuple[Sequence[CoverageRow] | None, Sequence[CoverageRow] | None] = (None, None),
                      ) -> str:
    """The HTML page of a comparison of two runs (same seeds and agents)."""
    return page(f"{a['game']}: A against B", headline.comparison(rows), comparison_meta(a, rows, a_name, b_name),
                comparison_body(a, b, rows, records_a, records_b, coverage))


def comparison_meta(a: dict[str, Any], rows: list[dict[str, Any]], a_name: str, b_name: str) -> str:
    """What was compared: A, B, games, players, agents, seeds, and how B - A is measured."""
    paired = bool(rows and rows[0].get("paired"))
    return (f"A: <code>{esc(a_name)}</code><br>B: <code>{esc(b_name)}</code><br>{a['games']} games each, "
            f"{players_text(a['players'])}, {esc(agents_line(a['agents']))}, same seeds ({a['seed']}.."
            f"{a['seed'] + a['games'] - 1}); "
            + ("B - A is the mean of the games' differences (paired), with its 95% t interval."
               if paired else "B - A compares the runs as independent samples."))


def comparison_body(a: dict[str, Any], b: dict[str, Any], rows: list[dict[str, Any]], records_a: list[GameRecord],
                    records_b: list[GameRecord],
                    coverage: tuple[Sequence[CoverageRow] | None, Sequence[CoverageRow] | None]) -> str:
    """The sections of a comparison's page."""
    seats = [p for p in a["win_rate"] if p in b["win_rate"]]
    chart = svg.bars(seats, [(name, [rate_interval(s["win_rate"][p], s["win_ci"][p]) for p in seats])
                             for name, s in (("A", a), ("B", b))], "win rate (%)", "Win rate by seat, A and B",
                     "Bars: each seat's win rate in A and in B with 95% intervals; dashed line: the fair share.",
                     ref=(f"fair share {pct(1 / a['players'])}", 100 / a["players"]) if a["players"] > 1 else None,
                     suffix="%")
    win = [r for r in rows if r["section"] in ("win_rate", "first_player")]
    body = section("Win rate by seat", chart, "Each seat's win rate in A and in B, with its 95% Wilson interval; "
                   "the table gives B - A with its interval.", diff_table(win))
    sig = [r["sentence"] for r in rows if r["significant"]]
    body += section("Differences (B - A)", "", "", ("<ul>" + "".join(f"<li class=sig>{esc(x)}</li>" for x in sig)
                                                   + "</ul>" if sig else "<p>No difference is significant at "
                                                   "95%.</p>") + diff_table(rows)
                    + "<p>Win rates in percent; about one statistic in twenty is marked by chance when nothing "
                      "changed.</p>")
    runs = [("A", a, records_a), ("B", b, records_b)]
    if a["players"] > 1:
        body += rank_section([("A", records_a), ("B", records_b)], a["players"])
    body += payoff_section(runs)
    body += sheet_sections([("A", a), ("B", b)]) + key_section(runs) + length_section(runs)
    how = "run compare with -m (--metrics) to watch the games."
    body += metrics_section(a.get("metrics"), "A", how) + metrics_section(b.get("metrics"), "B", how)
    left_out = "coverage was left out (--no-coverage)."
    body += coverage_block(coverage[0], a["games"], "A", left_out) + coverage_block(coverage[1], b["games"], "B",
                                                                                  left_out)
    return body


def simulations_report(runs: Sequence[tuple[dict[str, Any], list[GameRecord], Sequence[CoverageRow] | None]]) -> str:
    """The HTML page of ``simulate -p 3 -p 4``: the verdict at each count, win rate by player count, then the
    sections of each count's run under its own heading."""
    first = runs[0][0]
    lead = " ".join(f"{players_text(s['players'])}: {headline.simulation(s)}" for s, _, _ in runs)
    body = players_section([("", {s["players"]: s for s, _, _ in runs})])
    for s, records, coverage in runs:
        inner = simulation_body(s, records, coverage).replace("<h2>", "<h3>").replace("</h2>", "</h3>")
        body += f"<h2 class=count>{esc(players_text(s['players']))}</h2><p>{esc(headline.simulation(s))}</p>{inner}"
    meta = run_meta(first).replace(f", {players_text(first['players'])},",
                                   ", " + ", ".join(players_text(s["players"]) for s, _, _ in runs) + " (a run each),")
    return page(f"{first['game']}: simulation", lead, meta, body)


def comparisons_report(runs: Sequence[dict[str, Any]], a_name: str, b_name: str) -> str:
    """The HTML page of ``compare -p 3 -p 4``: whether B changes who wins at each count, win rate by player count
    in A and in B, then each count's comparison under its own heading (``runs``: the command's, one per count)."""
    first = runs[0]["a"]
    lead = " ".join(f"{players_text(r['a']['players'])}: {headline.comparison(r['rows'])}" for r in runs)
    body = players_section([(name, {r[key]["players"]: r[key] for r in runs}) for name, key in (("A", "a"),
                                                                                               ("B", "b"))])
    for r in runs:
        inner = comparison_body(r["a"], r["b"], r["rows"], r["records_a"], r["records_b"], r["cover"])
        inner = inner.replace("<h2>", "<h3>").replace("</h2>", "</h3>")
        body += (f"<h2 class=count>{esc(players_text(r['a']['players']))}</h2>"
                 f"<p>{esc(headline.comparison(r['rows']))}</p>{inner}")
    meta = comparison_meta(first, runs[0]["rows"], a_name, b_name).replace(
        f", {players_text(first['players'])},",
        ", " + ", ".join(players_text(r["a"]["players"]) for r in runs) + " (a comparison each),")
    return page(f"{first['game']}: A against B", lead, meta, body)
