"""One table per shipped game: the figures of issue 24, each from its own benchmark script.

    python benchmarks/table.py [GAME ...] [--games N] [--runs R] [--search-games G]

For each game of ``games/`` (or those named), the scripts run one after another, each as a fresh
process (``python benchmarks/SCRIPT.py GAME ...``, this checkout first on ``PYTHONPATH``), and the
last line of each is read:

- **playouts**: ``playouts.py GAME --games N`` (default 300): rulelang games/s ÷ the hand-written
  baseline's (goal at least 0.75; the project's goal 1.0);
- **recording**: ``record.py GAME --games N``: recording playout time ÷ plain playout time (goal at most 1.5);
- **replay**: ``replay.py GAME --games N``: replay events/s ÷ recording playout events/s (its
  ``replay / recording playout`` line; goal at least 1.5), and ÷ plain playout events/s (its ``ratio``);
- **search**: ``search.py GAME --games G`` (default 2): its ``ratio:`` line, if it prints one (MCTS
  iterations/s × rollout decisions per iteration ÷ ``play()`` decisions/s; goal at least 0.7);
  otherwise its decisions/s;
- **start-up**: ``python -m rulelang run games/GAME.rules -q --seed 1``, CPU seconds (user + system),
  the median of R runs (default 3) after one untimed run that fills the user's cache (a temporary
  cache directory here) and the bytecode (``.pyc`` files in a temporary ``PYTHONPYCACHEPREFIX``, as an
  installed package has them, whatever ``PYTHONDONTWRITEBYTECODE`` says).

Each table says the load average (1 minute) before and after its game. A script that fails puts its
error's last line in the table instead of a figure, and the next goes on. Markdown goes to standard
output, ready for benchmarks/README.md; the last line is ``seconds: X``, the time the whole run took.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT_TIMEOUT = 3600

_RATIO = re.compile(r"^ratio: (\S+)$", re.MULTILINE)
_REPLAY_RECORDING = re.compile(r"^replay / recording playout: (\S+)$", re.MULTILINE)


def _env(cache: str) -> dict[str, str]:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "RULELANG_CACHE_DIR": cache}


def _script(name: str, args: list[str], cache: str) -> tuple[str | None, str]:
    """Run benchmarks/NAME.py with ``args``: (its standard output, or None if it failed; a short note)."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), *args], cwd=ROOT,
                          env=_env(cache), capture_output=True, text=True, timeout=SCRIPT_TIMEOUT)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return None, f"failed: {last[:120]}"
    return done.stdout, ""


def _last(pattern: re.Pattern[str], text: str | None) -> str | None:
    found = pattern.findall(text or "")
    return found[-1] if found else None


def startup_cpu(game: str, runs: int, cache: str) -> float:
    """Median CPU seconds of ``rulelang run games/GAME.rules -q --seed 1`` (after one untimed run)."""
    argv = [sys.executable, "-m", "rulelang", "run", f"games/{game}.rules", "-q", "--seed", "1"]
    env = {**_env(cache), "PYTHONPYCACHEPREFIX": str(Path(cache) / "pyc")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    times = []
    for i in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=SCRIPT_TIMEOUT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode(errors="replace").strip().splitlines()[-1][:120])
        if i:
            times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def table(game: str, games: int, runs: int, cache: str, search_games: int = 2) -> list[str]:
    """The markdown lines of one game's table."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    rows: list[tuple[str, str, str]] = []
    out, note = _script("playouts", [game, "--games", str(games)], cache)
    rows.append(("playouts: rulelang ÷ hand-written games/s (`playouts.py`)", _last(_RATIO, out) or note, "≥ 0.75"))
    rounds = ["--rounds", str(min(5, games))]  # (the scripts' default, or fewer for a short run)
    out, note = _script("record", [game, "--games", str(games), *rounds], cache)
    rows.append(("recording ÷ plain playout time (`record.py`)", _last(_RATIO, out) or note, "≤ 1.5"))
    out, note = _script("replay", [game, "--games", str(games), *rounds], cache)
    rows.append(("replay ÷ recording playout events/s (`replay.py`)", _last(_REPLAY_RECORDING, out) or note,
                 "≥ 1.5"))
    rows.append(("replay ÷ plain playout events/s (`replay.py`)", _last(_RATIO, out) or note, ""))
    out, note = _script("search", [game, "--games", str(search_games)], cache)
    ratio = _last(_RATIO, out)
    if ratio is None and out is not None:
        line = next((line for line in out.splitlines() if line.split()[:1] == [game]), None)
        note = f"no ratio printed (decisions/s {line.split()[2]})" if line else "no ratio printed"
    rows.append(("search: MCTS ÷ `play()` decisions/s (`search.py`)", ratio or note, "≥ 0.7"))
    try:
        cpu = f"{startup_cpu(game, runs, cache):.3f}"
    except (RuntimeError, IndexError) as exc:
        cpu = f"failed: {exc}"
    rows.append((f"start-up: `run games/{game}.rules -q --seed 1`, CPU s (median of {runs})", cpu,
                 "< 0.5 (Chicken!)"))
    took = time.perf_counter() - start
    lines = [f"### {game}", "", f"Load {load:.2f} before, {os.getloadavg()[0]:.2f} after (2 cores); {games} games "
             f"per script; {took:.0f} s.", "", "| measure | value | goal |", "| --- | ---: | --- |"]
    lines += [f"| {what} | {value} | {goal} |" for what, value, goal in rows]
    return lines + [""]


def main(argv: list[str] | None = None) -> int:
    """Run the scripts and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    known = sorted(p.stem for p in (ROOT / "games").glob("*.rules"))
    ap.add_argument("games_", nargs="*", metavar="GAME", help="games/GAME.rules (default: every game)")
    ap.add_argument("--games", type=int, default=300, help="games per script (default 300)")
    ap.add_argument("--runs", type=int, default=3, help="timed start-ups per game (default 3)")
    ap.add_argument("--search-games", type=int, default=2, help="games of search.py per game (default 2)")
    args = ap.parse_args(argv)
    unknown = sorted(set(args.games_) - set(known))
    if unknown or args.games < 1 or args.runs < 1 or args.search_games < 1:
        ap.error(f"unknown game(s) {', '.join(unknown)} (known: {', '.join(known)}), or a bad number")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache:
        for game in args.games_ or known:
            print("\n".join(table(game, args.games, args.runs, cache, args.search_games)), flush=True)
    print(f"seconds: {time.perf_counter() - start:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
