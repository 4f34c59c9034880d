"""The engine's views: where a component is, who sees a zone, a counter or a chance outcome, and what a
player (or a spectator) is shown of the table."""

from __future__ import annotations

import copy
from typing import Any

from rulelang.check.model import Model
from rulelang.compile.control import counter_shown
from rulelang.compile.program import DRAW, ROLL, SHUFFLE, Program
from rulelang.compile.runtime import place_of, player_label
from rulelang.engine.state import State


class Seeing:
    """The views of ``Engine`` (a mixin: the engine's attributes are set by ``Engine.__init__``)."""

    program: Program
    model: Model
    code: list
    shown_name: dict[str, str]
    settle_result: Any  # (Results)

    def place_of(self, st: State, c: int) -> list[int]:
        """Where component ``c`` is: [zone index, owner seat or -1]."""
        return place_of(st, c)

    def sees(self, place: list[int], player: int | None) -> bool:
        """Whether ``player`` (None: a spectator) sees what is in a zone ([zone, owner])."""
        zone = self.model.zones[place[0]]
        if zone.visibility == "public":
            return True
        return zone.visibility == "owner" and player is not None and place[1] == player

    def sees_counter(self, counter: Any, owner: int | None, player: int | None) -> bool:
        """Whether ``player`` (None: a spectator) sees ``counter`` (of ``owner``, for a per-player one)."""
        if counter.visibility == "public":
            return True
        return counter.visibility == "owner" and player is not None and owner == player

    def chance_seen_by(self, st: State, player: int | None) -> bool:
        """Whether ``player`` learns the outcome of the pending chance decision."""
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        loc = fr[2]
        if ins[0] == ROLL:
            return self.sees(self.place_of(st, loc[ins[1]][loc[ins[2]]]), player)
        if ins[0] == DRAW:
            spec = ins[1]
            return self.sees(spec.dest_name(st, loc)[1], player) or self.sees(spec.source_name(st, loc)[1], player)
        if ins[0] == SHUFFLE:
            return self.model.zones[ins[2]].visibility == "public"
        return True

    # ------------------------------------------------------------------ views
    def table_zones(self, st: State) -> list[tuple[str, Any, int | None, list[int]]]:
        """Every zone on the table as (its key in an observation, its declaration, the seat owning it for
        a zone of each player else None, its components): ``hand of P2``, ``under of Card#1``, ``deck``."""
        labels = self.program.component_labels
        kind_of = self.program.kind_of
        out: list[tuple[str, Any, int | None, list[int]]] = []
        for z in self.model.zones:
            if z.per_class is not None:  # the pile on each component of a class
                out.extend((f"{z.name} of {labels[c]}", z, None, ids) for c, ids in enumerate(st.zones[z.index])
                           if kind_of[c] in z.per_class)
            elif z.per_kind is not None:
                if st.zones[z.index]:  # (no component of the kind: no such zone)
                    first = kind_of.index(z.per_kind)
                    out.extend((f"{z.name} of {labels[first + i]}", z, None, ids)
                               for i, ids in enumerate(st.zones[z.index]))
            elif z.per_player:
                out.extend((f"{z.name} of {player_label(p)}", z, p, st.zones[z.index][p]) for p in range(st.players))
            else:
                out.append((z.name, z, None, st.zones[z.index]))
        return out

    def shown(self, st: State, ids: list[int]) -> list[str]:
        """Components as a player reads them: each by its shown name, a rolled die with its face (``Red=Six``)."""
        labels = self.program.component_labels
        faces = self.model.faces
        out = []
        for c in ids:
            f = st.faces[c]
            name = self.shown_name[labels[c]]
            out.append(f"{name}={faces[f].name}" if f >= 0 else name)
        return out

    def observe(self, st: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator who sees only public information)."""
        model = self.model
        zones: dict[str, Any] = {}
        for key, z, owner, ids in self.table_zones(st):
            visible = z.visibility == "public" or (z.visibility == "owner" and owner is not None and owner == player)
            zones[key] = self.shown(st, ids) if visible else {"hidden": len(ids)}
        counters: dict[str, Any] = {}
        bookkeeping: dict[str, Any] = {}
        for c in model.counters:
            value = st.counters[c.index]
            as_text = counter_shown(c.type, model.kinds, model.faces)
            if c.per_player:
                shown = {player_label(p): as_text(v) if self.sees_counter(c, p, player) else {"hidden": True}
                         for p, v in enumerate(value)}
            else:
                shown = as_text(value) if self.sees_counter(c, None, player) else {"hidden": True}
            (counters if c.doc is not None else bookkeeping)[c.name] = shown
        d = self.pending(st)
        obs: dict[str, Any] = {
            "you": player_label(player) if player is not None else None,
            "players": st.players,
            "turn": st.turn,
            "current": player_label(st.current),
            "counters": counters,
            "bookkeeping": bookkeeping,
            "zones": zones,
            "over": st.over,
        }
        if self.model.rounds:  # nobody has the turn: the table plays a round
            obs["current"] = None
            obs["round"] = st.turn
        if any(st.out):
            obs["out"] = [player_label(p) for p in range(st.players) if st.out[p]]
        if player is not None and st.seen[player]:
            obs["seen"] = copy.deepcopy(st.seen[player])  # an independent value: agents may change it
        if d is not None:
            obs["waiting_for"] = player_label(d.player) if d.kind == "choice" and d.player is not None else "chance"
            if d.kind == "choice" and player is not None and (d.player == player or player in (d.players or ())):
                obs["legal_actions"] = self.legal_actions(st, player)
                if d.players is not None:
                    obs["ask"] = True
        if st.over:
            self.settle_result(st)  # (a deferred result: State.defer_result)
        if st.result is not None:
            obs["result"] = copy.deepcopy(st.result)
        return obs
