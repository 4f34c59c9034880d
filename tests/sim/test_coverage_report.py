"""Coverage reporting on synthetic counts (the counting itself is the engine's)."""

from __future__ import annotations

import attrs
import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.sim import coverage as cov
from rulelang.sim.driver import gather
from rulelang.sim.runner import BatchResult
from rulelang.syntax.span import Span


@attrs.frozen
class Construct:
    kind: str
    name: str
    span: Span


CONSTRUCTS = [
    Construct("rule", "bluff", Span("games/x.rules", 10, 1, 10, 5)),
    Construct("option", "\"play no more tokens now\"", Span("games/x.rules", 12, 5, 12, 9)),
    Construct("branch", "if right", Span("games/x.rules", 20, 3, 20, 9)),
    Construct("trigger", "the deck runs out", Span("games/x.rules", 30, 1, 30, 5)),
]


def test_counts_add_up_across_batches() -> None:
    batches = [BatchResult((), coverage=(1, 0, 2, 0)), BatchResult((), coverage=(3, 0, 0, 0)),
               BatchResult((), coverage=(0, 0, 5, 0))]
    _records, counts = gather(batches)
    assert counts == [4, 0, 7, 0]
    assert cov.add_counts(None, [1, 2]) == [1, 2] and cov.add_counts([1, 2], None) == [1, 2]
    with pytest.raises(ValueError, match="different lengths"):
        cov.add_counts([1], [1, 2])


def test_rows_listing_and_never_fired() -> None:
    rows = cov.coverage_rows(CONSTRUCTS, [40, 0, 7, 0], games=20)
    assert [r.where for r in rows] == ["games/x.rules:10", "games/x.rules:12", "games/x.rules:20", "games/x.rules:30"]
    assert rows[0].per_game == 2.0
    assert [r.name for r in cov.never_fired(rows)] == ["\"play no more tokens now\"", "the deck runs out"]
    text = "\n".join(cov.render_text(rows, 20))
    assert text.startswith("Coverage over 20 games: 2 of 4 constructs fired.")
    assert "Never fired (2):" in text
    assert "games/x.rules:12: option of a choose '\"play no more tokens now\"' never fired" in text
    assert "games/x.rules:30: trigger 'the deck runs out' never fired" in text
    assert "games/x.rules:10: rule" not in text.split("Never fired")[1]


def test_everything_fired_and_exports() -> None:
    rows = cov.coverage_rows(CONSTRUCTS, [1, 1, 1, 1], games=1)
    assert cov.render_text(rows, 1)[-1] == "Every construct fired at least once."
    assert cov.to_json(rows)[2] == {"kind": "branch", "name": "if right", "where": "games/x.rules:20", "count": 1,
                                    "per_game": 1.0}
    table = cov.csv_rows(rows)
    assert table[0] == ["kind", "name", "where", "count", "per_game"] and len(table) == 5
    html = cov.html_table(cov.coverage_rows(CONSTRUCTS, [1, 0, 1, 1], games=1))
    assert html.count("<tr class=\"dead\">") == 1 and "&quot;play no more tokens now&quot;" in html


def test_mismatched_counts_are_an_error() -> None:
    with pytest.raises(ValueError, match="4 constructs but 3 counts"):
        cov.coverage_rows(CONSTRUCTS, [1, 2, 3], games=1)


def test_cli_says_what_coverage_needs_when_the_engine_cannot_count(root) -> None:
    from rulelang.engine.engine import Engine

    try:
        Engine.__init__.__code__.co_varnames.index("coverage")
        pytest.skip("this engine counts coverage: the end-to-end test covers it")
    except ValueError:
        pass
    result = CliRunner().invoke(main, ["simulate", str(root / "games/chicken.rules"), "-n", "2", "-j", "1",
                                       "--coverage"])
    assert result.exit_code == 1
    assert "error: coverage needs an engine that counts rule constructs" in result.stderr
    assert "Traceback" not in result.output


def test_coverage_is_checked_before_any_game_is_sent(root) -> None:
    from rulelang.agents.spec import seat_specs
    from rulelang.engine.engine import Engine
    from rulelang.sim.driver import simulate
    from rulelang.sim.runner import CoverageUnavailable, SimJob

    if "coverage" in Engine.__init__.__code__.co_varnames:
        pytest.skip("this engine counts coverage")
    job = SimJob(str(root / "games/chicken.rules"), (), 2, tuple(seat_specs(["random"], 2)), coverage=True)
    with pytest.raises(CoverageUnavailable, match="coverage needs"):
        simulate(job, 10, backend="ray")  # raised here, before Ray is even imported
