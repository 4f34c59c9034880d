"""From game records to the statistics a designer reads: win rates, keys, sheets, payoffs, length.

``summarize`` makes one JSON-ready dict; ``render_text`` and ``to_csv`` present it. A
shared win counts as 1/k of a win for each of the k winners.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from rulelang.engine.engine import Engine
from rulelang.sim.runner import GameRecord, SimJob
from rulelang.sim.stats import Moments, wilson
from rulelang.wording import players_text


def key_names(engine: Engine) -> list[str]:
    """The ranking keys' names, as the standings print them."""
    rank = engine.model.ranking
    names = []
    for i, (_direction, expr) in enumerate(rank.keys):
        counter = getattr(expr, "counter", None)
        if counter is not None:
            names.append(engine.model.counters[counter].name)
        elif i < len(rank.labels):
            names.append(rank.labels[i])
        else:
            names.append(f"key{i + 1}")
    return names


def seat(p: int) -> str:
    """Seat label: 0 -> 'P1'."""
    return f"P{p + 1}"


def moments_json(values: list[float]) -> dict[str, Any]:
    """Mean, spread and range of ``values`` with the 95% interval of the mean."""
    m = Moments.of(values)
    lo, hi = m.interval()
    return {"n": m.n, "mean": m.mean, "sd": m.sd, "min": m.lo, "max": m.hi, "ci": [lo, hi]}


def rate_json(wins: float, n: int) -> dict[str, Any]:
    """A win rate with its Wilson interval."""
    lo, hi = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "ci": [lo, hi]}


def summarize(engine: Engine, job: SimJob, records: list[GameRecord]) -> dict[str, Any]:
    """Every statistic of a run (no timings: the same games give the same dict)."""
    n, players = len(records), job.players
    wins = [0.0] * players
    for r in records:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    names = key_names(engine)
    keys: dict[str, Any] = {}
    for k, name in enumerate(names):
        per = {seat(p): moments_json([r.keys[p][k] for r in records]) for p in range(players)}
        per["all"] = moments_json([r.keys[p][k] for r in records for p in range(players)])
        keys[name] = per
    sheets: dict[str, dict[str, Any]] = {}
    if records and records[0].sheets and records[0].sheets[0]:
        for j, (sheet, line, _v) in enumerate(records[0].sheets[0]):
            per = {seat(p): moments_json([r.sheets[p][j][2] for r in records]) for p in range(players)}
            per["all"] = moments_json([r.sheets[p][j][2] for r in records for p in range(players)])
            sheets.setdefault(sheet, {})[line] = per
    payoff = {seat(p): moments_json([r.payoffs[p] for r in records]) for p in range(players)}
    losses = [sum(1 for r in records if r.payoffs[p] < 0) for p in range(players)]
    known = [r for r in records if r.first is not None]
    first_wins = sum(1 / len(r.winners) for r in known if r.first in r.winners)
    first = rate_json(first_wins, len(known))
    first["expected"] = 1 / players
    first["by_seat"] = {seat(p): sum(1 for r in known if r.first == p) for p in range(players)}
    first["significant"] = bool(known) and not first["ci"][0] <= 1 / players <= first["ci"][1]
    return {
        "game": engine.model.title, "file": job.path, "options": dict(job.options), "games": n,
        "players": players, "seed": job.seed, "agents": [str(a) for a in job.agents],
        "wins": {seat(p): wins[p] for p in range(players)},
        "win_rate": {seat(p): wins[p] / n if n else 0.0 for p in range(players)},
        "win_ci": {seat(p): list(wilson(wins[p], n)) for p in range(players)},
        "first_player": first,
        "keys": keys, "sheets": sheets, "payoff": payoff, "payoff_kind": payoff_kind(engine, players),
        "loss_rate": {seat(p): losses[p] / n if n else 0.0 for p in range(players)},
        "turns": moments_json([r.turns for r in records]),
        "length_unit": "rounds" if engine.model.rounds else "turns",
        "steps": moments_json([r.steps for r in records]),
    }


def payoff_kind(engine: Engine, players: int) -> str:
    """What the payoffs are, in words: declared (its bounds and utility) or from the ranking."""
    spec = engine.payoff_spec_for(players)
    if not spec.declared:
        return "from the ranking: (players ranked below - players ranked above) / (players - 1)"
    utility = {"zero_sum": "zero sum", "general_sum": "general sum"}.get(spec.utility, f"constant sum {spec.total}")
    return f"declared, between {spec.low} and {spec.high}, {utility}"


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def agents_line(agents: list[str]) -> str:
    """'P1 mcts:iters=50, P2-P4 random' (runs of equal agents grouped)."""
    if len(set(agents)) == 1:
        return f"{agents[0]} agents"
    parts, start = [], 0
    for i in range(1, len(agents) + 1):
        if i == len(agents) or agents[i] != agents[start]:
            who = seat(start) if i - 1 == start else f"{seat(start)}-{seat(i - 1)}"
            parts.append(f"{who} {agents[start]}")
            start = i
    return "agents " + ", ".join(parts)


def render_text(s: dict[str, Any]) -> list[str]:
    """The summary as lines a designer reads."""
    opts = "".join(f" -o {k}={v}" for k, v in s["options"].items())
    out = [f"{s['game']}: {s['games']} games, {players_text(s['players'])}, {agents_line(s['agents'])}{opts} "
           f"(seeds {s['seed']}..{s['seed'] + s['games'] - 1})", "", "Win rate by seat (95% Wilson interval):"]
    for p, rate in s["win_rate"].items():
        lo, hi = s["win_ci"][p]
        bar = "#" * round(40 * rate)
        out.append(f"  {p} wins {_pct(rate)}  [{_pct(lo)} .. {_pct(hi)}]  {bar}")
    if s["players"] == 1 and s.get("payoff_kind", "").startswith("declared"):
        for p, rate in s["loss_rate"].items():  # one player against the game: a payoff below 0 is a loss
            out.append(f"  {p} loses {_pct(rate)}, draws {_pct(1 - rate - s['win_rate'][p]).strip()}")
    f = s["first_player"]
    if f["games"] and s["players"] > 1:  # one player always moves first
        verdict = ("a significant first-player " + ("advantage" if f["rate"] > f["expected"] else "disadvantage")
                   if f["significant"] else "no significant first-player advantage")
        out += ["", f"First player wins {_pct(f['rate']).strip()} [{_pct(f['ci'][0]).strip()} .. "
                    f"{_pct(f['ci'][1]).strip()}] of {f['games']} games (fair share {_pct(f['expected']).strip()}): "
                    f"{verdict}."]
        movers = {p: c for p, c in f.get("by_seat", {}).items() if c}
        if len(movers) > 1:  # the rules pick who starts: say so, next to the win rate by seat
            shares = ", ".join(f"{p} {_pct(c / f['games']).strip()}" for p, c in movers.items())
            out.append(f"  (Who goes first changes from game to game: {shares} of games. The win rate by seat "
                       "above counts every game, whoever went first.)")
        elif movers:
            out.append(f"  ({next(iter(movers))} went first in every game.)")
    out += ["", "Ranking keys (mean +- sd):"]
    for name, per in s["keys"].items():
        cells = "  ".join(f"{p} {m['mean']:.2f} +- {m['sd']:.2f}" for p, m in per.items() if p != "all")
        out.append(f"  {name}: {cells}")
    for sheet, lines in s["sheets"].items():
        out += ["", f"Score sheet {sheet} (mean +- sd, all seats):"]
        width = max(len(line) for line in lines)
        for line, per in lines.items():
            m = per["all"]
            out.append(f"  {line:<{width}}  {m['mean']:7.2f} +- {m['sd']:.2f}  (min {m['min']:g}, max {m['max']:g})")
    out += ["", f"Payoff ({s.get('payoff_kind', 'from the ranking')}; mean +- sd):",
            "  " + "  ".join(f"{p} {m['mean']:.3f} +- {m['sd']:.3f}" for p, m in s["payoff"].items())]
    t, st, unit = s["turns"], s["steps"], s.get("length_unit", "turns")
    out += ["", f"Game length: {t['mean']:.1f} +- {t['sd']:.1f} {unit} (min {t['min']:g}, max {t['max']:g}); "
                f"{st['mean']:.1f} +- {st['sd']:.1f} steps"]
    return out


def by_player_count(runs: list[dict[str, Any]]) -> list[str]:
    """Each seat's win rate at each player count (the runs of ``simulate -p 3 -p 4``), with the fair share."""
    out = ["Win rate by player count (95% Wilson interval):"]
    for s in runs:
        cells = ", ".join(f"{p} {_pct(r).strip()} [{_pct(s['win_ci'][p][0]).strip()} .. "
                          f"{_pct(s['win_ci'][p][1]).strip()}]" for p, r in s["win_rate"].items())
        out.append(f"  {players_text(s['players'])}: {cells} (fair share {_pct(1 / s['players']).strip()})")
    return out


def csv_rows(s: dict[str, Any]) -> list[list[Any]]:
    """The summary as a long table: section, name, seat, n, mean, sd, min, max, ci_low, ci_high."""
    rows: list[list[Any]] = [["section", "name", "seat", "n", "mean", "sd", "min", "max", "ci_low", "ci_high"]]
    for p, rate in s["win_rate"].items():
        rows.append(["win_rate", "win", p, s["games"], rate, "", "", "", *s["win_ci"][p]])
    f = s["first_player"]
    rows.append(["first_player", "first player wins", "", f["games"], f["rate"], "", "", "", *f["ci"]])

    def moments(section: str, name: str, per: dict[str, Any]) -> None:
        for p, m in per.items():
            rows.append([section, name, p, m["n"], m["mean"], m["sd"], m["min"], m["max"], *m["ci"]])

    for name, per in s["keys"].items():
        moments("key", name, per)
    for sheet, lines in s["sheets"].items():
        for line, per in lines.items():
            moments("sheet", f"{sheet}: {line}", per)
    moments("payoff", "payoff", s["payoff"])
    for name in ("turns", "steps"):
        moments("length", name, {"all": s[name]})
    return rows


def to_csv(rows: list[list[Any]]) -> str:
    """CSV text of ``rows``."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()
