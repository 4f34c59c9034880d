"""The generated back end plays every game exactly as the engine did before it.

``codegen_fixture.json`` pins, per game and seed, the sha256 of the trace that
``rulelang run GAME --seed S --trace FILE`` wrote (without the header's "chance" and the turn
digests, which came later: ``pinned_text``), of the narration, and of the state
after every step, all recorded with the instruction interpreter that the generated
back end replaced (see codegen_support.py). Same seed, same game, byte for byte.

By default every 20th seed is played (a few seconds); ``RULELANG_FULL=1`` plays all of
them (about 1100 games, a couple of minutes).
"""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from click.testing import CliRunner
from codegen_support import FIXTURE, engine_for, fingerprint, pinned_text, players_for, trace_text

from rulelang.cli import main
from rulelang.syntax.loader import load_sources

pytestmark = pytest.mark.usefixtures("at_root")

FULL = os.environ.get("RULELANG_FULL") == "1"
DATA = json.loads(FIXTURE.read_text(encoding="utf-8"))


def _cases() -> list:
    out = []
    for case in DATA["cases"]:
        games = case["games"] if FULL else case["games"][::20]
        for pinned in games:
            tag = "-".join(f"{k}={v}" for k, v in sorted(case["options"].items()))
            name = case["game"][len("games/"):-len(".rules")] + (f"-{tag}" if tag else "")
            out.append(pytest.param(case, pinned, id=f"{name}-{pinned['seed']}"))
    return out


@pytest.mark.parametrize(("case", "pinned"), _cases())
def test_same_seed_same_game_as_before(case: dict, pinned: dict) -> None:
    if [[s.path, s.sha256] for s in load_sources(case["game"])] != case["sources"]:
        pytest.fail(f"{case['game']} changed since the fixture was recorded: check the change of behaviour, "
                    "then re-record with 'python tests/support/codegen_support.py'")
    assert fingerprint(case["game"], case["options"], pinned["seed"]) == pinned


@pytest.mark.parametrize("game", ["chicken", "chicken-eggspansion", "barnyard", "barnyard-2p", "rule-the-roost"])
def test_fingerprinted_trace_is_what_run_writes(game: str, tmp_path) -> None:
    """The fixture's traces are the files ``rulelang run --trace`` writes (so the pin is of the real thing)."""
    path = f"games/{game}.rules"
    out = tmp_path / "t.jsonl"
    seed = 7
    n = players_for(engine_for(path, ()), seed)
    result = CliRunner().invoke(main, ["run", path, "--seed", str(seed), "--players", str(n), "--trace", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text == trace_text(path, {}, seed)
    assert hashlib.sha256(pinned_text(text).encode()).hexdigest() == fingerprint(path, {}, seed)["trace"]
