"""The engine's results: the standings at the end of a game, its payoffs, and the end itself."""

from __future__ import annotations

from fractions import Fraction
from operator import mul
from typing import Any

from rulelang.check.model import Model, PayoffSpec, rank_payoff_spec
from rulelang.compile.program import Program
from rulelang.compile.runtime import player_label
from rulelang.engine.payoffs import add_payoffs, declared_payoffs, payoffs_of_result
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.numbers import MAX_NUMBER, bounded, json_number

# The standings written as a hand-written program would write them: each value tested against the bound where
# it is computed (``bounded`` called outside the common case only), what does not depend on the state worked out
# once per program, a sheet's lines kept as computed when every value is a whole number (``json_number`` would
# return each as it is). Off: the code before it (the equivalence tests compare the two).
LEAN_STANDINGS = True


class Results:
    """The results of ``Engine`` (a mixin: the engine's attributes are set by ``Engine.__init__``)."""

    program: Program
    model: Model
    run: Any
    _rank_plan: Any = None  # (rank fns, signs, span, locals) for ranks(), found at its first call
    _stand_plan: Any = None  # what _standing_values reads of the program (LEAN_STANDINGS), found at its first call

    def _finish(self, st: State) -> None:
        """The game is over: its result (a lean one, ranks and payoffs only, while ``st.picking.lean``)."""
        st.stack.clear()
        st.over = True
        if st.defer_result and st.log is None:  # worked out when asked for (settle_result, payoffs)
            return
        picking = st.picking
        if picking is not None and picking.lean and st.log is None:  # a search's rollout: ranks and payoffs
            lean: dict[str, Any] = {"ranks": self.ranks(st)}
            if self.run.pay_fn is not None:
                payoff = self.model.payoff
                assert payoff is not None
                lean["payoffs"] = declared_payoffs(payoff.spec, self.run.pay_fn, st, payoff.nlocals)
            st.result = lean
            return
        self._settle(st)

    def settled(self, st: State) -> bool:
        """Whether the result of a finished game ``st`` is written (False while a deferred one is not)."""
        return isinstance(st.result, dict) and "standings" in st.result

    def settle_result(self, st: State) -> None:
        """Write the result (standings, declared payoffs) of a finished game whose end deferred it
        (``State.defer_result``) or left a lean one; nothing if it is written already or the game is not over."""
        if st.over and not self.settled(st):
            self._settle(st)

    def _settle(self, st: State) -> None:
        """The result of the game that just ended: standings, ``no winner``, declared payoffs (checked)."""
        no_winner = isinstance(st.result, dict) and st.result.get("no_winner")  # 'end game with no winner'
        result = self.standings(st)
        if no_winner:
            result["winners"] = []
        if self.run.pay_fn is not None:  # a declared payoff (one player: it says won, lost or drawn)
            payoff = self.model.payoff
            assert payoff is not None
            add_payoffs(result, declared_payoffs(payoff.spec, self.run.pay_fn, st, payoff.nlocals))
        st.result = result
        if st.log is not None:
            st.log.append({"type": "end", "result": st.result})

    # ------------------------------------------------------------------ results
    @property
    def payoff_spec(self) -> PayoffSpec:
        """The game's payoffs: declared (``payoff p = ...``), or the rank default for the default player count."""
        if self.model.payoff is not None:
            return self.model.payoff.spec
        return rank_payoff_spec(self.model.default_players)

    def payoff_spec_for(self, players: int) -> PayoffSpec:
        """The game's payoffs with ``players`` players (the rank default is [0, 0] for one player)."""
        return self.model.payoff.spec if self.model.payoff is not None else rank_payoff_spec(players)

    def payoffs(self, st: State) -> tuple[Fraction, ...]:
        """Each seat's payoff in a finished game: the declared expression, else
        (players ranked below - players ranked above) / (players - 1); 0 for one player without a declaration."""
        if not st.over:
            raise RulelangError("the game is not over: payoffs are known only at its end", self.where_span(st))
        if not self.settled(st):  # a deferred result (State.defer_result)
            if self.run.pay_fn is not None:  # the declared payoffs alone, checked as the result checks them
                payoff = self.model.payoff
                assert payoff is not None
                self.run.reset_memo()
                try:
                    values = declared_payoffs(payoff.spec, self.run.pay_fn, st, payoff.nlocals)
                finally:
                    self.run.reset_memo()
                return tuple(Fraction(v) for v in values)
            self._settle(st)
        return payoffs_of_result(st.result, st.players)

    def payoffs_now(self, st: State) -> tuple[Fraction, ...] | None:
        """The declared payoffs as if the game ended now, each held within its bounds (for a search cut short);
        None when the game declares none or the payoff cannot be computed in this position."""
        payoff, pay = self.model.payoff, self.run.pay_fn
        if payoff is None or pay is None:
            return None
        spec = payoff.spec
        self.run.reset_memo()
        out = []
        try:
            for p in range(st.players):
                loc: list[Any] = [None] * max(1, payoff.nlocals)
                loc[0] = p
                out.append(min(spec.high, max(spec.low, Fraction(bounded(pay(st, loc), spec.span)))))
        except RulelangError:
            return None
        finally:
            self.run.reset_memo()
        return tuple(out)

    def standings(self, st: State) -> dict[str, Any]:
        """Rank the players by the game's ranking keys; rank 1 are the winners."""
        sheets, rows = self._standing_values(st)
        if LEAN_STANDINGS:
            return _lean_standings(self.program.rank_keys, sheets, rows)
        ranking = []
        for rank, (_k, p, values) in _ranked(self.program.rank_keys, rows):
            entry: dict[str, Any] = {"player": player_label(p), "rank": rank, "keys": [json_number(v) for v in values]}
            if sheets[p]:
                entry["sheets"] = {name: {label: json_number(v) for label, v in lines.items()}
                                   for name, lines in sheets[p].items()}
            ranking.append(entry)
        winners = [r["player"] for r in ranking if r["rank"] == 1]
        return {"winners": winners, "standings": ranking}

    def ranks(self, st: State) -> list[int]:
        """Each seat's rank in :meth:`standings` (1: a winner), the same values computed the same way (and the
        same errors raised), without writing its rows: what a search's rollout needs of the end of a game."""
        program = self.program
        if program.sheets:
            _sheets, rows = self._standing_values(st)
            out = [0] * st.players
            for rank, (_k, p, _values) in _ranked(program.rank_keys, rows):
                out[p] = rank
            return out
        # No score sheets: the keys alone, as _standing_values computes them; a seat's rank is one more
        # than the seats whose keys sort before its own (as _ranked numbers them).
        run = self.run
        plan = self._rank_plan
        if plan is None or plan[0] is not run.rank_fns:  # (what does not depend on the state: worked out once)
            plan = self._rank_plan = (run.rank_fns, [-1 if d == "highest" else 1 for d, _ in program.rank_keys],
                                      self.model.ranking.span, max(1, program.rank_nlocals))
        fns, signs, span, nlocals = plan
        run.reset_memo()
        keys: list[Any] = []
        if len(fns) == 1:  # one key: its signed value stands for the one-item tuple (they compare alike)
            fn, h = fns[0], signs[0]
            for p in range(st.players):
                loc = [None] * nlocals
                loc[0] = p
                v = bounded(fn(st, loc), span)
                keys.append(-v if h < 0 else v)
        else:
            for p in range(st.players):
                loc = [None] * nlocals
                loc[0] = p
                keys.append(tuple([-v if h < 0 else v for h, v in zip(signs, [bounded(fn(st, loc), span)
                                                                               for fn in fns])]))
        out = []
        for mine in keys:
            rank = 1
            for other in keys:
                if other < mine:
                    rank += 1
            out.append(rank)
        return out

    def _standing_values(self, st: State) -> tuple[list[dict[str, dict[str, Any]]], list[list[Any]]]:
        """Per seat, its score sheets' lines (sheet name -> line label -> value) and its ranking keys' values
        (what :meth:`standings` and :meth:`ranks` rank)."""
        if LEAN_STANDINGS:
            return self._lean_values(st)
        program = self.program
        run = self.run
        run.reset_memo()  # pure definitions are computed once per arguments within one standings
        sheets: list[dict[str, dict[str, int]]] = []
        tallied = [run.tallied_rows(st, fns) for fns in run.sheet_fns]  # a tally's rows, if nothing changed since
        for p in range(st.players):
            mine: dict[str, dict[str, int]] = {}
            for (name, lines, nlocals), fns, rows in zip(program.sheets, run.sheet_fns, tallied):
                if rows is not None:
                    mine[name] = {label: bounded(v, self.model.ranking.span) for (label, _), v in zip(lines, rows[p])}
                    continue
                loc = [None] * max(1, nlocals)
                loc[0] = p
                mine[name] = {label: bounded(fn(st, loc), self.model.ranking.span)
                              for (label, _), fn in zip(lines, fns)}
            sheets.append(mine)
        rows = []
        span = self.model.ranking.span
        nlocals = max(1, program.rank_nlocals)
        rank_sheets = program.rank_sheets
        by_key = [(fn, rank_sheets[k] if k < len(rank_sheets) else None) for k, fn in enumerate(run.rank_fns)]
        for p in range(st.players):
            loc = [None] * nlocals
            loc[0] = p
            values = []
            for fn, sheet in by_key:
                if sheet is not None:  # the key is a score sheet's total: already added up
                    values.append(bounded(sum(sheets[p][program.sheets[sheet][0]].values()), span))
                else:
                    values.append(bounded(fn(st, loc), span))
            rows.append(values)
        return sheets, rows

    def _lean_values(self, st: State) -> tuple[list[dict[str, dict[str, Any]]], list[list[Any]]]:
        """:meth:`_standing_values` (LEAN_STANDINGS): the same values computed in the same order (the same errors
        raised), each number tested against the bound where it is computed."""
        run = self.run
        plan = self._stand_plan
        if plan is None or plan[0] is not run.rank_fns or plan[1] is not run.sheet_fns:
            program = self.program
            rank_sheets = program.rank_sheets
            sheets_plan = [(name, [label for label, _ in lines], fns, max(1, nlocals))
                           for (name, lines, nlocals), fns in zip(program.sheets, run.sheet_fns)]
            by_key = [(fn, program.sheets[rank_sheets[k]][0] if k < len(rank_sheets) and rank_sheets[k] is not None
                       else None) for k, fn in enumerate(run.rank_fns)]
            plan = self._stand_plan = (run.rank_fns, run.sheet_fns, sheets_plan, by_key,
                                       max(1, program.rank_nlocals), self.model.ranking.span)
        _fns, sheet_fns, sheets_plan, by_key, nlocals, span = plan
        run.reset_memo()  # pure definitions are computed once per arguments within one standings
        top, low = MAX_NUMBER, -MAX_NUMBER
        sheets: list[dict[str, dict[str, Any]]] = []
        players = st.players
        tallied = [run.tallied_rows(st, fns) for fns in sheet_fns]  # a tally's rows, if nothing changed since
        if run.stand_fn is not None and not any(kept is not None for kept in tallied):
            return run.stand_fn(st)  # the generated standings (compile/standings.py): the same values
        if sheets_plan:
            for p in range(players):
                mine: dict[str, dict[str, Any]] = {}
                for (name, labels, fns, nloc), kept in zip(sheets_plan, tallied):
                    if kept is not None:
                        values = [v if type(v) is int and low <= v <= top else bounded(v, span) for v in kept[p]]
                    else:
                        loc: list[Any] = [None] * nloc
                        loc[0] = p
                        values = []
                        for fn in fns:
                            v = fn(st, loc)
                            values.append(v if type(v) is int and low <= v <= top else bounded(v, span))
                    mine[name] = dict(zip(labels, values))
                sheets.append(mine)
        else:
            sheets = [{} for _ in range(players)]
        rows = []
        for p in range(players):
            loc = [None] * nlocals
            loc[0] = p
            values = []
            for fn, sheet in by_key:
                v = sum(sheets[p][sheet].values()) if sheet is not None else fn(st, loc)  # a sheet's total: added up
                values.append(v if type(v) is int and low <= v <= top else bounded(v, span))
            rows.append(values)
        return sheets, rows


def _lean_standings(keys: Any, sheets: list[dict[str, dict[str, Any]]], rows: list[list[Any]]) -> dict[str, Any]:
    """:meth:`Results.standings` from the values (LEAN_STANDINGS): the same rows, a sheet's lines kept as they
    are when every value is a whole number (what ``json_number`` returns unchanged)."""
    ranking = []
    winners = []
    signs = [-1 if d == "highest" else 1 for d, _ in keys]
    # (a key's value times -1 equals its negation, a whole number or a fraction: the order of _ranked's keys)
    keyed = sorted([(tuple(map(mul, signs, values)), p, values) for p, values in enumerate(rows)])
    rank = 0
    prev = None
    for i, (key, p, values) in enumerate(keyed):
        if key != prev:
            rank = i + 1
            prev = key
        label = f"P{p + 1}"
        entry: dict[str, Any] = {"player": label, "rank": rank,
                                 "keys": values if set(map(type, values)) <= _INT else
                                 [json_number(v) for v in values]}
        mine = sheets[p]
        if mine:
            entry["sheets"] = {name: lines if set(map(type, lines.values())) <= _INT
                               else {label: json_number(v) for label, v in lines.items()}
                               for name, lines in mine.items()}
        ranking.append(entry)
        if rank == 1:
            winners.append(label)
    return {"winners": winners, "standings": ranking}


_INT = frozenset([int])


def _ranked(keys: Any, rows: list[list[Any]]) -> list[tuple[int, tuple[tuple[Any, ...], int, list[Any]]]]:
    """(rank, (sort key, seat, key values)) for every seat, best first: seats with equal keys share a rank."""
    highest = [d == "highest" for d, _ in keys]
    keyed = sorted([(tuple([-v if h else v for h, v in zip(highest, values)]), p, values)
                    for p, values in enumerate(rows)])  # seats differ: rows never compared
    out = []
    rank = 0
    prev = None
    for i, row in enumerate(keyed):
        if row[0] != prev:
            rank = i + 1
            prev = row[0]
        out.append((rank, row))
    return out
