"""Comparing two runs (A and B, same seeds and agents): each statistic's difference with its interval.

Game i of A and game i of B are played with the same seed, so the runs are *paired*:
``compare_runs`` takes each game's difference B_i - A_i and gives its mean with a
Student t interval (a difference the shared dice would otherwise drown is seen with
far fewer games). ``compare_summaries`` compares two summaries alone, as independent
samples: Newcombe's interval for win rates, Welch's for means. A difference is
*significant* when its 95% interval excludes zero, and then it gets a plain sentence.
"""

from __future__ import annotations

from typing import Any

from rulelang.sim import metrics
from rulelang.sim.runner import GameRecord
from rulelang.sim.stats import Moments, newcombe, paired, welch


def _moments(m: dict[str, Any]) -> Moments:
    return Moments(m["n"], m["mean"], m["sd"], m["min"], m["max"])


def _row(section: str, name: str, seat: str, a: float, b: float, d: tuple[float, float, float],
         unit: str) -> dict[str, Any]:
    diff, lo, hi = d
    return {"section": section, "name": name, "seat": seat, "a": a, "b": b, "diff": diff, "ci": [lo, hi],
            "significant": lo > 0 or hi < 0, "unit": unit}


def compare_summaries(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Every statistic both runs have, as rows: A's value, B's, B - A with its 95% interval."""
    rows: list[dict[str, Any]] = []
    for p in a["win_rate"]:
        if p in b["win_rate"]:
            rows.append(_row("win_rate", "win rate", p, a["win_rate"][p], b["win_rate"][p],
                             newcombe(a["wins"][p], a["games"], b["wins"][p], b["games"]), "rate"))
    fa, fb = a["first_player"], b["first_player"]
    if fa["games"] and fb["games"]:
        rows.append(_row("first_player", "first player's win rate", "", fa["rate"], fb["rate"],
                         newcombe(fa["wins"], fa["games"], fb["wins"], fb["games"]), "rate"))

    def means(section: str, name: str, pa: dict[str, Any], pb: dict[str, Any]) -> None:
        for seat in pa:
            if seat in pb:
                ma, mb = _moments(pa[seat]), _moments(pb[seat])
                rows.append(_row(section, name, "" if seat == "all" else seat, ma.mean, mb.mean, welch(ma, mb), ""))

    for name in a["keys"]:
        if name in b["keys"]:
            means("key", name, a["keys"][name], b["keys"][name])
    for sheet, lines in a["sheets"].items():
        for line, per in lines.items():
            other = b["sheets"].get(sheet, {}).get(line)
            if other is not None:
                means("sheet", f"{sheet}: {line}", {"all": per["all"]}, {"all": other["all"]})
    means("payoff", "payoff", a["payoff"], b["payoff"])
    means("length", "turns", {"all": a["turns"]}, {"all": b["turns"]})
    means("length", "steps", {"all": a["steps"]}, {"all": b["steps"]})
    for row in rows:
        row["sentence"] = sentence(row) if row["significant"] else None
    return rows


def _share(r: GameRecord, p: int | None) -> float:
    return 1 / len(r.winners) if p is not None and p in r.winners else 0.0


def compare_runs(a: dict[str, Any], b: dict[str, Any], records_a: list[GameRecord],
                 records_b: list[GameRecord]) -> list[dict[str, Any]]:
    """Every statistic both runs have, paired game by game (same seeds): A, B, mean of B_i - A_i, interval.

    Falls back to :func:`compare_summaries` when the games are not the same seeds.
    """
    if [r.seed for r in records_a] != [r.seed for r in records_b] or len(records_a) < 2:
        return compare_summaries(a, b)
    rows: list[dict[str, Any]] = []

    def add(section: str, name: str, seat: str, fa: Any, fb: Any, unit: str = "",
            ra: list[GameRecord] = records_a, rb: list[GameRecord] = records_b) -> None:
        va, vb = [float(fa(r)) for r in ra], [float(fb(r)) for r in rb]
        if len(va) < 2:
            return
        rows.append(_row(section, name, seat, sum(va) / len(va), sum(vb) / len(vb), paired(va, vb), unit))

    seats = [p for p in range(a["players"]) if p < b["players"]]
    for p in seats:
        add("win_rate", "win rate", f"P{p + 1}", lambda r, p=p: _share(r, p), lambda r, p=p: _share(r, p), "rate")
    both = [(x, y) for x, y in zip(records_a, records_b) if x.first is not None and y.first is not None]
    add("first_player", "first player's win rate", "", lambda r: _share(r, r.first), lambda r: _share(r, r.first),
        "rate", [x for x, _ in both], [y for _, y in both])
    names_b = list(b["keys"])
    for k, name in enumerate(a["keys"]):
        if name not in names_b:
            continue
        kb = names_b.index(name)
        for p in seats:
            add("key", name, f"P{p + 1}", lambda r, p=p, k=k: r.keys[p][k], lambda r, p=p, kb=kb: r.keys[p][kb])
        add("key", name, "", lambda r, k=k: sum(x[k] for x in r.keys) / len(r.keys),
            lambda r, kb=kb: sum(x[kb] for x in r.keys) / len(r.keys))
    lines_a = [(s, line) for s, line, _ in records_a[0].sheets[0]] if records_a[0].sheets else []
    lines_b = [(s, line) for s, line, _ in records_b[0].sheets[0]] if records_b[0].sheets else []
    for j, line in enumerate(lines_a):
        if line in lines_b:
            jb = lines_b.index(line)
            add("sheet", f"{line[0]}: {line[1]}", "", lambda r, j=j: sum(x[j][2] for x in r.sheets) / len(r.sheets),
                lambda r, jb=jb: sum(x[jb][2] for x in r.sheets) / len(r.sheets))
    for p in seats:
        add("payoff", "payoff", f"P{p + 1}", lambda r, p=p: r.payoffs[p], lambda r, p=p: r.payoffs[p])
    add("length", "turns", "", lambda r: r.turns, lambda r: r.turns)
    add("length", "steps", "", lambda r: r.steps, lambda r: r.steps)
    if records_a[0].leaders and records_b[0].leaders:  # watched games (--metrics): the metrics, paired too
        for name, fn, unit in (("lead changes", metrics.lead_changes, ""), ("drama", metrics.dramatic, "rate"),
                               ("decisiveness", metrics.decided_at, "rate"),
                               ("branching (game mean)", metrics.mean_options, ""),
                               ("draws", lambda r: len(r.winners) > 1, "rate")):
            add("metric", name, "", fn, fn, unit)
    for row in rows:
        row["paired"] = True
        row["sentence"] = sentence(row) if row["significant"] else None
    return rows


def _fmt(x: float, unit: str) -> str:
    return f"{100 * x:.1f}%" if unit == "rate" else f"{x:.2f}"


def _signed(x: float, unit: str) -> str:
    return f"{100 * x:+.1f} points" if unit == "rate" else f"{x:+.2f}"


def sentence(row: dict[str, Any]) -> str:
    """A plain sentence for a significant difference."""
    unit = row["unit"]
    more = row["diff"] > 0
    lo, hi = row["ci"]
    ci = f"95% CI {_signed(lo, unit)} to {_signed(hi, unit)}".replace(" points to", " to")
    values = f"{_fmt(row['b'], unit)} in B against {_fmt(row['a'], unit)} in A ({_signed(row['diff'], unit)}, {ci})"
    section, name, seat = row["section"], row["name"], row["seat"]
    if section == "win_rate":
        return f"{seat} wins {'more' if more else 'less'} often in B: {values}."
    if section == "first_player":
        return f"The first player wins {'more' if more else 'less'} often in B: {values}."
    if section == "length":
        return f"Games are {'longer' if more else 'shorter'} in B ({name}): {values}."
    who = f" for {seat}" if seat else ""
    return f"{name}{who} is {'higher' if more else 'lower'} in B: {values}."


def _payoff_line(a: dict[str, Any], b: dict[str, Any]) -> str:
    """Which payoffs the payoff rows compare: declared or from the ranking, in A and in B."""
    ka, kb = a.get("payoff_kind", "from the ranking"), b.get("payoff_kind", "from the ranking")
    return f"payoffs {ka}" if ka == kb else f"payoffs in A {ka}; in B {kb}"


def render_text(a: dict[str, Any], b: dict[str, Any], rows: list[dict[str, Any]], a_name: str,
                b_name: str) -> list[str]:
    """The comparison as lines: what was compared, the table, then the significant differences."""
    out = [f"A: {a_name}", f"B: {b_name}",
           f"{a['games']} games each, same seeds ({a['seed']}..{a['seed'] + a['games'] - 1}) and agents"
           + ("; B - A is the mean of the differences game by game" if rows and rows[0].get("paired") else
              "; B - A compares the runs as independent samples"),
           _payoff_line(a, b), "",
           f"  {'statistic':<40} {'A':>9} {'B':>9} {'B - A':>10}  95% interval"]
    for r in rows:
        label = f"{r['name']}{' ' + r['seat'] if r['seat'] else ''}"
        mark = "  *" if r["significant"] else ""
        lo, hi = r["ci"]
        if r["unit"] == "rate":
            out.append(f"  {label:<40} {100 * r['a']:8.1f}% {100 * r['b']:8.1f}% {100 * r['diff']:+9.1f}  "
                       f"[{100 * lo:+.1f}, {100 * hi:+.1f}]{mark}")
        else:
            out.append(f"  {label:<40} {r['a']:9.2f} {r['b']:9.2f} {r['diff']:+10.2f}  [{lo:+.2f}, {hi:+.2f}]{mark}")
    significant = [r["sentence"] for r in rows if r["significant"]]
    out.append("")
    if significant:
        out.append("Significant differences (95% interval excludes zero, marked *):")
        out += [f"  {s}" for s in significant]
    else:
        out.append("No difference is significant at 95%: more games may show one, or there is none to find.")
    return out


def csv_rows(rows: list[dict[str, Any]]) -> list[list[Any]]:
    """The comparison as a table with a header."""
    head = ["section", "name", "seat", "a", "b", "diff", "ci_low", "ci_high", "significant"]
    return [head] + [[r["section"], r["name"], r["seat"], r["a"], r["b"], r["diff"], *r["ci"], r["significant"]]
                     for r in rows]
