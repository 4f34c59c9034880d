"""What `rulelang check` prints for broken .rules files (tests/bad_rules/).

Every error must read like a compiler's: ``file:line:col: error: message``, the
source line, a caret under the culprit, and never a Python traceback. The exact
output of each file is pinned by a syrupy snapshot (tests/language/__snapshots__/).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

REPO = Path(__file__).resolve().parents[2]
BAD = "tests/bad_rules"

HEADER = re.compile(r"^(?P<file>[\w./-]+\.rules):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")
CARET = re.compile(r"^    (?P<pad> *)(?P<carets>\^+)$")

# file -> (line, col, a fragment of the first error's message, a fragment of the output or None)
EXPECTED: dict[str, tuple[int, int, str, str | None]] = {
    "syntax_missing_colon.rules": (21, 5, "unexpected end of line", "expected ':'"),
    "bad_indentation.rules": (23, 1, "indentation does not match any outer block", None),
    "unknown_zone.rules": (22, 15, "unknown zone 'midle'", "did you mean 'middle'?"),
    "unknown_name.rules": (23, 52, "unknown name 'bonus'", None),
    "wrong_arity_rule.rules": (23, 3, "rule 'score_roll' takes 0 argument(s), not 1", "declared at"),
    "wrong_arity_min.rules": (23, 23, "min() takes 2 argument(s), not 1", None),
    "type_error.rules": (25, 25, "'+' needs numbers, but this is a true/false", None),
    "bad_die_face.rules": (11, 32, "unknown die face 'Tree'", "did you mean 'Three'?"),
    "per_player_zone_without_of.rules": (19, 24, "zone 'held' is per player", "held of current"),
    "extends_missing.rules": (2, 28, "does not exist: tests/bad_rules/no_such_base.rules", None),
    "override_nothing.rules": (4, 1, "'override rule bonus_roll' replaces nothing", None),
    "duplicate_declaration.rules": (17, 1, "zone 'middle' is already declared at "
                                           "tests/bad_rules/duplicate_declaration.rules:15:1", None),
    "shuffle_unordered.rules": (22, 3, "zone 'middle' is not ordered", "ordered"),
    "bad_player_count.rules": (3, 1, "players must be 'players LOW to HIGH'", None),
    # BUG: the caret of an error inside a string's {hole} ignores where the hole is in the string
    # (reported at col 16, the '$' is at col 25).
    "string_hole_syntax.rules": (22, 25, "unexpected character '$'", None),
    # BUG: no file:line:col (the loader raises it without a span).
    "not_utf8.rules": (2, 13, "not UTF-8", None),
    # BUG: only the first error has a location; the four that follow have none.
    "empty.rules": (1, 1, "the file is empty", None),
    # BUG: reported as "unexpected character '\"'" with the hint "strings use double quotes".
    "unterminated_string.rules": (22, 7, "string", None),
    # the language for new games (issue 10): silent wrong answers made errors, and newcomers' slips
    "nobody_owner.rules": (23, 12, "'score of' needs a player: nobody is no player", "if p != nobody"),
    "second_rank.rules": (29, 1, "a second 'rank' line", "join the keys with ', then'"),
    "else_if.rules": (26, 3, "'else if' is written 'elif'", "elif CONDITION"),
    "assign_with_equals.rules": (23, 3, "'score of current = ...' is not a statement", "set score of current to"),
    "string_in_hole.rules": (24, 3, "a string cannot go inside {...}", None),
    "add_to.rules": (11, 3, "'add ... to ...' is not a statement", "write: score of current += 1"),
    "ranking_block.rules": (15, 1, "who wins is said by one 'rank' line", "rank p by highest score of p"),
    "player_counter_add.rules": (25, 3, "counter 'leader' holds a player: it cannot be added to", "set leader to"),
    "owner_counter_shared.rules": (14, 28, "only a per-player counter can be seen by its owner only", None),
    "seat_literal_too_high.rules": (24, 17, "there is no P3: the game takes at most 2 players", None),
    "numbered_unknown_value.rules": (12, 31, "unknown value 'm' for attribute 'pips'", "is 'n'"),
    "component_attr_of_player.rules": (24, 7, "'pips of' needs a kind, a face or one component, but this is a player",
                                       None),
    # rounds, sides and races (issue 8)
    "round_current.rules": (17, 33, "'current' has no meaning in a game played in rounds", "for p in players"),
    "pick_condition_without_name.rules": (17, 41, "the condition does not test 'q'", "say which players"),
    "sides_not_adding_up.rules": (7, 1, "the sides' chances add up to 5/4, not 1", "add up to 1"),
    "spin_without_sides.rules": (15, 3, "cannot spin 'Coin': it is a token, not a die", "sides ("),
    # budgets and markers (issue 9)
    "spend_without_cost.rules": (18, 5, "every option of a 'spend' block needs its cost", "costs 1:"),
    "spend_cost_not_number.rules": (18, 27, "a cost must be a number, but this is a text", "costs 2"),
    "marker_two_places.rules": (6, 1, "a marker is one component, so '2 Fox markers' cannot be", "1 Fox marker"),
    "move_marker_not_marker.rules": (14, 8, "'Barn' is a card, not a marker: say where it comes from",
                                     "move 1 Barn from ZONE"),
    # slips found writing new games from the docs alone
    # one component, the shared name of numbered components, faces (issue 26): their misuses
    "move_one_component.rules": (25, 10, "'d' is one component: it takes no number and no 'random'", "write just 'd'"),
    "one_component_where.rules": (25, 30, "a query of one component takes no 'where'", "if pips of d == 6"),
    "shared_name_as_value.rules": (17, 21, "'Card' names 5 kinds (Card1 to Card5), not one", "where Card"),
    "faces_of_card.rules": (17, 21, "'Cow' is a card without faces", "a kind of die"),
    "face_in_kinds_where.rules": (17, 12, "a kind shows no face", "faces of KIND"),
    "roll_kind_alone.rules": (22, 8, "'Red' is not one component", "all NAME in ZONE"),
    "text_counter.rules": (25, 17, "counter 'colour' holds a text, but this is a number", None),
    # counters of kinds and texts, break/continue, best (issue 26)
    "kind_counter_start.rules": (14, 22, "counter 'last' holds a kind, but its starting value is a number",
                                 "starts as no kind"),
    "truth_counter.rules": (14, 18, "a counter holds a number, a text, a kind, a player or a face, but this "
                                    "is a true/false", "\n1 error"),
    "face_counter_set.rules": (25, 15, "counter 'last' holds a face, but this is a number", "a number counter"),
    "face_counter_add.rules": (25, 3, "counter 'last' holds a face: it cannot be added to", "set last to"),
    "players_from_number.rules": (24, 25, "'players from' needs a player, but this is a number", None),
    "lasted_number.rules": (28, 26, "lasted() needs a player, but this is a number", None),
    "break_outside_loop.rules": (26, 5, "'break' is outside any loop", "inside a 'while', 'repeat' or 'for'"),
    "break_in_called_rule.rules": (32, 3, "'continue' is outside any loop", "a rule called from a loop"),
    "best_unknown_tie.rules": (25, 62, "unknown tie rule 'ties share'", "'ties first'"),
    "best_key_not_number.rules": (25, 46, "'best ... by highest' needs a number to compare, but this is a player",
                                  None),
    "best_ties_none_numbers.rules": (25, 48, "'ties none' gives nobody or no kind, but this picks among numbers",
                                     "'ties first'"),
    # payoffs (issue 22)
    "payoff_without_bounds.rules": (20, 12, "the checker cannot find the bounds of this payoff", "LOW and HIGH"),
    "payoff_not_a_number.rules": (20, 12, "a payoff is a number", "1 if p == winner else -1"),
    "payoff_bounds_reversed.rules": (20, 32, "the payoff's bounds are the wrong way round: 2 is above -2",
                                     "between -2 and 2"),
    "payoff_bound_not_constant.rules": (20, 38, "the high bound of a payoff must be a constant", None),
    "second_payoff.rules": (21, 1, "a second 'payoff' line (the first is at tests/bad_rules/second_payoff.rules:20:1)",
                            "one expression"),
    # answers and definitions as values (issue 26, items 1 and 2)
    "answer_misspelt.rules": (26, 27, "no answer of an 'ask' reads 'Double'", "did you mean 'double'?"),
    "answer_not_a_value.rules": (25, 27, "no answer of an 'ask' is a number alone", "\"{n}\" for n in"),
    "define_without_return.rules": (19, 3, "not every path of 'bonus' returns a value", "'else' that returns"),
    "define_that_moves.rules": (20, 5, "'bonus' decides a value: its block holds only 'let', 'if' and 'return'",
                                "write a rule"),
    "return_in_rule.rules": (24, 5, "'return' gives the value of a definition", "define NAME(...):"),
    "query_in_hole.rules": (23, 18, "unexpected 'in' inside {...}", "a hole shows one value, not a query"),
}

SNAPSHOTTED = sorted(EXPECTED)


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def _check(*files: str):
    return CliRunner().invoke(main, ["check", *files])


def _bytes_lines(path: str) -> list[str]:
    return Path(path).read_bytes().decode("utf-8", errors="replace").splitlines()


def test_every_bad_file_is_covered() -> None:
    on_disk = {p.name for p in (REPO / BAD).glob("*.rules")} - {"ok_base.rules", "utf8_bom.rules"}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_file_exits_1_without_traceback(name: str) -> None:
    result = _check(f"{BAD}/{name}")
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert "error" in result.stderr


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_first_error_is_where_expected(name: str) -> None:
    line, col, fragment, extra = EXPECTED[name]
    stderr = _check(f"{BAD}/{name}").stderr
    first = stderr.splitlines()[0]
    head = HEADER.match(first)
    assert head is not None, f"no file:line:col in {first!r}"
    assert head["file"] == f"{BAD}/{name}"
    assert fragment in head["msg"]
    assert (int(head["line"]), int(head["col"])) == (line, col), first
    if extra is not None:
        assert extra in stderr


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_error_has_location_source_line_and_caret(name: str) -> None:
    """Each ``error:`` line starts with file:line:col and is followed by its source line and a caret."""
    lines = _check(f"{BAD}/{name}").stderr.splitlines()
    headers = [i for i, text in enumerate(lines) if "error:" in text]
    assert headers
    for i in headers:
        head = HEADER.match(lines[i])
        assert head is not None, f"error without file:line:col: {lines[i]!r}"
        if name == "empty.rules":
            continue  # no source line to quote
        source = _bytes_lines(head["file"])[int(head["line"]) - 1].rstrip("\n").expandtabs(1)
        assert i + 2 < len(lines), f"no source line and caret after {lines[i]!r}"
        assert lines[i + 1] == f"    {source}"
        caret = CARET.match(lines[i + 2])
        assert caret is not None, f"no caret line after {lines[i]!r}: {lines[i + 2]!r}"
        assert len(caret["pad"]) == int(head["col"]) - 1


def test_unterminated_string_says_so() -> None:
    stderr = _check(f"{BAD}/unterminated_string.rules").stderr
    assert re.search(r"unterminated|not closed|unclosed|never closed", stderr), stderr
    assert "strings use double quotes" not in stderr


def test_bad_player_count_does_not_cascade() -> None:
    """One mistake, one error: a bad 'players' line must not add 'does not say how many players'."""
    stderr = _check(f"{BAD}/bad_player_count.rules").stderr
    assert "does not say how many players" not in stderr
    assert stderr.rstrip().endswith("1 error")


def test_file_with_utf8_byte_order_mark_is_accepted() -> None:
    result = _check(f"{BAD}/utf8_bom.rules")
    assert result.exit_code == 0, result.stderr
    assert "ok (Roll High" in result.stdout


@pytest.mark.parametrize("name", SNAPSHOTTED)
def test_check_output_snapshot(name: str, snapshot) -> None:
    result = _check(f"{BAD}/{name}")
    assert result.exit_code == 1
    assert result.stderr == snapshot


def test_ok_base_is_ok() -> None:
    result = _check(f"{BAD}/ok_base.rules")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "tests/bad_rules/ok_base.rules: ok (Roll High; 2 players, 1 components, 3 rules)\n"
    assert result.stderr == ""


@pytest.mark.parametrize("game", ["games/chicken.rules", "games/chicken-eggspansion.rules"])
def test_shipped_games_check_ok(game: str) -> None:
    result = _check(game)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{game}: ok (")
    assert result.stderr == ""


def test_both_games_at_once() -> None:
    result = _check("games/chicken.rules", "games/chicken-eggspansion.rules")
    assert result.exit_code == 0, result.stderr
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        "games/chicken.rules", "games/chicken-eggspansion.rules",
    ]


def test_several_files_report_each() -> None:
    files = [f"{BAD}/unknown_zone.rules", "games/chicken.rules", f"{BAD}/bad_die_face.rules",
             f"{BAD}/no_such_file.rules", f"{BAD}/ok_base.rules"]
    result = _check(*files)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.stdout.splitlines() == [
        "games/chicken.rules: ok (Chicken!; 2-8 players, 16 components, 12 rules)",
        "tests/bad_rules/ok_base.rules: ok (Roll High; 2 players, 1 components, 3 rules)",
    ]
    stderr = result.stderr
    assert "tests/bad_rules/unknown_zone.rules:22:15: error: unknown zone 'midle'" in stderr
    assert "tests/bad_rules/bad_die_face.rules:11:32: error: unknown die face 'Tree'" in stderr
    assert "no such file: tests/bad_rules/no_such_file.rules" in stderr
    # reported in the order given
    assert stderr.index("unknown_zone") < stderr.index("bad_die_face") < stderr.index("no_such_file")


def test_errors_in_a_base_file_are_reported_through_a_variant(tmp_path: Path) -> None:
    base = (REPO / BAD / "unknown_zone.rules").read_text()
    (tmp_path / "base.rules").write_text(base)
    (tmp_path / "variant.rules").write_text('game "Variant" extends "base.rules"\n')
    result = _check(str(tmp_path / "variant.rules"))
    assert result.exit_code == 1
    head = HEADER.match(result.stderr.splitlines()[0])
    assert head is not None
    assert head["file"].endswith("base.rules")
    assert (int(head["line"]), int(head["col"])) == (22, 15)
    assert "Traceback" not in result.output
