"""Hippe Kippen: a seeded trace pinned by a syrupy snapshot, and what each player may see.

`rulelang run games/hippe-kippen.rules --seed 7 --players 3 --trace FILE` runs from the
repository root; the header's sha256 fields are left out of the snapshot (a comment changed
in the rules file changes them, not the game). After a deliberate change to the rules file or
the engine, review the new trace and update it with
`python -m pytest tests/games/hippe_kippen/test_snapshots.py --snapshot-update`.

The leak tests: the draw pile ("gedekt als trekstapel") and the hands are seen by nobody but
their owner, in observations and in a player's `--view`; a card that starts a collection is
shown to everyone before it is laid face down ("een speler moet zijn kaart eerst open aan zijn
medespelers tonen voordat hij deze dicht neerlegt"), so every player knows it from then on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from example_support import game_engine, random_action, without_sha

from rulelang.cli import main
from rulelang.rng import Rng
from rulelang.trace.replay import replay_file

GAME = "games/hippe-kippen.rules"
SEED = 7

pytestmark = pytest.mark.usefixtures("at_root")


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_seeded_trace_matches_snapshot_and_replays_compliant(tmp_path: Path, snapshot) -> None:
    path = tmp_path / "trace.jsonl"
    code, output = invoke("run", GAME, "--seed", str(SEED), "--players", "3", "--trace", str(path), "--quiet")
    assert code == 0, output
    text = path.read_text(encoding="utf-8")
    lines = [json.loads(line) for line in text.splitlines()]
    header, events, result = lines[0], lines[1:-1], lines[-1]
    assert header["players"] == 3 and header["options"] == {
        "booster_replaced": True, "fox_enters": "first_face_up", "tie_share": True}
    assert [e["shuffle"] for e in events[:2]] == ["pile", "pile"] and events[2]["first_player"] is True
    assert result["type"] == "result" and result["winners"]
    verdict = replay_file(path)
    assert verdict.status == "compliant", verdict.message
    assert without_sha(text) == snapshot


def test_the_play_by_play_shows_each_scoring_as_a_score_sheet() -> None:
    code, output = invoke("run", GAME, "--seed", str(SEED), "--players", "3")
    assert code == 0, output
    sheets = [i for i, line in enumerate(output.splitlines()) if line == "  Score sheet (telling):"]
    assert len(sheets) == 3
    lines = output.splitlines()
    head = lines[sheets[0] + 1].split()
    assert head[:10] == ["Red", "Orange", "Yellow", "Green", "Blue", "Purple", "Pink", "Brown", "Grey", "White"]
    assert [lines[sheets[0] + 2 + p].split()[0] for p in range(3)] == ["P1", "P2", "P3"]


@pytest.mark.parametrize("seed", [1, 2])
def test_observations_hide_the_pile_the_card_drawn_and_other_hands(seed: int) -> None:
    engine = game_engine(GAME)
    st = engine.new_state(3)
    rng = Rng(seed, stream=9)
    steps = 0
    while not st.over and steps < 400:
        for p in range(3):
            zones = engine.observe(st, p)["zones"]
            assert set(zones["pile"]) == {"hidden"}
            assert set(zones["drawn"]) == {"hidden"}
            for q in range(3):
                if q != p:
                    assert set(zones[f"hand of P{q + 1}"]) == {"hidden"}
                else:
                    assert isinstance(zones[f"hand of P{q + 1}"], list)
            assert isinstance(zones["display"], list) and isinstance(zones["chests of P1"], list)
        engine.apply(st, *random_action(engine, st, rng))
        steps += 1


def test_a_card_that_starts_a_collection_is_known_to_all() -> None:
    engine = game_engine(GAME)
    st = engine.new_state(3)
    rng = Rng(4, stream=9)
    started = 0
    while not st.over and started < 5:
        d = engine.pending(st)
        if d is not None and d.kind == "choice":
            starts = [a for a in engine.legal_actions(st) if a.startswith("start a collection with ")]
            if starts:
                who = st.current
                looks = [len(st.seen[p]) for p in range(3)]
                engine.apply(st, starts[0])
                kind = starts[0].removeprefix("start a collection with ")
                for p in range(3):
                    assert len(st.seen[p]) == looks[p] + 1
                    assert st.seen[p][-1]["components"][0].lower() == kind
                    chests = engine.observe(st, p)["zones"][f"chests of P{who + 1}"]
                    assert isinstance(chests, list) and chests  # public from then on
                started += 1
                continue
        engine.apply(st, *random_action(engine, st, rng))
    assert started == 5


def test_a_view_never_names_a_card_drawn_by_another_player() -> None:
    code, full = invoke("run", GAME, "--seed", "3", "--players", "3", "-v")
    assert code == 0
    code, view = invoke("run", GAME, "--seed", "3", "--players", "3", "-v", "--view", "P2")
    assert code == 0
    drawn_by_others = re.compile(r"^    (.+): (?:the draw pile|the card drawn|the box) -> P[13]'s hand$")
    hidden = re.compile(r"^    \d+ hidden components?: (?:the draw pile|the card drawn|the box) -> P[13]'s hand$")
    assert any(drawn_by_others.match(line) for line in full.splitlines())  # the full story names them
    moves = [line for line in view.splitlines() if "-> P1's hand" in line or "-> P3's hand" in line]
    for line in moves:
        if "the draw pile" in line or "the card drawn" in line or "the box" in line:
            assert hidden.match(line), line
