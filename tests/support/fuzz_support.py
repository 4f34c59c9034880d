"""Strategies and oracles for the fuzz tests (issue 14, part 4).

Inputs: programs generated from the grammar, the shipped games mutated line by line, token
by token and byte by byte, and traces and positions mutated the same way. Oracles: only the
project's error type escapes, every error has a place, nothing outlives its budget (a
watchdog stops a case that hangs), and replay never calls a tampered illegal trace
compliant (a compliant verdict is re-checked step by step through the engine's own
decisions, without the replayer's fast paths).
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import os
import re
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st

from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.play import play
from rulelang.trace.replay import Replayer, TraceError, Verdict, read_trace, replay_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.rules"))
EXAMPLE_TRACES = sorted((ROOT / "examples").rglob("*.jsonl"))
EXAMPLE_POSITIONS = sorted((ROOT / "examples").rglob("*.position.json"))

PLAY_STEPS = 300  # a generated game is played this many steps at most
BUDGET = 20_000  # the engine's budget of work between two decisions, for generated games
WATCHDOG_SECONDS = 30  # a case running longer than this is a hang


class Hang(Exception):
    """A fuzz case ran past the watchdog: something did not respect its budget."""


# ------------------------------------------------------------------ the long run's time budget

FUZZ_SECONDS_VAR = "RULELANG_FUZZ_SECONDS"
FUZZ_SECONDS = 1500  # the whole long run (python -m pytest -m fuzz) by default: it ends within 30 minutes
HARD_SECONDS = 2 * WATCHDOG_SECONDS + 15  # a case still running then (the alarm could not stop it) ends the run
PROGRESS_SECONDS = 15  # a progress line at most this often
LONG_SETTINGS = {"deadline": None, "suppress_health_check": list(HealthCheck), "database": None,
                 "phases": (Phase.generate,)}  # no shrinking: a failing case is printed as generated


def fuzz_seconds() -> float:
    """The long run's budget in seconds: $RULELANG_FUZZ_SECONDS (e.g. 120 for a 2-minute sample) or FUZZ_SECONDS."""
    text = os.environ.get(FUZZ_SECONDS_VAR, "").strip()
    if not text:
        return FUZZ_SECONDS
    if not (text.isascii() and text.isdigit() and 0 < int(text) <= 10**6):
        raise ValueError(f"{FUZZ_SECONDS_VAR}={text!r}: give the long fuzz run's budget in whole seconds, e.g. 120")
    return int(text)


def run_long(name: str, strategy: st.SearchStrategy[Any], check: Callable[[Any], None], examples: int,
             share: float, capsys: Any, hard_seconds: float = HARD_SECONDS) -> int:
    """Run up to ``examples`` cases of ``strategy`` through ``check`` within ``share`` of the fuzz budget.

    Cases run in rounds (each a Hypothesis run) until the examples or the time are used up;
    a progress line goes to the terminal (also under -q) at most every PROGRESS_SECONDS. A
    case that outlives the watchdog fails with its input printed; one stuck past
    ``hard_seconds``, where no alarm reaches it, stops the run after printing its input and
    every thread's stack. Returns the number of cases run.
    """
    budget = fuzz_seconds() * share
    started = time.monotonic()
    with capsys.disabled():
        terminal = os.dup(2)  # the real standard error, past pytest's capture
    out = os.fdopen(terminal, "w", encoding="utf-8", errors="replace")
    keep = tempfile.NamedTemporaryFile("wb", prefix=f"rulelang-fuzz-{name}-", suffix=".case", delete=False)
    ran = planned = 0
    shown = started

    def say(line: str) -> None:
        out.write(f"\n  fuzz {name}: {line}\n")
        out.flush()

    say(f"up to {examples} cases in {budget:.0f} s ({FUZZ_SECONDS_VAR}={fuzz_seconds():g} for the whole run); "
        f"a case stuck past {hard_seconds:g} s stops the run, its input kept in {keep.name}")

    def one(case: Any) -> None:
        nonlocal ran
        if time.monotonic() - started > budget:
            return  # the time is up: the rest of the round is skipped
        ran += 1
        text = repr(case).encode("utf-8", "backslashreplace")
        keep.seek(0)
        keep.truncate()
        keep.write(text)
        keep.flush()
        with _hard_watchdog(out, text, hard_seconds):
            check(case)

    try:
        per_case = 1.0
        while planned < examples and time.monotonic() - started < budget:
            left = budget - (time.monotonic() - started)
            most = min(100, examples - planned, int(left / per_case), int(PROGRESS_SECONDS / per_case))
            chunk = max(min(10, examples - planned), most)  # a round of about PROGRESS_SECONDS, 10 cases or more
            before, round_started = ran, time.monotonic()
            settings(max_examples=chunk, **LONG_SETTINGS)(given(strategy)(one))()
            planned += chunk
            per_case = max(1e-3, (time.monotonic() - round_started) / max(1, ran - before))
            if time.monotonic() - shown >= PROGRESS_SECONDS:
                shown = time.monotonic()
                say(f"{ran}/{examples} cases, {shown - started:.0f} of {budget:.0f} s")
        spent = time.monotonic() - started
        why = "all cases" if planned >= examples else "time budget reached"
        say(f"{ran}/{examples} cases in {spent:.0f} s ({why})")
    finally:
        keep.close()
        os.unlink(keep.name)
        out.close()
    return ran


@contextlib.contextmanager
def _hard_watchdog(out: Any, case: bytes, seconds: float) -> Iterator[None]:
    """Stop the whole run, printing ``case`` and every thread's stack, if the block outlives ``seconds``.

    A thread prints and exits while Python runs; if the case holds the interpreter (one
    huge multiplication), faulthandler prints the stacks a little later and exits."""
    done = threading.Event()

    def bite() -> None:
        if done.wait(seconds):
            return
        out.write(f"\nfuzz watchdog: a case ran past {seconds:g} s, beyond every limit; the run stops here. "
                  f"The case:\n{case.decode('utf-8', 'replace')}\n")
        out.flush()
        faulthandler.dump_traceback(file=out, all_threads=True)
        os._exit(70)

    guard = threading.Thread(target=bite, name="fuzz-watchdog", daemon=True)
    guard.start()
    faulthandler.dump_traceback_later(seconds + 30, exit=True, file=out)
    try:
        yield
    finally:
        done.set()
        faulthandler.cancel_dump_traceback_later()
        guard.join()


MEMORY_BYTES = 6 * 1024**3  # a case needing more address space than this fails with MemoryError


@contextlib.contextmanager
def _memory_cap() -> Iterator[None]:
    """Cap the address space while a case runs, so a runaway fails the test instead of the machine."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = MEMORY_BYTES if hard == resource.RLIM_INFINITY else min(MEMORY_BYTES, hard)
    if soft != resource.RLIM_INFINITY and soft <= cap:
        yield
        return
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextlib.contextmanager
def watchdog(seconds: float = WATCHDOG_SECONDS) -> Iterator[None]:
    """Raise Hang in the block if it runs longer than ``seconds``, MemoryError if it takes too much memory
    (POSIX only; elsewhere no watchdog)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def _ring(signum: int, frame: Any) -> None:
        raise Hang(f"a case ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, _ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        with _memory_cap():
            yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ------------------------------------------------------------------ text mutations

ODD_TEXT = ["\t", "\r\n", "\r", "\ufeff", "\x00", "é", "🐔", "\u2028", "\x0c", "  ", "#", ":", '"', "{", "}", "(",
            ")", "\\", "-", "0"]
NUMBERS = ["0", "-1", "-0", "1", "99999999999", "100000000000000000000", str(2**64), "10" * 30, "007",
           "9" * 5000]  # more digits than Python reads (found by hand: a traceback in rules, traces, positions)
TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|\d+|\S')


@st.composite
def mutated_text(draw: st.DrawFn, text: str, max_edits: int = 3) -> str:
    """``text`` with 1 to ``max_edits`` edits: lines deleted, duplicated or swapped; tokens
    replaced or dropped; numbers made huge, negative or zero; odd characters inserted;
    line endings changed; a BOM added."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, max_edits))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "token", "drop", "number", "insert", "indent"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, max(0, len(lines) - 1)))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in ("token", "drop", "number"):
            spans = [m.span() for m in TOKEN.finditer(lines[i])]
            if not spans:
                continue
            a, b = draw(st.sampled_from(spans))
            if op == "drop":
                new = ""
            elif op == "number":
                new = draw(st.sampled_from(NUMBERS))
            else:
                pool = TOKEN.findall(text[:20000]) or ["x"]
                new = draw(st.sampled_from(pool[:2000]))
            lines[i] = lines[i][:a] + new + lines[i][b:]
        elif op == "insert":
            at = draw(st.integers(0, len(lines[i])))
            odd = draw(st.one_of(st.sampled_from(ODD_TEXT), st.text(min_size=1, max_size=3)))
            lines[i] = lines[i][:at] + odd + lines[i][at:]
        elif op == "indent":
            lines[i] = draw(st.sampled_from([" ", "   ", "\t", "        "])) + lines[i]
    out = "\n".join(lines)
    ending = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"]))
    if ending != "\n":
        out = out.replace("\n", ending)
    if draw(st.integers(0, 9)) == 0:
        out = "\ufeff" + out
    return out


# ------------------------------------------------------------------ programs from the grammar

_NAMES = ["x", "n", "p", "b", "score", "current", "middle", "held", "Red", "One", "pips", "all", "box", "setup",
          "turn", "nobody", "players", "count", "sum", "true", "false", "random", "of", "in", "to"]
_STRINGS = ['"a"', '"b {x}"', '"c {n + 1}"', '"d"', '"{secret x}"', '"it\'s"']


@lru_cache(maxsize=8)
def grammar_strategy(start: str = "start") -> st.SearchStrategy[str]:
    """Texts of the grammar's rule ``start`` (``hypothesis.extra.lark``), laid out with real indentation."""
    from hypothesis.extra.lark import from_lark
    from lark import Lark

    from rulelang.syntax.parser import grammar_text

    grammar = Lark(grammar_text(), parser="lalr", lexer="contextual", start=list(_STARTS))
    explicit: dict[str, st.SearchStrategy[str]] = {}
    for term in grammar.terminals:
        if term.pattern.type == "str":
            explicit[term.name] = st.just(term.pattern.value + " ")
    explicit.update({
        "_INDENT": st.just("\x01"), "_DEDENT": st.just("\x02"), "_NL": st.just("\n"), "COMMENT": st.just(" "),
        "NAME": st.sampled_from(_NAMES).map(lambda s: s + " "),
        "STRING": st.sampled_from(_STRINGS).map(lambda s: s + " "),
        "INT": st.one_of(st.integers(0, 6).map(str), st.sampled_from(NUMBERS[1:])).map(lambda s: s + " "),
    })
    for name, pattern in (("COMPONENT_CLASS", ["dice", "cards", "die", "card", "tokens"]),
                          ("RANK_DIR", ["highest", "lowest"]), ("PER_PLAYER", ["per player"]),
                          ("RANDOM_WORD", ["random"]), ("OVERRIDE", ["override"]),
                          ("PLACE", ["at top", "at bottom"]), ("ADD_SUB", ["+", "-"]),
                          ("MUL_DIV", ["*", "/", "%"]), ("COMP_OP", ["<", ">", "==", "!=", "<=", ">="]),
                          ("ADD_OP", ["+=", "-="])):
        explicit[name] = st.sampled_from(pattern).map(lambda s: s + " ")
    for name in grammar.ignore_tokens:
        explicit[name] = st.just(" ")  # ignored white space and comments: one space
    keep = _reachable_terminals(grammar, start) | {"_INDENT", "_DEDENT"} | set(grammar.ignore_tokens)
    explicit = {k: v for k, v in explicit.items() if k in keep}
    return from_lark(grammar, start=start, explicit=explicit).map(layout)


def _reachable_terminals(grammar: Any, start: str) -> set[str]:
    """The terminals a text of rule ``start`` may contain."""
    expansions: dict[str, list[Any]] = {}
    for rule in grammar.rules:
        expansions.setdefault(rule.origin.name, []).append(rule.expansion)
    seen, todo, terminals = {start}, [start], set()
    while todo:
        for expansion in expansions.get(todo.pop(), []):
            for sym in expansion:
                if sym.is_term:
                    terminals.add(sym.name)
                elif sym.name not in seen:
                    seen.add(sym.name)
                    todo.append(sym.name)
    return terminals


_STARTS = ("start",)


def layout(raw: str) -> str:
    """Turn the indent/dedent markers of a generated program into leading spaces."""
    level = 0
    out: list[str] = []
    line_start = True
    for ch in raw:
        if ch == "\x01":
            level += 1
        elif ch == "\x02":
            level = max(0, level - 1)
        elif ch == "\n":
            out.append("\n")
            line_start = True
        elif line_start and ch in " \t":
            continue
        else:
            if line_start:
                out.append("  " * level)
                line_start = False
            out.append(ch)
    return "".join(out)


# ------------------------------------------------------------------ oracles


def assert_placed(exc: RulelangError | ErrorList) -> None:
    """Every error names a place in a file."""
    errors = exc.errors if isinstance(exc, ErrorList) else [exc]
    assert errors
    for error in errors:
        assert isinstance(error, RulelangError)
        assert error.span is not None, f"an error without a place: {error.format()}"
        error.format()  # formatting never fails


def may_grow_without_bound(text: str, known: frozenset[str] = frozenset()) -> bool:
    """Whether the code of ``text`` multiplies (outside the ``known`` lines of a shipped game): a product of
    counters can square a number every turn, and one multiplication of huge numbers cannot be interrupted."""
    return any("*" in line.split("#", 1)[0] and line.strip() not in known for line in text.splitlines())


def products_of(text: str) -> frozenset[str]:
    """The lines of ``text`` that multiply (a shipped game's own products are known to stay small)."""
    return frozenset(line.strip() for line in text.splitlines() if "*" in line.split("#", 1)[0])


def check_rules_file(path: Path, known: frozenset[str] = frozenset()) -> Engine | None:
    """Load ``path``; a broken file must give placed errors; a good one is played a little.

    A file that multiplies is loaded but not played: bounding numbers that grow without limit
    is the lang branch's item (issue 14, part 3, "Arithmetic that grows without bound")."""
    try:
        engine = load_game(path, budget=BUDGET)
    except (RulelangError, ErrorList) as exc:
        assert_placed(exc)
        return None
    if may_grow_without_bound(path.read_text(encoding="utf-8", errors="replace"), known):
        return engine
    for seed in (1, 2):
        try:
            state = engine.new_state(None, setup_seed=seed)
        except RulelangError as exc:
            exc.format()
            continue
        stopped = False
        try:
            play(engine, state, [RandomAgent(seed, s) for s in range(state.players)], seed, max_steps=PLAY_STEPS)
        except (MemoryError, Hang):
            if _huge_numbers(state):
                # lang branch: bounding numbers and arithmetic growth (issue 14, part 3, "Arithmetic that
                # grows without bound"); not this branch's to fix, so the case is set aside.
                reject()
            raise
        except RulelangError as exc:
            placed = exc.span is not None or engine.where_span(state) is not None or "did not end" in exc.message
            # lang branch: runaway turn loops (a turn with no decisions, end turn / another turn) get their
            # place there (issue 14, part 3, "Errors without the right place"); not this branch's to fix.
            placed = placed or "without asking for a decision" in exc.message
            assert placed, f"an error in play without a place: {exc.format()}"
            exc.format()
            stopped = "did not end" not in exc.message  # a game stopped mid-step by its rules cannot go on
        try:
            engine.observe(state, 0)
            engine.observe(state, None)
        except RulelangError as exc:
            if not stopped or "cannot go on" not in exc.message:
                raise
            assert_placed(exc)
    return engine


def _huge_numbers(state: Any) -> bool:
    """Whether a counter of ``state`` holds a number too big to print (arithmetic that grew without bound)."""
    values: list[Any] = []
    for value in state.counters:
        values.extend(value if isinstance(value, list) else [value])
    return any(isinstance(v, int) and v.bit_length() > 10_000 for v in values)


@lru_cache(maxsize=32)
def cached_engine(path: str, options: str) -> Engine:
    """The engine of a shipped game with the given options (JSON), loaded once."""
    opts = json.loads(options)
    return load_game(path, {k: json.dumps(v) if not isinstance(v, str) else v for k, v in opts.items()})


def replay_text(text: str, where: Path, original_header: dict[str, Any] | None) -> Verdict:
    """Replay trace ``text`` written at ``where``; engines of unchanged headers are cached."""
    where.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        trace = read_trace(where)
    except TraceError as exc:
        assert exc.span is not None or exc.message, exc
        return Verdict("malformed", exc.format(), line=exc.span.line if exc.span else None)
    header = {k: v for k, v in trace.header.items() if k != "_line"}
    if original_header is not None and header == original_header:
        engine = cached_engine(header["file"], json.dumps(header.get("options") or {}, sort_keys=True))
        return Replayer(engine, trace).run()
    return replay_file(where)


def independent_check(engine: Engine, text: str) -> None:
    """Re-check a trace replay called compliant, event by event through pending() and apply()."""
    text = text.removeprefix("\ufeff")  # a trace, like a rules file, may start with a BOM
    events = [json.loads(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
              if line.strip() and not line.lstrip().startswith("//")]
    head = events[0]
    st_ = engine.new_state(head["players"], position=head.get("position"), setup_seed=head.get("seed") or 0)
    seats = {f"P{p + 1}": p for p in range(st_.players)}
    result = None
    for event in events[1:]:
        kind = event["type"]
        if kind in ("comment", "private", "digest"):
            continue
        if kind == "result":
            result = event
            continue
        assert not st_.over, "an event after the end of the game was accepted"
        d = engine.pending(st_)
        assert d is not None
        if kind == "action":
            seat = seats[event["player"]]
            assert d.kind == "choice", "an action where the rules wait for chance was accepted"
            if d.players is not None and seat in d.players:
                assert event["action"] in engine.legal_actions(st_, seat)
                engine.apply(st_, event["action"], player=seat)
            else:
                assert d.player == seat, "an action by the wrong player was accepted"
                assert event["action"] in (d.labels or []), f"an illegal action was accepted: {event['action']!r}"
                engine.apply(st_, event["action"])
        else:
            assert d.kind == "chance", "a chance event where a player must choose was accepted"
            key = next(k for k in ("roll", "draw", "shuffle", "first_player", "pick") if k in event)
            assert d.event.get(key) == event[key], "a chance event of the wrong kind was accepted"
            engine.apply(st_, event["outcome"])  # raises if the outcome is impossible
    assert st_.over, "an unfinished game was called compliant"
    if result is not None:
        assert result.get("winners", st_.result["winners"]) == st_.result["winners"]
