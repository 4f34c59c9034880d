"""The default play-by-play (`rulelang run` without -v) shows what the table sees (issue 26, item 6).

Random draws are told when the reader sees a zone they go from or to (zone visibility in the
model: a hidden draw is never told to the table, and `--view P` tells P the draws P sees), the
answers of an `ask` are told once all are in (they are revealed together), and a choice with one
legal option is told when something the reader sees follows from it (gap 7). `-v` still tells
every move of a component and every forced choice.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.testing import Script

pytestmark = pytest.mark.usefixtures("at_root")

GOOFSPIEL = "examples/goofspiel/goofspiel.rules"
LEDUC = "examples/leduc-poker/leduc-poker.rules"


def run(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["run", *args])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_goofspiel_tells_each_point_card_turned_up_and_both_bids_once(seed: int) -> None:
    out = run(GOOFSPIEL, "--seed", str(seed))
    rounds = [i for i, line in enumerate(out) if re.fullmatch(r"Round \d", line)]
    assert len(rounds) == 4
    for start, end in zip(rounds, rounds[1:] + [len(out)]):
        block = out[start:end]
        drawn = [m for line in block if (m := re.fullmatch(
            r"  the point card up for bidding: point card (\d) \(at random from the point cards\)", line))]
        assert len(drawn) == 1, block
        assert f"  Up for bidding: point card {drawn[0][1]}." in block  # the rules' own line agrees
        answered = r"  \(answered at once\) P1: bid card (\d), P2: bid card (\d)"
        bids = [m for line in block if (m := re.fullmatch(answered, line))]
        assert len(bids) == 1, block
        assert not [line for line in block if re.fullmatch(r"  P1 bids \d+, P2 bids \d+\.", line)]  # told once


def leduc_to_the_public_card(view: str | None) -> Script:
    s = Script(LEDUC, view=view)
    s.draw("King", "Jack")  # P1's private card, then P2's
    return s


def test_a_hidden_draw_is_never_told_to_the_table() -> None:
    s = leduc_to_the_public_card(None)
    assert not [line for line in s.told() if "private card" in line]
    s.play("Call", "Call").draw("Queen")
    assert "  the public card: Queen (at random from the deck)" in s.told()


@pytest.mark.parametrize(("view", "mine", "theirs"), [("P1", "King", "P2"), ("P2", "Jack", "P1")])
def test_a_players_view_tells_the_draws_into_their_own_hand_only(view: str, mine: str, theirs: str) -> None:
    s = leduc_to_the_public_card(view)
    told = s.told()
    assert f"  {view}'s private card: {mine} (at random from the deck)" in told
    assert not [line for line in told if f"{theirs}'s private card" in line]
    s.play("Call", "Call").draw("Queen")
    assert "  the public card: Queen (at random from the deck)" in s.told()


def test_leduc_run_never_names_a_private_card_before_the_showdown() -> None:
    for seed in range(1, 8):
        for line in run(LEDUC, "--seed", str(seed)):
            assert "private card:" not in line or "everyone sees" in line, line


def test_draws_alike_are_told_on_one_line() -> None:
    out = run("games/chicken-eggspansion.rules", "--seed", "5")
    assert out[1] == "  the Coop: Orange#1, Orange#2, MotherHen, Yellow#1, Yellow#2 (at random from the Seed Bag)"


FORCED = """\
game "Forced"
players 2 to 2

3 Coin tokens "coin"

zone hand "hand": per player, owner
zone table "the table"
zone pile "the pile": hidden

setup:
  move all Coin from box to hand of P1

turn:
  choose:
    "pass":
      pass
  choose:
    "play a coin" if any(Coin in hand of current):
      move 1 Coin from hand of current to table
    "nothing to play" if not any(Coin in hand of current):
      pass
  choose:
    "hide a coin" if any(Coin in hand of current):
      move 1 Coin from hand of current to pile
    "nothing to hide" if not any(Coin in hand of current):
      pass
  if not any(Coin in hand of P1):
    end game

rank p by highest count(all in hand of p)
"""


@pytest.fixture()
def forced(tmp_path: Path) -> str:
    path = tmp_path / "forced.rules"
    path.write_text(textwrap.dedent(FORCED), encoding="utf-8")
    return str(path)


def test_a_forced_choice_is_told_when_the_table_sees_what_it_does(forced: str) -> None:
    out = run(forced, "--seed", "1")
    turn1 = out[out.index("Turn 1: P1") + 1:out.index("Turn 2: P2")]
    assert turn1 == ["  P1 chooses: play a coin"]  # a coin on the table; passing and hiding show nothing
    assert out[out.index("Turn 2: P2") + 1] == "Turn 3: P1"


def test_a_forced_choice_is_told_to_the_player_who_sees_what_it_does(forced: str) -> None:
    out = run(forced, "--seed", "1", "--view", "P1")
    assert out[out.index("Turn 1: P1") + 1:out.index("Turn 1: P1") + 3] == [
        "  P1 chooses: play a coin", "  P1 chooses: hide a coin"]  # P1 sees the coin leave their hand


def test_verbose_tells_every_forced_choice(forced: str) -> None:
    out = run(forced, "--seed", "1", "-v")
    turn2 = out[out.index("Turn 2: P2") + 1:out.index("Turn 3: P1")]
    assert turn2 == ["  P2 chooses: pass", "  P2 chooses: nothing to play", "  P2 chooses: nothing to hide"]
