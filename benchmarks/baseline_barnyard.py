"""Hand-written plain-Python Barnyard Roundup (and its two-player variant): the benchmark baseline.

Rules follow /work/shared/rulebooks/barnyard-roundup.txt as read by games/barnyard.rules
and every ASSUMPTION written there (games/barnyard-2p.rules for ``two_player``):

- 15 of each animal and 15 Crows; Animal Bonus cards worth 5 each to a sole leader
  (``GRADED_BONUS``, Cow 10 ... Chicken 4, is option equal_bonuses = false); 10 points
  per complete set; Crows -5.
- Tokens: a Robber and an Excuse Me per player (no Excuse Me in the two-player variant),
  each player draws one, then the Scarecrow is added. Hand of 6 (2-4 players) or 5
  (5-6); the top 8 cards (20 in the two-player variant) leave the game; the first
  player is random.
- A turn: Robbers (before the bluff), exactly one bluff, Robbers (after the bluff), draw
  up to the hand limit (the current player is asked about Robbers even without one).
  Excuse Me is asked of every other player, holding one or not (not the
  one deciding) before and again after the guess; the first clockwise from the bluffer
  who says yes decides instead, only one per bluff.
- Each multiple of 3 Crows reached in a pen draws one token, again after losing Crows,
  but at most once per turn (Crows lost are forgotten at the end of the turn). The
  Scarecrow resolves when drawn: the last 3 Crows of the drawer's pen are scared away
  and the current player chooses, Crow by Crow, the pen of another player (not the
  drawer) where each lands.
- The game ends at the end of the turn in which the deck runs out (the current player
  still bluffs and plays Robbers after a robbed player drew the last card); Crows in
  hand go to the pens, other cards in hand are discarded.

The code is what a competent engineer would write: ints and count lists, no classes,
no micro-optimisation. ``chance`` drives the shuffle, token draws and the first player;
``agent`` drives the random policy, which picks uniformly among the legal options at
each decision -- the same options games/barnyard.rules offers a RandomAgent (one list
entry per rulelang action label), so both sides play the same game.

Random numbers are drawn with the same calls as the generated code (``Rng.pick`` for every
decision and chance pick, ``Rng.shuffle``), which give the same draws as ``Rng.below``
with one call instead of two: a baseline on slower calls would flatter rulelang.

Run from the repository root: ``PYTHONPATH=. python benchmarks/baseline_barnyard.py``.
"""

from __future__ import annotations

import time
from typing import Any

from rulelang.rng import Rng

# Card kinds (index into the per-kind count lists), in the order of the rules file.
COW, PIG, SHEEP, GOAT, CHICKEN, CROW = range(6)
KINDS = 6
ANIMALS = (COW, PIG, SHEEP, GOAT, CHICKEN)
NAMES = ("Cow", "Pig", "Sheep", "Goat", "Chicken", "Crow")
CARDS_PER_KIND = 15
POINTS = (5, 4, 3, 2, 1, -5)
ANIMAL_BONUS = (5, 5, 5, 5, 5)
GRADED_BONUS = (10, 8, 7, 6, 4)
SET_BONUS = 10

# Action tokens (index into the token count lists).
ROBBER, EXCUSE_ME, SCARECROW = range(3)

# Score sheet lines, as in games/barnyard.rules.
SHEET_LINES = ("Cows", "Pigs", "Sheep", "Goats", "Chickens", "Crows", "Animal Bonus cards", "Set Bonus cards")


def score_sheets(pens: list[list[int]], bonus: tuple[int, ...] = ANIMAL_BONUS) -> list[dict[str, int]]:
    """Each player's score sheet from the pens (per-kind counts, Crows last)."""
    sheets = []
    for p, pen in enumerate(pens):
        others = [other for q, other in enumerate(pens) if q != p]
        sheet = {line: POINTS[k] * pen[k] for line, k in zip(SHEET_LINES, range(KINDS))}
        sheet["Animal Bonus cards"] = sum(
            bonus[k] for k in ANIMALS if pen[k] > max(other[k] for other in others)
        )
        sheet["Set Bonus cards"] = SET_BONUS * min(pen[k] for k in ANIMALS)
        sheets.append(sheet)
    return sheets


def rank(pens: list[list[int]], scores: list[int] | None = None) -> list[int]:
    """Seats from first to last: most points, then most animals, then fewest Crows.

    Players equal on all three share the win; this lists them in seat order (as the
    rulelang engine does) and ``playout`` reports the first of them. ``scores``: the
    players' points where the caller has them already (the sheets are not made twice).
    """
    if scores is None:
        scores = [sum(sheet.values()) for sheet in score_sheets(pens)]
    return sorted(range(len(pens)),
                  key=lambda p: (-scores[p], -sum(pens[p][k] for k in ANIMALS), pens[p][CROW], p))


def play_game(players: int, chance: Rng, agent: Rng, two_player: bool = False) -> dict[str, Any]:
    """Play one random game; return the table at the end.

    The table: ``pens``, ``hands``, ``held`` (tokens: [Robber, Excuse Me]), ``pool``
    ([Robber, Excuse Me, Scarecrow]), ``deck`` (kinds, top last), ``box`` (per-kind
    counts of the cards out of the game: removed at setup, discarded from hands at the
    end), ``rewarded`` (multiples of 3 Crows rewarded, as of the end), ``turns``.
    """
    if two_player and players != 2:
        raise ValueError("the two-player variant is for 2 players")
    if not 2 <= players <= 6:
        raise ValueError("Barnyard Roundup is for 2 to 6 players")

    # --- Set up.
    pool = [players, 0 if two_player else players, 0]
    held = [[0, 0] for _ in range(players)]
    for p in range(players):
        token = chance.weighted(pool)
        pool[token] -= 1
        held[p][token] += 1
    pool[SCARECROW] = 1
    deck = [k for k in range(KINDS) for _ in range(CARDS_PER_KIND)]
    chance.shuffle(deck)
    hand_limit = 5 if players >= 5 else 6
    hands = [[0] * KINDS for _ in range(players)]
    for p in range(players):
        for _ in range(hand_limit):
            hands[p][deck.pop()] += 1
    box = [0] * KINDS
    for _ in range(20 if two_player else 8):
        box[deck.pop()] += 1
    pens = [[0] * KINDS for _ in range(players)]
    rewarded = [0] * players
    current = chance.pick(players)

    # --- Crows and the Scarecrow.
    def reward_crows(p: int) -> None:
        """Draw a token for each new multiple of 3 Crows in p's pen (once per turn each)."""
        new = pens[p][CROW] // 3 - rewarded[p]
        if new <= 0:
            return
        rewarded[p] += new
        for _ in range(new):
            if not any(pool):
                return
            token = chance.weighted(pool)
            pool[token] -= 1
            if token == SCARECROW:
                scarecrow(p)
            else:
                held[p][token] += 1

    def scarecrow(p: int) -> None:
        """The last 3 Crows of p's pen are scared away; the current player places each in another's pen."""
        pool[SCARECROW] += 1  # back in the mix first: its Crows may earn a token that draws it again
        scared = min(3, pens[p][CROW])
        pens[p][CROW] -= scared
        targets = [q for q in range(players) if q != p]
        for _ in range(scared):
            q = targets[agent.pick(len(targets))]  # the current player's choice
            pens[q][CROW] += 1
            reward_crows(q)

    def forget_lost_crows() -> None:
        """End of turn: a pen that lost Crows may be rewarded for the same multiple again."""
        for p in range(players):
            rewarded[p] = min(rewarded[p], pens[p][CROW] // 3)

    # --- Drawing up (nothing once the deck is empty).
    def draw_up(p: int) -> None:
        """Refill p's hand from the deck."""
        hand = hands[p]
        while sum(hand) < hand_limit and deck:
            hand[deck.pop()] += 1

    # --- Robbers.
    def play_tokens() -> None:
        """The current player plays Robbers until choosing to stop."""
        others = [(current + i) % players for i in range(1, players)]
        while True:  # asked even without a Robber, so passing reveals nothing
            options: list[tuple[int, int] | None] = (
                [(q, k) for q in others for k in ANIMALS] if held[current][ROBBER] else [])
            options.append(None)  # play no more tokens now
            choice = options[agent.pick(len(options))]
            if choice is None:
                return
            q, k = choice
            held[current][ROBBER] -= 1
            pool[ROBBER] += 1
            victim = hands[q]
            if victim[k]:
                taken = k
            elif victim[CROW]:
                taken = CROW
            else:
                continue  # nothing is exchanged
            pens[current][taken] += victim[taken]
            victim[taken] = 0
            if taken == CROW:
                reward_crows(current)
            draw_up(q)

    # --- Excuse Me.
    def excuse_me(decider: int, others: list[int]) -> int | None:
        """Ask every other eligible player at once; the first clockwise who says yes decides."""
        # Everyone but the decider is asked; without a token the only answer is "let it be".
        said_yes = [e for e in others if e != decider and agent.pick(2 if held[e][EXCUSE_ME] else 1) == 0
                    and held[e][EXCUSE_ME]]
        if not said_yes:
            return None
        e = said_yes[0]
        held[e][EXCUSE_ME] -= 1
        pool[EXCUSE_ME] += 1
        return e

    # --- The bluff.
    def bluff() -> None:
        others = [(current + i) % players for i in range(1, players)]
        hand = hands[current]
        options = [(k, n, q, c)
                   for k in range(KINDS) for n in range(1, hand[k] + 1)
                   for q in others for c in ANIMALS]
        if not options:  # an empty hand: nothing to bluff with
            return
        k, n, q, c = options[agent.pick(len(options))]
        hand[k] -= n
        decider = q
        excused = excuse_me(decider, others)
        if excused is not None:
            decider = excused
        said_is = agent.pick(2) == 0  # "I think that IS a ..." / "That is NOT a ..."
        if excused is None:
            excused = excuse_me(decider, others)
            if excused is not None:
                decider = excused
                said_is = agent.pick(2) == 0
        right = (k == c) == said_is
        if k == CROW:
            taker = current if right else decider
        else:
            taker = decider if right else current
        pens[taker][k] += n
        if k == CROW:
            reward_crows(taker)

    # --- Turns.
    turns = 0
    while True:
        turns += 1
        play_tokens()
        bluff()
        play_tokens()
        draw_up(current)
        forget_lost_crows()
        if not deck:  # the game ends at the end of the turn in which the deck ran out
            break
        current = (current + 1) % players

    # --- Game end: Crows in hand go to the pens, the other cards are discarded.
    for p in range(players):
        hand = hands[p]
        pens[p][CROW] += hand[CROW]
        for k in ANIMALS:
            box[k] += hand[k]
        hands[p] = [0] * KINDS
    return {"pens": pens, "hands": hands, "held": held, "pool": pool, "deck": deck, "box": box,
            "rewarded": rewarded, "turns": turns}


def playout_scores(players: int, chance: Rng, agent: Rng,
                   two_player: bool = False) -> tuple[int, int, list[int]]:
    """Play one random game; return (winner seat, turns played, final scores)."""
    table = play_game(players, chance, agent, two_player)
    scores = [sum(sheet.values()) for sheet in score_sheets(table["pens"])]
    return rank(table["pens"], scores)[0], table["turns"], scores


def playout(players: int, chance: Rng, agent: Rng, two_player: bool = False) -> tuple[int, int]:
    """Play one random game; return (winner seat, turns played)."""
    winner, turns, _ = playout_scores(players, chance, agent, two_player)
    return winner, turns


def _bench(games: int = 1000) -> None:
    for players, two_player in ((4, False), (2, True)):
        turns = 0
        start = time.perf_counter()
        for game in range(games):
            turns += playout(players, Rng(game, 0), Rng(game, 1), two_player)[1]
        elapsed = time.perf_counter() - start
        name = "barnyard-2p" if two_player else "barnyard"
        print(f"{name}: {games} games ({players} players) in {elapsed:.3f}s = {games / elapsed:.0f} games/s, "
              f"{turns / games:.1f} turns/game")


if __name__ == "__main__":
    _bench()
