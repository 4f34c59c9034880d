"""A small seeded random number generator whose sequence is fixed by this file alone.

Python's ``random`` module only promises ``random()`` itself to be stable across
versions; rulelang promises that the same seed plays the same game on any machine,
so it carries its own generator: PCG32 (XSH-RR variant, O'Neill 2014).
"""

from __future__ import annotations

import secrets
from typing import Any

_MASK64 = (1 << 64) - 1

SEED_MIN = 0
SEED_MAX = _MASK64
"""Seeds are whole numbers from 0 to 2**64 - 1: the generator's whole state width."""


def seed_in_range(seed: int) -> bool:
    """Whether ``seed`` is one the generator takes as it is (no wrapping)."""
    return isinstance(seed, int) and not isinstance(seed, bool) and SEED_MIN <= seed <= SEED_MAX


def random_seed() -> int:
    """A fresh full-width seed from the operating system's randomness (for games run without ``--seed``)."""
    return secrets.randbits(64)
_MULT = 6364136223846793005


class Rng:
    """A PCG32 stream: ``Rng(seed, stream)``; different streams are independent."""

    __slots__ = ("_state", "_inc")

    def __init__(self, seed: int, stream: int = 0) -> None:
        self._inc = ((stream << 1) | 1) & _MASK64
        self._state = 0
        self.next32()
        self._state = (self._state + (seed & _MASK64)) & _MASK64
        self.next32()

    def next32(self) -> int:
        """Return the next 32-bit unsigned integer of the stream."""
        old = self._state
        self._state = (old * _MULT + self._inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """Return a uniformly distributed integer in ``range(n)`` (``n`` >= 1)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if n == 1:
            return 0
        threshold = (0x100000000 - n) % n
        while True:
            r = self.next32()
            if r >= threshold:
                return r % n

    def pick(self, n: int) -> int:
        """``below(n)``, the same draw, with the generator's step written out (one call instead of two):
        the pick of a random agent at every decision."""
        if n <= 1:
            return 0 if n == 1 else self.below(n)  # one option: nothing drawn (as below(1))
        state = self._state
        inc = self._inc
        r = (((((state >> 18) ^ state) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (state >> 59)) & 0xFFFFFFFF
        state = (state * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
        if r < n:  # below() rejects a draw under (2**32 - n) % n, which is less than n
            threshold = (0x100000000 - n) % n
            while r < threshold:
                r = (((((state >> 18) ^ state) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (state >> 59)) & 0xFFFFFFFF
                state = (state * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
        self._state = state
        return r % n

    def kind_drawn(self, src: list[int], kind_of: list[int]) -> int:
        """The kind of a component drawn at random from ``src``, ``kind_of[src[self.pick(len(src))]]``: the
        chance stream's answer to a random draw of any component of a zone (replay's stream answers
        it by the recorded kind)."""
        return kind_of[src[self.pick(len(src))]]

    def one_of(self, items: list) -> Any:
        """``items[self.below(len(items))]``, the same draw (``items`` not empty): a random draw of one
        component among a zone's, each listed by its kind."""
        return items[self.pick(len(items))]

    def roll_into(self, dice: list[int], faces_of: list[list[int]], out: list[int]) -> None:
        """Set ``out[d] = faces_of[d][self.below(len(faces_of[d]))]`` for each ``d`` of ``dice``, in order.

        The same draws as that loop, with the generator's step written out (one call per roll
        instead of two per die): rolling dice is the commonest draw of a playout.
        """
        state = self._state
        inc = self._inc
        for d in dice:
            faces = faces_of[d]
            n = len(faces)
            if n > 1:
                # next32(): the output of the old state (its 32-bit rotation as one shift of the word
                # written twice), then the step
                r = (((((state >> 18) ^ state) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (state >> 59)) & 0xFFFFFFFF
                state = (state * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
                if r < n:  # below() rejects a draw under (2**32 - n) % n, which is less than n
                    threshold = (0x100000000 - n) % n
                    while r < threshold:
                        r = (((((state >> 18) ^ state) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (state >> 59)) \
                            & 0xFFFFFFFF
                        state = (state * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
                out[d] = faces[r % n]
            elif n == 1:  # below(1) draws nothing
                out[d] = faces[0]
            else:
                self._state = state
                raise ValueError("below() needs n >= 1")
        self._state = state

    def weighted(self, weights: list[int]) -> int:
        """Return an index drawn with probability proportional to integer ``weights``."""
        total = sum(weights)
        r = self.below(total)
        for i, w in enumerate(weights):
            if r < w:
                return i
            r -= w
        raise AssertionError("unreachable")  # pragma: no cover

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates): ``j = below(i + 1)`` for each ``i`` from the last
        down to 1, with the generator's step written out (as ``roll_into``), the same draws."""
        state = self._state
        inc = self._inc
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            r = (((((state >> 18) ^ state) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (state >> 59)) & 0xFFFFFFFF
            state = (state * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
            if r < n:  # below() rejects a draw under (2**32 - n) % n, which is less than n
                threshold = (0x100000000 - n) % n
                while r < threshold:
                    r = (((((state >> 18) ^ state) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (state >> 59)) & 0xFFFFFFFF
                    state = (state * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
            j = r % n
            items[i], items[j] = items[j], items[i]
        self._state = state
