"""The generated module names the ``.rules`` file:line of each block and statement in a comment line of its own.

So ``rulelang compile GAME --emit-python`` reads next to the rules file: every block's ``def`` is preceded by
the line it starts at, and each statement by its own line; file names enter a comment as safe characters only.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from rulelang import load_game
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
COMMENT = re.compile(r"^( *)# ([A-Za-z0-9._+?-]+):(\d+)$")

SMALL = """game "Lines"
players 2 to 3 default 2

counter score per player = 0

setup:
  say "setting up"

turn:
  score of current += 1
  if score of current >= 3:
    say "{current} has three"
    end game
"""


def emitted(path: Path) -> list[str]:
    """The lines ``rulelang compile PATH --emit-python`` prints (exit 0)."""
    result = CliRunner().invoke(main, ["compile", str(path), "--emit-python"])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def cited_above(source: list[str], i: int) -> str:
    """The nearest comment naming a rules line above line ``i`` of a source."""
    return next(source[j] for j in range(i - 1, -1, -1) if COMMENT.match(source[j]))


def test_every_block_of_chicken_is_preceded_by_its_rules_line() -> None:
    lines = emitted(ROOT / "games" / "chicken.rules")
    rules = (ROOT / "games" / "chicken.rules").read_text(encoding="utf-8").splitlines()
    driver = len(load_game(ROOT / "games" / "chicken.rules").program.model.rules)  # its blocks: no rules line
    blocks = [i for i, line in enumerate(lines) if re.match(r"def r\d+_\d+\(st, loc, fr, left\):$", line)
              and not line.startswith(f"def r{driver}_")]
    assert len(blocks) > 10
    for i in blocks:
        found = COMMENT.match(lines[i - 1])
        assert found and found.group(1) == "" and found.group(2) == "chicken.rules", lines[i - 1: i + 1]
        assert rules[int(found.group(3)) - 1].strip(), found.group(0)  # a line of the rules, not a blank one
    cited = {int(c.group(3)) for c in map(COMMENT.match, lines) if c and c.group(2) == "chicken.rules"}
    assert len(cited) > 2 * len(blocks)  # statements, not only blocks
    first_move = next(n for n, text in enumerate(rules, 1) if text.strip().startswith("move all"))
    assert first_move in cited


def test_each_statement_is_preceded_by_its_line_at_its_indentation(tmp_path: Path) -> None:
    path = tmp_path / "lines.rules"
    path.write_text(SMALL, encoding="utf-8")
    source = load_game(path).program.generated.source.splitlines()
    add = next(i for i, line in enumerate(source) if "bounded(" in line and "+" in line)
    assert cited_above(source, add) == "# lines.rules:10"  # the block's first statement: before its def
    test = next(i for i, line in enumerate(source) if ">= 3" in line)
    assert source[test - 1] == "    # lines.rules:11", source[test - 3: test + 1]  # at the statement's indentation
    end = next(i for i, line in enumerate(source) if line.strip() == "return -2")
    assert source[end - 1] == "        # lines.rules:13", source[end - 3: end + 1]
    comments = {c.group(3) for c in map(COMMENT.match, source) if c}
    assert {"7", "10", "11", "12", "13"} <= comments, comments


def test_a_file_name_enters_the_comment_in_safe_characters_only(tmp_path: Path) -> None:
    path = tmp_path / "odd\nname \"x\"; import os.rules"
    path.write_text(SMALL, encoding="utf-8")
    engine = load_game(path)
    source = engine.program.generated.source
    assert "import os" not in source and "\nname" not in source
    assert "# odd?name??x???import?os.rules:10" in source
    compile(source, "<check>", "exec")
