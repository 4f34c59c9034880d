"""Comparing two runs (A and B, same seeds and agents): each statistic's difference with its interval.

Win rates are compared with Newcombe's interval for a difference of proportions, means
with Welch's; a difference is *significant* when its 95% interval excludes zero, and
then it gets a plain sentence.
"""

from __future__ import annotations

from typing import Any

from rulelang.sim.stats import Moments, newcombe, welch


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


def render_text(a: dict[str, Any], b: dict[str, Any], rows: list[dict[str, Any]], a_name: str,
                b_name: str) -> list[str]:
    """The comparison as lines: what was compared, the table, then the significant differences."""
    out = [f"A: {a_name}", f"B: {b_name}",
           f"{a['games']} games each, same seeds ({a['seed']}..{a['seed'] + a['games'] - 1}) and agents", "",
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
