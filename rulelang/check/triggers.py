"""Checks of triggers: ``when CONDITION:`` blocks, run when what their condition reads changes.

A trigger's condition must read some zone, counter or player (or it could never change) and cannot
watch who is out; its body is checked as a rule of its own, added after the game's rules.
"""

from __future__ import annotations

from rulelang.check import model as m
from rulelang.check.common import Reporter, RuleScope, Skip, reads
from rulelang.check.model import BOOL, PLAYER
from rulelang.check.rounds import reads_elimination


class TriggerChecks(Reporter):
    """Checker methods for triggers (mixed into ``Checker``)."""

    def check_triggers(self, rules: list[m.Rule]) -> list[m.Trigger]:
        """The checked triggers; the rule of each trigger's body is appended to ``rules``."""
        triggers: list[m.Trigger] = []
        for decl, section in self.triggers:
            scope = RuleScope()
            if decl.each is not None:
                scope.bind(decl.each, PLAYER)
            try:
                cond = self.expect(decl.cond, scope, BOOL, False, "'when' needs a true/false condition")
            except Skip:
                continue
            rule = m.Rule(len(rules), f"when@{decl.span.line}", decl.title, "trigger",
                          (decl.each,) if decl.each else (), section=section, span=decl.span)
            rules.append(rule)
            rule.body = self.block(decl.body, scope, {"kind": "trigger"})
            rule.nlocals = scope.nslots
            zones, ctrs, cur = reads(cond)
            if reads_elimination(cond):
                self.error("a trigger's condition cannot watch who is out ('is out', 'players still in')", decl.span,
                           hint="test it in the rules right after 'drop out'")
            if not zones and not ctrs and not cur:
                self.error("this condition reads no zone, counter or player, so it can never change", decl.span)
            triggers.append(m.Trigger(cond, rule.index, frozenset(zones), frozenset(ctrs), cur, decl.span,
                                      decl.each is not None, decl.after_step))
        return triggers
