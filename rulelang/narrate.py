"""Turn engine narration events into a readable play-by-play."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rulelang.numbers import ascii_fraction, format_number

if TYPE_CHECKING:
    from rulelang.engine.engine import Engine


def reading_names(engine: Engine) -> dict[str, str]:
    """The name a player reads for each component label (and kind name) in narration.

    Copies of a card or token are named by their kind's display name (``RedCard#3``
    and ``RedCard`` both read ``red card``); dice and components that own zones
    keep their labels, since each is its own object on the table.
    """
    kinds = engine.model.kinds
    owners = {z.per_kind for z in engine.model.zones if z.per_kind is not None}
    owners |= {k for z in engine.model.zones if z.per_class is not None for k in z.per_class}
    names: dict[str, str] = {}
    for label, k in zip(engine.program.component_labels, engine.program.kind_of):
        if kinds[k].cls != "die" and k not in owners:
            names[label] = kinds[k].display
            names[kinds[k].name] = kinds[k].display
    return names


Sight = Callable[[list[int]], bool]  # whether the reader sees what is in a zone ([zone index, owner seat or -1])

# Events after which a held-back forced choice is forgotten: another decision, or a new turn.
_DECISIONS = frozenset({"choice", "answers", "turn", "round", "end"})


def sight(engine: Engine, player: int | None) -> Sight:
    """What ``player`` (None: the table, who sees only public zones) sees, as the model says."""
    return lambda place: engine.sees(place, player)


class Narrator:
    """Formats narration events; consecutive rolls are gathered on one line.

    Without ``verbose`` the play-by-play is what the table sees: random draws are told when the
    reader sees one of the zones they go from or to (``sees``, from the model's zone visibility;
    without it no draw is told), the answers of an ``ask`` (revealed together), and a choice with
    one legal option only when something the reader sees follows from it (a line of the
    play-by-play, or a move in a zone they see) before the next decision.
    """

    def __init__(self, verbose: bool = False, names: Mapping[str, str] | None = None,
                 sees: Sight | None = None) -> None:
        self.verbose = verbose
        self.names = dict(names or {})  # label or kind name -> the name a player reads
        self.sees = sees
        self._held: tuple[str, ...] | None = None  # what the gathered items are: rolls of a verb, or draws
        self._items: list[str] = []  # rolls (or draws from one zone to one zone) gathered on one line
        self._forced: str | None = None  # a forced choice held back until something it did is seen

    def _seen(self, places: Any) -> bool:
        """Whether the reader sees any of these places (nothing is seen without ``sees``)."""
        return self.sees is not None and bool(places) and any(self.sees(p) for p in places)

    def _told(self, e: dict[str, Any]) -> bool:
        """Whether the reader sees this event happen (a held-back forced choice is then told first)."""
        kind = e["type"]
        if kind == "move":
            return self._seen(e.get("places"))
        return kind in ("roll", "say", "counter", "reveal", "trigger", "sheet", "out", "pick")

    def _named(self, components: list[str]) -> str:
        return ", ".join(self.names.get(c, c) for c in components)

    def lines(self, events: list[dict[str, Any]]) -> list[str]:
        """The lines to print for these events (rolls and draws may wait for the next event unlike them)."""
        out: list[str] = []
        for e in events:
            kind = e["type"]
            if self._forced is not None:
                if kind in _DECISIONS:
                    self._forced = None  # it led to nothing the reader sees
                elif self._told(e):
                    out.extend(self._gathered())
                    out.append(self._forced)
                    self._forced = None
            if kind == "roll":
                self._gather(out, ("roll", e.get("verb", "roll")), f"{self.names.get(e['component'], e['component'])} "
                             f"{e['face']}")
                continue
            if kind == "move" and not self.verbose and e.get("random"):
                if self._seen(e.get("places")):  # a draw the reader sees: draws alike are gathered on one line
                    self._gather(out, ("draw", e["to"], e["from"]), self._named(e["components"]))
                    continue
            out.extend(self._gathered())
            if kind == "turn":
                out.append(f"Turn {e['turn']}: {e['player']}")
            elif kind == "round":
                out.append(f"Round {e['round']}")
            elif kind == "out":
                out.append(f"  {e['player']} drops out.")
            elif kind == "pick":
                out.append(f"  at random: {e['player']} (among {', '.join(e['among'])})")
            elif kind == "turned" and self.verbose:
                out.append(f"    {self._named(e['components'])}: turned to {e['face']}")
            elif kind == "choice":
                line = f"  {e['player']} chooses: {e['action']}"
                if e.get("forced") and not self.verbose:
                    self._forced = line  # told only if something the reader sees follows from it
                    continue
                out.append(line)
            elif kind == "say":
                out.append(f"  {e['text']}")
            elif kind == "counter":
                who = f" of {e['player']}" if e["player"] else ""
                if e.get("text"):  # a text counter: its values quoted (a text "3" is no number)
                    out.append(f"  {e['counter']}{who}: {_quoted(e['old'])} -> {_quoted(e['new'])}")
                else:
                    out.append(f"  {e['counter']}{who}: {e['old']} -> {e['new']}{_delta(e['old'], e['new'])}")
            elif kind == "answers":  # revealed together once all are in: public
                said = ", ".join(f"{p}: {a}" for p, a in e["answers"].items())
                out.append(f"  (answered at once) {said}")
            elif kind == "reveal":
                who = "everyone sees" if e["to"] == "all" else f"{e['to']} looks at"
                shown = self._named(e["components"])
                faces = e.get("faces")
                if faces and len(faces) == len(e["components"]):  # dice, with the faces they show
                    shown = ", ".join(f"{self.names.get(c, c)} {f}" if f is not None else self.names.get(c, c)
                                      for c, f in zip(e["components"], faces))
                out.append(f"  {who} {e['where']}: {shown or 'nothing'}")
            elif kind == "trigger":
                out.append(f"  ! {e['rule']}")
            elif kind == "sheet":
                out.extend(tally_lines(e))
            elif kind == "move" and self.verbose:
                how = " at random" if e.get("random") else ""
                out.append(f"    {self._named(e['components'])}: {e['from']} -> {e['to']}{how}")
        return out

    def flush(self, end: bool = True) -> list[str]:
        """Lines still held back (gathered rolls and draws). At the ``end`` of the play-by-play a forced
        choice held back is forgotten; otherwise it waits for what follows."""
        if end:
            self._forced = None
        return self._gathered()

    def _gather(self, out: list[str], key: tuple[str, ...], item: str) -> None:
        """Hold ``item`` back with the items like it (``key``); the line of other items held goes out."""
        if key != self._held:
            out.extend(self._gathered())
            self._held = key
        self._items.append(item)

    def _gathered(self) -> list[str]:
        """The line of the rolls (or draws) gathered so far, if any."""
        if not self._items or self._held is None:
            return []
        items = ", ".join(self._items)
        self._items = []
        if self._held[0] == "draw":
            return [f"  {self._held[1]}: {items} (at random from {self._held[2]})"]
        return [f"  {self._held[1]}s: {items}"]


def sheet_lines(result: dict[str, Any]) -> list[str]:
    """Each score sheet as a table: one line per player, one column per line of the sheet."""
    rows = result["standings"]
    if not rows or "sheets" not in rows[0]:
        return []
    out: list[str] = []
    for name in rows[0]["sheets"]:
        labels = list(rows[0]["sheets"][name])
        widths = [max(len(label), 4) for label in labels]
        head = "        " + "  ".join(label.rjust(w) for label, w in zip(labels, widths)) + "   Total"
        out += ["", f"Score sheet ({name}):", head]
        for row in sorted(rows, key=lambda r: r["player"]):
            values = row["sheets"][name]
            cells = "  ".join(_signed(values[label]).rjust(w) for label, w in zip(labels, widths))
            total = sum(_number(v) for v in values.values())
            out.append(f"  {row['player']:<4}  {cells}   {format_number(total):>5}")
    return out


def tally_lines(event: dict[str, Any]) -> list[str]:
    """A score sheet tallied during play, as a table: one line per player, one column per line."""
    labels = event["labels"]
    widths = [max(len(label), 4) for label in labels]
    out = [f"  Score sheet ({event['sheet']}):",
           "          " + "  ".join(label.rjust(w) for label, w in zip(labels, widths)) + "   Total"]
    for player, values in event["rows"].items():
        cells = "  ".join(_signed(v).rjust(w) for v, w in zip(values, widths))
        total = sum(_number(v) or 0 for v in values)
        out.append(f"    {player:<4}  {cells}   {format_number(total):>5}")
    return out




OUTCOME_WORDS = {"won": "won", "lost": "lost", "drawn": "drew"}


def standings_lines(result: dict[str, Any], key_names: list[str]) -> list[str]:
    """The final standings as a small table (with each player's payoff when the game declares one)."""
    out = sheet_lines(result) + ["", "Final standings:"]
    payoffs = result.get("payoffs")
    for row in result["standings"]:
        keys = ", ".join(f"{name} {v}" for name, v in zip(key_names, row["keys"]))
        if isinstance(payoffs, list):
            seat = int(row["player"][1:]) - 1
            if 0 <= seat < len(payoffs):
                value = _number(payoffs[seat])
                keys += f"  (payoff {'+' if value is not None and value > 0 else ''}{format_number(value)})"
        out.append(f"  {row['rank']}. {row['player']}  {keys}")
    winners = result["winners"]
    outcome = result.get("outcome")
    if outcome in OUTCOME_WORDS and len(result["standings"]) == 1:  # one player, with a declared payoff
        out.append(f"{result['standings'][0]['player']} {OUTCOME_WORDS[outcome]} the game")
    elif not winners:
        out.append("No winner")
    elif len(winners) == 1:
        out.append(f"Winner: {winners[0]}")
    else:
        out.append("Winners (tied): " + ", ".join(winners))
    return out


def _number(value: Any) -> Any:
    """A number from an event or a result (a fraction is written there as ``"7/3"``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return value
    if isinstance(value, str):
        try:
            return ascii_fraction(value)  # ASCII digits only: Fraction() also reads "١/٢" and "1_000"
        except ValueError:
            return None
    return None


def _quoted(value: Any) -> str:
    """A text counter's value as the narration shows it: quoted, unless a view hides it."""
    return f'"{value}"' if isinstance(value, str) and value != "(hidden)" else str(value)


def _delta(old: Any, new: Any) -> str:
    """`` (+2)`` for a change of a number; nothing for players or hidden values."""
    a, b = _number(old), _number(new)
    if a is None or b is None:
        return ""
    return f" ({_signed(b - a)})"


def _signed(value: Any) -> str:
    number = _number(value)
    if number is None:
        return str(value)
    return ("+" if number >= 0 else "") + format_number(number if not isinstance(number, Fraction)
                                                        or number.denominator != 1 else number.numerator)
