"""Sweeping an option (and the player count): the same seeds and agents at every value, every statistic and
metric per value with its interval, and which value is closest to fair (docs/simulate.md, "rulelang sweep").

``values_of`` reads ``V1,V2,...`` and integer ranges ``A..B``; ``points`` makes every combination
of the swept options and player counts; ``table`` lays the points' summaries out as rows (one
statistic, one cell per point); ``verdict`` says which point's win rates are closest to the fair share.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import attrs

from rulelang.numbers import ascii_whole

MAX_POINTS = 100  # values (combinations of values and player counts) in one sweep


class SweepError(ValueError):
    """A sweep's values that cannot be read, or too many of them."""


@attrs.frozen
class Point:
    """One value of the sweep: the options set there and the number of players (None: the game's default)."""

    options: tuple[tuple[str, str], ...]
    players: int | None
    label: str


def values_of(text: str) -> list[str]:
    """``"3,5,7"`` -> ["3", "5", "7"]; ``"2..4"`` -> ["2", "3", "4"] (whole numbers; parts may be mixed)."""
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise SweepError(f"{text!r} has an empty value: write V1,V2,... or A..B")
        if ".." in part:
            a_text, _, b_text = part.partition("..")
            try:
                a, b = ascii_whole(a_text), ascii_whole(b_text)
            except ValueError as exc:
                raise SweepError(f"the range {part!r}: {exc}") from None
            if a > b:
                raise SweepError(f"the range {part!r} is empty: write it from the smaller number, {b}..{a}")
            if b - a + 1 > MAX_POINTS:
                raise SweepError(f"the range {part!r} has {b - a + 1:,} values; a sweep takes at most {MAX_POINTS}")
            out += [str(v) for v in range(a, b + 1)]
        else:
            out.append(part)
        if len(out) > MAX_POINTS:
            raise SweepError(f"{text[:40]!r} has more than {MAX_POINTS} values, the most a sweep takes")
    if len(set(out)) != len(out):
        raise SweepError(f"{text!r} names a value twice")
    return out


def points(swept: dict[str, list[str]], fixed: dict[str, str], players: list[int] | None) -> list[Point]:
    """Every combination of the swept options' values and the player counts, in the order given."""
    names = list(swept)
    counts: list[int | None] = list(players) if players else [None]
    combos = list(itertools.product(*(swept[n] for n in names), counts))
    if len(combos) > MAX_POINTS:
        raise SweepError(f"{len(combos):,} combinations of values; a sweep takes at most {MAX_POINTS}")
    out = []
    for combo in combos:
        values, n = combo[:-1], combo[-1]
        opts = {**fixed, **dict(zip(names, values))}
        parts = [f"{k}={v}" for k, v in zip(names, values)] + ([f"{n}p"] if players and len(players) > 1 else [])
        out.append(Point(tuple(sorted(opts.items())), n, " ".join(parts) or f"{n}p"))
    return out


def _cell(value: float, ci: list[float] | None) -> dict[str, Any]:
    return {"value": value, "ci": ci}


def spread(s: dict[str, Any]) -> float:
    """Root mean square distance of the seats' win rates from the fair share 1/players."""
    fair = 1 / s["players"]
    rates = list(s["win_rate"].values())
    return math.sqrt(sum((r - fair) ** 2 for r in rates) / len(rates))


def unfair_seats(s: dict[str, Any]) -> list[str]:
    """The seats whose win rate's 95% interval excludes the fair share."""
    fair = 1 / s["players"]
    return [p for p, (lo, hi) in s["win_ci"].items() if not lo <= fair <= hi]


def table(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per statistic: section, name, seat, unit and one cell (value and 95% interval, or None) per point."""
    rows: list[dict[str, Any]] = []

    def add(section: str, name: str, seat: str, unit: str, get: Any) -> None:
        cells = []
        for s in summaries:
            try:
                cells.append(get(s))
            except KeyError:
                cells.append(None)
        if any(c is not None for c in cells):
            rows.append({"section": section, "name": name, "seat": seat, "unit": unit, "cells": cells})

    seats = max((list(s["win_rate"]) for s in summaries), key=len)
    for p in seats:
        add("win_rate", "win rate", p, "rate", lambda s, p=p: _cell(s["win_rate"][p], s["win_ci"][p]))
    add("fairness", "spread from fair share", "", "rate", lambda s: _cell(spread(s), None))
    add("first_player", "first player's win rate", "", "rate",
        lambda s: _cell(s["first_player"]["rate"], s["first_player"]["ci"]) if s["first_player"]["games"] else None)
    for name in summaries[0]["keys"]:
        add("key", name, "", "", lambda s, name=name: _cell(s["keys"][name]["all"]["mean"],
                                                            s["keys"][name]["all"]["ci"]))
    for sheet, lines in summaries[0]["sheets"].items():
        for line in lines:
            add("sheet", f"{sheet}: {line}", "", "", lambda s, sheet=sheet, line=line: _cell(
                s["sheets"][sheet][line]["all"]["mean"], s["sheets"][sheet][line]["all"]["ci"]))
    add("length", "turns", "", "", lambda s: _cell(s["turns"]["mean"], s["turns"]["ci"]))
    add("length", "steps", "", "", lambda s: _cell(s["steps"]["mean"], s["steps"]["ci"]))
    for name in ("lead_changes", "decisiveness"):
        add("metric", name.replace("_", " "), "", "rate" if name == "decisiveness" else "",
            lambda s, name=name: _cell(s["metrics"][name]["mean"], s["metrics"][name]["ci"]))
    for name in ("drama", "draws"):
        add("metric", name, "", "rate", lambda s, name=name: _cell(s["metrics"][name]["share"],
                                                                   s["metrics"][name]["ci"]))
    add("metric", "branching (game mean)", "", "", lambda s: _cell(s["metrics"]["branching"]["game_means"]["mean"],
                                                                   s["metrics"]["branching"]["ci"]))
    for p in seats:
        add("metric", "skill (x fair share)", p, "", lambda s, p=p: _cell(
            s["metrics"]["skill"]["seats"][p]["relative"], s["metrics"]["skill"]["seats"][p]["relative_ci"]))
    return rows


def verdict(labels: list[str], summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """The point closest to fair (smallest spread of win rates from the fair share) and whether any differs."""
    spreads = [spread(s) for s in summaries]
    best = min(range(len(spreads)), key=lambda i: spreads[i])
    unfair = {labels[i]: unfair_seats(s) for i, s in enumerate(summaries) if unfair_seats(s)}
    closest = f"{labels[best]} (win rates {100 * spreads[best]:.1f} points from the fair share, root mean square)"
    if not unfair:
        text = (f"No value differs significantly from the fair share: every seat's 95% interval holds it at every "
                f"value; the closest to fair is {closest}.")
    else:
        where = "; ".join(f"{label} ({', '.join(seats)})" for label, seats in unfair.items())
        text = f"Closest to fair: {closest}. A seat's win rate differs significantly from the fair share at: {where}."
        if labels[best] in unfair:
            text += " Even the closest value is significantly unfair: more values or more games may find a fairer one."
    first = [labels[i] for i, s in enumerate(summaries) if s["players"] > 1 and s["first_player"]["significant"]]
    if first:
        text += f" The first player's win rate differs significantly from the fair share at: {', '.join(first)}."
    return {"closest": labels[best], "spreads": spreads, "unfair": unfair, "first_player_unfair": first,
            "sentence": text}


def _fmt(cell: dict[str, Any] | None, unit: str) -> str:
    if cell is None:
        return "-"
    v, ci = cell["value"], cell["ci"]
    if unit == "rate":
        return f"{100 * v:.1f}%" + (f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else "")
    return f"{v:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def render_text(title: str, labels: list[str], games: int, seed: int, rows: list[dict[str, Any]],
                v: dict[str, Any]) -> list[str]:
    """The sweep as lines: one column per value, one row per statistic (95% intervals), then the verdict."""
    cells = [[_fmt(c, r["unit"]) for c in r["cells"]] for r in rows]
    names = [f"{r['name']}{' ' + r['seat'] if r['seat'] else ''}" for r in rows]
    lw = max(len(n) for n in [*names, "statistic"])
    widths = [max(len(labels[j]), *(len(c[j]) for c in cells)) for j in range(len(labels))]
    out = [f"{title}: {games} games at each of {len(labels)} values, same seeds ({seed}..{seed + games - 1}) and "
           "agents; 95% intervals (Wilson for shares, Student t for means)", "",
           "  " + f"{'statistic':<{lw}}" + "".join(f"  {label:>{w}}" for label, w in zip(labels, widths))]
    for name, row in zip(names, cells):
        out.append("  " + f"{name:<{lw}}" + "".join(f"  {c:>{w}}" for c, w in zip(row, widths)))
    out += ["", v["sentence"]]
    return out


def csv_rows(labels: list[str], rows: list[dict[str, Any]]) -> list[list[Any]]:
    """The sweep as a long table: section, name, seat, value, mean, ci_low, ci_high."""
    out: list[list[Any]] = [["section", "name", "seat", "value", "mean", "ci_low", "ci_high"]]
    for r in rows:
        for label, c in zip(labels, r["cells"]):
            if c is not None:
                out.append([r["section"], r["name"], r["seat"], label, c["value"],
                            *(c["ci"] if c["ci"] else ["", ""])])
    return out
