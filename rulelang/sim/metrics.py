"""Balance metrics of a run (docs/simulate.md, "Metrics"): lead changes, drama, decisiveness, branching,
draws, duration, first player, dead constructs, and skill (restricted play).

They are read from watched games (``SimJob(metrics=True)``: ``GameRecord.leaders`` and
``GameRecord.branching``), so they depend only on the records: the same seeds give the
same metrics for any number of processes. Shares carry Wilson's interval, means
Student's t interval of the mean over games (each game one sample).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from rulelang.agents.spec import AgentSpec
from rulelang.sim.runner import GameRecord, SimJob
from rulelang.sim.stats import Moments, paired
from rulelang.sim.summary import moments_json, rate_json, seat

POINTS_SHOWN = 8  # decision points listed in the text, those with the most decisions first


def lead_changes(r: GameRecord) -> int:
    """How often the set of seats ranked first differs from its value at the previous reading."""
    return sum(1 for a, b in zip(r.leaders, r.leaders[1:]) if a != b)


def _winners_lead(r: GameRecord, leaders: tuple[int, ...]) -> bool:
    return all(w in leaders for w in r.winners)


def dramatic(r: GameRecord) -> bool:
    """Whether a winner was not ranked first at some reading k > T/3 (T readings, the last the final one)."""
    t = len(r.leaders)
    return any(not _winners_lead(r, lead) for k, lead in enumerate(r.leaders, 1) if 3 * k > t)


def decided_at(r: GameRecord) -> float:
    """k*/T: the share of the game played when the winners were ranked first at every reading from k* on."""
    t = len(r.leaders)
    k = t
    while k > 1 and _winners_lead(r, r.leaders[k - 2]):
        k -= 1
    return k / t if t else 1.0


def mean_options(r: GameRecord) -> float:
    """The game's mean number of options per decision (0 without a decision)."""
    n = sum(c for _, _, c in r.branching)
    return sum(k * c for _, k, c in r.branching) / n if n else 0.0


def _options_json(hist: dict[int, int], per_game: list[float], games: int) -> dict[str, Any]:
    """Options per decision from a histogram (options -> decisions) and each game's mean options per decision."""
    total = sum(hist.values())
    mean = sum(k * c for k, c in hist.items()) / total if total else 0.0
    var = sum(c * (k - mean) ** 2 for k, c in hist.items()) / (total - 1) if total > 1 else 0.0
    lo, hi = Moments.of(per_game).interval()
    return {"decisions": total, "per_game_decisions": total / games if games else 0.0,
            "mean": mean, "sd": math.sqrt(var), "min": min(hist) if hist else 0, "max": max(hist) if hist else 0,
            "ci": [lo, hi], "histogram": {str(k): hist[k] for k in sorted(hist)}}


def branching_json(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Options per decision: pooled over every decision (mean, sd, min, max, histogram), with the t interval of
    the mean over games of each game's mean options per decision; the same per decision point (``points``,
    by the ``file:line`` of the choose or ask; its interval over the games that reached it)."""
    hist: dict[int, int] = {}
    per_game = []
    points: dict[str, tuple[dict[int, int], list[float]]] = {}
    for r in records:
        n = sum(c for _, _, c in r.branching)
        if n:
            per_game.append(sum(k * c for _, k, c in r.branching) / n)
        mine: dict[str, list[int]] = {}
        for where, k, c in r.branching:
            hist[k] = hist.get(k, 0) + c
            point = points.setdefault(where, ({}, []))[0]
            point[k] = point.get(k, 0) + c
            tally = mine.setdefault(where, [0, 0])
            tally[0] += c
            tally[1] += k * c
        for where, (count, options) in mine.items():
            points[where][1].append(options / count)
    out = _options_json(hist, per_game, len(records))
    out["game_means"] = moments_json(per_game)
    out["points"] = {where: _options_json(h, means, len(records)) for where, (h, means) in sorted(points.items())}
    return out


def compute(summary: dict[str, Any], records: Sequence[GameRecord],
            coverage: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every metric of watched ``records`` (the run's ``summary`` gives duration and first player)."""
    n = len(records)
    drama = sum(1 for r in records if dramatic(r))
    draws = sum(1 for r in records if len(r.winners) > 1)
    out: dict[str, Any] = {
        "readings": moments_json([len(r.leaders) for r in records]),
        "lead_changes": moments_json([lead_changes(r) for r in records]),
        "drama": rate_json(drama, n),
        "decisiveness": moments_json([decided_at(r) for r in records]),
        "branching": branching_json(records),
        "draws": rate_json(draws, n),
        "duration": {**summary["turns"], "unit": summary.get("length_unit", "turns")},
        "first_player": summary["first_player"],
    }
    for key in ("drama", "draws"):
        out[key] = {"share" if k == "rate" else "count" if k == "wins" else k: v for k, v in out[key].items()}
    if coverage is not None:
        dead = [c for c in coverage if c["count"] == 0]
        out["dead"] = {"constructs": len(coverage), "never_fired": len(dead),
                       "list": [f"{c['where']} {c['kind']} {c['name']}" for c in dead]}
    return out


def skill_jobs(job: SimJob, spec: AgentSpec) -> list[SimJob]:
    """The runs of restricted play: all seats random (the baseline), then ``spec`` at each seat in turn."""
    rand = AgentSpec("random")
    jobs = [attrs.evolve(job, agents=(rand,) * job.players, metrics=False, coverage=False)]
    for p in range(job.players):
        agents = tuple(spec if q == p else rand for q in range(job.players))
        jobs.append(attrs.evolve(job, agents=agents, metrics=False, coverage=False))
    return jobs


def _share(r: GameRecord, p: int) -> float:
    return 1 / len(r.winners) if p in r.winners else 0.0


def skill_json(spec: AgentSpec, runs: Sequence[Sequence[GameRecord]]) -> dict[str, Any]:
    """Restricted play from the runs of :func:`skill_jobs`: per seat, the search seat's win rate (Wilson),
    over the fair share, and its gain over a random seat on the same seeds (paired t interval)."""
    baseline, seats = runs[0], runs[1:]
    players = len(seats)
    fair = 1 / players
    per: dict[str, Any] = {}
    for p, records in enumerate(seats):
        wins = sum(_share(r, p) for r in records)
        rate = rate_json(wins, len(records))
        gain, lo, hi = paired([_share(r, p) for r in baseline], [_share(r, p) for r in records])
        per[seat(p)] = {**rate, "relative": rate["rate"] / fair, "relative_ci": [c / fair for c in rate["ci"]],
                        "random_rate": sum(_share(r, p) for r in baseline) / len(baseline),
                        "gain": gain, "gain_ci": [lo, hi], "significant": not rate["ci"][0] <= fair <= rate["ci"][1]}
    mean = sum(v["relative"] for v in per.values()) / players
    return {"agent": str(spec), "against": "random", "games": len(baseline), "fair": fair, "seats": per,
            "relative": mean}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render_text(m: dict[str, Any]) -> list[str]:
    """The metrics as lines a designer reads."""
    lc, dec, br, dur = m["lead_changes"], m["decisiveness"], m["branching"], m["duration"]
    drama, draws = m["drama"], m["draws"]
    out = ["Metrics (95% intervals: Wilson for shares, Student t over games for means; docs/simulate.md):",
           f"  lead changes per game   {lc['mean']:.2f} +- {lc['sd']:.2f}  [{lc['ci'][0]:.2f} .. {lc['ci'][1]:.2f}]"
           f"  (leaders read {m['readings']['mean']:.1f} times a game)",
           f"  drama                   {_pct(drama['share'])} of games [{_pct(drama['ci'][0])} .. "
           f"{_pct(drama['ci'][1])}]: a winner was behind after the first third",
           f"  decisiveness            winner led for good from {_pct(dec['mean'])} of the game on "
           f"[{_pct(dec['ci'][0])} .. {_pct(dec['ci'][1])}]",
           f"  branching               {br['mean']:.2f} +- {br['sd']:.2f} options per decision (min {br['min']}, "
           f"max {br['max']}; game means [{br['ci'][0]:.2f} .. {br['ci'][1]:.2f}]), "
           f"{br['per_game_decisions']:.1f} decisions a game"]
    busiest = sorted(br["points"].items(), key=lambda item: -item[1]["decisions"])[:POINTS_SHOWN]
    for where, pt in busiest:
        out.append(f"    at {where}: {pt['mean']:.2f} +- {pt['sd']:.2f} options (min {pt['min']}, max {pt['max']}), "
                   f"{pt['per_game_decisions']:.1f} decisions a game")
    if len(br["points"]) > POINTS_SHOWN:
        out.append(f"    ... and {len(br['points']) - POINTS_SHOWN} more decision points (--json has them all)")
    out += [
           f"  draws                   {_pct(draws['share'])} of games [{_pct(draws['ci'][0])} .. "
           f"{_pct(draws['ci'][1])}] shared first place",
           f"  duration                {dur['mean']:.1f} +- {dur['sd']:.1f} {dur['unit']} "
           f"[{dur['ci'][0]:.1f} .. {dur['ci'][1]:.1f}]"]
    f = m["first_player"]
    if f["games"]:
        out.append(f"  first player            wins {_pct(f['rate'])} [{_pct(f['ci'][0])} .. {_pct(f['ci'][1])}] "
                   f"(fair share {_pct(f['expected'])})")
    if "dead" in m:
        d = m["dead"]
        out.append(f"  dead constructs         {d['never_fired']} of {d['constructs']} never fired")
    if "skill" in m:
        s = m["skill"]
        out.append(f"  skill                   {s['agent']} in one seat, random in the others, {s['games']} games "
                   f"a seat: {s['relative']:.2f}x the fair share {_pct(s['fair'])} on average "
                   "(* the interval excludes the fair share)")
        for p, v in s["seats"].items():
            mark = "  *" if v["significant"] else ""
            out.append(f"    {p} wins {_pct(v['rate'])} [{_pct(v['ci'][0])} .. {_pct(v['ci'][1])}] = "
                       f"{v['relative']:.2f}x fair; {v['gain'] * 100:+.1f} points over a random {p} "
                       f"[{100 * v['gain_ci'][0]:+.1f}, {100 * v['gain_ci'][1]:+.1f}]{mark}")
    return out


def csv_rows(m: dict[str, Any]) -> list[list[Any]]:
    """The metrics as rows of the simulate CSV: section, name, seat, n, mean, sd, min, max, ci_low, ci_high."""
    rows: list[list[Any]] = []
    for name in ("lead_changes", "decisiveness", "readings"):
        v = m[name]
        rows.append(["metric", name, "", v["n"], v["mean"], v["sd"], v["min"], v["max"], *v["ci"]])
    for name in ("drama", "draws"):
        v = m[name]
        rows.append(["metric", name, "", v["games"], v["share"], "", "", "", *v["ci"]])
    b = m["branching"]
    rows.append(["metric", "branching", "", b["decisions"], b["mean"], b["sd"], b["min"], b["max"], *b["ci"]])
    d = m["duration"]
    rows.append(["metric", "duration", "", d["n"], d["mean"], d["sd"], d["min"], d["max"], *d["ci"]])
    f = m["first_player"]
    rows.append(["metric", "first_player", "", f["games"], f["rate"], "", "", "", *f["ci"]])
    if "dead" in m:
        rows.append(["metric", "dead", "", m["dead"]["constructs"], m["dead"]["never_fired"], "", "", "", "", ""])
    if "skill" in m:
        for p, v in m["skill"]["seats"].items():
            rows.append(["metric", f"skill {m['skill']['agent']}", p, v["games"], v["relative"], "", "", "",
                         *v["relative_ci"]])
    return rows
