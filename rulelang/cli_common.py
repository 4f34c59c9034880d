"""What the command modules share: exit codes, bounds, number parsing, loading a game, errors, outputs."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

# Only light modules at import time: `rulelang --help` (and every command's --help) must not pay for the
# engine, the checker or the code generator. Each command imports what it runs (see docs/architecture.md).
from rulelang.errors import ErrorList, RulelangError
from rulelang.numbers import ascii_whole
from rulelang.rng import SEED_MAX, SEED_MIN, random_seed, seed_in_range
from rulelang.safeio import (
    MAX_POSITION_BYTES,
    InputError,
    check_output,
    decode_text,
    json_too_deep,
    long_number_place,
    read_input,
)
from rulelang.syntax.span import Span, register_source

if TYPE_CHECKING:
    from rulelang.agents.base import Agent
    from rulelang.engine.engine import Engine

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2

# Upper bounds of the numeric options (docs/simulate.md, "Bounds"): a run asked for more is a usage error.
MAX_GAMES = 10_000_000  # -n/--games of simulate and compare
MAX_JOBS = 1024  # -j/--jobs
MAX_BATCH = 100_000  # --batch-size
MAX_STEPS = 10_000_000  # --max-steps


class WholeNumber(click.ParamType):
    """A whole number written in ASCII digits (an optional sign), within ``[lo, hi]`` when given."""

    name = "integer"

    def __init__(self, lo: int | None = None, hi: int | None = None) -> None:
        self.lo, self.hi = lo, hi

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """The number ``value`` writes; a usage error for anything else (``١٢``, ``1_000``, ``1e3``)."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = ascii_whole(str(value))
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        if self.lo is not None and number < self.lo:
            self.fail(f"must be at least {self.lo:,}, not {number:,}", param, ctx)
        if self.hi is not None and number > self.hi:
            self.fail(f"must be at most {self.hi:,}, not {number:,}", param, ctx)
        return number


def fail_with(exc: RulelangError | ErrorList) -> NoReturn:
    click.echo(exc.format(), err=True)
    sys.exit(EXIT_ERROR)


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        name, value = pair.split("=", 1)
        options[name.strip()] = value.strip()
    return options


def load_rules(path: str, options: dict[str, str], budget: int | None = None, stdin: bytes | None = None) -> Engine:
    from rulelang.engine.engine import DEFAULT_BUDGET
    from rulelang.game import load_game

    try:
        return load_game(path, options, budget=DEFAULT_BUDGET if budget is None else budget, stdin=stdin)
    except (RulelangError, ErrorList) as exc:
        fail_with(hint_shipped(exc))


def hint_shipped(exc: RulelangError | ErrorList) -> RulelangError | ErrorList:
    """A missing rules file named without a directory: hint at the shipped games."""
    if isinstance(exc, RulelangError) and exc.message.startswith("no such file: ") and "/" not in exc.message[14:]:
        exc.hint = "check the path of the .rules file, or give the name of a shipped game ('rulelang games' lists them)"
    return exc


def rules_path(given: str) -> str:
    """The rules file a command reads for the argument ``given``: that file, else the shipped game of that name."""
    from rulelang.shipped import rules_path

    return rules_path(given)


def stdin_rules() -> bytes:
    """The rules text on standard input (the argument ``-``), within the size cap of a rules file."""
    from rulelang.safeio import MAX_RULES_BYTES, read_stdin

    if sys.stdin is not None and sys.stdin.isatty():
        click.echo("reading the rules from standard input (end with Ctrl-D)", err=True)
    try:
        return read_stdin("rules file", MAX_RULES_BYTES)
    except InputError as exc:
        fail_with(exc)


STDOUT_PATHS = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")
"""Output paths that mean standard output (``--trace -``)."""


def make_agents(kinds: tuple[str, ...], players: int, seed: int) -> list[Agent]:
    from rulelang.agents.spec import AgentSpecError, seat_specs

    try:
        specs = seat_specs(kinds, players)
    except AgentSpecError as exc:
        raise click.BadParameter(str(exc), param_hint="--agent") from None
    return [spec.make(seed, seat) for seat, spec in enumerate(specs)]


def echo_err(text: str = "") -> None:
    """Print a line on standard error (the play-by-play, when standard output holds the trace)."""
    click.echo(text, err=True)


def check_players(engine: Engine, n: int) -> None:
    """A player count the game does not take is a usage error (exit 2), as in every command."""
    from rulelang.wording import player_counts_text

    model = engine.model
    if not model.min_players <= n <= model.max_players:
        takes = player_counts_text(model.min_players, model.max_players)
        raise click.BadParameter(f"{model.title} takes {takes}, not {n}",
                                 param_hint="--players")


def seed_or_random(seed: int | None) -> int:
    """The seed to play with: the one given (checked against the generator's range) or a fresh random one."""
    if seed is None:
        return random_seed()
    if not seed_in_range(seed):
        raise click.BadParameter(f"{seed} is not a seed: seeds are whole numbers from {SEED_MIN} to {SEED_MAX}",
                                 param_hint="--seed")
    return seed


def check_output_path(path: str | None, option: str, inputs: list[str | None], engine: Engine | None = None) -> None:
    """Refuse, as a usage error, an output path that is empty, special, a symlink or an input of this command."""
    if path is None:
        return
    named = [p for p in inputs if p]
    if engine is not None:
        named += [f for f, _sha in engine.model.files]
    why = check_output(path, option, named)
    if why is not None:
        raise click.BadParameter(why, param_hint=option)


def write_output(path: str, text: str) -> None:
    """Write an output file atomically; a path that cannot be written is an error, not a traceback."""
    from rulelang.trace.format import write_atomic

    try:
        write_atomic(path, text)
    except OSError as exc:
        fail_with(RulelangError(f"cannot write {path}: {exc.strerror or exc}",
                            hint="check that the directory exists and can be written"))


def read_position(path: str) -> dict[str, Any]:
    """Read a position file: a JSON object (see docs/traces.md); errors exit 1 with the place."""
    try:
        text = decode_text(read_input(path, "position file", MAX_POSITION_BYTES), "position file", path)
    except InputError as exc:
        fail_with(exc)
    register_source(path, text)
    try:
        data = json.loads(text)
    except RecursionError:
        fail_with(RulelangError("the position nests too deeply to read", Span(path, 1, 1, 1, 2),
                            hint="a position is one JSON object: {\"zones\": {...}, \"current\": \"P1\"}"))
    except json.JSONDecodeError as exc:
        fail_with(RulelangError(f"the position is not valid JSON: {exc.msg}",
                            Span(path, exc.lineno, exc.colno, exc.lineno, exc.colno + 1),
                            hint="a position is one JSON object: {\"zones\": {...}, \"current\": \"P1\"}"))
    except ValueError:  # a number of thousands of digits, which Python will not read
        line, col = long_number_place(text)
        fail_with(RulelangError("the position holds a number too long to read", Span(path, line, col, line, col + 1),
                            hint="counts, turns and scores in a position are a few digits each"))
    if not isinstance(data, dict):
        fail_with(RulelangError("a position is a JSON object", Span(path, 1, 1, 1, 2)))
    if json_too_deep(data):
        fail_with(RulelangError("the position nests too deeply to read", Span(path, 1, 1, 1, 2)))
    return data
