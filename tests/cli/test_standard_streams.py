"""Standard streams (issue 21, item 5): ``-`` reads the rules from standard input for
``check``, ``fmt`` and ``run``, ``--trace -`` writes the trace to standard output (the
play-by-play then goes to standard error), and click's shell completion is produced."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.fmt.formatter import format_text
from rulelang.safeio import MAX_RULES_BYTES, InputError, read_stdin

ROOT = Path(__file__).resolve().parents[2]
CHICKEN = (ROOT / "games" / "chicken.rules").read_bytes()


def invoke(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def cli(*args: str, input: bytes | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "rulelang", *args], input=input, cwd=cwd, env=env,
                          capture_output=True, timeout=120)


# ------------------------------------------------------------------ check -


def test_check_reads_the_rules_from_stdin() -> None:
    result = invoke("check", "-", input=CHICKEN)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<stdin>: ok (Chicken!; 2-8 players")


def test_check_stdin_error_names_stdin_with_a_caret() -> None:
    result = invoke("check", "-", input=b'game "X"\nplayers 2 to 3\n\nturn:\n  move all frm box to box\n')
    assert result.exit_code == 1
    assert "<stdin>:5:" in result.stderr and "^" in result.stderr
    assert "Traceback" not in result.output


def test_check_stdin_and_files_together() -> None:
    result = invoke("check", "games/chicken.rules", "-", input=CHICKEN)
    assert result.exit_code == 0, result.output
    assert "games/chicken.rules: ok" in result.stdout and "<stdin>: ok" in result.stdout


def test_stdin_is_read_once() -> None:
    result = invoke("check", "-", "-", input=CHICKEN)
    assert result.exit_code == 2
    assert "read once" in result.output


def test_stdin_over_the_cap_is_refused() -> None:
    result = invoke("check", "-", input=b"#" * (MAX_RULES_BYTES + 1))
    assert result.exit_code == 1
    assert "too big" in result.stderr and "standard input" in result.stderr


def test_stdin_at_the_cap_is_read() -> None:
    result = invoke("check", "-", input=CHICKEN + b"#" * (MAX_RULES_BYTES - len(CHICKEN)))
    assert result.exit_code == 0, result.output


class _Counting(io.BytesIO):
    asked: list[int]

    def read(self, n: int | None = -1) -> bytes:  # type: ignore[override]
        self.asked.append(-1 if n is None else n)
        return super().read(n)


def test_stdin_reads_at_most_cap_plus_one_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = _Counting(b"x" * 100)
    stream.asked = []
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
    with pytest.raises(InputError, match="too big"):
        read_stdin("rules", 10)
    assert stream.asked == [11]
    assert stream.tell() == 11


def test_no_stdin_is_an_error_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError, match="no standard input"):
        read_stdin("rules", 10)


# ------------------------------------------------------------------ fmt -


UNFORMATTED = CHICKEN.replace(b"attribute eggs = 0  ", b"attribute   eggs=0")


def test_fmt_stdin_writes_the_formatted_text_to_stdout() -> None:
    assert UNFORMATTED != CHICKEN
    result = invoke("fmt", "-", input=UNFORMATTED)
    assert result.exit_code == 0, result.output
    assert result.stdout == CHICKEN.decode()
    assert result.stdout == format_text(UNFORMATTED.decode(), "<stdin>")


def test_fmt_check_stdin() -> None:
    changed = invoke("fmt", "--check", "-", input=UNFORMATTED)
    assert changed.exit_code == 1
    assert changed.stdout == "would reformat <stdin>\n"
    same = invoke("fmt", "--check", "-", input=CHICKEN)
    assert same.exit_code == 0 and same.stdout == ""
    diff = invoke("fmt", "--diff", "-", input=UNFORMATTED)
    assert diff.exit_code == 1
    assert "-attribute   eggs=0" in diff.stdout and "+attribute eggs = 0" in diff.stdout


def test_fmt_stdin_is_formatted_alone() -> None:
    result = invoke("fmt", "-", "games/chicken.rules", input=CHICKEN)
    assert result.exit_code == 2
    assert "alone" in result.output


def test_fmt_stdin_that_does_not_parse() -> None:
    result = invoke("fmt", "-", input=b'game "X"\n  players 2 to 3\n)')
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "<stdin>:" in result.stderr and "Traceback" not in result.output


# ------------------------------------------------------------------ run -


def test_run_stdin_plays_the_same_game_as_the_file() -> None:
    from_file = invoke("run", "games/chicken.rules", "--seed", "3", "-q")
    from_stdin = invoke("run", "-", "--seed", "3", "-q", input=CHICKEN)
    assert from_file.exit_code == 0 and from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_file.stdout
    assert "Winner" in from_stdin.stdout


def test_run_stdin_trace_names_stdin(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = invoke("run", "-", "--seed", "3", "-q", "--trace", str(out), input=CHICKEN)
    assert result.exit_code == 0, result.output
    head = json.loads(out.read_text().splitlines()[0])
    assert head["file"] == "<stdin>"
    replayed = invoke("replay", str(out), "--rules", "games/chicken.rules")
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.startswith("compliant")


def test_run_stdin_extends_from_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "base.rules").write_bytes(CHICKEN)
    monkeypatch.chdir(tmp_path)
    variant = b'game "Chicken, piped" extends "base.rules"\n'
    result = invoke("run", "-", "--seed", "2", "-q", input=variant)
    assert result.exit_code == 0, result.output
    assert "Winner" in result.stdout


def test_run_stdin_extends_nothing_above_the_current_directory(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "base.rules").write_bytes(CHICKEN)
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    result = invoke("run", "-", "--seed", "2", "-q", input=b'game "Up" extends "../base.rules"\n')
    assert result.exit_code == 1
    assert "<stdin>:1:" in result.stderr and "outside the current directory" in result.stderr
    assert "Traceback" not in result.output


def test_run_stdin_extends_a_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("check", "-", input=b'game "Up" extends "nothere.rules"\n')
    assert result.exit_code == 1
    assert "does not exist: nothere.rules" in result.stderr and "relative to the current directory" in result.stderr


def test_run_stdin_with_a_human_player_is_a_usage_error() -> None:
    result = invoke("run", "-", "-a", "human", input=CHICKEN)
    assert result.exit_code == 2
    assert "human" in result.output


def test_simulate_does_not_read_stdin() -> None:
    result = invoke("simulate", "-", "-n", "2", input=CHICKEN)
    assert result.exit_code == 2
    assert "standard input" in result.output


# ------------------------------------------------------------------ --trace -


@pytest.mark.parametrize("target", ["-", "/dev/stdout"])
def test_trace_to_stdout_is_the_trace_file(tmp_path: Path, target: str) -> None:
    out = tmp_path / "t.jsonl"
    written = cli("run", "games/chicken.rules", "--seed", "3", "-q", "--trace", str(out))
    piped = cli("run", "games/chicken.rules", "--seed", "3", "-q", "--trace", target)
    assert written.returncode == 0 and piped.returncode == 0, piped.stderr
    assert piped.stdout == out.read_bytes()
    assert b"Winner" in piped.stderr and b"Winner" in written.stdout
    assert not (ROOT / "-").exists()


def test_trace_to_stdout_sends_the_play_by_play_to_stderr() -> None:
    piped = cli("run", "games/chicken.rules", "--seed", "3", "--trace", "-")
    assert piped.returncode == 0, piped.stderr
    lines = piped.stdout.decode().splitlines()
    assert json.loads(lines[0])["type"] == "header" and json.loads(lines[-1])["type"] == "result"
    assert all(isinstance(json.loads(line), dict) for line in lines)
    assert b"Chicken!: 4 players, seed 3" in piped.stderr and b"Turn 1" in piped.stderr
    assert b"trace written" not in piped.stdout + piped.stderr


def test_trace_to_stdout_replays(tmp_path: Path) -> None:
    piped = cli("run", "games/chicken.rules", "--seed", "5", "-q", "--trace", "-")
    trace = tmp_path / "t.jsonl"
    trace.write_bytes(piped.stdout)
    result = invoke("replay", str(trace), "--rules", "games/chicken.rules")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("target", ["/dev/stderr", "/dev/null"])
def test_trace_to_another_device_points_at_trace_dash(target: str) -> None:
    result = invoke("run", "games/chicken.rules", "--seed", "3", "-q", "--trace", target)
    assert result.exit_code == 2
    assert "--trace - writes the trace to standard output" in result.output


def test_trace_to_stdout_with_json_is_a_usage_error() -> None:
    result = invoke("run", "games/chicken.rules", "--seed", "3", "--json", "--trace", "-")
    assert result.exit_code == 2
    assert "--trace -" in result.output


def test_rules_from_stdin_and_trace_to_stdout() -> None:
    piped = cli("run", "-", "--seed", "3", "-q", "--trace", "-", input=CHICKEN)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout.splitlines()[0])["file"] == "<stdin>"
    assert b"Winner" in piped.stderr


# ------------------------------------------------------------------ shell completion


@pytest.mark.parametrize(("shell", "mark"), [("bash", "complete -o nosort -F _rulelang_completion rulelang"),
                                              ("zsh", "#compdef rulelang"),
                                              ("fish", "complete --no-files --command rulelang")])
def test_completion_script_is_produced(shell: str, mark: str) -> None:
    result = CliRunner().invoke(main, [], prog_name="rulelang", env={"_RULELANG_COMPLETE": f"{shell}_source"})
    assert result.exit_code == 0, result.output
    assert mark in result.output


def test_completion_completes_commands() -> None:
    result = CliRunner().invoke(main, [], prog_name="rulelang",
                                env={"_RULELANG_COMPLETE": "bash_complete", "COMP_WORDS": "rulelang si",
                                     "COMP_CWORD": "1"})
    assert result.exit_code == 0
    assert "plain,simulate" in result.output
