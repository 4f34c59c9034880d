"""Issue 14, part 2: seeds. A game run without --seed gets a fresh full-width seed, printed and
recorded so it can be played again; seeds the generator would wrap are usage errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.rng import SEED_MAX, Rng, random_seed, seed_in_range
from rulelang.trace.replay import replay_file

OK_BASE = Path(__file__).resolve().parents[1] / "bad_rules" / "ok_base.rules"


def _invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.rules"
    shutil.copy(OK_BASE, path)
    return path


def _header(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_without_a_seed_each_game_draws_a_fresh_full_width_seed_and_records_it(tmp_path: Path, game: Path) -> None:
    seeds = []
    for i in range(3):
        out = tmp_path / f"t{i}.jsonl"
        result = _invoke("run", game, "-q", "--trace", out)
        assert result.exit_code == 0, result.output
        seed = _header(out)["seed"]
        assert seed_in_range(seed)
        assert f"seed {seed}" in result.stderr  # printed, so the game can be played again
        seeds.append(seed)
    assert len(set(seeds)) == 3
    assert max(seeds) > 2**32  # three draws all below 2**32 from 64 bits: chance 2**-96


def test_the_recorded_seed_plays_the_same_game_again(tmp_path: Path, game: Path) -> None:
    first, again = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert _invoke("run", game, "-q", "--trace", first).exit_code == 0
    seed = _header(first)["seed"]
    assert _invoke("run", game, "-q", "-s", seed, "--trace", again).exit_code == 0
    assert first.read_text(encoding="utf-8") == again.read_text(encoding="utf-8")


def test_the_talking_header_names_the_drawn_seed(game: Path) -> None:
    result = _invoke("run", game)
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert ", seed " in first
    assert seed_in_range(int(first.split(", seed ")[1].split(",")[0]))


@pytest.mark.parametrize("seed", [-1, SEED_MAX + 1, 2**80])
def test_seeds_outside_the_generators_range_are_usage_errors(game: Path, seed: int) -> None:
    result = _invoke("run", game, "-q", "-s", seed)
    assert result.exit_code == 2
    assert "is not a seed" in result.stderr


def test_the_extreme_seeds_are_accepted(game: Path) -> None:
    for seed in (0, SEED_MAX):
        result = _invoke("run", game, "-q", "-s", seed, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["seed"] == seed


def test_a_trace_header_with_an_out_of_range_seed_is_malformed(tmp_path: Path, game: Path) -> None:
    out = tmp_path / "t.jsonl"
    assert _invoke("run", game, "-q", "-s", 5, "--trace", out).exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    for bad in (-3, SEED_MAX + 1, "7", 1.5):
        head = json.loads(lines[0])
        head["seed"] = bad
        tampered = tmp_path / "bad.jsonl"
        tampered.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
        verdict = replay_file(tampered)
        assert verdict.status == "malformed" and "seed" in verdict.message, (bad, verdict)


def test_random_seeds_are_distinct_and_in_range() -> None:
    drawn = {random_seed() for _ in range(50)}
    assert len(drawn) == 50 and all(seed_in_range(s) for s in drawn)
    assert Rng(SEED_MAX).next32() != Rng(0).next32()


# Issue 21, item 4: game i of a run plays seed+i, so every seed of the run must be in range (no wrapping).


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_seed_plus_games_past_the_last_seed_is_a_usage_error(tmp_path: Path, game: Path, command: str) -> None:
    other = tmp_path / "b.rules"
    shutil.copy(game, other)
    files = [game] if command == "simulate" else [game, other]
    result = _invoke(command, *files, "-s", SEED_MAX, "-n", 3, "-j", 1)
    assert result.exit_code == 2, result.output
    assert "3 games from seed 18446744073709551615 would need seeds up to 18446744073709551617" in result.stderr
    assert "the seed can be at most 18446744073709551613 for 3 games" in result.stderr
    assert "Traceback" not in result.output


def test_the_last_seeds_of_a_run_may_reach_the_last_seed(game: Path) -> None:
    result = _invoke("simulate", game, "-s", SEED_MAX - 2, "-n", 3, "-j", 1, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["seed"] == SEED_MAX - 2
    assert _invoke("simulate", game, "-s", SEED_MAX - 1, "-n", 3, "-j", 1, "--json").exit_code == 2


def test_seeds_2_64_and_past_no_longer_replay_seeds_0_and_1(game: Path) -> None:
    for seed in (SEED_MAX + 1, SEED_MAX + 2):
        result = _invoke("simulate", game, "-s", seed, "-n", 1, "-j", 1)
        assert result.exit_code == 2 and "is not a seed" in result.stderr, result.output


@pytest.mark.parametrize("seed", ["٣", "1_0", "0x10", "1e3", ""])
def test_seeds_are_written_in_ascii_digits(game: Path, seed: str) -> None:
    for command in (["run", game, "-q"], ["simulate", game, "-n", 1, "-j", 1]):
        result = _invoke(*command, "-s", seed)
        assert result.exit_code == 2, (command, seed, result.output)
        assert "is not a whole number: write it in the digits 0-9" in result.stderr
