"""The command line: ``rulelang run``, ``check`` and ``simulate``."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, NoReturn

import click

from rulelang.agents.base import AGENT_KINDS, Agent, FirstAgent, RandomAgent
from rulelang.agents.human import HumanAgent
from rulelang.engine.engine import DEFAULT_BUDGET, Engine
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.narrate import Narrator, reading_names, standings_lines
from rulelang.play import play
from rulelang.syntax.span import Span, register_source
from rulelang.trace.format import dumps_line, header, result_line, write_atomic
from rulelang.trace.replay import Replayer, TraceError, Verdict, load_for_trace, read_trace, redacted_header
from rulelang.views import redact_narration

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


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


def _load(path: str, options: dict[str, str], budget: int = DEFAULT_BUDGET) -> Engine:
    try:
        return load_game(path, options, budget=budget)
    except (RulelangError, ErrorList) as exc:
        _fail(exc)


def _make_agents(kinds: tuple[str, ...], players: int, seed: int) -> list[Agent]:
    chosen = list(kinds) or ["random"]
    if len(chosen) == 1:
        chosen = chosen * players
    elif len(chosen) < players:
        chosen = chosen + ["random"] * (players - len(chosen))
    elif len(chosen) > players:
        raise click.BadParameter(f"{len(chosen)} agents for {players} players", param_hint="--agent")
    agents: list[Agent] = []
    for seat, kind in enumerate(chosen):
        if kind == "human":
            agents.append(HumanAgent(seat))
        elif kind == "first":
            agents.append(FirstAgent())
        else:
            agents.append(RandomAgent(seed, seat))
    return agents


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulelang")
def main() -> None:
    """rulelang: write a tabletop game's rulebook once, then play, simulate and check it."""


@main.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@click.option("--players", "-p", type=int, help="Number of players (default: the game's default).")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Seed for dice, shuffles and random agents.")
@click.option("--agent", "-a", "agent_kinds", multiple=True, type=click.Choice(AGENT_KINDS),
              help="Agent per seat, in seat order (one value: every seat). Default: random.")
@click.option("--trace", "trace_path", type=click.Path(dir_okay=False), help="Write a JSON Lines trace here.")
@click.option("--max-steps", type=int, default=100_000, show_default=True, help="Stop a game that runs longer.")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="Set a rules option (see 'rulelang check --options').")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
@click.option("--verbose", "-v", is_flag=True, help="Also print every move of a component.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--from", "from_path", type=click.Path(dir_okay=False), metavar="POSITION",
              help="Start from a position file (JSON) instead of the normal setup.")
@click.option("--view", "view", metavar="PLAYER", help="Print only what PLAYER (e.g. P2) sees.")
def run(game_file: str, players: int | None, seed: int, agent_kinds: tuple[str, ...], trace_path: str | None,
        max_steps: int, option_pairs: tuple[str, ...], quiet: bool, verbose: bool, as_json: bool,
        from_path: str | None, view: str | None) -> None:
    """Play GAME_FILE once and print a play-by-play and the result."""
    engine = _load(game_file, _parse_options(option_pairs))
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
    shown = list(agent_kinds) or ["random"]
    agent_names = shown * n if len(shown) == 1 else shown + ["random"] * (n - len(shown))
    head = header(engine, Path(game_file).as_posix(), n, seed, agent_names, _parse_options(option_pairs))
    if position is not None:
        head["position"] = {k: v for k, v in position.items() if k != "players"}
        head["from"] = Path(from_path or "").as_posix()
    lines: list[str] = [dumps_line(head)]
    narrator = Narrator(verbose=verbose, names=reading_names(engine))

    def show(narration: list[dict[str, Any]]) -> list[str]:
        if seat is not None or view is not None:
            narration = redact_narration(engine, narration, seat)
        return narrator.lines(narration)

    if talk:
        where = f", from {from_path}" if from_path else ""
        seen = f", as {view.upper()} sees it" if view else ""
        click.echo(f"{engine.model.title}: {n} players, seed {seed}{where}{seen}")
        for e in show(state.log or []):
            click.echo(e)

    def on_event(event: dict[str, Any], narration: list[dict[str, Any]]) -> None:
        lines.append(dumps_line(event))
        if talk:
            for line in show(narration):
                click.echo(line)

    try:
        play(engine, state, agents, seed, max_steps=max_steps, on_event=on_event, narrate=talk)
    except RulelangError as exc:
        _fail(exc)
    except (KeyboardInterrupt, click.Abort):
        click.echo("\ngame abandoned", err=True)
        sys.exit(EXIT_ERROR)
    assert state.result is not None
    lines.append(dumps_line(result_line(state)))
    if trace_path:
        _write(trace_path, "\n".join(lines) + "\n")
    if as_json:
        click.echo(json.dumps({"game": engine.model.title, "players": n, "seed": seed, "steps": state.step,
                               "turns": state.turn, **state.result}, indent=2))
        return
    for line in narrator.flush():
        click.echo(line)
    key_names = _key_names(engine)
    for line in standings_lines(state.result, key_names):
        click.echo(line)
    if trace_path and not quiet:
        click.echo(f"trace written to {trace_path}")


def _write(path: str, text: str) -> None:
    """Write an output file atomically; a path that cannot be written is an error, not a traceback."""
    try:
        write_atomic(path, text)
    except OSError as exc:
        _fail(RulelangError(f"cannot write {path}: {exc.strerror or exc}",
                            hint="check that the directory exists and can be written"))


def _read_position(path: str) -> dict[str, Any]:
    """Read a position file: a JSON object (see docs/traces.md); errors exit 1 with the place."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        _fail(RulelangError(f"no such position file: {path}"))
    except (OSError, UnicodeDecodeError) as exc:
        _fail(RulelangError(f"cannot read position file {path}: {exc}"))
    register_source(path, text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        _fail(RulelangError(f"the position is not valid JSON: {exc.msg}",
                            Span(path, exc.lineno, exc.colno, exc.lineno, exc.colno + 1),
                            hint="a position is one JSON object: {\"zones\": {...}, \"current\": \"P1\"}"))
    if not isinstance(data, dict):
        _fail(RulelangError("a position is a JSON object", Span(path, 1, 1, 1, 2)))
    return data


def _key_names(engine: Engine) -> list[str]:
    rank = engine.model.ranking
    names = []
    for i, (_direction, expr) in enumerate(rank.keys):
        counter = getattr(expr, "counter", None)
        if counter is not None:
            names.append(engine.model.counters[counter].name)
        elif i < len(rank.labels):
            names.append(rank.labels[i])
        else:
            names.append(f"key{i + 1}")
    return names


@main.command()
@click.argument("game_files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set a rules option.")
@click.option("--options", "list_options", is_flag=True, help="List each game's options.")
@click.option("--deep", is_flag=True, help="Also play random games at every player count to find run-time errors.")
@click.option("--games", "-n", "deep_games", type=click.IntRange(1, 10_000), default=20, show_default=True,
              help="With --deep: games per player count.")
def check(game_files: tuple[str, ...], option_pairs: tuple[str, ...], list_options: bool, deep: bool,
          deep_games: int) -> None:
    """Parse and check GAME_FILES; print 'ok' or compiler-style errors."""
    failed = False
    for path in game_files:
        try:
            engine = load_game(path, _parse_options(option_pairs))
        except (RulelangError, ErrorList) as exc:
            click.echo(exc.format(), err=True)
            failed = True
            continue
        model = engine.model
        deep_note = ""
        if deep:
            from rulelang.deep_check import deep_check

            played, error = deep_check(engine, deep_games)
            if error is not None:
                click.echo(error.format(), err=True)
                failed = True
                continue
            deep_note = f"; {played} random games played without a run-time error"
        click.echo(f"{path}: ok ({model.title}; {model.min_players}-{model.max_players} players, "
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

    engine = _load(game_file, _parse_options(option_pairs))
    program = engine.program
    if emit_python:
        click.echo(listing(program), nl=False)
        return
    blocks = sum(1 for rule in program.code for ins in rule if isinstance(ins[1], str))
    fallbacks = ", ".join(f"{k} x{n}" for k, n in sorted(program.fallbacks.items())) or "none"
    frames = sum(1 for rule in program.code if rule) - 1  # the driver (setup, then turns) is not a rule
    click.echo(f"{game_file}: compiled ({frames} rules run as frames, the others inlined; {blocks} generated blocks, "
               f"{len(program.generated.source.splitlines())} lines of Python; fallbacks: {fallbacks})")


@main.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=int, default=1000, show_default=True, help="How many games to play.")
@click.option("--players", "-p", type=int, help="Number of players (default: the game's default).")
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Seed of the first game; game i uses seed+i.")
@click.option("--max-steps", type=int, default=100_000, show_default=True, help="Stop a game that runs longer.")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set a rules option.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def simulate(game_file: str, games: int, players: int | None, seed: int, max_steps: int,
             option_pairs: tuple[str, ...], as_json: bool) -> None:
    """Play many games of random agents and print win rates by seat and game lengths."""
    if games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    engine = _load(game_file, _parse_options(option_pairs))
    n = players if players is not None else engine.model.default_players
    wins: Counter[str] = Counter()
    steps: list[int] = []
    turns: list[int] = []
    started = time.perf_counter()
    with click.progressbar(range(games), label="playing", file=sys.stderr,
                           show_pos=True) if not as_json else _nullbar(range(games)) as bar:
        for i in bar:
            try:
                state = engine.new_state(n)
                play(engine, state, [RandomAgent(seed + i, s) for s in range(n)], seed + i, max_steps=max_steps)
            except RulelangError as exc:
                click.echo(f"\ngame {i} (seed {seed + i}):", err=True)
                _fail(exc)
            assert state.result is not None
            for w in state.result["winners"]:
                wins[w] += 1 / len(state.result["winners"])
            steps.append(state.step)
            turns.append(state.turn)
    elapsed = time.perf_counter() - started
    stats = {
        "game": engine.model.title, "games": games, "players": n, "seed": seed,
        "win_rate": {f"P{p + 1}": round(wins[f'P{p + 1}'] / games, 4) for p in range(n)},
        "turns": {"mean": round(sum(turns) / games, 2), "min": min(turns), "max": max(turns)},
        "steps": {"mean": round(sum(steps) / games, 2), "min": min(steps), "max": max(steps)},
        "games_per_second": round(games / elapsed, 1),
    }
    if as_json:
        click.echo(json.dumps(stats, indent=2))
        return
    click.echo(f"{stats['game']}: {games} games, {n} players, random agents")
    for p, rate in stats["win_rate"].items():
        click.echo(f"  {p} wins {rate * 100:5.1f}%")
    t = stats["turns"]
    click.echo(f"  turns per game: mean {t['mean']}, min {t['min']}, max {t['max']}")
    click.echo(f"  {stats['games_per_second']} games/s")


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
    """
    import difflib

    from rulelang.fmt.files import format_path, write_outcome

    check_only = check_only or show_diff

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
        who = f"winner {winners[0]}" if len(winners) == 1 else "winners (tied) " + ", ".join(winners)
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
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
@click.option("--verbose", "-v", is_flag=True, help="With --view: also print every move of a component.")
def replay(trace_file: str, rules_file: str | None, allow_incomplete: bool, view: str | None,
           redacted_path: str | None, as_json: bool, verbose: bool) -> None:
    """Re-run TRACE_FILE and say whether every move kept the rules.

    Verdicts: compliant (exit 0), violation, incomplete or malformed (exit 1).
    """
    try:
        trace = read_trace(trace_file)
        engine, warnings = load_for_trace(trace, rules_file)
    except TraceError as exc:
        verdict = Verdict("malformed", exc.format(), line=exc.span.line if exc.span else None)
        _finish_replay(verdict, as_json, allow_incomplete)
        return
    except (RulelangError, ErrorList) as exc:
        verdict = Verdict("malformed", "the game file does not load:\n" + exc.format())
        _finish_replay(verdict, as_json, allow_incomplete)
        return
    players = trace.header.get("players") if isinstance(trace.header.get("players"), int) else 0
    seat = _seat(view, players) if view is not None else None
    replayer = Replayer(engine, trace, view=seat, redact=redacted_path is not None)
    verdict = replayer.run(narrate=view is not None and not as_json)
    verdict.warnings = warnings + verdict.warnings
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


def _finish_replay(verdict: Verdict, as_json: bool, allow_incomplete: bool) -> None:
    if as_json:
        click.echo(json.dumps(verdict.to_json(), indent=2))
    else:
        _print_verdict(verdict)
    ok = verdict.status == "compliant" or (verdict.status == "incomplete" and allow_incomplete)
    sys.exit(EXIT_OK if ok else EXIT_ERROR)


if __name__ == "__main__":  # pragma: no cover
    main()
