"""Hand-written plain-Python Hippe Kippen: the benchmark baseline.

Rules follow /work/shared/rulebooks/hippe-kippen.nl.txt as read by
docs/rulebooks/hippe-kippen.md (the notes settling what the Dutch leaves open), every
ASSUMPTION included:

- 2 to 5 players; 110 cards: 9 of each of 10 colours, 5 jokers, 5 doublers, 10 Rooster
  Booster cards; the fox.
- Setup: the 95 colour cards and jokers shuffled; 4 cards and a doubler to each player
  (the other doublers leave the game); 3 cards face up as the display; the Rooster
  Booster cards shuffled into the rest of the pile; a random first player.
- A turn: exactly 3 action points, spent one action at a time, any order, repeats
  allowed: draw from the pile (2), take a display card and refill the gap (1), start a
  collection with a hand card shown then laid face down (1), lay a card face up on one
  of one's collections (1: first a colour card of a colour one has no collection of,
  then that colour, jokers or the doubler, which closes it), move the fox (1 to one's
  own collection, 2 to the left-hand neighbour's), then a free, optional fox move to a
  collection of the left-hand neighbour.
- The fox enters when the last player lays her first face-up card (option
  ``fox_enters="first_chest"``: starts her first collection), on that collection.
- A Rooster Booster card leaving the pile is set aside; a draw or a refill then takes
  the next card (option ``booster_replaced=False``: a draw gives nothing). The 4th, 7th
  and 10th score at once; the 10th ends the game there.
- A scoring, colour by colour, the fox's collection left out: a sole row 4; else the
  longest 3 and the second 1, tied rows sharing the points of their places rounded down
  (option ``tie_share=False``: each tied row gets its place's points); a doubler
  doubles. The last scoring: -1 per hand card, -2 per collection without a face-up card.
  Most points wins; a tie is shared.

The code is what a competent engineer would write: ints and lists, one dict per
collection, no classes, no micro-optimisation. ``chance`` drives the shuffles and the
first player; ``agent`` drives the random policy, which picks uniformly among the legal
options at each decision (every ``agent.pick(n)`` is one decision among ``n``): the
same options docs/rulebooks/hippe-kippen.md lists for the future rules file.

Random numbers are drawn with the same calls as the generated code (``Rng.pick`` for every
decision and chance pick, ``Rng.shuffle``), which give the same draws as ``Rng.below``
with one call instead of two: a baseline on slower calls would flatter rulelang.

Run from the repository root: ``PYTHONPATH=. python benchmarks/baseline_hippe_kippen.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rulelang.rng import Rng

# Card kinds: colours 0..9, then the specials.
COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "Pink", "Brown", "Grey", "White")
JOKER, DOUBLER, BOOSTER = 10, 11, 12
NAMES = COLOURS + ("Joker", "Doubler", "Rooster Booster")
PER_COLOUR = 9
SPECIALS = 5  # jokers, and doublers
BOOSTERS = 10

# Card ids: 0..89 colour cards (9 per colour), 90..94 jokers, 95..99 doublers, 100..109 boosters.
KIND: tuple[int, ...] = (
    tuple(c for c in range(len(COLOURS)) for _ in range(PER_COLOUR))
    + (JOKER,) * SPECIALS + (DOUBLER,) * SPECIALS + (BOOSTER,) * BOOSTERS
)
CARDS = len(KIND)

HAND_START = 4
DISPLAY = 3
ACTION_POINTS = 3
SCORINGS = (4, 7, 10)  # the Rooster Booster cards that score; the last ends the game
MONOPOLY, FIRST, SECOND = 4, 3, 1

# Actions: (what, kind or owner, collection index); costs below.
DRAW, TAKE, START, LAY, FOX = range(5)


# --- Scoring.
def place_points(lengths: list[int], tie_share: bool = True) -> list[int]:
    """Points (before doubling) of the rows of one colour, given their lengths."""
    if len(lengths) == 1:
        return [MONOPOLY]
    ranked = sorted(set(lengths), reverse=True)
    longest = [i for i, n in enumerate(lengths) if n == ranked[0]]
    second = [i for i, n in enumerate(lengths) if len(ranked) > 1 and n == ranked[1]]
    result = [0] * len(lengths)
    if tie_share:  # tied rows add up the points of the places they occupy and share them
        if len(longest) > 1:
            for i in longest:
                result[i] = (FIRST + SECOND) // len(longest)
        else:
            result[longest[0]] = FIRST
            for i in second:
                result[i] = SECOND // len(second)
    else:  # each tied row gets its place's points
        for i in longest:
            result[i] = FIRST
        for i in second:
            result[i] = SECOND
    return result


def row_length(coll: dict[str, Any]) -> int:
    """Cards in a collection's row: its face-up colour cards and jokers (not the doubler)."""
    return len(coll["up"]) - coll["doubled"]


def score_sheets(colls: list[list[dict[str, Any]]], fox: tuple[int, int] | None, hands: list[list[int]],
                 final: bool, tie_share: bool = True) -> list[dict[str, int]]:
    """One scoring: each player's points per colour (and the last scoring's penalties)."""
    players = len(colls)
    sheets: list[dict[str, int]] = [{} for _ in range(players)]
    for colour, name in enumerate(COLOURS):
        rows = [(p, i) for p in range(players) for i, coll in enumerate(colls[p])
                if coll["colour"] == colour and (p, i) != fox]  # the fox's row does not exist
        if not rows:
            continue
        awarded = place_points([row_length(colls[p][i]) for p, i in rows], tie_share)
        for (p, i), pts in zip(rows, awarded):
            sheets[p][name] = pts * 2 if colls[p][i]["doubled"] else pts
    if final:
        for p in range(players):
            sheets[p]["Cards in hand"] = -len(hands[p])
            sheets[p]["Face-down cards alone"] = -2 * sum(1 for coll in colls[p] if not coll["up"])
    return sheets


# --- The table.
def new_table(players: int, chance: Rng) -> dict[str, Any]:
    """Setup. The table: ``pile`` (ids, top last), ``display``, ``hands``, ``colls`` (per
    player, dicts with ``chest``, ``up``, ``colour`` (-1 before the first face-up card),
    ``doubled``), ``collected`` (per player, the colours of her collections), ``fox``
    ((owner, index) or None beside the pile), ``opened`` (players who count towards the
    fox's entry), ``aside`` (Rooster Boosters), ``removed`` (doublers out of the game),
    ``scores``, ``sheets`` (one list per scoring), ``current``, ``ap`` (action points
    left), ``spent`` (points spent per finished turn), ``turns``, ``over``.
    """
    if not 2 <= players <= 5:
        raise ValueError("Hippe Kippen is for 2 to 5 players")
    pile = [c for c in range(CARDS) if KIND[c] < DOUBLER]  # 90 colour cards and 5 jokers
    chance.shuffle(pile)
    doublers = [c for c in range(CARDS) if KIND[c] == DOUBLER]
    hands = [[pile.pop() for _ in range(HAND_START)] for _ in range(players)]
    for p in range(players):
        hands[p].append(doublers.pop())
    display = [pile.pop() for _ in range(DISPLAY)]
    pile += [c for c in range(CARDS) if KIND[c] == BOOSTER]
    chance.shuffle(pile)
    return {
        "players": players, "pile": pile, "display": display, "hands": hands,
        "colls": [[] for _ in range(players)], "collected": [set() for _ in range(players)],
        "fox": None, "opened": set(), "aside": [],
        "removed": doublers, "scores": [0] * players, "sheets": [], "current": chance.pick(players),
        "ap": 0, "spent": [], "turns": 0, "over": False,
    }


def neighbour(t: dict[str, Any], p: int) -> int:
    """The left-hand neighbour: the next player clockwise."""
    return (p + 1) % t["players"]


# --- Rooster Booster cards: set aside, and every 4th/7th/10th scores at once.
def booster_drawn(t: dict[str, Any], card: int, tie_share: bool) -> None:
    """Set a Rooster Booster card aside; score at the 4th, 7th and 10th; the 10th ends the game."""
    t["aside"].append(card)
    n = len(t["aside"])
    if n in SCORINGS:
        final = n == SCORINGS[-1]
        sheets = score_sheets(t["colls"], t["fox"], t["hands"], final, tie_share)
        t["sheets"].append(sheets)
        for p, sheet in enumerate(sheets):
            t["scores"][p] += sum(sheet.values())
        if final:
            t["over"] = True


def turn_up(t: dict[str, Any], tie_share: bool) -> int | None:
    """Take the top card of the pile; a Rooster Booster is set aside (None is returned)."""
    card = t["pile"].pop()
    if KIND[card] == BOOSTER:
        booster_drawn(t, card, tie_share)
        return None
    return card


# --- The actions.
def can_lay(t: dict[str, Any], p: int, coll: dict[str, Any], kind: int) -> bool:
    """May ``kind`` be laid face up on this collection of player ``p``?"""
    if coll["doubled"]:  # the doubler is the last card
        return False
    if coll["colour"] < 0:  # the first face-up card: a colour she collects nowhere else
        return kind < JOKER and kind not in t["collected"][p]
    return kind in (coll["colour"], JOKER, DOUBLER)


def actions(t: dict[str, Any], p: int) -> list[tuple[int, int, int]]:
    """Every action player ``p`` can afford now, one per option offered (``can_lay``, inlined)."""
    ap = t["ap"]
    hand_kinds = sorted({KIND[c] for c in t["hands"][p]})
    options: list[tuple[int, int, int]] = []
    if ap >= 2 and t["pile"]:
        options.append((DRAW, 0, 0))  # draw a card from the pile
    options.extend((TAKE, k, 0) for k in sorted({KIND[c] for c in t["display"]}))  # take {kind} from the display
    options.extend((START, k, 0) for k in hand_kinds)  # start a collection with {kind}
    colls = t["colls"][p]
    collected = t["collected"][p]
    for k in hand_kinds:  # lay {kind} on {collection}
        first_ok = k < JOKER and k not in collected
        for i, coll in enumerate(colls):
            colour = coll["colour"]
            if not coll["doubled"] and (first_ok if colour < 0 else k == colour or k >= JOKER):
                options.append((LAY, k, i))
    fox = t["fox"]
    if fox is not None:  # move the fox to {collection}
        options.extend((FOX, p, i) for i in range(len(colls)) if (p, i) != fox)
        if ap >= 2:
            q = neighbour(t, p)
            options.extend((FOX, q, i) for i in range(len(t["colls"][q])) if (q, i) != fox)
    return options


def cost(p: int, action: tuple[int, int, int]) -> int:
    """Action points an action costs player ``p``."""
    what, who, _ = action
    if what == DRAW or (what == FOX and who != p):
        return 2
    return 1


def _take_from_hand(hand: list[int], kind: int) -> int:
    for i in range(len(hand) - 1, -1, -1):
        if KIND[hand[i]] == kind:
            return hand.pop(i)
    raise AssertionError(f"no {NAMES[kind]} in hand")


def _opened(t: dict[str, Any], p: int, i: int) -> None:
    """Player ``p`` opened collection ``i``: the last player to do so gets the fox on it."""
    if p in t["opened"]:
        return
    t["opened"].add(p)
    if t["fox"] is None and len(t["opened"]) == t["players"]:
        t["fox"] = (p, i)


def do_action(t: dict[str, Any], p: int, action: tuple[int, int, int], booster_replaced: bool,
              fox_enters: str, tie_share: bool) -> None:
    """Carry out one paid action of player ``p``."""
    what, k, i = action
    hand = t["hands"][p]
    if what == DRAW:
        while t["pile"]:
            card = turn_up(t, tie_share)
            if card is not None:
                hand.append(card)
                return
            if t["over"] or not booster_replaced:
                return
    elif what == TAKE:
        slot = next(s for s, c in enumerate(t["display"]) if KIND[c] == k)
        hand.append(t["display"][slot])
        while t["pile"]:  # refill the gap, setting Rooster Boosters aside
            card = turn_up(t, tie_share)
            if card is not None:
                t["display"][slot] = card
                return
            if t["over"]:
                break
        del t["display"][slot]
    elif what == START:
        t["colls"][p].append({"chest": _take_from_hand(hand, k), "up": [], "colour": -1, "doubled": False})
        if fox_enters == "first_chest":
            _opened(t, p, len(t["colls"][p]) - 1)
    elif what == LAY:
        coll = t["colls"][p][i]
        coll["up"].append(_take_from_hand(hand, k))
        if coll["colour"] < 0:
            coll["colour"] = k
            t["collected"][p].add(k)
            if fox_enters == "first_face_up":
                _opened(t, p, i)
        elif k == DOUBLER:
            coll["doubled"] = True
    else:  # FOX: k is the owner of the collection
        t["fox"] = (k, i)


def free_fox_move(t: dict[str, Any], p: int, agent: Rng) -> None:
    """At the end of her turn she may move the fox to a collection of her left-hand neighbour."""
    fox = t["fox"]
    if fox is None:
        return
    q = neighbour(t, p)
    targets = [i for i in range(len(t["colls"][q])) if (q, i) != fox]
    if targets:
        choice = agent.pick(len(targets) + 1)  # move the fox to {collection} / leave the fox where it is
        if choice < len(targets):
            t["fox"] = (q, targets[choice])


def play_turn(t: dict[str, Any], agent: Rng, booster_replaced: bool = True, fox_enters: str = "first_face_up",
              tie_share: bool = True, on_step: Callable[[dict[str, Any]], None] | None = None) -> None:
    """The current player spends exactly 3 action points, then may move the fox for free."""
    p = t["current"]
    t["turns"] += 1
    t["ap"] = ACTION_POINTS
    while t["ap"] > 0:
        options = actions(t, p)
        if not options:
            raise AssertionError("a player with action points left has nothing to do")
        action = options[agent.pick(len(options))]
        t["ap"] -= cost(p, action)
        do_action(t, p, action, booster_replaced, fox_enters, tie_share)
        if on_step:
            on_step(t)
        if t["over"]:
            return
    t["spent"].append(ACTION_POINTS - t["ap"])
    free_fox_move(t, p, agent)
    if on_step:
        on_step(t)
    t["current"] = neighbour(t, p)


def play_game(players: int, chance: Rng, agent: Rng, booster_replaced: bool = True,
              fox_enters: str = "first_face_up", tie_share: bool = True,
              on_step: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play one random game; return the table at the end (see ``new_table``).

    ``on_step`` (for tests) is called with the table after setup and after every action.
    """
    if fox_enters not in ("first_face_up", "first_chest"):
        raise ValueError(f"unknown fox_enters {fox_enters!r}")
    t = new_table(players, chance)
    if on_step:
        on_step(t)
    while not t["over"]:
        play_turn(t, agent, booster_replaced, fox_enters, tie_share, on_step)
    return t


def winners(t: dict[str, Any]) -> list[int]:
    """The players with the most points (a tie is shared)."""
    best = max(t["scores"])
    return [p for p, s in enumerate(t["scores"]) if s == best]


def playout_scores(players: int, chance: Rng, agent: Rng, booster_replaced: bool = True,
                   fox_enters: str = "first_face_up", tie_share: bool = True) -> tuple[int, int, list[int]]:
    """Play one random game; return (first winner's seat, turns played, final scores)."""
    t = play_game(players, chance, agent, booster_replaced, fox_enters, tie_share)
    return winners(t)[0], t["turns"], t["scores"]


def playout(players: int, chance: Rng, agent: Rng, booster_replaced: bool = True,
            fox_enters: str = "first_face_up", tie_share: bool = True) -> tuple[int, int]:
    """Play one random game; return (first winner's seat, turns played)."""
    winner, turns, _ = playout_scores(players, chance, agent, booster_replaced, fox_enters, tie_share)
    return winner, turns


def _bench(games: int = 500) -> None:
    for players in (2, 4, 5):
        turns = 0
        start = time.perf_counter()
        for game in range(games):
            turns += playout(players, Rng(game, 0), Rng(game, 1))[1]
        elapsed = time.perf_counter() - start
        print(f"hippe-kippen: {games} games ({players} players) in {elapsed:.3f}s = "
              f"{games / elapsed:.0f} games/s, {turns / games:.1f} turns/game")


if __name__ == "__main__":
    _bench()
