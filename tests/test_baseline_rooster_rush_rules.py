"""Tests of the hand-written Rooster Rush baseline (benchmarks/baseline_rooster_rush.py)
against the rulebook's words, as read by docs/rulebooks/rooster-rush.md."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import baseline_support
import pytest

from benchmarks import baseline_rooster_rush as rr
from benchmarks.baseline_rooster_rush import AMBULANCE, FIRE_TRUCK, GRANDMA, POLICE_CAR, PUSH_BUTTON, RED_LIGHT, TAXI
from rulelang.rng import Rng

READING = Path(__file__).resolve().parent.parent / "docs" / "rulebooks" / "rooster-rush.md"


class Script(baseline_support.Script):
    """A stand-in for an agent or chance stream: answers ``pick(n)`` from a script, records each n."""

    def shuffle(self, items: list) -> None:
        pass  # keeps the order


def card(drawn: tuple[int, ...], back: int | None = None, skip: int = 0) -> int:
    """The id of a road card with exactly these vehicles drawn (and this back, if given)."""
    found = [c for c, (_, d, b) in enumerate(rr.CARDS) if d == tuple(sorted(drawn)) and (back is None or b == back)]
    return found[skip]


def mask(*vehicles: int) -> int:
    return sum(1 << v for v in vehicles)


def table(players: int = 4) -> dict[str, Any]:
    return rr.new_table(players, Rng(0))


def check_places(t: dict[str, Any]) -> None:
    """Every road card in exactly one place; tickets and secured cards within the rules."""
    places = t["pile"] + t["laid"] + t["discarded"]
    for p in range(t["players"]):
        places += t["kept"][p] + t["tickets"][p]
    assert sorted(places) == list(range(40))
    assert all(len(tickets) <= rr.MAX_TICKETS for tickets in t["tickets"])
    secured = [c for c in t["held"] if c is not None]
    assert len(secured) == len(set(secured))  # a card goes to one player at most
    # Players out before this round press nothing (those just dropped keep this round's card).
    assert all(t["held"][p] is None for p in range(t["players"]) if t["out"][p] and p not in t["dropped"])


# --- The 40 cards (issue 8: a plausible distribution).

def test_the_card_distribution_is_the_one_the_reading_designs() -> None:
    assert len(rr.CARDS) == 40
    assert all(points == len(drawn) + 1 for points, drawn, _ in rr.CARDS)  # more vehicles, more points
    assert Counter(points for points, _, _ in rr.CARDS) == {2: 10, 3: 20, 4: 10}
    drawings = Counter(v for _, drawn, _ in rr.CARDS for v in drawn)
    assert drawings == {v: 16 for v in range(5)}  # every vehicle equally dangerous
    assert Counter(back for _, _, back in rr.CARDS) == {RED_LIGHT: 5, **{v: 7 for v in range(5)}}
    assert len({drawn for _, drawn, _ in rr.CARDS}) == 5 + 10 + 10  # every single, pair and triple
    assert all(len(set(drawn)) == len(drawn) for _, drawn, _ in rr.CARDS)


def test_the_code_lists_the_cards_of_the_readings_table() -> None:
    names = {name: v for v, name in enumerate(rr.VEHICLES)} | {"red light": RED_LIGHT}
    rows = re.findall(r"^\| (\d+) \| (\d) \| ([A-Za-z ,]+) \| ([A-Za-z ]+) \|$", READING.read_text(), re.M)
    assert len(rows) == 40
    for number, points, drawn, back in rows:
        expected = (int(points), tuple(names[n.strip()] for n in drawn.split(",")), names[back.strip()])
        assert rr.CARDS[int(number) - 1] == expected


# --- Step 1: "3 players: 3 cards - 4 to 6 players: 4 cards ... does not change until the game ends".

def test_cards_laid_depend_on_the_players_at_the_start() -> None:
    assert [rr.cards_to_lay(n) for n in (3, 4, 5, 6)] == [3, 4, 4, 4]
    laid_with_drop_outs = []

    def watch(t: dict[str, Any]) -> None:
        if t["laid"] and not t["revealed"] and t["chips"] == [] and len(t["pile"]) >= 4 and any(t["out"]):
            laid_with_drop_outs.append(len(t["laid"]))

    for seed in range(40):
        rr.play_game(5, Rng(seed, 0), Rng(seed, 1), on_step=watch)
    assert laid_with_drop_outs and set(laid_with_drop_outs) == {4}


def test_a_short_pile_lays_what_it_has_and_an_empty_one_ends_the_game() -> None:
    t = table(4)
    t["pile"] = [card((TAXI,)), card((GRANDMA,))]
    assert rr.place_road_cards(t) and len(t["laid"]) == 2 and t["pile"] == []
    t = table(4)
    t["pile"] = []
    t["kept"][1] = [card((TAXI, GRANDMA))]
    t["kept"][2] = [card((TAXI,))]
    t["out"][1] = True  # out players are not counted
    assert rr.play_round(t, Script(), Script()) is True
    assert t["winners"] == [2]


# --- Step 2: the book's example, and red lights.

def test_the_books_example_hands_out_three_chips() -> None:
    # "the four road cards laid out show Fire Truck, Police Car, Taxi and Fire Truck ... 3 chips"
    backs = [FIRE_TRUCK, POLICE_CAR, TAXI, FIRE_TRUCK]
    laid = [[c for c, (_, _, b) in enumerate(rr.CARDS) if b == back][i] for i, back in enumerate(backs)]
    assert rr.chips_in_use(laid) == [FIRE_TRUCK, POLICE_CAR, TAXI]
    t = table(4)
    t["laid"] = laid
    rr.receive_chips(t)
    assert len(t["chips"]) == 3 and t["holders"] == [0, 1, 2]


def test_a_red_light_gives_no_chip() -> None:
    reds = [c for c, (_, _, b) in enumerate(rr.CARDS) if b == RED_LIGHT]
    assert rr.chips_in_use(reds[:4]) == []
    assert rr.chips_in_use(reds[:2] + [card((POLICE_CAR,), AMBULANCE)]) == [AMBULANCE]


def test_chips_go_to_players_still_in_first_then_to_those_out() -> None:
    # "A player who has dropped out ... may still spin the vehicle chips."
    assert rr.chip_holders(4, [True, False, True, False]) == [1, 3, 0, 2]
    assert rr.chip_holders(2, [False] * 6) == [0, 1]


# --- Steps 4 and 5: the spin and the race.

def test_early_presses_are_made_before_the_chips_stop_and_late_ones_after() -> None:
    t = table(3)
    t["laid"] = [card((TAXI,)), card((GRANDMA,)), card((FIRE_TRUCK, AMBULANCE))]
    t["chips"] = [TAXI, GRANDMA]
    seen: list[int] = []

    class Watching(Script):
        def pick(self, n: int) -> int:
            seen.append(t["showing"])
            return super().pick(n)

    # Early: P1 presses card 0, P2 and P3 wait (option 4 of 3 cards + button + wait).
    # Chips: Taxi lands vehicle side up (0), Grandma crosswalk (1).
    # Late: P2 presses card 1 (now card 1 is the first free card: options 1, 2, button, nothing),
    # P3 secures nothing.
    agent = Watching(0, 4, 4, 0, 3)
    rr.secure_cards(t, Script(0, 1), agent)
    assert agent.asked == [5, 5, 5, 4, 4]
    assert seen == [-1, -1, -1, mask(TAXI), mask(TAXI)]  # early presses do not see the chips
    assert t["held"] == [t["laid"][0], t["laid"][1], None]


def test_a_card_pressed_by_several_goes_to_the_first_by_chance_and_the_loser_presses_again() -> None:
    t = table(4)
    t["laid"] = [card((TAXI,)), card((GRANDMA,)), card((POLICE_CAR,)), card((AMBULANCE,))]
    t["chips"] = [POLICE_CAR]
    # Early: P1 and P3 press card 0, P2 presses the push button (index 4), P4 waits (5).
    # Chance: of P1 and P3, the second (P3) pressed first; then the chip lands crosswalk side up.
    # Late, among P1 (lost) and P4: free are cards 1, 2, 3 and nothing; P1 takes card 3, P4 card 3 too.
    # Chance: P4 first. Late again, P1 alone: cards 1, 2, nothing: she takes nothing.
    agent = Script(0, 4, 0, 5, 2, 2, 2)
    chance = Script(1, 1, 1)
    rr.secure_cards(t, chance, agent)
    assert agent.asked == [6, 6, 6, 6, 4, 4, 3]
    assert chance.asked == [2, 2, 2]
    assert t["held"] == [None, PUSH_BUTTON, t["laid"][0], t["laid"][3]]


def test_an_early_press_beats_every_late_one() -> None:
    t = table(3)
    t["laid"] = [card((TAXI,)), card((GRANDMA,)), card((POLICE_CAR,))]
    t["chips"] = [TAXI]
    # P1 presses card 0 early; P2 and P3 wait, then both want card 0: it is gone, only cards
    # 1, 2, the button and nothing are offered to them; both press card 1, P2 loses and declines.
    agent = Script(0, 4, 4, 0, 0, 2)
    chance = Script(0, 1)  # the chip; then P3 wins card 1 from P2
    rr.secure_cards(t, chance, agent)
    assert agent.asked[3:] == [4, 4, 3]  # the third: P2 again, after losing card 1 to P3
    assert t["held"][0] == t["laid"][0]
    assert t["held"][2] == t["laid"][1]


def test_declining_is_final_and_dropped_out_players_press_nothing() -> None:
    t = table(4)
    t["out"][3] = True
    t["laid"] = [card((TAXI,)), card((GRANDMA,)), card((POLICE_CAR,)), card((AMBULANCE,))]
    t["chips"] = [TAXI]
    # Early: P1, P2 and P3 wait (5 of 6). Late: P1 declines (5 of 6), P2 and P3 press card 0;
    # P2 wins; P3 presses again, P1 is not asked again.
    agent = Script(5, 5, 5, 5, 0, 0, 4)
    chance = Script(1, 0)  # the chip lands crosswalk side up; P2 pressed first
    rr.secure_cards(t, chance, agent)
    assert agent.asked == [6, 6, 6, 6, 6, 6, 5]
    assert t["held"] == [None, t["laid"][0], None, None]


def test_with_no_chip_in_use_everyone_presses_at_once_without_waiting() -> None:
    # Four red-light backs: nothing spins, so there is no early press and no waiting; every
    # player still in presses a card or secures nothing at once (the late presses' options).
    t = table(4)
    t["laid"] = [card((TAXI,)), card((GRANDMA,)), card((POLICE_CAR,)), card((AMBULANCE,))]
    t["chips"] = []
    agent = Script(0, 0, 5, 4, 0)  # P1, P2 press card 0, P3 nothing, P4 the button; P1 (lost) card 1
    chance = Script(1)  # P2 pressed first
    rr.secure_cards(t, chance, agent)
    assert agent.asked == [6, 6, 6, 6, 4]
    assert t["held"] == [t["laid"][1], t["laid"][0], None, PUSH_BUTTON]


def test_option_early_retry_lets_an_early_loser_press_again_before_the_chips_stop() -> None:
    t = table(3)
    t["laid"] = [card((TAXI,)), card((GRANDMA,)), card((POLICE_CAR,))]
    t["chips"] = [GRANDMA]
    seen: list[int] = []

    class Watching(Script):
        def pick(self, n: int) -> int:
            seen.append(t["showing"])
            return super().pick(n)

    # Early: P1 and P2 press card 0, P3 waits; chance: P1 first. P2 presses again, still early:
    # card 1 (of cards 1, 2, button, wait). The chip stops Grandma side up. Late: P3 declines.
    agent = Watching(0, 0, 4, 0, 2)
    chance = Script(0, 0)
    rr.secure_cards(t, chance, agent, early_retry=True)
    assert agent.asked == [5, 5, 5, 4, 3]
    assert seen == [-1, -1, -1, -1, mask(GRANDMA)]
    assert t["held"] == [t["laid"][0], t["laid"][1], None]
    # Without the option, P2's second press comes after the chips stop.
    rr.spin(t)
    seen.clear()
    rr.secure_cards(t, Script(0, 0), Watching(0, 0, 4, 0, 2))
    assert seen == [-1, -1, -1, mask(GRANDMA), mask(GRANDMA)]


# --- Step 6: "Successful crossing", "Failed crossing", "Push-button card".

def test_a_successful_crossing_keeps_the_card_for_its_points_and_a_failed_one_is_a_ticket() -> None:
    t = table(4)
    safe, hit = card((FIRE_TRUCK, TAXI)), card((POLICE_CAR,))
    t["laid"] = [safe, hit, card((GRANDMA,))]
    t["held"] = [safe, hit, None, None]
    t["showing"] = mask(POLICE_CAR, AMBULANCE)  # none of the safe card's vehicles shows
    rr.check_and_score(t, Script())
    assert t["kept"][0] == [safe] and rr.points(t, 0) == 3
    assert t["tickets"][1] == [hit] and rr.points(t, 1) == 0
    assert t["laid"] == [card((GRANDMA,))]  # the unsecured card stays, to go back under the pile


def test_a_crossing_fails_if_even_one_vehicle_matches() -> None:
    triple = card((FIRE_TRUCK, AMBULANCE, GRANDMA))
    assert rr.crossing_succeeds(triple, mask(POLICE_CAR, TAXI))
    assert not rr.crossing_succeeds(triple, mask(GRANDMA))
    assert rr.crossing_succeeds(triple, 0)


def test_the_push_button_discards_a_ticket_when_every_card_failed_secured_or_not() -> None:
    t = table(4)
    a, b, c = card((TAXI,)), card((TAXI, GRANDMA)), card((GRANDMA,))
    t["laid"] = [a, b, c]  # c is not secured, and fails too
    t["held"] = [PUSH_BUTTON, a, b, None]
    old = [card((POLICE_CAR,)), card((AMBULANCE,))]
    t["tickets"][0] = list(old)
    t["showing"] = mask(TAXI, GRANDMA)
    agent = Script(1)  # she discards her second ticket
    rr.check_and_score(t, agent)
    assert agent.asked == [2]
    assert t["tickets"][0] == [old[0]] and t["discarded"] == [old[1]]
    assert t["tickets"][1] == [a] and t["tickets"][2] == [b]


def test_the_push_button_does_nothing_if_one_card_succeeds_even_unsecured() -> None:
    t = table(4)
    a, safe = card((TAXI,)), card((POLICE_CAR,))
    t["laid"] = [a, safe]
    t["held"] = [PUSH_BUTTON, a, None, None]
    t["tickets"][0] = [card((GRANDMA,))]
    t["showing"] = mask(TAXI)
    rr.check_and_score(t, Script())  # no decision is asked
    assert t["tickets"][0] == [card((GRANDMA,))] and t["discarded"] == []
    assert rr.points(t, 0) == 0  # "They gain no points and receive no Violation Ticket."


def test_the_push_button_without_a_ticket_does_nothing() -> None:
    t = table(4)
    a = card((TAXI,))
    t["laid"] = [a]
    t["held"] = [PUSH_BUTTON, None, None, None]
    t["showing"] = mask(TAXI)
    rr.check_and_score(t, Script())
    assert t["discarded"] == [] and t["tickets"][0] == []


# --- Step 7: drop-outs, the win checks, and preparing the next round.

def test_three_tickets_drop_a_player_out() -> None:
    t = table(4)
    t["tickets"][2] = [card((TAXI,)), card((GRANDMA,)), card((POLICE_CAR,))]
    t["tickets"][1] = [card((AMBULANCE,)), card((FIRE_TRUCK,))]
    assert rr.check_winner(t) is None
    assert t["out"] == [False, False, True, False] and t["dropped"] == [2]


def test_the_last_player_standing_wins_whatever_the_points() -> None:
    t = table(3)
    t["out"] = [True, False, False]
    t["tickets"][1] = [card((TAXI,)), card((GRANDMA,)), card((POLICE_CAR,))]
    t["kept"][1] = [card((TAXI, GRANDMA, FIRE_TRUCK))]
    assert rr.check_winner(t) == [2]  # P3 has 0 points; P2 had more but dropped out


def test_more_than_11_points_wins_and_a_tie_for_the_most_plays_on() -> None:
    t = table(4)
    four = [c for c, (pts, _, _) in enumerate(rr.CARDS) if pts == 4]
    three = [c for c, (pts, _, _) in enumerate(rr.CARDS) if pts == 3]
    t["kept"][0] = four[:2] + three[:1]  # 11: not more than 11
    assert rr.check_winner(t) is None
    t["kept"][1] = four[2:5]  # 12
    assert rr.check_winner(t) == [1]
    t["kept"][3] = four[5:8]  # 12 too: tied for the most, the game goes on
    assert rr.check_winner(t) is None
    t["kept"][0].append(three[1])  # 14: a single player has the most
    assert rr.check_winner(t) == [0]


def test_dropped_out_players_do_not_count_for_points() -> None:
    t = table(4)
    four = [c for c, (pts, _, _) in enumerate(rr.CARDS) if pts == 4]
    t["kept"][0] = four[:4]  # 16, but out
    t["out"][0] = True
    t["kept"][1] = four[4:6]  # 8: P1's 16 points do not make anyone win
    assert rr.check_winner(t) is None
    t["kept"][1].append(four[6])  # 12
    assert rr.check_winner(t) == [1]


def test_everyone_left_dropping_out_at_once() -> None:
    t = table(4)
    t["out"][0] = t["out"][1] = True
    for p, kept in ((2, [card((TAXI,))]), (3, [card((TAXI, GRANDMA))])):
        t["tickets"][p] = [card((POLICE_CAR,)), card((AMBULANCE,)), card((FIRE_TRUCK,))]
        t["kept"][p] = kept
    assert rr.check_winner(t) == [3]  # the most points among those who dropped out together
    t["out"][2] = t["out"][3] = False
    assert rr.check_winner(t, nobody_wins_when_all_drop=True) == []


def test_unsecured_cards_and_discarded_tickets_go_under_the_pile() -> None:
    t = table(4)
    top = t["pile"][-5:]
    back = [t["pile"].pop(0) for _ in range(3)]
    t["laid"], t["discarded"] = back[:2], back[2:]
    t["held"] = [PUSH_BUTTON, None, None, None]
    rr.prepare_next_round(t, Rng(5))
    assert sorted(t["pile"][:3]) == sorted(back) and t["pile"][-5:] == top
    assert t["laid"] == [] and t["discarded"] == [] and t["held"] == [None] * 4
    assert t["showing"] == -1 and t["chips"] == []


# --- Whole games.

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_hundreds_of_games_end_with_every_card_in_one_place_after_every_step(players: int) -> None:
    for seed in range(100):
        t = rr.play_game(players, Rng(seed, 0), Rng(seed, 1), on_step=check_places)
        check_places(t)
        still = [p for p in range(players) if not t["out"][p]]
        winners = t["winners"]
        assert winners
        if len(still) == 1:
            assert winners == still
        elif still:
            best = max(rr.points(t, p) for p in still)
            assert winners == [p for p in still if rr.points(t, p) == best]
            assert best > rr.WINNING_POINTS or not t["pile"]
        else:
            assert set(winners) <= set(t["dropped"])
        assert all(len(t["tickets"][p]) == 3 for p in range(players) if t["out"][p])
        assert all(len(t["tickets"][p]) < 3 for p in still)


class EarlyCounting(Rng):
    """A random agent that counts, per round, the decisions taken while the chips spin."""

    def __init__(self, seed: int, stream: int) -> None:
        super().__init__(seed, stream)
        self.table: dict[str, Any] = {}
        self.early: Counter[int] = Counter()
        self.still_in: dict[int, int] = {}

    def watch(self, t: dict[str, Any]) -> None:
        self.table = t

    def pick(self, n: int) -> int:
        t = self.table
        if t["showing"] == -1:  # the chips still spin
            self.early[t["rounds"]] += 1
            self.still_in[t["rounds"]] = t["out"].count(False)
            assert n == len(t["laid"]) + 2  # every card laid, the push button, wait
        return super().pick(n)


def test_every_player_still_in_is_asked_once_while_the_chips_spin() -> None:
    fewer = 0
    for seed in range(30):
        agent = EarlyCounting(seed, 1)
        t = rr.play_game(4, Rng(seed, 0), agent, on_step=agent.watch)
        assert agent.early == agent.still_in and len(agent.early) == t["rounds"]
        fewer += any(n < 4 for n in agent.still_in.values())
    assert fewer > 0  # some rounds were played after a drop-out, and those asked fewer players


def test_options_and_seeds() -> None:
    a = [rr.playout_scores(4, Rng(s, 0), Rng(s, 1)) for s in range(30)]
    assert a == [rr.playout_scores(4, Rng(s, 0), Rng(s, 1)) for s in range(30)]
    assert len({r[0] for r in a}) == 4 and len({r[1] for r in a}) > 3
    retry = [rr.playout_scores(4, Rng(s, 0), Rng(s, 1), early_retry=True) for s in range(30)]
    assert retry != a
    for seed in range(30):
        rr.play_game(4, Rng(seed, 0), Rng(seed, 1), early_retry=True, on_step=check_places)


@pytest.mark.parametrize("players", [2, 7])
def test_rejects_bad_player_counts(players: int) -> None:
    with pytest.raises(ValueError):
        rr.playout(players, Rng(0), Rng(1))
