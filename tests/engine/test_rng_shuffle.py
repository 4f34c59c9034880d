"""``Rng.shuffle`` writes the generator's step out; it must draw exactly what Fisher-Yates with ``below`` draws."""

from __future__ import annotations

from rulelang.rng import Rng


def _reference(rng: Rng, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def test_the_shuffle_draws_as_below_does() -> None:
    for seed in range(60):
        for size in (0, 1, 2, 3, 7, 52, 130):
            a, b = Rng(seed, 3), Rng(seed, 3)
            got, want = list(range(size)), list(range(size))
            a.shuffle(got)
            _reference(b, want)
            assert got == want, (seed, size)
            assert [a.next32() for _ in range(3)] == [b.next32() for _ in range(3)]  # the stream goes on alike


def test_the_rejected_draws_are_drawn_again() -> None:
    """A generator in state 0 outputs 0 first, which ``below(3)`` rejects ((2**32 - 3) % 3 = 1): the
    shuffle must draw again, as ``below`` does."""
    for size in (3, 5, 130):
        a, b = Rng(1, 0), Rng(1, 0)
        a._state = b._state = 0
        assert Rng.next32(b) == 0  # the draw that is rejected
        b._state = 0
        got, want = list(range(size)), list(range(size))
        a.shuffle(got)
        _reference(b, want)
        assert got == want and a.next32() == b.next32(), size
