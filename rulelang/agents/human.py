"""A person at the terminal: sees their observation, picks a numbered legal action."""

from __future__ import annotations

import re
from typing import Any

import click


def _group(labels: list[str]) -> str:
    """'Star#1, Star#2, Moon#3' -> 'Star x2, Moon' (copies of a kind are interchangeable to a player)."""
    counts: dict[str, int] = {}
    for label in labels:
        name, _, face = label.partition("=")
        key = re.sub(r"#\d+$", "", name) + (f" showing {face}" if face else "")
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items())


def render_observation(obs: dict[str, Any]) -> str:
    """A compact, readable text of an observation."""
    lines = [f"You are {obs['you']}. Turn {obs['turn']}, {obs['current']} to play."]
    if obs.get("round") is not None:  # nobody has the turn: the whole table plays the round
        lines = [f"You are {obs['you']}. Round {obs['round']}."]
    for name, value in obs["counters"].items():
        if isinstance(value, dict) and not _is_hidden(value):
            lines.append(f"  {name}: " + ", ".join(f"{p} {_shown(v)}" for p, v in value.items()))
        else:
            lines.append(f"  {name}: {_shown(value)}")
    for name, content in obs["zones"].items():
        if isinstance(content, dict):
            if content.get("hidden"):
                lines.append(f"  {name}: {content['hidden']} hidden")
        elif content:
            lines.append(f"  {name}: " + _group(content))
    return "\n".join(lines)


def _is_hidden(value: Any) -> bool:
    return isinstance(value, dict) and value.get("hidden") is True


def _shown(value: Any) -> str:
    """A counter's value as the player reads it: ``(hidden)`` for one they may not see."""
    return "(hidden)" if _is_hidden(value) else str(value)


class HumanAgent:
    """Asks at the terminal; re-asks until the answer is a listed number or label."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:
        """Show the observation and legal actions, read the player's pick.

        With many options, typing words instead of a number narrows the list.
        """
        click.echo("")
        click.echo(render_observation(observation))
        if observation.get("ask"):
            click.echo("  (everyone asked answers at once, in secret)")
        shown = list(enumerate(legal, start=1))
        while True:
            for i, label in shown[:40]:
                click.echo(f"  {i}. {label}")
            if len(shown) > 40:
                click.echo(f"  ... and {len(shown) - 40} more: type words to narrow the list")
            answer = click.prompt("Your choice", default="1", show_default=True).strip()
            if answer.isascii() and answer.isdecimal() and len(answer) < 10 and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            if answer in legal:
                return answer
            words = answer.lower().split()
            narrowed = [(i, label) for i, label in enumerate(legal, start=1)
                        if all(w in label.lower() for w in words)]
            if narrowed:
                shown = narrowed
                continue
            click.echo(f"Please type a number from 1 to {len(legal)}, or words from an option.")
            shown = list(enumerate(legal, start=1))
