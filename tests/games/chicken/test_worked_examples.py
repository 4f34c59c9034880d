"""The worked examples in examples/: positions and hand-written traces from the rulebook.

Every ``examples/*.jsonl`` is replayed (``rulelang.trace.replay.replay_file``) and must
give its expected verdict and outcome: the final standings for a compliant trace, the
event, step and reason for a deliberately illegal one. Checkpoints replay a trace only
up to one of its ``//`` comment lines and look at the state reached there: whose
decision is pending, which dice are where, the scores. Every ``examples/*.position.json``
must load into its game and play to the end with random agents.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from example_support import ExampleTable, game_engine, marker_line, replay_example, rulebook_text

from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.play import play
from rulelang.trace.replay import Verdict, read_trace, replay_file

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
TRACES = sorted(p.name for p in EXAMPLES.glob("*.jsonl"))
POSITIONS = sorted(p.name for p in EXAMPLES.glob("*.position.json"))

WHITE = ["White#1", "White#2", "White#3", "White#4"]
YELLOW = ["Yellow#1", "Yellow#2", "Yellow#3", "Yellow#4"]
ORANGE = ["Orange#1", "Orange#2", "Orange#3", "Orange#4"]
START = ["Go For It!", "Chicken Out!"]
AFTER_ROLL = ["Reroll", "Count Your Chickens"]
HATCH_YELLOW = "hatch Yellow die from the Coop"
HATCH_ORANGE = "hatch Orange die from the Coop"
HATCH_BLUE = "hatch Blue the Dog from the Coop"
HATCH_HEN = "hatch Mother Hen from the Coop"
HATCH_BAG = "hatch a random die from the Seed Bag"


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


# ---------------------------------------------------------------------- helpers
def _header(name: str) -> dict[str, Any]:
    return read_trace(EXAMPLES / name).header


def _position(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


class Seen(ExampleTable):
    """The state a replay reached (``st``) and its verdict, with readable accessors."""

    def __init__(self, engine: Engine, state: State, verdict: Verdict) -> None:
        super().__init__(engine, state)
        self.verdict = verdict

    def zone(self, name: str) -> list[str]:
        """Labels in a zone: ``"coop"``, ``"held of P2"``, ..."""
        return self.labels(name)

    def kinds(self, name: str) -> list[str]:
        """Kinds in a zone, sorted."""
        program = self.engine.program
        return sorted(self.engine.model.kinds[program.kind_of[c]].name for c in self.ids(name))

    def face(self, label: str) -> str | None:
        """The face a die shows (None: not rolled since it was hatched or returned)."""
        f = self.st.faces[self.engine.program.component_labels.index(label)]
        return None if f < 0 else self.engine.model.faces[f].name

    def scores(self) -> dict[str, int]:
        counter = next(c for c in self.engine.model.counters if c.name == "score")
        return {f"P{p + 1}": v for p, v in enumerate(self.st.counters[counter.index])}

    def next_roll(self) -> str | None:
        d = self.engine.pending(self.st)
        return None if d is None or d.kind != "chance" else d.event.get("roll")


def replay_to(name: str, marker: str | None = None) -> Seen:
    """Replay ``examples/NAME`` up to the comment containing ``marker`` (None: all of it)."""
    return Seen(*replay_example(EXAMPLES / name, marker))


def at(name: str, marker: str) -> Seen:
    """The state at a checkpoint: the trace is complete up to there, and the game goes on."""
    seen = replay_to(name, marker)
    assert seen.verdict.status == "incomplete", seen.verdict.message
    return seen


def _violation_line(name: str) -> int:
    """The event line right after the ``// VIOLATION`` comment."""
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    start = marker_line(EXAMPLES / name, "VIOLATION")
    for number in range(start + 1, len(lines) + 1):
        if lines[number - 1].strip() and not lines[number - 1].lstrip().startswith("//"):
            return number
    raise AssertionError(f"{name}: no event after the VIOLATION comment")


def _normalize(text: str) -> str:
    return " ".join(text.replace("•", " ").split())


# ---------------------------------------------------------------------- expected verdicts
@dataclass
class Compliant:
    """A trace that keeps the rules to the end: the winners and everyone's final score."""

    winners: list[str]
    scores: dict[str, int]


@dataclass
class Violation:
    """A deliberately illegal trace: the step it fails at, who (for an action), and why."""

    step: int
    reason: str
    player: str | None = None
    legal: list[str] | None = None


EXPECTED: dict[str, Compliant | Violation] = {
    # Chicken!
    "bust.jsonl": Compliant(["P2"], {"P1": 20, "P2": 25}),
    "bust-on-reroll.jsonl": Compliant(["P2"], {"P1": 23, "P2": 25}),
    "hatch-yellow-first.jsonl": Compliant(["P1"], {"P1": 26, "P2": 15}),
    "orange-too-soon.jsonl": Violation(14, "the rules call for chance: roll Yellow#4; the trace has roll Orange#4"),
    "empty-coop.jsonl": Compliant(["P1"], {"P1": 26, "P2": 10}),
    "one-reroll.jsonl": Compliant(["P2"], {"P1": 13, "P2": 25}),
    "second-reroll.jsonl": Violation(10, "it is P2's decision, not P1's", player="P1", legal=START),
    "set-aside-not-rerolled.jsonl": Violation(7, "the rules call for chance: roll White#2; the trace has roll White#1"),
    "chicken-out-on-start.jsonl": Compliant(["P2"], {"P1": 1, "P2": 26}),
    "chicken-out.jsonl": Compliant(["P2"], {"P1": 24, "P2": 25}),
    "double-chicken.jsonl": Compliant(["P1"], {"P1": 25, "P2": 20}),
    "near-the-end.jsonl": Compliant(["P1"], {"P1": 26, "P2": 24, "P3": 23}),
    "pass-the-dice.jsonl": Compliant(["P2"], {"P1": 6, "P2": 25, "P3": 7}),
    # Chicken! with the Eggspansion!
    "bark.jsonl": Compliant(["P1"], {"P1": 25, "P2": 20}),
    "bark-four-foxes.jsonl": Compliant(["P2"], {"P1": 24, "P2": 25}),
    "bark-lasts-the-turn.jsonl": Compliant(["P1"], {"P1": 25, "P2": 21}),
    "coop-refill-after-bust.jsonl": Compliant(["P2"], {"P1": 20, "P2": 25}),
    "eggspansion-chicken-out.jsonl": Compliant(["P2"], {"P1": 13, "P2": 25}),
    "happy-dog.jsonl": Compliant(["P1"], {"P1": 25, "P2": 18}),
    "chick.jsonl": Compliant(["P1"], {"P1": 26, "P2": 20}),
    "mother-hen-double-chicken.jsonl": Compliant(["P1"], {"P1": 25, "P2": 17}),
    "eggspansion-hatching.jsonl": Compliant(["P2"], {"P1": 16, "P2": 25}),
    "hatch-missing-die.jsonl": Violation(7, "'hatch Mother Hen from the Coop' is not one of the choices here",
                                         player="P1", legal=[HATCH_YELLOW, HATCH_ORANGE, HATCH_BLUE, HATCH_BAG]),
    "nothing-to-hatch.jsonl": Compliant(["P1"], {"P1": 26, "P2": 3}),
}


def test_every_example_trace_has_an_expectation() -> None:
    assert TRACES, "examples/ holds no traces"
    assert sorted(EXPECTED) == TRACES


@pytest.mark.parametrize("name", TRACES)
def test_trace_replays_with_its_expected_verdict(name: str) -> None:
    expected = EXPECTED[name]
    verdict = replay_file(EXAMPLES / name)
    assert verdict.warnings == []
    if isinstance(expected, Compliant):
        assert verdict.status == "compliant", verdict.message
        result = verdict.result or {}
        assert result["winners"] == expected.winners
        scores = {row["player"]: row["keys"][0] for row in result["standings"]}
        assert scores == expected.scores
        ranked = sorted(scores, key=lambda p: (-scores[p], p))
        assert [row["player"] for row in result["standings"]] == ranked
        assert all(expected.scores[w] >= 25 for w in expected.winners)
        return
    assert verdict.status == "violation", verdict.message
    assert verdict.line == _violation_line(name)
    assert verdict.step == expected.step
    assert verdict.reason == expected.reason
    assert verdict.player == expected.player
    if expected.legal is not None:
        assert verdict.legal == expected.legal


@pytest.mark.parametrize("name", TRACES)
def test_trace_starts_from_its_position_file_and_quotes_the_rulebook(name: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert re.fullmatch(r'// ".+"', first), f"{name} must open with a // comment quoting the rulebook"
    header = _header(name)
    assert header["format"] == "rulelang-trace/1"
    assert header["file"] in ("games/chicken.rules", "games/chicken-eggspansion.rules")
    position = _position(Path(header["from"]).name)
    assert header["from"] == f"examples/{Path(header['from']).name}"
    assert header["players"] == position["players"]
    assert header["position"] == {k: v for k, v in position.items() if k != "players"}
    assert not any("step" in e or "digest" in e for _, e in read_trace(EXAMPLES / name).events), "hand-written"


def _book() -> str:
    return _normalize(rulebook_text("chicken.txt"))


@pytest.mark.parametrize("name", POSITIONS + TRACES)
def test_quotes_are_verbatim(name: str) -> None:
    """Position comments and the first comment of each trace quote the rulebook word for word."""
    book = _book()
    if name.endswith(".position.json"):
        quote = _position(name)["comment"]
    else:
        quote = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()[0][4:-1]
    for fragment in quote.split("[...]"):
        assert _normalize(fragment) in book, f"{name}: not in the rulebook: {fragment.strip()!r}"


def test_readme_lists_every_example() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for name in TRACES:
        assert f"rulelang replay examples/{name}" in readme, name
    for name in POSITIONS:
        assert f"--from examples/{name}" in readme, name


# ---------------------------------------------------------------------- positions
def _game_of_positions() -> dict[str, str]:
    games: dict[str, str] = {}
    for name in TRACES:
        header = _header(name)
        games.setdefault(Path(header["from"]).name, header["file"])
        assert games[Path(header["from"]).name] == header["file"]
    return games


def test_every_position_is_used_by_a_trace() -> None:
    assert POSITIONS and sorted(_game_of_positions()) == POSITIONS


@pytest.mark.parametrize("name", POSITIONS)
def test_position_loads_and_plays_to_the_end(name: str) -> None:
    game = _game_of_positions()[name]
    position = _position(name)
    engine = game_engine(game)
    players = position["players"]
    for seed in (1, 2, 3, 4, 5):
        st = engine.new_state(players, position=position, setup_seed=seed)
        seen = Seen(engine, st, Verdict("incomplete", ""))
        # the start of the current player's turn, laid out exactly as written
        assert seen.pending() == (position["current"], START)
        assert seen.scores() == {f"P{p + 1}": position["counters"]["score"].get(f"P{p + 1}", 0)
                                 for p in range(players)}
        for zone, labels in position["zones"].items():
            assert seen.zone(zone) == labels, (name, zone)
        assert all(seen.face(label) is None for label in seen.zone("coop"))
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        assert st.over and st.result is not None
        scores = seen.scores()
        assert st.result["winners"] == [p for p in scores if scores[p] >= 25]
        assert len(st.result["winners"]) == 1


# ---------------------------------------------------------------------- checkpoints
def test_bust_ends_the_turn_at_once_and_passes_only_the_white_dice() -> None:
    s = at("bust.jsonl", "3 Foxes: P1 busts at once")
    assert s.pending() == ("P2", START)  # no hatching, no reroll: P2's turn
    assert s.zone("held of P2") == WHITE
    assert s.zone("coop") == YELLOW + ORANGE
    assert s.zone("held of P1") == [] and s.zone("middle") == s.zone("right") == s.zone("left") == []
    assert s.scores() == {"P1": 20, "P2": 24}


def test_bust_on_the_reroll_scores_nothing_for_the_turn() -> None:
    s = at("bust-on-reroll.jsonl", "P1 pushes their luck")
    assert s.pending() == ("P1", AFTER_ROLL)
    assert s.zone("right") == ["White#1", "White#2"] and s.zone("middle") == ["White#4", "Yellow#4"]
    s = at("bust-on-reroll.jsonl", "3 Foxes after the reroll")
    assert s.pending() == ("P2", START)
    assert s.scores() == {"P1": 23, "P2": 24}
    assert s.zone("held of P2") == WHITE and s.zone("coop") == YELLOW + ORANGE


def test_yellow_dice_hatch_before_orange_ones() -> None:
    s = at("hatch-yellow-first.jsonl", "The first Egg hatches the last Yellow Die")
    assert s.pending() == ("P1", AFTER_ROLL)
    assert s.zone("coop") == ["Orange#1", "Orange#2"]
    assert s.zone("middle") == ["White#1", "White#2", "White#4", "Yellow#2", "Yellow#4", "Orange#3", "Orange#4"]
    assert [s.face(d) for d in ("Yellow#4", "Orange#3", "Orange#4")] == [None, None, None]


def test_an_egg_with_an_empty_coop_hatches_nothing() -> None:
    s = at("empty-coop.jsonl", "2 Eggs, but nothing to hatch")
    assert s.pending() == ("P1", AFTER_ROLL)
    assert s.zone("coop") == []
    assert s.zone("middle") == ["White#1", "White#4", "Yellow#1", "Orange#1", "Orange#2"]
    assert s.face("White#1") == s.face("Yellow#1") == "Egg"


def test_one_reroll_of_everything_in_the_middle() -> None:
    s = at("one-reroll.jsonl", "The Chicken goes right")
    assert s.pending() == ("P1", AFTER_ROLL)
    assert s.zone("right") == ["White#1"] and s.zone("left") == ["White#4"]
    assert s.zone("middle") == ["White#2", "White#3", "Yellow#4"] and s.face("Yellow#4") is None
    s = at("one-reroll.jsonl", "Exactly the middle is rerolled")
    assert s.next_roll() == "White#2"
    s = at("one-reroll.jsonl", "The new Egg hatches Yellow#3")
    assert s.pending() == ("P2", START)  # no second reroll: P1 counted at once
    assert s.scores() == {"P1": 13, "P2": 24}
    assert s.zone("held of P2") == WHITE + ["Yellow#3", "Yellow#4"]
    assert s.face("Yellow#3") is None  # hatched after the reroll, never rolled


def test_chicken_out_on_the_starting_space_costs_nothing() -> None:
    s = at("chicken-out-on-start.jsonl", "Yellow#1 and Orange#1 go back to the Coop")
    assert s.scores() == {"P1": 0, "P2": 24}
    assert s.zone("coop") == YELLOW + ORANGE
    assert s.zone("middle") == WHITE and s.next_roll() == "White#1"


def test_chicken_out_costs_one_point_and_returns_the_passed_dice() -> None:
    s = at("chicken-out.jsonl", "The 3 dice go back to the Coop")
    assert s.scores() == {"P1": 23, "P2": 22}
    assert s.zone("coop") == YELLOW + ORANGE
    assert s.zone("middle") == WHITE and s.next_roll() == "White#1"
    s = at("chicken-out.jsonl", "without the lost point")
    assert s.scores() == {"P1": 24, "P2": 22} and s.pending() == ("P2", START)


def test_a_double_chicken_is_set_aside_and_worth_two() -> None:
    s = at("double-chicken.jsonl", "The Double Chicken alone scores 2")
    assert s.pending() == ("P1", AFTER_ROLL)
    assert s.zone("right") == ["Orange#1"] and s.face("Orange#1") == "DoubleChicken"
    assert replay_to("double-chicken.jsonl").verdict.steps == 7


def test_the_game_ends_immediately_at_25() -> None:
    s = replay_to("near-the-end.jsonl")
    assert s.st.over and s.st.turn == 1  # P2 and P3 never played
    assert s.zone("held of P2") == s.zone("held of P3") == []


def test_counting_passes_every_die_to_the_next_player() -> None:
    s = at("pass-the-dice.jsonl", "P1 moves forward 1 space")
    assert s.pending() == ("P2", START)
    assert s.scores() == {"P1": 6, "P2": 24, "P3": 7}
    assert s.zone("held of P2") == WHITE + ["Yellow#3", "Yellow#4"]
    assert s.face("Yellow#3") is None and s.face("Yellow#4") is None


def test_bark_cancels_one_of_three_foxes() -> None:
    s = at("bark.jsonl", "so P1 does not bust")
    assert s.pending() == ("P1", ["Count Your Chickens"])  # not bust; nothing left to reroll
    assert s.zone("left") == ["White#1", "White#2", "White#3", "Blue"] and s.face("Blue") == "Bark"
    assert s.zone("right") == ["White#4"]


def test_bark_does_not_save_four_foxes() -> None:
    s = at("bark-four-foxes.jsonl", "4 Foxes and 1 Bark")
    assert s.pending() == ("P2", START)
    assert s.zone("held of P2") == WHITE
    assert s.zone("bag") == ["Yellow#3", "Yellow#4", "Orange#1", "Orange#4", "Blue"]
    assert s.zone("coop") == ["Yellow#1", "Yellow#2", "Orange#2", "Orange#3", "MotherHen"]


def test_bark_cancels_a_fox_rolled_after_it() -> None:
    s = replay_to("bark-lasts-the-turn.jsonl")
    assert s.zone("left") == ["White#1", "White#2", "White#3", "Blue"]
    assert [s.face(d) for d in ("White#1", "White#2", "White#3", "Blue")] == ["Fox", "Fox", "Fox", "Bark"]


def test_the_coop_is_refilled_to_five_after_an_eggspansion_bust() -> None:
    s = at("coop-refill-after-bust.jsonl", "2 Eggs and a Chick")
    assert s.pending() == ("P1", [HATCH_ORANGE, HATCH_BLUE, HATCH_BAG])
    s = at("coop-refill-after-bust.jsonl", "Only Blue is left in the Coop")
    assert s.zone("coop") == ["Blue"]
    assert s.zone("middle") == ["White#2", "Yellow#2", "Yellow#3", "Orange#1", "Orange#3", "MotherHen"]
    s = at("coop-refill-after-bust.jsonl", "3 Foxes: P1 busts")
    assert s.pending() == ("chance", ["Yellow", "Orange", "MotherHen"])  # refilling from the Seed Bag
    assert s.zone("coop") == ["Blue"] and len(s.zone("bag")) == 9
    s = at("coop-refill-after-bust.jsonl", "The Coop is full again")
    assert s.pending() == ("P2", START)
    assert s.kinds("coop") == ["Blue", "MotherHen", "Orange", "Orange", "Yellow"]
    assert s.kinds("bag") == ["Orange", "Orange", "Yellow", "Yellow", "Yellow"]
    assert s.zone("held of P2") == WHITE and s.scores() == {"P1": 20, "P2": 24}


def test_chickening_out_with_the_eggspansion_refills_the_coop() -> None:
    s = at("eggspansion-chicken-out.jsonl", "P1 drops to 11")
    assert s.scores() == {"P1": 11, "P2": 24}
    assert s.pending() == ("chance", ["Yellow", "Orange", "Blue"])
    assert s.zone("coop") == ["Yellow#4", "Orange#4", "MotherHen"]
    s = at("eggspansion-chicken-out.jsonl", "The Coop holds 5 dice again")
    assert s.kinds("coop") == ["Blue", "MotherHen", "Orange", "Orange", "Yellow"]
    assert s.zone("middle") == WHITE and s.next_roll() == "White#1"


def test_happy_dog_stays_in_the_middle_and_is_rerolled() -> None:
    s = at("happy-dog.jsonl", "The Happy Dog stays in the middle")
    assert "Blue" in s.zone("middle") and s.face("Blue") == "HappyDog"
    assert s.zone("right") == ["White#1"]
    s = at("happy-dog.jsonl", "Blue is rerolled")
    assert s.zone("middle") == ["White#2", "White#4", "Yellow#2", "Blue"]


def test_chick_hatches_a_die_scores_and_is_rerolled() -> None:
    s = at("chick.jsonl", "The Chick hatches 1 die")
    assert s.pending() == ("P1", [HATCH_YELLOW, HATCH_ORANGE, HATCH_BLUE, HATCH_BAG])
    assert s.zone("middle") == ["White#2", "White#3", "MotherHen"] and s.face("MotherHen") == "Chick"
    s = at("chick.jsonl", "The Chick is rerolled")
    assert s.zone("middle") == ["White#2", "White#3", "Blue", "MotherHen"] and s.face("Blue") is None
    s = replay_to("chick.jsonl")
    assert s.zone("middle") == ["White#3", "Yellow#2", "Blue", "MotherHen"]
    assert s.face("Yellow#2") is None and s.face("MotherHen") == "Chick"


def test_mother_hen_double_chicken_is_set_aside_like_an_orange_one() -> None:
    s = at("mother-hen-double-chicken.jsonl", "Set aside to the right")
    assert s.zone("right") == ["MotherHen"] and s.face("MotherHen") == "DoubleChicken"


def test_eggspansion_hatching_takes_from_the_coop_or_the_seed_bag() -> None:
    s = at("eggspansion-hatching.jsonl", "2 Eggs.")
    assert s.pending() == ("P1", [HATCH_YELLOW, HATCH_ORANGE, HATCH_BLUE, HATCH_HEN, HATCH_BAG])
    s = at("eggspansion-hatching.jsonl", "Both new dice are blank")
    assert s.zone("middle") == ["White#1", "White#2", "White#4", "Orange#3", "MotherHen"]
    assert s.face("Orange#3") is None and s.face("MotherHen") is None
    assert s.zone("coop") == ["Yellow#1", "Orange#1", "Orange#2", "Blue"]  # not refilled


def test_nothing_to_hatch_when_coop_and_bag_are_empty() -> None:
    s = at("nothing-to-hatch.jsonl", "no hatching choice is offered")
    assert s.pending() == ("P1", AFTER_ROLL)
    assert s.zone("coop") == s.zone("bag") == []
    assert s.zone("middle") == ["White#1", "Yellow#1", "Yellow#3", "Orange#1", "Orange#4", "MotherHen"]

