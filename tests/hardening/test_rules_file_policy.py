"""One way of opening rules files (safeio.read_rules) for check, fmt, replay and the language server.

A file named by another file (an ``extends``, a trace's header) stays in that file's directory,
symbolic links included; every refusal names the path as written, never what the refused file holds.
The language server's side is tested over its protocol in tests/editor/test_lsp.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.errors import RulelangError
from rulelang.lsp.analysis import analyse
from rulelang.safeio import MAX_RULES_BYTES, InputError, check_rules_buffer, read_rules
from rulelang.syntax.loader import load_sources
from rulelang.trace.replay import replay_file

REPO = Path(__file__).resolve().parents[2]
OK_BASE = REPO / "tests" / "bad_rules" / "ok_base.rules"
SECRET = "root:x:0:0:top-secret-line"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file next to the project folder, not rules at all but named like rules."""
    secret = tmp_path / "secret.rules"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "project").mkdir()
    return secret


def test_a_symlink_that_leads_out_of_the_directory_is_not_followed(tmp_path: Path, outside: Path) -> None:
    project = tmp_path / "project"
    (project / "shadow.rules").symlink_to(outside)
    variant = project / "v.rules"
    variant.write_text('game "V" extends "shadow.rules"\n', encoding="utf-8")
    with pytest.raises(RulelangError) as info:
        load_sources(variant)
    assert info.value.message == "'shadow.rules' is outside the directory of the file that extends it"
    assert SECRET not in info.value.format()
    assert info.value.span is not None and (info.value.span.line, info.value.span.col) == (1, 18)


def test_a_symlink_inside_the_directory_is_followed(tmp_path: Path) -> None:
    shutil.copy(OK_BASE, tmp_path / "real.rules")
    (tmp_path / "base.rules").symlink_to(tmp_path / "real.rules")
    variant = tmp_path / "v.rules"
    variant.write_text('game "V" extends "base.rules"\n', encoding="utf-8")
    assert len(load_sources(variant)) == 2


def test_read_rules_confines_and_names_the_written_path(tmp_path: Path, outside: Path) -> None:
    project = tmp_path / "project"
    with pytest.raises(InputError) as info:
        read_rules(project / "../secret.rules", "x", within=project, written="../secret.rules")
    assert info.value.message == "'../secret.rules' is outside the directory of the file that names it"
    assert read_rules(outside, "secret.rules") == (SECRET + "\n").encode()  # the user's own file: read


def test_an_editor_buffer_is_held_to_the_file_size_limit() -> None:
    with pytest.raises(InputError) as info:
        check_rules_buffer("#" * (MAX_RULES_BYTES + 1), "big.rules")
    assert info.value.message == f"big.rules is too big to check ({MAX_RULES_BYTES + 1} bytes; the limit is " \
                                 f"{MAX_RULES_BYTES})"
    assert check_rules_buffer("\ufeff# fine\n", "ok.rules") == "# fine\n"
    with pytest.raises(InputError) as nul:
        check_rules_buffer('game "x"\n\x00', "nul.rules")
    assert nul.value.span is not None and (nul.value.span.line, nul.value.span.col) == (2, 1)


def test_the_analysis_refuses_what_check_refuses(tmp_path: Path, outside: Path) -> None:
    project = tmp_path / "project"
    (project / "shadow.rules").symlink_to(outside)
    for extends in ("shadow.rules", "../secret.rules"):
        analysis = analyse(project / "v.rules", f'game "V" extends "{extends}"\n')
        [problem] = analysis.problems
        assert problem.message.startswith(f"'{extends}' is outside the directory")
        assert SECRET not in problem.message and problem.elsewhere is None


def test_fmt_reads_only_rules_files(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text(SECRET + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(notes)])
    assert result.exit_code == 1 and "is not a .rules file" in result.output and SECRET not in result.output
    assert notes.read_text(encoding="utf-8") == SECRET + "\n"


def test_a_trace_naming_an_absolute_symlink_out_of_its_directory_is_malformed(tmp_path: Path, outside: Path) -> None:
    link = tmp_path / "project" / "game.rules"
    link.symlink_to(outside)
    trace = tmp_path / "project" / "t.jsonl"
    header = {"type": "header", "format": "rulelang-trace/1", "file": str(link), "players": 2}
    trace.write_text(json.dumps(header) + "\n", encoding="utf-8")
    verdict = replay_file(trace)
    assert verdict.status == "malformed" and "leads outside its directory" in verdict.message
    assert SECRET not in verdict.message
