"""The person at the terminal (issue 26): display names, Enter alone, and words that fit one option."""

from __future__ import annotations

import click
import pytest
from scripted import ROOT

from rulelang.agents.human import HELP_LINE, HumanAgent, display_names, render_observation
from rulelang.game import load_game
from rulelang.narrate import reading_names


def answers(monkeypatch: pytest.MonkeyPatch, *typed: str) -> list[str]:
    """Make click.prompt return ``typed`` in turn; return the list of prompts shown."""
    asked: list[str] = []
    queue = list(typed)

    def prompt(text: str, **_kw: object) -> str:
        asked.append(text)
        return queue.pop(0)

    monkeypatch.setattr(click, "prompt", prompt)
    return asked


def test_the_state_reads_with_the_zones_and_counters_display_names() -> None:
    engine = load_game(str(ROOT / "games" / "chicken.rules"))
    state = engine.new_state(2)
    names = display_names(engine.model, reading_names(engine))
    obs = engine.observe(state, 0)
    obs["zones"]["held of P1"] = ["White#1", "White#2"]  # as after the first roll
    obs["zones"]["held of P2"] = ["White#3"]
    text = render_observation(obs, names)
    assert "  points: P1 0, P2 0" in text  # the counter's description, not 'score'
    assert "  the Coop: Yellow x4, Orange x4" in text  # the zone's display name, not 'coop'
    assert "  your dice: White x2" in text  # the player's own zone, not 'held of P1'
    assert "  dice of P2: White" in text  # (the display name as the file writes it)
    assert "held of" not in text and "coop:" not in text
    plain = render_observation(engine.observe(state, 0))  # without names: the file's own
    assert "  coop: Yellow x4, Orange x4" in plain


def test_enter_alone_chooses_nothing_and_asks_again(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = answers(monkeypatch, "", "   ", "2")
    obs = {"you": "P1", "turn": 1, "current": "P1", "counters": {}, "zones": {}}
    assert HumanAgent(0).choose(obs, ["Go For It!", "Chicken Out!"]) == "Chicken Out!"
    assert len(asked) == 3


def test_words_that_fit_one_option_choose_it(monkeypatch: pytest.MonkeyPatch) -> None:
    obs = {"you": "P1", "turn": 1, "current": "P1", "counters": {}, "zones": {}}
    answers(monkeypatch, "go")
    assert HumanAgent(0).choose(obs, ["Go For It!", "Chicken Out!"]) == "Go For It!"
    answers(monkeypatch, "chicken out!")  # a label typed in other case
    assert HumanAgent(0).choose(obs, ["Go For It!", "Chicken Out!"]) == "Chicken Out!"


def test_words_that_fit_several_options_narrow_the_list(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture) -> None:
    obs = {"you": "P1", "turn": 1, "current": "P1", "counters": {}, "zones": {}}
    asked = answers(monkeypatch, "take", "red")
    labels = ["take red", "take blue", "pass"]
    assert HumanAgent(0).choose(obs, labels) == "take red"
    assert len(asked) == 2
    out = capsys.readouterr().out
    assert "2 options fit" in out


def test_a_help_line_comes_with_the_first_question_and_again_on_a_question_mark(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    obs = {"you": "P1", "turn": 1, "current": "P1", "counters": {}, "zones": {}}
    agent = HumanAgent(0)
    answers(monkeypatch, "?", "1")
    assert agent.choose(obs, ["Go For It!", "Chicken Out!"]) == "Go For It!"
    out = capsys.readouterr().out
    assert out.count(HELP_LINE) == 2  # before the first question, then for '?'
    assert out.count("  2. Chicken Out!") == 2  # the options again after the help
    answers(monkeypatch, "2")
    assert agent.choose(obs, ["Go For It!", "Chicken Out!"]) == "Chicken Out!"
    assert HELP_LINE not in capsys.readouterr().out  # once a game: not before every question


def test_an_option_called_help_is_chosen_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    obs = {"you": "P1", "turn": 1, "current": "P1", "counters": {}, "zones": {}}
    answers(monkeypatch, "help")
    assert HumanAgent(0).choose(obs, ["help", "pass"]) == "help"
