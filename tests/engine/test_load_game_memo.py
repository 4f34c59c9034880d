"""load_game keeps the last games a process loaded: the same bytes, directory, options and budget give the same
engine back; any change (the file, a file it extends, an option, the budget, the directory) loads afresh."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulelang import game
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.syntax.span import register_source, source_line

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies of Chicken! and its Eggspansion (which extends it) in a fresh directory, which is the cwd."""
    for name in ("chicken.rules", "chicken-eggspansion.rules"):
        shutil.copy(ROOT / "games" / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RULELANG_NO_CACHE", raising=False)
    game.forget_loaded_games()
    yield tmp_path
    game.forget_loaded_games()


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_the_same_files_give_the_same_engine(games: Path) -> None:
    first = load_game("chicken-eggspansion.rules")
    assert load_game("chicken-eggspansion.rules") is first
    assert load_game("chicken-eggspansion.rules", {}) is first
    assert load_game("chicken.rules") is not first


def test_a_changed_file_loads_afresh(games: Path) -> None:
    first = load_game("chicken.rules")
    _append(games / "chicken.rules", "\n# a comment\n")
    second = load_game("chicken.rules")
    assert second is not first and second.model.files != first.model.files


def test_a_changed_base_file_loads_the_variant_afresh(games: Path) -> None:
    first = load_game("chicken-eggspansion.rules")
    _append(games / "chicken.rules", "\n# the base changed\n")
    second = load_game("chicken-eggspansion.rules")
    assert second is not first
    assert [sha for _f, sha in second.model.files] != [sha for _f, sha in first.model.files]


def test_a_base_that_breaks_is_an_error_not_the_old_engine(games: Path) -> None:
    load_game("chicken-eggspansion.rules")
    _append(games / "chicken.rules", "\nthis is not a rule\n")
    with pytest.raises((RulelangError, ErrorList)):
        load_game("chicken-eggspansion.rules")


def test_options_and_budget_are_part_of_the_key(games: Path) -> None:
    plain = load_game("chicken-eggspansion.rules")
    changed = load_game("chicken-eggspansion.rules", {"blue_no_blank": "true"})
    assert changed is not plain and changed.model.options["blue_no_blank"].value is True
    assert load_game("chicken-eggspansion.rules", {"blue_no_blank": "true"}) is changed
    tight = load_game("chicken-eggspansion.rules", budget=50)
    assert tight is not plain and tight.budget == 50


def test_another_working_directory_loads_afresh(games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_game(games / "chicken.rules")
    (games / "sub").mkdir()
    monkeypatch.chdir(games / "sub")
    second = load_game(games / "chicken.rules")
    assert second is not first
    assert first.model.files[0][0] == "chicken.rules" and second.model.files[0][0] != "chicken.rules"


def test_a_kept_game_registers_its_text_again(games: Path) -> None:
    load_game("chicken.rules")
    register_source("chicken.rules", "something else\n")
    load_game("chicken.rules")
    assert source_line("chicken.rules", 1) == (games / "chicken.rules").read_text(encoding="utf-8").split("\n")[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_a_kept_file_does_not_hang(games: Path) -> None:
    load_game("chicken-eggspansion.rules")
    (games / "chicken.rules").unlink()
    os.mkfifo(games / "chicken.rules")
    with pytest.raises((RulelangError, ErrorList)):
        load_game("chicken-eggspansion.rules")


def test_it_can_be_turned_off_and_keeps_few_games(games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULELANG_NO_CACHE", "1")
    assert load_game("chicken.rules") is not load_game("chicken.rules")
    monkeypatch.delenv("RULELANG_NO_CACHE")
    monkeypatch.setattr(game, "MEMO_SIZE", 2)
    kept = [load_game("chicken.rules", budget=budget) for budget in (100, 101, 102)]
    assert load_game("chicken.rules", budget=102) is kept[2] and load_game("chicken.rules", budget=101) is kept[1]
    assert load_game("chicken.rules", budget=100) is not kept[0]  # the oldest was dropped
