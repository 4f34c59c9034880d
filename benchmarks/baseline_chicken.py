"""Hand-written plain-Python Chicken! (with optional Eggspansion!): the benchmark baseline.

Rules follow /work/shared/rulebooks/chicken.txt plus the project's ASSUMPTIONs
(face lists, random uniform policy, Coop/Seed Bag handling).  The code is what a
competent engineer would write for speed -- ints and lists, no classes -- but it is
not micro-optimised: it is meant to be a fair baseline.

``chance`` drives dice, bag draws and the first player; ``agent`` drives the
random policy, which picks uniformly among the legal options at each decision.

Random numbers are drawn with the same fast calls as the generated code: ``Rng.pick`` for every
decision, chance pick and die (one call per die measured faster here than building the lists
for ``Rng.roll_into``), ``Rng.shuffle`` for the bag. They give the same draws as ``Rng.below``
with one call instead of two: a baseline on slower calls would flatter rulelang.

Run from the repository root: ``PYTHONPATH=. python benchmarks/baseline_chicken.py``.
"""

from __future__ import annotations

import time

from rulelang.rng import Rng

WINNING_SCORE = 25
COOP_SIZE = 5

# Die types (index into the Coop / Seed Bag count lists).
WHITE, YELLOW, ORANGE, BLUE, HEN = range(5)
NON_WHITE = (YELLOW, ORANGE, BLUE, HEN)

# Faces.
BLANK, CHICKEN, DOUBLE, EGG, FOX, HAPPY, BARK, CHICK = range(8)

FACES = (
    (CHICKEN, CHICKEN, EGG, EGG, FOX, BLANK),  # White
    (CHICKEN, CHICKEN, CHICKEN, EGG, FOX, BLANK),  # Yellow
    (CHICKEN, DOUBLE, FOX, FOX, BLANK, BLANK),  # Orange
    (HAPPY, HAPPY, BARK, BARK, BLANK, BLANK),  # Blue the Dog
    (CHICK, CHICK, CHICK, DOUBLE, DOUBLE, BLANK),  # Mother Hen
)

# Per face: (set aside?, points, net foxes, eggs hatched).
# Set-aside faces go right (chickens) or left (foxes, barks); the rest stay in the middle,
# where their points only count if they are still there when the chickens are counted.
EFFECTS = (
    (False, 0, 0, 0),  # Blank
    (True, 1, 0, 0),  # Chicken -> right
    (True, 2, 0, 0),  # Double Chicken -> right
    (False, 0, 0, 1),  # Egg
    (True, 0, 1, 0),  # Fox -> left
    (False, 1, 0, 0),  # Happy Dog (stays in the middle)
    (True, 0, -1, 0),  # Bark -> left, cancels one fox
    (False, 1, 0, 1),  # Chick (stays in the middle)
)


def _roll(dice: list[int], chance: Rng) -> tuple[list[int], list[int], int, int, int, int]:
    """Roll ``dice`` (die types).

    Returns (set_aside, middle, aside_points, middle_points, net_foxes, eggs).
    """
    pick = chance.pick  # one call per die, the same draws as below()
    aside: list[int] = []
    middle: list[int] = []
    aside_points = middle_points = foxes = eggs = 0
    for die in dice:
        goes_aside, points, fox, egg = EFFECTS[FACES[die][pick(6)]]
        if goes_aside:
            aside.append(die)
            aside_points += points
            foxes += fox
        else:
            middle.append(die)
            middle_points += points
            eggs += egg
    return aside, middle, aside_points, middle_points, foxes, eggs


def _refill(coop: list[int], bag: list[int], chance: Rng) -> None:
    """Draw random dice from the Seed Bag until the Coop holds 5 dice or the bag is empty."""
    while sum(coop) < COOP_SIZE and sum(bag) > 0:
        die = chance.weighted(bag)
        bag[die] -= 1
        coop[die] += 1


def _hatch(eggs: int, middle: list[int], coop: list[int], bag: list[int], eggspansion: bool,
           chance: Rng, agent: Rng) -> None:
    """Hatch one die per egg into ``middle`` (unrolled, so it shows blank)."""
    for _ in range(eggs):
        if not eggspansion:
            if coop[YELLOW]:
                coop[YELLOW] -= 1
                middle.append(YELLOW)
            elif coop[ORANGE]:
                coop[ORANGE] -= 1
                middle.append(ORANGE)
            else:
                return
            continue
        options = [die for die in NON_WHITE if coop[die]]
        if sum(bag) > 0:
            options.append(WHITE)  # WHITE stands for "draw at random from the Seed Bag"
        if not options:
            return
        die = options[agent.pick(len(options))]
        if die == WHITE:
            die = chance.weighted(bag)
            bag[die] -= 1
        else:
            coop[die] -= 1
        middle.append(die)


def _give_back(dice: list[int], coop: list[int], bag: list[int], eggspansion: bool,
               chance: Rng) -> None:
    """Return the non-White ``dice`` to the Coop (base) or to the Seed Bag and refill the Coop."""
    home = bag if eggspansion else coop
    for die in dice:
        if die != WHITE:
            home[die] += 1
    if eggspansion:
        _refill(coop, bag, chance)


def playout_scores(players: int, chance: Rng, agent: Rng,
                   eggspansion: bool = False) -> tuple[int, int, list[int]]:
    """Play one random game; return (winner seat, turns played, final scores)."""
    if not 2 <= players <= 8:
        raise ValueError("Chicken! is for 2 to 8 players")
    seat = chance.pick(players)
    scores = [0] * players
    if eggspansion:
        coop = [0, 0, 0, 0, 0]
        bag = [0, 4, 4, 1, 1]
        _refill(coop, bag, chance)
    else:
        coop = [0, 4, 4, 0, 0]
        bag = [0, 0, 0, 0, 0]
    whites = [WHITE] * 4
    pool = whites
    turns = 0
    while True:
        turns += 1
        # Decision: Go For It (0) / Chicken Out (1).
        if agent.pick(2):
            _give_back(pool, coop, bag, eggspansion, chance)
            if scores[seat] > 0:
                scores[seat] -= 1
            pool = whites

        aside, middle, points, middle_points, foxes, eggs = _roll(pool, chance)
        busted = foxes >= 3
        if not busted:
            _hatch(eggs, middle, coop, bag, eggspansion, chance, agent)
            # Decision: Reroll (0) / Count Your Chickens (1); Reroll needs a non-empty middle.
            if middle and agent.pick(2) == 0:
                aside2, middle, points2, middle_points, foxes2, eggs = _roll(middle, chance)
                aside += aside2
                points += points2
                foxes += foxes2
                busted = foxes >= 3
                if not busted:
                    _hatch(eggs, middle, coop, bag, eggspansion, chance, agent)

        if busted:
            _give_back(aside + middle, coop, bag, eggspansion, chance)
            pool = whites
        else:
            # Dice hatched after the last roll are unrolled blanks: middle_points excludes them.
            scores[seat] += points + middle_points
            if scores[seat] >= WINNING_SCORE:
                return seat, turns, scores
            pool = aside + middle
        seat = (seat + 1) % players


def playout(players: int, chance: Rng, agent: Rng, eggspansion: bool = False) -> tuple[int, int]:
    """Play one random game; return (winner seat, turns played)."""
    winner, turns, _ = playout_scores(players, chance, agent, eggspansion)
    return winner, turns


def _bench(games: int = 2000) -> None:
    for eggspansion in (False, True):
        turns = 0
        start = time.perf_counter()
        for game in range(games):
            turns += playout(4, Rng(game, 1), Rng(game, 2), eggspansion)[1]
        elapsed = time.perf_counter() - start
        name = "chicken+eggspansion" if eggspansion else "chicken"
        print(f"{name}: {games} games (4 players) in {elapsed:.3f}s = {games / elapsed:.0f} games/s, "
              f"{turns / games:.1f} turns/game")


if __name__ == "__main__":
    _bench()
