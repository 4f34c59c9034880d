"""Turn engine narration events into a readable play-by-play."""

from __future__ import annotations

from collections.abc import Mapping
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


class Narrator:
    """Formats narration events; consecutive rolls are gathered on one line."""

    def __init__(self, verbose: bool = False, names: Mapping[str, str] | None = None) -> None:
        self.verbose = verbose
        self.names = dict(names or {})  # label or kind name -> the name a player reads
        self._rolls: list[str] = []
        self._verb = "roll"

    def _named(self, components: list[str]) -> str:
        return ", ".join(self.names.get(c, c) for c in components)

    def lines(self, events: list[dict[str, Any]]) -> list[str]:
        """The lines to print for these events (rolls may wait for the next non-roll event)."""
        out: list[str] = []
        for e in events:
            kind = e["type"]
            if kind == "roll":
                if e.get("verb", "roll") != self._verb:
                    out.extend(self.flush())
                    self._verb = e.get("verb", "roll")
                self._rolls.append(f"{self.names.get(e['component'], e['component'])} {e['face']}")
                continue
            out.extend(self.flush())
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
                if e.get("forced") and not self.verbose:
                    continue  # the only legal action is no choice worth telling
                out.append(f"  {e['player']} chooses: {e['action']}")
            elif kind == "say":
                out.append(f"  {e['text']}")
            elif kind == "counter":
                who = f" of {e['player']}" if e["player"] else ""
                if e.get("text"):  # a text counter: its values quoted (a text "3" is no number)
                    out.append(f"  {e['counter']}{who}: {_quoted(e['old'])} -> {_quoted(e['new'])}")
                else:
                    out.append(f"  {e['counter']}{who}: {e['old']} -> {e['new']}{_delta(e['old'], e['new'])}")
            elif kind == "answers" and self.verbose:
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

    def flush(self) -> list[str]:
        """Lines still held back (gathered rolls)."""
        if not self._rolls:
            return []
        line = f"  {self._verb}s: " + ", ".join(self._rolls)
        self._rolls = []
        return [line]


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
