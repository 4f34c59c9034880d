"""One self-contained HTML page of a simulation or a comparison, with plots as inline SVG (matplotlib).

Needs the optional extra ``rulelang[report]`` (matplotlib); no script, no external file.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import Any

from rulelang.sim.coverage import CoverageRow, html_table
from rulelang.sim.runner import GameRecord
from rulelang.wording import players_text

REPORT_NEEDED = "--report needs matplotlib: pip install 'rulelang[report]'"

CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}tr.dead td{color:#a00}
pre.metrics{white-space:pre-wrap}
.sig{color:#064;font-weight:600}.plots{display:flex;flex-wrap:wrap;gap:1em}.plots svg{max-width:100%;height:auto}
"""


class ReportUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ReportUnavailable(REPORT_NEEDED) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"
    plt.rcParams["svg.hashsalt"] = "rulelang"
    return plt


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    _plt().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _win_plot(summaries: Sequence[tuple[str, dict[str, Any]]]) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.2))
    seats = list(summaries[0][1]["win_rate"])
    width = 0.8 / len(summaries)
    for j, (name, s) in enumerate(summaries):
        xs = [i + (j - (len(summaries) - 1) / 2) * width for i in range(len(seats))]
        rates = [100 * s["win_rate"][p] for p in seats]
        lo = [r - 100 * s["win_ci"][p][0] for r, p in zip(rates, seats)]
        hi = [100 * s["win_ci"][p][1] - r for r, p in zip(rates, seats)]
        ax.bar(xs, rates, width, yerr=[lo, hi], capsize=4, label=name)
    ax.axhline(100 / len(seats), color="grey", linestyle=":", linewidth=1, label="fair share")
    ax.set_xticks(range(len(seats)), seats)
    ax.set_ylabel("win rate (%), 95% interval")
    ax.set_title("Win rate by seat")
    ax.legend(fontsize="small")
    return _svg(fig)


def _hist(title: str, xlabel: str, series: Sequence[tuple[str, list[float]]]) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.2))
    values = [v for _, vs in series for v in vs]
    lo, hi = (min(values), max(values)) if values else (0, 1)
    bins = min(30, max(1, int(hi - lo) + 1)) if float(lo).is_integer() and float(hi).is_integer() else 20
    for name, vs in series:
        if len(series) > 1:  # outlines, so that the series stay readable where they overlap
            ax.hist(vs, bins=bins, range=(lo, hi + (1 if lo == hi else 0)), histtype="step", linewidth=1.6,
                    label=name)
        else:
            ax.hist(vs, bins=bins, range=(lo, hi + (1 if lo == hi else 0)), alpha=0.7, label=name)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    if len(series) > 1:
        ax.legend(fontsize="small")
    return _svg(fig)


def _stats_table(s: dict[str, Any]) -> str:
    rows = []
    for p, rate in s["win_rate"].items():
        lo, hi = s["win_ci"][p]
        rows.append(f"<tr><td>{p}</td><td>{html.escape(s['agents'][int(p[1:]) - 1])}</td>"
                    f"<td class=num>{100 * rate:.1f}%</td><td class=num>{100 * lo:.1f}% .. {100 * hi:.1f}%</td>"
                    f"<td class=num>{s['payoff'][p]['mean']:.3f}</td></tr>")
    table = ("<table><thead><tr><th>seat</th><th>agent</th><th>win rate</th><th>95% interval</th>"
             "<th>payoff</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
    keys = []
    for name, per in s["keys"].items():
        for p, m in per.items():
            keys.append(f"<tr><td>{html.escape(name)}</td><td>{p}</td><td class=num>{m['mean']:.2f}</td>"
                        f"<td class=num>{m['sd']:.2f}</td><td class=num>{m['min']:g}</td>"
                        f"<td class=num>{m['max']:g}</td></tr>")
    for sheet, lines in s["sheets"].items():
        for line, per in lines.items():
            m = per["all"]
            keys.append(f"<tr><td>{html.escape(sheet)}: {html.escape(line)}</td><td>all</td>"
                        f"<td class=num>{m['mean']:.2f}</td><td class=num>{m['sd']:.2f}</td>"
                        f"<td class=num>{m['min']:g}</td><td class=num>{m['max']:g}</td></tr>")
    for name in ("turns", "steps"):
        m = s[name]
        keys.append(f"<tr><td>game length ({name})</td><td>all</td><td class=num>{m['mean']:.2f}</td>"
                    f"<td class=num>{m['sd']:.2f}</td><td class=num>{m['min']:g}</td>"
                    f"<td class=num>{m['max']:g}</td></tr>")
    table += ("<table><thead><tr><th>statistic</th><th>seat</th><th>mean</th><th>sd</th><th>min</th>"
              "<th>max</th></tr></thead><tbody>" + "".join(keys) + "</tbody></table>")
    return table


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>{body}</body></html>\n")


def _first_line(s: dict[str, Any]) -> str:
    f = s["first_player"]
    if not f["games"]:
        return ""
    verdict = "significantly different from" if f["significant"] else "not significantly different from"
    return (f"<p>The first player won {100 * f['rate']:.1f}% (95% interval {100 * f['ci'][0]:.1f}% .. "
            f"{100 * f['ci'][1]:.1f}%) of {f['games']} games: {verdict} the fair share "
            f"{100 * f['expected']:.1f}%.</p>")


def simulation_report(s: dict[str, Any], records: list[GameRecord],
                      coverage: Sequence[CoverageRow] | None = None) -> str:
    """The HTML page of one simulation."""
    opts = ", ".join(f"{k}={v}" for k, v in s["options"].items())
    with_opts = " with " + html.escape(opts) if opts else ""
    head = (f"<p>{s['games']} games of <code>{html.escape(s['file'])}</code>{with_opts}"
            f", {players_text(s['players'])}, seeds {s['seed']}..{s['seed'] + s['games'] - 1}.</p>")
    first_key = next(iter(s["keys"]), None)
    plots = [_win_plot([("this run", s)]),
             _hist("Game length", s.get("length_unit", "turns"), [("turns", [float(r.turns) for r in records])])]
    if first_key is not None:
        plots.append(_hist(f"{first_key} at the end, by seat", first_key,
                           [(f"P{p + 1}", [float(r.keys[p][0]) for r in records]) for p in range(s["players"])]))
    body = head + _first_line(s) + "<h2>Plots</h2><div class=plots>" + "".join(plots) + "</div>"
    body += "<h2>Statistics</h2>" + _stats_table(s)
    if "metrics" in s:
        body += "<h2>Metrics</h2>" + _metrics_table(s["metrics"])
    if coverage is not None:
        body += "<h2>Rule coverage</h2>" + html_table(coverage)
    return _page(f"{s['game']}: simulation", body)


def comparison_report(a: dict[str, Any], b: dict[str, Any], rows: list[dict[str, Any]], a_name: str, b_name: str,
                      records_a: list[GameRecord], records_b: list[GameRecord]) -> str:
    """The HTML page of a comparison of two runs."""
    head = (f"<p>A: <code>{html.escape(a_name)}</code><br>B: <code>{html.escape(b_name)}</code><br>"
            f"{a['games']} games each, same seeds and agents.</p>")
    sig = [r["sentence"] for r in rows if r["significant"]]
    head += ("<ul>" + "".join(f"<li class=sig>{html.escape(x)}</li>" for x in sig) + "</ul>") if sig else \
        "<p>No difference is significant at 95%.</p>"
    plots = [_win_plot([("A", a), ("B", b)]),
             _hist("Game length", "turns", [("A", [float(r.turns) for r in records_a]),
                                            ("B", [float(r.turns) for r in records_b])])]
    first_key = next(iter(a["keys"]), None)
    if first_key is not None and first_key in b["keys"]:
        plots.append(_hist(f"{first_key} at the end, all seats", first_key,
                           [("A", [float(k[0]) for r in records_a for k in r.keys]),
                            ("B", [float(k[0]) for r in records_b for k in r.keys])]))
    table = []
    for r in rows:
        lo, hi = r["ci"]
        scale = 100 if r["unit"] == "rate" else 1
        cls = " class=sig" if r["significant"] else ""
        table.append(f"<tr{cls}><td>{html.escape(r['name'])} {r['seat']}</td><td class=num>{scale * r['a']:.2f}</td>"
                     f"<td class=num>{scale * r['b']:.2f}</td><td class=num>{scale * r['diff']:+.2f}</td>"
                     f"<td class=num>{scale * lo:+.2f} .. {scale * hi:+.2f}</td></tr>")
    body = head + "<h2>Plots</h2><div class=plots>" + "".join(plots) + "</div><h2>Differences (B - A)</h2>"
    body += ("<table><thead><tr><th>statistic</th><th>A</th><th>B</th><th>B - A</th><th>95% interval</th></tr>"
             "</thead><tbody>" + "".join(table) + "</tbody></table><p>Win rates in percent.</p>")
    return _page(f"{a['game']}: A against B", body)


def _metrics_table(m: dict[str, Any]) -> str:
    """The balance metrics as a table (docs/simulate.md, "Metrics")."""
    from rulelang.sim.metrics import render_text

    lines = render_text(m)
    return "<pre class=metrics>" + html.escape("\n".join(lines)) + "</pre>"


def _line_plot(title: str, labels: list[str], series: Sequence[tuple[str, list[dict[str, Any] | None]]],
               unit: str) -> str:
    """One statistic against the swept value: a line per series, 95% intervals as error bars."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.2))
    scale = 100 if unit == "rate" else 1
    for name, cells in series:
        xs = [i for i, c in enumerate(cells) if c is not None]
        ys = [scale * cells[i]["value"] for i in xs]  # type: ignore[index]
        lo = [y - scale * cells[i]["ci"][0] if cells[i]["ci"] else 0.0 for y, i in zip(ys, xs)]  # type: ignore[index]
        hi = [scale * cells[i]["ci"][1] - y if cells[i]["ci"] else 0.0 for y, i in zip(ys, xs)]  # type: ignore[index]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=name or None)
    ax.set_xticks(range(len(labels)), labels, rotation=30 if len(labels) > 6 else 0)
    ax.set_title(title)
    ax.set_ylabel("%" if unit == "rate" else "")
    if len(series) > 1:
        ax.legend(fontsize="small")
    return _svg(fig)


def sweep_report(title: str, labels: list[str], rows: list[dict[str, Any]], verdict: dict[str, Any]) -> str:
    """The HTML page of a sweep: a plot of each statistic against the value (seats as lines), and the table."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["section"], r["name"]), []).append(r)
    plots = [_line_plot(name, labels, [(r["seat"], r["cells"]) for r in group], group[0]["unit"])
             for (_section, name), group in groups.items()]
    head = f"<p class=sig>{html.escape(verdict['sentence'])}</p>"
    table = []
    for r in rows:
        cells = []
        for c in r["cells"]:
            if c is None:
                cells.append("<td class=num>-</td>")
                continue
            scale = 100 if r["unit"] == "rate" else 1
            ci = f" [{scale * c['ci'][0]:.2f}, {scale * c['ci'][1]:.2f}]" if c["ci"] else ""
            cells.append(f"<td class=num>{scale * c['value']:.2f}{ci}</td>")
        table.append(f"<tr><td>{html.escape(r['name'])} {r['seat']}</td>{''.join(cells)}</tr>")
    body = head + "<h2>Plots</h2><div class=plots>" + "".join(plots) + "</div><h2>Statistics</h2>"
    body += ("<table><thead><tr><th>statistic</th>" + "".join(f"<th>{html.escape(v)}</th>" for v in labels)
             + "</tr></thead><tbody>" + "".join(table) + "</tbody></table><p>Rates in percent, 95% intervals.</p>")
    return _page(f"{title}: sweep", body)
