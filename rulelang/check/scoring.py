"""Checks of how a game is scored: its ranking (``rank p by ...``), its payoff and its score sheets.
"""

from __future__ import annotations

import re

from rulelang.check import model as m
from rulelang.check import payoffs
from rulelang.check.common import Reporter, RuleScope, Skip
from rulelang.check.model import INT, PLAYER
from rulelang.syntax.span import Span, source_line


class ScoringChecks(Reporter):
    """Checker methods for the ranking, the payoff and the score sheets (mixed into ``Checker``)."""

    def check_payoff(self) -> m.Payoff | None:
        """The checked payoff of the game, or None when it has none (or it is wrong)."""
        if self.payoff_decl is None:
            return None
        decl = self.payoff_decl[0]
        scope = RuleScope()
        scope.bind(decl.var, PLAYER)
        try:
            ir = self.expr(decl.expr, scope)
            constants = [None if node is None else self.expect(node, RuleScope(), INT, False, what)
                         for node, what in ((decl.low, "a payoff's bound must be a number"),
                                            (decl.high, "a payoff's bound must be a number"),
                                            (decl.total, "the sum of a constant-sum game must be a number"))]
        except Skip:
            return None
        return payoffs.check_payoff(self, decl, ir, scope.nslots, *constants)

    def check_ranking(self) -> m.Ranking:
        """How the winner is found: the 'rank' line, or the highest 'score' per player."""
        if self.rank is None:
            if "score" in self.counters and self.counters["score"].per_player:
                return m.Ranking([("highest", m.CounterGet(self.counters["score"].index, m.Local(0, PLAYER)))], 1, None)
            main = self.sources[-1]
            self.error("the game does not say how the winner is found", Span(main.path, 1, 1, 1, 2),
                       hint="add a line like: rank p by highest score of p")
            return m.Ranking([], 1, None)
        scope = RuleScope()
        scope.bind(self.rank.var, PLAYER)
        keys = []
        self.rank_labels: list[str] = []
        for direction, expr in self.rank.keys:
            try:
                keys.append((direction, self.expect(expr, scope, INT, False, "a ranking key must be a number")))
                label = _source_text(expr.span)
                var = re.escape(self.rank.var)
                self.rank_labels.append(re.sub(rf"\s+of\s+{var}\b|\({var}\)", "", label).strip() or label)
            except Skip:
                continue
        return m.Ranking(keys, scope.nslots, self.rank.span, self.rank_labels)


    def check_sheets(self) -> list[m.Sheet]:
        """The checked score sheets, in the order they are declared."""
        sheets = []
        for sheet in self.sheets.values():
            scope = RuleScope()
            scope.bind(sheet.var, PLAYER)
            lines = []
            for label, expr, _span in sheet.lines:
                try:
                    lines.append((label, self.expect(expr, scope, INT, False, "a score sheet line is a number")))
                except Skip:
                    continue
            sheets.append(m.Sheet(sheet.name, lines, sheet.span, scope.nslots))
        return sheets


def _source_text(span: Span) -> str:
    """The text of a one-line span, for labels; the span itself when it cannot be read."""
    line = source_line(span.file, span.line)
    if line is None or span.end_line != span.line:
        return str(span)
    return line[span.col - 1 : span.end_col - 1]
