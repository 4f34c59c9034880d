"""What the engine is waiting for: a player's choice or a chance outcome."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import attrs

from rulelang.errors import RulelangError
from rulelang.rng import Rng
from rulelang.syntax.span import Span


class Labels(Sequence[str]):
    """The labels of a decision's options, rendered only when asked for.

    ``len()`` costs nothing; ``labels[i]`` renders one label; looking a label up
    (``find``, ``in``) renders what it must. A rules file whose options render the same
    label twice is an error, reported when it is noticed.
    """

    __slots__ = ("_render", "_n", "_cache", "_index", "_full", "_span", "_describe")

    def __init__(self, n: int, render: Callable[[int], str], span: Span | None = None,
                 describe: Callable[[int], str] | None = None) -> None:
        self._span = span
        self._describe = describe
        self._render = render
        self._n = n
        self._cache: dict[int, str] = {}
        self._index: dict[str, int] = {}
        self._full = False

    def __len__(self) -> int:
        return self._n

    def _one(self, i: int) -> str:
        label = self._cache.get(i)
        if label is None:
            label = self._render(i)
            self._cache[i] = label
            other = self._index.setdefault(label, i)
            if other != i:
                which = ""
                if self._describe is not None:
                    which = f": {self._describe(other)} and {self._describe(i)}"
                raise DuplicateLabel(
                    f"two legal actions are both labelled {label!r}{which}", self._span,
                    hint="make every option's label show what differs between them",
                )
        return label

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._one(j) for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._one(i)

    def find(self, label: object) -> int | None:
        """The index of ``label``, or None."""
        if isinstance(label, str) and label in self._index:
            return self._index[label]
        if not self._full:
            for i in range(self._n):
                self._one(i)
            self._full = True
        return self._index.get(label) if isinstance(label, str) else None

    def check_unique(self) -> None:
        """Render every label: a DuplicateLabel error if two are the same."""
        if not self._full:
            for i in range(self._n):
                self._one(i)
            self._full = True

    def __contains__(self, label: object) -> bool:
        return self.find(label) is not None

    def __iter__(self) -> Iterator[str]:
        return (self._one(i) for i in range(self._n))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(list(self))


class DuplicateLabel(RulelangError):
    """Two options of one decision render the same label (an error in the rules file)."""


@attrs.define(slots=True)
class Decision:
    """A pending decision.

    ``kind`` is "choice" (``player`` picks one of ``labels``) or "chance" (one of
    ``labels`` happens with probability ``weights[i] / sum(weights)``; a shuffle has
    ``labels`` None and ``pool``, the labels of the cards being shuffled, and its
    outcome is an ordering of ``pool``). ``event`` describes the decision for traces,
    ``span`` is the rule that asks it.
    """

    kind: str
    player: int | None
    labels: Sequence[str] | None
    weights: list[int] | None
    event: dict[str, Any]
    span: Span | None
    pool: list[str] | None = None
    raw: list[str] | None = None  # a die's faces in order: a roll picks one uniformly
    players: list[int] | None = None  # an ``ask``: everyone still to answer (``player`` is the first)
    options: list = attrs.field(factory=list, repr=False, eq=False)

    def probabilities(self) -> list[Fraction]:
        """Exact probabilities of the outcomes of a chance decision."""
        if self.weights is None:
            raise ValueError("not a chance decision with listed outcomes")
        total = sum(self.weights)
        return [Fraction(w, total) for w in self.weights]

    def sample(self, rng: Rng) -> Any:
        """Draw an outcome of a chance decision."""
        if self.pool is not None:
            order = list(self.pool)
            rng.shuffle(order)
            return order
        if self.raw is not None:
            return self.raw[rng.below(len(self.raw))]
        assert self.labels is not None and self.weights is not None
        if len(self.labels) == 1:
            return self.labels[0]
        return self.labels[rng.weighted(self.weights)]
