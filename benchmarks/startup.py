"""Start-up: the CPU seconds a user waits before rulelang does anything.

    python benchmarks/startup.py [--runs N] [--bytecode] [--against TREE]

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

``--against TREE`` also times another checkout (for instance ``git worktree add /tmp/before
COMMIT``) with the same commands in the same run, warm cache, in a last column.

The last line is ``ratio: X``: the warm
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


def _cpu_of(argv: list[str], env: dict[str, str], tree: Path = ROOT) -> float:
    """CPU seconds (user + system) of one child process running ``argv`` in ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=tree, env={**env, "PYTHONPATH": str(tree)}, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed in {tree}:\n{done.stderr.decode(errors='replace')}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _median(argv: list[str], env: dict[str, str], runs: int, cold: bool, tree: Path = ROOT) -> float:
    times = []
    for _ in range(runs):
        if cold:
            with tempfile.TemporaryDirectory() as fresh:
                times.append(_cpu_of(argv, {**env, "RULELANG_CACHE_DIR": fresh}, tree))
        else:
            times.append(_cpu_of(argv, env, tree))
    return statistics.median(times)


def main() -> None:
    """Measure and print the start-up table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of each command (the median is printed)")
    ap.add_argument("--bytecode", action="store_true", help="allow .pyc files (in a temporary prefix)")
    ap.add_argument("--against", type=Path, metavar="TREE",
                    help="also time another checkout (e.g. an older commit's worktree), same commands, same run")
    args = ap.parse_args()
    py = [sys.executable]
    trees = [ROOT] + ([args.against.resolve()] if args.against else [])
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, RULELANG_CACHE_DIR=str(Path(work) / "cache"))
        env.pop("RULELANG_NO_CACHE", None)
        if args.bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(work) / "pyc")
        commands = [("--help", ["--help"]), ("run --help", ["run", "--help"]),
                    ("run chicken -q --seed 1", ["run", "games/chicken.rules", "-q", "--seed", "1"])]
        games = sorted((ROOT / "games").glob("*.rules"))
        commands += [(f"check {p.stem}", ["check", f"games/{p.name}"]) for p in games]
        for tree in trees:
            for _name, cmd in commands:  # untimed: fills the cache (and the bytecode prefix)
                _cpu_of(py + ["-m", "rulelang", *cmd], env, tree)
        load = os.getloadavg()[0]
        bytecode = "allowed" if not env.get("PYTHONDONTWRITEBYTECODE") else "not written (PYTHONDONTWRITEBYTECODE)"
        print(f"load {load:.2f}; {args.runs} runs each, median CPU seconds; bytecode {bytecode}")
        bare = _median(py + ["-c", "pass"], env, args.runs, cold=False)
        print(f"{'python -c pass':28} {bare:6.3f}")
        other = f" {'against':>8}" if args.against else ""
        print(f"{'command':28} {'cold':>6} {'warm':>6}{other}")
        warm_run = 0.0
        for name, cmd in commands:
            argv = py + ["-m", "rulelang", *cmd]
            cold = _median(argv, env, args.runs, cold=True)
            warm = _median(argv, env, args.runs, cold=False)
            if name.startswith("run chicken"):
                warm_run = warm
            then = f" {_median(argv, env, args.runs, cold=False, tree=trees[1]):8.3f}" if args.against else ""
            print(f"{name:28} {cold:6.3f} {warm:6.3f}{then}", flush=True)
        if args.against:
            print(f"(against: {trees[1]}, warm cache)")
        print(f"load at the end {os.getloadavg()[0]:.2f}")
        print(f"ratio: {warm_run / max(bare, 1e-3):.1f}")


if __name__ == "__main__":
    main()
