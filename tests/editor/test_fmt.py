"""`rulelang fmt`: the canonical layout, meaning kept (ASTs compared), idempotence, comments kept, --check."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.errors import RulelangError
from rulelang.fmt import FormatError, format_text, same_meaning
from rulelang.syntax.build import build_file

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted((REPO / "games").glob("*.rules"))
BAD = sorted((REPO / "tests" / "bad_rules").glob("*.rules"))


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8-sig")


def _comments(text: str) -> list[str]:
    """The comments of a file, in order, without the code (strings removed first)."""
    out = []
    for line in text.splitlines():
        code = re.sub(r'"([^"\\\n]|\\.)*"', '""', line)
        if "#" in code:
            out.append(code[code.index("#"):].rstrip())
    return out


def _parses(path: Path) -> bool:
    try:
        build_file(_read(path), path.name)
    except (RulelangError, UnicodeDecodeError):
        return False
    return True


def test_the_corpus_is_not_empty() -> None:
    assert len(GAMES) >= 5
    assert any(_parses(p) for p in BAD) and any(not _parses(p) for p in BAD)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_round_trip_keeps_meaning_comments_and_is_idempotent(path: Path) -> None:
    _round_trips(path)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_a_bad_file_round_trips_or_is_refused_with_a_place(path: Path, tmp_path: Path) -> None:
    """A file of bad_rules/ that parses (its faults are the checker's) formats as a game does; one that does not
    parse is refused (whether it parses is asked here, not while the tests are collected)."""
    if _parses(path):
        _round_trips(path)
    else:
        _is_refused_with_a_place(path, tmp_path)


def _round_trips(path: Path) -> None:
    """The canonical layout of ``path`` keeps its meaning and comments, is idempotent and tidy."""
    text = _read(path)
    once = format_text(text, str(path))
    assert same_meaning(build_file(text, "a.rules"), build_file(once, "a.rules"))
    assert _comments(once) == _comments(text)
    assert format_text(once, str(path)) == once
    assert once == "" or (once.endswith("\n") and not once.endswith("\n\n"))
    assert all(line == line.rstrip() for line in once.splitlines())
    assert "\t" not in "".join(line[: len(line) - len(line.lstrip())] for line in once.splitlines())


def _is_refused_with_a_place(path: Path, tmp_path: Path) -> None:
    """``rulelang fmt`` on a copy of ``path`` (which does not parse) exits 1 with a place, the file unchanged."""
    data = path.read_bytes()
    copy = tmp_path / path.name
    copy.write_bytes(data)
    result = CliRunner().invoke(main, ["fmt", str(copy)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert re.search(r":\d+:\d+: error: ", result.output), result.output
    assert "left unchanged" in result.output
    assert copy.read_bytes() == data


def _shape(line: str) -> tuple[int, int]:
    """A line's indentation and number of space-separated cells (strings and comments as one)."""
    code = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', line).split("#")[0]
    return len(line) - len(line.lstrip(" ")), len(code.split())


def _perturb(text: str, seed: int) -> str:
    """The same (canonical) file laid out worse: wider indentation (tabs for some), more spaces, more blank lines.

    Lines that could form a table with a neighbour (same indentation and number of cells)
    keep their spacing: widening them at random could line their columns up, which the
    formatter rightly takes for a table.
    """
    rng = random.Random(seed)
    out = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        body = line.lstrip(" ")
        indent = " " * (2 * (len(line) - len(body)))
        if seed % 2 and indent:
            indent = indent.replace("    ", "\t")
        neighbours = [lines[n] for n in (number - 1, number + 1) if 0 <= n < len(lines)]
        tabular = any(_shape(n) == _shape(line) for n in neighbours)
        parts = re.split(r'("(?:[^"\\\n]|\\.)*"|#.*)', body)  # keep strings and comments as they are
        for i in range(0, len(parts), 2):
            if not tabular:
                parts[i] = re.sub(r"(?<=\S) (?=\S)", lambda _m: " " * rng.randint(1, 4), parts[i])
        out.append((indent + "".join(parts)).rstrip() + " " * rng.randint(0, 2))
        if not line.strip():
            out.extend([""] * rng.randint(0, 2))
    return "\r\n".join(out) + "\n" * rng.randint(0, 3)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_a_worse_layout_formats_to_the_same_canonical_text(path: Path, seed: int) -> None:
    canonical = format_text(_read(path), str(path))
    worse = _perturb(canonical, seed)
    assert worse != canonical
    assert format_text(worse, str(path)) == canonical


MESSY = """\
# a header comment
game   "Tiny"
players 2 to 4   default 2



attribute pips=0 # pips
attribute big = false      # big?
face One :pips 1
face Minus: pips -1
1 Red die "red": One,One
counter score per player=0 "points"
zone middle
zone held : per player
define best = max( score of p for p in players )
define twice(x:number) = x*2
setup:

    move all from box to middle
    if twice( 2 )>3 and not false:
            say "big {1+1}"
    # about the else
    else:
            pass
turn:
\troll all in middle
\t# a note for the next line
\tscore of current+=sum(pips of all in middle)-1
\tlet d = (count(all in middle) +
  count(all in held of current))
\tlet e = 1 + \\
      2
when score of current>=10:
  end game
  # end of the trigger


rank p by highest score of p, then lowest  -score of p
"""

CANONICAL = """\
# a header comment
game "Tiny"
players 2 to 4 default 2

attribute pips = 0     # pips
attribute big = false  # big?
face One: pips 1
face Minus: pips -1
1 Red die "red": One, One
counter score per player = 0 "points"
zone middle
zone held: per player
define best = max(score of p for p in players)
define twice(x: number) = x * 2
setup:
  move all from box to middle
  if twice(2) > 3 and not false:
    say "big {1+1}"
  # about the else
  else:
    pass
turn:
  roll all in middle
  # a note for the next line
  score of current += sum(pips of all in middle) - 1
  let d = (count(all in middle) +
           count(all in held of current))
  let e = 1 + \\
      2
when score of current >= 10:
  end game
  # end of the trigger

rank p by highest score of p, then lowest -score of p
"""


def test_the_canonical_layout() -> None:
    assert format_text(MESSY, "messy.rules") == CANONICAL
    assert format_text(CANONICAL, "messy.rules") == CANONICAL
    assert same_meaning(build_file(MESSY, "a.rules"), build_file(CANONICAL, "a.rules"))


def test_calls_hold_their_parenthesis_and_other_keywords_stand_apart() -> None:
    text = 'turn:\n  move (2) Red from box to middle\n  act(1)\n  let n = count(all in middle)\n'
    assert format_text(text, "t.rules") == text
    squeezed = 'turn:\n  move(2) Red from box to middle\n  act (1)\n  if(count (all in middle) > 0):\n    pass\n'
    assert format_text(squeezed, "t.rules") == (
        'turn:\n  move (2) Red from box to middle\n  act(1)\n  if (count(all in middle) > 0):\n    pass\n')


def test_lines_written_as_a_table_stay_in_columns() -> None:
    rows = [("zone coop      ", '"the Coop":', "ordered"), ("zone middle ", '"the middle":', "ordered"),
            ("zone held  ", '"dice":', "hidden")]
    table = "".join((a + b).ljust(30) + c + "\n" for a, b, c in rows)  # the flags in one column
    # "the Coop" and "the middle" do not start in one column, the flags do: the run is a table
    assert format_text(table, "t.rules") == ('zone coop   "the Coop":    ordered\n'
                                             'zone middle "the middle":  ordered\n'
                                             'zone held   "dice":        hidden\n')
    loose = 'zone coop "the Coop"\nzone middle "the middle"\n'  # no columns: one space stays one space
    assert format_text(loose, "t.rules") == loose
    wide = 'counter a  = 1\ncounter bb = 2\n'
    assert format_text(wide, "t.rules") == 'counter a  = 1\ncounter bb = 2\n'


def test_a_backslash_before_a_blank_line_is_dropped() -> None:
    text = 'turn:\n  pass \\\n\n  pass\n'
    assert format_text(text, "t.rules") == 'turn:\n  pass\n\n  pass\n'


def test_crlf_and_bom_become_plain_lines() -> None:
    text = '\ufeffgame "T"\r\nplayers 2 to 2\r\n'
    assert format_text(text, "t.rules") == 'game "T"\nplayers 2 to 2\n'


def test_a_blank_file_formats_to_nothing() -> None:
    assert format_text("\n\n   \n", "e.rules") == ""


def test_same_meaning_sees_a_changed_file() -> None:
    a = build_file('game "T"\nplayers 2 to 2\n', "a.rules")
    b = build_file('game "T"\nplayers 2 to 3\n', "a.rules")
    c = build_file('\n\ngame   "T"\nplayers 2 to 2  # x\n', "b.rules")
    assert not same_meaning(a, b)
    assert same_meaning(a, c)


def test_refuses_a_layout_that_changes_the_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelang.fmt import formatter

    monkeypatch.setattr(formatter, "layout", lambda text: text.replace("2 to 2", "2 to 3"))
    with pytest.raises(FormatError, match="change"):
        format_text('game "T"\nplayers 2 to 2\n', "t.rules")


# ------------------------------------------------------------------ the command


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_fmt_rewrites_files_in_place(tmp_path: Path) -> None:
    messy = _write(tmp_path, "messy.rules", MESSY)
    tidy = _write(tmp_path, "tidy.rules", CANONICAL)
    os.chmod(messy, 0o640)
    result = CliRunner().invoke(main, ["fmt", str(messy), str(tidy)])
    assert result.exit_code == 0, result.output
    assert messy.read_text(encoding="utf-8") == CANONICAL
    assert tidy.read_text(encoding="utf-8") == CANONICAL
    assert (messy.stat().st_mode & 0o777) == 0o640
    assert f"reformatted {messy}" in result.output
    assert str(tidy) not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy.rules", "tidy.rules"]


def test_fmt_through_a_symbolic_link_rewrites_the_file_it_points_to(tmp_path: Path) -> None:
    real = _write(tmp_path, "real.rules", MESSY)
    link = tmp_path / "link.rules"
    link.symlink_to(real)
    result = CliRunner().invoke(main, ["fmt", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == CANONICAL


def test_fmt_check_lists_files_that_would_change_and_writes_nothing(tmp_path: Path) -> None:
    messy = _write(tmp_path, "messy.rules", MESSY)
    tidy = _write(tmp_path, "tidy.rules", CANONICAL)
    result = CliRunner().invoke(main, ["fmt", "--check", str(messy), str(tidy)])
    assert result.exit_code == 1
    assert f"would reformat {messy}" in result.output
    assert str(tidy) not in result.output
    assert messy.read_text(encoding="utf-8") == MESSY
    ok = CliRunner().invoke(main, ["fmt", "--check", str(tidy)])
    assert ok.exit_code == 0, ok.output


def test_fmt_diff_shows_the_change_and_writes_nothing(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.rules", 'game "T"\nplayers 2 to 2\nturn:\n    pass\n')
    result = CliRunner().invoke(main, ["fmt", "--diff", str(path)])
    assert result.exit_code == 1
    assert "-    pass\n+  pass\n" in result.output
    assert path.read_text(encoding="utf-8") == 'game "T"\nplayers 2 to 2\nturn:\n    pass\n'


def test_fmt_missing_file_and_no_file(tmp_path: Path) -> None:
    missing = CliRunner().invoke(main, ["fmt", str(tmp_path / "nope.rules")])
    assert missing.exit_code == 1
    assert "no such file" in missing.output and "Traceback" not in missing.output
    usage = CliRunner().invoke(main, ["fmt"])
    assert usage.exit_code == 2


def test_fmt_one_bad_file_does_not_stop_the_others(tmp_path: Path) -> None:
    bad = _write(tmp_path, "bad.rules", 'game "T\n')
    messy = _write(tmp_path, "messy.rules", MESSY)
    result = CliRunner().invoke(main, ["fmt", str(bad), str(messy)])
    assert result.exit_code == 1
    assert "unterminated string" in result.output
    assert messy.read_text(encoding="utf-8") == CANONICAL
    assert bad.read_text(encoding="utf-8") == 'game "T\n'


@pytest.fixture
def extended_grammar(monkeypatch: pytest.MonkeyPatch):
    """The grammar with a construct and an operator the formatter has never seen (as another branch may add)."""
    from rulelang.fmt import tokens, words
    from rulelang.syntax import parser

    original = parser.grammar_text()
    anchor = '| "pass" -> pass_stmt'
    assert anchor in original
    extended = original.replace(anchor, anchor + '\n     | "discard" query "->" zone_ref -> discard_stmt')
    caches = [parser._parser, words.keywords, words.call_keywords, words.symbols, tokens._token_pattern]
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(parser, "grammar_text", lambda: extended)
    monkeypatch.setattr(words, "grammar_text", lambda: extended)
    yield
    monkeypatch.undo()
    for cache in caches:
        cache.cache_clear()


def test_new_syntax_needs_no_formatter_change(extended_grammar: None) -> None:
    text = "turn:\n    discard   all in middle->held of current\n"
    assert format_text(text, "t.rules") == "turn:\n  discard all in middle -> held of current\n"
    glued = "turn:\n  discard all in middle - > held of current\n"
    with pytest.raises(RulelangError):  # '- >' is not the new operator: the file does not parse, nothing to do
        format_text(glued, "t.rules")
