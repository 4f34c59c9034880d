"""How fast Chicken! can play on rulelang's own state layout: a bound for the code generator.

    python benchmarks/bound_chicken.py [--games N] [--rounds R]

``bound`` below is Chicken! written by hand, as tight as a careful Python programmer would write
it, on the table the engine keeps: every zone a sorted list of component ids, a faces array with
-1 for an unrolled die, a score counter per player, the engine's step count, and the same draws
from the same streams as ``play()`` (the chance stream of the seed for the first player and the
rolls, ``Rng.roll_into`` over the middle in id order; each seat's ``RandomAgent`` for its choices).
It gives the same games as the engine: the script first checks, on 50 seeds, that every game ends
on the same turn with the same scores, and stops with exit status 1 if one does not.

What it leaves out, and the generated code must do: the step budget (a rules loop that never
ends is an error, not a hang), the narration checks, the pickers' hand-over (a search or replay
takes decisions there), the triggers' general test, the frames that let play pause at any
decision, and the final standings. So ``bound ÷ baseline`` is more than any code generated on
this layout can reach; ``engine ÷ bound`` is how close the generated code is to that.

The tables (faces per component, the faces' attributes, the component ids of each kind, the
zones) are read from the checked model of ``games/chicken.rules``, not copied from it.

It prints games/s for the three, interleaved in R rounds (median of the rounds), and as its last
line ``ratio: X``: the bound's games/s ÷ the hand-written baseline's (``baseline_chicken.py``,
the figure ``playouts.py chicken`` compares rulelang with).
"""

from __future__ import annotations

import argparse
import sys
from bisect import bisect_left, bisect_right, insort
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import baseline_chicken  # noqa: E402
from benchmarks.bound_support import checked_and_timed  # noqa: E402
from rulelang import load_game  # noqa: E402
from rulelang.agents.base import RandomAgent  # noqa: E402
from rulelang.engine.engine import Engine  # noqa: E402
from rulelang.rng import Rng  # noqa: E402

PLAYERS = 4


def _tables(engine: Engine) -> dict[str, object]:
    """The game's tables on the engine's layout, from its checked model."""
    model, kind_of = engine.model, engine.program.kind_of
    kinds = {k.name: k.index for k in model.kinds}

    def per_face(attribute: str, value: object = None) -> list:
        # indexed by a face, and by -1 (an unrolled die: no face, no attribute)
        row = []
        for face in model.faces:
            got = face.values.get(attribute, 0 if value is None else None)
            row.append(got if value is None else got == value)
        return row + [0 if value is None else False]

    def ids(*names: str) -> list[int]:
        return [c for c, k in enumerate(kind_of) if k in {kinds[n] for n in names}]

    return {
        "faces": [model.kinds[k].faces for k in kind_of],
        "right": per_face("aside", "right"), "left": per_face("aside", "left"),
        "foxes": per_face("foxes"), "eggs": per_face("eggs"), "points": per_face("points"),
        "white": ids("White"), "yellow": ids("Yellow"), "orange": ids("Orange"),
        "components": len(kind_of),
    }


def bound_game(t: dict, players: int, seed: int) -> tuple[int, list[int]]:
    """One random game of Chicken! (base game, default options) on the engine's layout; returns
    (turns, scores)."""
    faces_of, right_of, left_of = t["faces"], t["right"], t["left"]
    foxes_of, eggs_of, points_of = t["foxes"], t["eggs"], t["points"]
    white, yellow, orange = t["white"], t["yellow"], t["orange"]
    first_other = min(yellow + orange)  # the dice that go back to the Coop have the higher ids
    last_yellow = max(yellow)
    yellows = frozenset(yellow)
    oranges = frozenset(orange)
    chance = Rng(seed, 0)
    picks = [RandomAgent(seed, s).rng.pick for s in range(players)]
    coop = sorted(yellow + orange)
    held: list[list[int]] = [[] for _ in range(players)]
    middle: list[int] = []
    right: list[int] = []
    left: list[int] = []
    faces = [-1] * t["components"]
    score = [0] * players
    step = 1
    current = chance.pick(players)
    held[current] = list(white)
    roll_into = chance.roll_into
    turn = 0

    def back_to_coop(hand: list[int]) -> None:
        moved: list[int] = []
        for zone in (hand, middle, right, left):
            i = bisect_left(zone, first_other)
            if i < len(zone):
                moved += zone[i:]
                del zone[i:]
        for c in moved:
            faces[c] = -1
        coop.extend(moved)
        coop.sort()

    while True:
        turn += 1
        hand = held[current]
        step += 1
        if picks[current](2):  # Chicken Out!
            back_to_coop(hand)
            if score[current] > 0:
                score[current] -= 1
        middle += hand
        hand.clear()
        middle.sort()
        busted = False
        for rolls in (1, 2):
            roll_into(middle, faces_of, faces)
            step += len(middle)
            kept = []
            for c in middle:
                f = faces[c]
                if right_of[f]:
                    insort(right, c)
                elif left_of[f]:
                    insort(left, c)
                else:
                    kept.append(c)
            middle[:] = kept
            foxes = 0
            for c in middle:
                foxes += foxes_of[faces[c]]
            for c in right:
                foxes += foxes_of[faces[c]]
            for c in left:
                foxes += foxes_of[faces[c]]
            if foxes >= 3:
                busted = True
                break
            eggs = 0
            for c in middle:
                eggs += eggs_of[faces[c]]
            for _ in range(eggs):
                if not yellows.isdisjoint(coop):
                    insort(middle, coop.pop(bisect_right(coop, last_yellow) - 1))
                elif not oranges.isdisjoint(coop):
                    insort(middle, coop.pop())
            step += 1
            if rolls == 2 or not middle or picks[current](2):  # Reroll (0) or Count Your Chickens (1)
                break
        after = held[(current + 1) % players]
        if busted:
            back_to_coop(hand)
        else:
            total = score[current]
            for c in right:
                total += points_of[faces[c]]
            for c in middle:
                total += points_of[faces[c]]
            score[current] = total
            if total >= 25:
                return turn, score
        after += middle
        after += right
        after += left
        middle.clear()
        right.clear()
        left.clear()
        after.sort()
        current = (current + 1) % players


def main(argv: list[str] | None = None) -> int:
    """Check the bound plays the engine's games, then time it against the engine and the baseline."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    engine = load_game(ROOT / "games" / "chicken.rules")
    tables = _tables(engine)
    return checked_and_timed("Chicken!", engine, PLAYERS, args.games, args.rounds,
                             lambda seed: bound_game(tables, PLAYERS, seed),
                             lambda seed: baseline_chicken.playout(PLAYERS, chance=Rng(seed, 0), agent=Rng(seed, 1)),
                             lambda st: (st.turn, st.counters[0]))


if __name__ == "__main__":
    sys.exit(main())
