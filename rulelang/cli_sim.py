"""The commands that play many games: ``rulelang simulate``, ``compare`` and ``sweep``."""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Any

import click

from rulelang.cli_common import (
    EXIT_ERROR,
    MAX_BATCH,
    MAX_GAMES,
    MAX_JOBS,
    MAX_STEPS,
    WholeNumber,
    check_output_path,
    check_players,
    load_rules,
    parse_options,
    rules_path,
    write_output,
)
from rulelang.numbers import ascii_whole
from rulelang.rng import SEED_MAX, SEED_MIN, seed_in_range

if TYPE_CHECKING:
    from rulelang.engine.engine import Engine


def _sim_options(f: Any, many_players: bool = False, counts: bool = False) -> Any:
    """The options simulate, compare and sweep share (sweep takes several player counts)."""
    from rulelang.agents.bounds import MAX_C, MAX_DEPTH, MAX_ITERS, MAX_SAMPLES

    for opt in reversed([
        click.option("--games", "-n", type=WholeNumber(), default=1000, show_default=True,
                     help=f"How many games to play (1 to {MAX_GAMES:,})."),
        click.option("--players", "-p", "player_texts", multiple=True, metavar="P[,P...|A..B]",
                     help="Player counts, one point of the sweep each (default: the game's default).")
        if many_players else
        click.option("--players", "-p", "players", type=WholeNumber(), multiple=True,
                     help="Number of players (default: the game's default); several (-p 3 -p 4): a run each.")
        if counts else
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
                     help="Write a self-contained HTML report with figures here (rule coverage too, unless "
                          "--no-coverage)."),
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
    path = rules_path(path)
    engine = load_rules(path, options)
    n = players if players is not None else engine.model.default_players
    check_players(engine, n)
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
    write_output(path, make())


def _coverage_rows(engine: Engine, counts: list[int] | None, games: int) -> Any:
    """The coverage rows of a run that counted (None for one that did not)."""
    from rulelang.sim import coverage as cov

    if counts is None:
        return None
    return cov.coverage_rows(engine.program.constructs, counts, games)  # type: ignore[attr-defined]


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


def _simulate_one(engine: Engine, job: Any, games: int, workers: int, backend: str, address: str | None,
                  batch_size: int | None, show: bool, counting: bool, listing: bool, skill: Any, skill_games: int,
                  several: bool) -> dict[str, Any]:
    """One run of simulate: its summary, records, coverage (``counted``; listed in the output as ``rows`` when
    ``listing``), metrics and time."""
    from rulelang.sim import coverage as cov
    from rulelang.sim.summary import summarize
    from rulelang.wording import players_text

    label = f"playing, {players_text(job.players)}" if several else "playing"
    started = time.perf_counter()
    records, counts = _run_sim(job, games, workers, backend, address, batch_size, show_progress=show, label=label)
    elapsed = time.perf_counter() - started
    stats = summarize(engine, job, records)
    counted = _coverage_rows(engine, counts, games) if counting else None
    rows = counted if listing else None  # the text, --json and --csv list coverage with --coverage only
    if rows is not None:
        stats["coverage"] = cov.to_json(rows)
    if job.metrics:
        stats["metrics"] = _metrics_of(stats, job, records, skill, skill_games, workers, backend, address,
                                       batch_size, show)
    return {"stats": stats, "records": records, "counted": counted, "rows": rows, "elapsed": elapsed}


def _csv_table(stats: dict[str, Any], rows: Any) -> list[list[Any]]:
    """One run of simulate as CSV rows (with the header): the summary, the metrics, the coverage."""
    from rulelang.sim import coverage as cov
    from rulelang.sim.summary import csv_rows

    table = csv_rows(stats)
    if "metrics" in stats:
        from rulelang.sim import metrics

        table += metrics.csv_rows(stats["metrics"])
    if rows is not None:  # one table: a construct's count is n, its count per game the mean
        table += [["coverage", f"{r.where} {cov.KIND_WORDS.get(r.kind, r.kind)} {r.name}", "", r.count, r.per_game,
                   "", "", "", "", ""] for r in rows]
    return table


def _text_lines(stats: dict[str, Any], rows: Any, games: int) -> list[str]:
    """One run of simulate as text: the summary, the metrics, the coverage."""
    from rulelang.sim import coverage as cov
    from rulelang.sim.summary import render_text

    out = render_text(stats)
    if "metrics" in stats:
        from rulelang.sim import metrics

        out += ["", *metrics.render_text(stats["metrics"])]
    if rows is not None:
        out += ["", *cov.render_text(rows, games)]
    return out


@click.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@lambda f: _sim_options(f, counts=True)
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set a rules option.")
@click.option("--coverage/--no-coverage", default=None,
              help="Count how often each rule, option, branch and trigger fired, and list it (the --report page "
                   "counts unless --no-coverage).")
@click.option("--metrics", "-m", "with_metrics", is_flag=True,
              help="Balance metrics: lead changes, drama, decisiveness, branching, draws (docs/simulate.md).")
@click.option("--skill", "skill_text", metavar="KIND[:NAME=VALUE,...]",
              help="Restricted play (implies --metrics): this agent in one seat, random in the others, each seat.")
@click.option("--skill-games", type=WholeNumber(), default=100, show_default=True,
              help=f"Games per seat for --skill, and for its all-random baseline (1 to {MAX_GAMES:,}).")
def simulate(game_file: str, games: int, players: tuple[int, ...], seed: int, agent_texts: tuple[str, ...],
             jobs: int | None, backend: str, address: str | None, batch_size: int | None, max_steps: int,
             as_json: bool, as_csv: bool, report_path: str | None, quiet: bool, option_pairs: tuple[str, ...],
             coverage: bool | None, with_metrics: bool = False, skill_text: str | None = None,
             skill_games: int = 100) -> None:
    """Play many games and print win rates (95% intervals), scores, game length and first-player advantage.

    Game i is played with seed SEED+i, so the statistics are the same for any --jobs
    and back end. Progress goes to stderr (not with --json, --csv or -q). With several
    -p (-p 3 -p 4), each player count is a run of its own, with the same seeds and agents.
    """
    import attrs

    workers = _check_sim_args(games, jobs, batch_size, as_json, as_csv, backend, address, seed)
    check_output_path(report_path, "--report", [game_file])
    skill = _skill_spec(skill_text, skill_games, seed)
    if len(set(players)) != len(players):
        raise click.BadParameter("a player count is given twice", param_hint="--players")
    counting = bool(coverage) or (report_path is not None and coverage is None)  # the report counts by default
    loaded = []
    for n in players or (None,):  # every count is checked before any game is played
        engine, job = _sim_job(game_file, parse_options(option_pairs), n, agent_texts, seed, max_steps, counting,
                               games)
        if with_metrics or skill is not None:
            job = attrs.evolve(job, metrics=True)
        check_output_path(report_path, "--report", [game_file], engine)  # not over the rules, nor a FIFO
        loaded.append((engine, job))
    show = not (quiet or as_json or as_csv)
    runs = [_simulate_one(engine, job, games, workers, backend, address, batch_size, show, counting, bool(coverage),
                          skill, skill_games, len(loaded) > 1) for engine, job in loaded]
    if report_path:
        from rulelang.sim.report import simulation_report, simulations_report

        if len(runs) == 1:
            _write_report(report_path, lambda: simulation_report(runs[0]["stats"], runs[0]["records"],
                                                                 runs[0]["counted"]))
        else:
            _write_report(report_path, lambda: simulations_report([(r["stats"], r["records"], r["counted"])
                                                                   for r in runs]))
    if as_json:
        docs = [{**r["stats"], "timing": {"seconds": round(r["elapsed"], 3),
                                          "games_per_second": round(games / r["elapsed"], 1)}} for r in runs]
        click.echo(json.dumps(docs[0] if len(docs) == 1 else {"runs": docs}, indent=2))
        return
    if as_csv:
        from rulelang.sim.summary import to_csv

        tables = [_csv_table(r["stats"], r["rows"]) for r in runs]
        click.echo(to_csv(_one_csv_table(tables, [r["stats"]["players"] for r in runs])), nl=False)
        return
    for i, r in enumerate(runs):
        if i:
            click.echo("")
        for line in _text_lines(r["stats"], r["rows"], games):
            click.echo(line)
    if len(runs) > 1:
        from rulelang.sim.summary import by_player_count

        click.echo("")
        for line in by_player_count([r["stats"] for r in runs]):
            click.echo(line)
    elapsed = sum(r["elapsed"] for r in runs)
    click.echo(f"\n{games * len(runs) / elapsed:.1f} games/s on {workers if backend == 'local' else 'Ray'} "
               f"{'worker' if workers == 1 and backend == 'local' else 'workers'}")
    if report_path:
        click.echo(f"report written to {report_path}")


@click.command()
@click.argument("base_file", type=click.Path(dir_okay=False))
@click.argument("variant_file", type=click.Path(dir_okay=False), required=False)
@lambda f: _sim_options(f, counts=True)
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="Set a rules option of B (the variant).")
@click.option("--base-option", "-O", "base_pairs", multiple=True, metavar="NAME=VALUE",
              help="Set a rules option of A (the base).")
@click.option("--metrics", "-m", "with_metrics", is_flag=True,
              help="Compare the balance metrics too: lead changes, drama, decisiveness, branching, draws.")
@click.option("--no-coverage", is_flag=True, help="Leave rule coverage out of the --report page (it costs time).")
def compare(base_file: str, variant_file: str | None, games: int, players: tuple[int, ...], seed: int,
            agent_texts: tuple[str, ...], jobs: int | None, backend: str, address: str | None,
            batch_size: int | None, max_steps: int, as_json: bool, as_csv: bool, report_path: str | None,
            quiet: bool, option_pairs: tuple[str, ...], base_pairs: tuple[str, ...],
            with_metrics: bool = False, no_coverage: bool = False) -> None:
    """Play the same seeds with the same agents on A and B, and say which statistics differ.

    A is BASE_FILE (with -O options), B is VARIANT_FILE or BASE_FILE again (with -o
    options): `rulelang compare GAME.rules -o NAME=VALUE`. Game i of
    A and of B share a seed, so each difference B - A is the mean of the games'
    differences, with its 95% interval; significant ones get a sentence. With several
    -p (-p 3 -p 4), A and B are compared at each player count.
    """
    import attrs

    from rulelang.sim.compare import csv_rows, render_text
    from rulelang.sim.summary import to_csv
    from rulelang.wording import players_text

    workers = _check_sim_args(games, jobs, batch_size, as_json, as_csv, backend, address, seed)
    a_opts, b_opts = parse_options(base_pairs), parse_options(option_pairs)
    b_file = variant_file or base_file
    check_output_path(report_path, "--report", [base_file, b_file])
    if b_file == base_file and a_opts == b_opts:
        raise click.UsageError("A and B are the same rules: give a second file, or options for B with -o")
    if len(set(players)) != len(players):
        raise click.BadParameter("a player count is given twice", param_hint="--players")
    counting = report_path is not None and not no_coverage
    loaded = []
    for n in players or (None,):  # every count is checked before any game is played
        engine_a, job_a = _sim_job(base_file, a_opts, n, agent_texts, seed, max_steps, games=games)
        engine_b, job_b = _sim_job(b_file, b_opts, n if n is not None else job_a.players, agent_texts, seed,
                                   max_steps, games=games)
        if job_a.players != job_b.players:
            raise click.BadParameter("A and B must be played by the same number of players", param_hint="--players")
        check_output_path(report_path, "--report", [base_file, b_file], engine_a)
        check_output_path(report_path, "--report", [base_file, b_file], engine_b)
        loaded.append((engine_a, attrs.evolve(job_a, metrics=with_metrics, coverage=counting),
                       engine_b, attrs.evolve(job_b, metrics=with_metrics, coverage=counting)))
    show = not (quiet or as_json or as_csv)
    runs = [_compare_one(*pair, games, workers, backend, address, batch_size, show, with_metrics, len(loaded) > 1)
            for pair in loaded]

    def name(path: str, opts: dict[str, str]) -> str:
        return path + "".join(f" -o {k}={v}" for k, v in opts.items())

    a_name, b_name = name(base_file, a_opts), name(b_file, b_opts)
    if report_path:
        from rulelang.sim.report import comparison_report, comparisons_report

        if len(runs) == 1:
            r = runs[0]
            _write_report(report_path, lambda: comparison_report(r["a"], r["b"], r["rows"], a_name, b_name,
                                                                 r["records_a"], r["records_b"], r["cover"]))
        else:
            _write_report(report_path, lambda: comparisons_report(runs, a_name, b_name))
    if as_json:
        docs = [{"a": {"name": a_name, **r["a"]}, "b": {"name": b_name, **r["b"]}, "differences": r["rows"]}
                for r in runs]
        click.echo(json.dumps(docs[0] if len(docs) == 1 else
                              {"runs": [{"players": r["a"]["players"], **d} for r, d in zip(runs, docs)]}, indent=2))
        return
    if as_csv:
        tables = [csv_rows(r["rows"]) for r in runs]
        click.echo(to_csv(_one_csv_table(tables, [r["a"]["players"] for r in runs])), nl=False)
        return
    for i, r in enumerate(runs):
        if len(runs) > 1:
            click.echo(("\n" if i else "") + f"At {players_text(r['a']['players'])}:")
        for line in render_text(r["a"], r["b"], r["rows"], a_name, b_name):
            click.echo(line)
    if report_path:
        click.echo(f"report written to {report_path}")


def _compare_one(engine_a: Engine, job_a: Any, engine_b: Engine, job_b: Any, games: int, workers: int, backend: str,
                 address: str | None, batch_size: int | None, show: bool, with_metrics: bool,
                 several: bool) -> dict[str, Any]:
    """A and B played at one player count: both summaries, the rows of differences, records and coverage."""
    from rulelang.sim.compare import compare_runs
    from rulelang.sim.summary import summarize
    from rulelang.wording import players_text

    at = f", {players_text(job_a.players)}" if several else ""
    records_a, counts_a = _run_sim(job_a, games, workers, backend, address, batch_size, show, f"playing A{at}")
    records_b, counts_b = _run_sim(job_b, games, workers, backend, address, batch_size, show, f"playing B{at}")
    sa, sb = summarize(engine_a, job_a, records_a), summarize(engine_b, job_b, records_b)
    if with_metrics:
        from rulelang.sim import metrics

        sa["metrics"], sb["metrics"] = metrics.compute(sa, records_a), metrics.compute(sb, records_b)
    return {"a": sa, "b": sb, "rows": compare_runs(sa, sb, records_a, records_b), "records_a": records_a,
            "records_b": records_b,
            "cover": (_coverage_rows(engine_a, counts_a, games), _coverage_rows(engine_b, counts_b, games))}


@click.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@lambda f: _sim_options(f, many_players=True)
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=V1,V2,...|NAME=A..B",
              help="An option and the values to play it at (whole-number ranges A..B too); one value: fixed.")
@click.option("--skill", "skill_text", metavar="KIND[:NAME=VALUE,...]",
              help="Restricted play at each value: this agent in one seat, random in the others.")
@click.option("--skill-games", type=WholeNumber(), default=100, show_default=True,
              help=f"Games per seat for --skill (1 to {MAX_GAMES:,}).")
@click.option("--no-coverage", is_flag=True, help="Leave rule coverage out of the --report page (it costs time).")
def sweep(game_file: str, games: int, player_texts: tuple[str, ...], seed: int, agent_texts: tuple[str, ...],
          jobs: int | None, backend: str, address: str | None, batch_size: int | None, max_steps: int, as_json: bool,
          as_csv: bool, report_path: str | None, quiet: bool, option_pairs: tuple[str, ...], skill_text: str | None,
          skill_games: int, no_coverage: bool = False) -> None:
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
        for name, text in parse_options(option_pairs).items():
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
    check_output_path(report_path, "--report", [game_file])
    loaded = []
    for pt in pts:  # every value is checked before any game is played
        engine, job = _sim_job(game_file, dict(pt.options), pt.players, agent_texts, seed, max_steps, games=games)
        check_output_path(report_path, "--report", [game_file], engine)
        loaded.append((engine, attrs.evolve(job, metrics=True, coverage=report_path is not None and not no_coverage)))
    labels = [pt.label for pt in pts]
    show = not (quiet or as_json or as_csv)
    summaries, all_records, covered = [], [], []
    for i, ((engine, job), label) in enumerate(zip(loaded, labels), 1):
        records, counts = _run_sim(job, games, workers, backend, address, batch_size, show,
                                   f"{label} ({i}/{len(pts)})", where=label)
        stats = summarize(engine, job, records)
        stats["metrics"] = _metrics_of(stats, job, records, skill, skill_games, workers, backend, address,
                                       batch_size, show)
        summaries.append(stats)
        all_records.append(records)
        covered.append(_coverage_rows(engine, counts, games))
    rows = sw.table(summaries)
    verdict = sw.verdict(labels, summaries)
    title = f"{summaries[0]['game']} ({game_file})"
    if report_path:
        from rulelang.sim.report_sweep import sweep_report

        _write_report(report_path, lambda: sweep_report(title, labels, rows, verdict, summaries, all_records, covered))
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


def _one_csv_table(tables: list[list[list[Any]]], counts: list[int]) -> list[list[Any]]:
    """The CSV rows of one run (its table as it is), or of several runs at ``counts`` players as one table
    whose first column says which player count a row is of (one header)."""
    if len(tables) == 1:
        return tables[0]
    return [["players", *tables[0][0]]] + [[n, *row] for n, tab in zip(counts, tables) for row in tab[1:]]
