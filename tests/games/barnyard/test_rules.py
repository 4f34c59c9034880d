"""Barnyard Roundup (games/barnyard.rules, games/barnyard-2p.rules) against its rulebook.

Each test's docstring quotes the passage of shared/rulebooks/barnyard-roundup.txt it
checks. Most situations are worked examples in examples/barnyard/: a position
(``NAME.position.json``) and a hand-written trace from it (``NAME.jsonl``) that plays the
passage out and then ends the game (the deck holds just the cards still to be drawn), so
its result line shows what the passage decides. The tests replay the traces (to the end,
or up to a ``// CHECK ...`` comment to look at the table there), check their verdicts, and
script a few more decisions from the same positions where the rulebook asks for something
the rules do not do.

Players are P1, P2, ... (seats 0, 1, ... in the engine); the rulebook's Bob is P1, John P2,
Tommy P1 and Samantha P2.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from example_support import Examples, ExampleTable, game_engine, rulebook_text

from rulelang.agents.base import RandomAgent
from rulelang.cli import main
from rulelang.engine.engine import Engine, IllegalAction
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.trace.replay import read_trace

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "barnyard"
BASE = "games/barnyard.rules"
TWO = "games/barnyard-2p.rules"
ANIMALS = ["Cow", "Pig", "Sheep", "Goat", "Chicken"]
CARDS = ANIMALS + ["Crow"]
TOKENS = ["Robber", "ExcuseMe", "Scarecrow"]
def lay(n: int | str, kind: str, target: str, claim: str) -> str:
    """The label of a bluff: ``n`` cards of ``kind`` (shown as "(hidden)" to the others) for ``target``."""
    return f'lay {n} {kind} face down before {target}: "These are {claim}"'


SHEET = ["Cows", "Pigs", "Sheep", "Goats", "Chickens", "Crows", "Animal Bonus cards", "Set Bonus cards"]


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


# ---------------------------------------------------------------------- helpers
def engine_for(game: str = BASE, **options: str) -> Engine:
    return game_engine(game, **options)


def position(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.position.json").read_text(encoding="utf-8"))


class Table(ExampleTable):
    """A game state with readable accessors and decision helpers that check what is pending."""

    @classmethod
    def at(cls, pos: str | dict[str, Any], game: str = BASE, **options: str) -> Table:
        """A new game from a position (a file name in examples/barnyard/ or a dict)."""
        if isinstance(pos, str):
            pos = position(pos)
        engine = engine_for(game, **options)
        return cls(engine, engine.new_state(pos["players"], position=pos))

    # -- reading the table
    def kinds(self, name: str) -> Counter[str]:
        """How many of each kind a zone holds: ``Counter({"Cow": 2})``."""
        program = self.engine.program
        return Counter(self.engine.model.kinds[program.kind_of[c]].name for c in self.ids(name))

    def count(self, name: str, kind: str | None = None) -> int:
        return len(self.ids(name)) if kind is None else self.kinds(name)[kind]

    def counter(self, name: str, player: str | None = None) -> int:
        counter = next(c for c in self.engine.model.counters if c.name == name)
        value = self.st.counters[counter.index]
        return value[int(player[1:]) - 1] if player else value

    def sheet(self, player: str) -> dict[str, int]:
        assert self.st.result is not None
        row = next(r for r in self.st.result["standings"] if r["player"] == player)
        return row["sheets"]["final_score"]

    def keys(self) -> dict[str, list[int]]:
        assert self.st.result is not None
        return {r["player"]: r["keys"] for r in self.st.result["standings"]}

    # -- deciding
    def choose(self, player: str, label: str) -> Table:
        who, labels = self.pending()
        assert who == player, f"expected {player} to choose {label!r}; pending: {who} {labels[:6]}"
        assert label in labels, f"{label!r} is not offered to {player}; offered: {labels[:12]}"
        self.engine.apply(self.st, label)
        return self

    def done(self, player: str) -> Table:
        """``player`` plays no (more) Action Tokens now (asked before and after every bluff)."""
        return self.choose(player, "play no more tokens now")

    def let_be(self, *players: str) -> Table:
        """Each of ``players`` declines to say "Excuse Me!" (every other player is asked)."""
        for player in players:
            self.answer(player, "let it be")
        return self

    def answer(self, player: str, label: str) -> Table:
        """Answer an ``ask`` (every asked player answers; any order)."""
        assert player in self.asked(), f"{player} is not asked; asked: {self.asked()}, pending: {self.pending()}"
        self.engine.apply(self.st, label, player=int(player[1:]) - 1)
        return self

    def draw(self, kind: str) -> Table:
        d = self.engine.pending(self.st)
        assert d is not None and d.kind == "chance" and "draw" in d.event, f"no draw pending: {self.pending()}"
        assert kind in (d.labels or []), f"cannot draw {kind!r} from {d.event['draw']}; possible: {d.labels}"
        self.engine.apply(self.st, kind)
        return self


EXAMPLE = Examples(EXAMPLES, Table)
replay, finished, checkpoint = EXAMPLE.replay, EXAMPLE.finished, EXAMPLE.checkpoint


def _book() -> str:
    return rulebook_text("barnyard-roundup.txt")


def _normalize(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------- the examples themselves
TRACES = sorted(p.name for p in EXAMPLES.glob("*.jsonl"))
POSITIONS = sorted(p.name for p in EXAMPLES.glob("*.position.json"))
ILLEGAL = {"claim-crow.jsonl", "excuse-me-twice.jsonl"}


def test_the_examples_exist() -> None:
    assert len(TRACES) >= 19 and len(POSITIONS) >= 16


@pytest.mark.parametrize("name", TRACES)
def test_example_trace_starts_from_its_position_and_quotes_the_rulebook_verbatim(name: str) -> None:
    """Every trace names its position file, carries it unchanged, and opens with a verbatim quote."""
    header = read_trace(EXAMPLES / name).header
    assert header["from"].startswith("examples/barnyard/")
    pos = position(Path(header["from"]).name.removesuffix(".position.json"))
    assert header["players"] == pos["players"]
    assert header["position"] == {k: v for k, v in pos.items() if k != "players"}
    first = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("// ")
    book = _normalize(_book())
    for quote in (json.loads(first[3:]), pos["comment"]):
        for part in quote.split("[...]"):
            assert _normalize(part) in book, part


@pytest.mark.parametrize("name", sorted(set(TRACES) - ILLEGAL))
def test_example_trace_is_compliant(name: str) -> None:
    """Every legal example replays as compliant, with the result line the rules give."""
    finished(name)


def test_readme_lists_every_example() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for name in TRACES + POSITIONS:
        assert f"`{name}`" in readme, name


@pytest.mark.parametrize("name", POSITIONS)
def test_example_position_plays_to_the_end_with_random_agents(name: str) -> None:
    """Every position is a legal table from which the game goes on and ends."""
    header = next(read_trace(EXAMPLES / t).header for t in TRACES
                  if read_trace(EXAMPLES / t).header["from"].endswith("/" + name))
    engine = engine_for(header["file"], **{k: json.dumps(v) for k, v in (header.get("options") or {}).items()})
    pos = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    for seed in range(3):
        st = engine.new_state(pos["players"], position=pos, setup_seed=seed)
        play(engine, st, [RandomAgent(seed, s) for s in range(pos["players"])], seed)
        assert st.over and st.result is not None


# ---------------------------------------------------------------------- scoring
TOMMY = {"Cows": 25, "Pigs": 12, "Sheep": 6, "Goats": 10, "Chickens": 7, "Crows": -20,
         "Animal Bonus cards": 10, "Set Bonus cards": 20}


def test_tommys_score_is_70() -> None:
    """"Tommy has 5 Cows, 3 Pigs, 2 Sheep, 5 Goats, 7 Chickens, and 4 Crows. He won Animal Bonus Cards for having
    the most Goats and Chickens, but tied Samantha for Cows, so no one got the Cow bonus card. He completed 2 sets
    so he also got 2 Set Bonus cards worth 10 points each. It's Math Time: +25 for Cows +12 for Pigs +6 for Sheep
    +10 for Goats +7 for Chickens -20 for Crows +10 for 2 Animal Bonus cards +20 for 2 Set Bonus cards He scored
    70 points total!" (Scoring Example; the bonus values are the ASSUMPTION of barnyard.rules: Goat 6 + Chicken 4)
    """
    table = finished("tommy-score.jsonl")
    assert table.kinds("pen of P1") == Counter(Cow=5, Pig=3, Sheep=2, Goat=5, Chicken=7, Crow=4)
    samantha = table.kinds("pen of P2")
    assert samantha["Cow"] == 5 and samantha["Goat"] < 5 and samantha["Chicken"] < 7
    assert table.sheet("P1") == TOMMY
    assert list(table.sheet("P1")) == SHEET
    assert sum(table.sheet("P1").values()) == 70
    assert table.keys()["P1"] == [70, 22, 4]
    assert table.sheet("P2")["Animal Bonus cards"] == 5  # the Pig bonus only: nobody gets the Cow bonus
    assert table.st.result["winners"] == ["P1"]


def test_tommys_score_with_graded_bonuses_is_still_70() -> None:
    """"Place the 5 Animal Bonus cards in order of value (Cow, Pig, Sheep, Goat, Chicken). [...] He won Animal
    Bonus Cards for having the most Goats and Chickens [...] +10 for 2 Animal Bonus cards" (Set Up; Scoring
    Example; option equal_bonuses = false: Cow 10, Pig 8, Sheep 7, Goat 6, Chicken 4)"""
    table = Table.at("tommy-score", equal_bonuses="false")
    table.done("P3").choose("P3", lay(1, "Chicken", "P1", "Chicken")).let_be("P2")
    table.choose("P1", "That is NOT a Chicken").let_be("P2").done("P3")
    assert table.st.over
    assert table.sheet("P1") == TOMMY
    assert table.sheet("P2")["Animal Bonus cards"] == 8


def test_every_animal_bonus_card_is_worth_five_by_default() -> None:
    """"+10 for 2 Animal Bonus cards" (Scoring Example; ASSUMPTION: 5 each, the only values the book implies)"""
    table = finished("tie-break-points.jsonl")  # P1 the most Cows, P2 the most Goats and Chickens
    assert table.sheet("P1")["Animal Bonus cards"] == 5
    assert table.sheet("P2")["Animal Bonus cards"] == 10


@pytest.mark.parametrize("name, winner, keys", [
    ("tie-break-points.jsonl", "P1", {"P1": [20, 3, 0], "P2": [19, 7, 0]}),
    ("tie-break-animals.jsonl", "P2", {"P1": [15, 2, 0], "P2": [15, 3, 0]}),
    ("tie-break-crows.jsonl", "P1", {"P1": [8, 2, 0], "P2": [8, 2, 1]}),
])
def test_tie_breakers(name: str, winner: str, keys: dict[str, list[int]]) -> None:
    """"Whoever has the most points after adding all this up is the winner. In case of a tie, the player with
    the most Farm Animals is the winner. If there is STILL a tie, whoever has the least amount of Crows is the
    winner." (Scoring)"""
    table = finished(name)
    assert table.st.result["winners"] == [winner]
    got = table.keys()
    assert {p: got[p] for p in keys} == keys
    ranks = {r["player"]: r["rank"] for r in table.st.result["standings"]}
    assert ranks[winner] == 1 and ranks["P1" if winner == "P2" else "P2"] == 2


# ---------------------------------------------------------------------- bluffing
def test_bluff_example_1_john_catches_the_goat() -> None:
    """"Example 1: Bob passes John a face-down Goat and says, "This is a Pig". John says, "That is NOT a Pig!"
    John turns the card over and finds out he was correct, so he places the Goat face-up in front of him, which
    will add toward John's score at the end." (Bluffing Examples)"""
    table = finished("bluff-example-1.jsonl")
    assert table.kinds("pen of P2") == Counter(Goat=1)
    assert table.count("pen of P1") == 0 and table.count("pen of P3") == 0
    assert table.sheet("P2")["Goats"] == 2
    assert table.st.result["winners"] == ["P2"]


def test_bluff_example_2_bob_keeps_the_chickens() -> None:
    """"Example 2: Bob passes John two face-down Chickens and says, "That is two Chickens". John says, "These are
    NOT Chickens!" John turns the cards over and finds out he was incorrect, so Bob places the Chickens face-up in
    front of him, which will add towards Bob's score at the end." (Bluffing Examples)"""
    table = finished("bluff-example-2.jsonl")
    assert table.kinds("pen of P1") == Counter(Chicken=2)
    assert table.count("pen of P2") == 0
    assert table.sheet("P1")["Chickens"] == 2
    assert table.st.result["winners"] == ["P1"]


def test_bluff_example_3_john_gets_the_crows() -> None:
    """"Example 3: Bob passes John four face-down Crows and says, "These are four Sheep". John says, "These are
    Sheep!" John turns the card over and finds out he was incorrect, so he is forced to place the Crows face-up in
    front of him, which will subtract 5 points each from John's score at the end." (Bluffing Examples)"""
    table = finished("bluff-example-3.jsonl")
    assert table.kinds("pen of P2") == Counter(Crow=4)
    assert table.count("pen of P1") == 0
    assert table.sheet("P2")["Crows"] == -20
    assert table.count("held of P2") == 1  # 3 Crows reached: an Action Token


def test_a_caught_crow_bluff_gives_the_crows_back_to_the_bluffer() -> None:
    """"If the person being bluffed guessed correctly [...] they take the Farm Animal card(s), or give the Crow
    card(s) back to the Current Player." (Bluff Animal Cards)"""
    table = Table.at("bluff-example-3")
    table.done("P1").choose("P1", lay(4, "Crow", "P2", "Sheep")).let_be("P3")
    table.choose("P2", "That is NOT a Sheep").let_be("P3")
    assert table.kinds("pen of P1")["Crow"] == 4
    assert table.count("pen of P2") == 0


def test_a_crow_may_not_be_claimed_as_a_crow() -> None:
    """"You can claim them to be any Farm Animal (except Crow) you want [...] You may never pass a card and say
    "This is a Crow"." (Bluff Animal Cards; Crows) The hand-written trace claims Crow: replay rejects it."""
    _table, verdict = replay("claim-crow.jsonl")
    assert verdict.status == "violation"
    assert verdict.step == 2 and verdict.player == "P1"
    assert verdict.event["action"] == lay(4, "Crow", "P2", "Crow")
    assert verdict.reason == f"{lay(4, 'Crow', 'P2', 'Crow')!r} is not one of the choices here"


def test_any_farm_animal_may_be_claimed_whatever_the_cards_are() -> None:
    """"The Current Player then declares the cards to be a set of one of the five Farm Animals (not Crow). [...]
    You are allowed to play multiple cards, but all cards played must match." (Bluff Animal Cards)"""
    table = Table.at("bluff-example-3").done("P1")  # Bob holds 4 Crows, a Cow and a Pig
    who, labels = table.pending()
    assert who == "P1"
    want = {lay(n, k, q, c)
            for k, most in (("Crow", 4), ("Cow", 1), ("Pig", 1)) for n in range(1, most + 1)
            for q in ("P2", "P3") for c in ANIMALS}
    assert set(labels) == want
    assert not any(label.endswith('"These are Crow"') for label in labels)
    with pytest.raises(IllegalAction):
        table.engine.apply(table.st, lay(4, "Crow", "P2", "Crow"))
    with pytest.raises(IllegalAction):  # matching cards only: no Cow with a Pig
        table.engine.apply(table.st, lay(2, "Cow", "P2", "Cow"))
    with pytest.raises(IllegalAction):  # "in front of any other player": not oneself
        table.engine.apply(table.st, lay(1, "Cow", "P1", "Cow"))


# ---------------------------------------------------------------------- Crows
def test_crows_earn_an_action_token_for_each_multiple_of_three() -> None:
    """"Example: Bob, who has 2 Crows, fails a bluff attempt and gains 5 more Crows, bringing his total to 7. Bob
    would get to draw 2 Action Tokens, one for passing the 3-Crow limit in his pen and another for passing the
    6-Crow limit. If he later gained 2 more Crows, bringing his total up to 9, he would draw 1 more Action Token."
    (Crows)"""
    seven = checkpoint("crow-tokens.jsonl", "CHECK 7 Crows")
    assert seven.kinds("pen of P1")["Crow"] == 7
    assert seven.kinds("held of P1") == Counter(ExcuseMe=1, Robber=1)
    assert seven.pending()[0] == "P3"  # no third draw: P3's turn has begun
    table = finished("crow-tokens.jsonl")  # P3 drew the last cards right after the 9th Crow
    assert table.kinds("pen of P1")["Crow"] == 9
    assert table.kinds("held of P1") == Counter(ExcuseMe=1, Robber=2)
    assert table.counter("crow_tokens", "P1") == 3
    assert table.sheet("P1")["Crows"] == -45


def test_seven_crows_at_once_means_exactly_two_draws() -> None:
    """"Bob would get to draw 2 Action Tokens, one for passing the 3-Crow limit in his pen and another for
    passing the 6-Crow limit." (Crows) A third draw, or a single one, is not what the rules ask."""
    table = Table.at("crow-tokens")
    table.done("P2").choose("P2", lay(5, "Crow", "P1", "Cow")).let_be("P3")
    table.choose("P1", "I think that IS a Cow").let_be("P3")
    table.draw("Robber").draw("Robber")
    assert table.pending() == ("P2", ["play no more tokens now"])
    assert table.count("held of P1") == 2


# ---------------------------------------------------------------------- Robber
def test_robber_takes_every_card_of_the_declared_animal_and_the_victim_draws_at_once() -> None:
    """"If the player you have decided to rob has any of those animals they must give them ALL to you. You place
    them in your pen, face-up. [...] Regardless of the outcome, the Robber token is discarded. The player who was
    robbed immediately gets to draw back up to the full hand limit if they lost cards in the exchange." (Robber)
    """
    before = Table.at("robber-animal")
    assert before.count("pool", "Robber") == 2
    table = checkpoint("robber-animal.jsonl", "CHECK robbed")
    assert table.kinds("pen of P1") == Counter(Pig=2)
    hand = table.kinds("hand of P2")
    assert sum(hand.values()) == 6 and hand["Pig"] == 0 and hand["Crow"] == 1  # the Crow stays: Pigs were found
    assert table.count("deck") == 1  # P2 drew 2 of the 3 cards, before P1 bluffs
    assert table.pending() == ("P1", ["play no more tokens now"])
    assert table.count("held of P1") == 0 and table.count("pool", "Robber") == 3
    end = finished("robber-animal.jsonl")
    assert end.kinds("pen of P1") == Counter(Pig=2)
    assert end.kinds("pen of P2") == Counter(Crow=1)  # the Crow left in P2's hand at the end


def test_robber_takes_all_crows_when_the_animal_is_missing() -> None:
    """"If however, the animal of your choice is not in their hand and they have any Crows, you get all their
    Crows instead." (Robber)"""
    table = checkpoint("robber-crows.jsonl", "CHECK robbed")
    assert table.kinds("pen of P1") == Counter(Crow=2)
    hand = table.kinds("hand of P2")
    assert sum(hand.values()) == 6 and hand["Crow"] == 0
    assert table.count("deck") == 1
    assert table.count("held of P1") == 0 and table.count("pool", "Robber") == 3
    end = finished("robber-crows.jsonl")
    assert end.kinds("pen of P1") == Counter(Crow=2, Pig=2)


def test_robber_finds_nothing() -> None:
    """"If they don't have the Farm Animal you declared, and don't have any Crows, no cards are exchanged.
    Regardless of the outcome, the Robber token is discarded." (Robber)"""
    before = Table.at("robber-nothing")
    table = checkpoint("robber-nothing.jsonl", "CHECK robbed")
    assert table.count("pen of P1") == 0
    assert table.ids("hand of P2") == before.ids("hand of P2")
    assert table.count("deck") == 1
    assert table.count("held of P1") == 0 and table.count("pool", "Robber") == 3
    finished("robber-nothing.jsonl")


def test_robber_may_be_played_after_the_bluff() -> None:
    """"Robber: Play this token at any time during your own turn [...] (You may play your Action Tokens before or
    after your bluff, that is up to you.)" (Play Action Tokens; Game Play)"""
    table = Table.at("robber-animal")
    table.done("P1").choose("P1", lay(2, "Cow", "P3", "Cow")).let_be("P2")
    table.choose("P3", "I think that IS a Cow").let_be("P2")
    table.choose("P1", "play Robber on P2, declaring Pig")
    assert table.kinds("pen of P1") == Counter(Pig=2)


# ---------------------------------------------------------------------- Excuse Me
def test_excuse_me_before_the_guess() -> None:
    """"Excuse Me: When you play this token, you interrupt a bluff attempt, say "Excuse Me," and YOU become the
    person who is making the decision about whether the card(s) played are really what the Current Player claims
    them to be. You completely replace the previous person who was making that decision, and possibly gain Farm
    Animals or Crows instead of that player." (Play Action Tokens)"""
    table = checkpoint("excuse-me-before-the-guess.jsonl", "CHECK excused")
    assert table.pending() == ("P3", ["I think that IS a Pig", "That is NOT a Pig"])
    assert table.count("held of P3") == 0 and table.count("pool", "ExcuseMe") == 3
    assert table.kinds("held of P4") == Counter(ExcuseMe=1)
    end = finished("excuse-me-before-the-guess.jsonl")
    assert end.kinds("pen of P3") == Counter(Goat=1)
    assert end.count("pen of P2") == 0


def test_excuse_me_after_the_guess() -> None:
    """"Important: The Excuse Me Token can still be played after the original target has made their guess, but
    must be played before the cards are flipped over." (Play Action Tokens)"""
    table = checkpoint("excuse-me-after-the-guess.jsonl", "CHECK excused")
    assert table.pending() == ("P4", ["I think that IS a Pig", "That is NOT a Pig"])
    assert table.count("laid of P1") == 1  # not flipped yet
    assert table.count("held of P4") == 0 and table.count("pool", "ExcuseMe") == 3
    end = finished("excuse-me-after-the-guess.jsonl")
    assert end.kinds("pen of P4") == Counter(Goat=1)
    assert end.count("pen of P2") == 0  # P2 guessed IS (wrong), but P4 replaced P2


def test_only_one_excuse_me_per_bluff() -> None:
    """"Only one Excuse Me may be played per bluff." (Play Action Tokens) After P3's Excuse Me and guess, P4
    (still holding one) is not asked again, and a trace where P4 says it is rejected."""
    table = Table.at("excuse-me")
    table.done("P1").choose("P1", lay(1, "Goat", "P2", "Pig"))
    assert sorted(table.asked()) == ["P3", "P4"]
    table.answer("P3", "Excuse Me!").answer("P4", "let it be")
    assert table.asked() == []
    table.choose("P3", "That is NOT a Pig")
    assert table.asked() == [] and table.pending() == ("P1", ["play no more tokens now"])  # flipped
    assert table.engine.legal_actions(table.st, 3) == []
    assert table.kinds("held of P4") == Counter(ExcuseMe=1)
    _table, verdict = replay("excuse-me-twice.jsonl")
    assert verdict.status == "violation" and verdict.step == 6 and verdict.player == "P4"
    assert verdict.event["action"] == "Excuse Me!"


def test_two_excuse_me_at_once_only_the_first_counts() -> None:
    """"Only one Excuse Me may be played per bluff." (Play Action Tokens; barnyard.rules ASSUMPTION: the first
    clockwise from the bluffer interrupts, the other keeps the token)"""
    table = Table.at("excuse-me")
    table.done("P1").choose("P1", lay(1, "Goat", "P2", "Pig"))
    table.answer("P4", "Excuse Me!").answer("P3", "Excuse Me!")
    assert table.pending() == ("P3", ["I think that IS a Pig", "That is NOT a Pig"])
    assert table.kinds("held of P4") == Counter(ExcuseMe=1)
    assert table.count("pool", "ExcuseMe") == 3


def test_who_is_asked_for_an_excuse_me_does_not_reveal_secret_tokens() -> None:
    """"Everyone draws a Token, looks at it, and then keeps it secret." (Set Up) Whether P3 and P4 hold an
    Excuse Me or a Robber must not change what P1 and P2 observe while P1's bluff waits to be judged (asking
    only the holders whether to say "Excuse Me!" would show everyone who holds one).
    """
    with_excuse = Table.at("excuse-me")
    pos = copy.deepcopy(position("excuse-me"))
    pos["zones"]["held of P3"] = ["Robber"]
    pos["zones"]["held of P4"] = ["Robber"]
    pos["zones"]["pool"] = ["2 Robber", "4 ExcuseMe", "Scarecrow"]
    with_robbers = Table.at(pos)
    for table in (with_excuse, with_robbers):
        table.done("P1").choose("P1", lay(1, "Goat", "P2", "Pig"))

    def same_for_p1_and_p2() -> None:
        for seat in (0, 1):
            assert with_excuse.engine.observe(with_excuse.st, seat) == \
                with_robbers.engine.observe(with_robbers.st, seat)

    same_for_p1_and_p2()  # before the guess
    for table in (with_excuse, with_robbers):
        table.let_be("P3", "P4").choose("P2", "I think that IS a Pig")
    same_for_p1_and_p2()  # after the guess


def test_being_asked_about_tokens_does_not_reveal_a_robber() -> None:
    """"Everyone draws a Token, looks at it, and then keeps it secret." (Set Up) Whether P1 holds a Robber or an
    Excuse Me must not change what the others observe at P1's "before or after your bluff" token decisions."""
    robber = Table.at("robber-animal")
    pos = copy.deepcopy(position("robber-animal"))
    pos["zones"]["held of P1"] = ["ExcuseMe"]
    pos["zones"]["pool"] = ["3 Robber", "2 ExcuseMe", "Scarecrow"]
    excuse = Table.at(pos)
    assert "play Robber on P2, declaring Pig" in robber.pending()[1]
    assert excuse.pending() == ("P1", ["play no more tokens now"])
    for seat in (1, 2):
        assert robber.engine.observe(robber.st, seat) == excuse.engine.observe(excuse.st, seat)


# ---------------------------------------------------------------------- Scarecrow
def _crows_out(table: Table) -> int:
    return table.count("box", "Crow")


def _crows(table: Table, *players: str) -> dict[str, int]:
    return {p: table.kinds(f"pen of {p}")["Crow"] for p in players}


def lands(player: str) -> str:
    return f"a scared Crow lands in {player}'s pen"


def test_scarecrow_current_player_chooses_where_each_crow_lands() -> None:
    """"It scares away the last 3 Crows in your pen. These 3 Crows land in other player's pens of the current
    player's choice." (Scarecrow; ASSUMPTION: the current player chooses a pen for each Crow, any pen but that of
    the player who drew the Scarecrow; none leaves the game)

    P4 draws the Scarecrow during P1's turn: P1, not P4, chooses, and may choose any pen but P4's (his own too).
    """
    start = Table.at("scarecrow-three-others")
    scared = checkpoint("scarecrow-current-chooses.jsonl", "CHECK scared")
    assert scared.pending() == ("P1", [lands(p) for p in ("P1", "P2", "P3")])
    assert _crows(scared, "P1", "P2", "P3", "P4") == {"P1": 2, "P2": 0, "P3": 0, "P4": 0}
    assert scared.count("scared", "Crow") == 3 and scared.count("pool", "Scarecrow") == 1
    table = finished("scarecrow-current-chooses.jsonl")
    assert _crows(table, "P1", "P2", "P3", "P4") == {"P1": 2, "P2": 2, "P3": 1, "P4": 0}
    assert _crows_out(table) == _crows_out(start)
    assert table.count("scared") == 0 and table.count("held of P4") == 0


def test_scarecrow_all_three_crows_to_one_chosen_player() -> None:
    """"These 3 Crows land in other player's pens of the current player's choice. [...] (If getting a crow from a
    scarecrow action would give you a multiple of 3 crows in your pen, you draw an action token like normal."
    (Scarecrow) P1 draws it himself and puts all 3 Crows in P3's pen: P3 reaches 3 Crows and draws a token."""
    start = Table.at("scarecrow-one-player")
    table = Table.at("scarecrow-one-player")
    table.done("P1").choose("P1", lay(1, "Crow", "P2", "Goat")).let_be("P3")
    table.choose("P2", "That is NOT a Goat").let_be("P3")
    table.draw("Scarecrow")
    assert table.pending() == ("P1", [lands("P2"), lands("P3")])  # not P1's own pen
    end = finished("scarecrow-one-player.jsonl")
    assert _crows(end, "P1", "P2", "P3") == {"P1": 0, "P2": 0, "P3": 3}
    assert end.kinds("held of P3") == Counter(ExcuseMe=1)  # 3 Crows reached
    assert _crows_out(end) == _crows_out(start)
    assert end.count("pool", "Scarecrow") == 1


def test_scarecrow_scares_fewer_crows_from_a_smaller_pen() -> None:
    """"It scares away the last 3 Crows in your pen." (Scarecrow) With 2 Crows, 2 land; P1 is asked twice."""
    pos = copy.deepcopy(position("scarecrow-one-player"))
    pos["zones"]["pen of P1"] = ["2 Crow"]
    pos["zones"]["hand of P1"] = ["Cow", "Pig", "Sheep", "Goat", "2 Chicken"]
    pos["zones"]["hand of P2"] = ["Crow", "Cow", "2 Pig", "2 Sheep"]
    table = Table.at(pos)
    table.done("P1").choose("P1", lay(1, "Cow", "P2", "Cow")).let_be("P3")
    table.choose("P2", "That is NOT a Cow").let_be("P3")  # wrong: P1 keeps the Cow
    table.done("P1")  # P1 draws the last card: the game ends; nothing scared
    assert table.st.over
    # P2 draws the Scarecrow with 2 Crows in pen during P1's turn (reaching 3 from a Crow bluff).
    pos["zones"]["pen of P2"] = ["2 Crow"]
    pos["zones"]["pen of P1"] = []
    pos["zones"]["hand of P1"] = ["Crow", "Cow", "Pig", "Sheep", "Goat", "Chicken"]
    table = Table.at(pos)
    table.done("P1").choose("P1", lay(1, "Crow", "P2", "Goat")).let_be("P3")
    table.choose("P2", "I think that IS a Goat").let_be("P3")
    table.draw("Scarecrow")
    for _ in range(3):
        assert table.pending() == ("P1", [lands("P1"), lands("P3")])
        table.choose("P1", lands("P3"))
    assert _crows(table, "P1", "P2", "P3") == {"P1": 0, "P2": 0, "P3": 3}


def test_scarecrow_split_option_with_two_other_players() -> None:
    """"Crows must be distributed evenly and if there are any left over, they are discarded from the game. [...]
    Make sure to add the scarecrow token back into the mix" (Scarecrow; option scarecrow_split = true: split
    among all the other players)"""
    start = Table.at("scarecrow-two-others")
    table = finished("scarecrow-two-others.jsonl")
    assert read_trace(EXAMPLES / "scarecrow-two-others.jsonl").header["options"] == {"scarecrow_split": True}
    assert _crows(table, "P1", "P2", "P3") == {"P1": 0, "P2": 1, "P3": 1}
    assert _crows_out(table) == _crows_out(start) + 1
    assert table.count("pool", "Scarecrow") == 1 and table.count("held of P1") == 0


def test_scarecrow_split_option_with_three_other_players() -> None:
    """"These 3 Crows land in other player's pens of the current player's choice. Crows must be distributed
    evenly and if there are any left over, they are discarded from the game. (If getting a crow from a scarecrow
    action would give you a multiple of 3 crows in your pen, you draw an action token like normal. [...])"
    (Scarecrow; option scarecrow_split = true)"""
    start = Table.at("scarecrow-three-others")
    table = finished("scarecrow-three-others.jsonl")
    assert _crows(table, "P1", "P2", "P3", "P4") == {"P1": 0, "P2": 1, "P3": 1, "P4": 3}
    assert table.kinds("held of P4") == Counter(Robber=1)
    assert _crows_out(table) == _crows_out(start)
    assert table.count("pool", "Scarecrow") == 1


def test_scarecrow_split_option_loses_every_crow_with_five_players() -> None:
    """"Crows must be distributed evenly and if there are any left over, they are discarded from the game."
    (Scarecrow; option scarecrow_split = true: 3 Crows among 4 others is 0 each, all 3 out)"""
    pos = copy.deepcopy(position("scarecrow-three-others"))
    pos["players"] = 5
    pos["zones"]["hand of P5"] = ["2 Cow", "2 Pig", "Sheep"]
    for p in range(1, 5):
        pos["zones"][f"hand of P{p}"] = pos["zones"][f"hand of P{p}"][:1] + ["Cow", "Pig", "Sheep", "Goat"] \
            if p == 1 else ["2 Cow", "2 Pig", "Sheep"]
    table = Table.at(pos, scarecrow_split="true")
    out = _crows_out(table)
    table.done("P1").choose("P1", lay(1, "Crow", "P2", "Goat")).let_be("P3", "P4", "P5")
    table.choose("P2", "That is NOT a Goat").let_be("P3", "P4", "P5")
    table.draw("Scarecrow")
    assert _crows(table, "P1", "P2", "P3", "P4", "P5") == {"P1": 0, "P2": 0, "P3": 0, "P4": 2, "P5": 0}
    assert _crows_out(table) == out + 3


def test_scarecrow_is_back_in_the_mix_before_its_crows_earn_a_token() -> None:
    """"(If getting a crow from a scarecrow action would give you a multiple of 3 crows in your pen, you draw an
    action token like normal. Make sure to add the scarecrow token back into the mix, you have the possibility of
    drawing it as well!)" (Scarecrow)

    scarecrow-drawn-again.jsonl (option scarecrow_split): P4, reaching 3 Crows from P1's Scarecrow, draws the
    Scarecrow itself.
    """
    table = finished("scarecrow-drawn-again.jsonl")
    assert table.st.over
    assert _crows(table, "P1", "P2", "P3", "P4") == {"P1": 1, "P2": 2, "P3": 2, "P4": 0}
    assert table.count("pool", "Scarecrow") == 1


# ---------------------------------------------------------------------- Crow tokens again
def _two_player_loop_position() -> dict[str, Any]:
    """Two players, both Robbers held: the only token in the middle is the Scarecrow."""
    return {
        "players": 2, "current": "P1",
        "zones": {
            "hand of P1": ["Crow", "Cow", "Pig", "Sheep", "Goat", "Chicken"],
            "hand of P2": ["2 Cow", "2 Pig", "2 Sheep"],
            "held of P1": ["Robber"], "held of P2": ["Robber"],
            "pen of P1": ["2 Crow"], "pen of P2": [],
            "pool": ["Scarecrow"],
            "deck": ["2 Goat", "2 Chicken", "2 Cow"],
        },
    }


def test_two_player_scarecrow_cannot_go_round_forever() -> None:
    """"If getting a crow from a scarecrow action would give you a multiple of 3 crows in your pen, you draw an
    action token like normal. Make sure to add the scarecrow token back into the mix, you have the possibility of
    drawing it as well!" (Scarecrow; ASSUMPTION: each multiple is rewarded at most once per turn per pen)

    With two players and only the Scarecrow in the middle, P1's 3 Crows go to P2, who draws the Scarecrow and
    sends them back; P1, already rewarded for 3 Crows this turn, draws nothing more and the chain stops.
    """
    table = Table.at(_two_player_loop_position(), TWO)
    table.done("P1").choose("P1", lay(1, "Crow", "P2", "Goat"))
    table.choose("P2", "That is NOT a Goat")  # right: the Crow goes back to P1, who reaches 3
    table.draw("Scarecrow")
    for _ in range(3):
        table.choose("P1", lands("P2"))
    table.draw("Scarecrow")  # P2 reaches 3 Crows: the only token is the Scarecrow again
    for _ in range(3):
        table.choose("P1", lands("P1"))
    who, labels = table.pending()
    assert who == "P1" and "play no more tokens now" in labels  # no third draw: back to P1's turn
    assert _crows(table, "P1", "P2") == {"P1": 3, "P2": 0}
    assert table.counter("crow_tokens", "P1") == 1 and table.counter("crow_tokens", "P2") == 1
    table.done("P1")  # end of P1's turn: P2's lost Crows are forgotten
    assert table.counter("crow_tokens", "P2") == 0 and table.counter("crow_tokens", "P1") == 1


def test_a_multiple_of_three_reached_again_earns_another_token() -> None:
    """"Gain 1 Action Token for each multiple of 3 Crows that you reach (3, 6, 9, 12, and 15). [...] (If getting a
    crow from a scarecrow action would give you a multiple of 3 crows in your pen, you draw an action token like
    normal." (Crows; Scarecrow; ASSUMPTION: a pen that lost Crows and reaches the same multiple again on a later
    turn draws again; option crow_tokens_again = false: each multiple once)"""
    for again in (True, False):
        pos = _two_player_loop_position()
        pos["zones"]["pool"] = ["Scarecrow", "2 Robber"]
        pos["zones"]["held of P1"] = []
        pos["zones"]["held of P2"] = []
        pos["zones"]["hand of P2"] = ["3 Crow", "Cow", "2 Pig"]
        table = Table.at(pos, TWO, crow_tokens_again=str(again).lower())
        table.done("P1").choose("P1", lay(1, "Crow", "P2", "Goat"))
        table.choose("P2", "That is NOT a Goat")
        table.draw("Scarecrow")  # P1 reaches 3 Crows, draws the Scarecrow: all 3 go to P2
        for _ in range(3):
            table.choose("P1", lands("P2"))
        table.draw("Robber")  # P2 reaches 3 Crows
        table.done("P1")
        assert _crows(table, "P1", "P2") == {"P1": 0, "P2": 3}
        # P2's turn: P2 passes 3 Crows to P1 as Cows; P1 believes it and takes them: 3 Crows again.
        table.done("P2").choose("P2", lay(3, "Crow", "P1", "Cow"))
        table.choose("P1", "I think that IS a Cow")
        assert _crows(table, "P1", "P2") == {"P1": 3, "P2": 3}
        if again:
            table.draw("Robber")
            assert table.kinds("held of P1") == Counter(Robber=1)
        else:
            assert table.count("held of P1") == 0
        assert table.pending()[0] == "P2"


# ---------------------------------------------------------------------- game end
def test_game_ends_at_the_end_of_the_turn_in_which_a_robbed_player_draws_the_last_card() -> None:
    """"When a player draws the last card from the main deck, the game ends immediately. This may be at the end of
    the Current Player's turn, or the end of a turn during which a player got robbed and drew the last card from
    the deck as part of their compensation. [...] If players have Crows left in their hands, they are added to
    their pens for final scoring [...] All other animals are discarded and not counted in your final score."
    (Game End; ASSUMPTION: the turn is finished first, so P1 still bluffs after the robbery)"""
    bluffed = checkpoint("end-during-robbery.jsonl", "CHECK bluffed")
    assert bluffed.count("deck") == 0 and not bluffed.st.over
    assert bluffed.kinds("pen of P3") == Counter(Crow=1)  # P1's bluff after the robbery was played out
    assert bluffed.pending() == ("P1", ["play no more tokens now"])
    table = finished("end-during-robbery.jsonl")
    assert table.st.turn == 1  # over at the end of P1's turn
    assert table.kinds("pen of P1") == Counter(Pig=2)
    assert table.kinds("pen of P2") == Counter(Crow=1)
    assert table.kinds("pen of P3") == Counter(Crow=3)
    for p in ("P1", "P2", "P3"):
        assert table.count(f"hand of {p}") == 0
    assert table.count("deck") == 0
    assert table.count("held of P3") == 0  # Crows added from hands at the end draw no Action Token
    assert table.keys() == {"P1": [13, 2, 0], "P2": [-5, 0, 1], "P3": [-15, 0, 3]}


def test_robbers_may_still_be_played_after_the_deck_runs_out() -> None:
    """"Robber: Play this token at any time during your own turn [...] The player who was robbed immediately gets
    to draw back up to the full hand limit if they lost cards in the exchange." (Robber; ASSUMPTION: the turn goes
    on after the deck is empty; a robbed player then draws nothing)"""
    pos = copy.deepcopy(position("end-during-robbery"))
    pos["zones"]["held of P1"] = ["2 Robber"]
    pos["zones"]["pool"] = ["Robber", "3 ExcuseMe", "Scarecrow"]
    table = Table.at(pos)
    table.choose("P1", "play Robber on P2, declaring Pig")  # P2 draws the last card
    assert table.count("deck") == 0 and not table.st.over
    table.choose("P1", "play Robber on P3, declaring Goat")
    assert table.kinds("pen of P1") == Counter(Pig=2, Goat=4)
    assert table.kinds("hand of P3") == Counter(Crow=2)  # nothing left to draw
    table.done("P1").choose("P1", lay(2, "Cow", "P2", "Cow")).let_be("P3")
    table.choose("P2", "That is NOT a Cow").let_be("P3").done("P1")
    assert table.st.over and table.kinds("pen of P1") == Counter(Pig=2, Goat=4, Cow=2, Crow=1)  # his Crow in hand


def test_game_ends_when_the_current_player_draws_the_last_card() -> None:
    """"When a player draws the last card from the main deck, the game ends immediately. This may be at the end of
    the Current Player's turn" (Game End)"""
    table = Table.at("bluff-example-1")
    table.done("P1").choose("P1", lay(1, "Goat", "P2", "Pig")).let_be("P3")
    table.choose("P2", "That is NOT a Pig").let_be("P3").done("P1")
    assert table.st.over and table.count("deck") == 0


# ---------------------------------------------------------------------- setup
def _set_up(game: str, players: int, seed: int) -> Table:
    """A game after setup: chance from a seeded stream until the first player's first choice."""
    engine = engine_for(game)
    st = engine.new_state(players)
    rng = Rng(seed, stream=0)
    while engine.is_chance(st):
        engine.apply_random(st, rng, events=False)
    assert st.turn == 1 and st.step > 0
    return Table(engine, st)


def _cards(table: Table, zone: str) -> int:
    kinds = table.kinds(zone)
    return sum(kinds[k] for k in CARDS)


@pytest.mark.parametrize("game, players", [(BASE, n) for n in range(2, 7)] + [(TWO, 2)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup(game: str, players: int, seed: int) -> None:
    """"Place 1 Robber and 1 Excuse Me Token in the middle of the table, face-down, for each player in the game
    and mix them up. [...] Everyone draws a Token, looks at it, and then keeps it secret. Now add the Scarecrow
    Token, face-down, to the tokens in the middle and mix them up. Shuffle the Farm Animal deck and deal out cards
    according to the number of players: 6 cards to each player for a 2-4 player game 5 cards to each player for a
    5-6 player game. Remove 8 random cards from the deck and return them to the box." (Set Up) "Two Player
    Variant: Remove "Excuse Me" tokens and randomly discard 20 cards from the deck instead of 8."
    """
    table = _set_up(game, players, seed)
    two = game == TWO
    hand = 6 if players <= 4 else 5
    for p in range(1, players + 1):
        assert _cards(table, f"hand of P{p}") == table.count(f"hand of P{p}") == hand
        held = table.kinds(f"held of P{p}")
        assert sum(held.values()) == 1 and held["Scarecrow"] == 0
        assert table.count(f"pen of P{p}") == 0 and table.count(f"laid of P{p}") == 0
    removed = 20 if two else 8
    assert _cards(table, "box") == removed
    assert table.count("deck") == 90 - players * hand - removed
    robbers, excuses = players, 0 if two else players
    in_play = Counter()
    for zone in ["pool"] + [f"held of P{p}" for p in range(1, players + 1)]:
        in_play += table.kinds(zone)
    assert in_play == Counter({"Robber": robbers, "ExcuseMe": excuses, "Scarecrow": 1}) - Counter()
    assert table.count("pool", "Scarecrow") == 1
    assert table.kinds("box")["Robber"] == 6 - robbers and table.kinds("box")["ExcuseMe"] == 6 - excuses
    assert table.counter("hand_limit") == hand


def test_two_player_variant_has_no_excuse_me_and_plays_as_normal() -> None:
    """"Two Player Variant: Remove "Excuse Me" tokens and randomly discard 20 cards from the deck instead of 8.
    Play the rest as normal!" (Two Player Variant)"""
    engine = engine_for(TWO)
    assert engine.model.min_players == engine.model.max_players == 2
    table = _set_up(TWO, 2, 5)
    assert all(table.kinds(z)["ExcuseMe"] == 0 for z in ("pool", "held of P1", "held of P2"))
    assert table.kinds("box")["ExcuseMe"] == 6


# ---------------------------------------------------------------------- hidden information
def test_hands_tokens_and_laid_cards_are_hidden_from_the_other_players() -> None:
    """"Everyone draws a Token, looks at it, and then keeps it secret. [...] The Current Player takes any amount
    of matching Farm Animal Cards or Crows from their hand and places it face down in front of any other player
    [...] When you receive cards from a bluff attempt [...] place them in front of you on the table, face-up, for
    everyone to see." (Set Up; Bluff Animal Cards)"""
    table = Table.at("excuse-me")
    table.done("P1").choose("P1", lay(1, "Goat", "P2", "Pig"))
    own = table.engine.observe(table.st, 0)["zones"]
    assert own["laid of P1"] == [label for label in own["laid of P1"] if label.startswith("Goat")] != []
    assert isinstance(own["hand of P1"], list) and len(own["hand of P1"]) == 5
    for seat in (1, 2, 3):
        zones = table.engine.observe(table.st, seat)["zones"]
        assert zones["laid of P1"] == {"hidden": 1}
        assert zones["hand of P1"] == {"hidden": 5}
        assert zones["held of P1"] == {"hidden": 0}
        me = f"P{seat + 1}"
        for other in ("P1", "P2", "P3", "P4"):
            if other != me:
                assert isinstance(zones[f"hand of {other}"], dict)
                assert isinstance(zones[f"held of {other}"], dict)
        assert isinstance(zones[f"hand of {me}"], list) and isinstance(zones[f"held of {me}"], list)
        assert isinstance(zones["pen of P1"], list)  # pens are face up
        assert zones["deck"] == {"hidden": 2} and isinstance(zones["pool"], dict)
    spectator = table.engine.observe(table.st, None)["zones"]
    assert all(isinstance(spectator[f"{z} of P{p}"], dict) for z in ("hand", "held", "laid") for p in range(1, 5))


def invoke(*args: Any):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_view_shows_another_players_laid_cards_as_hidden(tmp_path: Path) -> None:
    """"places it face down in front of any other player they choose. The Current Player then declares the cards
    to be a set of one of the five Farm Animals" (Bluff Animal Cards): others hear the claim, not the cards."""
    trace = EXAMPLES / "bluff-example-1.jsonl"
    john = invoke("replay", trace, "--view", "P2", "--redacted", tmp_path / "p2.jsonl")
    assert john.exit_code == 0, john.output
    assert f"P1 chooses: {lay(1, '(hidden)', 'P2', 'Pig')}" in john.output
    assert "lay 1 Goat" not in john.output
    bob = invoke("replay", trace, "--view", "P1")
    assert f"P1 chooses: {lay(1, 'Goat', 'P2', 'Pig')}" in bob.output
    redacted = [json.loads(line) for line in (tmp_path / "p2.jsonl").read_text(encoding="utf-8").splitlines()]
    actions = [e["action"] for e in redacted if e.get("type") == "action"]
    assert lay(1, "(hidden)", "P2", "Pig") in actions and lay(1, "Goat", "P2", "Pig") not in actions
    head = next(e for e in redacted if e.get("type") == "header")
    assert isinstance(head["position"]["zones"]["hand of P1"], dict)  # Bob's hand, with the Goat, is not shown
    assert head["position"]["zones"]["hand of P2"] == ["2 Cow", "2 Pig", "2 Sheep"]
    # A random game seen by P3: no other player's laid kinds appear anywhere.
    run = invoke("run", BASE, "--seed", 2, "--view", "P3")
    assert run.exit_code == 0, run.output
    lays = [line for line in run.output.splitlines() if " chooses: lay " in line]
    assert lays
    for line in lays:
        if line.strip().startswith("P3 "):
            assert "(hidden)" not in line
        else:
            assert " (hidden) face down" in line, line


def test_redacted_header_counts_the_hidden_cards(tmp_path: Path) -> None:
    """"6 cards to each player for a 2-4 player game" (Set Up): how many cards each hand holds is no secret (the
    observations show it as {"hidden": 6}), and a redacted trace's header must say the same, not how many entries
    the position file happened to use to list them (["Goat", "Cow", "Pig", "Sheep", "2 Chicken"] is 6 cards).

    Fails with rulelang/trace/replay.py as written: redacted_header() writes {"hidden": len(items)}.
    """
    trace = EXAMPLES / "bluff-example-1.jsonl"
    result = invoke("replay", trace, "--view", "P2", "--redacted", tmp_path / "p2.jsonl")
    assert result.exit_code == 0, result.output
    head = json.loads((tmp_path / "p2.jsonl").read_text(encoding="utf-8").splitlines()[0])
    table = Table.at("bluff-example-1")
    observed = table.engine.observe(table.st, 1)["zones"]
    for zone in ("hand of P1", "hand of P3", "deck", "held of P1"):
        assert head["position"]["zones"][zone] == observed[zone], zone
    assert head["position"]["zones"]["hand of P1"] == {"hidden": 6}


def test_narration_says_who_takes_the_crows_before_the_scarecrow_moves_them() -> None:
    """"he is forced to place the Crows face-up in front of him [...] The Scarecrow Token is used immediately when
    drawn" (Bluffing Examples; Scarecrow): the play-by-play tells who takes the Crows first, then the token they
    earn and the Scarecrow, never "P4 takes the Crows." after the Scarecrow has scared them away."""
    result = invoke("replay", EXAMPLES / "scarecrow-current-chooses.jsonl", "--view", "P2")
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    takes = lines.index("P4 takes the Crows.")
    assert takes < lines.index("P4 draws an Action Token.") < lines.index("P4 draws the Scarecrow!")
    assert lines[takes + 1:].count("P1 chooses: a scared Crow lands in P2's pen") == 2


def test_excuse_me_scripted_with_rulelang_testing() -> None:
    """"When you play this token, you interrupt a bluff attempt, say "Excuse Me," and YOU become the person who is
    making the decision [...] and possibly gain Farm Animals or Crows instead of that player." (Play Action Tokens)
    Played by hand with the public helper (rulelang.testing.Script, docs/testing.md) from the worked example's
    position: P3's Excuse Me replaces P2, P3 judges right and takes the Goat, and the token goes back to the middle."""
    from rulelang.testing import Script

    s = Script(BASE, position=EXAMPLES / "excuse-me.position.json")
    s.choose("play no more tokens now", by="P1").choose(lay(1, "Goat", "P2", "Pig"), by="P1")
    assert s.pending() == "ask" and s.legal("P3") == ["Excuse Me!", "let it be"]
    s.answer({"P4": "let it be", "P3": "Excuse Me!"})  # in any order
    s.choose("That is NOT a Pig", by="P3")
    assert s.kinds("pen of P3") == ["Goat"] and s.zone("pen of P2") == []
    assert s.kinds("held of P3") == [] and s.kinds("pool").count("ExcuseMe") == 3
    assert s.told()[1:] == [
        '  P1 chooses: lay 1 Goat face down before P2: "These are Pig"',
        "  (answered at once) P3: Excuse Me!, P4: let it be",  # the answers are revealed together
        '  P3: "Excuse Me!" P3 decides instead.',
        "  P3 chooses: That is NOT a Pig",
        "  Flipped: 1 Goat. P3 judged right.",
        "  P3 takes the Goat.",
    ]
