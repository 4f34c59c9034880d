"""Hand-written plain-Python Rooster Rush: the benchmark baseline.

Rules follow /work/shared/rulebooks/rooster-rush.txt as read by
docs/rulebooks/rooster-rush.md, every ASSUMPTION included:

- 3 to 6 players; 40 road cards as listed in ``CARDS`` (points, vehicles drawn on the
  front, back); 5 two-sided vehicle chips; the push-button card.
- A round, for the whole table (nobody has a turn):
  1. lay 3 cards (3 players) or 4 (4 to 6, unchanged after drop-outs) face down from the
     top of the pile (all it has if fewer; an empty pile ends the game);
  2. one chip per distinct vehicle on the backs (a red light gives none), handed to the
     players still in from P1, then to those who dropped out (narration only);
  3. the cards are turned face up;
  4. the chips are spun: each lands vehicle side up with probability 1/2, revealed when
     they stop, after the early presses;
  5. the race (with no chip in use, nothing spins and it starts at the late presses):
     every player still in presses a card while the chips spin or waits; a card
     pressed by several goes to one of them by chance; the chips stop; those who hold
     nothing and have not declined press a free card or secure nothing, again and again
     for the losers of each conflict (option ``early_retry``: the losers of an early
     conflict press again before the chips stop);
  6. a secured card with no vehicle showing on a chip is kept for its points, else it
     becomes a Violation Ticket; if every laid card failed, the push-button holder
     discards the ticket of her choice;
  7. 3 tickets: out. One player still in wins; if none is left, the most points among
     those who dropped out this round (option ``nobody_wins_when_all_drop``); more than 11
     points: the most points among the players still in wins, a tie plays on. Otherwise
     the unsecured cards and discarded tickets are shuffled under the pile.

The code is what a competent engineer would write: ints, lists and bit masks, no
classes, no micro-optimisation. ``chance`` drives the shuffles, the chips and who
pressed first; ``agent`` drives the random policy, which picks uniformly among the
legal options at each decision (every ``agent.pick(n)`` is one decision among ``n``):
the same options docs/rulebooks/rooster-rush.md lists for the future rules file.

Random numbers are drawn with the same calls as the generated code (``Rng.pick`` for every
decision and chance pick, ``Rng.shuffle``), which give the same draws as ``Rng.below``
with one call instead of two: a baseline on slower calls would flatter rulelang.

Run from the repository root: ``PYTHONPATH=. python benchmarks/baseline_rooster_rush.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rulelang.rng import Rng

# Vehicles (chips, drawings, backs); a red-light back shows no vehicle.
FIRE_TRUCK, AMBULANCE, POLICE_CAR, TAXI, GRANDMA = range(5)
RED_LIGHT = 5
VEHICLES = ("Fire Truck", "Ambulance", "Police Car", "Taxi", "Grandma")

# The 40 road cards: (points, vehicles drawn on the front, back), as in the reading's table.
CARDS: tuple[tuple[int, tuple[int, ...], int], ...] = (
    (2, (FIRE_TRUCK,), RED_LIGHT),  # 1
    (2, (AMBULANCE,), FIRE_TRUCK),  # 2
    (2, (POLICE_CAR,), AMBULANCE),  # 3
    (2, (TAXI,), POLICE_CAR),  # 4
    (2, (GRANDMA,), TAXI),  # 5
    (2, (FIRE_TRUCK,), GRANDMA),  # 6
    (2, (AMBULANCE,), FIRE_TRUCK),  # 7
    (2, (POLICE_CAR,), AMBULANCE),  # 8
    (2, (TAXI,), RED_LIGHT),  # 9
    (2, (GRANDMA,), POLICE_CAR),  # 10
    (3, (FIRE_TRUCK, AMBULANCE), TAXI),  # 11
    (3, (FIRE_TRUCK, POLICE_CAR), GRANDMA),  # 12
    (3, (FIRE_TRUCK, TAXI), FIRE_TRUCK),  # 13
    (3, (FIRE_TRUCK, GRANDMA), AMBULANCE),  # 14
    (3, (AMBULANCE, POLICE_CAR), POLICE_CAR),  # 15
    (3, (AMBULANCE, TAXI), TAXI),  # 16
    (3, (AMBULANCE, GRANDMA), RED_LIGHT),  # 17
    (3, (POLICE_CAR, TAXI), GRANDMA),  # 18
    (3, (POLICE_CAR, GRANDMA), FIRE_TRUCK),  # 19
    (3, (TAXI, GRANDMA), AMBULANCE),  # 20
    (3, (FIRE_TRUCK, AMBULANCE), POLICE_CAR),  # 21
    (3, (FIRE_TRUCK, POLICE_CAR), TAXI),  # 22
    (3, (FIRE_TRUCK, TAXI), GRANDMA),  # 23
    (3, (FIRE_TRUCK, GRANDMA), FIRE_TRUCK),  # 24
    (3, (AMBULANCE, POLICE_CAR), RED_LIGHT),  # 25
    (3, (AMBULANCE, TAXI), AMBULANCE),  # 26
    (3, (AMBULANCE, GRANDMA), POLICE_CAR),  # 27
    (3, (POLICE_CAR, TAXI), TAXI),  # 28
    (3, (POLICE_CAR, GRANDMA), GRANDMA),  # 29
    (3, (TAXI, GRANDMA), FIRE_TRUCK),  # 30
    (4, (FIRE_TRUCK, AMBULANCE, POLICE_CAR), AMBULANCE),  # 31
    (4, (FIRE_TRUCK, AMBULANCE, TAXI), POLICE_CAR),  # 32
    (4, (FIRE_TRUCK, AMBULANCE, GRANDMA), RED_LIGHT),  # 33
    (4, (FIRE_TRUCK, POLICE_CAR, TAXI), TAXI),  # 34
    (4, (FIRE_TRUCK, POLICE_CAR, GRANDMA), GRANDMA),  # 35
    (4, (FIRE_TRUCK, TAXI, GRANDMA), FIRE_TRUCK),  # 36
    (4, (AMBULANCE, POLICE_CAR, TAXI), AMBULANCE),  # 37
    (4, (AMBULANCE, POLICE_CAR, GRANDMA), POLICE_CAR),  # 38
    (4, (AMBULANCE, TAXI, GRANDMA), TAXI),  # 39
    (4, (POLICE_CAR, TAXI, GRANDMA), GRANDMA),  # 40
)
POINTS = tuple(points for points, _, _ in CARDS)
DRAWN = tuple(sum(1 << v for v in drawn) for _, drawn, _ in CARDS)  # bit mask of vehicles
BACK = tuple(back for _, _, back in CARDS)

PUSH_BUTTON = len(CARDS)  # the push-button card, as a target of the race
MAX_TICKETS = 3  # a player holding this many drops out
WINNING_POINTS = 11  # a player needs more than this


def cards_to_lay(players: int) -> int:
    """Road cards laid each round: 3 for 3 players, 4 for 4 to 6, counted at the start."""
    return 3 if players == 3 else 4


def chips_in_use(laid: list[int]) -> list[int]:
    """The vehicle chips of a round: one per distinct vehicle on the laid cards' backs."""
    return sorted({BACK[c] for c in laid} - {RED_LIGHT})


def chip_holders(chips: int, out: list[bool]) -> list[int]:
    """Who spins each chip: the players still in from P1, then those who dropped out."""
    order = [p for p in range(len(out)) if not out[p]] + [p for p in range(len(out)) if out[p]]
    return order[:chips]


def crossing_succeeds(card: int, showing: int) -> bool:
    """True if no vehicle drawn on ``card`` shows on a stopped chip (``showing``: bit mask)."""
    return DRAWN[card] & showing == 0


def push_button_pays(laid: list[int], showing: int) -> bool:
    """True if every road card laid this round, secured or not, is a failed crossing."""
    return all(not crossing_succeeds(c, showing) for c in laid)


def points(t: dict[str, Any], p: int) -> int:
    """A player's points: the points of the road cards she keeps."""
    return sum(POINTS[c] for c in t["kept"][p])


def new_table(players: int, chance: Rng) -> dict[str, Any]:
    """Setup: the push-button card in the center, the road cards shuffled face down.

    The table: ``pile`` (card ids, top last), ``laid`` (this round's road cards),
    ``revealed`` (their fronts are up), ``chips`` (the vehicles spun this round),
    ``holders`` (who spins each), ``showing`` (bit mask of the vehicles the stopped chips
    show, -1 while spinning), ``held`` (per player: the card secured this round, or None),
    ``kept`` and ``tickets`` (per player), ``discarded`` (tickets discarded this round),
    ``out`` (per player), ``dropped`` (those who dropped out in the last round),
    ``per_round`` (cards laid each round), ``rounds``, ``winners`` (set when the game ends).
    """
    if not 3 <= players <= 6:
        raise ValueError("Rooster Rush is for 3 to 6 players")
    pile = list(range(len(CARDS)))
    chance.shuffle(pile)
    return {
        "players": players, "pile": pile, "laid": [], "revealed": False, "chips": [], "holders": [],
        "showing": -1, "held": [None] * players, "kept": [[] for _ in range(players)],
        "tickets": [[] for _ in range(players)], "discarded": [], "out": [False] * players,
        "dropped": [], "per_round": cards_to_lay(players), "rounds": 0, "winners": None,
    }


# --- Step 1. Placing the road cards.
def place_road_cards(t: dict[str, Any]) -> bool:
    """Lay this round's cards face down from the top of the pile; False if the pile is empty."""
    pile = t["pile"]
    if not pile:
        return False
    t["laid"] = [pile.pop() for _ in range(min(t["per_round"], len(pile)))]
    t["revealed"] = False
    return True


# --- Step 2. Receiving vehicle chips.
def receive_chips(t: dict[str, Any]) -> None:
    """Hand out one chip per distinct vehicle on the backs."""
    t["chips"] = chips_in_use(t["laid"])
    t["holders"] = chip_holders(len(t["chips"]), t["out"])


# --- Step 3. Revealing the road cards.
def reveal(t: dict[str, Any]) -> None:
    """Turn every laid card face up."""
    t["revealed"] = True


# --- Step 4. Spinning the vehicle chips (they land when they stop, in step 5).
def spin(t: dict[str, Any]) -> None:
    """Set the chips spinning: none shows a side until they stop."""
    t["showing"] = -1


def stop_chips(t: dict[str, Any], chance: Rng) -> None:
    """Each spun chip lands vehicle side up (chance 1/2) or crosswalk side up."""
    showing = 0
    for v in t["chips"]:
        if chance.pick(2) == 0:
            showing |= 1 << v
    t["showing"] = showing


# --- Step 5. Securing cards: the race.
def _presses(pressers: list[int], free: list[int], agent: Rng) -> dict[int, list[int]]:
    """Each presser at once picks a free target or declines (the last option); target -> claimants."""
    claims: dict[int, list[int]] = {}
    n = len(free)
    for p in pressers:
        i = agent.pick(n + 1)  # press {card} for each free card / wait (or secure nothing)
        if i < n:
            claims.setdefault(free[i], []).append(p)
    return claims


def _settle(t: dict[str, Any], claims: dict[int, list[int]], free: list[int], chance: Rng) -> list[int]:
    """Each claimed target goes to the first to press it (chance among several); return the losers."""
    losers = []
    for target in list(free):
        claimants = claims.get(target)
        if not claimants:
            continue
        first = claimants[chance.pick(len(claimants))] if len(claimants) > 1 else claimants[0]
        t["held"][first] = target
        free.remove(target)
        losers.extend(p for p in claimants if p != first)
    return sorted(losers)


def secure_cards(t: dict[str, Any], chance: Rng, agent: Rng, early_retry: bool = False) -> None:
    """Early presses while the chips spin, then the chips stop, then late presses."""
    free = t["laid"] + [PUSH_BUTTON]
    t["held"] = [None] * t["players"]
    pressers = [p for p in range(t["players"]) if not t["out"][p]]
    waiting: list[int] = []
    if not t["chips"]:  # nothing spins: nothing to wait for, everyone presses at once (the late options)
        waiting, pressers = pressers, []
    while pressers and free:  # early: "press {card} while the chips spin" / "wait until the chips stop"
        claims = _presses(pressers, free, agent)
        pressed = {p for claimants in claims.values() for p in claimants}
        waiting.extend(p for p in pressers if p not in pressed)
        losers = _settle(t, claims, free, chance)
        if not early_retry:
            waiting.extend(losers)
            break
        pressers = losers
    stop_chips(t, chance)
    pressers = sorted(p for p in waiting if t["held"][p] is None)
    while pressers and free:  # late: "press {card}" / "secure nothing" (final)
        claims = _presses(pressers, free, agent)
        pressers = _settle(t, claims, free, chance)


# --- Step 6. Checking and scoring.
def check_and_score(t: dict[str, Any], agent: Rng) -> None:
    """Successful crossings are kept, failed ones become tickets; the push button may pay."""
    showing = t["showing"]
    laid = t["laid"]
    every_crossing_failed = push_button_pays(laid, showing)  # secured or not
    for p, card in enumerate(t["held"]):
        if card is None or card == PUSH_BUTTON:
            continue
        laid.remove(card)  # what stays laid is what nobody secured
        if crossing_succeeds(card, showing):
            t["kept"][p].append(card)
        else:
            t["tickets"][p].append(card)
    if PUSH_BUTTON in t["held"] and every_crossing_failed:
        tickets = t["tickets"][t["held"].index(PUSH_BUTTON)]
        if tickets:
            t["discarded"].append(tickets.pop(agent.pick(len(tickets))))  # discard {ticket}


# --- Step 7. Preparing for the next round.
def _most(t: dict[str, Any], among: list[int]) -> list[int]:
    best = max(points(t, p) for p in among)
    return [p for p in among if points(t, p) == best]


def check_winner(t: dict[str, Any], nobody_wins_when_all_drop: bool = False) -> list[int] | None:
    """Drop out players with 3 tickets; return the winners, or None if the game goes on."""
    players = range(t["players"])
    t["dropped"] = [p for p in players if not t["out"][p] and len(t["tickets"][p]) >= MAX_TICKETS]
    for p in t["dropped"]:
        t["out"][p] = True
    still = [p for p in players if not t["out"][p]]
    if len(still) == 1:
        return still
    if not still:
        return [] if nobody_wins_when_all_drop else _most(t, t["dropped"])
    if any(points(t, p) > WINNING_POINTS for p in still):
        leaders = _most(t, still)
        if len(leaders) == 1:
            return leaders
    return None


def prepare_next_round(t: dict[str, Any], chance: Rng) -> None:
    """The unsecured cards and discarded tickets, shuffled together, go under the pile."""
    back = t["laid"] + t["discarded"]
    chance.shuffle(back)
    t["pile"][0:0] = back
    t["laid"] = []
    t["discarded"] = []
    t["held"] = [None] * t["players"]
    t["chips"] = []
    t["holders"] = []
    t["showing"] = -1
    t["revealed"] = False


def play_round(t: dict[str, Any], chance: Rng, agent: Rng, early_retry: bool = False,
               nobody_wins_when_all_drop: bool = False,
               on_step: Callable[[dict[str, Any]], None] | None = None) -> bool:
    """Play the seven steps of one round; True if the game is over (``t["winners"]`` set)."""
    def step_done() -> None:
        if on_step:
            on_step(t)

    t["rounds"] += 1
    if not place_road_cards(t):  # an empty pile ends the game
        t["winners"] = _most(t, [p for p in range(t["players"]) if not t["out"][p]])
        return True
    step_done()
    receive_chips(t)
    step_done()
    reveal(t)
    step_done()
    spin(t)
    step_done()
    secure_cards(t, chance, agent, early_retry)
    step_done()
    check_and_score(t, agent)
    step_done()
    winners = check_winner(t, nobody_wins_when_all_drop)
    if winners is not None:
        t["winners"] = winners
        return True
    prepare_next_round(t, chance)
    step_done()
    return False


def play_game(players: int, chance: Rng, agent: Rng, early_retry: bool = False,
              nobody_wins_when_all_drop: bool = False,
              on_step: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play one random game; return the table at the end (see ``new_table``).

    ``on_step`` (for tests) is called with the table after setup and after every step.
    """
    t = new_table(players, chance)
    if on_step:
        on_step(t)
    while not play_round(t, chance, agent, early_retry, nobody_wins_when_all_drop, on_step):
        pass
    return t


def playout_scores(players: int, chance: Rng, agent: Rng, early_retry: bool = False,
                   nobody_wins_when_all_drop: bool = False) -> tuple[int, int, list[int]]:
    """Play one random game; return (winner seat or -1, rounds played, final points)."""
    t = play_game(players, chance, agent, early_retry, nobody_wins_when_all_drop)
    winner = t["winners"][0] if t["winners"] else -1
    return winner, t["rounds"], [points(t, p) for p in range(players)]


def playout(players: int, chance: Rng, agent: Rng, early_retry: bool = False,
            nobody_wins_when_all_drop: bool = False) -> tuple[int, int]:
    """Play one random game; return (winner seat or -1, rounds played)."""
    winner, rounds, _ = playout_scores(players, chance, agent, early_retry, nobody_wins_when_all_drop)
    return winner, rounds


def _bench(games: int = 2000) -> None:
    for players in (3, 4, 6):
        rounds = 0
        start = time.perf_counter()
        for game in range(games):
            rounds += playout(players, Rng(game, 0), Rng(game, 1))[1]
        elapsed = time.perf_counter() - start
        print(f"rooster-rush: {games} games ({players} players) in {elapsed:.3f}s = "
              f"{games / elapsed:.0f} games/s, {rounds / games:.1f} rounds/game")


if __name__ == "__main__":
    _bench()
