"""AST to checked model: resolves every name, checks arities and types.

Errors are collected, not thrown one at a time: a user fixing a file sees every
problem the checker can find in one run, each with file:line:col and a hint.

``Checker`` is made of one part per job, each in its own module: the declarations and the merge of
files and options (:mod:`~rulelang.check.declarations`), expressions (:mod:`~rulelang.check.expressions`),
queries (:mod:`~rulelang.check.queries`), statements and decisions (:mod:`~rulelang.check.statements`),
triggers (:mod:`~rulelang.check.triggers`), the ranking, payoff and sheets (:mod:`~rulelang.check.scoring`),
rounds, elimination, sides and races (:mod:`~rulelang.check.rounds`), answers and definitions as
values (:mod:`~rulelang.check.values`); what they share is in
:mod:`~rulelang.check.common`. This module runs them in order over a whole game.
"""

from __future__ import annotations

from rulelang.check import budgets, control
from rulelang.check import model as m
from rulelang.check.common import PARAM_TYPES, RuleScope, split_param
from rulelang.check.declarations import MAX_COMPONENTS, DeclarationChecks
from rulelang.check.expressions import BUILTINS, MAX_DEFINE_DEPTH, MAX_EXPANDED_PARTS, MAX_EXPANSIONS, ExpressionChecks
from rulelang.check.queries import QueryChecks
from rulelang.check.rounds import RoundChecks
from rulelang.check.scoring import ScoringChecks
from rulelang.check.statements import StatementChecks
from rulelang.check.triggers import TriggerChecks
from rulelang.check.values import ValueChecks
from rulelang.errors import ErrorList, RulelangError
from rulelang.syntax import ast
from rulelang.syntax.loader import SourceFile
from rulelang.syntax.span import Span

__all__ = ["BUILTINS", "MAX_COMPONENTS", "MAX_DEFINE_DEPTH", "MAX_EXPANDED_PARTS", "MAX_EXPANSIONS", "Checker",
           "check_sources"]


class Checker(DeclarationChecks, ExpressionChecks, QueryChecks, StatementChecks, TriggerChecks,
              ScoringChecks, RoundChecks, ValueChecks):
    """Checks one game (a file and the files it extends) into a :class:`Model`."""

    def __init__(self, sources: list[SourceFile], option_overrides: dict[str, str] | None = None) -> None:
        self.sources = sources
        self.errors: list[RulelangError] = []
        self.option_overrides = option_overrides or {}
        self.title = ""
        self.players: ast.PlayersDecl | None = None
        self.options: dict[str, m.Option] = {}
        self.attributes: dict[str, m.Attribute] = {}
        self.faces: dict[str, m.Face] = {}
        self.kinds: dict[str, m.Kind] = {}
        self.kind_groups: dict[str, list[int]] = {}  # numbered components: Card -> Card3, Card4, ...
        self.zones: dict[str, m.Zone] = {}
        self.counters: dict[str, m.Counter] = {}
        self.defines: dict[str, ast.DefineDecl] = {}
        self.blocks: dict[str, tuple[ast.BlockDecl, str | None]] = {}
        self.triggers: list[tuple[ast.TriggerDecl, str | None]] = []
        self.rank: ast.RankDecl | None = None
        self.uses_elimination = False
        self.rank_file = -1
        self.payoff_decl: tuple[ast.PayoffDecl, int] | None = None  # the 'payoff' line and its file's index
        self.players_seen = False
        self.sheets: dict[str, ast.SheetDecl] = {}
        self.sections: list[tuple[str, Span]] = []
        self.rule_index: dict[str, int] = {}
        self._define_stack: list[str] = []
        self.zone_classes: dict[str, str] = {}  # zones declared 'per card' (a pile on every card) -> the class
        self._expansions = 0  # definitions expanded so far (each use is expanded in place)
        self._expanded_parts = 0  # expression parts checked inside those expansions
        self._outer_use: Span | None = None  # the use outside any definition that is being expanded
        self.answer_patterns: list = []  # what each answer of each 'ask' can read (check/values.py)
        self.answer_uses: list = []  # comparisons with an answer, checked once every rule is
        self.broken_defines: set[str] = set()  # deciding definitions whose block was refused

    def check(self) -> m.Model:
        """Run every check; raise ErrorList if anything is wrong, else return the model."""
        self.collect()
        budgets.finish_declarations(self)
        self.zones_by_index = sorted(self.zones.values(), key=lambda z: z.index)
        self.kinds_by_index = sorted(self.kinds.values(), key=lambda k: k.index)
        main = self.sources[-1]
        where = Span(main.path, 1, 1, 1, 2)
        if not main.tree.decls:
            self.errors = [RulelangError("the file is empty", where,
                                         hint="a game starts with: game \"Name\", players, setup: and turn:")]
            raise ErrorList(self.errors)
        if "setup" not in self.blocks:  # nothing to set up: every component starts in the box
            setup = ast.BlockDecl("setup", "setup", (), None, False, (), where)
            self.blocks = {"setup": (setup, None), **self.blocks}
        if "turn" not in self.blocks:
            self.error("the game has no 'turn:' block", where, hint="add 'turn:' with what a player does on a turn "
                       "(or 'round:' for a game played in rounds by the whole table)")
        if self.players is None and not self.players_seen:
            self.error("the game does not say how many players it takes", where,
                       hint="add a line like: players 2 to 4")
        control.reserved_rule_names(self)
        rules: list[m.Rule] = []
        for name, (decl, section) in self.blocks.items():
            self.rule_index[name] = len(rules)
            rules.append(m.Rule(len(rules), name, decl.title, decl.kind, decl.params, section=section, span=decl.span))
        self.param_types: dict[str, tuple] = {}
        for name, (decl, _) in self.blocks.items():
            types = []
            for raw in decl.params:
                pname, tname = split_param(raw)
                if tname is None:
                    self.error(f"parameter '{pname}' of rule '{name}' needs a type", decl.span,
                               hint=f"write '{pname}: player' (types: " + ", ".join(PARAM_TYPES) + ")")
                elif tname not in PARAM_TYPES:
                    self.error(f"unknown type '{tname}' for parameter '{pname}'", decl.span,
                               hint="types: " + ", ".join(PARAM_TYPES))
                    tname = None
                types.append(PARAM_TYPES[tname] if tname else None)
            self.param_types[name] = tuple(types)
        counters = sorted(self.counters.values(), key=lambda c: c.index)
        for counter in counters:
            control.counter_type(self, counter)
        self.check_define_blocks()
        for name, (decl, _) in self.blocks.items():
            rule = rules[self.rule_index[name]]
            scope = RuleScope()
            for p, t in zip(decl.params, self.param_types[name]):
                scope.bind(split_param(p)[0], t or "any")
            rule.body = self.block(decl.body, scope, {"kind": decl.kind})
            rule.nlocals = scope.nslots
        triggers = self.check_triggers(rules)
        self.check_answer_uses()
        ranking = self.check_ranking()
        payoff = self.check_payoff()
        sheets = self.check_sheets()
        if self.errors:
            unique: dict[tuple[str, str], RulelangError] = {}
            for err in self.errors:  # an error inside a definition is met at every use
                unique.setdefault((err.message, str(err.span)), err)
            raise ErrorList(list(unique.values()))
        assert self.players is not None
        return m.Model(
            title=self.title,
            files=[(s.path, s.sha256) for s in self.sources],
            min_players=self.players.low,
            max_players=self.players.high,
            default_players=self.players.default or self.players.low,
            options=self.options,
            attributes=self.attributes,
            faces=sorted(self.faces.values(), key=lambda f: f.index),
            kinds=self.kinds_by_index,
            zones=self.zones_by_index,
            counters=counters,
            rules=rules,
            triggers=triggers,
            ranking=ranking,
            sheets=sheets,
            setup_rule=self.rule_index.get("setup", 0),
            turn_rule=self.rule_index.get("turn", 0),
            sections=self.sections,
            rounds=self.round_game,
            eliminates=self.uses_elimination,
            payoff=payoff,
        )


def check_sources(sources: list[SourceFile], options: dict[str, str] | None = None) -> m.Model:
    """Check a game given as its source files (base first)."""
    return Checker(sources, options).check()
