"""A replay's verdict and its explanation: what broke the rules and where, where the recorded and the
replayed games parted (turn digests), and recorded chance that does not follow from the trace's seed."""

from __future__ import annotations

import json
from typing import Any

import attrs

from rulelang.engine.state import State
from rulelang.rng import Rng
from rulelang.syntax.span import Span
from rulelang.trace.reading import CHANCE_KEYS, Trace, TraceError, line_span


@attrs.define
class Verdict:
    """The outcome of a replay."""

    status: str  # "compliant", "violation", "incomplete", "malformed"
    message: str
    steps: int = 0
    line: int | None = None
    step: int | None = None
    player: str | None = None
    event: dict[str, Any] | None = None
    reason: str | None = None
    rule: str | None = None
    legal: list[str] | None = None
    legal_total: int | None = None
    pending: str | None = None
    result: dict[str, Any] | None = None
    parted: dict[str, Any] | None = None  # the first turn digest that differs: where the games parted
    warnings: list[str] = attrs.field(factory=list)

    def to_json(self) -> dict[str, Any]:
        """The verdict as one JSON object (fields that do not apply are left out)."""
        data = attrs.asdict(self)
        return {k: v for k, v in data.items() if v is not None and v != []}


def legal_summary(labels: list[str], limit: int = 12) -> list[str]:
    """The legal actions a verdict shows (the first ``limit``)."""
    return labels[:limit]


class Verdicts:
    """The verdicts of ``Replayer`` (a mixin: its attributes are set by ``Replayer``)."""

    trace: Trace
    state: State | None
    shadow: Rng | None
    parted: dict[str, Any] | None
    matched: tuple[int, int] | None

    def _turn_digest(self, line: int, event: dict[str, Any]) -> Verdict | None:
        """A turn's digest (written by ``run --trace`` as the turn begins): the first one that differs
        from the replayed table is where the games parted (kept, and told with the verdict); malformed
        when it is not a turn and a digest."""
        st = self.state
        assert st is not None
        turn, want = event.get("turn"), event.get("digest")
        if type(turn) is not int or not isinstance(want, str):
            return self._malformed("a turn's digest needs \"turn\" (a whole number) and \"digest\" (a string)",
                                   line, hint='{"type": "digest", "turn": 3, "digest": "5e5bd9412a197c69"}')
        if self.parted is not None:
            return None
        if want == st.table_digest(self.trace.digest_scheme) and turn == st.turn:
            self.matched = (turn, line)
            return None
        since = self.matched
        if since is None:
            where = f"before turn {turn} (by trace line {line})"
        else:
            when = f"turn {since[0]}" if since[0] >= turn - 1 else f"turns {since[0]} to {turn - 1}"
            where = f"in {when} (between trace lines {since[1]} and {line})"
        text = f"the games parted {where}: the table as turn {turn} began is not the recorded one"
        self.parted = {"turn": turn, "line": line, "step": st.step, "matched_line": since[1] if since else None,
                       "text": text}
        return None

    def _parting(self, verdict: Verdict) -> Verdict:
        """``verdict`` told with where the games parted (the first turn digest that differs), if they did:
        a game that otherwise complies is then a violation there."""
        parted = self.parted
        if parted is None or verdict.status == "malformed" and verdict.line is not None \
                and verdict.line < parted["line"]:
            return verdict
        shown = dict(parted)
        if verdict.status in ("compliant", "incomplete"):
            return Verdict("violation", f"the replayed game is not the recorded one: {parted['text']}",
                           steps=verdict.steps, line=parted["line"], reason=parted["text"], result=verdict.result,
                           parted=shown, warnings=verdict.warnings)
        verdict.message = f"{verdict.message}; {parted['text']}"
        verdict.parted = shown
        return verdict

    def _malformed(self, message: str, line: int, hint: str | None = None) -> Verdict:
        err = TraceError(message, line_span(self.trace, line), hint=hint)
        return Verdict("malformed", err.format(), line=line, steps=self.state.step if self.state else 0)

    def _violation(self, line: int, event: dict[str, Any], reason: str, rule: Span | None,
                   player: str | None, legal: list[str] | None) -> Verdict:
        st = self.state
        assert st is not None
        total = len(legal) if legal is not None else None
        shown = event.get("action", event.get("outcome"))
        message = f"step {st.step + 1}: {json.dumps(shown)} breaks the rules"
        return Verdict("violation", message, line=line, step=st.step + 1, player=player, event=event,
                       reason=reason, rule=str(rule) if rule else None,
                       legal=legal_summary(legal) if legal is not None else None, legal_total=total,
                       steps=st.step)

    def _seeded(self, line: int, event: dict[str, Any], d: Any) -> Verdict | None:
        """A violation when the recorded outcome of the pending chance ``d`` is possible but not the one
        the trace's seed gives (drawn from the seed's chance stream as play draws it); None otherwise,
        and an impossible outcome is left to ``apply`` and ``explain``."""
        assert self.shadow is not None
        outcome = event["outcome"]
        expected = d.sample(self.shadow)
        if outcome == expected:
            return None
        if d.pool is not None:
            possible = isinstance(outcome, list) and sorted(outcome) == sorted(d.pool)
        else:
            possible = outcome in (d.raw if d.raw is not None else d.labels or [])
        if not possible:
            return None
        what = next(k for k in CHANCE_KEYS if k in event)
        noun = {"roll": "roll", "draw": "draw", "shuffle": "shuffle", "first_player": "first player",
                "pick": "pick"}[what]
        if what == "shuffle":
            at = next(i for i, (a, b) in enumerate(zip(outcome, expected)) if a != b)
            said = (f"recorded {outcome[at]} in place {at + 1} from the bottom, the seed gives {expected[at]} "
                    f"(the seed's order: {', '.join(expected[:at + 3])}{', ...' if len(expected) > at + 3 else ''})")
        else:
            said = f"recorded {outcome}, the seed gives {expected}"
        reason = f"this {noun} does not follow from the trace's seed: {said}"
        return self._violation(line, event, reason, d.span, None, None)
