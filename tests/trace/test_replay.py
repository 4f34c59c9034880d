"""`rulelang replay`: seeded traces replay as compliant; verdicts, exit codes, malformed traces.

Traces are made the way `rulelang run --trace` makes them (the same header, events and
result line; one test checks they are byte-identical to the CLI's), then replayed with
the Replayer directly (fast, for many seeds) and through the CLI (verdict text, `--json`,
exit codes). The hand-written traces in tests/traces/ are snapshot-tested: their exact
`rulelang replay` output is in tests/trace/__snapshots__/test_replay.ambr.

Every test runs from the repository root, so that the header's "file" (games/...) and the
paths in messages do not depend on where the checkout lives.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from scripted import ROOT

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.cli import main
from rulelang.engine.engine import Engine
from rulelang.play import play
from rulelang.trace.format import CHANCE_FROM_SEED, dumps_line, header, result_line
from rulelang.trace.replay import Replayer, Verdict, read_trace, replay_file

CHICKEN = "games/chicken.rules"
EGGSPANSION = "games/chicken-eggspansion.rules"
GAMES = [CHICKEN, EGGSPANSION]
TRACES = ROOT / "tests" / "traces"


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


# ------------------------------------------------------------------ helpers (also used by the tamper and view tests)


@functools.cache
def engine_for(game: str, **options: str) -> Engine:
    """The game at ``game`` (relative to the repository root), loaded once per option set."""
    return load_game(ROOT / game, options or None)


def make_trace(game: str, players: int, seed: int, digests: bool = False, **options: str) -> list[dict[str, Any]]:
    """The trace `rulelang run GAME -p PLAYERS -s SEED --trace` writes, as a list of events (with ``digests``
    its turn digests too, as run writes them; without, every event but the header and result is a step)."""
    engine = engine_for(game, **options)
    state = engine.new_state(players)
    events: list[dict[str, Any]] = []
    play(engine, state, [RandomAgent(seed, s) for s in range(players)], seed,
         on_event=lambda event, _narration: events.append(event), digests=digests)
    head = header(engine, game, players, seed, ["random"] * players, dict(options), chance=CHANCE_FROM_SEED)
    head["sources"] = [{"file": _from_root(s["file"]), "sha256": s["sha256"]} for s in head["sources"]]
    return [head, *events, result_line(state)]


def _from_root(path: str) -> str:
    p = Path(path)
    return p.resolve().relative_to(ROOT).as_posix() if p.is_absolute() else p.as_posix()


def trace_text(events: list[dict[str, Any]]) -> str:
    return "".join(dumps_line(e) + "\n" for e in events)


def write_trace(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text(trace_text(events), encoding="utf-8")
    return path


def replay_events(path: Path, engine: Engine | None = None, view: int | None = None) -> tuple[Verdict, Replayer]:
    """Replay the trace file at ``path`` on ``engine`` (default: the game its header names)."""
    trace = read_trace(path)
    if engine is None:
        engine = engine_for(trace.header["file"])
    replayer = Replayer(engine, trace, view=view)
    return replayer.run(), replayer


def invoke(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def no_traceback(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


# ------------------------------------------------------------------ seeded traces replay as compliant


def test_api_traces_are_the_cli_traces(tmp_path: Path) -> None:
    """make_trace writes what `rulelang run --trace` writes, byte for byte."""
    for game, players, seed in [(CHICKEN, 3, 4), (EGGSPANSION, 4, 9)]:
        out = tmp_path / "cli.jsonl"
        result = invoke("run", game, "-p", players, "-s", seed, "--trace", out, "-q")
        assert result.exit_code == 0, result.output
        assert out.read_text(encoding="utf-8") == trace_text(make_trace(game, players, seed, digests=True))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_seeded_trace_replays_compliant(game: str, players: int, tmp_path: Path) -> None:
    for seed in range(30):
        events = make_trace(game, players, seed)
        path = write_trace(tmp_path / f"{seed}.jsonl", events)
        verdict, replayer = replay_events(path)
        recorded = events[-1]
        assert verdict.status == "compliant", (seed, verdict.message)
        assert verdict.steps == recorded["steps"] == len(events) - 2
        assert verdict.result == {"winners": recorded["winners"], "standings": recorded["standings"]}
        assert replayer.state is not None and replayer.state.digest() == recorded["digest"]
        assert verdict.line is None and verdict.warnings == []


@pytest.mark.parametrize("game", GAMES)
def test_cli_replay_json_verdict(game: str, tmp_path: Path) -> None:
    for seed, players in [(1, 2), (2, 3), (5, 4), (8, 5)]:
        events = make_trace(game, players, seed)
        path = write_trace(tmp_path / "t.jsonl", events)
        result = invoke("replay", path, "--json")
        no_traceback(result)
        assert result.exit_code == 0, result.output
        verdict = json.loads(result.stdout)
        recorded = events[-1]
        assert verdict == {
            "status": "compliant",
            "message": "every event keeps the rules",
            "steps": recorded["steps"],
            "result": {"winners": recorded["winners"], "standings": recorded["standings"]},
        }
        assert result.stderr == ""


def test_cli_replay_text_of_a_compliant_trace(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    assert invoke("run", CHICKEN, "--seed", "3", "--trace", out, "-q").exit_code == 0
    recorded = json.loads(out.read_text(encoding="utf-8").splitlines()[-1])
    standings = ", ".join(f"{row['player']} {row['keys'][0]}" for row in recorded["standings"])
    result = invoke("replay", out)
    assert result.exit_code == 0
    assert result.stdout == (f"compliant: {recorded['steps']} steps, every event keeps the rules\n"
                             f"  result: winner {recorded['winners'][0]} ({standings})\n")
    assert result.stderr == ""


def test_replay_file_api_matches_the_cli(tmp_path: Path) -> None:
    path = write_trace(tmp_path / "t.jsonl", make_trace(EGGSPANSION, 3, 5))
    verdict = replay_file(path)
    cli = json.loads(invoke("replay", path, "--json").stdout)
    assert verdict.to_json() == cli


# ------------------------------------------------------------------ exit codes


@pytest.fixture
def seeded() -> list[dict[str, Any]]:
    return make_trace(CHICKEN, 2, 3)


def _variant(tmp_path: Path, events: list[dict[str, Any]], name: str = "v.jsonl") -> Path:
    return write_trace(tmp_path / name, events)


def test_exit_codes(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    compliant = _variant(tmp_path, seeded, "ok.jsonl")
    bad = [dict(e) for e in seeded]
    first_roll = next(i for i, e in enumerate(bad) if "roll" in e)
    bad[first_roll]["outcome"] = "DoubleChicken"  # a White die has no Double Chicken
    violation = _variant(tmp_path, bad, "violation.jsonl")
    incomplete = _variant(tmp_path, seeded[:20], "incomplete.jsonl")
    malformed = tmp_path / "malformed.jsonl"
    malformed.write_text(trace_text(seeded[:5]) + "{oops\n", encoding="utf-8")

    cases = [(compliant, [], 0, "compliant"), (violation, [], 1, "violation"), (incomplete, [], 1, "incomplete"),
             (incomplete, ["--allow-incomplete"], 0, "incomplete"), (malformed, [], 1, "malformed"),
             (violation, ["--allow-incomplete"], 1, "violation"), (malformed, ["--allow-incomplete"], 1, "malformed")]
    for path, extra, code, status in cases:
        for as_json in (False, True):
            result = invoke("replay", path, *extra, *(["--json"] if as_json else []))
            no_traceback(result)
            assert result.exit_code == code, (path.name, extra, as_json, result.output)
            if as_json:
                assert json.loads(result.stdout)["status"] == status
            elif status == "compliant":
                assert result.stdout.startswith("compliant:")
            else:
                assert result.stdout == ""
                assert result.stderr.startswith({"violation": "violation at step", "incomplete": "incomplete:",
                                                 "malformed": "malformed trace:"}[status])


def test_violation_verdict_fields(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    bad = [dict(e) for e in seeded]
    i = next(i for i, e in enumerate(bad) if "roll" in e)
    bad[i]["outcome"] = "DoubleChicken"
    path = _variant(tmp_path, bad)
    result = invoke("replay", path, "--json")
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "violation"
    assert verdict["line"] == i + 1
    assert verdict["step"] == bad[i]["step"] == verdict["steps"] + 1
    assert verdict["event"] == bad[i]
    assert verdict["reason"].startswith(f"{bad[i]['roll']} (White die) has no face 'DoubleChicken'")
    assert verdict["rule"].startswith(f"{CHICKEN}:")
    assert verdict["legal"] == ["Chicken", "Egg", "Fox", "Blank"] and verdict["legal_total"] == 4
    text = invoke("replay", path).stderr
    assert text.startswith(f"violation at step {bad[i]['step']} (trace line {i + 1}): chance gives \"DoubleChicken\"\n")
    assert '  legal at that point: "Chicken", "Egg", "Fox", "Blank"\n' in text


def test_incomplete_verdict_says_what_the_game_waits_for(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    # stop right before a choice: the verdict names the player and the legal actions
    k = next(i for i, e in enumerate(seeded) if i > 5 and e["type"] == "action")
    path = _variant(tmp_path, seeded[:k])
    verdict = json.loads(invoke("replay", path, "--json").stdout)
    action = seeded[k]
    assert verdict["status"] == "incomplete"
    assert verdict["steps"] == k - 1
    assert verdict["pending"] == f"{action['player']} to choose"
    assert action["action"] in verdict["legal"]
    # stop right before a roll
    k = next(i for i, e in enumerate(seeded) if i > 5 and "roll" in e)
    verdict = json.loads(invoke("replay", _variant(tmp_path, seeded[:k]), "--json").stdout)
    assert verdict["pending"] == f"a chance outcome (roll {seeded[k]['roll']})"
    assert "legal" not in verdict


def test_a_trace_without_its_result_line_is_compliant(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    result = invoke("replay", _variant(tmp_path, seeded[:-1]))
    assert result.exit_code == 0 and result.stdout.startswith("compliant:")


def test_a_recorded_result_that_differs_is_a_violation(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    bad = [dict(e) for e in seeded]
    bad[-1]["winners"] = ["P1" if seeded[-1]["winners"] != ["P1"] else "P2"]
    verdict = json.loads(invoke("replay", _variant(tmp_path, bad), "--json").stdout)
    assert verdict["status"] == "violation" and verdict["line"] == len(bad)
    assert verdict["message"] == "the recorded winners differ from the replayed game's"


def test_a_result_line_before_the_end_of_the_game_is_not_incomplete(tmp_path: Path,
                                                                     seeded: list[dict[str, Any]]) -> None:
    """A trace that records a result (P2 won) but lacks the events that end the game claims
    something the rules do not give: it is not merely "incomplete", and --allow-incomplete
    must not accept it."""
    bad = seeded[:-2] + seeded[-1:]  # the last roll is gone, the result line stays
    path = _variant(tmp_path, bad)
    result = invoke("replay", path, "--allow-incomplete", "--json")
    verdict = json.loads(result.stdout)
    assert verdict["status"] in ("violation", "malformed"), verdict
    assert verdict.get("line") == len(bad)
    assert result.exit_code == 1


@pytest.mark.parametrize("key", ["steps", "turns"])
def test_a_result_line_with_wrong_steps_or_turns_is_not_compliant(key: str, tmp_path: Path,
                                                                  seeded: list[dict[str, Any]]) -> None:
    """Without a digest, the result line's "steps" and "turns" are still part of what it records."""
    bad = [dict(e) for e in seeded]
    del bad[-1]["digest"]
    bad[-1][key] += 5
    verdict = json.loads(invoke("replay", _variant(tmp_path, bad), "--json").stdout)
    assert verdict["status"] != "compliant", verdict
    assert verdict.get("line") == len(bad)


# ------------------------------------------------------------------ --rules and the sha256 warning


def test_rules_override_with_an_identical_copy(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    copy = tmp_path / "copy.rules"
    copy.write_bytes((ROOT / CHICKEN).read_bytes())
    path = _variant(tmp_path, seeded)
    result = invoke("replay", path, "--rules", copy)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert json.loads(invoke("replay", path, "--rules", copy, "--json").stdout).get("warnings") is None


def test_rules_override_with_a_changed_file_warns(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    changed = tmp_path / "changed.rules"
    changed.write_bytes((ROOT / CHICKEN).read_bytes() + b"\n# a comment changes the bytes, not the rules\n")
    path = _variant(tmp_path, seeded)
    result = invoke("replay", path, "--rules", changed)
    assert result.exit_code == 0, result.output
    shown = changed.as_posix()
    assert result.stderr == f"warning: {shown} has changed since the trace was recorded (sha256 differs)\n"
    assert result.stdout.startswith("compliant:")
    verdict = json.loads(invoke("replay", path, "--rules", changed, "--json").stdout)
    assert verdict["warnings"] == [f"{shown} has changed since the trace was recorded (sha256 differs)"]


def test_header_sha256_that_differs_warns(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    bad = [dict(e) for e in seeded]
    bad[0]["sha256"] = hashlib.sha256(b"another file").hexdigest()
    result = invoke("replay", _variant(tmp_path, bad))
    assert result.exit_code == 0
    assert result.stderr == f"warning: {CHICKEN} has changed since the trace was recorded (sha256 differs)\n"


def test_rules_override_with_other_rules_finds_the_first_difference(tmp_path: Path) -> None:
    """An Eggspansion trace checked against the base game breaks at its first Seed Bag draw."""
    events = make_trace(EGGSPANSION, 3, 5)
    for option in ("blue_no_blank", "mother_hen_no_blank"):  # options the base game does not have
        del events[0]["options"][option]
    path = _variant(tmp_path, events)
    result = invoke("replay", path, "--rules", CHICKEN, "--json")
    verdict = json.loads(result.stdout)
    assert result.exit_code == 1
    assert verdict["status"] == "violation" and verdict["line"] == 2
    assert verdict["reason"] == "the rules call for chance: first_player; the trace has draw bag"
    assert verdict["warnings"] == [f"{CHICKEN} has changed since the trace was recorded (sha256 differs)"]


def test_missing_rules_file_is_reported(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    bad = [dict(e) for e in seeded]
    bad[0]["file"] = "games/no-such-game.rules"
    result = invoke("replay", _variant(tmp_path, bad))
    no_traceback(result)
    assert result.exit_code == 1
    assert "the game file named in the trace does not exist here: games/no-such-game.rules" in result.stderr


# ------------------------------------------------------------------ malformed traces, each with its line


def _mutate(events: list[dict[str, Any]], index: int, **changes: Any) -> list[dict[str, Any]]:
    out = [dict(e) for e in events]
    out[index].update(changes)
    return out


def _malformed_cases(seeded: list[dict[str, Any]]) -> list[tuple[str, str, int, str]]:
    """(name, trace text, line, words of the message) for each kind of malformed trace."""
    roll = next(i for i, e in enumerate(seeded) if "roll" in e)
    action = next(i for i, e in enumerate(seeded) if e["type"] == "action")
    lines = trace_text(seeded).splitlines(keepends=True)
    n = len(lines)
    bad_json = "".join(lines[:roll] + ['{"type": "chance", "roll": \n'] + lines[roll + 1:])
    not_object = "".join(lines[:roll] + ['["chance"]\n'] + lines[roll + 1:])
    return [
        ("bad JSON", bad_json, roll + 1, f"line {roll + 1} is not valid JSON"),
        ("not an object", not_object, roll + 1, 'each line of a trace must be a JSON object with a "type"'),
        ("unknown event type", trace_text(_mutate(seeded, roll, type="dice")), roll + 1, "unknown event type 'dice'"),
        ("unknown face", trace_text(_mutate(seeded, roll, outcome="Kitten")), roll + 1,
         "'Kitten' is not a face of any die in this game"),
        ("missing header", trace_text(seeded[1:]), 1, "a trace starts with a header line"),
        ("unknown format", trace_text(_mutate(seeded, 0, format="rulelang-trace/9")), 1,
         "unknown trace format 'rulelang-trace/9'"),
        ("no player count", trace_text(_mutate(seeded, 0, players="two")), 1, "the header must say how many players"),
        ("event after the result", trace_text(seeded + [seeded[action]]), n + 1, "event after the result line"),
        ("event after the end", trace_text(seeded[:-1] + [seeded[action]]), n, "event after the end of the game"),
        ("digest checkpoint", trace_text(seeded[:roll] + [{"type": "digest", "digest": "0123456789abcdef"}]
                                         + seeded[roll:]), roll + 1, "digest checkpoint does not match"),
        ("result digest", trace_text(_mutate(seeded, n - 1, digest="0123456789abcdef")), n,
         "the result's digest does not match the replayed final state"),
        ("unknown player", trace_text(_mutate(seeded, action, player="P7")), action + 1, "unknown player 'P7'"),
        ("step out of order", trace_text(_mutate(seeded, roll, step=99)), roll + 1,
         f"step 99 out of order: expected step {roll}"),
        ("action without a label", trace_text(_mutate(seeded, action, action=3)), action + 1,
         'an action event needs "player" and "action" strings'),
        ("chance without an outcome", trace_text([e if i != roll else {"type": "chance", "roll": e["roll"]}
                                                  for i, e in enumerate(seeded)]), roll + 1,
         'a chance event needs an "outcome"'),
        ("chance of no kind", trace_text([e if i != roll else {"type": "chance", "outcome": "Egg"}
                                          for i, e in enumerate(seeded)]), roll + 1,
         "a chance event names what happened"),
    ]


def test_malformed_traces_each_with_its_line(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    for name, text, line, words in _malformed_cases(seeded):
        path = tmp_path / "m.jsonl"
        path.write_text(text, encoding="utf-8")
        shown = path.as_posix()
        result = invoke("replay", path)
        no_traceback(result)
        assert result.exit_code == 1, name
        assert result.stdout == "", name
        assert result.stderr.startswith(f"malformed trace:\n{shown}:{line}:"), (name, result.stderr)
        assert words in result.stderr, (name, result.stderr)
        verdict = json.loads(invoke("replay", path, "--json").stdout)
        assert verdict["status"] == "malformed" and verdict["line"] == line, (name, verdict)
        assert verdict["message"].startswith(f"{shown}:{line}:"), name


def test_malformed_unknown_card_name_in_a_draw(tmp_path: Path) -> None:
    events = make_trace(EGGSPANSION, 3, 5)
    i = next(i for i, e in enumerate(events) if "draw" in e)
    path = write_trace(tmp_path / "m.jsonl", _mutate(events, i, outcome="Dragon"))
    verdict = json.loads(invoke("replay", path, "--json").stdout)
    assert verdict["status"] == "malformed" and verdict["line"] == i + 1
    assert "unknown component 'Dragon'" in verdict["message"]


def test_malformed_unknown_first_player(tmp_path: Path) -> None:
    """A first-player draw naming a player the game does not have: like an action by 'P7', a
    name that means nothing in this game makes the trace malformed (not a rules violation)."""
    events = make_trace(CHICKEN, 3, 5)
    assert "first_player" in events[1]
    path = write_trace(tmp_path / "m.jsonl", _mutate(events, 1, outcome="P7"))
    verdict = json.loads(invoke("replay", path, "--json").stdout)
    assert verdict["status"] == "malformed", verdict
    assert verdict["line"] == 2


def test_malformed_unknown_card_name_in_a_shuffle(tmp_path: Path) -> None:
    """A shuffle's outcome names cards: a name the game does not have makes the trace
    malformed, as an unknown name in a draw or a roll does (today: a violation)."""
    from tests.trace.test_player_views import PEEK

    rules = tmp_path / "peek.rules"
    rules.write_text(PEEK, encoding="utf-8")
    out = tmp_path / "t.jsonl"
    assert invoke("run", rules, "-s", 2, "--trace", out, "-q").exit_code == 0
    events = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert "shuffle" in events[1]
    bad = _mutate(events, 1, outcome=["Dragon"] + events[1]["outcome"][1:])
    verdict = json.loads(invoke("replay", write_trace(tmp_path / "m.jsonl", bad), "--json").stdout)
    assert verdict["status"] == "malformed", verdict
    assert verdict["line"] == 2 and "Dragon" in verdict["message"]


def test_replay_json_when_the_header_names_an_unknown_option(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    """`replay --json` always prints one JSON verdict: a header whose options do not load the
    game (replay_file calls it malformed: "the game file does not load") must not turn into
    a compiler-style error on stderr with nothing on stdout."""
    bad = _mutate(seeded, 0, options={"random_frist_player": True})
    path = _variant(tmp_path, bad)
    assert replay_file(path).status == "malformed"
    result = invoke("replay", path, "--json")
    no_traceback(result)
    assert result.exit_code == 1
    verdict = json.loads(result.stdout or "null")
    assert verdict is not None and verdict["status"] == "malformed", (result.stdout, result.stderr)
    assert "random_frist_player" in verdict["message"]


def test_empty_and_missing_trace_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("// only a comment\n\n", encoding="utf-8")
    result = invoke("replay", empty)
    assert result.exit_code == 1
    assert f"{empty.as_posix()} is empty: a trace starts with a header line" in result.stderr
    result = invoke("replay", tmp_path / "nope.jsonl")
    no_traceback(result)
    assert result.exit_code == 1
    assert "no such trace file" in result.stderr


def test_comments_blank_lines_and_comment_events_are_ignored(tmp_path: Path, seeded: list[dict[str, Any]]) -> None:
    lines = trace_text(seeded).splitlines()
    text = "// recorded by hand\n" + lines[0] + "\n\n" + '{"type": "comment", "text": "hi"}\n'
    text += "\n".join(lines[1:]) + "\n// the end\n"
    path = tmp_path / "c.jsonl"
    path.write_text(text, encoding="utf-8")
    verdict, _ = replay_events(path)
    assert verdict.status == "compliant"


def test_a_trace_saved_with_a_bom_and_crlf_replays_like_the_plain_one(tmp_path: Path,
                                                                      seeded: list[dict[str, Any]]) -> None:
    """An editor that saves with a BOM and CRLF line ends does not change the verdict (found by fuzzing)."""
    path = tmp_path / "bom.jsonl"
    path.write_bytes(("\ufeff" + trace_text(seeded).replace("\n", "\r\n")).encode("utf-8"))
    verdict, _ = replay_events(path)
    assert verdict.status == "compliant"
    broken = [*seeded[:-2], {**seeded[-2], "outcome": "no such outcome"}, seeded[-1]]
    path.write_bytes(("\ufeff" + trace_text(broken)).encode("utf-8"))
    verdict, _ = replay_events(path)
    assert verdict.status == "malformed" and verdict.line == len(broken) - 1


def test_rules_that_fail_as_play_starts_are_named_at_their_own_place(tmp_path: Path,
                                                                      seeded: list[dict[str, Any]]) -> None:
    """A run-time error of the rules while setting up was reported at the trace's header line only."""
    broken = tmp_path / "broken.rules"
    text = (ROOT / CHICKEN).read_text(encoding="utf-8")
    broken.write_text(text.replace("counter score per player = 0", "counter score per player = 1" + "0" * 30),
                      encoding="utf-8")
    verdict, _ = replay_events(write_trace(tmp_path / "t.jsonl", seeded), load_game(broken))
    assert verdict.status == "malformed" and verdict.line == 1
    assert "the rules fail at trace line 1" in verdict.message
    line = text.split("\n").index(next(x for x in text.split("\n") if x.startswith("counter score per player")))
    assert f"broken.rules:{line + 1}:1: error: a number grew beyond" in verdict.message, verdict.message


def test_matching_digest_checkpoints_are_accepted(tmp_path: Path) -> None:
    events = make_trace(CHICKEN, 2, 6)
    engine = engine_for(CHICKEN)
    st = engine.new_state(2)
    out = [events[0]]
    for e in events[1:-1]:
        engine.apply(st, e["outcome"] if e["type"] == "chance" else e["action"])
        out += [e, {"type": "digest", "digest": st.digest()}]
    out.append(events[-1])
    verdict, _ = replay_events(write_trace(tmp_path / "d.jsonl", out))
    assert verdict.status == "compliant", verdict.message


# ------------------------------------------------------------------ hand-written traces (tests/traces/)

HAND_WRITTEN = sorted(p.name for p in TRACES.glob("*.jsonl"))
EXPECTED = {
    "chicken-reroll-twice.jsonl": ("violation", 1),
    "chicken-reroll-empty-middle.jsonl": ("violation", 1),
    "chicken-white-double-chicken.jsonl": ("violation", 1),
    "chicken-white-kitten.jsonl": ("malformed", 1),
    "chicken-wrong-player.jsonl": ("violation", 1),
    "chicken-roll-instead-of-choice.jsonl": ("violation", 1),
    "chicken-choice-instead-of-roll.jsonl": ("violation", 1),
    "chicken-stops-mid-turn.jsonl": ("incomplete", 1),
    "chicken-handwritten-win.jsonl": ("compliant", 0),
}


def test_every_hand_written_trace_is_listed() -> None:
    assert HAND_WRITTEN == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hand_written_trace(name: str, snapshot) -> None:
    path = f"tests/traces/{name}"
    first = (TRACES / name).read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("// "), "each hand-written trace starts with a comment saying what is wrong"
    status, code = EXPECTED[name]
    result = invoke("replay", path)
    no_traceback(result)
    assert result.exit_code == code
    verdict = json.loads(invoke("replay", path, "--json").stdout)
    assert verdict["status"] == status
    assert f"exit {result.exit_code}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}" == snapshot


def test_hand_written_trace_has_no_steps_and_no_digests() -> None:
    for line in (TRACES / "chicken-handwritten-win.jsonl").read_text(encoding="utf-8").splitlines():
        if line.startswith("//"):
            continue
        event = json.loads(line)
        assert "step" not in event and "digest" not in event and "seed" not in event


def test_hand_written_incomplete_trace_is_accepted_with_allow_incomplete() -> None:
    result = invoke("replay", "tests/traces/chicken-stops-mid-turn.jsonl", "--allow-incomplete")
    assert result.exit_code == 0
    assert result.stderr.startswith("incomplete:")
