"""The language server's reuse between edits (issue 24, item 6): after any edit, what the reusing analyser reports
is what a check of the new text from scratch reports.

Edits are drawn as an author (or a cat on the keyboard) makes them: characters typed or deleted anywhere, lines
added, removed, duplicated, indented, numbers and names changed, comments and blank lines that move everything
below. Each sequence of edits runs against one reusing analyser, as a buffer's edits do in the server. (A few examples
here; run with more, 400 parses and 120 analyses of five games passed before this was merged.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.compile.checking import CheckingCompile, function_key
from rulelang.errors import ErrorList, RulelangError
from rulelang.lsp.analysis import Analyser, analyse
from rulelang.lsp.incremental import BufferParser, moved, pieces
from rulelang.syntax.build import build_file
from rulelang.syntax.span import Span

REPO = Path(__file__).resolve().parents[2]
GAMES = {p.stem: p for p in sorted((REPO / "games").glob("*.rules"))}
SETTINGS = {"deadline": None, "suppress_health_check": list(HealthCheck), "database": None}
TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|\d+|\S')
TYPED = ["\n", " ", "  ", "\t", "#", "# note", "(", ")", "[", "]", "\\", '"', ":", "0", "1", "7", "x", "_", "{", "}",
         "{p}", "rule", "if", "else", "elif", "and", "not", "+", "-", "*", "=", "==", ">", ",", "\n\n", "\r\n", "é",
         "\nrule extra:\n  say \"hi\"\n", "\n# a comment line\n", "\n  ", "\\\n", "say \"{x}\"", "let y = 2\n  "]


@st.composite
def edit(draw: st.DrawFn, text: str) -> str:
    """``text`` after one edit."""
    lines = text.split("\n")
    i = draw(st.integers(0, max(0, len(lines) - 1)))
    op = draw(st.sampled_from(["type", "type", "delete", "number", "token", "blank", "comment", "line", "indent"]))
    if op == "type":  # characters typed anywhere
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.sampled_from(TYPED)) + text[at:]
    if op == "delete":  # a few characters deleted (backspace, a selection)
        at = draw(st.integers(0, len(text)))
        return text[:at] + text[at + draw(st.integers(1, 12)):]
    if op in ("number", "token"):
        spans = [m.span() for m in TOKEN.finditer(lines[i])]
        if not spans:
            return text
        a, b = draw(st.sampled_from(spans))
        if op == "number":
            new = str(draw(st.integers(0, 12)))
        else:
            new = draw(st.sampled_from(TOKEN.findall(text[:20000]) or ["x"]))
        lines[i] = lines[i][:a] + new + lines[i][b:]
    elif op == "blank":
        lines.insert(i, "")
    elif op == "comment":
        lines.insert(i, draw(st.sampled_from(["# a note", "  # indented note", "#"])))
    elif op == "line":
        how = draw(st.sampled_from(["delete", "duplicate", "swap"]))
        if how == "delete" and len(lines) > 1:
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, lines[i])
        else:
            j = draw(st.integers(0, max(0, len(lines) - 1)))
            lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = draw(st.sampled_from([" ", "  ", "\t"])) + lines[i] if draw(st.booleans()) else lines[i].lstrip()
    return "\n".join(lines)


def _built(build, text: str, path: str) -> object:
    """The AST, or the error (message, place, hint) that building it raised."""
    try:
        return build(text, path)
    except RulelangError as exc:
        return ("error", exc.message, exc.span, exc.hint)
    except ErrorList as exc:
        return ("errors", [(e.message, e.span, e.hint) for e in exc.errors])


# ------------------------------------------------------------------ the parse


@settings(max_examples=20, **SETTINGS)
@given(st.sampled_from(sorted(GAMES)), st.data())
def test_the_reusing_parser_builds_what_build_file_builds(game: str, data: st.DataObject) -> None:
    text = GAMES[game].read_text(encoding="utf-8")
    parser = BufferParser()
    path = f"games/{game}.rules"
    assert _built(parser.build, text, path) == build_file(text, path)
    for _ in range(data.draw(st.integers(1, 8))):
        text = data.draw(edit(text))
        assert _built(parser.build, text, path) == _built(build_file, text, path)


def test_an_edit_parses_one_piece_and_lines_added_above_move_the_rest() -> None:
    text = GAMES["rooster-rush"].read_text(encoding="utf-8")
    path = "games/rooster-rush.rules"
    parser = BufferParser()
    parser.build(text, path)
    assert parser.parsed == len(pieces(text)) > 20
    changed = text.replace("players 3 to 6", "players 3 to 5")
    assert changed != text and parser.build(changed, path) == build_file(changed, path)
    assert parser.parsed == 1
    shifted = "# a new first line\n\n" + changed
    assert parser.build(shifted, path) == build_file(shifted, path)
    assert parser.parsed == 1  # the first piece (its comment lines changed); every other one moved down two lines
    assert parser.build("#" + shifted, path) == build_file("#" + shifted, path)  # and a piece edited in place


def test_a_piece_that_parses_only_with_its_neighbour_is_parsed_with_it() -> None:
    """A line at column 0 inside brackets or after a continued line is no new item: the whole text decides."""
    base = GAMES["chicken"].read_text(encoding="utf-8")
    for text in (base + "\ndefine total_x = max(\n1, 2)\n", base + "\ndefine total_y = 1 + \\\n2\n",
                 base.replace("\nsetup:", "\n\\\nsetup:", 1)):
        assert _built(BufferParser().build, text, "g.rules") == _built(build_file, text, "g.rules")


def test_moved_spans_keep_columns_and_empty_places() -> None:
    span = Span("f", 3, 4, 5, 6)
    assert moved((span, "x", 3), 10) == (Span("f", 13, 4, 15, 6), "x", 3)
    assert moved(Span("f", 1, 1, 1, 1), 10) == Span("f", 1, 1, 1, 1)  # (what the builder gives an empty match)


# ------------------------------------------------------------------ the whole analysis


def _check_sequence(game: str, data: st.DataObject, edits: int) -> None:
    path = GAMES[game]
    text = path.read_text(encoding="utf-8")
    analyser = Analyser()
    assert analyser.analyse(path, text) == analyse(path, text)
    for _ in range(data.draw(st.integers(1, edits))):
        text = data.draw(edit(text))
        assert analyser.analyse(path, text) == analyse(path, text)


@settings(max_examples=8, **SETTINGS)
@given(st.sampled_from(["chicken", "chicken-eggspansion", "barnyard-2p"]), st.data())
def test_analyses_after_edits_equal_analyses_from_scratch(game: str, data: st.DataObject) -> None:
    _check_sequence(game, data, 4)


@settings(max_examples=3, **SETTINGS)
@given(st.data())
def test_analyses_of_the_largest_game_after_edits_equal_analyses_from_scratch(data: st.DataObject) -> None:
    _check_sequence(max(GAMES, key=lambda g: GAMES[g].stat().st_size), data, 4)


def test_compile_errors_after_an_edit_are_the_ones_from_scratch(tmp_path: Path) -> None:
    """Python's compiler refuses 21 nested loops (see tests/hardening/test_limits.py): found after an edit too."""
    path = tmp_path / "deep.rules"
    base = (REPO / "tests" / "bad_rules" / "ok_base.rules").read_text(encoding="utf-8")
    turn = "  roll all in middle\n"

    def nested(depth: int) -> str:
        body = "".join(f"{'  ' * i}while score of current < {i}:\n" for i in range(1, depth + 1))
        return base.replace(turn, turn + body + f"{'  ' * (depth + 1)}score of current += 1\n")

    analyser = Analyser()
    for depth in (19, 24, 20, 24, 3, 25):
        text = nested(depth)
        got = analyser.analyse(path, text)
        assert got == analyse(path, text)
        assert [p.message.split("(")[0] for p in got.problems] == (
            ["the rules nest too deeply here to be compiled "] if depth > 20 else [])


# ------------------------------------------------------------------ compiling only what changed


def test_the_checking_compile_raises_what_compile_raises_and_remembers_what_compiled() -> None:
    checking = CheckingCompile()
    ok = "def a1(x):\n    return x + 1\n\n# a comment\ndef b2(y):\n    return y\n"
    assert checking(ok, "<m>", "exec") is None and checking.last_compiled == 2
    renamed = ok.replace("a1", "a7").replace("# a comment", "# another")
    assert checking(renamed, "<m>", "exec") is None and checking.last_compiled == 0
    deep = "def c3():\n" + "".join("    " * (i + 1) + f"for v{i} in x:\n" for i in range(21)) + "    " * 22 + "pass\n"
    with pytest.raises(SyntaxError) as plain:
        compile(ok + deep, "<m>", "exec")
    with pytest.raises(SyntaxError) as checked:
        checking(ok + deep, "<m>", "exec")
    assert (checked.value.msg, checked.value.lineno) == (plain.value.msg, plain.value.lineno)
    assert function_key("x = k12 + _v3 + k12  # n1\n# r9\n") == "x = _q0 + _q1 + _q0  # _q2\n"
