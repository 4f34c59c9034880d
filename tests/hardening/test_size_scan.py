"""Hostile sizes are refused before the parser works on them (rulelang/syntax/scan.py), and before code is written.

Each refusal is a RulelangError at the place the limit is passed, naming the limit; how fast
they come is measured by ``benchmarks/refusals.py``, not here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.compile import expansion
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.syntax import parser, scan
from rulelang.syntax.build import build_file
from rulelang.syntax.loader import load_sources

REPO = Path(__file__).resolve().parents[2]
HEAD = 'game "Hostile"\nplayers 2 to 2\ncounter score per player = 0\n\nsetup:\n  set score of current to 0\n\n'
END = "\nwhen score of current >= 3:\n  end game\n\nrank p by highest score of p\n"
MIB = 1024 * 1024


@pytest.fixture
def no_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any use of the Lark parser fail the test: the refusal must come before it."""
    def refuse() -> None:
        raise AssertionError("the parser was asked to parse")
    monkeypatch.setattr(parser, "_parser", refuse)


def _refusal(text: str) -> RulelangError:
    with pytest.raises(RulelangError) as info:
        build_file(text, "g.rules")
    return info.value


def test_a_megabyte_chain_of_operators_is_refused_at_the_operator_past_the_limit(no_parser: None) -> None:
    line = " + ".join(["1"] * 40) + " +\n  "  # 40 operators a line, in brackets: one statement
    text = HEAD + "define x = (" + line * ((MIB - len(HEAD)) // len(line) - 1) + "1)\n"
    assert len(text.encode()) <= MIB and text.count("\n") < scan.MAX_LINES
    error = _refusal(text)
    assert error.message == ("operators nest too deeply in this statement (more than 100: each operator of a chain "
                             "is one level for the parser)")
    first = HEAD.count("\n") + 1  # the line of 'define x = ('
    # the 101st operator: 2 full lines of 40, then the 21st '+' of the next line
    assert (error.span.file, error.span.line, error.span.col) == ("g.rules", first + 2, 5 + 4 * 20)
    assert text.split("\n")[error.span.line - 1][error.span.col - 1] == "+"
    assert "partial" in (error.hint or "") and "'let'" in (error.hint or "")
    formatted = error.format()
    assert formatted.startswith(f"g.rules:{first + 2}:85: error: operators nest too deeply")
    assert formatted.splitlines()[2].strip() == "^"


def test_a_chain_on_one_long_line_is_refused_as_a_long_line(no_parser: None) -> None:
    text = HEAD + "define x = " + "1+" * 300_000 + "1\n"
    error = _refusal(text)
    assert error.message == f"this line is too long (more than {scan.MAX_LINE_CHARS} characters)"
    assert (error.span.line, error.span.col) == (HEAD.count("\n") + 1, 1)
    assert len(error.format()) < 400  # the line is quoted cut short, not a megabyte of it


def test_deep_parentheses_are_refused_at_the_first_one_past_the_limit(no_parser: None) -> None:
    text = HEAD + "define x = " + "(" * 4_000 + "1" + ")" * 4_000 + "\n"  # 8 KB, within the line limit
    error = _refusal(text)
    assert error.message == "brackets nest too deeply here (more than 32 levels of '(', '[' or '{')"
    assert (error.span.line, error.span.col) == (HEAD.count("\n") + 1, len("define x = ") + scan.MAX_BRACKETS + 1)
    assert "'define'" in (error.hint or "")


def test_deep_brackets_over_many_lines_are_refused_where_the_limit_is_passed(no_parser: None) -> None:
    text = HEAD + "define x = max(\n" + "".join("  [\n" for _ in range(40)) + "  1" + "]" * 40 + ")\n"
    error = _refusal(text)
    assert "brackets nest too deeply" in error.message
    assert (error.span.line, error.span.col) == (HEAD.count("\n") + 1 + scan.MAX_BRACKETS, 3)


def test_too_many_tokens_in_a_file(no_parser: None) -> None:
    text = HEAD + "turn:\n" + "  score of current += 1\n" * 4000 + END
    error = _refusal(text)
    assert error.message == f"the file is too long to check (more than {scan.MAX_FILE_TOKENS} words and symbols)"
    assert error.span is not None and error.span.line > HEAD.count("\n")


def test_too_many_tokens_in_one_statement(no_parser: None) -> None:
    text = HEAD + "define x = max(\n" + "  1, 1, 1, 1, 1, 1, 1, 1, 1, 1,\n" * 120 + "  1)\n"
    error = _refusal(text)
    assert error.message == f"this statement is too long (more than {scan.MAX_STATEMENT_TOKENS} words and symbols)"


def test_too_many_lines(no_parser: None) -> None:
    error = _refusal(HEAD + "\n" * MIB)
    assert error.message == f"the file is too long to check (more than {scan.MAX_LINES} lines)"
    assert error.span.line == scan.MAX_LINES + 1


def test_blocks_nested_too_deeply(no_parser: None) -> None:
    body = "".join("  " * (i + 1) + "if score of current > 0:\n" for i in range(70)) + "  " * 71 + "pass\n"
    error = _refusal(HEAD + "turn:\n" + body)
    assert error.message == f"the blocks nest too deeply here (more than {scan.MAX_INDENT_LEVELS} indented levels)"
    assert error.span.line == HEAD.count("\n") + 2 + scan.MAX_INDENT_LEVELS


def test_too_many_holes_in_strings(no_parser: None) -> None:
    text = HEAD + "turn:\n" + '  say "{1}{2}{3}{4}{5}{6}{7}{8}{9}{10}"\n' * 500 + END
    error = _refusal(text)
    assert "too many {...} holes" in error.message


def test_a_deep_expression_inside_a_hole_is_refused_in_the_file() -> None:
    text = HEAD + 'turn:\n  say "{' + "(" * 40 + "1" + ")" * 40 + '}"\n' + END
    error = _refusal(text)
    assert "brackets nest too deeply" in error.message
    assert error.span.line == HEAD.count("\n") + 2


def test_a_game_and_the_files_it_extends_share_the_token_budget(tmp_path: Path) -> None:
    lines = scan.MAX_FILE_TOKENS * 13 // 100  # 5 tokens a line: 65% of the limit, so each file alone is within it
    half = "  score of current += 1\n" * lines
    (tmp_path / "base.rules").write_text(HEAD + "turn:\n" + half + END, encoding="utf-8")
    (tmp_path / "v.rules").write_text('game "V" extends "base.rules"\n\nrule extra "Extra":\n' + half,
                                      encoding="utf-8")
    with pytest.raises(RulelangError) as info:
        load_sources(tmp_path / "v.rules")
    assert "this game with the files it extends is too long to check" in info.value.message
    assert info.value.span is not None and info.value.span.file.endswith("base.rules")


def _load_errors(tmp_path: Path, text: str) -> list[RulelangError]:
    path = tmp_path / "g.rules"
    path.write_text(text, encoding="utf-8")
    try:
        load_game(path)
    except ErrorList as exc:
        return exc.errors
    except RulelangError as exc:
        return [exc]
    return []


def test_a_chain_of_rules_calling_each_other_twice_is_refused_before_code_is_written(tmp_path: Path) -> None:
    rules = 'rule r0 "R0":\n  score of current += 1\n' + "".join(
        f'rule r{k} "R{k}":\n  r{k - 1}\n  r{k - 1}\n' for k in range(1, 31))
    [error] = _load_errors(tmp_path, HEAD + "turn:\n  r30\n" + END + rules)
    assert error.message.startswith(f"the rules expand to too much code (more than {expansion.MAX_EXPANDED_CODE}")
    assert error.span is not None and error.span.line > HEAD.count("\n")


def test_runs_of_if_blocks_that_write_too_much_code_are_refused(tmp_path: Path) -> None:
    body = "".join(f"  if score of current > {k}:\n    score of current += {k}\n" for k in range(200))
    [error] = _load_errors(tmp_path, HEAD + "turn:\n" + body + END)
    assert error.message == f"the rules compile to too much code (more than {expansion.MAX_GENERATED_LINES} lines " \
                            "of Python)"
    assert (error.span.line, error.span.col) == (HEAD.count("\n") + 1, 1)  # the turn


def test_definitions_doubling_at_each_step_are_refused_at_the_use(tmp_path: Path) -> None:
    chain = "define d0 = 1\n" + "".join(f"define d{k} = d{k - 1} + d{k - 1}\n" for k in range(1, 25))
    [error] = _load_errors(tmp_path, HEAD + chain + "turn:\n  score of current += d24\n" + END)
    assert "definitions expand to more than" in error.message
    use = HEAD.count("\n") + 25 + 2
    assert (error.span.line, error.span.col) == (use, len("  score of current += ") + 1)


SHIPPED = sorted([*REPO.glob("games/*.rules"), *REPO.glob("examples/**/*.rules")])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_shipped_game_is_far_within_the_limits(path: Path) -> None:
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    assert scan.game_tokens(text, path.name) * 4 < scan.MAX_FILE_TOKENS
    try:
        engine = load_game(path)
    except (RulelangError, ErrorList) as exc:  # an example of a mistake: any error but a limit
        assert "too long" not in exc.format() and "too much" not in exc.format()
        return
    assert expansion.check_expansion(engine.model) * 4 < expansion.MAX_EXPANDED_CODE


def test_check_refuses_a_hostile_file_with_a_place_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "g.rules"
    path.write_text(HEAD + "define x = " + "(" * 40 + "1" + ")" * 40 + "\n" + END, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"g.rules:{HEAD.count(chr(10)) + 1}:{len('define x = ') + 33}: error: brackets nest too deeply" in \
        result.output
    assert "hint: name the inner part" in result.output
