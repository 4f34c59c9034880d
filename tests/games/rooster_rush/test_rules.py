"""Rooster Rush (games/rooster-rush.rules) against its rulebook.

Each test's docstring quotes the passage of shared/rulebooks/rooster-rush.txt it checks.
The worked examples in examples/rooster-rush/ (a position and a trace from it) play the
passages out to a result; the tests replay them (to the end, or up to a ``// CHECK``
comment to look at the table there) and script more rounds by hand from positions.
The readings are docs/rulebooks/rooster-rush.md's.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from example_support import Examples, ExampleTable, game_engine, random_action, rulebook_text

from rulelang.engine.engine import Engine, IllegalAction
from rulelang.rng import Rng
from rulelang.trace.replay import replay_file

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "rooster-rush"
GAME = "games/rooster-rush.rules"
ROAD = [f"Road{n}" for n in range(1, 41)]
CHIPS = ["FireTruckChip", "AmbulanceChip", "PoliceCarChip", "TaxiChip", "GrandmaChip"]
EARLY = " while the chips spin"
WAIT = "wait until the chips stop"
NOTHING = "secure nothing"

pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def engine_for(**options: str) -> Engine:
    return game_engine(GAME, **options)


def card(n: int) -> str:
    """The name a label gives road card ``n``: ``card 12 (3 points: Fire Truck, Police Car)``."""
    return next(k.display for k in engine_for().model.kinds if k.name == f"Road{n}")


class Table(ExampleTable):
    """A game of Rooster Rush with readable accessors and helpers that check what is pending."""

    @classmethod
    def at(cls, position: dict[str, Any], **options: str) -> Table:
        engine = engine_for(**options)
        return cls(engine, engine.new_state(position["players"], position=position))

    def names(self, zone: str) -> list[str]:
        kinds = self.engine.model.kinds
        return [kinds[self.engine.program.kind_of[c]].name for c in self.ids(zone)]

    def side(self, chip: str) -> str | None:
        f = self.st.faces[self.engine.program.component_labels.index(chip)]
        return None if f < 0 else self.engine.model.faces[f].name

    def counter(self, name: str) -> Any:
        c = next(c for c in self.engine.model.counters if c.name == name)
        return self.st.counters[c.index]

    def points(self, player: str) -> int:
        return sum(int(card_points(n)) for n in self.names(f"kept of {player}"))

    def answer(self, player: str, action: str) -> None:
        self.engine.apply(self.st, action, player=int(player[1:]) - 1)

    def answers(self, **by_player: str) -> None:
        for player, action in by_player.items():
            self.answer(player, action)

    def chance(self, outcome: Any) -> None:
        d = self.engine.pending(self.st)
        assert d is not None and d.kind == "chance", d
        self.engine.apply(self.st, outcome)


def started(engine: Engine, players: int, seed: int = 1) -> Any:
    """A new game with its setup's shuffle made, at the round's first decision."""
    st = engine.new_state(players)
    rng = Rng(seed, 0)
    while (d := engine.pending(st)) is not None and d.kind == "chance":
        engine.apply(st, d.sample(rng))
    return st


def card_points(name: str) -> int:
    return engine_for().model.kinds[[k.name for k in engine_for().model.kinds].index(name)].values["points"]


def seen(name: str, marker: str | None = None) -> Table:
    examples = Examples(EXAMPLES, Table)
    if marker is None:
        return examples.finished(f"{name}.jsonl")
    return examples.checkpoint(f"{name}.jsonl", marker)


def position(players: int, pile: list[str], **extra: Any) -> dict[str, Any]:
    pos: dict[str, Any] = {"players": players, "zones": {"pile": pile}}
    zones = extra.pop("zones", {})
    pos["zones"].update(zones)
    pos.update(extra)
    return pos


# ---------------------------------------------------------------------- the book's words


def test_the_quoted_passages_are_the_rulebooks() -> None:
    text = " ".join(rulebook_text("rooster-rush.txt").split())
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        quote = json.loads(path.read_text(encoding="utf-8").splitlines()[0][3:])
        for part in quote.split(" [...] "):
            assert part in text, (path.name, part)


@pytest.mark.parametrize("name, winners", [
    ("chips-example", ["P1"]), ("successful-crossing", ["P2"]), ("failed-crossing", ["P1"]),
    ("push-button-all-failed", ["P3"]), ("push-button-one-success", ["P1"]), ("race-early-beats-late", ["P2"]),
    ("drop-out", ["P1"]), ("last-player-standing", ["P1"]), ("tie-continues", ["P1"]),
])
def test_every_worked_example_replays_to_its_result(name: str, winners: list[str]) -> None:
    verdict = replay_file(EXAMPLES / f"{name}.jsonl")
    assert verdict.status == "compliant", f"{verdict.message}: {verdict.reason}"
    assert verdict.result is not None and verdict.result["winners"] == winners


# ---------------------------------------------------------------------- Components and Setup


def test_components_and_setup() -> None:
    """5 Vehicle chips [...] 1 Push-button card [...] 40 Road cards. Front: a crosswalk, with points of 2 to 4 [...]
    Place the push-button card in the center of the table. Shuffle the road cards well and place them face down
    beside the push-button card as a draw pile. Place the 5 vehicle chips vehicle-side up near the draw pile."""
    engine = engine_for()
    kinds = {k.name: k for k in engine.model.kinds}
    assert sorted(k for k in kinds if k.startswith("Road")) == sorted(ROAD)
    assert sorted(kinds[r].values["points"] for r in ROAD) == [2] * 10 + [3] * 20 + [4] * 10
    backs = Counter(kinds[r].values["back"] for r in ROAD)
    assert backs == {"red light": 5, "Fire Truck": 7, "Ambulance": 7, "Police Car": 7, "Taxi": 7, "Grandma": 7}
    st = engine.new_state(4)
    table = Table(engine, st)
    assert table.names("button") == ["PushButton"]
    d = engine.pending(st)
    assert d is not None and d.event == {"shuffle": "pile"} and sorted(d.pool or []) == sorted(ROAD)
    obs = engine.observe(st, 0)
    assert obs["zones"]["pile"] == {"hidden": 40}  # face down: nobody sees a card of the pile
    engine.apply(st, d.sample(Rng(3, 0)))  # the shuffle; then setup places the chips and round 1 starts
    assert sorted(table.names("chips") + table.names("spinning")) == sorted(CHIPS)
    assert all(table.side(c) == "VehicleSide" for c in table.names("chips"))


def test_a_chip_has_two_sides_each_landing_half_the_time() -> None:
    """Front (vehicle side): Fire Truck, Ambulance, Police Car, Taxi, and Grandma (5 types). Back (crosswalk side):
    all five show a crosswalk."""
    table = Table.at(position(3, ["Road9", "Road1", "Road13"]))
    table.answers(P1=WAIT, P2=WAIT, P3=WAIT)
    d = table.engine.pending(table.st)
    assert d is not None and d.event == {"roll": "FireTruckChip"}
    assert dict(zip(d.labels or [], d.probabilities())) == {"VehicleSide": Fraction(1, 2), "Crosswalk": Fraction(1, 2)}


# ---------------------------------------------------------------------- Step 1


@pytest.mark.parametrize("players, laid", [(3, 3), (4, 4), (5, 4), (6, 4)])
def test_cards_laid_by_player_count(players: int, laid: int) -> None:
    """3 players: 3 cards - 4 to 6 players: 4 cards"""
    engine = engine_for()
    st = started(engine, players)
    table = Table(engine, st)
    assert len(table.ids("shown")) == laid and len(table.ids("pile")) == 40 - laid


def test_the_number_of_cards_does_not_change_after_a_drop_out() -> None:
    """In this game a player may drop out during play. Even then, the number of cards drawn from the draw pile does
    not change until the game ends."""
    table = Table.at(position(4, ["Road5", "Road6", "Road7", "Road8", "Road9", "Road1", "Road2", "Road3"],
                              out={"P4": 1}, zones={"tickets of P4": ["Road20", "Road21", "Road22"]}))
    assert len(table.ids("shown")) == 4  # 3 players left, but the game started with 4


def test_an_empty_pile_ends_the_game_with_the_most_points_winning() -> None:
    """ASSUMPTION (docs/rulebooks/rooster-rush.md): if the pile is empty, the game ends and the player(s) still in with
    the most points win."""
    table = Table.at(position(3, ["Road1", "Road2", "Road3"], zones={"kept of P2": ["Road31"]}))
    table.answers(P1=f"press {card(3)}{EARLY}", P2=f"press {card(2)}{EARLY}", P3=f"press {card(1)}{EARLY}")
    table.chance("Crosswalk")  # card 2's back: Fire Truck; card 3's: Ambulance
    table.chance("Crosswalk")
    assert table.st.over and table.st.result is not None
    assert table.st.result["winners"] == ["P2"]  # 4 + 2 points


# ---------------------------------------------------------------------- Step 2


def test_the_books_chip_example() -> None:
    """Example: the four road cards laid out show Fire Truck, Police Car, Taxi and Fire Truck. That is 3 vehicle types,
    so the chips handed out are Fire Truck, Police Car and Taxi (3 chips). The remaining 2 vehicle chips are not used
    this round."""
    table = seen("chips-example", "CHECK chips")
    assert [table.engine.model.kinds[table.engine.program.kind_of[c]].values["back"] for c in table.ids("shown")] == \
        ["Fire Truck", "Police Car", "Taxi", "Fire Truck"]
    assert table.names("spinning") == ["FireTruckChip", "PoliceCarChip", "TaxiChip"]
    assert table.names("chips") == ["AmbulanceChip", "GrandmaChip"]
    assert all(table.side(c) is None for c in ("FireTruckChip", "PoliceCarChip", "TaxiChip"))  # spinning


def test_red_light_backs_give_no_chip_and_every_crossing_succeeds() -> None:
    """Back: a red light or one of the 5 vehicle types. [...] Vehicle chips that do not match are not used until the
    next round. ASSUMPTION (docs/rulebooks/rooster-rush.md): with no chip in use nothing spins, so nobody waits for
    chips to stop: every player presses at once."""
    engine = engine_for()
    table = Table(engine, engine.new_state(3, position=position(3, ["Road9", "Road1", "Road17"]), narrate=True))
    assert table.names("spinning") == [] and table.names("chips") == CHIPS
    assert table.asked() == ["P1", "P2", "P3"]
    assert table.engine.legal_actions(table.st, 0) == [f"press {card(17)}", f"press {card(1)}", f"press {card(9)}",
                                                        "press the push-button card", NOTHING]
    table.answers(P1=f"press {card(17)}", P2=f"press {card(1)}", P3=f"press {card(9)}")
    assert [table.names(f"kept of P{n}") for n in (1, 2, 3)] == [["Road17"], ["Road1"], ["Road9"]]
    said = [e["text"] for e in table.st.log or [] if e["type"] == "say"]
    assert "No vehicle chip is used: nothing spins." in said and not any("chips spin" in t for t in said)


def test_chips_go_to_players_still_in_from_p1_then_to_those_out() -> None:
    """If there are fewer vehicle chips in use than there are players, the players decide among themselves who receives
    a vehicle chip. [...] A player who has dropped out [...] may still spin the vehicle chips."""
    engine = engine_for()
    pos = position(3, ["Road7", "Road8", "Road6"], out={"P1": 1},
                   zones={"tickets of P1": ["Road20", "Road21", "Road22"]})
    st = engine.new_state(3, position=pos, narrate=True)
    said = [e["text"] for e in st.log or [] if e["type"] == "say"]
    # backs: card 6 Grandma, card 8 Ambulance, card 7 Fire Truck -> chips Fire Truck, Ambulance, Grandma
    assert [s for s in said if "receives" in s] == [
        "P2 receives the Fire Truck chip.", "P3 receives the Ambulance chip.", "P1 receives the Grandma chip."]


# ---------------------------------------------------------------------- Steps 3 and 4


def test_the_cards_are_turned_face_up_and_the_chips_spin_unseen() -> None:
    """Any player turns over all the face-down road cards so that they are face up. [...] every player who received a
    vehicle chip flicks it with a finger and spins it, all at the same time."""
    table = Table.at(position(3, ["Road9", "Road1", "Road13"]))
    obs = table.engine.observe(table.st, 1)
    assert obs["zones"]["shown"] == ["Road13", "Road1", "Road9"]  # fronts public
    assert obs["zones"]["laid"] == {"hidden": 0}
    assert obs["zones"]["spinning"] == ["FireTruckChip"]  # spinning: no side shows yet
    assert obs["legal_actions"] == [f"press {card(13)}{EARLY}", f"press {card(1)}{EARLY}", f"press {card(9)}{EARLY}",
                                    f"press the push-button card{EARLY}", WAIT]


# ---------------------------------------------------------------------- Step 5: the race


def test_a_card_pressed_by_several_goes_to_one_of_them_by_chance() -> None:
    """Cards are secured by pressing them down with the hand, quickly, like the card game karuta. The first player to
    press takes the card."""
    table = seen("race-early-beats-late", "CHECK card 17")
    assert table.names("secured of P2") == ["Road17"]
    assert table.names("secured of P1") == []
    assert table.asked() == ["P1", "P3"]  # P1 lost the early press: she presses again, late
    assert table.engine.legal_actions(table.st, 0) == [f"press {card(1)}", f"press {card(4)}",
                                                        "press the push-button card", NOTHING]


def test_an_early_press_beats_every_late_one() -> None:
    """You may wait until the vehicle chips have stopped spinning before deciding [...] However, waiting too long makes
    it hard to win the game. [...] A card that another player has already secured cannot be secured afterwards."""
    table = Table.at(position(3, ["Road9", "Road1", "Road13"]))
    table.answers(P1=f"press {card(13)}{EARLY}", P2=WAIT, P3=WAIT)
    table.chance("Crosswalk")
    assert f"press {card(13)}" not in table.engine.legal_actions(table.st, 1)
    with pytest.raises(IllegalAction):
        table.answer("P2", f"press {card(13)}")
    verdict = replay_file(EXAMPLES / "race-late-beats-early.jsonl")
    assert verdict.status == "violation" and verdict.step == 5  # after the chips stopped (step 4)
    assert "is not an answer P2 may give here" in (verdict.reason or "")


def test_replay_rejects_a_first_press_by_a_player_who_never_pressed() -> None:
    """The first player to press takes the card."""
    verdict = replay_file(EXAMPLES / "race-winner-never-claimed.jsonl")
    assert verdict.status == "violation" and verdict.step == 4
    assert verdict.reason == "'P3' is not among the players this picks from (P1, P2)"


def test_replay_rejects_a_press_by_a_player_who_dropped_out() -> None:
    """A player who has dropped out can no longer take part in the game"""
    verdict = replay_file(EXAMPLES / "race-out-player-presses.jsonl")
    assert verdict.status == "violation" and verdict.step == 2
    assert (verdict.reason or "").startswith("P3 is out of the game (since round 2)")


def test_choosing_not_to_secure_anything_is_final() -> None:
    """It is also fine to choose not to secure anything."""
    table = Table.at(position(3, ["Road9", "Road1", "Road13"]))
    table.answers(P1=f"press {card(13)}{EARLY}", P2=f"press {card(13)}{EARLY}", P3=WAIT)
    table.chance("P1")
    table.chance("Crosswalk")
    table.answers(P2=f"press {card(1)}", P3=f"press {card(1)}")
    table.chance("P3")
    # P2 lost twice and presses again; P3 holds card 1; P1 card 13
    assert table.asked() == ["P2"]
    table.answer("P2", NOTHING)
    assert table.names("secured of P2") == [] and table.names("shown") == ["Road9"]


def test_early_retry_lets_the_losers_press_again_before_the_chips_stop() -> None:
    """Option early_retry (docs/rulebooks/rooster-rush.md): the losers of an early conflict press again while the chips
    still spin."""
    table = Table.at(position(3, ["Road9", "Road1", "Road13"]), early_retry="true")
    table.answers(P1=f"press {card(13)}{EARLY}", P2=f"press {card(13)}{EARLY}", P3=WAIT)
    table.chance("P2")
    assert table.asked() == ["P1"]
    assert f"press {card(1)}{EARLY}" in table.engine.legal_actions(table.st, 0)
    table.answer("P1", f"press {card(1)}{EARLY}")
    d = table.engine.pending(table.st)
    assert d is not None and d.event == {"roll": "FireTruckChip"}  # only now the chips stop
    default = Table.at(position(3, ["Road9", "Road1", "Road13"]))
    default.answers(P1=f"press {card(13)}{EARLY}", P2=f"press {card(13)}{EARLY}", P3=WAIT)
    default.chance("P2")
    d = default.engine.pending(default.st)
    assert d is not None and d.event == {"roll": "FireTruckChip"}  # by default: the chips stop first


# ---------------------------------------------------------------------- Step 6


def test_a_successful_crossing_is_kept_for_its_points() -> None:
    """If none of the vehicles drawn on the secured road card matches any of the vehicles on the face-up stopped
    vehicle chips, the crossing is successful. [...] Keep the road card face up in front of you and gain the points"""
    table = seen("successful-crossing", "CHECK P2 keeps card 18")
    assert table.names("kept of P2") == ["Road18", "Road31", "Road32"]
    assert table.points("P2") == 11 and not table.st.over  # not more than 11


def test_every_vehicle_drawn_on_the_card_is_judged() -> None:
    """If even one of the vehicles drawn on the secured road card matches one of the face-up stopped vehicle chips,
    the crossing has failed. [...] The vehicles drawn on road cards (Fire Truck, Ambulance, Police Car, Taxi, Grandma)
    are all judged"""
    table = Table.at(position(3, ["Road9", "Road1", "Road40"]))  # card 40's back: Grandma; cards 1 and 9: red lights
    assert table.names("spinning") == ["GrandmaChip"]
    table.answers(P1=f"press {card(40)}{EARLY}", P2=WAIT, P3=WAIT)
    table.chance("VehicleSide")  # only the Grandma shows: the third of card 40's vehicles
    table.answers(P2=NOTHING, P3=NOTHING)
    assert table.names("tickets of P1") == ["Road40"] and table.names("kept of P1") == []


def test_the_vehicle_on_a_cards_back_is_not_judged() -> None:
    """ASSUMPTION (docs/rulebooks/rooster-rush.md): the vehicles judged are those drawn on the card's front; its back
    only says which chips are handed out."""
    table = Table.at(position(3, ["Road9", "Road1", "Road2"]))  # card 2: Ambulance drawn, Fire Truck on its back
    table.answers(P1=f"press {card(2)}{EARLY}", P2=WAIT, P3=WAIT)
    table.chance("VehicleSide")  # the Fire Truck shows
    table.answers(P2=NOTHING, P3=NOTHING)
    assert table.names("kept of P1") == ["Road2"] and table.names("tickets of P1") == []


def test_a_failed_crossing_becomes_a_violation_ticket() -> None:
    """If even one of the vehicles drawn on the secured road card matches one of the face-up stopped vehicle chips,
    the crossing has failed. Turn the secured road card face down [...] It becomes a Violation Ticket and you do not
    gain any points."""
    table = seen("failed-crossing")
    assert table.names("tickets of P3") == ["Road16"] and table.names("kept of P3") == []
    obs = table.engine.observe(table.st, 0)
    assert obs["zones"]["tickets of P3"] == {"hidden": 1}  # face down: the others see how many
    assert table.engine.observe(table.st, 2)["zones"]["tickets of P3"] == ["Road16"]


def test_the_push_button_discards_a_ticket_when_every_card_failed() -> None:
    """If all the road cards that were turned face up were failed crossings (check the road cards that no player
    secured as well), the player who secured the push-button card may discard one Violation Ticket"""
    table = seen("push-button-all-failed", "CHECK P2 holds no ticket")
    assert table.names("tickets of P2") == []
    assert table.names("tickets of P1") == ["Road13"]
    assert sorted(table.names("returning")) == ["Road16", "Road20", "Road24"]  # to be shuffled under the pile
    assert table.names("button") == ["PushButton"]  # "Leave the push-button card on the table"


def test_the_push_button_does_nothing_when_a_crossing_succeeded() -> None:
    """If even one road card is a successful crossing, nothing happens for the player who secured the push-button card.
    They gain no points and receive no Violation Ticket."""
    table = seen("push-button-one-success")
    assert table.names("tickets of P2") == ["Road20"] and table.names("kept of P2") == []


@pytest.mark.parametrize("unsecured, discards", [("Road2", False), ("Road1", True)])
def test_the_push_button_checks_the_road_cards_no_player_secured(unsecured: str, discards: bool) -> None:
    """If all the road cards that were turned face up were failed crossings (check the road cards that no player
    secured as well) [...] If even one road card is a successful crossing, nothing happens for the player who
    secured the push-button card."""
    engine = engine_for()
    pos = position(3, [unsecured, "Road24", "Road13"], zones={"tickets of P2": ["Road20"]})
    table = Table(engine, engine.new_state(3, position=pos, narrate=True))
    assert table.names("spinning") == ["FireTruckChip"]  # every back laid: Fire Truck
    table.answers(P1=f"press {card(13)}{EARLY}", P2=f"press the push-button card{EARLY}", P3=f"press {card(24)}{EARLY}")
    table.chance("VehicleSide")  # cards 13 and 24 fail; card 2 (an Ambulance) crosses, card 1 (a Fire Truck) fails
    if discards:
        d = table.engine.pending(table.st)
        assert d is not None and d.kind == "choice" and d.player == 1  # P2 chooses the ticket
        table.answer("P2", f"discard {card(20)}")
    assert table.names("tickets of P2") == ([] if discards else ["Road20"])
    assert table.names("tickets of P1") == ["Road13"] and table.names("tickets of P3") == ["Road24"]
    said = [e["text"] for e in table.st.log or [] if e["type"] == "say"]
    assert ("P2 holds the push button, but a road card laid was a successful crossing: nothing happens."
            in said) == (not discards)  # card 2, which nobody secured
    # the book's order: the secured road cards are checked first, then the push-button card
    crossings = [i for i, t in enumerate(said) if "fails to cross" in t]
    button = [i for i, t in enumerate(said) if "push button" in t or "discards" in t]
    assert len(crossings) == 2 and len(button) == 1 and max(crossings) < button[0]


def test_the_push_button_with_no_ticket_does_nothing() -> None:
    """If they have no Violation Ticket, nothing happens."""
    engine = engine_for()
    st = engine.new_state(3, position=position(3, ["Road24", "Road16", "Road13"]), narrate=True)
    table = Table(engine, st)
    table.answers(P1=WAIT, P2=f"press the push-button card{EARLY}", P3=WAIT)
    table.chance("VehicleSide")
    table.chance("VehicleSide")
    table.answers(P1=NOTHING, P3=NOTHING)
    said = [e["text"] for e in st.log or [] if e["type"] == "say"]
    assert "Every crossing failed, but P2 has no Violation Ticket: nothing happens." in said


# ---------------------------------------------------------------------- Step 7


def test_three_tickets_drop_a_player_out() -> None:
    """At this point, any player holding 3 Violation Tickets drops out of the game."""
    table = seen("drop-out")
    assert table.st.out == [0, 0, 0, 1]
    assert table.names("tickets of P4") == ["Road16", "Road20", "Road27"]
    assert table.st.result is not None and table.st.result["standings"][-1]["player"] == "P4"


def test_the_last_player_standing_wins_whatever_the_points() -> None:
    """If all players except one have dropped out, the remaining player wins the game. The points they have gained do
    not matter; they crossed the road safely."""
    table = seen("last-player-standing")
    assert table.st.out == [0, 4, 1]
    assert table.points("P1") < table.points("P3")
    assert table.st.result is not None and table.st.result["winners"] == ["P1"]


def test_players_tied_above_11_play_on() -> None:
    """If several players are tied for the most points, continue the game until a single player has the most points."""
    table = seen("tie-continues")
    assert table.st.turn == 2 and table.points("P1") == 14 and table.points("P2") == 12


def test_a_tie_above_11_is_broken_when_one_of_them_drops_out() -> None:
    """If several players are tied for the most points, continue the game until a single player has the most points.
    [...] A player who has dropped out can no longer take part in the game"""
    pos = position(3, ["Road9", "Road1", "Road13"],
                   zones={"kept of P1": ["Road31", "Road32", "Road33"], "kept of P2": ["Road34", "Road35", "Road36"],
                          "tickets of P2": ["Road20", "Road21"]})
    table = Table.at(pos)
    table.answers(P1=WAIT, P2=f"press {card(13)}{EARLY}", P3=WAIT)
    table.chance("VehicleSide")  # the Fire Truck: card 13 fails, P2's third ticket
    table.answers(P1=NOTHING, P3=NOTHING)
    assert table.st.over and table.st.out == [0, 1, 0]
    assert table.st.result is not None and table.st.result["winners"] == ["P1"]  # 12 points, alone at the top


def test_a_player_who_dropped_out_is_not_checked_for_points() -> None:
    """ASSUMPTION (docs/rulebooks/rooster-rush.md): only players still in are checked for more than 11 points."""
    pos = position(3, ["Road9", "Road1", "Road13"], out={"P3": 2},
                   zones={"kept of P3": ["Road31", "Road32", "Road33"], "kept of P1": ["Road2"],
                          "tickets of P3": ["Road20", "Road21", "Road22"]})
    table = Table.at(pos)
    table.answers(P1=WAIT, P2=WAIT)
    table.chance("Crosswalk")
    table.answers(P1=NOTHING, P2=NOTHING)
    assert not table.st.over  # P3's 12 points do not end the game


def test_everyone_left_dropping_out_at_once_ranks_them_by_points() -> None:
    """ASSUMPTION: if every player still in drops out in the same round, the one of them with the most points wins."""
    pos = position(3, ["Road9", "Road13", "Road14"], out={"P3": 1},
                   zones={"tickets of P1": ["Road20", "Road21"], "tickets of P2": ["Road22", "Road23"],
                          "tickets of P3": ["Road25", "Road26", "Road27"], "kept of P1": ["Road2"],
                          "kept of P2": ["Road31"], "kept of P3": ["Road32", "Road33"]})
    table = Table.at(pos)
    table.answers(P1=f"press {card(14)}{EARLY}", P2=f"press {card(13)}{EARLY}")
    table.chance("VehicleSide")  # Fire Truck: cards 13 and 14 both fail
    table.chance("Crosswalk")
    assert table.st.over and table.st.result is not None
    assert table.st.result["winners"] == ["P2"]  # 4 points against P1's 2; P3, out earlier, comes last
    assert [r["player"] for r in table.st.result["standings"]] == ["P2", "P1", "P3"]


def test_with_the_option_nobody_wins_when_everyone_left_drops_out() -> None:
    """Option nobody_wins_when_all_drop (docs/rulebooks/rooster-rush.md): nobody wins then."""
    pos = position(3, ["Road9", "Road13", "Road14"], out={"P3": 1},
                   zones={"tickets of P1": ["Road20", "Road21"], "tickets of P2": ["Road22", "Road23"],
                          "tickets of P3": ["Road25", "Road26", "Road27"], "kept of P2": ["Road31"]})
    table = Table.at(pos, nobody_wins_when_all_drop="true")
    table.answers(P1=f"press {card(14)}{EARLY}", P2=f"press {card(13)}{EARLY}")
    table.chance("VehicleSide")
    table.chance("Crosswalk")
    assert table.st.over and table.st.result is not None
    assert table.st.result["winners"] == []
    assert [r["player"] for r in table.st.result["standings"]] == ["P2", "P1", "P3"]  # still ranked


def test_the_unsecured_cards_go_under_the_pile_and_the_chips_are_reset() -> None:
    """Shuffle together the road cards that no player secured and any discarded Violation Ticket cards, and place them
    at the very bottom of the road card draw pile. [...] Turn all the vehicle chips vehicle-side up and return them
    near the draw pile."""
    pile = ["Road40", "Road39", "Road38", "Road9", "Road1", "Road13"]
    table = Table.at(position(3, pile))
    table.answers(P1=f"press {card(13)}{EARLY}", P2=WAIT, P3=WAIT)
    table.chance("VehicleSide")
    table.answers(P2=NOTHING, P3=NOTHING)
    d = table.engine.pending(table.st)
    assert d is not None and d.event == {"shuffle": "returning"} and sorted(d.pool or []) == ["Road1", "Road9"]
    table.chance(["Road9", "Road1"])
    # round 2 laid the top three (Road38, 39, 40); the two cards went under them, Road9 at the very bottom
    assert table.names("pile") == ["Road9", "Road1"]
    assert table.names("tickets of P1") == ["Road13"]
    assert sorted(table.names("chips") + table.names("spinning")) == sorted(CHIPS)
    assert all(table.side(c) == "VehicleSide" for c in table.names("chips"))


# ---------------------------------------------------------------------- whole games


def _places(engine: Engine, st: Any) -> Counter[str]:
    table = Table(engine, st)
    where: Counter[str] = Counter()
    for z in engine.model.zones:
        owners = [f" of P{p + 1}" for p in range(st.players)] if z.per_player else [""]
        for owner in owners:
            for name in table.names(z.name + owner):
                where[name] += 1
    return where


def test_hundreds_of_seeded_games_end_with_every_card_in_one_place() -> None:
    """Invariants (docs/rulebooks/rooster-rush.md): every road card is in exactly one place after every step, no player
    ever holds more than 3 tickets, and a player's points are the sum of her kept cards' points."""
    for seed in range(200):
        engine = engine_for(early_retry="true" if seed % 5 == 0 else "false")
        players = 3 + seed % 4
        st = started(engine, players, seed)
        rng = Rng(seed, 7)
        steps = 0
        while not st.over:
            engine.apply(st, *random_action(engine, st, rng))
            steps += 1
            places = _places(engine, st)
            assert all(places[name] == 1 for name in ROAD + CHIPS + ["PushButton"]), (seed, steps)
            table = Table(engine, st)
            assert all(len(table.ids(f"tickets of P{p + 1}")) <= 3 for p in range(players))
            assert steps < 5000, seed
        assert st.result is not None and st.result["winners"]


def test_no_observation_shows_a_face_down_card() -> None:
    """Leak test: the draw pile, the cards laid face down and another player's Violation Tickets are face down."""
    engine = engine_for()
    for seed in range(20):
        st = started(engine, 4, seed)
        rng = Rng(seed, 3)
        while not st.over:
            for p in range(4):
                obs = engine.observe(st, p)
                for key in ("pile", "laid", "discarded", "returning"):
                    assert isinstance(obs["zones"][key], dict), (key, obs["zones"][key])
                for q in range(4):
                    tickets = obs["zones"][f"tickets of P{q + 1}"]
                    assert isinstance(tickets, list) == (q == p), tickets
                text = json.dumps({k: v for k, v in obs.items() if k not in ("legal_actions",)})
                hidden = set(re.findall(r'"(Road[0-9]+)', text)) - set(_visible(engine, st, p))
                assert not hidden, hidden
            engine.apply(st, *random_action(engine, st, rng))


def _visible(engine: Engine, st: Any, p: int) -> list[str]:
    table = Table(engine, st)
    out = table.names("shown")
    for q in range(st.players):
        out += table.names(f"kept of P{q + 1}") + table.names(f"secured of P{q + 1}")
    return out + table.names(f"tickets of P{p + 1}")


def test_two_early_presses_of_one_card_scripted_with_rulelang_testing() -> None:
    """The first player to press takes the card. Played by hand with the public helper (rulelang.testing.Script,
    docs/testing.md): P1 and P2 both press card 13 while the chips spin; who was first is picked at random among
    them (here P2), and only P2 secures it."""
    from rulelang.testing import Script

    s = Script(GAME, players=3, position=position(3, ["Road9", "Road1", "Road13"]))
    assert s.pending() == "ask" and s.legal("P3")[-1] == WAIT
    s.answer({"P1": f"press {card(13)}{EARLY}", "P2": f"press {card(13)}{EARLY}", "P3": WAIT})
    assert s.pending() == "pick" and s.legal() == ["P1", "P2"]  # P3 waited: not among them
    s.pick("P2")
    assert s.zone("secured of P2") == ["Road13"] and s.zone("secured of P1") == []
    assert s.pending() == "roll" and s.next_roll() == "FireTruckChip"  # the chips spin on
    assert f"  P2 secures {card(13)}." in s.told()
