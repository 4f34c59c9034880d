"""Script a game from Python and assert on the table: ``rulelang.testing.Script``.

A test of a rules file plays it by hand from a position (or from its setup), giving every
decision by its label as the play-by-play and traces write it (the option a player chooses,
the answers of an ``ask``, a die's face, the kind drawn, a shuffle's order, a player picked
at random), and reads the table back by the names of the rules file::

    from rulelang.testing import Script

    s = Script("my-game.rules", players=2, options={"random_first_player": "false"})
    s.choose("Roll", by="P1")
    s.roll("Six", "One")                         # the next two rolls, in order
    assert s.zone("kept") == ["Red#1"]
    assert s.counter("score", "P1") == 6
    assert "  P1 chooses: Roll" in s.told()

(docs/testing.md has the same with a shipped game.)

Every step first checks that the pending decision is of the kind the script gives (a choice,
an ask, a roll, ...), for the player it names, and that the label is offered; otherwise it
raises ``ScriptError`` (an ``AssertionError``, so pytest shows it as a failed assertion)
saying what is pending instead. A script that drifts from the rules fails where it drifts,
not three steps later. See docs/testing.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulelang.check.model import FACE, PLAYER
from rulelang.compile.control import counter_shown
from rulelang.compile.runtime import player_label
from rulelang.engine.decision import Decision
from rulelang.engine.engine import Engine, IllegalAction
from rulelang.engine.state import State
from rulelang.game import load_game
from rulelang.narrate import Narrator, reading_names, sight
from rulelang.views import redact_narration

__all__ = ["Script", "ScriptError"]


class ScriptError(AssertionError):
    """A scripted step the game does not allow now, or a name the game does not have."""


def _seat(engine: Engine, st: State, player: str | int) -> int:
    """The seat (0-based) of ``"P2"`` (or of a seat number given as is)."""
    if isinstance(player, int) and not isinstance(player, bool):
        if 0 <= player < st.players:
            return player
    elif isinstance(player, str):
        labels = [player_label(p) for p in range(st.players)]
        if player in labels:
            return labels.index(player)
    raise ScriptError(f"no player {player!r}: the players are "
                      + ", ".join(player_label(p) for p in range(st.players)))


class Script:
    """One game played by hand: each method gives the pending decision(s) and returns the script.

    ``game`` is a path to a ``.rules`` file or a loaded ``Engine``; ``options`` are the rules'
    options as ``rulelang run -o`` gives them (texts); ``position`` a position as ``run --from``
    reads it (a dict, or the path of its JSON file), laid out after setup (whose own chance
    is drawn from ``seed``). ``view`` is the player whose play-by-play ``told`` gives (None:
    the table's, which sees public zones only).
    """

    def __init__(self, game: Engine | str | Path, players: int | None = None,
                 options: Mapping[str, str] | None = None, position: Mapping[str, Any] | str | Path | None = None,
                 seed: int = 0, view: str | None = None) -> None:
        if isinstance(game, Engine):
            if options:
                raise ScriptError("options are given when the game is loaded: pass the path, or load it with them")
            self.engine = game
        else:
            self.engine = load_game(game, dict(options) if options else None)
        if isinstance(position, (str, Path)):
            import json

            position = json.loads(Path(position).read_text(encoding="utf-8"))
        self.state: State = self.engine.new_state(players, narrate=True, position=position, setup_seed=seed)
        self.view = None if view is None else _seat(self.engine, self.state, view)
        self.history: list[tuple[str, Any]] = []
        self._told = list(self.state.log or [])
        self.state.log = []
        self._narrator = Narrator(names=reading_names(self.engine), sees=sight(self.engine, self.view))

    # ------------------------------------------------------------------ what is pending
    @property
    def decision(self) -> Decision:
        """The pending decision (a ``ScriptError`` once the game is over)."""
        d = self.engine.pending(self.state)
        if d is None:
            raise ScriptError(f"the game is over ({self.winners_text()}), but the script goes on")
        return d

    def pending(self) -> str | None:
        """What is awaited: ``"choice"``, ``"ask"``, ``"roll"``, ``"draw"``, ``"shuffle"``, ``"first player"``,
        ``"pick"``; None once the game is over."""
        d = self.engine.pending(self.state)
        if d is None:
            return None
        if d.kind == "choice":
            return "ask" if d.players is not None else "choice"
        for key, name in (("roll", "roll"), ("draw", "draw"), ("shuffle", "shuffle"), ("first_player", "first player"),
                          ("pick", "pick")):
            if key in d.event:
                return name
        return "chance"  # (no other kind today)

    def legal(self, player: str | None = None) -> list[str]:
        """The labels that may be given now: the pending choice's options, ``player``'s answers to a
        pending ask (default: the first still to answer), or a chance decision's outcomes."""
        d = self.decision
        if d.kind == "chance":
            return list(d.labels or d.pool or [])
        seat = None if player is None else _seat(self.engine, self.state, player)
        return self.engine.legal_actions(self.state, seat)

    def _describe(self) -> str:
        d = self.engine.pending(self.state)
        if d is None:
            return "nothing (the game is over)"
        what = self.pending()
        if d.kind == "choice":
            seats = d.players if d.players is not None else [d.player or 0]
            who = ", ".join(player_label(p) for p in seats)
            return f"{'an ask of' if what == 'ask' else 'a choice of'} {who}: {list(d.labels or [])}"
        outcomes = list(d.labels or d.pool or [])
        return f"a {what} ({', '.join(f'{k} {v}' for k, v in d.event.items() if k != 'among')}): {outcomes}"

    def _expect(self, what: str, wanted: Any) -> Decision:
        if self.pending() != what:
            raise ScriptError(f"the script gives a {what} ({wanted!r}), but pending is {self._describe()}")
        return self.decision

    def _apply(self, action: Any, player: int | None = None) -> None:
        try:
            self.engine.apply(self.state, action, player=player)
        except IllegalAction as exc:
            raise ScriptError(f"{action!r} is not allowed here: {exc.message}"
                              + (f" ({exc.hint})" if exc.hint else "")) from None
        self._told += self.state.log or []
        self.state.log = []

    # ------------------------------------------------------------------ playing
    def choose(self, label: str, by: str | None = None) -> Script:
        """Take the option ``label`` of the pending choice; ``by`` (``"P2"``) checks whose choice it is."""
        d = self._expect("choice", label)
        if by is not None and d.player != _seat(self.engine, self.state, by):
            raise ScriptError(f"expected {by} to choose {label!r}, but it is {player_label(d.player or 0)}'s choice")
        if label not in (d.labels or []):
            raise ScriptError(f"{label!r} is not offered to {player_label(d.player or 0)}; "
                              f"offered: {list(d.labels or [])}")
        self._apply(label)
        self.history.append(("choose", label))
        return self

    def play(self, *labels: str) -> Script:
        """Take several choices in a row, each by its label (whoever's they are)."""
        for label in labels:
            self.choose(label)
        return self

    def answer(self, answers: Mapping[str, str]) -> Script:
        """Give the answers of the pending ``ask``: ``{"P2": "let it be", "P4": "Excuse Me!"}``, in the
        order written (an ``ask`` takes them in any order); each player named must be asked."""
        for player, label in answers.items():
            d = self._expect("ask", label)
            seat = _seat(self.engine, self.state, player)
            if seat not in (d.players or []):
                waiting = ", ".join(player_label(p) for p in d.players or [])
                raise ScriptError(f"{player} is not asked (or has answered already); waiting for {waiting}")
            allowed = self.engine.legal_actions(self.state, seat)
            if label not in allowed:
                raise ScriptError(f"{player} may not answer {label!r}; allowed: {allowed}")
            self._apply(label, player=seat)
            self.history.append(("answer", (player, label)))
        return self

    def roll(self, *faces: str) -> list[str]:
        """Give the next ``len(faces)`` rolls their faces, in order; the labels of the dice rolled."""
        rolled = []
        for face in faces:
            d = self._expect("roll", face)
            if face not in (d.labels or []):
                raise ScriptError(f"{d.event['roll']} has no face {face!r}; faces: {list(d.labels or [])}")
            rolled.append(d.event["roll"])
            self._apply(face)
            self.history.append(("roll", (d.event["roll"], face)))
        return rolled

    def next_roll(self) -> str | None:
        """The label of the die whose roll is pending, or None when no roll is pending."""
        return self.decision.event["roll"] if self.pending() == "roll" else None

    def roll_dice(self, faces: Mapping[str, str]) -> list[str]:
        """Roll by die label (``{"Red#1": "Six", ...}``) while the pending roll is of a die named here;
        every die named must be rolled."""
        rolled: list[str] = []
        while self.engine.pending(self.state) is not None and (die := self.next_roll()) is not None and die in faces:
            rolled += self.roll(faces[die])
        missing = sorted(set(faces) - set(rolled))
        if missing:
            raise ScriptError(f"the dice {missing} were not rolled; pending is {self._describe()}")
        return rolled

    def draw(self, *kinds: str) -> Script:
        """Give the next ``len(kinds)`` random draws their outcome: the kind drawn (``"Ace"``)."""
        for kind in kinds:
            d = self._expect("draw", kind)
            if kind not in (d.labels or []):
                raise ScriptError(f"cannot draw {kind!r} from {d.event['draw']}; possible: {list(d.labels or [])}")
            self._apply(kind)
            self.history.append(("draw", kind))
        return self

    def shuffle(self, order: Sequence[str]) -> Script:
        """Give the pending shuffle its outcome: the kinds of the shuffled components, bottom to top."""
        d = self._expect("shuffle", order)
        if sorted(order) != sorted(d.pool or []):
            raise ScriptError(f"a shuffle of {d.event['shuffle']} orders exactly {sorted(d.pool or [])}, "
                              f"not {sorted(order)}")
        self._apply(list(order))
        self.history.append(("shuffle", list(order)))
        return self

    def first_player(self, player: str) -> Script:
        """Give the random draw of the first player its outcome (``"P2"``)."""
        self._expect("first player", player)
        self._chance(player)
        self.history.append(("first player", player))
        return self

    def pick(self, player: str) -> Script:
        """Give a ``pick ... at random`` its outcome: the player picked (``"P3"``)."""
        d = self._expect("pick", player)
        if player not in (d.labels or []):
            raise ScriptError(f"{player} is not among those picked from: {list(d.labels or [])}")
        self._apply(player)
        self.history.append(("pick", player))
        return self

    def _chance(self, outcome: str) -> None:
        d = self.decision
        if outcome not in (d.labels or []):
            raise ScriptError(f"{outcome!r} is not a possible outcome; possible: {list(d.labels or [])}")
        self._apply(outcome)

    # ------------------------------------------------------------------ reading the table
    def _zone(self, name: str) -> tuple[Any, list[int]]:
        zone_name, sep, owner = name.partition(" of ")
        zone = next((z for z in self.engine.model.zones if z.name == zone_name), None)
        if zone is None:
            names = ", ".join(z.name for z in self.engine.model.zones)
            raise ScriptError(f"no zone {zone_name!r}; the zones are {names}")
        content = self.state.zones[zone.index]
        if zone.per_player:
            if not sep:
                raise ScriptError(f"{zone_name!r} is a zone of each player: say whose ('{zone_name} of P1')")
            return zone, list(content[_seat(self.engine, self.state, owner)])
        labels = self.engine.program.component_labels
        if zone.per_kind is not None or zone.per_class is not None:
            if not sep or owner not in labels:
                raise ScriptError(f"{zone_name!r} is a zone of each component: say whose "
                                  f"('{zone_name} of' and a component's label)")
            c = labels.index(owner)
            if zone.per_kind is not None:
                first = self.engine.program.kind_of.index(zone.per_kind)
                if self.engine.program.kind_of[c] != zone.per_kind:
                    raise ScriptError(f"{owner} has no {zone_name!r} zone")
                return zone, list(content[c - first])
            return zone, list(content[c])
        if sep:
            raise ScriptError(f"{zone_name!r} is one shared zone, not a zone of {owner}")
        return zone, list(content)

    def zone(self, name: str) -> list[str]:
        """The labels of the components in a zone, in its order: ``zone("hand of P2") == ["Cow#3", "Pig#7"]``
        (a zone of each player: ``NAME of P2``; of each component: ``NAME of Card#3``)."""
        labels = self.engine.program.component_labels
        return [labels[c] for c in self._zone(name)[1]]

    def kinds(self, name: str) -> list[str]:
        """The kind names of the components in a zone, sorted: ``["Cow", "Cow", "Pig"]``."""
        kinds = self.engine.model.kinds
        return sorted(kinds[self.engine.program.kind_of[c]].name for c in self._zone(name)[1])

    def count(self, name: str) -> int:
        """How many components a zone holds."""
        return len(self._zone(name)[1])

    def faces(self, name: str) -> dict[str, str | None]:
        """Die label -> the name of the face it shows (None: not rolled), for each component of a zone."""
        labels = self.engine.program.component_labels
        return {labels[c]: self._face(c) for c in self._zone(name)[1]}

    def _face(self, c: int) -> str | None:
        f = self.state.faces[c]
        return None if f < 0 else self.engine.model.faces[f].name

    def face(self, label: str) -> str | None:
        """The name of the face component ``label`` shows (None: not rolled)."""
        return self._face(self._component(label))

    def _component(self, label: str) -> int:
        labels = self.engine.program.component_labels
        if label not in labels:
            raise ScriptError(f"no component {label!r} (components are named like {labels[0]!r})")
        return labels.index(label)

    def where(self, label: str) -> str:
        """The zone that holds component ``label``: ``"middle"``, ``"hand of P2"``, ``"under of Card#3"``."""
        c = self._component(label)
        labels = self.engine.program.component_labels
        for z in self.engine.model.zones:
            content = self.state.zones[z.index]
            if z.per_player:
                for p, held in enumerate(content):
                    if c in held:
                        return f"{z.name} of {player_label(p)}"
            elif z.per_kind is not None or z.per_class is not None:
                first = self.engine.program.kind_of.index(z.per_kind) if z.per_kind is not None else 0
                for i, held in enumerate(content):
                    if c in held:
                        return f"{z.name} of {labels[i + first]}"
            elif c in content:
                return z.name
        raise ScriptError(f"{label} is in no zone")

    def counter(self, name: str, player: str | None = None) -> Any:
        """A counter's value: a number, a player (``"P2"``) or ``"nobody"``, a face by name; a counter of each player is
        ``{"P1": 3, "P2": 0}``, or one player's value with ``player``."""
        counter = next((c for c in self.engine.model.counters if c.name == name), None)
        if counter is None:
            names = ", ".join(c.name for c in self.engine.model.counters)
            raise ScriptError(f"no counter {name!r}; the counters are {names}")
        raw = self.state.counters[counter.index]
        shown = (lambda v: "nobody" if v < 0 else player_label(v)) if counter.type == PLAYER else (lambda v: v)
        if counter.type == FACE:
            shown = counter_shown(FACE, self.engine.model.kinds, self.engine.model.faces)
        if not counter.per_player:
            if player is not None:
                raise ScriptError(f"counter {name!r} is one for the table, not one of each player")
            return shown(raw)
        if player is not None:
            return shown(raw[_seat(self.engine, self.state, player)])
        return {player_label(p): shown(v) for p, v in enumerate(raw)}

    def answer_of(self, player: str) -> str:
        """What ``player`` answered to the last ``ask`` (``""``: not asked)."""
        return self.state.answers[_seat(self.engine, self.state, player)]

    @property
    def current(self) -> str:
        """The player whose turn it is (``"P1"``)."""
        return player_label(self.state.current)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.over

    def standings(self) -> dict[str, Any]:
        """The standings now, as ``rulelang run --json`` prints them (``standings``, ``winners``, ...)."""
        return self.engine.standings(self.state)

    @property
    def winners(self) -> list[str]:
        """The winners (``["P2"]``); a ``ScriptError`` while the game goes on."""
        if not self.state.over or self.state.result is None:
            raise ScriptError(f"the game is not over: pending is {self._describe()}")
        return list(self.state.result["winners"])

    def winners_text(self) -> str:
        """The result in words (for messages)."""
        result = self.state.result or {}
        return "winners: " + (", ".join(result.get("winners", [])) or "none")

    def observe(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` sees now (None: a spectator), as agents are shown it."""
        return self.engine.observe(self.state, None if player is None else _seat(self.engine, self.state, player))

    def told(self) -> list[str]:
        """The play-by-play lines since the last call (from the start, at the first), as ``rulelang run``
        prints them without ``-v`` (with ``view``: as ``run --view`` prints them for that player)."""
        events, self._told = self._told, []
        if self.view is not None:
            events = redact_narration(self.engine, events, self.view)
        return self._narrator.lines(events) + self._narrator.flush(end=self.state.over)
