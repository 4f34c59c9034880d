"""Checks of statements and rule bodies: moves, counters, control flow, calls of rules and decisions.

``block`` checks a rule's statements one by one and skips (after reporting) a broken one, so that one
run reports every statement that is wrong; ``choose`` and ``ask`` are the players' decisions.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import budgets, control
from rulelang.check import model as m
from rulelang.check.common import Reporter, RuleScope, Skip, suggest
from rulelang.check.model import BOOL, FACE, INT, PLAYER
from rulelang.syntax import ast
from rulelang.syntax.span import Span


class StatementChecks(Reporter):
    """Checker methods for statements (mixed into ``Checker``)."""

    def block(self, stmts: tuple, scope: RuleScope, ctx: dict) -> tuple:
        """Resolve a list of statements, skipping (after reporting) the broken ones."""
        out = []
        for stmt in stmts:
            try:
                ir = self.stmt(stmt, scope, ctx)
                if isinstance(ir, tuple):  # a construct checked into several statements ('spend')
                    out.extend(ir)
                else:
                    out.append(ir)
            except Skip:
                if isinstance(stmt, ast.Let) and scope.lookup(stmt.name) is None:
                    scope.bind(stmt.name, "any")  # so later uses do not cascade into more errors
                if isinstance(stmt, ast.PickAt) and scope.lookup(stmt.var) is None:
                    scope.bind(stmt.var, PLAYER)
                continue
        return tuple(out)

    def stmt(self, node: ast.Stmt, scope: RuleScope, ctx: dict) -> Any:
        """Resolve one statement."""
        if isinstance(node, ast.Move):
            query = self.query(node.query, scope)
            if not query.zones:
                raise self.fail("say where the components come from", node.span)
            dest = self.zone_sel(node.dest, scope)
            if node.place is not None and not self._zone_by_index(dest.zone).ordered:
                raise self.fail(f"'at {node.place}' needs an ordered zone", node.span,
                                hint="declare the zone with the property 'ordered'")
            return m.MoveS(query, dest, node.place, node.span)
        if isinstance(node, ast.Roll):
            query = self.query(node.query, scope)
            for k in query.kinds or ():
                kind = self.kinds_by_index[k]
                if not kind.faces:
                    raise self.fail(f"cannot {node.verb} '{kind.name}': it is a {kind.cls}, not a die", node.span,
                                    hint=None if kind.cls == "die" else
                                    "give it sides to land on: 'sides (Heads 1/2, Tails 1/2)'")
            if query.quantity == "random":
                raise self.fail("roll the dice themselves, not a random draw", node.span)
            return m.RollS(query, node.span, node.verb)
        if isinstance(node, ast.Shuffle):
            zone = self.zone_sel(node.zone, scope)
            if not self._zone_by_index(zone.zone).ordered:
                raise self.fail(f"zone '{node.zone.name}' is not ordered, so it cannot be shuffled", node.span,
                                hint="declare it with the property 'ordered' (a deck or a pile)")
            return m.ShuffleS(zone, node.span)
        if isinstance(node, ast.Assign):
            counter = self.counters.get(node.name)
            if counter is None:
                raise self.fail(f"unknown counter '{node.name}'", node.span,
                                hint=suggest(node.name, self.counters) or "declare it: counter NAME = 0")
            if counter.per_player and node.owner is None:
                raise self.fail(f"counter '{node.name}' is per player", node.span,
                                hint=f"say whose: '{node.name} of current'")
            if not counter.per_player and node.owner is not None:
                raise self.fail(f"counter '{node.name}' is shared, not per player", node.span)
            owner = None
            if node.owner is not None:
                owner = self.seat(node.owner, scope, False, f"'{node.name} of' needs a player")
            if counter.type == "any":  # its declaration is wrong (reported there): the value alone is checked
                return m.AssignS(node.op, counter.index, owner, self.expr(node.value, scope), node.span)
            if counter.type != INT and node.op != "=":
                raise self.fail(f"counter '{node.name}' holds a {counter.type}: it cannot be added to", node.span,
                                hint=f"write 'set {node.name} to ...'")
            value = self.expr(node.value, scope)
            if value.type != counter.type and value.type != "any":
                hint = (f"set it to a face ('set {node.name} to f' for f in faces of a die, or 'face of d'); "
                        "a number such as the pips goes in a number counter"
                        if counter.type == FACE and value.type == INT else None)
                raise self.fail(f"counter '{node.name}' holds a {counter.type}, but this is a {value.type}",
                                node.value.span, hint=hint)
            return m.AssignS(node.op, counter.index, owner, value, node.span)
        if isinstance(node, ast.Let):
            value = self.expr(node.value, scope)
            existing = scope.lookup(node.name)
            if isinstance(existing, m.Local) and existing.type == value.type:
                return m.LetS(existing.slot, value, node.span)
            return m.LetS(scope.bind(node.name, value.type), value, node.span)
        if isinstance(node, ast.Say):
            if any(isinstance(p, ast.Secret) for p in node.text.parts):
                raise self.fail("'secret' hides part of a choice's label from the other players; "
                                "narration is for everyone", node.span,
                                hint="say only what every player may know, or put it in a choice label")
            return m.SayS(self.template(node.text, scope), node.span)
        if isinstance(node, ast.Simple):
            if node.what in ("break", "continue"):
                return control.in_loop(self, node, ctx)
            if node.what in ("end turn", "another turn") and ctx["kind"] == "setup":
                raise self.fail(f"'{node.what}' has no meaning during setup", node.span)
            if node.what in ("end turn", "another turn", "pick first player at random"):
                self.no_current(f"'{node.what}'", node.span)
            if node.what == "end round":
                if not self.round_game:
                    raise self.fail("'end round' is for a game played in rounds ('round:')", node.span,
                                    hint="in a game of turns, write 'end turn'")
                if ctx["kind"] == "setup":
                    raise self.fail("'end round' has no meaning during setup", node.span)
                return m.SimpleS("end turn", node.span)
            return m.SimpleS(node.what, node.span)
        if isinstance(node, ast.CallRule):
            return self._call_rule(node, scope)
        if isinstance(node, ast.If):
            branches = []
            for cond, body in node.branches:
                c = self.expect(cond, scope, BOOL, False, "'if' needs a true/false condition")
                scope.push()
                branches.append((c, self.block(body, scope, ctx)))
                scope.pop()
            orelse = None
            if node.orelse is not None:
                scope.push()
                orelse = self.block(node.orelse, scope, ctx)
                scope.pop()
            return m.IfS(tuple(branches), orelse, node.span)
        if isinstance(node, ast.While):
            cond = self.expect(node.cond, scope, BOOL, False, "'while' needs a true/false condition")
            scope.push()
            body = self.block(node.body, scope, control.loop_body(ctx))
            scope.pop()
            return m.WhileS(cond, body, node.span)
        if isinstance(node, ast.Repeat):
            count = self.expect(node.count, scope, INT, False, "'repeat N times' needs a number")
            slot = scope.new_slot()
            scope.push()
            body = self.block(node.body, scope, control.loop_body(ctx))
            scope.pop()
            return m.RepeatS(count, body, slot, node.span)
        if isinstance(node, ast.For):
            iterable = self.iterable(node.iterable, scope)
            list_slot, idx_slot = scope.new_slot(), scope.new_slot()
            scope.push()
            var = scope.bind(node.var, iterable.type)
            body = self.block(node.body, scope, control.loop_body(ctx))
            scope.pop()
            return m.ForS(var, iterable, body, list_slot, idx_slot, node.span)
        if isinstance(node, ast.Choose):
            return self._choose(node, scope, ctx)
        if isinstance(node, ast.Ask):
            return self._ask(node, scope, ctx)
        if isinstance(node, ast.GiveTurn):
            self.no_current("'give turn to'", node.span)  # (in setup: who plays the first turn)
            return m.GiveTurnS(self.seat(node.player, scope, False, "'give turn to' needs a player"),
                               node.span)
        if isinstance(node, ast.Reveal):
            query = self.query(node.query, scope)
            if query.quantity == "random":
                raise self.fail("reveal shows components where they are, not a random draw", node.span)
            if node.player is None:
                return m.RevealS(query, None, node.span)
            return m.RevealS(query, self.seat(node.player, scope, False, "'reveal ... to' needs a player"),
                             node.span)
        if isinstance(node, ast.TurnFace):
            return self.turn_face(node, scope)
        if isinstance(node, ast.DropOut):
            return self.drop_out(node, scope, ctx)
        if isinstance(node, ast.PickAt):
            return self.pick_at(node, scope)
        if isinstance(node, ast.Return):
            raise self.no_return(node)  # type: ignore[attr-defined]
        if isinstance(node, (ast.Spend, ast.MoveMarker, ast.Tally)):
            return budgets.stmt(self, node, scope, ctx)
        raise self.fail("unsupported statement", getattr(node, "span", None))  # pragma: no cover

    def _zone_by_index(self, index: int) -> m.Zone:
        return self.zones_by_index[index]

    def _call_rule(self, node: ast.CallRule, scope: RuleScope) -> m.CallS:
        if node.name in ("setup", "turn"):
            raise self.fail(f"'{node.name}' is run by the engine and cannot be called", node.span)
        if node.name not in self.rule_index:
            raise self.fail(f"unknown rule '{node.name}'", node.span,
                            hint=suggest(node.name, [n for n in self.rule_index if n not in ("setup", "turn")])
                            or "declare it: rule NAME:")
        decl, _ = self.blocks[node.name]
        if len(node.args) != len(decl.params):
            raise self.fail(
                f"rule '{node.name}' takes {len(decl.params)} argument(s), not {len(node.args)}", node.span,
                hint=f"declared at {decl.span}" + (f" as {node.name}({', '.join(decl.params)})" if decl.params else ""),
            )
        args = tuple(self.expr(a, scope) for a in node.args)
        expected = self.param_types.get(node.name, ())
        for arg, raw, want in zip(args, node.args, expected):
            if want is not None and arg.type != want:
                raise self.fail(f"argument of '{node.name}' should be a {want}, but this is a {arg.type}", raw.span)
        return m.CallS(self.rule_index[node.name], args, node.span)

    def option_head(self, opt: Any, scope: Any) -> tuple[list, Any]:
        """An option's ``for`` names bound in ``scope`` (with their iterables) and its checked label.

        An option that ranges over values its label does not show is an error.
        """
        bindings = []
        for name, raw_iterable in opt.bindings:
            iterable = self.iterable(raw_iterable, scope)
            bindings.append((scope.bind(name, iterable.type), iterable))
        if opt.bindings and all(isinstance(p, str) for p in opt.label.parts):
            self.error(f"option {''.join(opt.label.parts)!r} ranges over values its label "  # type: ignore[arg-type]
                       "does not show", opt.span, hint="put {" + opt.bindings[0][0] + "} in the label")
        return bindings, self.template(opt.label, scope)

    def _ask(self, node: ast.Ask, scope: RuleScope, ctx: dict) -> Any:
        iterable = self.iterable(node.iterable, scope)
        if iterable.type != PLAYER:
            raise self.fail("'ask' asks players: write 'ask q in players' or 'ask q in other players'", node.span)
        list_slot = scope.new_slot()
        scope.push()
        var = scope.bind(node.var, PLAYER)
        bodies: list = []  # per answer: its block (checked), or None
        bindings: list = []  # per answer: its ((slot, IterIR), ...)
        try:
            cond = None
            if node.cond is not None:
                cond = self.expect(node.cond, scope, BOOL, False, "'if' needs a true/false condition")
            options = []
            dynamic: list = []
            seen: set[str] = set()
            for opt in node.options:
                if opt.template is not None:  # holes, or one answer per value
                    scope.push()
                    try:
                        ocond, spec = self.ask_answer(opt, scope, seen)
                        body = None if opt.body is None else self.block(opt.body, scope, control.answer_body(ctx))
                        bodies.append(body)
                    finally:
                        scope.pop()
                    options.append((opt.label, ocond, opt.span))
                    dynamic.append(spec)
                    bindings.append(spec[1])
                    continue
                dynamic.append(None)
                bindings.append(())
                if opt.label in seen:
                    raise self.fail(f"two answers are both labelled {opt.label!r}", opt.span)
                seen.add(opt.label)
                ocond = None
                if opt.cond is not None:
                    ocond = self.expect(opt.cond, scope, BOOL, False, "an answer's 'if' needs true/false")
                options.append((opt.label, ocond, opt.span))
                if opt.body is None:
                    bodies.append(None)
                else:
                    scope.push()
                    bodies.append(self.block(opt.body, scope, control.answer_body(ctx)))
                    scope.pop()
        finally:
            scope.pop()
        ask = m.AskS(var, iterable, cond, tuple(options), list_slot, node.span,
                     tuple(dynamic) if any(d is not None for d in dynamic) else ())
        self.note_answers(ask)  # type: ignore[attr-defined]
        if all(body is None for body in bodies):
            return ask
        return self.answer_blocks(ask, bodies, bindings, scope)  # type: ignore[attr-defined]

    def _choose(self, node: ast.Choose, scope: RuleScope, ctx: dict) -> m.ChooseS:
        player = None
        if node.player is None:
            self.no_current("'choose:' without a player", node.span)
        if node.player is not None:
            player = self.seat(node.player, scope, False, "'choose' needs the player who chooses")
        options = []
        static_labels: dict[str, Span] = {}
        for opt in node.options:
            try:
                if all(isinstance(p, str) for p in opt.label.parts) and not opt.bindings:
                    text = "".join(opt.label.parts)  # type: ignore[arg-type]
                    if text in static_labels:
                        self.error(f"two options are both labelled {text!r}", opt.span,
                                   hint="every option of a choice needs its own label")
                        continue
                    static_labels[text] = opt.span
                scope.push()
                bindings, label = self.option_head(opt, scope)
                cond = None
                if opt.cond is not None:
                    cond = self.expect(opt.cond, scope, BOOL, False, "an option's 'if' needs true/false")
                body = self.block(opt.body, scope, ctx)
                scope.pop()
                cond_span = opt.cond.span if opt.cond is not None else None
                options.append(m.OptionIR(label, tuple(bindings), cond, body, opt.span, cond_span,
                                          tuple(name for name, _ in opt.bindings)))
            except Skip:
                scope.pop()
                continue
        return m.ChooseS(player, tuple(options), node.span)
