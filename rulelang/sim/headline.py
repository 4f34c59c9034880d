"""The sentence at the top of each report page, read off the statistics the text output prints.

Nothing here computes an interval or a test of its own: the simulate headline reads the seats'
Wilson intervals (``win_ci``, as ``sweep.unfair_seats`` does) and the first player's verdict of
``summary.summarize``; the compare headline reads the win-rate rows of ``compare.compare_runs``
(their paired intervals and ``significant`` flags); the sweep headline is ``sweep.verdict``'s sentence.
"""

from __future__ import annotations

from typing import Any

from rulelang.sim.sweep import unfair_seats


def pct(x: float) -> str:
    """A share as the text output prints it: 0.3612 -> '36.1%'."""
    return f"{100 * x:.1f}%"


def first_player_clause(s: dict[str, Any]) -> str:
    """The first player's verdict as ``summary.render_text`` words it, or '' (one player, or nobody seen first)."""
    f = s["first_player"]
    if not f["games"] or s["players"] < 2:
        return ""
    if f["significant"]:
        kind = "advantage" if f["rate"] > f["expected"] else "disadvantage"
        return (f"a significant first-player {kind}: the first player wins {pct(f['rate'])} "
                f"[{pct(f['ci'][0])} .. {pct(f['ci'][1])}] against the fair share {pct(f['expected'])}")
    return f"no significant first-player advantage (the first player wins {pct(f['rate'])})"


def simulation(s: dict[str, Any]) -> str:
    """The fairness verdict of one run: which seats' win rates differ significantly from the fair share."""
    rates = ", ".join(f"{p} {pct(r)}" for p, r in s["win_rate"].items())
    if s["players"] == 1:
        lo, hi = s["win_ci"]["P1"]
        text = f"P1 wins {pct(s['win_rate']['P1'])} [{pct(lo)} .. {pct(hi)}] of {s['games']} games"
        if s.get("payoff_kind", "").startswith("declared"):  # one player against the game, as the text says it
            loss = s["loss_rate"]["P1"]
            text += f", loses {pct(loss)}, draws {pct(1 - loss - s['win_rate']['P1'])}"
        return text + " (one player: no fair share to hold it to)."
    fair = 1 / s["players"]
    unfair = unfair_seats(s)
    if not unfair:
        text = (f"Fair at 95%: no seat's win rate differs significantly from the fair share {pct(fair)} "
                f"({rates}).")
    else:
        parts = []
        for p in unfair:
            lo, hi = s["win_ci"][p]
            side = "more" if s["win_rate"][p] > fair else "less"
            parts.append(f"{p} wins {pct(s['win_rate'][p])} [{pct(lo)} .. {pct(hi)}], significantly {side} than "
                         f"the fair share {pct(fair)}")
        text = "Not fair at 95%: " + "; ".join(parts) + "."
    clause = first_player_clause(s)
    return text + (f" There is {clause}." if clause else "")


def comparison(rows: list[dict[str, Any]]) -> str:
    """Whether B changes who wins (the seats whose win-rate difference is significant), and how many other
    statistics differ significantly."""
    win = [r for r in rows if r["section"] == "win_rate"]
    sig = [r for r in win if r["significant"]]
    others = sum(1 for r in rows if r["significant"] and r["section"] != "win_rate")
    if sig:
        moves = ", ".join(f"{r['seat']} {pct(r['a'])} -> {pct(r['b'])}" for r in sig)
        text = f"B changes who wins: {moves}, significant (the 95% interval of B - A excludes zero)."
    elif win:
        r = max(win, key=lambda r: abs(r["diff"]))
        lo, hi = r["ci"]
        text = (f"B does not change who wins significantly: the largest change, {r['seat']} {pct(r['a'])} -> "
                f"{pct(r['b'])} ({100 * r['diff']:+.1f} points, 95% interval {100 * lo:+.1f} to {100 * hi:+.1f}), "
                "is within chance.")
    else:
        text = "There is no win rate to compare."
    if others:
        text += f" {others} other {'statistic differs' if others == 1 else 'statistics differ'} significantly (below)."
    else:
        text += " No other statistic differs significantly."
    return text


def sweep(verdict: dict[str, Any]) -> str:
    """The sweep's verdict: the value closest to fair, or that no value differs significantly."""
    return str(verdict["sentence"])
