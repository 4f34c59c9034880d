"""Issue 21, item 7: the long fuzz run ends. Its tests run in timed rounds within
$RULELANG_FUZZ_SECONDS, print progress past pytest's capture, fail a case that outlives the
watchdog with its input, and stop the run, printing the input and the stacks, when a case is
stuck where no alarm reaches it. Checked on small stand-in fuzz tests run by a child pytest."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fuzz_support import FUZZ_SECONDS, FUZZ_SECONDS_VAR, fuzz_seconds

ROOT = Path(__file__).resolve().parents[2]
SUPPORT = ROOT / "tests" / "support"  # fuzz_support

HEADER = """
import signal
import time

import pytest
from fuzz_support import run_long, watchdog
from hypothesis import strategies as st

CASES = st.integers(0, 10**9).map(lambda i: f"input-{i}")
"""


def _child(tmp_path: Path, body: str, seconds: str = "3", timeout: float = 120) -> subprocess.CompletedProcess:
    test = tmp_path / "test_stand_in.py"
    test.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    env = {**os.environ, FUZZ_SECONDS_VAR: seconds,
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(SUPPORT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "pytest", str(test), "-q", "-p", "no:cacheprovider", "-m", "",
                           "--rootdir", str(tmp_path)], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=tmp_path)


def test_the_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FUZZ_SECONDS_VAR, raising=False)
    assert fuzz_seconds() == FUZZ_SECONDS <= 25 * 60
    monkeypatch.setenv(FUZZ_SECONDS_VAR, "120")
    assert fuzz_seconds() == 120
    for bad in ("two minutes", "١٢٠", "0", "-5", "1_0"):
        monkeypatch.setenv(FUZZ_SECONDS_VAR, bad)
        with pytest.raises(ValueError, match="whole seconds"):
            fuzz_seconds()


def test_a_long_test_stops_at_its_time_and_shows_progress_under_q(tmp_path: Path) -> None:
    done = _child(tmp_path, """
        def test_slow_cases(capsys):
            assert run_long("stand-in", CASES, lambda case: time.sleep(0.05), 100000, 1.0, capsys) > 0
    """, seconds="3")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout + done.stderr
    assert "fuzz stand-in: up to 100000 cases in 3 s (RULELANG_FUZZ_SECONDS=3 for the whole run)" in out
    assert "(time budget reached)" in out
    ran = int(out.split("fuzz stand-in: ")[-1].split("/")[0])
    assert 1 <= ran < 200  # at most 20 cases a second for 3 seconds (and a round): the run stopped on time
    assert "1 passed" in out


def test_a_long_test_that_runs_all_its_cases_says_so(tmp_path: Path) -> None:
    done = _child(tmp_path, """
        def test_quick_cases(capsys):
            assert run_long("stand-in", CASES, lambda case: None, 30, 1.0, capsys) == 30
    """, seconds="60")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fuzz stand-in: 30/30 cases in" in done.stdout + done.stderr and "(all cases)" in done.stdout + done.stderr


def test_a_case_past_the_watchdog_fails_with_its_input(tmp_path: Path) -> None:
    done = _child(tmp_path, """
        def hangs(case):
            with watchdog(0.5):
                if int(case.split("-")[1]) % 3 == 0:
                    time.sleep(30)

        def test_a_hang(capsys):
            run_long("stand-in", CASES, hangs, 200, 1.0, capsys)
    """, seconds="60")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "Hang: a case ran longer than 0.5 s" in out
    printed = re.search(r"case='input-([0-9]+)'", out)
    assert printed and int(printed.group(1)) % 3 == 0  # the input of the failing case is printed
    assert "1 failed" in out


def test_a_case_stuck_where_no_alarm_reaches_it_stops_the_run_with_its_input(tmp_path: Path) -> None:
    done = _child(tmp_path, """
        def stuck(case):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # as if held in C code
            try:
                with watchdog(0.5):
                    time.sleep(30)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})

        def test_stuck(capsys):
            run_long("stand-in", CASES, stuck, 10, 1.0, capsys, hard_seconds=2)
    """, seconds="60", timeout=60)
    out = done.stdout + done.stderr
    assert done.returncode == 70, out
    assert "fuzz watchdog: a case ran past 2 s, beyond every limit; the run stops here. The case:" in out
    assert "The case:\n'input-" in out
    assert "in stuck" in out  # the stack of the stuck case
