"""Fingerprints of seeded random games, to pin the engine's behaviour across back ends.

``fingerprint`` plays one game the way ``rulelang run GAME --seed S --trace FILE`` does
(random agents, narration on) and returns sha256 digests of: the trace text exactly as
``run`` writes it, the narration the engine logged (as one stream of entries), and the state
whenever a player is to decide (everything but the continuation stack, whose pcs and local
slots are the compiled code's own business). It also plays the same game without
narration (the fast path of simulations and benchmarks) and checks that it ends the same.

``tests/engine/codegen_fixture.json`` holds the fingerprints recorded with the engine as it was
before the generated back end (the instruction interpreter at 8fd86b9, on the current games,
with its STATE_FORMAT set to 2 as the generated back end writes it: the format number is
part of every state digest, and nothing else of the format changed). ``python
tests/support/codegen_support.py`` re-records them with the engine it runs on; do that only after
checking by other means that a change of behaviour is intended.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.agents.base import RandomAgent  # noqa: E402
from rulelang.engine.engine import Engine  # noqa: E402
from rulelang.engine.state import State  # noqa: E402
from rulelang.play import play  # noqa: E402
from rulelang.trace.format import CHANCE_FROM_SEED, dumps_line, header, result_line  # noqa: E402

FIXTURE = ROOT / "tests" / "engine" / "codegen_fixture.json"

# (game file, options, how many seeds): player counts cycle through the game's range.
CASES: list[tuple[str, dict[str, str], int]] = [
    ("games/chicken.rules", {}, 200),
    ("games/chicken.rules", {"random_first_player": "false", "orange_egg": "true"}, 60),
    ("games/chicken-eggspansion.rules", {}, 200),
    ("games/chicken-eggspansion.rules", {"blue_no_blank": "true", "mother_hen_no_blank": "true"}, 40),
    ("games/barnyard.rules", {}, 200),
    ("games/barnyard.rules", {"scarecrow_split": "true", "equal_bonuses": "false",
                              "crow_tokens_again": "false", "cards_removed": "30"}, 80),
    ("games/barnyard-2p.rules", {}, 150),
    ("games/rule-the-roost.rules", {}, 200),
    ("games/rule-the-roost.rules", {"place_under_locked": "false", "eggs_against_farmers": "true"}, 40),
]


@cache
def engine_for(game: str, options: tuple[tuple[str, str], ...]) -> Engine:
    """The engine of ``game`` (relative to the repository root) with ``options``, loaded once."""
    assert Path.cwd().resolve() == ROOT, "run from the repository root: traces name files relative to it"
    return rulelang.load_game(game, dict(options) or None)


def players_for(engine: Engine, seed: int) -> int:
    """The player count of seed ``seed``: the game's range, round and round."""
    lo, hi = engine.model.min_players, engine.model.max_players
    return lo + seed % (hi - lo + 1)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _without_stack(st: State) -> str:
    data = st.to_json()
    del data["stack"]
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def fingerprint(game: str, options: dict[str, str], seed: int) -> dict[str, Any]:
    """Digests of one seeded random game of ``game``: trace, narration, states after each step."""
    engine = engine_for(game, tuple(sorted(options.items())))
    n = players_for(engine, seed)
    state = engine.new_state(n, narrate=True)
    head = header(engine, game, n, seed, ["random"] * n, options)
    head["format"] = "rulelang-trace/1"  # as recorded (format 2 changed only how turn digests are computed)
    lines = [dumps_line(head)]
    narration = hashlib.sha256()
    for told in state.log or []:
        narration.update(json.dumps(told).encode())
    states = hashlib.sha256()
    last = [-1]

    def on_event(event: dict[str, Any], told: list[dict[str, Any]]) -> None:
        lines.append(dumps_line(event))
        for entry in told:  # the narration as one stream (which event of a step carries it may vary)
            narration.update(json.dumps(entry).encode())
        # The state whenever a player is to decide (or the game is over): chance the engine
        # resolves without pausing (dice, random draws while playing) may fall inside a step.
        if state.step != last[0] and (state.over or not engine.is_chance(state)):
            last[0] = state.step
            states.update(_without_stack(state).encode())

    play(engine, state, [RandomAgent(seed, s) for s in range(n)], seed, on_event=on_event, narrate=True)
    lines.append(dumps_line(result_line(state)))
    text = "\n".join(lines) + "\n"
    quiet = engine.new_state(n)
    play(engine, quiet, [RandomAgent(seed, s) for s in range(n)], seed)
    return {
        "players": n,
        "seed": seed,
        "trace": _sha(text),
        "narration": narration.hexdigest(),
        "states": states.hexdigest(),
        "quiet": quiet.digest() == state.digest() and quiet.step == state.step,
    }


def trace_text(game: str, options: dict[str, str], seed: int) -> str:
    """The trace text of one seeded random game (what ``rulelang run --trace`` writes: its header says
    chance came from the seed, and a digest line follows each step that begins a turn)."""
    engine = engine_for(game, tuple(sorted(options.items())))
    n = players_for(engine, seed)
    state = engine.new_state(n, narrate=True)
    lines = [dumps_line(header(engine, game, n, seed, ["random"] * n, options, chance=CHANCE_FROM_SEED))]
    play(engine, state, [RandomAgent(seed, s) for s in range(n)], seed,
         on_event=lambda event, _told: lines.append(dumps_line(event)), narrate=True, digests=True)
    lines.append(dumps_line(result_line(state)))
    return "\n".join(lines) + "\n"


def pinned_text(text: str) -> str:
    """A trace as the fixture pins it (``fingerprint``'s "trace"): without the header's "chance" and the
    turn digests, which came after the fixture and say nothing of how the game went, and with the
    format it was recorded in (formats 2 and 3 changed only how turn digests are computed)."""
    lines = [json.loads(line) for line in text.splitlines()]
    lines[0].pop("chance", None)
    if lines[0].get("format") in ("rulelang-trace/2", "rulelang-trace/3"):
        lines[0]["format"] = "rulelang-trace/1"
    return "\n".join(dumps_line(e) for e in lines if e["type"] != "digest") + "\n"


def record() -> dict[str, Any]:
    """Fingerprints of every case of CASES with the engine as it is now."""
    out: dict[str, Any] = {"cases": []}
    for game, options, seeds in CASES:
        engine = engine_for(game, tuple(sorted(options.items())))
        out["cases"].append({
            "game": game,
            "options": options,
            "sources": [list(f) for f in engine.model.files],
            "games": [fingerprint(game, options, seed) for seed in range(1, seeds + 1)],
        })
    return out


def dumps_fixture(data: dict[str, Any]) -> str:
    """The fixture as JSON text with one game a line (diffs stay readable)."""
    out = ['{"cases": [']
    for i, case in enumerate(data["cases"]):
        head = json.dumps({k: v for k, v in case.items() if k != "games"})[:-1]
        out.append(f' {head}, "games": [')
        out.append(",\n".join("  " + json.dumps(g) for g in case["games"]))
        out.append(" ]}" + ("," if i < len(data["cases"]) - 1 else ""))
    out.append("]}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    FIXTURE.write_text(dumps_fixture(record()), encoding="utf-8")
    print(f"wrote {FIXTURE}")
