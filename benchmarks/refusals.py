"""How long ``rulelang check`` takes to accept or refuse hostile inputs of up to 1 MiB.

    python benchmarks/refusals.py [--only NAME] [--timeout S]

Each case is a generated ``.rules`` file (a megabyte of ``1+1+...``, 100 KB of ``(((...)))``,
a chain of definitions each using the previous one twice, thousands of rules, ...). Each is
loaded as ``rulelang check`` loads it (parse, check, compile: :func:`rulelang.game.load_game`)
in a fresh subprocess, which times the load itself (so the interpreter's start-up is not
counted) and is killed after ``--timeout`` seconds (default 120). One line per case: its
name, its size, the time, and how it ended (``accepted`` or the first line of the error).
The first line times the largest shipped game, Barnyard, as a reference (the machine's load slows
every line alike); the line before the last divides the worst time by it. The last line is
``worst: X s``, the slowest case (the goal: under 2 s on a 2-core machine).

Exit status: 0 if every case ended (accepted or refused with a rulelang error), 1 if one
timed out or crashed, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

MIB = 1024 * 1024
REPO = Path(__file__).resolve().parents[1]
HEAD = 'game "Hostile"\nplayers 2 to 2\ncounter score per player = 0\n\nsetup:\n  set score of current to 0\n\n'
TURN = "turn:\n  score of current += x\n\nwhen score of current >= 3:\n  end game\n\nrank p by highest score of p\n"
END = "\nwhen score of current >= 3:\n  end game\n\nrank p by highest score of p\n"


def _fill(prefix: str, unit: str, suffix: str, size: int = MIB) -> str:
    """``prefix``, ``unit`` repeated, ``suffix``: at most ``size`` bytes."""
    return prefix + (unit * max(0, (size - len(prefix) - len(suffix)) // len(unit)) if unit else "") + suffix


def _define(expr_head: str, unit: str, expr_tail: str, size: int = MIB) -> str:
    return _fill(HEAD + "define x = " + expr_head, unit, expr_tail + "\n" + TURN, size)


def _define_chain(depth: int, use: str) -> str:
    """Definitions d1..d{depth}, each using the previous one in ``use`` (``{}`` marks a use)."""
    lines = ["define d0 = 1\n"] + [f"define d{k} = {use.replace('{}', f'd{k - 1}')}\n" for k in range(1, depth + 1)]
    return HEAD + "".join(lines) + f"turn:\n  score of current += d{depth}\n" + END


def _indent() -> str:
    body, depth = [], 0
    while sum(len(line) for line in body) < 100_000:
        body.append("  " * (depth + 1) + "if score of current >= 0:\n")
        depth += 1
    return HEAD + "turn:\n" + "".join(body) + "  " * (depth + 1) + "score of current += 1\n" + END


def _many_rules(size: int) -> str:
    calls: list[str] = []
    rules: list[str] = []
    k = 0
    while sum(map(len, calls)) + sum(map(len, rules)) < size:
        calls.append(f"  r{k}\n")
        rules.append(f'rule r{k} "Rule {k}":\n  score of current += {k % 7}\n  if score of current > {k}:\n'
                     f'    say "{{current}} reaches {k}"\n')
        k += 1
    return HEAD + "turn:\n" + "".join(calls) + END + "".join(rules)


CASES: dict[str, Callable[[], str]] = {
    "1 MiB of 1+1+... on one line": lambda: _define("", "1+", "1"),
    "1 MiB of 1 + over many lines in ( )": lambda: _define("(", "1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 +\n  ", "1)"),
    "1 MiB of 1 + over lines joined by \\": lambda: _define("", "1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + \\\n  ", "1"),
    "100 KB of ((( ))) on one line": lambda: _define("(" * 50_000, "", "1" + ")" * 50_000, 0),
    "100 KB of ((( ))) over many lines": lambda: _define("((((((((((\n" * 5_000, "", "1" + "))))))))))\n" * 5_000, 0),
    "1 MiB of [[[ ]]] over many lines": lambda: _define("[[[[[[[[[[[[[[[[[[[[\n" * 25_000, "", "1", 0),
    "1 MiB of - - - 1 over many lines": lambda: _define("(", "- - - - - - - - - - - - - - - -\n", "1)"),
    "1 MiB of not not ... over many lines": lambda: _define("(", "not not not not not not not not\n", "true)"),
    "1 MiB of player after ... over many lines":
        lambda: _define("(score of ", "player after player after player after player after\n", "current)"),
    "100 KB of nested if blocks": _indent,
    "1 MiB string on one line": lambda: _fill(HEAD + 'turn:\n  say "', "a", '"\n' + END),
    "1 MiB of max(1, 1, ...) over many lines": lambda: _define("max(", "1, 1, 1, 1, 1, 1, 1, 1, 1, 1,\n", "1)"),
    "define chain: d_k = d_k-1 + d_k-1, 30 deep": lambda: _define_chain(30, "{} + {}"),
    "define chain: d_k = d_k-1 + d_k-1, 60 deep": lambda: _define_chain(60, "{} + {}"),
    "define chain: d_k = d_k-1 + d_k-1, 13 deep": lambda: _define_chain(13, "{} + {}"),
    "define chain: d_k = d_k-1 + d_k-1, 9 deep (accepted)": lambda: _define_chain(9, "{} + {}"),
    "define chain: d_k = max(d_k-1, d_k-1), 30 deep": lambda: _define_chain(30, "max({}, {})"),
    "define chain: d_k = (d_k-1 * d_k-1 if d_k-1 > 0 else d_k-1), 20 deep":
        lambda: _define_chain(20, "({} * {} if {} > 0 else {})"),
    "rules up to 1 MiB, each called from the turn": lambda: _many_rules(MIB - 2000),
    "rules up to 9,800 tokens": lambda: _many_rules(55_000),
    "rules up to 7,000 tokens": lambda: _many_rules(36_000),
    "rules up to 4,700 tokens (accepted)": lambda: _many_rules(26_000),
    "490 holes of 12 tokens each (accepted)": lambda: _fill(
        HEAD + "turn:\n", "", "".join(f'  say "{{score of current + {k} * 2}}"\n' for k in range(490)) + END, 0),
    "a rule of 50 if blocks called 10 times": lambda: _fill(
        HEAD + "turn:\n" + "  big\n" * 10 + END + 'rule big "Big":\n', "", "".join(
            f"  if score of current > {k}:\n    score of current += {k}\n" for k in range(50)), 0),
    "200 if blocks in a row": lambda: _fill(HEAD + "turn:\n", "", "".join(
        f"  if score of current > {k}:\n    score of current += {k}\n" for k in range(200)) + END, 0),
    "rule chain: r_k calls r_k-1 twice, 30 deep": lambda: _fill(
        HEAD + "turn:\n  r30\n" + END + 'rule r0 "R0":\n  score of current += 1\n', "",
        "".join(f'rule r{k} "R{k}":\n  r{k - 1}\n  r{k - 1}\n' for k in range(1, 31)), 0),
    "1 MiB of statements in one block": lambda: _fill(HEAD + "turn:\n", "  score of current += 1\n", END),
    "1 MiB of say with 12 holes": lambda: _fill(HEAD + "turn:\n", '  say "{1}{2}{3}{4}{5}{6}{7}{8}{9}{10}{11}{12}"\n',
                                                END),
    "1 MiB of if blocks one after another": lambda: _fill(
        HEAD + "turn:\n", "  if score of current > 1:\n    score of current += 1\n", END),
    "1 MiB of comments": lambda: _fill(HEAD, "# a comment line that says nothing much\n", "define x = 1\n" + TURN),
    "1 MiB of blank lines": lambda: _fill(HEAD, "\n", "define x = 1\n" + TURN),
    "1 MiB of continued blank lines": lambda: _fill(HEAD, "\\\n", "define x = 1\n" + TURN),
}

_CHILD = """
import json, sys, time
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.syntax.parser import parse_text
parse_text("define warm = 1\\n", "warm.rules")  # build the parser first: a start-up cost, like the interpreter's
start = time.perf_counter()
try:
    load_game(sys.argv[1])
    outcome = "accepted"
except (RulelangError, ErrorList) as exc:
    outcome = "refused: " + exc.format().splitlines()[0]
print(json.dumps({"seconds": time.perf_counter() - start, "outcome": outcome}))
"""


def run_case(text: str, timeout: float) -> tuple[float | None, str]:
    """Load ``text`` as a .rules file in a fresh interpreter: (seconds, outcome), seconds None if it did not end."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.rules"
        path.write_text(text, encoding="utf-8")
        try:
            done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return None, f"did not end within {timeout:g} s"
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"crashed (exit {done.returncode}): {last}"
    result = json.loads(lines[-1])
    return float(result["seconds"]), str(result["outcome"])


def main(argv: list[str] | None = None) -> int:
    """Time every case (or the one named by --only) and print the worst time last."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is killed")
    args = parser.parse_args(argv)
    cases = {name: make for name, make in CASES.items() if args.only is None or args.only in name}
    if not cases:
        parser.error(f"no case matches {args.only!r}")
    reference, how = run_case((REPO / "games" / "barnyard.rules").read_text(encoding="utf-8"), args.timeout)
    print(f"{'reference: games/barnyard.rules (the largest shipped game)':55} {reference or 0:23.3f} s  {how[:110]}")
    worst = 0.0
    failed = False
    for name, make in cases.items():
        text = make()
        seconds, outcome = run_case(text, args.timeout)
        if seconds is None:
            failed = True
            seconds = args.timeout
        worst = max(worst, seconds)
        print(f"{name:55} {len(text.encode('utf-8')):>8} bytes {seconds:7.3f} s  {outcome[:110]}", flush=True)
    if reference:
        print(f"worst / reference: {worst / reference:.2f} (the machine's load scales both)")
    print(f"worst: {worst:.3f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
