"""What one player saw: narration and trace events with hidden identities redacted.

The engine decides visibility (zones are public, hidden or seen by their owner only);
this module only applies it to events, so a redacted view never contains what the
player could not see.
"""

from __future__ import annotations

from typing import Any

from rulelang.engine.engine import Engine


def redact_narration(engine: Engine, events: list[dict[str, Any]], player: int | None) -> list[dict[str, Any]]:
    """The narration events as ``player`` saw them (copies of a kind named by kind only)."""
    out = []
    names = engine.shown_name
    for e in events:
        if e["type"] in ("move", "reveal"):
            e = {**e, "components": [names.get(c, c) for c in e["components"]]}
        places = e.get("places")
        if e["type"] == "move" and places and not any(engine.sees(p, player) for p in places):
            n = len(e["components"])
            e = {**e, "components": [f"{n} hidden component{'s' if n != 1 else ''}"]}
        elif e["type"] == "roll" and places and not engine.sees(places[0], player):
            e = {**e, "face": "(hidden)"}
        elif e["type"] == "reveal" and e["to"] != "all" and (player is None or e["to"] != f"P{player + 1}"):
            n = len(e["components"])
            e = {k: v for k, v in e.items() if k != "faces"}  # what the dice show is the looker's only
            e["components"] = [f"{n} component{'s' if n != 1 else ''} (seen by {e['to']} only)"]
        elif e["type"] == "counter" and e.get("visible") and not (
                e["visible"] == "owner" and player is not None and e["player"] == f"P{player + 1}"):
            e = {**e, "old": "(hidden)", "new": "(hidden)"}  # that it changed is public; its value is not
        elif e["type"] == "choice" and (player is None or e["player"] != f"P{player + 1}"):
            # Whether another player had a real choice can depend on what they hold: say nothing of it.
            e = {**e, "forced": False}
            if "public" in e:
                e["action"] = e["public"]
        out.append(e)
    return out


def redact_counters(engine: Engine, counters: Any, player: int | None) -> Any:
    """A position's ``counters`` as ``player`` may see them: counters they may not see are hidden."""
    if not isinstance(counters, dict):
        return counters
    out: dict[str, Any] = {}
    for name, value in counters.items():
        counter = next((c for c in engine.model.counters if c.name == name), None)
        if counter is None or counter.visibility == "public":
            out[name] = value
        elif counter.per_player and isinstance(value, dict):
            out[name] = {who: v if engine.sees_counter(counter, _seat(who), player) else {"hidden": True}
                         for who, v in value.items()}
        else:
            out[name] = {"hidden": True}
    return out


def _seat(label: Any) -> int | None:
    text = str(label)
    digits = text[1:]  # at most 100 players: a seat of thousands of digits is no seat (and Python will not read it)
    seat = text.startswith("P") and digits.isascii() and digits.isdecimal() and len(digits) < 6  # "P١" is no seat
    return int(digits) - 1 if seat else None


def redact_chance(event: dict[str, Any], seen: bool) -> dict[str, Any]:
    """A trace chance event as a player saw it: the outcome hidden if they did not see it."""
    if seen:
        return event
    return {**event, "outcome": "hidden"}
