"""Start-up: the CPU seconds a user waits before rulelang does anything.

    python benchmarks/startup.py [--runs N]

Each command runs N times (default 5) as a fresh process, ``python -m rulelang ...`` from the
repository root with this tree on ``PYTHONPATH``; its CPU time (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)``) is taken and the median printed, in two settings:

- ``cold``: an empty cache directory for every run (``RULELANG_CACHE_DIR`` points to a new
  temporary directory), so the parser's tables are built from the grammar;
- ``warm``: one cache directory, filled by one untimed run first.

Commands: ``--help``, ``run --help``, ``run games/chicken.rules -q --seed 1`` and ``check`` of each
game in ``games/``. Python's own start-up (``python -c pass``) is measured the same way.

Whether Python may write bytecode (``PYTHONDONTWRITEBYTECODE``) is taken from the environment
and printed: without ``.pyc`` files every module is compiled from source at each start, which
costs about 0.2 s of the figures (an installed package has its ``.pyc`` files; a checkout run
with ``PYTHONDONTWRITEBYTECODE=1`` has none). ``--bytecode`` runs with bytecode allowed,
written to a temporary ``PYTHONPYCACHEPREFIX`` (filled by the untimed first run).

A before/after ratio cannot be taken in one run, so the last line is ``ratio: X``: the warm
``run`` start-up over a bare ``python -c pass`` in the same run (how many Python start-ups a
game of Chicken! costs).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process running ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr.decode(errors='replace')}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _median(argv: list[str], env: dict[str, str], runs: int, cold: bool) -> float:
    times = []
    for _ in range(runs):
        if cold:
            with tempfile.TemporaryDirectory() as fresh:
                times.append(_cpu_of(argv, {**env, "RULELANG_CACHE_DIR": fresh}))
        else:
            times.append(_cpu_of(argv, env))
    return statistics.median(times)


def main() -> None:
    """Measure and print the start-up table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of each command (the median is printed)")
    ap.add_argument("--bytecode", action="store_true", help="allow .pyc files (in a temporary prefix)")
    args = ap.parse_args()
    py = [sys.executable]
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, PYTHONPATH=str(ROOT), RULELANG_CACHE_DIR=str(Path(work) / "cache"))
        env.pop("RULELANG_NO_CACHE", None)
        if args.bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(work) / "pyc")
        commands = [("--help", ["--help"]), ("run --help", ["run", "--help"]),
                    ("run chicken -q --seed 1", ["run", "games/chicken.rules", "-q", "--seed", "1"])]
        games = sorted((ROOT / "games").glob("*.rules"))
        commands += [(f"check {p.stem}", ["check", f"games/{p.name}"]) for p in games]
        for _name, cmd in commands:  # untimed: fills the cache (and the bytecode prefix)
            _cpu_of(py + ["-m", "rulelang", *cmd], env)
        load = os.getloadavg()[0]
        bytecode = "allowed" if not env.get("PYTHONDONTWRITEBYTECODE") else "not written (PYTHONDONTWRITEBYTECODE)"
        print(f"load {load:.2f}; {args.runs} runs each, median CPU seconds; bytecode {bytecode}")
        bare = _median(py + ["-c", "pass"], env, args.runs, cold=False)
        print(f"{'python -c pass':28} {bare:6.3f}")
        print(f"{'command':28} {'cold':>6} {'warm':>6}")
        warm_run = 0.0
        for name, cmd in commands:
            argv = py + ["-m", "rulelang", *cmd]
            cold = _median(argv, env, args.runs, cold=True)
            warm = _median(argv, env, args.runs, cold=False)
            if name.startswith("run chicken"):
                warm_run = warm
            print(f"{name:28} {cold:6.3f} {warm:6.3f}", flush=True)
        print(f"load at the end {os.getloadavg()[0]:.2f}")
        print(f"ratio: {warm_run / max(bare, 1e-3):.1f}")


if __name__ == "__main__":
    main()
