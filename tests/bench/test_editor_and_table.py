"""benchmarks/editor.py (issue 24 item 6's figure) and benchmarks/table.py (item 8's tables)."""

from __future__ import annotations

import re

import pytest

from benchmarks import editor, table
from rulelang.lsp.analysis import analyse

try:
    import pygls  # noqa: F401
except ImportError:  # the rulelang[lsp] extra
    HAVE_PYGLS = False
else:
    HAVE_PYGLS = True


def test_the_edits_are_of_every_kind_and_keep_the_largest_game_valid() -> None:
    name = editor.largest_game()
    assert name == "rooster-rush"
    path = editor.ROOT / "games" / f"{name}.rules"
    text = path.read_text(encoding="utf-8")
    changes = editor.edits(text, 12, seed=3)
    assert {kind for kind, _new in changes} == {"string", "number", "comment line", "blank line", "say line",
                                                 "space"}
    for kind, new in changes:
        assert new != text
        assert analyse(path, new).problems == (), kind


@pytest.mark.skipif(not HAVE_PYGLS, reason="pygls is not installed")
def test_the_editor_benchmark_prints_the_median_last(capsys: pytest.CaptureFixture) -> None:
    assert editor.main(["chicken", "--edits", "6", "--pause", "0.05"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("rulelang lsp (") and "games/chicken.rules" in out[0] and "load" in out[0]
    assert "edits with diagnostics: 0 (0 expected" in "\n".join(out)
    assert re.fullmatch(r"median_ms: \d+\.\d", out[-1])


def test_the_table_has_a_row_per_figure_and_the_time_last(capsys: pytest.CaptureFixture) -> None:
    assert table.main(["chicken", "--games", "2", "--runs", "1", "--search-games", "1"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == "### chicken" and out[2].startswith("Load ")
    rows = [line for line in out if line.startswith("| ") and "---" not in line][1:]
    assert [row.split("`")[-2] for row in rows] == ["playouts.py", "record.py", "replay.py", "replay.py", "search.py",
                                                     "run games/chicken.rules -q --seed 1"]
    values = [row.split(" | ")[1] for row in rows]
    for value in values[:4] + values[5:]:
        assert re.fullmatch(r"\d+\.\d{3}", value), value
    assert re.fullmatch(r"seconds: \d+", out[-1])


def test_the_table_refuses_an_unknown_game() -> None:
    with pytest.raises(SystemExit) as exc:
        table.main(["no-such-game"])
    assert exc.value.code == 2
