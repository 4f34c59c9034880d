"""The command line: ``rulelang run``, ``check`` and ``simulate``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
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
    from rulelang.trace.replay import Verdict

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


def _fail(exc: RulelangError | ErrorList) -> NoReturn:
    click.echo(exc.format(), err=True)
    sys.exit(EXIT_ERROR)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        name, value = pair.split("=", 1)
        options[name.strip()] = value.strip()
    return options


def _load(path: str, options: dict[str, str], budget: int | None = None, stdin: bytes | None = None) -> Engine:
    from rulelang.engine.engine import DEFAULT_BUDGET
    from rulelang.game import load_game

    try:
        return load_game(path, options, budget=DEFAULT_BUDGET if budget is None else budget, stdin=stdin)
    except (RulelangError, ErrorList) as exc:
        _fail(_hint_shipped(exc))


def _hint_shipped(exc: RulelangError | ErrorList) -> RulelangError | ErrorList:
    """A missing rules file named without a directory: hint at the shipped games."""
    if isinstance(exc, RulelangError) and exc.message.startswith("no such file: ") and "/" not in exc.message[14:]:
        exc.hint = "check the path of the .rules file, or give the name of a shipped game ('rulelang games' lists them)"
    return exc


def _rules_file(given: str) -> str:
    """The rules file a command reads for the argument ``given``: that file, else the shipped game of that name."""
    from rulelang.shipped import rules_path

    return rules_path(given)


def _stdin_rules() -> bytes:
    """The rules text on standard input (the argument ``-``), within the size cap of a rules file."""
    from rulelang.safeio import MAX_RULES_BYTES, read_stdin

    if sys.stdin is not None and sys.stdin.isatty():
        click.echo("reading the rules from standard input (end with Ctrl-D)", err=True)
    try:
        return read_stdin("rules file", MAX_RULES_BYTES)
    except InputError as exc:
        _fail(exc)


_STDOUT_PATHS = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")
"""Output paths that mean standard output (``--trace -``)."""


def _make_agents(kinds: tuple[str, ...], players: int, seed: int) -> list[Agent]:
    from rulelang.agents.spec import AgentSpecError, seat_specs

    try:
        specs = seat_specs(kinds, players)
    except AgentSpecError as exc:
        raise click.BadParameter(str(exc), param_hint="--agent") from None
    return [spec.make(seed, seat) for seat, spec in enumerate(specs)]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulelang")
def main() -> None:
    """rulelang: write a tabletop game's rulebook once, then play, simulate and check it."""


@main.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@click.option("--players", "-p", type=WholeNumber(), help="Number of players (default: the game's default).")
@click.option("--seed", "-s", type=WholeNumber(), default=None,
              help="Seed for dice, shuffles and random agents, 0 to 2**64-1 (default: a fresh random seed, "
                   "printed and recorded in the trace).")
@click.option("--agent", "-a", "agent_kinds", multiple=True, metavar="KIND[:NAME=VALUE,...]",
              help="Agent per seat, in seat order (one value: every seat). Default: random. Kinds: random, first, "
                   "human, greedy[:samples=N], mcts[:iters=N,c=X,depth=N] (bounds: docs/simulate.md).")
@click.option("--trace", "trace_path", type=click.Path(dir_okay=False), help="Write a JSON Lines trace here.")
@click.option("--max-steps", type=WholeNumber(1, MAX_STEPS), default=100_000, show_default=True,
              help=f"Stop a game that runs longer (at most {MAX_STEPS:,}).")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="Set a rules option (see 'rulelang check --options').")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
@click.option("--verbose", "-v", is_flag=True, help="Also print every move of a component.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--from", "from_path", type=click.Path(dir_okay=False), metavar="POSITION",
              help="Start from a position file (JSON) instead of the normal setup.")
@click.option("--view", "view", metavar="PLAYER", help="Print only what PLAYER (e.g. P2) sees.")
def run(game_file: str, players: int | None, seed: int | None, agent_kinds: tuple[str, ...], trace_path: str | None,
        max_steps: int, option_pairs: tuple[str, ...], quiet: bool, verbose: bool, as_json: bool,
        from_path: str | None, view: str | None) -> None:
    """Play GAME_FILE once and print a play-by-play and the result.

    GAME_FILE is a .rules file, - (the rules on standard input) or a shipped game's name
    ('rulelang games' lists them). With --trace - the trace goes to standard output and the
    play-by-play to standard error.
    """
    from rulelang.narrate import Narrator, players_text, reading_names, standings_lines
    from rulelang.play import play
    from rulelang.safeio import STDIN_NAME
    from rulelang.shipped import recorded_name
    from rulelang.trace.format import CHANCE_FROM_SEED, dumps_line, header, result_line
    from rulelang.views import redact_narration

    drawn = seed is None
    seed = _seed(seed)
    given, game_file = game_file, _rules_file(game_file)
    to_stdout = trace_path in _STDOUT_PATHS
    if to_stdout and as_json:
        raise click.UsageError("--json and --trace - both write to standard output: write the trace to a file")
    if (to_stdout or game_file == "-") and any(k.strip().lower().startswith("human") for k in agent_kinds):
        raise click.BadParameter("a human player needs the terminal's standard input and output; "
                                 "give the rules and the trace as files", param_hint="--agent")
    if trace_path and not to_stdout and trace_path.startswith(("/dev/", "/proc/")):
        why = check_output(trace_path, "--trace", [])
        if why is not None:
            raise click.BadParameter(f"{why}; --trace - writes the trace to standard output", param_hint="--trace")
    if not to_stdout:
        _check_output(trace_path, "--trace", [game_file, from_path])
    stdin = _stdin_rules() if game_file == "-" else None
    engine = _load(game_file, _parse_options(option_pairs), stdin=stdin)
    if not to_stdout:
        _check_output(trace_path, "--trace", [game_file, from_path], engine)
    say = _echo_err if to_stdout else click.echo
    position = _read_position(from_path) if from_path else None
    if position is not None and players is None and isinstance(position.get("players"), int):
        players = position["players"]
    n = players if players is not None else engine.model.default_players
    talk = not quiet and not as_json
    seat = _seat(view, n) if view is not None else None
    try:
        state = engine.new_state(n, narrate=talk, position=position, setup_seed=seed)
    except RulelangError as exc:
        if "players" in exc.message and "position" not in exc.message:
            raise click.BadParameter(exc.message, param_hint="--players") from None
        if from_path and exc.span is None:
            exc.span = Span(from_path, 1, 1, 1, 2)
        _fail(exc)
    agents = _make_agents(agent_kinds, n, seed)
    from rulelang.agents.human import HumanAgent, display_names

    if any(isinstance(agent, HumanAgent) for agent in agents):
        names = display_names(engine.model, reading_names(engine))
        for agent in agents:
            if isinstance(agent, HumanAgent):
                agent.names = names
    shown = list(agent_kinds) or ["random"]
    agent_names = shown * n if len(shown) == 1 else shown + ["random"] * (n - len(shown))
    recorded = STDIN_NAME if stdin is not None else recorded_name(given, game_file)
    head = header(engine, recorded, n, seed, agent_names, _parse_options(option_pairs),
                  chance=CHANCE_FROM_SEED)  # (play draws every chance outcome from the seed)
    if position is not None:
        head["position"] = {k: v for k, v in position.items() if k != "players"}
        head["from"] = Path(from_path or "").as_posix()
    lines: list[str] = [dumps_line(head)]
    narrator = Narrator(verbose=verbose, names=reading_names(engine))

    def show(narration: list[dict[str, Any]]) -> list[str]:
        if seat is not None or view is not None:
            narration = redact_narration(engine, narration, seat)
        return narrator.lines(narration)

    if drawn and quiet and not as_json:
        click.echo(f"seed {seed} (drawn at random: --seed {seed} plays this game again)", err=True)
    if talk:
        where = f", from {from_path}" if from_path else ""
        seen = f", as {view.upper()} sees it" if view else ""
        say(f"{engine.model.title}: {players_text(n)}, seed {seed}{where}{seen}")
        for e in show(state.log or []):
            say(e)

    def on_event(event: dict[str, Any], narration: list[dict[str, Any]]) -> None:
        lines.append(dumps_line(event))
        if talk:
            for line in show(narration):
                say(line)

    try:
        play(engine, state, agents, seed, max_steps=max_steps, on_event=on_event, narrate=talk,
             digests=trace_path is not None)
    except RulelangError as exc:
        if exc.span is None:
            exc.span = engine.where_span(state)  # the rule being played when it went wrong
        _fail(exc)
    except (KeyboardInterrupt, click.Abort):
        click.echo("\ngame abandoned", err=True)
        sys.exit(EXIT_ERROR)
    assert state.result is not None
    lines.append(dumps_line(result_line(state)))
    if to_stdout:
        click.echo("\n".join(lines) + "\n", nl=False)
    elif trace_path:
        _write(trace_path, "\n".join(lines) + "\n")
    if as_json:
        click.echo(json.dumps({"game": engine.model.title, "players": n, "seed": seed, "steps": state.step,
                               "turns": state.turn, **state.result}, indent=2))
        return
    for line in narrator.flush():
        say(line)
    from rulelang.sim.summary import key_names as ranking_key_names

    key_names = ranking_key_names(engine)
    for line in standings_lines(state.result, key_names):
        say(line)
    if trace_path and not quiet and not to_stdout:
        click.echo(f"trace written to {trace_path}")


def _echo_err(text: str = "") -> None:
    """Print a line on standard error (the play-by-play, when standard output holds the trace)."""
    click.echo(text, err=True)


def _check_players(engine: Engine, n: int) -> None:
    """A player count the game does not take is a usage error (exit 2), as in every command."""
    from rulelang.narrate import player_counts_text

    model = engine.model
    if not model.min_players <= n <= model.max_players:
        takes = player_counts_text(model.min_players, model.max_players)
        raise click.BadParameter(f"{model.title} takes {takes}, not {n}",
                                 param_hint="--players")


def _seed(seed: int | None) -> int:
    """The seed to play with: the one given (checked against the generator's range) or a fresh random one."""
    if seed is None:
        return random_seed()
    if not seed_in_range(seed):
        raise click.BadParameter(f"{seed} is not a seed: seeds are whole numbers from {SEED_MIN} to {SEED_MAX}",
                                 param_hint="--seed")
    return seed


def _check_output(path: str | None, option: str, inputs: list[str | None], engine: Engine | None = None) -> None:
    """Refuse, as a usage error, an output path that is empty, special, a symlink or an input of this command."""
    if path is None:
        return
    named = [p for p in inputs if p]
    if engine is not None:
        named += [f for f, _sha in engine.model.files]
    why = check_output(path, option, named)
    if why is not None:
        raise click.BadParameter(why, param_hint=option)


def _write(path: str, text: str) -> None:
    """Write an output file atomically; a path that cannot be written is an error, not a traceback."""
    from rulelang.trace.format import write_atomic

    try:
        write_atomic(path, text)
    except OSError as exc:
        _fail(RulelangError(f"cannot write {path}: {exc.strerror or exc}",
                            hint="check that the directory exists and can be written"))


def _read_position(path: str) -> dict[str, Any]:
    """Read a position file: a JSON object (see docs/traces.md); errors exit 1 with the place."""
    try:
        text = decode_text(read_input(path, "position file", MAX_POSITION_BYTES), "position file", path)
    except InputError as exc:
        _fail(exc)
    register_source(path, text)
    try:
        data = json.loads(text)
    except RecursionError:
        _fail(RulelangError("the position nests too deeply to read", Span(path, 1, 1, 1, 2),
                            hint="a position is one JSON object: {\"zones\": {...}, \"current\": \"P1\"}"))
    except json.JSONDecodeError as exc:
        _fail(RulelangError(f"the position is not valid JSON: {exc.msg}",
                            Span(path, exc.lineno, exc.colno, exc.lineno, exc.colno + 1),
                            hint="a position is one JSON object: {\"zones\": {...}, \"current\": \"P1\"}"))
    except ValueError:  # a number of thousands of digits, which Python will not read
        line, col = long_number_place(text)
        _fail(RulelangError("the position holds a number too long to read", Span(path, line, col, line, col + 1),
                            hint="counts, turns and scores in a position are a few digits each"))
    if not isinstance(data, dict):
        _fail(RulelangError("a position is a JSON object", Span(path, 1, 1, 1, 2)))
    if json_too_deep(data):
        _fail(RulelangError("the position nests too deeply to read", Span(path, 1, 1, 1, 2)))
    return data


@main.command()
@click.argument("game_files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set a rules option.")
@click.option("--options", "list_options", is_flag=True, help="List each game's options.")
@click.option("--deep", is_flag=True, help="Also play random games at every player count to find run-time errors.")
@click.option("--games", "-n", "deep_games", type=WholeNumber(1, 10_000), default=20, show_default=True,
              help="With --deep: games per player count.")
def check(game_files: tuple[str, ...], option_pairs: tuple[str, ...], list_options: bool, deep: bool,
          deep_games: int) -> None:
    """Parse and check GAME_FILES; print 'ok' or compiler-style errors.

    A GAME_FILE is a .rules file, - (the rules on standard input) or a shipped game's name.
    """
    from rulelang.game import load_game
    from rulelang.narrate import player_counts_text
    from rulelang.safeio import STDIN_NAME

    if game_files.count("-") > 1:
        raise click.BadParameter("standard input (-) can be read once", param_hint="GAME_FILES")
    failed = False
    for path in game_files:
        try:
            stdin = _stdin_rules() if path == "-" else None
            engine = load_game(_rules_file(path), _parse_options(option_pairs), stdin=stdin)
            path = STDIN_NAME if stdin is not None else path
        except (RulelangError, ErrorList) as exc:
            click.echo(_hint_shipped(exc).format(), err=True)
            failed = True
            continue
        model = engine.model
        deep_note = ""
        if deep:
            from rulelang.deep_check import deep_check

            notes: list[str] = []
            played, error = deep_check(engine, deep_games, warnings=notes)
            if error is not None:
                click.echo(error.format(), err=True)
                failed = True
                continue
            for note in notes:
                click.echo(f"warning: {path}: {note}", err=True)
            deep_note = f"; {played} random games played without a run-time error"
        many = player_counts_text(model.min_players, model.max_players, "-")
        click.echo(f"{path}: ok ({model.title}; {many}, "
                   f"{len(engine.program.kind_of)} components, {len(model.rules)} rules{deep_note})")
        if list_options:
            for opt in model.options.values():
                click.echo(f"  option {opt.name} = {json.dumps(opt.value)}" + (f"  # {opt.doc}" if opt.doc else ""))
    sys.exit(EXIT_ERROR if failed else EXIT_OK)


@main.command("compile")
@click.argument("game_file", type=click.Path(dir_okay=False))
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set a rules option.")
@click.option("--emit-python", is_flag=True, help="Print the Python source generated for the rules.")
def compile_command(game_file: str, option_pairs: tuple[str, ...], emit_python: bool) -> None:
    """Compile GAME_FILE; print a summary, or with --emit-python the generated Python source."""
    from rulelang.compile.codegen import listing

    engine = _load(_rules_file(game_file), _parse_options(option_pairs))
    program = engine.program
    if emit_python:
        click.echo(listing(program), nl=False)
        return
    blocks = sum(1 for rule in program.code for ins in rule if isinstance(ins[1], str))
    fallbacks = ", ".join(f"{k} x{n}" for k, n in sorted(program.fallbacks.items())) or "none"
    frames = sum(1 for rule in program.code if rule) - 1  # the driver (setup, then turns) is not a rule
    click.echo(f"{game_file}: compiled ({frames} rules run as frames, the others inlined; {blocks} generated blocks, "
               f"{len(program.generated.source.splitlines())} lines of Python; fallbacks: {fallbacks})")


def _sim_options(f: Any, many_players: bool = False) -> Any:
    """The options simulate, compare and sweep share (sweep takes several player counts)."""
    from rulelang.agents.bounds import MAX_C, MAX_DEPTH, MAX_ITERS, MAX_SAMPLES

    for opt in reversed([
        click.option("--games", "-n", type=WholeNumber(), default=1000, show_default=True,
                     help=f"How many games to play (1 to {MAX_GAMES:,})."),
        click.option("--players", "-p", "player_texts", multiple=True, metavar="P[,P...|A..B]",
                     help="Player counts, one point of the sweep each (default: the game's default).")
        if many_players else
        click.option("--players", "-p", type=WholeNumber(), help="Number of players (default: the game's default)."),
        click.option("--seed", "-s", type=WholeNumber(), default=1, show_default=True,
                     help="Seed of the first game; game i uses seed+i (dice, shuffles and agents), so seed+games-1 "
                          "is at most 2**64-1."),
        click.option("--agent", "-a", "agent_texts", multiple=True, metavar="KIND[:NAME=VALUE,...]",
                     help="Agent per seat, in seat order (one value: every seat; missing seats: random). "
                          "Kinds: random, first, greedy[:samples=N], mcts[:iters=N,c=X,depth=N] "
                          f"(at most samples={MAX_SAMPLES}, iters={MAX_ITERS}, c={MAX_C:g}, depth={MAX_DEPTH})."),
        click.option("--jobs", "-j", type=WholeNumber(), help=f"Processes that play, this one included (default: "
                                                            f"every core; at most {MAX_JOBS}); with Ray: CPUs of "
                                                            "the local Ray it starts."),
        click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                     help="Where games run: local processes, or a Ray cluster (pip install 'rulelang[ray]')."),
        click.option("--address", metavar="HOST:PORT", help="With --backend ray: the cluster's address "
                                                            "(default: $RAY_ADDRESS if set, else start a local "
                                                            "Ray)."),
        click.option("--batch-size", type=WholeNumber(), help=f"Games per chunk or Ray task (default: sized to the "
                                                            f"run; at most {MAX_BATCH:,})."),
        click.option("--max-steps", type=WholeNumber(1, MAX_STEPS), default=100_000, show_default=True,
                     help=f"Stop a game that runs longer (at most {MAX_STEPS:,})."),
        click.option("--json", "as_json", is_flag=True, help="Print every statistic as JSON."),
        click.option("--csv", "as_csv", is_flag=True, help="Print every statistic as CSV."),
        click.option("--report", "report_path", type=click.Path(dir_okay=False),
                     help="Write a self-contained HTML report with plots here (pip install 'rulelang[report]')."),
        click.option("--quiet", "-q", is_flag=True, help="No progress on stderr."),
    ]):
        f = opt(f)
    return f


def _sim_job(path: str, options: dict[str, str], players: int | None, agent_texts: tuple[str, ...], seed: int,
             max_steps: int, coverage: bool = False, games: int = 1) -> tuple[Engine, Any]:
    from rulelang.agents.spec import AgentSpecError, seat_specs
    from rulelang.sim.runner import SimJob

    if path == "-":
        raise click.BadParameter("the rules on standard input (-) are for run, check and fmt: give a .rules file",
                                 param_hint="GAME_FILE")
    path = _rules_file(path)
    engine = _load(path, options)
    n = players if players is not None else engine.model.default_players
    _check_players(engine, n)
    _check_seeds(seed, games)
    if any(t.strip().lower().startswith("human") for t in agent_texts):
        raise click.BadParameter("a human cannot sit through a simulation; use 'rulelang run'", param_hint="--agent")
    try:
        specs = seat_specs(agent_texts, n)
    except AgentSpecError as exc:
        raise click.BadParameter(str(exc), param_hint="--agent") from None
    job = SimJob(path, tuple(sorted(options.items())), n, tuple(specs), seed=seed, max_steps=max_steps,
                 coverage=coverage)
    return engine, job


def _check_seeds(seed: int, games: int) -> None:
    """Game i of a run plays seed+i: every seed of the run must be one the generator takes as it is (no wrapping)."""
    if not seed_in_range(seed):
        raise click.BadParameter(f"{seed} is not a seed: seeds are whole numbers from {SEED_MIN} to {SEED_MAX}",
                                 param_hint="--seed")
    if not seed_in_range(seed + games - 1):
        raise click.BadParameter(f"{games} games from seed {seed} would need seeds up to {seed + games - 1}, past the "
                                 f"last seed {SEED_MAX} (2**64-1): game i plays seed+i, so the seed can be at most "
                                 f"{SEED_MAX - games + 1} for {games} games", param_hint="--seed")


def _at_most(value: int | None, lo: int, hi: int, hint: str) -> None:
    """A numeric option outside ``[lo, hi]`` is a usage error naming the bound."""
    if value is None:
        return
    if value < lo:
        raise click.BadParameter(f"must be at least {lo}", param_hint=hint)
    if value > hi:
        raise click.BadParameter(f"must be at most {hi:,}, not {value:,} (the bound of {hint}; docs/simulate.md)",
                                 param_hint=hint)


def _check_sim_args(games: int, jobs: int | None, batch_size: int | None, as_json: bool, as_csv: bool,
                    backend: str, address: str | None, seed: int = 1) -> int:
    _at_most(games, 1, MAX_GAMES, "--games")
    _at_most(jobs, 1, MAX_JOBS, "--jobs")
    _at_most(batch_size, 1, MAX_BATCH, "--batch-size")
    _check_seeds(seed, games)
    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    if address and backend != "ray":
        raise click.BadParameter("--address is for --backend ray", param_hint="--address")
    from rulelang.sim.runner import default_jobs

    return jobs if jobs is not None else default_jobs()


def _run_sim(job: Any, games: int, jobs: int, backend: str, address: str | None, batch_size: int | None,
             show_progress: bool, label: str = "playing", where: str | None = None,
             ) -> tuple[list[Any], list[int] | None]:
    from rulelang.sim.driver import Progress, SimError, simulate
    from rulelang.sim.ray_backend import RayFailure, RayUnavailable
    from rulelang.sim.runner import CoverageUnavailable

    progress = Progress(games, label) if show_progress else None
    try:
        return simulate(job, games, jobs=jobs, backend=backend, address=address, batch_size=batch_size,
                        on_batch=progress)
    except SimError as exc:
        if progress:
            progress.close()
        if where:
            click.echo(f"at {where}:", err=True)
        click.echo(str(exc), err=True)
        sys.exit(EXIT_ERROR)
    except (CoverageUnavailable, RayUnavailable, RayFailure) as exc:
        if progress:
            progress.close()
        click.echo(f"error: {exc}", err=True)
        if isinstance(exc, RayFailure):
            click.echo(f"  hint: {exc.hint}", err=True)
        sys.exit(EXIT_ERROR)
    finally:
        if progress:
            progress.close()


def _write_report(path: str, make: Any) -> None:
    from rulelang.sim.report import ReportUnavailable

    try:
        text = make()
    except ReportUnavailable as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    _write(path, text)


def _skill_spec(text: str | None, games: int, seed: int) -> Any:
    """The agent of ``--skill`` (None without it); a bad one is a usage error."""
    from rulelang.agents.spec import AgentSpecError, parse_agent

    _at_most(games, 1, MAX_GAMES, "--skill-games")
    if text is None:
        return None
    _check_seeds(seed, games)
    if text.strip().lower().startswith("human"):
        raise click.BadParameter("a human cannot sit through a simulation; use 'rulelang run'", param_hint="--skill")
    try:
        return parse_agent(text)
    except AgentSpecError as exc:
        raise click.BadParameter(str(exc), param_hint="--skill") from None


def _metrics_of(stats: dict[str, Any], job: Any, records: list[Any], skill: Any, skill_games: int, workers: int,
                backend: str, address: str | None, batch_size: int | None, show: bool) -> dict[str, Any]:
    """The run's metrics, with restricted play's runs played here when ``skill`` is given."""
    from rulelang.sim import metrics

    out = metrics.compute(stats, records, stats.get("coverage"))
    if skill is not None:
        runs = []
        for i, sj in enumerate(metrics.skill_jobs(job, skill)):
            label = "skill: all random" if i == 0 else f"skill: {skill} as P{i}"
            runs.append(_run_sim(sj, skill_games, workers, backend, address, batch_size, show, label)[0])
        out["skill"] = metrics.skill_json(skill, runs)
    return out


@main.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@_sim_options
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set a rules option.")
@click.option("--coverage", is_flag=True, help="Count how often each rule, option, branch and trigger fired.")
@click.option("--metrics", "-m", "with_metrics", is_flag=True,
              help="Balance metrics: lead changes, drama, decisiveness, branching, draws (docs/simulate.md).")
@click.option("--skill", "skill_text", metavar="KIND[:NAME=VALUE,...]",
              help="Restricted play (implies --metrics): this agent in one seat, random in the others, each seat.")
@click.option("--skill-games", type=WholeNumber(), default=100, show_default=True,
              help=f"Games per seat for --skill, and for its all-random baseline (1 to {MAX_GAMES:,}).")
def simulate(game_file: str, games: int, players: int | None, seed: int, agent_texts: tuple[str, ...],
             jobs: int | None, backend: str, address: str | None, batch_size: int | None, max_steps: int,
             as_json: bool, as_csv: bool, report_path: str | None, quiet: bool, option_pairs: tuple[str, ...],
             coverage: bool, with_metrics: bool = False, skill_text: str | None = None,
             skill_games: int = 100) -> None:
    """Play many games and print win rates (95% intervals), scores, game length and first-player advantage.

    Game i is played with seed SEED+i, so the statistics are the same for any --jobs
    and back end. Progress goes to stderr (not with --json, --csv or -q).
    """
    from rulelang.sim import coverage as cov
    from rulelang.sim.summary import csv_rows, render_text, summarize, to_csv

    workers = _check_sim_args(games, jobs, batch_size, as_json, as_csv, backend, address, seed)
    _check_output(report_path, "--report", [game_file])
    skill = _skill_spec(skill_text, skill_games, seed)
    engine, job = _sim_job(game_file, _parse_options(option_pairs), players, agent_texts, seed, max_steps, coverage,
                           games)
    if with_metrics or skill is not None:
        import attrs

        job = attrs.evolve(job, metrics=True)
    _check_output(report_path, "--report", [game_file], engine)  # not over the rules (it overwrote them) or a FIFO
    started = time.perf_counter()
    show = not (quiet or as_json or as_csv)
    records, counts = _run_sim(job, games, workers, backend, address, batch_size, show_progress=show)
    elapsed = time.perf_counter() - started
    stats = summarize(engine, job, records)
    rows = None
    if coverage:
        assert counts is not None
        rows = cov.coverage_rows(engine.program.constructs, counts, games)  # type: ignore[attr-defined]
        stats["coverage"] = cov.to_json(rows)
    if job.metrics:
        stats["metrics"] = _metrics_of(stats, job, records, skill, skill_games, workers, backend, address,
                                       batch_size, show)
    if report_path:
        from rulelang.sim.report import simulation_report

        _write_report(report_path, lambda: simulation_report(stats, records, rows))
    if as_json:
        click.echo(json.dumps({**stats, "timing": {"seconds": round(elapsed, 3),
                                                   "games_per_second": round(games / elapsed, 1)}}, indent=2))
        return
    if as_csv:
        table = csv_rows(stats)
        if "metrics" in stats:
            from rulelang.sim import metrics

            table += metrics.csv_rows(stats["metrics"])
        if rows is not None:  # one table: a construct's count is n, its count per game the mean
            table += [["coverage", f"{r.where} {cov.KIND_WORDS.get(r.kind, r.kind)} {r.name}", "", r.count, r.per_game,
                       "", "", "", "", ""] for r in rows]
        click.echo(to_csv(table), nl=False)
        return
    for line in render_text(stats):
        click.echo(line)
    if "metrics" in stats:
        from rulelang.sim import metrics

        click.echo("")
        for line in metrics.render_text(stats["metrics"]):
            click.echo(line)
    if rows is not None:
        click.echo("")
        for line in cov.render_text(rows, games):
            click.echo(line)
    click.echo(f"\n{games / elapsed:.1f} games/s on {workers if backend == 'local' else 'Ray'} "
               f"{'worker' if workers == 1 and backend == 'local' else 'workers'}")
    if report_path:
        click.echo(f"report written to {report_path}")


@main.command()
@click.argument("base_file", type=click.Path(dir_okay=False))
@click.argument("variant_file", type=click.Path(dir_okay=False), required=False)
@_sim_options
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="Set a rules option of B (the variant).")
@click.option("--base-option", "-O", "base_pairs", multiple=True, metavar="NAME=VALUE",
              help="Set a rules option of A (the base).")
@click.option("--metrics", "-m", "with_metrics", is_flag=True,
              help="Compare the balance metrics too: lead changes, drama, decisiveness, branching, draws.")
def compare(base_file: str, variant_file: str | None, games: int, players: int | None, seed: int,
            agent_texts: tuple[str, ...], jobs: int | None, backend: str, address: str | None,
            batch_size: int | None, max_steps: int, as_json: bool, as_csv: bool, report_path: str | None,
            quiet: bool, option_pairs: tuple[str, ...], base_pairs: tuple[str, ...],
            with_metrics: bool = False) -> None:
    """Play the same seeds with the same agents on A and B, and say which statistics differ.

    A is BASE_FILE (with -O options), B is VARIANT_FILE or BASE_FILE again (with -o
    options): `rulelang compare GAME.rules -o NAME=VALUE`. Game i of
    A and of B share a seed, so each difference B - A is the mean of the games'
    differences, with its 95% interval; significant ones get a sentence.
    """
    from rulelang.sim.compare import compare_runs, csv_rows, render_text
    from rulelang.sim.summary import summarize, to_csv

    workers = _check_sim_args(games, jobs, batch_size, as_json, as_csv, backend, address, seed)
    a_opts, b_opts = _parse_options(base_pairs), _parse_options(option_pairs)
    b_file = variant_file or base_file
    _check_output(report_path, "--report", [base_file, b_file])
    if b_file == base_file and a_opts == b_opts:
        raise click.UsageError("A and B are the same rules: give a second file, or options for B with -o")
    engine_a, job_a = _sim_job(base_file, a_opts, players, agent_texts, seed, max_steps, games=games)
    engine_b, job_b = _sim_job(b_file, b_opts, players if players is not None else job_a.players, agent_texts, seed,
                               max_steps, games=games)
    if job_a.players != job_b.players:
        raise click.BadParameter("A and B must be played by the same number of players", param_hint="--players")
    _check_output(report_path, "--report", [base_file, b_file], engine_a)
    _check_output(report_path, "--report", [base_file, b_file], engine_b)
    show = not (quiet or as_json or as_csv)
    if with_metrics:
        import attrs

        job_a, job_b = attrs.evolve(job_a, metrics=True), attrs.evolve(job_b, metrics=True)
    records_a, _ = _run_sim(job_a, games, workers, backend, address, batch_size, show, "playing A")
    records_b, _ = _run_sim(job_b, games, workers, backend, address, batch_size, show, "playing B")
    sa, sb = summarize(engine_a, job_a, records_a), summarize(engine_b, job_b, records_b)
    if with_metrics:
        from rulelang.sim import metrics

        sa["metrics"], sb["metrics"] = metrics.compute(sa, records_a), metrics.compute(sb, records_b)
    rows = compare_runs(sa, sb, records_a, records_b)

    def name(path: str, opts: dict[str, str]) -> str:
        return path + "".join(f" -o {k}={v}" for k, v in opts.items())

    a_name, b_name = name(base_file, a_opts), name(b_file, b_opts)
    if report_path:
        from rulelang.sim.report import comparison_report

        _write_report(report_path, lambda: comparison_report(sa, sb, rows, a_name, b_name, records_a, records_b))
    if as_json:
        click.echo(json.dumps({"a": {"name": a_name, **sa}, "b": {"name": b_name, **sb}, "differences": rows},
                              indent=2))
        return
    if as_csv:
        click.echo(to_csv(csv_rows(rows)), nl=False)
        return
    for line in render_text(sa, sb, rows, a_name, b_name):
        click.echo(line)
    if report_path:
        click.echo(f"report written to {report_path}")


@main.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@lambda f: _sim_options(f, many_players=True)
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=V1,V2,...|NAME=A..B",
              help="An option and the values to play it at (whole-number ranges A..B too); one value: fixed.")
@click.option("--skill", "skill_text", metavar="KIND[:NAME=VALUE,...]",
              help="Restricted play at each value: this agent in one seat, random in the others.")
@click.option("--skill-games", type=WholeNumber(), default=100, show_default=True,
              help=f"Games per seat for --skill (1 to {MAX_GAMES:,}).")
def sweep(game_file: str, games: int, player_texts: tuple[str, ...], seed: int, agent_texts: tuple[str, ...],
          jobs: int | None, backend: str, address: str | None, batch_size: int | None, max_steps: int, as_json: bool,
          as_csv: bool, report_path: str | None, quiet: bool, option_pairs: tuple[str, ...], skill_text: str | None,
          skill_games: int) -> None:
    """Play the same seeds and agents at each value of an option (or player count) and tabulate every statistic.

    `rulelang sweep GAME.rules -o NAME=3,4,5` (or `-o NAME=3..5`, or `-p 2..5`): win rates,
    scores, length and the balance metrics at each value with 95% intervals, and the value
    closest to fair. Progress goes to stderr (not with --json, --csv or -q).
    """
    import attrs

    from rulelang.sim import sweep as sw
    from rulelang.sim.summary import summarize, to_csv

    workers = _check_sim_args(games, jobs, batch_size, as_json, as_csv, backend, address, seed)
    skill = _skill_spec(skill_text, skill_games, seed)
    swept: dict[str, list[str]] = {}
    fixed: dict[str, str] = {}
    hint = "--option"
    try:
        for name, text in _parse_options(option_pairs).items():
            values = sw.values_of(text)
            if len(values) > 1:
                swept[name] = values
            else:
                fixed[name] = values[0]
        hint = "--players"
        counts = [_player_count(v) for t in player_texts for v in sw.values_of(t)]
        if len(set(counts)) != len(counts):
            raise sw.SweepError("a player count is named twice")
        hint = "--option/--players"
        pts = sw.points(swept, fixed, counts or None)
    except sw.SweepError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None
    if len(pts) < 2:
        raise click.UsageError("nothing to sweep: give an option several values (-o NAME=V1,V2 or NAME=A..B) or "
                               "several player counts (-p 2,3)")
    _check_output(report_path, "--report", [game_file])
    loaded = []
    for pt in pts:  # every value is checked before any game is played
        engine, job = _sim_job(game_file, dict(pt.options), pt.players, agent_texts, seed, max_steps, games=games)
        _check_output(report_path, "--report", [game_file], engine)
        loaded.append((engine, attrs.evolve(job, metrics=True)))
    labels = [pt.label for pt in pts]
    show = not (quiet or as_json or as_csv)
    summaries, all_records = [], []
    for i, ((engine, job), label) in enumerate(zip(loaded, labels), 1):
        records, _ = _run_sim(job, games, workers, backend, address, batch_size, show, f"{label} ({i}/{len(pts)})",
                              where=label)
        stats = summarize(engine, job, records)
        stats["metrics"] = _metrics_of(stats, job, records, skill, skill_games, workers, backend, address,
                                       batch_size, show)
        summaries.append(stats)
        all_records.append(records)
    rows = sw.table(summaries)
    verdict = sw.verdict(labels, summaries)
    title = f"{summaries[0]['game']} ({game_file})"
    if report_path:
        from rulelang.sim.report import sweep_report

        _write_report(report_path, lambda: sweep_report(title, labels, rows, verdict))
    if as_json:
        click.echo(json.dumps({"game": summaries[0]["game"], "file": game_file, "swept": list(swept),
                               "players": counts, "games": games, "seed": seed, "rows": rows, "verdict": verdict,
                               "points": [{"label": label, "options": dict(pt.options), "players": s["players"],
                                           "summary": s} for label, pt, s in zip(labels, pts, summaries)]},
                              indent=2))
        return
    if as_csv:
        click.echo(to_csv(sw.csv_rows(labels, rows)), nl=False)
        return
    for line in sw.render_text(title, labels, games, seed, rows, verdict):
        click.echo(line)
    if report_path:
        click.echo(f"report written to {report_path}")


def _player_count(text: str) -> int:
    """A player count of ``sweep -p``: a whole number from 1 to 1,000."""
    from rulelang.sim.sweep import SweepError

    try:
        n = ascii_whole(text)
    except ValueError as exc:
        raise SweepError(str(exc)) from None
    if not 1 <= n <= 1000:
        raise SweepError(f"{n} is not a player count (1 to 1,000)")
    return n


@main.command("games")
def games_command() -> None:
    """List the games that ship with rulelang: each plays by its name, as in 'rulelang run NAME'."""
    from rulelang.shipped import describe, games_dir, shipped_games

    found = [describe(p) for p in shipped_games()]
    if not found:
        click.echo("error: no shipped games found (the package has no games/ directory)", err=True)
        sys.exit(EXIT_ERROR)
    width = max(len(g.name) for g in found)
    for g in found:
        if g.min_players is None:
            players = "players: see the file"
        elif g.min_players == g.max_players:
            players = f"{g.min_players} players"
        else:
            players = f"{g.min_players} to {g.max_players} players"
        variant = f" (a variant of {g.extends[:-len('.rules')] if g.extends.endswith('.rules') else g.extends})" \
            if g.extends else ""
        click.echo(f"{g.name:<{width}}  {g.title}, {players}{variant}")
    click.echo(f"\nrulelang run NAME plays one (a file of that name here comes first); the files are in {games_dir()}")


class _nullbar:
    def __init__(self, it: Any) -> None:
        self.it = it

    def __enter__(self) -> Any:
        return self.it

    def __exit__(self, *exc: Any) -> None:
        return None


def _seat(view: str | None, players: int) -> int | None:
    if view is None or view.lower() == "spectator":
        return None
    labels = [f"P{p + 1}" for p in range(players)]
    if view.upper() not in labels:
        raise click.BadParameter(f"{view!r} is not a player of this game ({', '.join(labels)} or spectator)",
                                 param_hint="--view")
    return labels.index(view.upper())


# ------------------------------------------------------------------ editor support: fmt and lsp


@main.command("fmt")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--check", "check_only", is_flag=True, help="Write nothing; list the files that would change (exit 1).")
@click.option("--diff", "show_diff", is_flag=True, help="Write nothing; print what would change as a unified diff.")
def fmt_command(files: tuple[str, ...], check_only: bool, show_diff: bool) -> None:
    """Rewrite FILES in the canonical layout: indentation, spacing, blank lines.

    Comments are kept and the meaning is checked unchanged before a file is written.
    With - (alone) the rules are read from standard input and written, formatted, to standard output.
    """
    import difflib

    from rulelang.fmt.files import format_path, write_outcome

    check_only = check_only or show_diff
    if "-" in files:
        _fmt_stdin(files, check_only, show_diff)

    failed = would_change = False
    for path in files:
        try:
            outcome = format_path(path)
            if outcome.changed and not check_only:
                write_outcome(outcome)
        except RulelangError as exc:
            click.echo(exc.format(), err=True)
            click.echo(f"{path}: left unchanged", err=True)
            failed = True
            continue
        except OSError as exc:
            click.echo(f"error: cannot write {path}: {exc.strerror or exc}", err=True)
            failed = True
            continue
        if outcome.changed:
            would_change = True
            click.echo(f"would reformat {path}" if check_only else f"reformatted {path}")
            if show_diff:
                click.echo("".join(difflib.unified_diff(outcome.old.splitlines(keepends=True),
                                                        outcome.new.splitlines(keepends=True),
                                                        f"{path} (now)", f"{path} (formatted)")), nl=False)
    sys.exit(EXIT_ERROR if failed or (check_only and would_change) else EXIT_OK)


def _fmt_stdin(files: tuple[str, ...], check_only: bool, show_diff: bool) -> NoReturn:
    """``rulelang fmt -``: the rules on standard input, formatted to standard output (or only checked)."""
    import difflib

    from rulelang.fmt.files import format_data
    from rulelang.safeio import STDIN_NAME

    if files != ("-",):
        raise click.BadParameter("standard input (-) is formatted alone: give - or files", param_hint="FILES")
    data = _stdin_rules()
    try:
        outcome = format_data(data, STDIN_NAME)
    except RulelangError as exc:
        click.echo(exc.format(), err=True)
        sys.exit(EXIT_ERROR)
    if not check_only:
        click.echo(outcome.new, nl=False)
        sys.exit(EXIT_OK)
    if outcome.changed:
        click.echo(f"would reformat {STDIN_NAME}")
        if show_diff:
            click.echo("".join(difflib.unified_diff(outcome.old.splitlines(keepends=True),
                                                    outcome.new.splitlines(keepends=True),
                                                    f"{STDIN_NAME} (now)", f"{STDIN_NAME} (formatted)")), nl=False)
    sys.exit(EXIT_ERROR if outcome.changed else EXIT_OK)


@main.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the default; for editors that ask).")
def lsp_command(stdio: bool) -> None:
    """Run the language server on standard input and output (for editors; needs rulelang[lsp])."""
    try:
        from rulelang.lsp.server import serve
    except ImportError as exc:
        click.echo(f"error: the language server needs pygls ({exc.name} is missing)", err=True)
        click.echo("  hint: pip install 'rulelang[lsp]'", err=True)
        sys.exit(EXIT_ERROR)
    if sys.stdin.isatty():
        click.echo("rulelang lsp speaks the Language Server Protocol on standard input and output: an editor "
                   "starts it (see docs/editor.md). Ctrl-C stops it.", err=True)
    try:
        serve()
    except KeyboardInterrupt:
        sys.exit(EXIT_OK)


def _print_verdict(v: Verdict) -> None:
    for w in v.warnings:
        click.echo(f"warning: {w}", err=True)
    if v.status == "compliant":
        result = v.result or {}
        standings = ", ".join(f"{r['player']} {'/'.join(map(str, r['keys']))}" for r in result.get("standings", []))
        winners = result.get("winners", [])
        who = f"winner {winners[0]}" if len(winners) == 1 else "winners (tied) " + ", ".join(winners) \
            if winners else "no winner"
        if result.get("outcome") in ("won", "lost", "drawn"):  # one player, with a declared payoff
            who = f"{result['standings'][0]['player']} {result['outcome']}"
        if isinstance(result.get("payoffs"), list):
            standings += "; payoffs " + ", ".join(f"P{p + 1} {v}" for p, v in enumerate(result["payoffs"]))
        click.echo(f"compliant: {v.steps} steps, every event keeps the rules")
        click.echo(f"  result: {who} ({standings})")
        return
    if v.status == "malformed":
        click.echo("malformed trace:", err=True)
        click.echo(v.message, err=True)
        return
    if v.status == "incomplete":
        click.echo(f"incomplete: {v.message}", err=True)
        click.echo(f"  after {v.steps} steps", err=True)
        if v.legal:
            click.echo("  legal now: " + ", ".join(json.dumps(x) for x in v.legal), err=True)
        return
    event = v.event or {}
    where = f" (trace line {v.line})" if v.line else ""
    if event.get("type") == "action":
        what = f"{event.get('player')} plays {json.dumps(event.get('action'))}"
    elif event.get("type") == "chance":
        what = "chance gives " + json.dumps(event.get("outcome"))
    else:
        what = v.message
    at = f" at step {v.step}" if v.step is not None else ""
    click.echo(f"violation{at}{where}: {what}", err=True)
    if v.reason:
        click.echo(f"  why: {v.reason}", err=True)
    if v.parted and what != v.message:  # (a message that says it already)
        click.echo(f"  before that, {v.parted['text']}", err=True)
    if v.rule:
        from rulelang.syntax.span import source_line

        click.echo(f"  rule: {v.rule}", err=True)
        file, line, col = v.rule.rsplit(":", 2)
        text = source_line(file, int(line))
        if text is not None:
            click.echo(f"      {text.rstrip()}", err=True)
            click.echo("      " + " " * (int(col) - 1) + "^", err=True)
    if v.legal is not None:
        more = f" (and {v.legal_total - len(v.legal)} more)" if v.legal_total and v.legal_total > len(v.legal) else ""
        shown = ", ".join(json.dumps(x) for x in v.legal) or "(none)"
        click.echo(f"  legal at that point: {shown}{more}", err=True)


@main.command()
@click.argument("trace_file", type=click.Path(dir_okay=False))
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False),
              help="Check against this .rules file instead of the one named in the trace.")
@click.option("--allow-incomplete", is_flag=True, help="Exit 0 when the trace stops before the game ends.")
@click.option("--view", "view", metavar="PLAYER", help="Print the game as PLAYER (e.g. P2) saw it.")
@click.option("--redacted", "redacted_path", type=click.Path(dir_okay=False),
              help="With --view: write the trace as that player saw it here.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="Write a page to step through the game in a browser here (with --view: as that player saw it).")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
@click.option("--verbose", "-v", is_flag=True, help="With --view: also print every move of a component.")
def replay(trace_file: str, rules_file: str | None, allow_incomplete: bool, view: str | None,
           redacted_path: str | None, html_path: str | None, as_json: bool, verbose: bool) -> None:
    """Re-run TRACE_FILE and say whether every move kept the rules.

    Verdicts: compliant (exit 0), violation, incomplete or malformed (exit 1).
    """
    from rulelang.narrate import Narrator, reading_names
    from rulelang.trace.format import dumps_line
    from rulelang.trace.replay import Replayer, TraceError, Verdict, load_for_trace, read_trace, redacted_header
    from rulelang.views import redact_narration

    if redacted_path is not None and view is None:
        raise click.BadParameter("--redacted needs --view PLAYER", param_hint="--redacted")
    if rules_file is not None:
        rules_file = _rules_file(rules_file)
    _check_output(redacted_path, "--redacted", [trace_file, rules_file])
    _check_output(html_path, "--html", [trace_file, rules_file, redacted_path])
    try:
        trace = read_trace(trace_file)
        engine, warnings = load_for_trace(trace, rules_file)
    except TraceError as exc:
        verdict = Verdict("malformed", exc.format(), line=exc.span.line if exc.span else None)
        _no_page(html_path, "the trace cannot be read")
        _finish_replay(verdict, as_json, allow_incomplete)
        return
    except (RulelangError, ErrorList) as exc:
        verdict = Verdict("malformed", "the game file does not load:\n" + exc.format())
        _no_page(html_path, "the game file does not load")
        _finish_replay(verdict, as_json, allow_incomplete)
        return
    _check_output(redacted_path, "--redacted", [trace_file, rules_file], engine)
    _check_output(html_path, "--html", [trace_file, rules_file, redacted_path], engine)
    players = trace.header.get("players") if isinstance(trace.header.get("players"), int) else 0
    if not engine.model.min_players <= players <= engine.model.max_players:
        players = 0  # the replay says what is wrong with the header; no seat to look from
    seat = _seat(view, players) if view is not None else None
    replayer = Replayer(engine, trace, view=seat, redact=redacted_path is not None)
    if html_path is not None:
        from rulelang.trace.viewer import record_frames, viewer_page

        frames = record_frames(replayer, seat, everything=view is None)
    verdict = replayer.run(narrate=(view is not None and not as_json) or html_path is not None)
    verdict.warnings = warnings + verdict.warnings
    if html_path is not None:
        _write(html_path, viewer_page(engine, trace, frames, verdict, seat, viewing=view is not None))
    if view is not None and not as_json:
        narrator = Narrator(verbose=verbose, names=reading_names(engine))
        click.echo(f"{engine.model.title} as {view.upper()} saw it:")
        for line in narrator.lines(redact_narration(engine, replayer.narration, seat)) + narrator.flush():
            click.echo(line)
        click.echo("")
    if redacted_path:
        if view is None:
            raise click.BadParameter("--redacted needs --view PLAYER", param_hint="--redacted")
        lines = [redacted_header(engine, trace.header, seat)] + replayer.redacted
        _write(redacted_path, "\n".join(dumps_line(x) for x in lines) + "\n")
    _finish_replay(verdict, as_json, allow_incomplete)


def _no_page(html_path: str | None, why: str) -> None:
    """Say that ``--html`` wrote no page, and why (nothing was replayed)."""
    if html_path is not None:
        click.echo(f"note: no page written to {html_path}: {why}", err=True)


def _finish_replay(verdict: Verdict, as_json: bool, allow_incomplete: bool) -> None:
    if as_json:
        click.echo(json.dumps(verdict.to_json(), indent=2))
    else:
        _print_verdict(verdict)
    ok = verdict.status == "compliant" or (verdict.status == "incomplete" and allow_incomplete)
    sys.exit(EXIT_OK if ok else EXIT_ERROR)


if __name__ == "__main__":  # pragma: no cover
    main()
