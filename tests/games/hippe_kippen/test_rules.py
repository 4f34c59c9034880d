"""Hippe Kippen (games/hippe-kippen.rules) against its rulebook.

Each test's docstring quotes the passage of shared/rulebooks/hippe-kippen.nl.txt (the Dutch
text is the authority; the English working translation beside it) that it checks. The
situations are worked examples in examples/hippe-kippen/: a position (every hand, the draw
pile with its **last** card on top, the display, each player's collections and the cards on
them, the fox, the Rooster Booster cards set aside) and a trace from it that plays the
passage out and then ends the game (the pile holds just the cards still to be drawn, the
last Rooster Booster card among them), so that its result line shows the scores. The tests
replay the traces (to the end, or up to a ``// CHECK ...`` comment), and script more
decisions from the same positions, with the options' second readings too.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from example_support import Examples, ExampleTable, game_engine, random_action, rulebook_text, seat

from rulelang.agents.base import RandomAgent
from rulelang.narrate import Narrator
from rulelang.play import play
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "hippe-kippen"
GAME = "games/hippe-kippen.rules"
TRACES = sorted(p.name for p in EXAMPLES.glob("*.jsonl"))
POSITIONS = sorted(p.name for p in EXAMPLES.glob("*.position.json"))

pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


class Table(ExampleTable):
    """A game state with readable accessors (piles on cards: ``"up of Blue#1"``)."""

    @classmethod
    def at(cls, pos: str | dict[str, Any], **options: str) -> Table:
        if isinstance(pos, str):
            pos = json.loads((EXAMPLES / f"{pos}.position.json").read_text(encoding="utf-8"))
        game = game_engine(GAME, **options)
        return cls(game, game.new_state(pos["players"], position=pos, narrate=True))

    def ids(self, name: str) -> list[int]:
        zone_name, _, owner = name.partition(" of ")
        zone = next(z for z in self.engine.model.zones if z.name == zone_name)
        if zone.per_class is not None:
            return list(self.st.zones[zone.index][self.engine.program.component_labels.index(owner)])
        return super().ids(name)

    def kinds(self, name: str) -> Counter[str]:
        program = self.engine.program
        return Counter(self.engine.model.kinds[program.kind_of[c]].name for c in self.ids(name))

    def score(self, player: str) -> int:
        counter = next(c for c in self.engine.model.counters if c.name == "score")
        return self.st.counters[counter.index][seat(player)]

    def fox(self) -> str:
        """Where the fox is: ``"beside"`` or the label of the collection it is on."""
        labels = self.engine.program.component_labels
        fox = labels.index("Fox")
        for z in self.engine.model.zones:
            content = self.st.zones[z.index]
            if z.per_class is not None:
                for c, pile in enumerate(content):
                    if fox in pile:
                        return labels[c]
            elif not z.per_player and fox in content:
                return z.name
        raise AssertionError("the fox is nowhere")

    def left(self) -> int:
        """Action points left (the number in the last '(... has N of 3 action points left)' line)."""
        says = [e["text"] for e in self.st.log or [] if e["type"] == "say" and "action points left" in e["text"]]
        return int(says[-1].split(" has ")[1].split(" of ")[0])

    def do(self, *actions: str) -> None:
        for action in actions:
            self.engine.apply(self.st, action)

    def sheets(self) -> list[dict[str, Any]]:
        return [e for e in self.st.log or [] if e["type"] == "sheet"]


EX = Examples(EXAMPLES, Table)


def played(name: str, marker: str | None = None) -> Table:
    """The example's position played with its trace's actions (up to the comment containing ``marker``),
    narrated; the replay of the same trace must agree (checked by test_every_example_replays_to_its_result)."""
    lines = (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    t = Table.at(name)
    for line in lines:
        if marker is not None and line.startswith("//") and marker in line:
            assert t.pending()[0] is not None
            return t
        if line.startswith("{"):
            event = json.loads(line)
            if event["type"] == "action":
                assert t.pending()[0] == event["player"]
                t.do(event["action"])
    assert marker is None, f"no comment {marker!r}"
    assert t.st.over
    return t


# ---------------------------------------------------------------------- every example
def test_the_examples_quote_the_dutch_rulebook() -> None:
    book = " ".join(rulebook_text("hippe-kippen.nl.txt").split())
    for name in TRACES:
        first = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith('// "')
        dutch = first[4:first.index('" (')]
        for part in dutch.split(" [...] "):
            part = part.strip().lstrip("- ").rstrip(".")
            assert " ".join(part.split()) in book, (name, part)


@pytest.mark.parametrize("name", TRACES)
def test_every_example_replays_to_its_result(name: str) -> None:
    replayed = EX.finished(name)
    assert replayed.st.digest() == played(name.removesuffix(".jsonl")).st.digest()


@pytest.mark.parametrize("name", POSITIONS)
def test_every_position_plays_to_the_end_at_random(name: str) -> None:
    pos = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    engine = game_engine(GAME)
    for seed in range(3):
        st = engine.new_state(pos["players"], position=pos)
        play(engine, st, [RandomAgent(seed, p) for p in range(pos["players"])], seed)
        assert st.over


# ---------------------------------------------------------------------- a turn: 3 action points
def test_spending_draw_two_and_take_one() -> None:
    """"Kaart trekken van de dichte stapel (2 actiepunten) - Kaart kiezen uit de etalage [...] (1 actiepunt)"
    (draw from the pile: 2 points; take from the display: 1 point)."""
    t = played("spend-three-points", "CHECK draw")
    who, options = t.pending()
    assert who == "P1" and t.left() == 1
    assert t.kinds("hand of P1") == Counter({"Red": 1, "Pink": 1})
    assert "draw a card from the pile" not in options  # costs 2, 1 left
    assert "take green from the display" in options


def test_three_display_takes_refill_the_display() -> None:
    """"Kaart kiezen uit de etalage en vervolgens de lege plaats opvullen met de bovenste kaart van de
    trekstapel (1 actiepunt)" (take a display card, then fill the gap with the top card of the pile)."""
    t = played("spend-three-points", "CHECK three takes")
    assert t.pending()[0] == "P2"
    assert t.kinds("hand of P1") == Counter({"Red": 1, "Pink": 1, "Green": 1})
    assert sorted(t.kinds("display").elements()) == ["Blue", "Brown", "Orange"]  # Brown#2 filled the gap
    t.do("take blue from the display", "take orange from the display")
    assert t.pending()[0] == "P2" and t.left() == 1
    assert sorted(t.kinds("display").elements()) == ["Brown", "Grey", "White"]


def test_the_whole_budget_must_be_spent() -> None:
    """"Als de speler zijn 3 actiepunten gebruikt heeft is de volgende speler aan de beurt." (When the
    player has used her 3 action points, the next player takes a turn.) No option ends a turn early."""
    t = Table.at("spend-three-points")
    for action in t.pending()[1]:
        assert "end" not in action and "pass" not in action and "stop" not in action


# ---------------------------------------------------------------------- collections
def test_a_new_collection_is_shown_then_laid_face_down() -> None:
    """"een speler moet zijn kaart eerst open aan zijn medespelers tonen voordat hij deze dicht neerlegt"
    (the player must first show the card to the other players before laying it face down)."""
    t = played("open-and-extend", "CHECK shown")
    assert t.labels("chests of P1") == ["Blue#1"]
    assert t.ids("up of Blue#1") == []
    reveals = [e for e in t.st.log if e["type"] == "reveal"]
    assert reveals[-1]["to"] == "all" and reveals[-1]["components"] == ["Blue#1"]
    assert t.st.seen[seat("P2")][-1]["components"] == ["Blue"]  # P2 remembers what she was shown
    assert t.engine.observe(t.st, seat("P2"))["zones"]["chests of P1"] == ["Blue#1"]


def test_another_colour_on_the_chest_then_a_joker_then_the_doubler_closes_it() -> None:
    """"waarbij de kleur van de gedekte kaart niet overeen hoeft te komen [...] Hierbij tellen jokerkaarten
    mee [...] De verdubbel-kaart [...] is tevens de laatste kaart in een verzameling!" (the chest's colour
    need not match; jokers count; the doubler is the last card of a collection)."""
    t = played("open-and-extend", "CHECK closed")
    assert t.labels("up of Blue#1") == ["Red#1", "Joker#1", "Doubler#1"]
    who, options = t.pending()
    assert who == "P1"
    assert not [a for a in options if a.startswith("lay ")]
    t2 = played("open-and-extend")
    last = t2.sheets()[-1]
    assert last["rows"]["P1"][last["labels"].index("Red")] == 8  # 2 cards (the doubler does not count): 4, doubled


def test_the_first_face_up_card_is_a_colour_card_and_then_only_that_colour() -> None:
    """"De eerste open kaart moet altijd een verzamelkaart zijn" (the first face-up card is always a collection
    card); "Een verzameling kan uitgebreid worden door er open kaarten van dezelfde soort bij te leggen"."""
    pos = json.loads((EXAMPLES / "open-and-extend.position.json").read_text(encoding="utf-8"))
    pos["zones"]["hand of P1"] = ["Blue#1", "Red#1", "Joker#1", "Doubler#1", "Green#2", "Red#2"]
    t = Table.at(pos)
    t.do("start a collection with blue")
    lays = [a for a in t.pending()[1] if a.startswith("lay ")]
    assert lays == ["lay red on Blue#1", "lay green on Blue#1"]  # no joker or doubler first
    t.do("lay red on Blue#1")
    lays = [a for a in t.pending()[1] if a.startswith("lay ")]
    assert lays == ["lay red on Blue#1", "lay joker on Blue#1", "lay doubler on Blue#1"]  # not green


def test_one_collection_of_each_colour() -> None:
    """Notes (Gloria Picktoria): "A player may own only one collection of each motif"."""
    pos = json.loads((EXAMPLES / "open-and-extend.position.json").read_text(encoding="utf-8"))
    pos["zones"]["hand of P1"] = ["Red#1", "Red#2"]
    pos["zones"]["chests of P1"] = ["Blue#1", "Blue#2"]
    pos["zones"]["up of Blue#1"] = ["Red#3"]
    t = Table.at(pos)
    lays = [a for a in t.pending()[1] if a.startswith("lay ")]
    assert lays == ["lay red on Blue#1"]  # not a second red collection on Blue#2


# ---------------------------------------------------------------------- the fox
def test_the_last_player_to_lay_a_face_up_card_places_the_fox() -> None:
    """"de laatste speler die een open kaart neergelegd heeft, plaatst de vos bij die verzameling" (the last
    player who laid a face-up card places the fox at that collection), at no cost."""
    t = played("fox", "CHECK entered")
    assert t.fox() == "Blue#1"
    assert t.left() == 2
    assert any("the fox goes on Blue#1" in e["text"] for e in t.st.log if e["type"] == "say")


def test_the_fox_enters_with_the_first_chest_in_the_second_reading() -> None:
    """Notes: "the player who is the last to open a first collection must put the fox on it": with
    ``fox_enters=first_chest`` it goes on the chest of the last player to start her first collection."""
    pos = json.loads((EXAMPLES / "fox.position.json").read_text(encoding="utf-8"))
    pos["zones"]["chests of P1"] = []
    t = Table.at(pos, fox_enters="first_chest")
    assert t.fox() == "beside"
    t.do("start a collection with red")
    assert t.fox() == "Red#1"
    t2 = Table.at(pos)
    t2.do("start a collection with red")
    assert t2.fox() == "beside"  # the default: a chest alone does not bring the fox


def test_moving_the_fox_costs_1_to_your_own_and_2_to_your_neighbours() -> None:
    """"Om de vos te verplaatsen naar een willekeurige verzameling van zijn linkerbuurman kost 2
    actiepunten, om deze te verplaatsen naar een willekeurige eigen verzameling kost 1 actiepunt.\""""
    t = played("fox", "CHECK one left")
    assert t.fox() == "Purple#1" and t.left() == 1
    options = t.pending()[1]
    assert "move the fox to P2's Green#9" not in options
    assert "move the fox to Blue#1" in options  # her own: 1 point
    assert "move the fox to Purple#1" not in options  # it is there already


def test_the_free_fox_move_at_the_end_of_the_turn() -> None:
    """"Aan het eind van zijn beurt mag een speler de vos ook kosteloos naar een willekeurige verzameling van
    de linkerbuurman verplaatsen." (At the end of the turn a player may move the fox for free.)"""
    t = played("fox", "CHECK one left")
    t.do("take white from the display")
    who, options = t.pending()
    assert who == "P1" and options == ["move the fox to P2's Green#9 for free", "leave the fox where it is"]
    t.do("move the fox to P2's Green#9 for free")
    assert t.fox() == "Green#9" and t.pending()[0] == "P2"


def test_the_row_under_the_fox_does_not_exist() -> None:
    """"De verzameling gemarkeerd met de vos is niets waard. Deze rij kan als niet bestaand worden
    beschouwd." (The collection marked with the fox is worth nothing; it is as if it did not exist.)"""
    t = played("fox")
    last = t.sheets()[-1]
    red = last["labels"].index("Red")
    assert last["rows"]["P1"][red] == 0  # P1's only red row is under the fox
    assert t.score("P1") == -4 and t.score("P2") == 3


# ---------------------------------------------------------------------- Rooster Booster cards
def test_the_fourth_rooster_booster_scores_in_the_middle_of_the_refill() -> None:
    """"Bij de vierde, zevende en tiende 'Rooster-Booster'-kaart wordt het spel onmiddellijk onderbroken
    voor een telling." (At the 4th, 7th and 10th the game is interrupted at once for a scoring.)"""
    t = played("fourth-booster", "CHECK scored")
    assert t.score("P1") == 3 and t.score("P2") == 1
    assert len(t.ids("aside")) == 4
    assert sorted(t.kinds("display").elements()) == ["Grey", "White", "White"]  # the refill went on after the scoring
    assert t.pending()[0] == "P1" and t.left() == 2
    kinds = [e["type"] for e in t.st.log]
    assert "sheet" in kinds  # the scoring was narrated as a score sheet, in the middle of the action


def test_a_draw_sets_boosters_aside_and_draws_again_through_two_scorings() -> None:
    """"Zodra er een 'Rooster-Booster'-kaart getrokken wordt, wordt deze terzijde gelegd." A draw that turns
    up Rooster Booster cards sets each aside and draws again (ASSUMPTION, option booster_replaced)."""
    t = played("fourth-booster")
    assert len(t.ids("aside")) == 10
    assert len(t.sheets()) == 3
    assert t.score("P1") == 8 and t.score("P2") == 3


def test_a_draw_that_turns_up_a_booster_gives_nothing_in_the_second_reading() -> None:
    """Option ``booster_replaced=false``: a draw that turns up a Rooster Booster card gives no card."""
    t = Table.at("fourth-booster", booster_replaced="false")
    t.do("take white from the display")  # the 4th, set aside from the refill (a refill always goes on)
    t.do("draw a card from the pile")  # the 5th: set aside, no card
    assert len(t.ids("aside")) == 5
    assert t.kinds("hand of P1") == Counter({"White": 1})  # the display card only: the draw gave nothing
    assert t.pending()[0] == "P2"


# ---------------------------------------------------------------------- the scorings
def test_monopoly_majority_second_place_tie_doubler_and_penalties() -> None:
    """"Voor elke monopolie van een kleur krijgt de eigenaar 4 punten. [...] de speler met de meeste kaarten
    in deze kleur 3 punten en de speler met de op één na langste rij 1 punt. [...] Bij de derde (en tevens
    laatste) telling verliest elke speler voor elke handkaart 1 punt en voor elke dichte kaart zonder open
    kaarten 2 punten.\""""
    t = played("last-scoring")
    sheet = t.sheets()[-1]
    rows = {p: dict(zip(sheet["labels"], values)) for p, values in sheet["rows"].items()}
    assert (rows["P1"]["Red"], rows["P2"]["Red"], rows["P3"]["Red"]) == (3, 1, 0)
    assert rows["P2"]["Blue"] == 4  # a monopoly
    assert rows["P2"]["Orange"] == 0  # under the fox
    assert (rows["P1"]["Green"], rows["P3"]["Green"]) == (2, 2)  # tied longest: (3 + 1) / 2
    assert (rows["P3"]["Yellow"], rows["P1"]["Yellow"]) == (6, 1)  # doubled
    assert (rows["P1"]["Cards in hand"], rows["P2"]["Cards in hand"], rows["P3"]["Cards in hand"]) == (-1, -2, -1)
    assert rows["P1"]["Face-down cards alone"] == -2
    assert [t.score(p) for p in ("P1", "P2", "P3")] == [23, 21, 22]
    lines = Narrator().lines(t.st.log)
    assert "  Score sheet (telling):" in lines


def test_tied_rows_each_get_their_places_points_in_the_second_reading() -> None:
    """Option ``tie_share=false``: tied longest rows get 3 each (and the next row 1)."""
    t = Table.at("last-scoring", tie_share="false")
    t.do("take white from the display")
    rows = {p: dict(zip(t.sheets()[-1]["labels"], v)) for p, v in t.sheets()[-1]["rows"].items()}
    assert (rows["P1"]["Green"], rows["P3"]["Green"]) == (3, 3)


def test_penalties_only_at_the_last_scoring() -> None:
    """"Bij de derde (en tevens laatste) telling" (at the third, and last, scoring only)."""
    t = played("fourth-booster", "CHECK scored")
    first = t.sheets()[-1]
    assert first["rows"]["P1"][first["labels"].index("Cards in hand")] == 0


# ---------------------------------------------------------------------- review (issue 9): the rules no example showed
def position(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.position.json").read_text(encoding="utf-8"))


def telling(t: Table) -> dict[str, dict[str, int]]:
    """The last score sheet, per player and line."""
    sheet = t.sheets()[-1]
    return {p: dict(zip(sheet["labels"], values)) for p, values in sheet["rows"].items()}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_for_each_player_count(players: int) -> None:
    """"De overige 95 kaarten (5 jokers en 9 kaarten van 10 kleuren) worden geschud [...] Elke speler ontvangt
    4 kaarten van de trekstapel en één verdubbel-kaart. De overige verdubbel-kaarten worden uit het spel
    genomen. In de overgebleven trekstapel worden de 10 'Rooster-Booster' meegeschud. De kaart met de vos wordt
    naast de trekstapel geplaatst." With the display of 3 (notes) laid before the Rooster Booster cards go in."""
    engine = game_engine(GAME)
    t = Table(engine, engine.new_state(players))
    rng = Rng(players, stream=3)
    while t.pending()[0] == "chance":
        engine.apply(t.st, *random_action(engine, t.st, rng))
    for p in range(1, players + 1):
        hand = t.kinds(f"hand of P{p}")
        assert sum(hand.values()) == 5 and hand["Doubler"] == 1 and hand["Booster"] == 0
    display = t.kinds("display")
    assert sum(display.values()) == 3 and display["Booster"] == 0 and display["Doubler"] == 0
    pile = t.kinds("pile")
    assert sum(pile.values()) == 95 - 4 * players - 3 + 10 and pile["Booster"] == 10 and pile["Doubler"] == 0
    assert t.kinds("box") == Counter({"Doubler": 5 - players})  # out of the game
    assert t.fox() == "beside" and not t.ids("aside")
    assert all(t.score(f"P{p}") == 0 for p in range(1, players + 1))
    assert all(not t.ids(f"chests of P{p}") for p in range(1, players + 1))


def test_the_fox_cannot_be_moved_before_it_is_in_play() -> None:
    """"de laatste speler die een open kaart neergelegd heeft, plaatst de vos": until then it lies beside the
    pile ("De kaart met de vos wordt naast de trekstapel geplaatst") and no move of it is offered."""
    pos = position("fox")
    pos["zones"]["hand of P1"] = ["Red#1", "Joker#1"]
    t = Table.at(pos)
    assert t.fox() == "beside"
    assert not [a for a in t.pending()[1] if "fox" in a]
    t.do("start a collection with joker", "take white from the display", "take white from the display")
    assert t.pending()[0] == "P2"  # no free fox move was offered either


def test_a_collection_under_the_fox_may_still_be_extended() -> None:
    """"Deze verzameling is nu niets meer waard. De speler mag de verzameling wel verder uitbreiden." (The
    collection is worth nothing now. The player may still extend it.)"""
    pos = position("fox")
    pos["zones"]["hand of P1"] = ["Red#1", "Red#2", "Joker#1"]
    t = Table.at(pos)
    t.do("lay red on Blue#1")
    assert t.fox() == "Blue#1"
    lays = [a for a in t.pending()[1] if a.startswith("lay ")]
    assert lays == ["lay red on Blue#1", "lay joker on Blue#1"]
    t.do("lay red on Blue#1")
    assert t.kinds("up of Blue#1") == Counter({"Red": 2}) and t.fox() == "Blue#1"


def test_a_player_lays_face_up_cards_only_on_her_own_collections() -> None:
    """ASSUMPTION: "de speler legt een open kaart op de reeds geplaatste schatkist" is her own chest."""
    t = Table.at("fox")
    assert [a for a in t.pending()[1] if a.startswith("lay ")] == ["lay red on Blue#1", "lay red on Purple#1"]


def test_the_10th_booster_drawn_ends_the_game_at_once() -> None:
    """"Het spel eindigt zodra de derde telling is geweest." A draw that turns up the 10th Rooster Booster card
    scores and ends the game there: she gets no card for it and no free fox move follows."""
    pos = position("fox")
    pos["zones"]["pile"] = ["Grey#2", "Booster#10", "Grey#1"]  # the last is the top: Grey#1 refills the display
    pos["zones"]["up of Blue#1"] = ["Red#2"]
    pos["zones"]["foxed of Green#9"] = ["Fox"]
    t = Table.at(pos)
    t.do("take white from the display")
    assert t.pending()[1] and t.pending()[0] == "P1"
    t.do("draw a card from the pile")
    assert t.st.over and t.pending() == (None, [])
    assert t.kinds("hand of P1") == Counter({"Red": 1, "White": 1})  # no card for the draw
    assert t.labels("pile") == ["Grey#2"]  # not drawn after the 10th
    assert len(t.sheets()) == 1 and telling(t)["P1"]["Cards in hand"] == -2


def test_a_row_under_the_fox_does_not_keep_another_from_a_monopoly() -> None:
    """"Deze rij kan als niet bestaand worden beschouwd." (That row is treated as if it did not exist.) The
    other row of its colour is then alone: a monopoly, 4."""
    pos = position("last-scoring")
    z = pos["zones"]
    z["chests of P3"].append("Grey#3")
    z["up of Grey#3"] = ["Orange#3", "Orange#4", "Orange#5"]
    z.pop("foxed of Purple#4")
    z["foxed of Grey#3"] = ["Fox"]  # P3's longer orange row is under the fox
    t = Table.at(pos)
    t.do("take white from the display")
    rows = telling(t)
    assert (rows["P2"]["Orange"], rows["P3"]["Orange"]) == (4, 0)


def test_a_bare_chest_under_the_fox_still_costs_2_at_the_last_scoring() -> None:
    """"voor elke dichte kaart zonder open kaarten 2 punten" (ASSUMPTION: the fox makes a row worth nothing,
    it does not take a card away)."""
    pos = position("last-scoring")
    pos["zones"].pop("foxed of Purple#4")
    pos["zones"]["foxed of Brown#1"] = ["Fox"]
    t = Table.at(pos)
    t.do("take white from the display")
    assert telling(t)["P1"]["Face-down cards alone"] == -2


def test_two_rows_tied_for_second_share_its_1_point() -> None:
    """"de speler met de op één na langste rij 1 punt"; ASSUMPTION: tied rows share the points of the places
    they occupy, rounded down: two tied for second share 1 + 0, 0 each (option tie_share=false: 1 each)."""
    pos = position("last-scoring")
    pos["zones"]["up of Purple#5"] = ["Red#6", "Red#7"]  # P3's red row now ties P2's for second
    t = Table.at(pos)
    t.do("take white from the display")
    rows = telling(t)
    assert (rows["P1"]["Red"], rows["P2"]["Red"], rows["P3"]["Red"]) == (3, 0, 0)
    t = Table.at(pos, tie_share="false")
    t.do("take white from the display")
    rows = telling(t)
    assert (rows["P1"]["Red"], rows["P2"]["Red"], rows["P3"]["Red"]) == (3, 1, 1)


def test_players_level_on_points_share_the_win() -> None:
    """"De speler die nu de meeste punten heeft is de winnaar van het spel." ASSUMPTION: level players share it."""
    pos = position("last-scoring")
    pos["counters"]["score"]["P3"] = 16  # 16 + 7 = 23, level with P1
    t = Table.at(pos)
    t.do("take white from the display")
    assert t.score("P1") == t.score("P3") == 23
    assert sorted(t.st.result["winners"]) == ["P1", "P3"]


def test_the_play_by_play_shows_each_rooster_booster_card_and_which_scoring_it_sets_off() -> None:
    """"Zodra er een 'Rooster-Booster'-kaart getrokken wordt, wordt deze terzijde gelegd. Bij de vierde, zevende
    en tiende [...] telling": at the table everyone sees each card set aside, and knows which scoring it is."""
    t = played("fourth-booster")
    lines = Narrator().lines(t.st.log)
    aside = [line.strip() for line in lines if "sets it aside" in line]
    assert aside == [f"P1 turns up a Rooster Booster card and sets it aside ({n} of 10)." for n in range(4, 11)]
    fourth = lines.index("  P1 turns up a Rooster Booster card and sets it aside (4 of 10).")
    assert lines[fourth + 1] == "  The 4th Rooster Booster card: the first of the three scorings."
    assert lines[fourth + 2] == "  Score sheet (telling):"
    said = [line.strip() for line in lines if "Rooster Booster card:" in line]
    assert said == ["The 4th Rooster Booster card: the first of the three scorings.",
                    "The 7th Rooster Booster card: the second of the three scorings.",
                    "The 10th Rooster Booster card: the third and last scoring, with its penalties."]


def test_the_free_fox_move_reads_as_free_in_the_play_by_play() -> None:
    """"Aan het eind van zijn beurt mag een speler de vos ook kosteloos [...] verplaatsen": after '0 of 3 action
    points left' the move says that it costs nothing."""
    t = played("fox")
    lines = [line.strip() for line in Narrator().lines(t.st.log)]
    assert "P1 chooses: move the fox to P2's Green#9 for free" in lines
    assert lines.index("P1 chooses: move the fox to P2's Green#9 for free") == \
        lines.index("(P1 has 0 of 3 action points left)") + 1


def test_a_position_after_a_scoring_does_not_score_it_again() -> None:
    """"Bij de vierde, zevende en tiende 'Rooster-Booster'-kaart wordt het spel onmiddellijk onderbroken voor een
    telling": a scoring happens when that card is set aside, once. A position saved after the 4th card (the
    first scoring done) plays on without scoring again; the 7th scores."""
    pos = position("fourth-booster")
    pos["zones"]["pile"].remove("Booster#4")
    pos["zones"]["aside"].append("Booster#4")
    pos["counters"]["score"] = {"P1": 3, "P2": 1}
    t = Table.at(pos)
    assert t.pending()[0] == "P1" and not t.sheets() and t.score("P1") == 3
    t.do("take white from the display")
    assert not t.sheets() and t.score("P1") == 3
    t.do("draw a card from the pile")  # the 5th, 6th and 7th: the second scoring, then on to the 10th
    assert len(t.sheets()) == 2 and t.st.over
