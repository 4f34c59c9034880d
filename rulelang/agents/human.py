"""A person at the terminal: sees their observation, picks a numbered legal action."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import click


def _group(labels: list[str], names: Mapping[str, str]) -> str:
    """'Star#1, Star#2, Moon#3' -> 'Star x2, Moon' (copies of a kind are interchangeable to a player),
    each kind by the name ``names`` gives it (its display name), else as the label has it."""
    counts: dict[str, int] = {}
    for label in labels:
        name, _, face = label.partition("=")
        kind = re.sub(r"#\d+$", "", name)
        key = names.get(name, names.get(kind, kind)) + (f" showing {face}" if face else "")
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items())


def _place(key: str, names: Mapping[str, str], you: str) -> str:
    """A zone's key in an observation (``hand of P2``) as a player reads it (``the hand of P2``;
    ``your hand`` for the player's own)."""
    zone, sep, owner = key.partition(" of ")
    shown = names.get(zone, zone)
    if not sep:
        return shown
    if owner == you:
        return "your " + re.sub(r"^(the|a|an) ", "", shown)
    return f"{shown} of {names.get(owner, owner)}"


def render_observation(obs: dict[str, Any], names: Mapping[str, str] | None = None) -> str:
    """A compact, readable text of an observation; ``names`` gives the display names of zones,
    counters and kinds (``display_names``), else the rules file's own names are shown."""
    names = names or {}
    you = obs["you"]
    lines = [f"You are {you}. Turn {obs['turn']}, {obs['current']} to play."]
    if obs.get("round") is not None:  # nobody has the turn: the whole table plays the round
        lines = [f"You are {you}. Round {obs['round']}."]
    for name, value in obs["counters"].items():
        shown = names.get(name, name)
        if isinstance(value, dict) and not _is_hidden(value):
            lines.append(f"  {shown}: " + ", ".join(f"{p} {_shown(v)}" for p, v in value.items()))
        else:
            lines.append(f"  {shown}: {_shown(value)}")
    for name, content in obs["zones"].items():
        if isinstance(content, dict):
            if content.get("hidden"):
                lines.append(f"  {_place(name, names, you)}: {content['hidden']} hidden")
        elif content:
            lines.append(f"  {_place(name, names, you)}: " + _group(content, names))
    return "\n".join(lines)


def display_names(model: Any, reading: Mapping[str, str] | None = None) -> dict[str, str]:
    """The names a player reads at the prompt: each zone's display name, each counter's description,
    and ``reading`` (component labels and kinds by the names narration gives them)."""
    names: dict[str, str] = dict(reading or {})
    for zone in model.zones:
        if zone.display:
            names[zone.name] = zone.display
    for counter in model.counters:
        if counter.doc:
            names[counter.name] = counter.doc
    return names


def _is_hidden(value: Any) -> bool:
    return isinstance(value, dict) and value.get("hidden") is True


def _shown(value: Any) -> str:
    """A counter's value as the player reads it: ``(hidden)`` for one they may not see."""
    return "(hidden)" if _is_hidden(value) else str(value)


HELP_LINE = ("(Type a number, or words from an option: words that fit one option alone choose it. "
             "Enter alone chooses nothing; ? shows this again.)")


class HumanAgent:
    """Asks at the terminal; re-asks until the answer is a listed number or label."""

    def __init__(self, seat: int, names: Mapping[str, str] | None = None) -> None:
        self.seat = seat
        self.names: Mapping[str, str] = names or {}
        self.helped = False  # the help line comes with the first question of the game

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:
        """Show the observation and legal actions, read the player's pick.

        Enter alone chooses nothing (it asks again). Typing words instead of a number narrows the
        list; words that fit one option alone choose it. ``?`` (or ``help``, unless an option is
        called that) prints the help line and the options again.
        """
        click.echo("")
        click.echo(render_observation(observation, self.names))
        if observation.get("ask"):
            click.echo("  (everyone asked answers at once, in secret)")
        shown = list(enumerate(legal, start=1))
        if not self.helped:
            click.echo(HELP_LINE)
            self.helped = True
        while True:
            for i, label in shown[:40]:
                click.echo(f"  {i}. {label}")
            if len(shown) > 40:
                click.echo(f"  ... and {len(shown) - 40} more: type words to narrow the list")
            answer = click.prompt("Your choice (a number, or words from an option)").strip()
            if not answer:
                continue  # (click asks again on an empty line itself; a line of spaces too)
            if answer.isascii() and answer.isdecimal() and len(answer) < 10 and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            exact = [label for label in legal if label.lower() == answer.lower()]
            if exact:
                return exact[0]
            if answer.lower() in ("?", "help"):
                click.echo(HELP_LINE)
                shown = list(enumerate(legal, start=1))
                continue
            words = answer.lower().split()
            narrowed = [(i, label) for i, label in enumerate(legal, start=1)
                        if all(w in label.lower() for w in words)]
            if len(narrowed) == 1:
                return narrowed[0][1]
            if narrowed:
                click.echo(f"{len(narrowed)} options fit: type a number, or more words.")
                shown = narrowed
                continue
            click.echo(f"Please type a number from 1 to {len(legal)}, or words from an option.")
            shown = list(enumerate(legal, start=1))
