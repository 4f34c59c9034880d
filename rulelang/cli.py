"""The command line: ``rulelang run``, ``check``, ``replay``, ``fmt`` and the others; the commands that play
many games (``simulate``, ``compare``, ``sweep``) are ``cli_sim``'s, what both share ``cli_common``'s."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from rulelang.cli_common import (
    EXIT_ERROR,
    EXIT_OK,
    MAX_STEPS,
    STDOUT_PATHS,
    WholeNumber,
    check_output_path,
    echo_err,
    fail_with,
    hint_shipped,
    load_rules,
    make_agents,
    parse_options,
    read_position,
    rules_path,
    seed_or_random,
    stdin_rules,
    write_output,
)
from rulelang.errors import ErrorList, RulelangError
from rulelang.safeio import (
    check_output,
)
from rulelang.syntax.span import Span

if TYPE_CHECKING:
    from rulelang.trace.replay import Verdict


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
    from rulelang.narrate import Narrator, reading_names, sight, standings_lines
    from rulelang.play import play
    from rulelang.safeio import STDIN_NAME
    from rulelang.shipped import recorded_name
    from rulelang.trace.format import CHANCE_FROM_SEED, dumps_line, header, result_line
    from rulelang.views import redact_narration
    from rulelang.wording import players_text

    drawn = seed is None
    seed = seed_or_random(seed)
    given, game_file = game_file, rules_path(game_file)
    to_stdout = trace_path in STDOUT_PATHS
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
        check_output_path(trace_path, "--trace", [game_file, from_path])
    stdin = stdin_rules() if game_file == "-" else None
    engine = load_rules(game_file, parse_options(option_pairs), stdin=stdin)
    if not to_stdout:
        check_output_path(trace_path, "--trace", [game_file, from_path], engine)
    say = echo_err if to_stdout else click.echo
    position = read_position(from_path) if from_path else None
    if position is not None and players is None and isinstance(position.get("players"), int):
        players = position["players"]
    n = players if players is not None else engine.model.default_players
    talk = not quiet and not as_json
    seat = _seat(view, n) if view is not None else None
    try:
        state = engine.new_state(n, narrate=talk, position=position, setup_seed=seed)
    except RulelangError as exc:
        if not engine.model.min_players <= n <= engine.model.max_players:  # a count the game does not take
            raise click.BadParameter(exc.message, param_hint="--players") from None
        if from_path and exc.span is None:
            exc.span = Span(from_path, 1, 1, 1, 2)
        fail_with(exc)
    agents = make_agents(agent_kinds, n, seed)
    from rulelang.agents.human import HumanAgent, display_names

    if any(isinstance(agent, HumanAgent) for agent in agents):
        names = display_names(engine.model, reading_names(engine))
        for agent in agents:
            if isinstance(agent, HumanAgent):
                agent.names = names
    shown = list(agent_kinds) or ["random"]
    agent_names = shown * n if len(shown) == 1 else shown + ["random"] * (n - len(shown))
    recorded = STDIN_NAME if stdin is not None else recorded_name(given, game_file)
    head = header(engine, recorded, n, seed, agent_names, parse_options(option_pairs),
                  chance=CHANCE_FROM_SEED)  # (play draws every chance outcome from the seed)
    if position is not None:
        head["position"] = {k: v for k, v in position.items() if k != "players"}
        head["from"] = Path(from_path or "").as_posix()
    lines: list[str] = [dumps_line(head)]
    narrator = Narrator(verbose=verbose, names=reading_names(engine), sees=sight(engine, seat))

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

    events: list[dict[str, Any]] | None = None if talk else []  # (nothing narrated: the events kept in a list)
    try:
        if events is None:
            play(engine, state, agents, seed, max_steps=max_steps, on_event=on_event, narrate=True,
                 digests=trace_path is not None)
        else:
            play(engine, state, agents, seed, max_steps=max_steps, events=events, digests=trace_path is not None)
            if to_stdout or trace_path:
                lines += map(dumps_line, events)
    except RulelangError as exc:
        if exc.span is None:
            exc.span = engine.where_span(state)  # the rule being played when it went wrong
        fail_with(exc)
    except (KeyboardInterrupt, click.Abort):
        click.echo("\ngame abandoned", err=True)
        sys.exit(EXIT_ERROR)
    assert state.result is not None
    lines.append(dumps_line(result_line(state)))
    if to_stdout:
        click.echo("\n".join(lines) + "\n", nl=False)
    elif trace_path:
        write_output(trace_path, "\n".join(lines) + "\n")
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
    from rulelang.safeio import STDIN_NAME
    from rulelang.wording import player_counts_text

    if game_files.count("-") > 1:
        raise click.BadParameter("standard input (-) can be read once", param_hint="GAME_FILES")
    failed = False
    for path in game_files:
        try:
            stdin = stdin_rules() if path == "-" else None
            engine = load_game(rules_path(path), parse_options(option_pairs), stdin=stdin)
            path = STDIN_NAME if stdin is not None else path
        except (RulelangError, ErrorList) as exc:
            click.echo(hint_shipped(exc).format(), err=True)
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

    engine = load_rules(rules_path(game_file), parse_options(option_pairs))
    program = engine.program
    if emit_python:
        click.echo(listing(program), nl=False)
        return
    blocks = sum(1 for rule in program.code for ins in rule if isinstance(ins[1], str))
    frames = sum(1 for rule in program.code if rule) - 1  # the driver (setup, then turns) is not a rule
    click.echo(f"{game_file}: compiled ({frames} rules run as frames, the others inlined; {blocks} generated blocks, "
               f"{len(program.generated.source.splitlines())} lines of Python)")


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
    data = stdin_rules()
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
    from rulelang.narrate import Narrator, reading_names, sight
    from rulelang.trace.format import dumps_line
    from rulelang.trace.replay import Replayer, TraceError, Verdict, load_for_trace, read_trace, redacted_header
    from rulelang.views import redact_narration

    if redacted_path is not None and view is None:
        raise click.BadParameter("--redacted needs --view PLAYER", param_hint="--redacted")
    if rules_file is not None:
        rules_file = rules_path(rules_file)
    check_output_path(redacted_path, "--redacted", [trace_file, rules_file])
    check_output_path(html_path, "--html", [trace_file, rules_file, redacted_path])
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
    check_output_path(redacted_path, "--redacted", [trace_file, rules_file], engine)
    check_output_path(html_path, "--html", [trace_file, rules_file, redacted_path], engine)
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
        write_output(html_path, viewer_page(engine, trace, frames, verdict, seat, viewing=view is not None))
    if view is not None and not as_json:
        narrator = Narrator(verbose=verbose, names=reading_names(engine), sees=sight(engine, seat))
        click.echo(f"{engine.model.title} as {view.upper()} saw it:")
        for line in narrator.lines(redact_narration(engine, replayer.narration, seat)) + narrator.flush():
            click.echo(line)
        click.echo("")
    if redacted_path:
        if view is None:
            raise click.BadParameter("--redacted needs --view PLAYER", param_hint="--redacted")
        lines = [redacted_header(engine, trace.header, seat)] + replayer.redacted
        write_output(redacted_path, "\n".join(dumps_line(x) for x in lines) + "\n")
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


from rulelang.cli_sim import compare, simulate, sweep  # noqa: E402  (registered below)

for _command in (simulate, compare, sweep):
    main.add_command(_command)
