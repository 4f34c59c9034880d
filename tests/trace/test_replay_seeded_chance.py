"""Replay names the first wrong event, also for chance that looks legal (issue 21, item 8).

A trace that ``rulelang run --trace`` recorded says in its header that its chance came from
the seed (``"chance": "seed"``); replay then checks each outcome against the one the seed's
chance stream gives, and a difference is a violation at that step. Traces without the field
(hand-written, a table game) keep free chance. ``run --trace`` also writes a digest of the
table as each turn begins; on a mismatch replay says where the games parted.

Every test runs from the repository root (traces name their game as ``games/...``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.trace.replay import Replayer, Verdict, load_for_trace, read_trace, replay_file

pytestmark = pytest.mark.usefixtures("at_root")

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: Any):
    return CliRunner().invoke(main, [str(a) for a in args])


def record(tmp_path: Path, game: str, seed: int, *extra: Any, name: str = "t.jsonl") -> list[dict[str, Any]]:
    """The lines of the trace ``rulelang run GAME --seed SEED --trace`` writes."""
    out = tmp_path / name
    result = invoke("run", game, "--seed", seed, "--trace", out, "-q", *extra)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in lines), encoding="utf-8")
    return path


def replayed(path: Path) -> tuple[Verdict, Replayer]:
    trace = read_trace(path)
    engine, _ = load_for_trace(trace, None)
    replayer = Replayer(engine, trace)
    return replayer.run(), replayer


def first(lines: list[dict[str, Any]], pred) -> int:
    """The index (0-based, the header is 0: the trace line is index + 1) of the first line with ``pred``."""
    return next(i for i, e in enumerate(lines) if pred(e))


def other_face(game_dice: dict[str, list[str]], event: dict[str, Any]) -> str:
    return next(f for f in game_dice[event["roll"].split("#")[0]] if f != event["outcome"])


CHICKEN_DICE = {"White": ["Chicken", "Egg", "Fox", "Blank"], "Yellow": ["Chicken", "Egg", "Fox", "Blank"]}


# ------------------------------------------------------------------ the header says where chance came from


def test_run_trace_says_its_chance_came_from_the_seed(tmp_path: Path) -> None:
    head = record(tmp_path, "games/chicken.rules", 3)[0]
    assert head["chance"] == "seed"
    keys = list(head)
    assert keys.index("chance") == keys.index("seed") + 1  # next to the seed it names


def test_a_compliant_seeded_trace_is_checked_the_fast_way(tmp_path: Path) -> None:
    lines = record(tmp_path, "games/chicken.rules", 3)
    verdict, replayer = replayed(tmp_path / "t.jsonl")
    assert verdict.status == "compliant", verdict.message
    assert replayer.shadow is not None and not replayer.doubted  # the seed checked inside the engine's loop
    assert verdict.steps == lines[-1]["steps"]


# ------------------------------------------------------------------ a legal-looking outcome the seed does not give


def test_a_die_changed_to_another_face_it_has_is_caught_at_its_step(tmp_path: Path) -> None:
    """The issue's case: Chicken!, a die changed to another face of that die."""
    lines = record(tmp_path, "games/chicken.rules", 3)
    i = first(lines, lambda e: e.get("roll") == "White#3" and e["step"] == 5)
    assert lines[i]["outcome"] == "Fox"
    lines[i]["outcome"] = "Chicken"  # a face White dice have
    path = write(tmp_path / "e.jsonl", lines)
    verdict, _ = replayed(path)
    assert (verdict.status, verdict.line, verdict.step) == ("violation", i + 1, 5)
    assert verdict.reason == "this roll does not follow from the trace's seed: recorded Chicken, the seed gives Fox"
    assert verdict.rule is not None and verdict.rule.startswith("games/chicken.rules:")
    result = invoke("replay", path)
    assert result.exit_code == 1
    assert f"violation at step 5 (trace line {i + 1}): chance gives \"Chicken\"" in result.stderr
    assert "  why: this roll does not follow from the trace's seed: recorded Chicken, the seed gives Fox" \
        in result.stderr


def test_a_later_die_is_caught_too(tmp_path: Path) -> None:
    """Far into the game (the fast way meets the change inside the engine's loop, the careful way names it)."""
    lines = record(tmp_path, "games/chicken.rules", 5, "--players", 3)
    rolls = [i for i, e in enumerate(lines) if "roll" in e]
    i = rolls[len(rolls) * 2 // 3]
    was = lines[i]["outcome"]
    lines[i]["outcome"] = other_face(CHICKEN_DICE, lines[i])
    verdict, replayer = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line, verdict.step) == ("violation", i + 1, lines[i]["step"])
    assert verdict.reason == (f"this roll does not follow from the trace's seed: recorded {lines[i]['outcome']}, "
                              f"the seed gives {was}")
    assert replayer.doubted


def test_the_first_player_changed_is_caught(tmp_path: Path) -> None:
    lines = record(tmp_path, "games/chicken.rules", 3)
    assert lines[1]["first_player"] is True and lines[1]["outcome"] == "P2"
    lines[1]["outcome"] = "P1"
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line, verdict.step) == ("violation", 2, 1)
    assert verdict.reason == "this first player does not follow from the trace's seed: recorded P1, the seed gives P2"


def test_a_seed_bag_draw_changed_is_caught(tmp_path: Path) -> None:
    """A random draw of a card game: the Eggspansion's Seed Bag."""
    lines = record(tmp_path, "games/chicken-eggspansion.rules", 5, "--players", 3)
    draws = [i for i, e in enumerate(lines) if e.get("draw") == "bag"]
    i = next(i for i in draws if lines[i]["outcome"] != lines[draws[0]]["outcome"])
    was = lines[i]["outcome"]
    other = next(e["outcome"] for e in lines if e.get("draw") == "bag" and e["outcome"] != was)
    lines[i]["outcome"] = other
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line, verdict.step) == ("violation", i + 1, lines[i]["step"])
    assert verdict.reason == f"this draw does not follow from the trace's seed: recorded {other}, the seed gives {was}"


def test_a_shuffle_reordered_is_caught(tmp_path: Path) -> None:
    """Barnyard's deck shuffle with two cards of different kinds swapped: still the deck's cards."""
    lines = record(tmp_path, "games/barnyard.rules", 1)
    i = first(lines, lambda e: e.get("shuffle") == "deck")
    order = lines[i]["outcome"]
    j = next(j for j in range(1, len(order)) if order[j] != order[0])
    order[0], order[j] = order[j], order[0]
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line, verdict.step) == ("violation", i + 1, lines[i]["step"])
    assert verdict.reason is not None
    assert verdict.reason.startswith(f"this shuffle does not follow from the trace's seed: recorded {order[0]} in "
                                     f"place 1 from the bottom, the seed gives {order[j]}")


def test_a_random_pick_changed_is_caught(tmp_path: Path) -> None:
    """Rooster Rush's race (``pick w at random from ...``), changed to another player it picked from."""
    for seed in range(1, 30):
        lines = record(tmp_path, "games/rooster-rush.rules", seed)
        picks = [i for i, e in enumerate(lines) if "pick" in e and len(e["among"]) > 1]
        if picks:
            break
    else:
        pytest.fail("no race with two players in 30 seeds")
    i = picks[0]
    was = lines[i]["outcome"]
    other = next(p for p in lines[i]["among"] if p != was)
    lines[i]["outcome"] = other
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line, verdict.step) == ("violation", i + 1, lines[i]["step"])
    assert verdict.reason == f"this pick does not follow from the trace's seed: recorded {other}, the seed gives {was}"


def test_an_impossible_face_is_still_told_as_before(tmp_path: Path) -> None:
    """A face the die does not have: the die's faces are the reason, not the seed."""
    lines = record(tmp_path, "games/chicken.rules", 3)
    i = first(lines, lambda e: e.get("roll") == "White#1")
    lines[i]["outcome"] = "DoubleChicken"
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line) == ("violation", i + 1)
    assert verdict.reason == ("White#1 (White die) has no face 'DoubleChicken'; "
                              "its faces are Chicken, Egg, Fox, Blank")


def test_a_game_from_a_position_checks_chance_from_the_seed_after_setup(tmp_path: Path) -> None:
    position = ROOT / "examples" / "near-the-end.position.json"
    lines = record(tmp_path, "games/chicken.rules", 4, "--from", position)
    assert lines[0]["chance"] == "seed" and "position" in lines[0]
    assert replayed(tmp_path / "t.jsonl")[0].status == "compliant"
    i = first(lines, lambda e: "roll" in e)
    lines[i]["outcome"] = other_face(CHICKEN_DICE, lines[i])
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line) == ("violation", i + 1)
    assert verdict.reason is not None and "does not follow from the trace's seed" in verdict.reason


# ------------------------------------------------------------------ free chance is judged as before


def test_without_the_field_chance_is_free(tmp_path: Path) -> None:
    lines = record(tmp_path, "games/chicken.rules", 3)
    del lines[0]["chance"]
    lines = [e for e in lines if e["type"] != "digest"]
    i = first(lines, lambda e: e.get("roll") == "White#3" and e["step"] == 5)
    lines[i]["outcome"] = "Chicken"
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    # every event is legal: only the result line says the games differ (the old behaviour)
    assert (verdict.status, verdict.line) == ("violation", len(lines))
    assert verdict.message == "the recorded standings differ from the replayed game's"


def test_every_example_trace_keeps_free_chance() -> None:
    """The hand-written traces in examples/ have no "chance" field, and are judged as before."""
    paths = sorted((ROOT / "examples").rglob("*.jsonl"))
    assert len(paths) > 30
    for path in paths:
        head = read_trace(path).header
        assert "chance" not in head, path
        verdict = replay_file(path)  # (some examples show a violation on purpose: see examples/README.md)
        assert "from the trace's seed" not in (verdict.reason or ""), (path, verdict.reason)
        assert verdict.parted is None, path


@pytest.mark.parametrize(("chance", "seed", "says"), [
    ("dice", 3, 'unknown "chance" in the header: "dice"'),
    ("seed", None, 'the header says "chance": "seed" but gives no seed'),
])
def test_a_bad_chance_field_is_malformed(tmp_path: Path, chance: str, seed: int | None, says: str) -> None:
    lines = record(tmp_path, "games/chicken.rules", 3)
    lines[0]["chance"], lines[0]["seed"] = chance, seed
    path = write(tmp_path / "e.jsonl", lines)
    result = invoke("replay", path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"e.jsonl:1:1: error: {says}" in result.stderr
    assert "hint:" in result.stderr


# ------------------------------------------------------------------ digests as each turn begins


def test_run_trace_writes_a_digest_as_each_turn_begins(tmp_path: Path) -> None:
    lines = record(tmp_path, "games/chicken.rules", 3)
    digests = [e for e in lines if e["type"] == "digest"]
    assert [e["turn"] for e in digests] == list(range(1, lines[-1]["turns"] + 1))
    assert all(set(e) == {"type", "turn", "digest"} and len(e["digest"]) == 16 for e in digests)


def _free_with_a_roll_changed(tmp_path: Path) -> tuple[list[dict[str, Any]], int, int]:
    """A recorded Chicken! trace with free chance and a legal roll changed in its third turn: the
    lines, the index of the changed roll and of the digest as turn 4 begins."""
    lines = record(tmp_path, "games/chicken.rules", 3)
    del lines[0]["chance"]
    turn3 = first(lines, lambda e: e.get("turn") == 3)
    i = first(lines, lambda e: "roll" in e and lines.index(e) > turn3 and e["outcome"] in ("Chicken", "Egg"))
    lines[i]["outcome"] = "Fox" if lines[i]["outcome"] != "Fox" else "Blank"
    assert first(lines, lambda e: e.get("turn") == 4) > i
    return lines, i, first(lines, lambda e: e.get("turn") == 4)


def test_a_changed_game_names_the_first_turn_whose_digest_differs(tmp_path: Path) -> None:
    lines, _i, turn4 = _free_with_a_roll_changed(tmp_path)
    turn3 = first(lines, lambda e: e.get("turn") == 3)
    path = write(tmp_path / "e.jsonl", lines)
    verdict, _ = replayed(path)
    assert verdict.status == "violation"
    assert verdict.parted is not None and (verdict.parted["turn"], verdict.parted["line"]) == (4, turn4 + 1)
    assert verdict.parted["matched_line"] == turn3 + 1
    said = (f"the games parted in turn 3 (between trace lines {turn3 + 1} and {turn4 + 1}): "
            "the table as turn 4 began is not the recorded one")
    assert verdict.parted["text"] == said
    # the standings message says where the games parted
    if verdict.message.startswith("the recorded standings differ"):
        assert verdict.message == f"the recorded standings differ from the replayed game's; {said}"
    else:  # a later action the changed game no longer allows
        assert verdict.line is not None and verdict.line > turn4 + 1
    result = invoke("replay", path)
    assert result.exit_code == 1 and said in result.stderr


def test_a_counter_edited_in_a_position_names_the_first_turn(tmp_path: Path) -> None:
    """A recorded game from a position whose score was then edited: every event stays legal."""
    position = json.loads((ROOT / "examples" / "near-the-end.position.json").read_text(encoding="utf-8"))
    position["counters"] = {"score": {"P1": 0, "P2": 0, "P3": 0}}
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(position), encoding="utf-8")
    lines = record(tmp_path, "games/chicken.rules", 2, "--from", pos)
    assert replayed(tmp_path / "t.jsonl")[0].status == "compliant"
    lines[0]["position"]["counters"]["score"]["P3"] = 1
    second = [i for i, e in enumerate(lines) if e["type"] == "digest"][0]
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert verdict.status == "violation" and verdict.parted is not None
    turn = lines[second]["turn"]
    assert verdict.parted["line"] == second + 1 and verdict.parted["turn"] == turn
    assert verdict.parted["text"] == (f"the games parted before turn {turn} (by trace line {second + 1}): "
                                      f"the table as turn {turn} began is not the recorded one")


def test_a_game_that_parted_but_ends_alike_is_not_compliant(tmp_path: Path) -> None:
    """No result line: only the digests tell that the replayed game is not the recorded one."""
    lines, _i, turn4 = _free_with_a_roll_changed(tmp_path)
    cut = first(lines, lambda e: e.get("turn") == 6)
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines[:cut]))
    assert (verdict.status, verdict.line) == ("violation", turn4 + 1)
    assert verdict.message.startswith("the replayed game is not the recorded one: the games parted in turn 3")


def test_a_malformed_turn_digest(tmp_path: Path) -> None:
    lines = record(tmp_path, "games/chicken.rules", 3)
    i = first(lines, lambda e: e["type"] == "digest")
    lines[i]["turn"] = "one"
    verdict, _ = replayed(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line) == ("malformed", i + 1)
    assert 'a turn\'s digest needs "turn"' in verdict.message


# ------------------------------------------------------------------ the adapters


def test_the_pettingzoo_trace_says_its_chance_came_from_the_seed(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="needs the envs extra")
    pytest.importorskip("pettingzoo", reason="needs the envs extra")
    from rulelang.envs.pettingzoo import env as make_env  # noqa: PLC0415

    game = make_env("games/chicken.rules", players=2)
    game.reset(seed=9)
    while not all(game.terminations.values()):
        agent = game.agent_selection
        mask = game.observe(agent)["action_mask"]
        game.step(int(mask.argmax()) if not game.terminations[agent] else None)
    path = tmp_path / "env.jsonl"
    game.write_trace(path)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["chance"] == "seed"
    assert replay_file(path).status == "compliant"
    i = first(lines, lambda e: "roll" in e)
    lines[i]["outcome"] = other_face(CHICKEN_DICE, lines[i])
    verdict = replay_file(write(tmp_path / "e.jsonl", lines))
    assert (verdict.status, verdict.line) == ("violation", i + 1)


@pytest.mark.parametrize("game", sorted(p.name for p in (ROOT / "games").glob("*.rules")))
def test_every_game_s_recorded_trace_follows_its_seed_both_ways(game: str, tmp_path: Path) -> None:
    """The seed's stream as replay draws it is play's, for every kind of chance of every game, the fast
    way (inside the engine's loop) and the careful way (event by event)."""
    for seed in (1, 2):
        lines = record(tmp_path, f"games/{game}", seed)
        for fast in (True, False):
            trace = read_trace(tmp_path / "t.jsonl")
            engine, _ = load_for_trace(trace, None)
            replayer = Replayer(engine, trace)
            replayer.fast = fast
            verdict = replayer.run()
            assert verdict.status == "compliant", (game, seed, fast, verdict.message, verdict.reason)
            assert verdict.steps == lines[-1]["steps"]
