"""What the engine is waiting for: a player's choice or a chance outcome."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from rulelang.rng import Rng
from rulelang.syntax.span import Span


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
    labels: list[str] | None
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
