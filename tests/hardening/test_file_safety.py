"""Issue 14, part 2: no command destroys a file, and no input makes rulelang read or echo a file it should not.

Outputs are written only to regular files or new paths, never over an input of the same
command; inputs are read only from regular files of bounded size, rules only from
``.rules`` files in the naming file's directory; special files get clear errors.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang import fmt
from rulelang.cli import main
from rulelang.errors import RulelangError
from rulelang.safeio import check_output, read_input
from rulelang.syntax.loader import load_sources
from rulelang.trace.replay import replay_file

REPO = Path(__file__).resolve().parents[2]
OK_BASE = REPO / "tests" / "bad_rules" / "ok_base.rules"
SECRET = "top-secret-line-42"


def _invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def _clean(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.rules"
    shutil.copy(OK_BASE, path)
    return path


def _trace(tmp_path: Path, game: Path) -> Path:
    out = tmp_path / "t.jsonl"
    result = _invoke("run", game, "-s", 3, "-q", "--trace", out)
    assert result.exit_code == 0, result.output
    return out


# ------------------------------------------------------------------ destructive writes


def test_trace_over_the_rules_file_it_plays_is_refused(game: Path) -> None:
    before = game.read_bytes()
    result = _invoke("run", game, "-s", 1, "-q", "--trace", game)
    _clean(result)
    assert result.exit_code == 2
    assert "input of this command" in result.stderr
    assert game.read_bytes() == before


def test_trace_over_the_base_file_of_a_variant_is_refused(tmp_path: Path, game: Path) -> None:
    variant = tmp_path / "v.rules"
    variant.write_text('game "Roll Higher" extends "g.rules"\n', encoding="utf-8")
    before = game.read_bytes()
    result = _invoke("run", variant, "-s", 1, "-q", "--trace", game)
    assert result.exit_code == 2, result.output
    assert game.read_bytes() == before


def test_trace_over_the_position_it_starts_from_is_refused(tmp_path: Path, game: Path) -> None:
    position = tmp_path / "p.json"
    position.write_text('{"current": "P2"}', encoding="utf-8")
    result = _invoke("run", game, "-s", 1, "-q", "--from", position, "--trace", position)
    assert result.exit_code == 2, result.output
    assert position.read_text(encoding="utf-8") == '{"current": "P2"}'


def test_redacted_trace_over_the_trace_it_reads_is_refused(tmp_path: Path, game: Path) -> None:
    trace = _trace(tmp_path, game)
    before = trace.read_bytes()
    result = _invoke("replay", trace, "--view", "P2", "--redacted", trace)
    _clean(result)
    assert result.exit_code == 2
    assert trace.read_bytes() == before


def test_redacted_trace_over_the_rules_is_refused(tmp_path: Path, game: Path) -> None:
    trace = _trace(tmp_path, game)
    before = game.read_bytes()
    result = _invoke("replay", trace, "--view", "P2", "--redacted", game)
    assert result.exit_code == 2, result.output
    assert game.read_bytes() == before


def test_an_empty_trace_path_is_a_usage_error(game: Path) -> None:
    result = _invoke("run", game, "-s", 1, "-q", "--trace", "")
    _clean(result)
    assert result.exit_code == 2
    assert "empty path" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_not_replaced_by_a_trace(tmp_path: Path, game: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = _invoke("run", game, "-s", 1, "-q", "--trace", fifo)
    assert result.exit_code == 2, result.output
    assert "FIFO" in result.stderr
    assert fifo.is_fifo()


def test_a_symlink_is_not_replaced_by_a_trace(tmp_path: Path, game: Path) -> None:
    target = tmp_path / "real.jsonl"
    target.write_text("keep\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    result = _invoke("run", game, "-s", 1, "-q", "--trace", link)
    assert result.exit_code == 2, result.output
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "keep\n"


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_a_report_is_not_written_over_the_rules_or_a_fifo(tmp_path: Path, game: Path, command: str) -> None:
    """'simulate --report GAME.rules' replaced the rules with HTML, and a FIFO with a file."""
    rules = game
    before = rules.read_bytes()
    extra = [tmp_path / "b.rules"] if command == "compare" else []
    if extra:
        shutil.copy(game, extra[0])
    result = _invoke(command, rules, "-n", 2, "-j", 1, "-q", *extra, "--report", rules)
    _clean(result)
    assert result.exit_code == 2 and "--report" in result.output and "input" in result.output, result.output
    assert rules.read_bytes() == before
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.html"
        os.mkfifo(fifo)
        result = _invoke(command, rules, "-n", 2, "-j", 1, "-q", *extra, "--report", fifo)
        assert result.exit_code == 2 and "FIFO" in result.output and fifo.is_fifo()


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full", "/dev/zero"])
def test_devices_are_refused_as_outputs(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    why = check_output(device, "--trace")
    assert why is not None and "device" in why


def test_a_directory_is_refused_as_an_output(tmp_path: Path) -> None:
    assert "directory" in (check_output(str(tmp_path), "--trace") or "")


def test_a_new_path_and_a_regular_file_may_be_written(tmp_path: Path, game: Path) -> None:
    assert check_output(str(tmp_path / "new.jsonl"), "--trace", [game]) is None
    old = tmp_path / "old.jsonl"
    old.write_text("x\n", encoding="utf-8")
    assert check_output(str(old), "--trace", [game]) is None
    result = _invoke("run", game, "-s", 1, "-q", "--trace", old)
    assert result.exit_code == 0, result.output
    assert json.loads(old.read_text(encoding="utf-8").splitlines()[0])["type"] == "header"


# ------------------------------------------------------------------ reading files


def test_extends_outside_the_directory_is_refused_without_echoing(tmp_path: Path) -> None:
    outside = tmp_path / "secret.rules"
    outside.write_text(SECRET + "\n", encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    variant = sub / "v.rules"
    variant.write_text('game "V" extends "../secret.rules"\n', encoding="utf-8")
    with pytest.raises(RulelangError) as info:
        load_sources(variant)
    assert "outside the directory" in info.value.message
    assert SECRET not in info.value.format()
    assert info.value.span is not None and info.value.span.line == 1


def test_extends_of_a_file_that_is_not_rules_is_refused_without_echoing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text(SECRET + "\n", encoding="utf-8")
    variant = tmp_path / "v.rules"
    variant.write_text('game "V" extends "notes.txt"\n', encoding="utf-8")
    result = _invoke("check", variant)
    _clean(result)
    assert result.exit_code == 1
    assert "not a .rules file" in result.stderr and SECRET not in result.output
    assert f"{variant.as_posix()}:1:" in result.stderr or "v.rules:1:" in result.stderr


def test_extends_into_a_subdirectory_is_allowed(tmp_path: Path) -> None:
    sub = tmp_path / "base"
    sub.mkdir()
    shutil.copy(OK_BASE, sub / "b.rules")
    variant = tmp_path / "v.rules"
    variant.write_text('game "V" extends "base/b.rules"\n', encoding="utf-8")
    assert [len(s.tree.decls) > 0 for s in load_sources(variant)] == [True, True]


def test_a_trace_naming_a_file_that_is_not_rules_is_malformed_without_echoing(tmp_path: Path) -> None:
    (tmp_path / "passwd").write_text(SECRET + ":x:0:0\n", encoding="utf-8")
    trace = tmp_path / "t.jsonl"
    header = {"type": "header", "format": "rulelang-trace/1", "file": str(tmp_path / "passwd"), "players": 2}
    trace.write_text(json.dumps(header) + "\n", encoding="utf-8")
    verdict = replay_file(trace)
    assert verdict.status == "malformed"
    assert SECRET not in verdict.message and ".rules" in verdict.message


def test_a_trace_naming_a_rules_file_above_its_directory_is_refused(tmp_path: Path, game: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    monkeypatch.chdir(sub)
    trace = sub / "t.jsonl"
    header = {"type": "header", "format": "rulelang-trace/1", "file": "../g.rules", "players": 2}
    trace.write_text(json.dumps(header) + "\n", encoding="utf-8")
    verdict = replay_file(trace)
    assert verdict.status == "malformed" and "does not exist here" in verdict.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("command", ["check", "trace", "position", "fmt"])
def test_a_fifo_input_is_an_error_not_a_hang(tmp_path: Path, game: Path, command: str) -> None:
    fifo = tmp_path / "in.rules"
    os.mkfifo(fifo)
    if command in ("check", "fmt"):
        result = _invoke(command, fifo)
    elif command == "trace":
        result = _invoke("replay", fifo)
    else:
        result = _invoke("run", game, "-q", "-s", 1, "--from", fifo)
    _clean(result)
    assert result.exit_code == 1
    assert "FIFO" in result.output


def test_dev_zero_is_an_error_not_out_of_memory(tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    link = tmp_path / "zero.rules"
    link.symlink_to("/dev/zero")
    result = _invoke("check", link)
    _clean(result)
    assert result.exit_code == 1 and "device" in result.stderr
    result = _invoke("replay", "/dev/zero")
    assert result.exit_code == 1 and "device" in result.output
    result = _invoke("fmt", link)  # fmt reads as the loader does (it read /dev/zero until memory ran out)
    _clean(result)
    assert result.exit_code == 1 and "device" in result.output and link.is_symlink()


def test_fmt_leaves_a_device_alone() -> None:
    """/dev/null read as an empty file would have been 'formatted'; it is refused like any device."""
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    result = _invoke("fmt", "/dev/null")
    _clean(result)
    assert result.exit_code == 1 and "device" in result.output


def test_a_symlink_loop_is_an_error(tmp_path: Path) -> None:
    a, b = tmp_path / "a.rules", tmp_path / "b.rules"
    a.symlink_to(b)
    b.symlink_to(a)
    result = _invoke("check", a)
    _clean(result)
    assert result.exit_code == 1 and "symbolic link" in result.stderr
    result = _invoke("replay", a)
    _clean(result)
    assert result.exit_code == 1


def test_nul_bytes_are_an_error_with_a_place(tmp_path: Path) -> None:
    path = tmp_path / "n.rules"
    path.write_bytes(b'game "T"\nplayers 2\x00 to 2\n')
    result = _invoke("check", path)
    _clean(result)
    assert result.exit_code == 1
    assert ":2:10:" in result.stderr and "NUL" in result.stderr
    trace = tmp_path / "t.jsonl"
    trace.write_bytes(b'{"type": "header"}\n{"type"\x00: 1}\n')
    verdict = replay_file(trace)
    assert verdict.status == "malformed" and "NUL" in verdict.message and verdict.line == 2


def test_the_size_read_is_capped(tmp_path: Path) -> None:
    path = tmp_path / "big.rules"
    path.write_bytes(b"# " + b"x" * 2000 + b"\n")
    with pytest.raises(RulelangError, match="too big"):
        read_input(path, "rules file", 1000)
    assert len(read_input(path, "rules file", 4000)) == 2003


def test_a_rules_file_past_the_limit_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """A few MB of generated statements took minutes and gigabytes to check; the limit stops it at once."""
    from rulelang.safeio import MAX_RULES_BYTES

    path = tmp_path / "huge.rules"
    line = "  pot += 1\n"
    path.write_text('game "T"\n' + line * (MAX_RULES_BYTES // len(line) + 1), encoding="utf-8")
    result = _invoke("check", path)
    _clean(result)
    assert result.exit_code == 1 and "too big" in result.stderr
    result = _invoke("fmt", path)
    assert result.exit_code == 1 and "too big" in result.output


def test_a_missing_file_is_still_named_plainly(tmp_path: Path) -> None:
    result = _invoke("check", tmp_path / "nope.rules")
    assert result.exit_code == 1 and "no such file" in result.stderr


def test_a_game_file_must_be_a_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text(SECRET + "\n", encoding="utf-8")
    result = _invoke("check", path)
    _clean(result)
    assert result.exit_code == 1 and "not a .rules file" in result.stderr and SECRET not in result.output


# ------------------------------------------------------------------ line endings and places


def test_cr_only_line_endings_are_read_as_lines(tmp_path: Path) -> None:
    text = OK_BASE.read_text(encoding="utf-8").replace("\n", "\r")
    path = tmp_path / "cr.rules"
    path.write_bytes(text.encode())
    result = _invoke("check", path)
    assert result.exit_code == 0, result.output
    result = _invoke("fmt", path)  # fmt read the file as one long line and refused it
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == fmt.format_text(OK_BASE.read_text(encoding="utf-8"), str(path)).encode()


def test_an_over_indented_line_is_reported_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "i.rules"
    path.write_text('game "T"\n        players 2 to 2\n', encoding="utf-8")
    result = _invoke("check", path)
    assert result.exit_code == 1
    assert "i.rules:2:1: error: unexpected indentation" in result.stderr


def test_the_empty_file_error_has_a_caret(tmp_path: Path) -> None:
    path = tmp_path / "e.rules"
    path.write_text("", encoding="utf-8")
    result = _invoke("check", path)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert "e.rules:1:1: error: the file is empty" in lines[0]
    assert lines[2].strip() == "^"
