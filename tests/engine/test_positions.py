"""Positions (`rulelang run GAME --from POSITION.json`): validation messages, layout, replay.

A position names zones and what they hold, counters, faces, whose turn it is. Every
mistake in one is reported with its message (exit 1, no traceback); a valid one is laid
out on top of the game's normal setup (components not named stay where setup put them, a
named zone holds exactly its list), play goes on from it, and the trace, which records the
position in its header, replays as compliant.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.engine.engine import Engine
from rulelang.engine.position import PositionError
from tests.trace.test_replay import CHICKEN, EGGSPANSION, engine_for

pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def invoke(*args: Any):
    return CliRunner().invoke(main, [str(a) for a in args])


def write_position(tmp_path: Path, position: Any, name: str = "pos.json") -> Path:
    path = tmp_path / name
    path.write_text(position if isinstance(position, str) else json.dumps(position), encoding="utf-8")
    return path


def where_is(engine: Engine, st: Any) -> dict[str, str]:
    """Component label -> "zone" or "zone of Pn"."""
    labels = engine.program.component_labels
    out = {}
    for z in engine.model.zones:
        content = st.zones[z.index]
        if z.per_player:
            for p, lst in enumerate(content):
                out.update({labels[c]: f"{z.name} of P{p + 1}" for c in lst})
        else:
            out.update({labels[c]: z.name for c in content})
    assert len(out) == len(labels)
    return out


def zone(engine: Engine, st: Any, name: str, player: int | None = None) -> list[str]:
    z = next(z for z in engine.model.zones if z.name == name)
    content = st.zones[z.index] if player is None else st.zones[z.index][player]
    return [engine.program.component_labels[c] for c in content]


# ------------------------------------------------------------------ validation, each with its message

ERRORS = [
    ("unknown zone", {"zones": {"cop": ["Orange"]}},
     ["position: unknown zone 'cop'", "hint: did you mean 'coop'?"]),
    ("per-player zone without 'of'", {"zones": {"held": ["White"]}},
     ["position: zone 'held' is per player", 'hint: write "held of P1"']),
    ("shared zone with 'of'", {"zones": {"coop of P1": ["Orange"]}},
     ["position: zone 'coop' is shared, not per player"]),
    ("unknown player in a zone", {"zones": {"held of P9": ["White"]}},
     ["position: unknown player 'P9'", "hint: players are P1, P2, P3"]),
    ("unknown current player", {"current": "P4"},
     ["position: unknown player 'P4'", "hint: players are P1, P2, P3"]),
    ("unknown player in a counter", {"counters": {"score": {"P7": 3}}},
     ["position: unknown player 'P7'"]),
    ("unknown component", {"zones": {"coop": ["Purple"]}},
     ["position: unknown component 'Purple' in 'coop'"]),
    ("unknown label", {"zones": {"coop": ["Yellow#5"]}},
     ["position: unknown component 'Yellow#5' in 'coop'", "hint: did you mean 'Yellow#4'?"]),
    ("not a component", {"zones": {"coop": [3]}},
     ["position: 3 in 'coop' is not a component"]),
    ("a zone that lists nothing", {"zones": {"coop": "Orange"}},
     ["position: zone 'coop' must list its components"]),
    ("more copies than exist", {"zones": {"coop": ["5 Orange"]}},
     ["position: more Orange than the game has (4)", "hint: the game has 4 Orange"]),
    ("a count of thousands of digits", {"zones": {"coop": ["9" * 5000 + " Orange"]}},  # was a traceback (fuzz)
     ["position: more Orange than the game has (4)"]),
    ("more copies than exist, over two zones", {"zones": {"coop": ["Orange#1"], "middle": ["4 Orange"]}},
     ["position: more Orange than the game has (4)"]),
    ("a component in two zones", {"zones": {"coop": ["White#1"], "middle": ["White#1"]}},
     ["position: White#1 is in two places ('coop' and 'middle')", "hint: each component can be in one zone only"]),
    ("bad face for a die", {"faces": {"White#1": "DoubleChicken"}},
     ["position: White#1 has no face 'DoubleChicken'", "hint: its faces: Chicken, Egg, Fox, Blank"]),
    ("unknown die", {"faces": {"White#9": "Egg"}},
     ["position: unknown die 'White#9'", "hint: did you mean 'White#4'?"]),
    ("unknown counter", {"counters": {"scor": {"P1": 3}}},
     ["position: unknown counter 'scor'", "hint: did you mean 'score'?"]),
    ("text counter", {"counters": {"score": {"P1": "3"}}},
     ["position: score of P1 must be a whole number"]),
    ("fractional counter", {"counters": {"score": {"P1": 2.5}}},
     ["position: score of P1 must be a whole number"]),
    ("boolean counter", {"counters": {"score": {"P2": True}}},
     ["position: score of P2 must be a whole number"]),
    ("per-player counter given one number", {"counters": {"score": 3}},
     ["position: counter 'score' is per player: give {\"P1\": n, ...}"]),
    ("unknown key", {"curent": "P2"},
     ["position: unknown key 'curent'", "hint: did you mean 'current'?"]),
    ("turn 0", {"turn": 0},
     ["position: 'turn' is the number of the turn about to start (1 or more)"]),
    ("turn past the bound of numbers", {"turn": 10**30},
     ["position: 'turn' is the number of the turn about to start (1 or more)"]),
    ("not an object", [1],
     ["a position is a JSON object"]),
    ("a position for other players than play", {"players": 2},  # was played with 3, silently
     ["position: it is for 2 players, but 3 play", "hint: leave out --players to play the position's number"]),
    ("players as text", {"players": "3"},  # was ignored: the game's default number played
     ["position: 'players' must be a whole number, not '3'"]),
]


@pytest.mark.parametrize("position,words", [pytest.param(p, w, id=name) for name, p, w in ERRORS])
def test_position_errors(position: Any, words: list[str], tmp_path: Path) -> None:
    path = write_position(tmp_path, position)
    result = invoke("run", "--seed", 1, CHICKEN, "--from", path, "-p", 3, "-q")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert result.stderr.startswith(f"{path.as_posix()}:1:1: error: {words[0]}\n"), result.stderr
    for w in words[1:]:
        assert f"\n  {w}" in result.stderr, result.stderr


def test_position_errors_from_the_engine(tmp_path: Path) -> None:
    """The same checks, through Engine.new_state: a PositionError with the same message."""
    engine = engine_for(CHICKEN)
    for _name, position, words in ERRORS:
        if not isinstance(position, dict):
            continue
        with pytest.raises(PositionError) as info:
            engine.new_state(3, position=position)
        assert info.value.message == words[0]


def test_position_that_is_not_json(tmp_path: Path) -> None:
    path = write_position(tmp_path, '{"current": "P2",\n "zones": {"coop": ["Orange"],}}')
    result = invoke("run", "--seed", 1, CHICKEN, "--from", path, "-q")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path.as_posix()}:2:31: error: the position is not valid JSON")


def test_position_file_that_does_not_exist(tmp_path: Path) -> None:
    result = invoke("run", "--seed", 1, CHICKEN, "--from", tmp_path / "nope.json", "-q")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "no such position file" in result.stderr


def test_counted_label_is_not_called_unknown(tmp_path: Path) -> None:
    """"2 White#1" asks for two of one die: the message must not say that White#1 does not
    exist (today: "unknown component 'White#1' in 'coop'", hint "did you mean 'White#1'?")."""
    path = write_position(tmp_path, {"zones": {"coop": ["2 White#1"]}})
    result = invoke("run", "--seed", 1, CHICKEN, "--from", path, "-q")
    assert result.exit_code == 1
    assert "unknown component 'White#1'" not in result.stderr, result.stderr
    assert "White#1" in result.stderr


def test_players_out_of_range_in_a_position(tmp_path: Path) -> None:
    path = write_position(tmp_path, {"players": 9})
    result = invoke("run", "--seed", 1, CHICKEN, "--from", path, "-q")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "2 to 8 players, not 9" in result.stderr


# ------------------------------------------------------------------ the layout


def test_named_zone_holds_exactly_its_list_and_the_rest_stays(tmp_path: Path) -> None:
    engine = engine_for(CHICKEN, random_first_player="false")
    base = engine.new_state(3, position={})
    before = where_is(engine, base)
    assert set(zone(engine, base, "coop")) == {f"{k}#{i}" for k in ("Yellow", "Orange") for i in range(1, 5)}
    assert zone(engine, base, "held", 0) == ["White#1", "White#2", "White#3", "White#4"]
    st = engine.new_state(3, position={"zones": {"coop": ["2 Yellow", "Orange#3"], "held of P2": ["4 White"]},
                                       "counters": {"score": {"P1": 20, "P3": 7}}, "current": "P2", "turn": 12,
                                       "faces": {"White#2": "Egg"}})
    after = where_is(engine, st)
    assert zone(engine, st, "coop") == ["Yellow#1", "Yellow#2", "Orange#3"]
    assert zone(engine, st, "held", 1) == ["White#1", "White#2", "White#3", "White#4"]
    assert zone(engine, st, "held", 0) == []
    # what setup had put in the coop and the position does not list goes back to the box
    assert sorted(label for label, z in after.items() if z == "box") == [
        "Orange#1", "Orange#2", "Orange#4", "OrangeEgg#1", "OrangeEgg#2", "OrangeEgg#3", "OrangeEgg#4",
        "Yellow#3", "Yellow#4"]  # OrangeEgg: the dice of option orange_egg, unused
    assert all(before[label] in ("coop", "box") for label, z in after.items() if z == "box")
    scores = st.counters[next(c.index for c in engine.model.counters if c.name == "score")]
    assert scores == [20, 0, 7]
    assert st.current == 1 and st.turn == 12  # turn 12 is under way
    assert st.faces[engine.program.component_labels.index("White#2")] == next(
        i for i, f in enumerate(engine.model.faces) if f.name == "Egg")
    assert engine.pending(st).player == 1 and engine.pending(st).labels == ["Go For It!", "Chicken Out!"]


def test_components_not_named_stay_where_setup_put_them() -> None:
    engine = engine_for(EGGSPANSION)
    for seed in range(6):
        base = engine.new_state(3, position={}, setup_seed=seed)
        before = where_is(engine, base)
        st = engine.new_state(3, position={"zones": {"middle": ["Blue", "MotherHen"]}}, setup_seed=seed)
        after = where_is(engine, st)
        assert after["Blue"] == after["MotherHen"] == "middle"
        for label, place in before.items():
            if label not in ("Blue", "MotherHen"):
                assert after[label] == place, (seed, label)
        assert base.current == st.current  # the random first player of setup stays


@pytest.mark.parametrize("position", [
    {"zones": {"coop": [], "box": ["White#1"]}},
    {"zones": {"box": ["White#1"], "coop": []}},
    {"zones": {"coop": ["Yellow#1"], "box": []}},
])
def test_every_component_is_somewhere_once_when_the_box_is_named(position: dict[str, Any]) -> None:
    """Naming the box in a position must not lose components: what the position takes out
    of a named zone goes back to the box, even when the box itself is named after that
    zone. (Today apply_position extends the box with itself and then overwrites it with
    its list, so {"coop": [], "box": ["White#1"]} leaves 4 of Chicken!'s 12 dice in play.)
    Refusing to name the box would do too."""
    engine = engine_for(CHICKEN, random_first_player="false")
    try:
        st = engine.new_state(3, position=position)
    except PositionError:
        return
    placed = sorted(c for z in st.zones for c in (sum(z, []) if z and isinstance(z[0], list) else z))
    labels = engine.program.component_labels
    assert [labels[c] for c in placed] == labels


def test_an_ordered_zone_keeps_the_listed_order(tmp_path: Path) -> None:
    from rulelang import load_game
    from tests.trace.test_player_views import PEEK

    rules = tmp_path / "peek.rules"
    rules.write_text(PEEK, encoding="utf-8")
    engine = load_game(rules)
    # setup put every card in the deck or the face-down mix (pile); both are named here, so
    # the two Cows the position does not list go back to the box
    st = engine.new_state(3, position={"zones": {"deck": ["Joker#2", "Cow", "Pig#3", "Joker#1"],
                                                 "hand of P2": ["2 Pig"], "pile": []}})
    assert zone(engine, st, "deck") == ["Joker#2", "Cow#1", "Pig#3", "Joker#1"]
    assert zone(engine, st, "hand", 1) == ["Pig#1", "Pig#2"]
    assert zone(engine, st, "pile") == []
    assert sorted(where_is(engine, st)[f"Cow#{i}"] for i in (2, 3)) == ["box", "box"]


# ------------------------------------------------------------------ playing on, and replaying


@pytest.mark.parametrize("game,position", [
    (CHICKEN, {"players": 3, "current": "P2", "zones": {"coop": ["2 Yellow", "Orange"], "held of P2": ["4 White"]},
               "counters": {"score": {"P1": 20}}}),
    (CHICKEN, {"current": "P3", "zones": {"held of P3": ["White#1", "White#2", "Yellow", "Orange#2"],
                                          "coop": ["Orange#1"]},
               "counters": {"score": {"P1": 24, "P2": 24, "P3": 24}}, "turn": 40}),
    (EGGSPANSION, {"current": "P1", "zones": {"coop": ["Blue", "MotherHen", "Yellow"]},
                   "counters": {"score": {"P2": 22}}}),
])
def test_valid_position_plays_on_and_replays(game: str, position: dict[str, Any], tmp_path: Path) -> None:
    path = write_position(tmp_path, position)
    for seed in (1, 2, 3, 4):
        trace = tmp_path / f"t{seed}.jsonl"
        players = [] if "players" in position else ["-p", 3]
        result = invoke("run", game, "--from", path, "-s", seed, *players, "--trace", trace)
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"{engine_for(game).model.title}: 3 players, seed {seed}, from {path}\n")
        assert f"Turn {position.get('turn', 1)}: {position['current']}\n" in result.stdout
        lines = [json.loads(x) for x in trace.read_text(encoding="utf-8").splitlines()]
        head = lines[0]
        assert head["position"] == {k: v for k, v in position.items() if k != "players"}
        assert head["from"] == path.as_posix() and head["players"] == 3
        assert lines[1]["type"] == "action" and lines[1]["player"] == position["current"]
        verdict = invoke("replay", trace, "--json")
        assert verdict.exit_code == 0, verdict.output
        data = json.loads(verdict.stdout)
        assert data["status"] == "compliant"
        assert data["result"]["winners"] == lines[-1]["winners"]


def test_replay_of_a_position_trace_with_a_bad_position_is_malformed(tmp_path: Path) -> None:
    path = write_position(tmp_path, {"current": "P2"})
    trace = tmp_path / "t.jsonl"
    assert invoke("run", "--seed", 1, CHICKEN, "--from", path, "-p", 2, "--trace", trace, "-q").exit_code == 0
    lines = trace.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["position"]["zones"] = {"cop": ["Orange"]}
    trace.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    result = invoke("replay", trace)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"malformed trace:\n{trace.as_posix()}:1:1: error: position: unknown zone 'cop'")
