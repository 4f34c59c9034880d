"""OpenSpiel's solvers give the same numbers on the rulelang games as on OpenSpiel's own.

CFR (``open_spiel.python.algorithms.cfr``) runs on Kuhn and Leduc poker written in rulelang
(through ``rulelang.envs.openspiel.load``) and on ``kuhn_poker`` / ``leduc_poker``; at each
checkpoint the average policy's expected value and its exploitability agree to 1e-9. The
long runs are opt-in: ``python -m pytest -m solver tests/envs/test_solvers_agree.py``.
The walkthrough of docs/environments.md ("Solving and training, end to end") runs as written.
"""

from __future__ import annotations

import os
import re

import pytest
from agreement_support import GOOFSPIEL, KUHN, LEDUC, ROOT, walk_native

pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

from open_spiel.python.algorithms import cfr, expected_game_score, exploitability  # noqa: E402

from rulelang.envs.openspiel import load  # noqa: E402

DOC = ROOT / "docs" / "environments.md"
SECTION = "## Solving and training, end to end"


def cfr_checkpoints(game: object, checkpoints: tuple[int, ...]) -> list[tuple[int, float, float, float]]:
    """(iterations, exploitability, P1's value, P2's value) of CFR's average policy at each checkpoint."""
    solver = cfr.CFRSolver(game)
    done = 0
    out = []
    for n in checkpoints:
        while done < n:
            solver.evaluate_and_update_policy()
            done += 1
        policy = solver.average_policy()
        values = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
        out.append((n, exploitability.exploitability(game, policy), float(values[0]), float(values[1])))
    return out


def assert_agree(path: object, native: str, checkpoints: tuple[int, ...]) -> list[tuple]:
    """CFR on the rulelang game and on pyspiel's: equal figures (to 1e-9) at every checkpoint."""
    ours = cfr_checkpoints(load(path), checkpoints)
    theirs = cfr_checkpoints(pyspiel.load_game(native), checkpoints)
    for mine, native_row in zip(ours, theirs, strict=True):
        assert mine == pytest.approx(native_row, abs=1e-9, rel=0), (mine, native_row)
    return ours


def test_kuhn_cfr_checkpoints() -> None:
    rows = assert_agree(KUHN, "kuhn_poker", (1, 2, 5, 10, 25))
    assert rows[0][1] == pytest.approx(11 / 24)  # the uniform policy's exploitability
    assert rows[0][2] == pytest.approx(1 / 8)  # and its value to P1, as in the exact walk
    assert rows[-1][1] < rows[0][1] / 4


@pytest.mark.solver
def test_leduc_cfr_checkpoints() -> None:
    """A Leduc CFR checkpoint costs seconds (the exploitability walks the tree): opt-in."""
    rows = assert_agree(LEDUC, "leduc_poker", (1, 2, 5))
    assert rows[0][2] == pytest.approx(-5 / 64)
    assert rows[-1][1] < rows[0][1]


@pytest.mark.solver
def test_kuhn_cfr_long() -> None:
    """500 iterations: the value approaches the Nash value -1/18 in both."""
    rows = assert_agree(KUHN, "kuhn_poker", (100, 250, 500))
    assert rows[-1][2] == pytest.approx(-1 / 18, abs=2e-3)


@pytest.mark.solver
def test_leduc_cfr_long() -> None:
    assert_agree(LEDUC, "leduc_poker", (10, 25, 50))


def doc_section() -> str:
    """The walkthrough section of docs/environments.md."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end != -1 else len(text)]


def doc_fenced() -> list[tuple[str, list[str]]]:
    """The walkthrough's fenced blocks, in order: (the fence's language, "" for printed output; the lines)."""
    blocks: list[tuple[str, list[str]]] = []
    open_block: list[str] | None = None
    for line in doc_section().splitlines():
        if open_block is None and line.startswith("```"):
            open_block = []
            blocks.append((line[3:].strip(), open_block))
        elif open_block is not None and line == "```":
            open_block = None
        elif open_block is not None:
            open_block.append(line)
    return blocks


def doc_blocks() -> list[str]:
    """The Python blocks of the walkthrough, in order."""
    return ["\n".join(lines) + "\n" for language, lines in doc_fenced() if language == "python"]


def doc_outputs() -> list[str]:
    """The lines the walkthrough shows as printed (its plain ``` blocks), in order."""
    return [line for language, lines in doc_fenced() if language == "" for line in lines]


def test_walkthrough_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """Every block of the walkthrough, pasted in order into one session from the repository root."""
    blocks = doc_blocks()
    assert len(blocks) >= 3
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        session: dict[str, object] = {"__name__": "walkthrough"}
        for block in blocks:
            exec(compile(block, str(DOC), "exec"), session)  # the doc's own code, as a user pastes it
    finally:
        os.chdir(here)
    printed = capsys.readouterr().out
    assert printed.splitlines() == doc_outputs()  # the doc shows what its code prints
    ours, theirs = re.findall(r"^(?:python_rulelang|kuhn_poker): (P1's value .*)$", printed, flags=re.M)
    assert ours == theirs  # CFR: the same value and exploitability, as printed
    assert float(re.search(r"mean return ([-+.\d]+)", printed).group(1)) > 0  # MCTS beats random
    before, after = (float(x) for x in re.findall(r"P1 against random, .*: ([-+.\d]+)$", printed, flags=re.M))
    assert after > before  # Q-learning learned something


ADAPTED = {
    "kuhn": (KUHN, "kuhn_poker", lambda state, action: action),
    "leduc": (LEDUC, "leduc_poker", lambda state, action: action // 2),
}


@pytest.mark.parametrize("name", sorted(ADAPTED))
def test_the_adapters_tree_is_the_native_tree(name: str) -> None:
    """Walked through the OpenSpiel adapter (skip_forced on), the tree is pyspiel's, with no forced node left."""
    path, native, kind_of = ADAPTED[name]
    ours = walk_native(load(path))
    theirs = walk_native(pyspiel.load_game(native), kind_of)
    assert ours.forced == theirs.forced == 0
    assert ours.counts() == theirs.counts()
    assert ours.values == theirs.values
    assert ours.outcomes == theirs.outcomes


@pytest.mark.solver
def test_goofspiel_through_the_adapter() -> None:
    """Goofspiel's forced last turn is played by the adapter itself: its tree is the native one (slow)."""
    ours = walk_native(load(GOOFSPIEL))
    theirs = walk_native(pyspiel.load_game("turn_based_simultaneous_game(game=goofspiel(num_cards=4))"))
    assert ours.forced == theirs.forced == 0
    assert (ours.counts(), ours.values, ours.outcomes) == (theirs.counts(), theirs.values, theirs.outcomes)
