"""Rule the Roost (games/rule-the-roost.rules) against its rulebook.

Each test's docstring quotes the passage of shared/rulebooks/rule-the-roost.txt it
checks. The situations are worked examples in examples/roost/: a position
(``NAME.position.json``: every hand, the deck, the cards under each barn, the padlock)
and a hand-written trace from it (``NAME.jsonl``) that plays the passage out and then
ends the game (the deck holds just the cards still to be drawn), so that its result line
shows what the passage decides. The tests replay the traces (to the end, or up to a
``// CHECK ...`` comment to look at the table there), check their verdicts, and script a
few more decisions from the same positions.

Players are P1, P2, ... (seats 0, 1, ... in the engine); P1 plays red, P2 blue, P3 green,
P4 yellow. Every opponent answers every egg question (``throw an egg`` / ``let it be``).

The table itself names copies (``Fox#6``); a player is shown cards by kind only (``Fox``),
in her observation, in what she remembers of a farmer's look and in a ``--view``
play-by-play: copy numbers follow the shuffled deck and would tell where the other copies
lie.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from example_support import Examples, ExampleTable, game_engine, random_action, rulebook_text, seat

from rulelang.cli import main
from rulelang.engine.engine import Engine
from rulelang.narrate import reading_names
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "roost"
GAME = "games/rule-the-roost.rules"
TRACES = sorted(p.name for p in EXAMPLES.glob("*.jsonl"))
POSITIONS = sorted(p.name for p in EXAMPLES.glob("*.position.json"))
# a numbered copy of a card that is ever held or face down (the barns, public, keep their numbers)
COPY_LABEL = re.compile(r"\b(?:Red|Blue|Green|Yellow)Rooster#\d+|\b(?:Chicken|Fox|Egg|Pitchfork)#\d+")


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


# ---------------------------------------------------------------------- helpers
def engine(**options: str) -> Engine:
    return game_engine(GAME, **options)


def position(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.position.json").read_text(encoding="utf-8"))


class Table(ExampleTable):
    """A game state with readable accessors and decision helpers that check what is pending."""

    @classmethod
    def at(cls, pos: str | dict[str, Any], **options: str) -> Table:
        """A new game from a position (a name in examples/roost/ or a dict), with rules options."""
        if isinstance(pos, str):
            pos = position(pos)
        game = engine(**options)
        return cls(game, game.new_state(pos["players"], position=pos))

    # -- reading the table
    def kinds(self, name: str) -> Counter[str]:
        """How many of each kind a zone holds: ``Counter({"Chicken": 2})``."""
        program = self.engine.program
        return Counter(self.engine.model.kinds[program.kind_of[c]].name for c in self.ids(name))

    @property
    def current(self) -> str:
        return f"P{self.st.current + 1}"

    def options(self, player: str) -> list[str]:
        return self.engine.legal_actions(self.st, seat(player))

    def observe(self, player: str | None) -> dict[str, Any]:
        return self.engine.observe(self.st, None if player is None else seat(player))

    def scores(self) -> dict[str, int]:
        assert self.st.result is not None, "the game is not over"
        return {r["player"]: r["sheets"]["final_score"]["Barns ruled"] for r in self.st.result["standings"]}

    # -- deciding
    def choose(self, player: str, label: str) -> Table:
        who, labels = self.pending()
        assert not self.asked(), f"an egg question is pending: {self.asked()}"
        assert who == player, f"expected {player} to choose {label!r}; pending: {who} {labels[:6]}"
        assert label in labels, f"{label!r} is not offered to {player}; offered: {labels}"
        self.engine.apply(self.st, label)
        return self

    def answer(self, player: str, label: str) -> Table:
        assert player in self.asked(), f"{player} is not asked; asked: {self.asked()}, pending: {self.pending()}"
        self.engine.apply(self.st, label, player=seat(player))
        return self

    def eggs(self, *throwers: str) -> Table:
        """Everyone asked answers at once: ``throwers`` throw an egg, the others let it be."""
        for player in self.asked():
            self.answer(player, "throw an egg" if player in throwers else "let it be")
        assert not self.asked()
        return self


EXAMPLE = Examples(EXAMPLES, Table)
replay, finished, checkpoint = EXAMPLE.replay, EXAMPLE.finished, EXAMPLE.checkpoint


def _book() -> str:
    return rulebook_text("rule-the-roost.txt")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


# ---------------------------------------------------------------------- the examples themselves
def test_examples_exist() -> None:
    assert TRACES and POSITIONS
    assert {t.removesuffix(".jsonl") for t in TRACES} == {p.removesuffix(".position.json") for p in POSITIONS}


@pytest.mark.parametrize("name", TRACES)
def test_trace_is_compliant(name: str) -> None:
    """Every example plays to the end of the game and its result line is what the rules give."""
    table, verdict = replay(name)
    assert verdict.status == "compliant", f"{verdict.message}: {verdict.reason}"
    assert table.st.over
    assert not table.ids("placing"), "a card is still being placed when the game ends"


@pytest.mark.parametrize("name", TRACES)
def test_trace_starts_from_its_position(name: str) -> None:
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith('// "'), "the first line quotes the rulebook"
    header = json.loads(lines[1])
    stem = name.removesuffix(".jsonl")
    assert header["from"] == f"examples/roost/{stem}.position.json"
    assert header["file"] == GAME
    pos = position(stem)
    assert header["players"] == pos["players"]
    assert header["position"] == {k: v for k, v in pos.items() if k != "players"}
    assert json.loads(lines[0][3:]) == pos["comment"], "the trace quotes the same passage as its position"


def _quote_parts(quote: str) -> list[str]:
    return [part.strip() for part in quote.split("[...]") if part.strip()]


@pytest.mark.parametrize("name", POSITIONS)
def test_position_quotes_the_book_verbatim(name: str) -> None:
    book = " ".join(_book().split())
    comment = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))["comment"]
    for part in _quote_parts(comment):
        assert " ".join(part.split()) in book, f"not in the rulebook: {part!r}"


def test_docstrings_quote_the_book_verbatim() -> None:
    book = " ".join(_book().split())
    checked = 0
    for name, fn in sorted(globals().items()):
        if not name.startswith("test_") or not fn.__doc__:
            continue
        for quote in re.findall(r'"([^"]+)"', " ".join(fn.__doc__.split())):
            if len(quote) < 25:
                continue
            for part in _quote_parts(quote):
                assert part in book, f"{name}: not in the rulebook: {part!r}"
                checked += 1
    assert checked >= 10


def test_readme_lists_every_example() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for name in TRACES:
        assert f"rulelang replay examples/roost/{name}" in readme, name
    for name in POSITIONS:
        assert f"--from examples/roost/{name}" in readme, name


@pytest.mark.parametrize("name", POSITIONS)
def test_positions_play_on_at_random(name: str) -> None:
    """Every position is a legal table: random players finish the game from it."""
    code, out = _run("run", GAME, "--from", f"examples/roost/{name}", "--seed", "5", "-q")
    assert code == 0, out
    assert "Final standings:" in out


# ---------------------------------------------------------------------- The Egg card
def test_one_egg_blocks_the_placement() -> None:
    """"Before a player has finished placing a card under a barn, an opponent can stop her
    by deploying an egg card. If an egg card is played by an opponent, the player must put
    her card on the discard pile. [...] Once an opponent has played an egg card, it is also
    placed on the discard pile. Both players are now allowed to pick up a new card from the
    draw pile, and the turn is given to the person who played the egg card."
    """
    t = checkpoint("one-egg.jsonl", "CHECK one egg")
    assert t.labels("discard") == ["RedRooster#1", "Egg#1"]
    assert t.labels("under of Barn#2") == ["BlueRooster#1", "Chicken#1", "Chicken#2"]
    assert not t.ids("placing")
    assert t.labels("hand of P1") == ["Chicken#3", "Fox#1"]  # her own draw: the top card
    assert t.labels("hand of P3") == ["Chicken#4"]  # the thrower's
    assert t.labels("hand of P2") == ["Fox#2"] and t.labels("hand of P4") == ["Fox#3"]
    assert not t.ids("deck")
    # the turn is the thrower's: P2, between P1 and P3, is skipped
    assert t.current == "P3"
    assert t.pending() == ("P3", ["place chicken face down under Barn#1", "place chicken face down under Barn#2",
                                  "place chicken face down under Barn#3"])
    assert t.st.turn == 2


def test_one_egg_play_goes_on_from_the_thrower() -> None:
    """"[...] and the turn is given to the person who played the egg card." After the
    thrower's turn, play goes on from her, in the usual order."""
    t = checkpoint("one-egg.jsonl", "CHECK after the thrower")
    assert t.current == "P4"
    assert t.pending()[0] == "P4"


def test_one_egg_costs_the_placer_her_majority() -> None:
    """"Beware! You only have three rooster cards, and you do not want to be blocked by an
    egg card when playing one." Blocked, P1's red rooster does not tie Barn#2: P2 keeps it."""
    t = finished("one-egg.jsonl")
    assert t.scores() == {"P1": 0, "P2": 2, "P3": 0, "P4": 0}
    assert t.st.result["winners"] == ["P2"]


def test_one_egg_from_the_next_player() -> None:
    """"[...] the turn is given to the person who played the egg card." When the next
    player throws, she plays next; the others keep their cards."""
    pos = copy.deepcopy(position("one-egg"))
    pos["zones"]["hand of P2"] = ["Egg#2"]
    t = Table.at(pos)
    t.choose("P1", "place red rooster face down under Barn#2").eggs("P2")
    assert t.labels("discard") == ["RedRooster#1", "Egg#2"]
    assert t.current == "P2"
    assert t.labels("hand of P3") == ["Egg#1"]


def test_only_a_holder_may_throw_an_egg() -> None:
    """"If an egg card is played by an opponent [...]": an opponent without an egg card has
    none to throw; every opponent is asked all the same."""
    t = Table.at("one-egg")
    t.choose("P1", "place red rooster face down under Barn#2")
    assert sorted(t.asked()) == ["P2", "P3", "P4"]
    assert t.options("P2") == ["let it be"]
    assert t.options("P3") == ["throw an egg", "let it be"]
    assert t.options("P1") == []


def test_two_eggs_cancel_out() -> None:
    """"If two or more opponents play an egg card at the same time, the player is not
    blocked: the egg cards cancel each other out. The player can still put her card under
    one of the barns. Furthermore, she receives another turn after playing this card.
    [...] If two or more opponents throw an egg card at the same time, these cards go into
    the discard pile and they are allowed to take a new card from the draw pile."
    """
    t = checkpoint("two-eggs.jsonl", "CHECK two eggs")
    assert t.labels("under of Barn#2") == ["RedRooster#1", "BlueRooster#1", "Chicken#1", "Chicken#2"]
    assert t.labels("discard") == ["Egg#1", "Egg#2"]
    assert not t.ids("placing")
    assert t.labels("hand of P1") == ["Chicken#3", "Chicken#4"]
    assert t.labels("hand of P2") == ["Fox#2"]
    assert t.labels("hand of P3") == ["Fox#1"]
    assert t.labels("hand of P4") == ["Fox#3"]
    assert not t.ids("deck")
    assert t.current == "P1" and t.st.turn == 2
    assert t.pending()[0] == "P1"


def test_two_eggs_give_the_placer_her_tie() -> None:
    """"Hence, opponents want to avoid playing egg cards at the same time! Not only do they
    fail to block the player, they grant her another turn!" P1's rooster ties Barn#2."""
    t = finished("two-eggs.jsonl")
    assert t.scores() == {"P1": 1, "P2": 1, "P3": 0, "P4": 0}


def test_three_eggs_cancel_out_too() -> None:
    """"If two or more opponents play an egg card at the same time, the player is not
    blocked [...]" Three eggs in a four-player game: the card stays, all three throwers
    draw, the placer plays again."""
    pos = copy.deepcopy(position("two-eggs"))
    pos["zones"]["hand of P3"] = ["Egg#3"]
    pos["zones"]["deck"] = ["Fox#4", "Fox#3", "Fox#2", "Chicken#4"]
    t = Table.at(pos)
    t.choose("P1", "place red rooster face down under Barn#2").eggs("P2", "P3", "P4")
    assert "RedRooster#1" in t.labels("under of Barn#2")
    assert t.labels("discard") == ["Egg#1", "Egg#2", "Egg#3"]
    assert t.labels("hand of P1") == ["Chicken#3", "Chicken#4"]
    assert (t.labels("hand of P2"), t.labels("hand of P3"), t.labels("hand of P4")) == (["Fox#2"], ["Fox#3"],
                                                                                         ["Fox#4"])
    assert t.current == "P1" and t.st.turn == 2


def test_draw_priority_book_example() -> None:
    """"When there are not enough cards left in the draw deck for everyone, the player whom
    the others sought to block always receives priority in taking a card. Priority in
    drawing a card is then granted to her unsuccessful opponents in order of how close they
    are to their next turn. Suppose, for example, that four people are playing and two
    opponents threw down an egg card. Suppose further that there are only two cards left in
    the draw deck. The player whom the others sought to block first draws a card. The final
    card in the draw deck then goes to the opponent who is closest to her turn."
    """
    t = checkpoint("draw-priority.jsonl", "CHECK priority")
    assert t.labels("hand of P3") == ["Chicken#20"]  # the blocked player draws first: the top card
    assert t.labels("hand of P4") == ["Fox#8"]  # the final card: P4 plays right after P3
    assert t.labels("hand of P2") == []  # P2 comes first in seat order but last in turn order
    assert not t.ids("deck")
    assert "GreenRooster#1" in t.labels("under of Barn#1")
    assert t.current == "P3" and t.pending()[0] == "P3"


def test_draw_priority_result() -> None:
    """"The player whom the others sought to block first draws a card." P3 draws the
    chicken and places it in the barn she rules."""
    t = finished("draw-priority.jsonl")
    assert t.scores() == {"P1": 0, "P2": 0, "P3": 2, "P4": 0}


def test_draw_priority_three_throwers() -> None:
    """"Priority in drawing a card is then granted to her unsuccessful opponents in order of
    how close they are to their next turn." P2 places, P3, P4 and P1 throw, two cards are
    left: P2 draws the top one, P3 (next after P2) the last; P4 and P1 draw nothing."""
    pos = copy.deepcopy(position("draw-priority"))
    pos["current"] = "P2"
    pos["zones"].update({"hand of P1": ["Egg#3"], "hand of P2": ["BlueRooster#1"], "hand of P3": ["Egg#1"],
                         "hand of P4": ["Egg#2"], "deck": ["Fox#8", "Chicken#20"]})
    t = Table.at(pos)
    t.choose("P2", "place blue rooster face down under Barn#1").eggs("P1", "P3", "P4")
    assert t.labels("hand of P2") == ["Chicken#20"]
    assert t.labels("hand of P3") == ["Fox#8"]
    assert t.labels("hand of P4") == [] and t.labels("hand of P1") == []
    assert t.current == "P2"


# ---------------------------------------------------------------------- The Padlock card
def test_padlock_resists_an_egg() -> None:
    """"The padlock card is resistant to an egg card. If one or more opponents nevertheless
    play an egg card when a player uses the padlock card, they must place their egg card on
    the discard pile and take a new card from the draw deck. The turn is given to the next
    player in the usual order of play."
    """
    t = checkpoint("padlock-egg.jsonl", "CHECK padlock")
    assert t.labels("lock of Barn#2") == ["Padlock"]
    assert t.labels("discard") == ["Egg#1"]
    assert t.kinds("hand of P3") == Counter({"Chicken": 1})
    assert t.kinds("hand of P1") == Counter({"RedRooster": 1, "Chicken": 1})
    assert not t.ids("deck")
    assert t.current == "P2"  # not the thrower (P3), and no other turn for P1
    who, labels = t.pending()
    assert who == "P2"
    # nothing is placed under the locked barn (the file's ASSUMPTION)
    assert labels == [f"place fox face down under Barn#{b}" for b in (1, 3)]


def test_padlock_result() -> None:
    """"How do you lock a barn? A player can do this with the padlock card." P1 keeps the
    locked Barn#2."""
    t = finished("padlock-egg.jsonl")
    assert t.scores() == {"P1": 2, "P2": 0, "P3": 0, "P4": 0}


def test_padlock_resists_two_eggs() -> None:
    """"If one or more opponents nevertheless play an egg card when a player uses the
    padlock card, they must place their egg card on the discard pile and take a new card
    from the draw deck. The turn is given to the next player in the usual order of play."
    Two eggs at a padlock do not cancel out into another turn."""
    pos = copy.deepcopy(position("padlock-egg"))
    pos["zones"]["hand of P4"] = ["Egg#2"]
    pos["zones"]["deck"] = ["Chicken#5", "Chicken#2", "Chicken#1"]
    t = Table.at(pos)
    t.choose("P1", "lock Barn#2 with the Padlock").eggs("P3", "P4")
    assert t.labels("lock of Barn#2") == ["Padlock"]
    assert t.labels("discard") == ["Egg#1", "Egg#2"]
    assert len(t.ids("hand of P1")) == 2 and len(t.ids("hand of P3")) == 1 and len(t.ids("hand of P4")) == 1
    assert t.current == "P2" and t.st.turn == 2


def test_padlock_player_draws_first_when_the_deck_runs_short() -> None:
    """"When there are not enough cards left in the draw deck for everyone, the player whom
    the others sought to block always receives priority in taking a card." The opponents
    who throw an egg at the padlock sought to block its player: with one card left, she
    takes it, not the thrower."""
    pos = copy.deepcopy(position("padlock-egg"))
    pos["zones"]["deck"] = ["Chicken#1"]
    t = Table.at(pos)
    t.choose("P1", "lock Barn#2 with the Padlock").eggs("P3")
    assert t.labels("hand of P1") == ["RedRooster#1", "Chicken#1"], (
        "the padlock's player should draw the last card before the egg's thrower")
    assert t.labels("hand of P3") == []


def test_no_card_is_placed_under_a_locked_barn() -> None:
    """"You can prevent an opponent from having the majority of roosters in a barn [...] with
    the following cards: [...] the Padlock card." "Once a barn is locked, no cards can be moved
    to or from it. The only exception to this, of course, is if someone plays the farmer with key
    card." (Gameplay; The Padlock card: the padlock can keep a rooster out of a barn only if
    nothing is placed under a locked barn)"""
    t = Table.at("farmer-lock-key")
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#2").choose("P1", "move nothing")
    who, labels = t.pending()
    assert who == "P2"
    assert "place fox face down under Barn#2" not in labels
    assert "place fox face down under Barn#1" in labels
    assert "place fox face down under Barn#3" in labels


def test_option_a_card_may_be_placed_under_a_locked_barn() -> None:
    """"With each turn, a player places one of the five cards in her hands face down under
    one of the three barn cards [...] Once a barn is locked, no cards can be moved to or from
    it." (option place_under_locked = true: "moved" is the farmers' word, placing a card from
    the hand is still allowed)"""
    t = Table.at("farmer-lock-key", place_under_locked="true")
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#2").choose("P1", "move nothing")
    who, labels = t.pending()
    assert who == "P2"
    assert "place fox face down under Barn#2" in labels
    t.choose("P2", "place fox face down under Barn#2").eggs()
    assert t.kinds("under of Barn#2")["Fox"] == 1
    assert t.labels("lock of Barn#2") == ["Padlock"]
    # ... but nothing moves out of it without the key
    t.choose("P1", "play the Farmer with key and look under Barn#2")
    assert "move fox from under Barn#2 to under Barn#1" in t.pending()[1]


# ---------------------------------------------------------------------- The farmer cards
def _farmer_position() -> dict[str, Any]:
    """P1 holds a pitchfork; P2 and P4 hold an egg each; Barn#1 has a fox to move away."""
    pos = copy.deepcopy(position("two-eggs"))
    pos["zones"]["under of Barn#1"] = ["Fox#1", "BlueRooster#2"]
    pos["zones"]["hand of P1"] = ["RedRooster#1", "Pitchfork#1"]
    pos["zones"]["hand of P3"] = ["Fox#4"]
    return pos


def test_eggs_do_not_answer_a_farmer() -> None:
    """"Before a player has finished placing a card under a barn, an opponent can stop her by
    deploying an egg card. [...] farmer cards [...] have to be played openly and are placed face
    up on the table." (The Egg card; The farmer cards; ASSUMPTION: eggs answer cards placed at a
    barn, not a farmer)"""
    t = Table.at(_farmer_position())
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#1")
    assert t.asked() == []
    assert t.pending()[0] == "P1" and "move nothing" in t.pending()[1]


def test_option_one_egg_blocks_a_farmer() -> None:
    """"If an egg card is played by an opponent, the player must put her card on the discard
    pile. [...] Both players are now allowed to pick up a new card from the draw pile, and the
    turn is given to the person who played the egg card." (The Egg card; option
    eggs_against_farmers = true)"""
    t = Table.at(_farmer_position(), eggs_against_farmers="true")
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#1")
    assert sorted(t.asked()) == ["P2", "P3", "P4"]
    t.eggs("P4")
    assert t.observe("P1").get("seen", []) == []  # blocked: P1 looks at nothing
    assert t.kinds("under of Barn#1") == Counter({"Fox": 1, "BlueRooster": 1})
    assert t.kinds("discard") == Counter({"Pitchfork": 1, "Egg": 1})
    assert t.labels("hand of P1") == ["RedRooster#1", "Chicken#4"]  # P1 draws first
    assert t.labels("hand of P4") == ["Fox#2"]  # then the thrower
    assert t.current == "P4"


def test_option_two_eggs_let_the_farmer_work_and_give_another_turn() -> None:
    """"If two or more opponents play an egg card at the same time, the player is not blocked:
    the egg cards cancel each other out. [...] Furthermore, she receives another turn after
    playing this card." (The Egg card; option eggs_against_farmers = true)"""
    t = Table.at(_farmer_position(), eggs_against_farmers="true")
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#1").eggs("P2", "P4")
    assert t.observe("P1")["seen"][-1]["components"] == ["BlueRooster", "Fox"]
    t.choose("P1", "move fox from under Barn#1 to under Barn#3")
    assert t.kinds("under of Barn#3") == Counter({"Fox": 1})
    assert t.kinds("discard") == Counter({"Pitchfork": 1, "Egg": 2})
    assert t.labels("hand of P1") == ["RedRooster#1", "Chicken#4"]
    assert t.labels("hand of P2") == ["Fox#2"] and t.labels("hand of P4") == ["Fox#3"]
    assert t.current == "P1" and t.pending()[0] == "P1"  # another turn


def test_pitchfork_cannot_move_from_a_locked_barn() -> None:
    """"Once a barn is locked, no cards can be moved to or from it. The only exception to
    this, of course, is if someone plays the farmer with key card." A pitchfork may look
    under the locked barn, but move nothing from it."""
    t = checkpoint("farmer-lock-key.jsonl", "CHECK pitchfork on a locked barn")
    assert t.pending() == ("P1", ["move nothing"])
    seen = t.observe("P1")["seen"]
    assert seen[-1]["components"] == ["RedRooster", "Chicken", "Chicken", "Chicken"]  # kinds, not copies
    assert t.labels("discard") == ["Pitchfork#1"]


def test_pitchfork_cannot_move_to_a_locked_barn() -> None:
    """"Once a barn is locked, no cards can be moved to or from it." A pitchfork looking
    under Barn#1 may move a card to Barn#3, not to the locked Barn#2."""
    t = Table.at("farmer-lock-key")
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#1")
    assert t.pending() == ("P1", ["move blue rooster from under Barn#1 to under Barn#3",
                                  "move chicken from under Barn#1 to under Barn#3", "move nothing"])


def test_key_moves_into_a_locked_barn() -> None:
    """"The farmer with key card grants the player the same privileges as the farmer with
    pitchfork cards. In addition, however, a player can with this card move a card to or
    from a barn that is locked if so desired."
    """
    t = checkpoint("farmer-lock-key.jsonl", "CHECK key")
    who, labels = t.pending()
    assert who == "P1"
    assert labels == ["move blue rooster from under Barn#1 to under Barn#2",
                      "move blue rooster from under Barn#1 to under Barn#3",
                      "move chicken from under Barn#1 to under Barn#2",
                      "move chicken from under Barn#1 to under Barn#3", "move nothing"]


def test_key_moves_out_of_a_locked_barn() -> None:
    """"[...] a player can with this card move a card to or from a barn that is locked if so
    desired.\""""
    t = Table.at("farmer-lock-key")
    t.choose("P1", "play the Farmer with key and look under Barn#2")
    assert "move red rooster from under Barn#2 to under Barn#1" in t.pending()[1]
    t.choose("P1", "move red rooster from under Barn#2 to under Barn#1")
    assert "RedRooster#1" in t.labels("under of Barn#1")
    assert t.labels("lock of Barn#2") == ["Padlock"]


def test_barn_is_locked_again_after_the_key() -> None:
    """"Note that if the player moves a card to or from a locked barn, the barn is locked
    again once her turn has ended."
    """
    t = checkpoint("farmer-lock-key.jsonl", "CHECK locked again")
    assert t.labels("lock of Barn#2") == ["Padlock"]
    assert t.kinds("under of Barn#2") == Counter({"RedRooster": 1, "Chicken": 4})
    assert t.labels("under of Barn#1") == ["BlueRooster#1"]
    assert t.current == "P2"
    # the next farmer is a pitchfork again: nothing moves to or from Barn#2
    t.choose("P2", "play a Farmer with pitchfork and look under Barn#2")
    assert t.pending() == ("P2", ["move nothing"])


def test_barn_is_locked_again_pitchfork_cannot_move_into_it() -> None:
    """"Note that if the player moves a card to or from a locked barn, the barn is locked
    again once her turn has ended." After the key, a pitchfork may not move into Barn#2."""
    t = checkpoint("farmer-lock-key.jsonl", "CHECK locked again")
    t.choose("P2", "play a Farmer with pitchfork and look under Barn#3")
    labels = t.pending()[1]
    assert labels and not any("to under Barn#2" in label for label in labels)
    assert "move fox from under Barn#3 to under Barn#1" in labels


def test_farmer_lock_key_result() -> None:
    """"By playing a farmer card, a player can tactically move roosters, chickens or foxes."
    With the key P1 brings a chicken into the barn she rules, locked as it is."""
    t = finished("farmer-lock-key.jsonl")
    assert t.scores() == {"P1": 4, "P2": 0}


def test_farmer_look_is_private() -> None:
    """"With the farmer card, a player is allowed to look through the cards placed under one
    of the three barns, and can place one of them under a different barn. Her opponents are
    not allowed to see the cards she chooses to look through."
    """
    t = checkpoint("farmer-look.jsonl", "CHECK look")
    looked = ["BlueRooster", "GreenRooster", "Chicken", "Fox"]
    mine = t.observe("P1")
    assert [entry["components"] for entry in mine["seen"]] == [looked]  # by kind, in order
    assert "Barn#1" in mine["seen"][0]["where"]
    assert mine["zones"]["under of Barn#1"] == {"hidden": 4}  # the look is remembered, not left open
    assert not COPY_LABEL.search(json.dumps(mine))
    for other in ("P2", "P3", None):
        obs = t.observe(other)
        assert "seen" not in obs
        assert obs["zones"]["under of Barn#1"] == {"hidden": 4}
        text = json.dumps(obs)
        assert not COPY_LABEL.search(text), (other, text)
        # no kind she looked at shows, but for the other's own card (P2 holds a chicken, P3 a fox)
        own = set(t.kinds(f"hand of {other}")) if other else set()
        for kind in set(looked) - own:
            assert not re.search(rf"\b{kind}\b", text), (other, kind)
    assert t.pending() == ("P1", ["move blue rooster from under Barn#1 to under Barn#2",
                                  "move blue rooster from under Barn#1 to under Barn#3",
                                  "move green rooster from under Barn#1 to under Barn#2",
                                  "move green rooster from under Barn#1 to under Barn#3",
                                  "move chicken from under Barn#1 to under Barn#2",
                                  "move chicken from under Barn#1 to under Barn#3",
                                  "move fox from under Barn#1 to under Barn#2",
                                  "move fox from under Barn#1 to under Barn#3", "move nothing"])


def test_farmer_look_result() -> None:
    """"A player is not obligated to move any of the cards under another barn." Here she
    does: the fox leaves Barn#1, which P2 and P3 then share."""
    t = finished("farmer-look.jsonl")
    assert t.scores() == {"P1": 0, "P2": 1, "P3": 1}
    assert t.labels("under of Barn#3") == ["Fox#1"]


def test_farmer_may_move_nothing() -> None:
    """"A player is not obligated to move any of the cards under another barn.\""""
    t = Table.at("farmer-look")
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#1").choose("P1", "move nothing")
    assert t.kinds("under of Barn#1") == Counter({"BlueRooster": 1, "GreenRooster": 1, "Chicken": 1, "Fox": 1})
    assert t.labels("discard") == ["Pitchfork#1"]
    assert t.current == "P2"


@pytest.mark.parametrize("viewer", ["P1", "P2", "P3"])
def test_farmer_look_in_replay_views(viewer: str) -> None:
    """"Her opponents are not allowed to see the cards she chooses to look through." Only
    P1's view of the trace names the cards under Barn#1."""
    code, out = _run("replay", "examples/roost/farmer-look.jsonl", "--view", viewer)
    assert code == 0, out
    cards = "blue rooster, green rooster, chicken, fox"  # BlueRooster#1, GreenRooster#1, Chicken#1, Fox#1
    assert not COPY_LABEL.search(out), "a player is shown kinds, not numbered copies"
    if viewer == "P1":
        assert f"P1 looks at the cards under Barn#1: {cards}" in out
        assert "P1 chooses: move fox from under Barn#1 to under Barn#3" in out
    else:
        assert "P1 looks at the cards under Barn#1: 4 components (seen by P1 only)" in out
        assert "P1 chooses: move (hidden) from under Barn#1 to under Barn#3" in out
        assert cards not in out
        own = {"P2": "chicken", "P3": "fox"}[viewer]  # the viewer's own card may show
        for kind in cards.split(", "):
            if kind != own:
                assert not re.search(rf"\b{kind}\b", out), kind
        assert "move fox" not in out and "blue rooster" not in out and "green rooster" not in out


@pytest.mark.parametrize("viewer", ["P1", "P2", "P3"])
def test_farmer_look_in_run_views(viewer: str) -> None:
    """"Her opponents are not allowed to see the cards she chooses to look through." Played
    on from the position (each player takes her first option), only P1's --view shows them."""
    code, out = _run("run", GAME, "--from", "examples/roost/farmer-look.position.json", "--agent", "first",
                     "--view", viewer, "--seed", "1")
    assert code == 0, out
    assert "P1 chooses: play a Farmer with pitchfork and look under Barn#1" in out
    assert not COPY_LABEL.search(out), "a player is shown kinds, not numbered copies"
    if viewer == "P1":
        assert "P1 looks at the cards under Barn#1: blue rooster, green rooster, chicken, fox" in out
        assert "P1 chooses: move blue rooster from under Barn#1 to under Barn#2" in out
    else:
        assert "P1 looks at the cards under Barn#1: 4 components (seen by P1 only)" in out
        assert "P1 chooses: move (hidden) from under Barn#1 to under Barn#2" in out
        assert "BlueRooster" not in out and "blue rooster" not in out
        assert "GreenRooster" not in out and "green rooster" not in out


def test_narration_names_cards_as_a_player_reads_them() -> None:
    """"With the farmer card, a player is allowed to look through the cards placed under one of
    the three barns" (The farmer cards): the play-by-play names the cards she sees by what is
    printed on them ("blue rooster"), not by the rules file's labels of numbered copies
    ("BlueRooster#3"); the barns, each its own place on the table, keep their numbers."""
    code, out = _run("replay", "examples/roost/farmer-look.jsonl", "--view", "P1", "-v")
    assert code == 0, out
    assert "P1 looks at the cards under Barn#1: blue rooster, green rooster, chicken, fox" in out
    assert not COPY_LABEL.search(out), out
    assert not re.search(r"\b(?:Blue|Green|Red|Yellow)Rooster\b", out)
    assert "    Farmer with pitchfork: P1's hand -> the discard pile" in out  # -v: every move
    code, out = _run("run", GAME, "--seed", "3", "-v")
    assert code == 0, out
    looks = [line for line in out.splitlines() if " looks at the cards under " in line]
    assert looks and not COPY_LABEL.search(out)
    assert "Barn#1" in out


# ---------------------------------------------------------------------- The Fox card and scoring
def test_fox_heavy_barn_scores_zero() -> None:
    """"A fox is bad news for the chickens in a barn. For each fox card in a barn at the end
    of the game, one point is deducted from the player(s) with the majority of roosters in
    that barn. [...] If the number of foxes in a barn is equal to or greater than the number
    of chickens, the player(s) with a majority of roosters in the barn receives zero points."
    """
    t = finished("fox-heavy.jsonl")
    # Barn#1: 2 chickens, 3 foxes -> 0 (not -1); Barn#2: 2 and 2 -> 0; Barn#3: 3 - 1 = 2
    assert t.scores() == {"P1": 2, "P2": 0}
    assert t.st.result["winners"] == ["P1"]


def test_foxes_deducted_one_each() -> None:
    """"All the chicken cards are then counted with a value of one victory point for each.
    For every fox card in the barn, one point is deducted."
    """
    pos = copy.deepcopy(position("fox-heavy"))
    pos["zones"]["under of Barn#3"] = ["RedRooster", "5 Chicken", "2 Fox"]
    t = Table.at(pos)
    assert t.st.over
    assert t.scores() == {"P1": 3, "P2": 0}


def test_three_way_tie_splits_evenly_and_loses_the_rest() -> None:
    """"If two or more players have the majority of roosters in a barn, the points are split
    evenly amongst them. Players cannot earn fractions of points. So if any remaining number
    of chickens cannot be divided evenly among them, they do not count towards any player's
    points."
    """
    t = finished("three-way-tie.jsonl")
    assert t.scores() == {"P1": 2, "P2": 2, "P3": 2}
    assert t.st.result["winners"] == ["P1", "P2", "P3"]


def test_majority_needs_the_most_roosters() -> None:
    """"Whichever player has the majority of roosters in a barn, receives one point per
    chicken at the end of the game." Two red roosters beat one blue and one green."""
    pos = copy.deepcopy(position("three-way-tie"))
    pos["zones"]["under of Barn#1"] = ["2 RedRooster", "BlueRooster", "GreenRooster", "7 Chicken"]
    t = Table.at(pos)
    assert t.scores() == {"P1": 7, "P2": 0, "P3": 0}


# ---------------------------------------------------------------------- The End
def test_players_without_cards_are_passed_over() -> None:
    """"Once the draw deck is empty, the players continue to play their hands until no one
    can place anymore cards on the table."
    """
    t = checkpoint("the-end.jsonl", "CHECK P2's turn")
    assert not t.st.over
    assert t.current == "P3"
    assert t.pending() == ("P3", ["place chicken face down under Barn#1", "place chicken face down under Barn#2",
                                  "place chicken face down under Barn#3"])


def test_the_end_when_nobody_can_place() -> None:
    """"Once the draw deck is empty, the players continue to play their hands until no one
    can place anymore cards on the table. It is then time to determine the winner."
    The last card of the game is still placed, and it counts."""
    t = finished("the-end.jsonl")
    assert t.labels("under of Barn#3") == ["GreenRooster#1", "Chicken#2"]
    assert not t.ids("placing")
    assert t.scores() == {"P1": 1, "P2": 0, "P3": 1}


def test_last_card_is_a_farmer() -> None:
    """"It is then time to determine the winner." The last card played is a Farmer with
    pitchfork: she still looks and moves before the barns are scored."""
    pos = copy.deepcopy(position("the-end"))
    pos["zones"].update({"under of Barn#2": ["Chicken#1", "Chicken#2"], "hand of P1": ["Pitchfork#1"],
                         "hand of P3": []})
    t = Table.at(pos)
    t.choose("P1", "play a Farmer with pitchfork and look under Barn#2")
    assert not t.st.over
    t.choose("P1", "move chicken from under Barn#2 to under Barn#1")
    assert t.st.over
    assert t.scores() == {"P1": 1, "P2": 0, "P3": 0}


def test_the_game_ends_at_once_when_nobody_holds_a_card() -> None:
    """"Once the draw deck is empty, the players continue to play their hands until no one
    can place anymore cards on the table. It is then time to determine the winner.\""""
    t = Table.at("three-way-tie")
    assert t.st.over
    assert t.pending() == (None, [])


def test_the_game_goes_on_while_the_deck_has_cards() -> None:
    """"With each turn, a player places one of the five cards in her hands face down under
    one of the three barn cards, and then takes a new card from the drawing pile." Empty hands
    with cards left in the deck do not end the game: the placer draws back to one."""
    pos = copy.deepcopy(position("the-end"))
    pos["zones"].update({"hand of P3": [], "deck": ["Fox#1"]})
    t = Table.at(pos)
    t.choose("P1", "place chicken face down under Barn#1").eggs()
    assert not t.st.over
    assert t.labels("hand of P1") == ["Fox#1"]


# ---------------------------------------------------------------------- Gameplay
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_three_roosters_and_two_cards(players: int) -> None:
    """"Each player then receives her three rooster cards. If there are less than four
    players, the remaining rooster cards are removed from the game. [...] Each player takes
    two cards from the top of the draw pile, so that she has five in her hands at the
    beginning of the game: three rooster cards and two others."
    """
    eng = engine()
    st = eng.new_state(players)
    rng = Rng(7)
    while (d := eng.pending(st)) is not None and d.kind == "chance":  # the shuffle, the first player
        eng.apply(st, d.sample(rng))
    t = Table(eng, st)
    assert t.pending()[0] == t.current
    colours = ["RedRooster", "BlueRooster", "GreenRooster", "YellowRooster"]
    for p in range(players):
        hand = t.kinds(f"hand of P{p + 1}")
        assert sum(hand.values()) == 5
        assert hand[colours[p]] == 3
        assert not any(hand[c] for c in colours if c != colours[p])
    assert len(t.ids("deck")) == 53 - 2 * players
    box = t.kinds("box")
    assert box == Counter({c: 3 for c in colours[players:]})
    assert t.labels("barns") == ["Barn#1", "Barn#2", "Barn#3"]


# ---------------------------------------------------------------------- What a player is shown
HAND_MOVE = re.compile(r"^    (.+): (.+) -> (P\d)'s hand( at random)?$", re.M)


def _names(labels: list[str]) -> str:
    """A regex matching any of ``labels`` as a whole copy (``Fox#1`` but not ``Fox#12``)."""
    return "|".join(rf"\b{re.escape(label)}(?!\d)" for label in labels)


def _random_move(table: Table, rng: Rng) -> None:
    """One step of seeded random play: a chance outcome, an egg answer or a choice."""
    table.engine.apply(table.st, *random_action(table.engine, table.st, rng))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_never_name_another_players_copies(players: int) -> None:
    """"The remaining cards are then shuffled to form the draw pile. Each player takes two
    cards from the top of the draw pile [...]" The copies' numbers follow the shuffled
    deck, so a copy number (Fox#6) in a player's observation would tell her where the other
    copies lie. After every step of seeded games, no player's observation names a copy of a
    card in another player's hand (nor any copy at all: not her own cards, not what her
    farmers saw); her own hand is shown by kind."""
    eng = engine()
    kind_name = [eng.model.kinds[k].name for k in eng.program.kind_of]
    checked = 0
    for seed in range(4):
        t = Table(eng, eng.new_state(players))
        rng = Rng(seed, stream=3)
        while True:
            hands = [t.labels(f"hand of P{p + 1}") for p in range(players)]
            for p in range(players):
                obs = t.observe(f"P{p + 1}")
                text = json.dumps(obs)
                others = [label for q in range(players) if q != p for label in hands[q]]
                if others:
                    assert not re.search(_names(others), text), (seed, p, others)
                assert not COPY_LABEL.search(text), (seed, p, COPY_LABEL.search(text))
                assert obs["zones"][f"hand of P{p + 1}"] == [kind_name[c] for c in t.ids(f"hand of P{p + 1}")]
                checked += 1
            if t.st.over:
                break
            _random_move(t, rng)
    assert checked > 4 * players * 50


@pytest.mark.parametrize("seed", [3, 4])
def test_views_never_name_another_players_copies(seed: int, tmp_path: Path) -> None:
    """"Each player takes two cards from the top of the draw pile [...]" / "With each turn, a
    player places one of the five cards in her hands face down under one of the three barn
    cards, and then takes a new card from the drawing pile." The play-by-play a player is
    shown (`run --view P -v`, and `replay --view P -v` of the same game) never names a copy
    (Fox#6) of a card another player drew, nor any copy at all; her own draws show their
    kinds, the others' draws only how many cards they took. (The full play-by-play names the
    cards by kind too, as printed on them: "fox".)"""
    trace = tmp_path / "t.jsonl"
    code, full = _run("run", GAME, "--seed", str(seed), "-v", "--trace", str(trace))
    assert code == 0, full
    drawn: dict[str, list[tuple[str, str]]] = {f"P{p}": [] for p in range(1, 5)}  # (cards, from where)
    for what, src, who, _ in HAND_MOVE.findall(full):
        drawn[who].append((what, src))
    assert all(drawn.values()) and not COPY_LABEL.search(full)
    for viewer in drawn:
        code, ran = _run("run", GAME, "--seed", str(seed), "-v", "--view", viewer)
        assert code == 0, ran
        code, replayed = _run("replay", str(trace), "--view", viewer, "-v")
        assert code == 0, replayed
        for out in (ran, replayed):
            assert not COPY_LABEL.search(out), (viewer, COPY_LABEL.search(out))
            moves = {who: [] for who in drawn}
            for what, src, who, _ in HAND_MOVE.findall(out):
                moves[who].append((what, src))
            for who, want in drawn.items():
                if who == viewer:  # the same cards, by kind
                    assert moves[who] == want, viewer
                else:
                    n = [len(what.split(", ")) for what, _ in want]
                    assert moves[who] == [(f"{k} hidden component{'s' if k != 1 else ''}", src)
                                          for k, (_, src) in zip(n, want)], (viewer, who)


def test_reading_names_of_the_components() -> None:
    """"There are two kinds of farmer cards: fifteen in which he is holding a pitchfork and one in
    which he holds a key." (The farmer cards) Cards read as printed; each barn, its own place on
    the table, keeps its number."""
    names = reading_names(engine())
    assert names["BlueRooster#3"] == names["BlueRooster"] == "blue rooster"
    assert names["Pitchfork#15"] == "Farmer with pitchfork" and names["Key"] == "Farmer with key"
    assert "Barn#1" not in names and "Barn" not in names
    chicken = reading_names(game_engine("games/chicken.rules"))
    assert "White#1" not in chicken and "Orange#4" not in chicken  # dice keep their labels
