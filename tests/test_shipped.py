"""Our files are canonical and the games travel with the package (issue 21, items 6 and 10).

Every shipped ``.rules`` file passes ``rulelang fmt --check``; a command given a game's name
(``barnyard``, ``barnyard.rules``, ``games/barnyard.rules``) reads the shipped game when no
such file exists here, and a file always wins; ``rulelang games`` lists them; the wheel holds
them. Installing the wheel in a fresh virtualenv takes about a minute and needs the package
index for lark, attrs and click: it runs with ``RULELANG_WHEEL=1`` (as ``.ci/run`` does).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.fmt.files import format_path
from rulelang.game import load_game
from rulelang.shipped import describe, find_shipped, games_dir, rules_path, shipped_games

ROOT = Path(__file__).resolve().parent.parent
TINY = "game \"{title}\"\nplayers 2 to 2\ncounter score per player = 0\n\nsetup:\n  pass\n\nturn:\n  end game\n\n" \
       "rank p by highest score of p\n"
SHIPPED = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "examples").glob("**/*.rules"))


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


# ------------------------------------------------------------------ canonical files


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_shipped_rules_file_is_canonical(path: Path) -> None:
    outcome = format_path(str(path))
    assert not outcome.changed, f"run: rulelang fmt {path.relative_to(ROOT)}"


def test_fmt_check_passes_over_the_shipped_files() -> None:
    assert len(SHIPPED) >= 10
    result = invoke("fmt", "--check", *map(str, SHIPPED))
    assert result.exit_code == 0, result.output
    assert result.output == ""


def test_no_wheel_is_committed() -> None:
    assert not list(ROOT.glob("*.whl"))
    assert "*.whl" in (ROOT / ".gitignore").read_text().splitlines()


# ------------------------------------------------------------------ finding a shipped game


def test_the_shipped_games_are_the_games_directory() -> None:
    assert games_dir() == (ROOT / "games").resolve()
    assert [p.name for p in shipped_games()] == sorted(p.name for p in (ROOT / "games").glob("*.rules"))


@pytest.mark.parametrize("name", ["barnyard", "barnyard.rules", "games/barnyard.rules"])
def test_a_name_finds_the_shipped_game(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert rules_path(name) == str((ROOT / "games" / "barnyard.rules").resolve())


@pytest.mark.parametrize("name", ["../games/barnyard", "x/barnyard.rules", "games/../barnyard.rules", ".rules",
                                  "barnyard.rule", "nothing"])
def test_other_paths_are_not_shipped_games(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert find_shipped(name) is None
    assert not rules_path(name).startswith(str(ROOT))


@pytest.mark.parametrize("name", ["barnyard", "barnyard.rules"])
def test_a_file_here_wins(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "barnyard.rules").write_text(TINY.format(title="Mine"))
    assert rules_path(name) == "barnyard.rules"
    result = invoke("check", name)
    assert result.exit_code == 0, result.output
    assert "Mine" in result.stdout


def test_a_directory_of_that_name_is_not_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "barnyard").mkdir()  # as in examples/: a folder of the game's examples
    assert rules_path("barnyard") == str((ROOT / "games" / "barnyard.rules").resolve())


def test_a_file_path_wins_under_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "chicken.rules").write_text(TINY.format(title="Local"))
    assert rules_path("games/chicken.rules") == "games/chicken.rules"


def test_an_unknown_name_hints_at_the_shipped_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("run", "barnyrd")
    assert result.exit_code == 1
    assert "no such file: barnyrd.rules" in result.stderr and "rulelang games" in result.stderr


# ------------------------------------------------------------------ every command, from elsewhere


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current directory outside the repository, with no rules files."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_run_by_name_is_the_same_game(elsewhere: Path) -> None:
    by_name = invoke("run", "barnyard", "-q", "--seed", "1")
    by_path = invoke("run", str(ROOT / "games" / "barnyard.rules"), "-q", "--seed", "1")
    assert by_name.exit_code == 0, by_name.output
    assert by_name.stdout == by_path.stdout and "Winner" in by_name.stdout


def test_a_variant_by_name_extends_its_shipped_base(elsewhere: Path) -> None:
    result = invoke("check", "barnyard-2p", "chicken-eggspansion.rules")
    assert result.exit_code == 0, result.output
    assert "barnyard-2p: ok (Barnyard Roundup (two players); 2 players" in result.stdout
    assert "chicken-eggspansion.rules: ok (Chicken! with the Eggspansion!" in result.stdout


def test_the_trace_names_the_shipped_game_and_replays_from_anywhere(elsewhere: Path) -> None:
    result = invoke("run", "chicken", "-q", "--seed", "4", "--trace", "t.jsonl")
    assert result.exit_code == 0, result.output
    head = json.loads((elsewhere / "t.jsonl").read_text().splitlines()[0])
    assert head["file"] == "games/chicken.rules"
    replayed = invoke("replay", "t.jsonl")
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.startswith("compliant") and "warning" not in replayed.output


def test_a_recorded_example_replays_against_the_shipped_game(elsewhere: Path) -> None:
    shutil.copy(ROOT / "examples" / "bust.jsonl", elsewhere / "bust.jsonl")
    head = next(line for line in (elsewhere / "bust.jsonl").read_text().splitlines() if line.startswith("{"))
    assert json.loads(head)["file"] == "games/chicken.rules"
    result = invoke("replay", "bust.jsonl")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("compliant")


def test_replay_rules_by_name(elsewhere: Path) -> None:
    shutil.copy(ROOT / "examples" / "bust.jsonl", elsewhere / "bust.jsonl")
    result = invoke("replay", "bust.jsonl", "--rules", "chicken")
    assert result.exit_code == 0, result.output


def test_simulate_compare_and_compile_by_name(elsewhere: Path) -> None:
    sim = invoke("simulate", "chicken", "-n", "4", "-j", "1", "-q", "--json")
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.stdout)["games"] == 4
    cmp = invoke("compare", "chicken", "chicken-eggspansion", "-n", "4", "-j", "1", "-q", "--json")
    assert cmp.exit_code == 0, cmp.output
    assert json.loads(cmp.stdout)["b"]["name"] == "chicken-eggspansion"
    compiled = invoke("compile", "rule-the-roost")
    assert compiled.exit_code == 0, compiled.output
    assert compiled.stdout.startswith("rule-the-roost: compiled")


def test_games_lists_every_shipped_game_with_its_players() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for path in sorted((ROOT / "games").glob("*.rules")):
        model = load_game(path).model
        players = (f"{model.min_players} players" if model.min_players == model.max_players
                   else f"{model.min_players} to {model.max_players} players")
        line = next(line for line in lines if line.split()[0] == path.stem)
        assert f"{model.title}, {players}" in line, line


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.rules")), ids=lambda p: p.stem)
def test_the_cheap_scan_agrees_with_the_checked_model(path: Path) -> None:
    model = load_game(path).model
    info = describe(path)
    assert (info.title, info.min_players, info.max_players) == (model.title, model.min_players, model.max_players)


# ------------------------------------------------------------------ the wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``pip wheel .`` builds from this checkout."""
    out = tmp_path_factory.mktemp("wheel")
    isolation = ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else []
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", *isolation, "-w", str(out),
                           str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    (found,) = out.glob("rulelang-*.whl")
    return found


def test_the_wheel_holds_the_games_and_the_examples(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "rulelang/games/barnyard.rules" in names
    for path in (ROOT / "games").glob("*.rules"):
        assert f"rulelang/games/{path.name}" in names
    assert "rulelang/grammar/rulelang.lark" in names
    assert "rulelang/examples/near-the-end.position.json" in names
    assert "rulelang/examples/bust.jsonl" in names
    assert "rulelang/shipped.py" in names
    assert not any(n.endswith(".whl") or "__pycache__" in n for n in names)


@pytest.mark.skipif(os.environ.get("RULELANG_WHEEL") != "1",
                    reason="installs the wheel in a fresh virtualenv (about a minute): set RULELANG_WHEEL=1")
def test_the_installed_wheel_plays_a_shipped_game_anywhere(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    play = tmp_path / "play"
    play.mkdir()
    rulelang = str(venv / "bin" / "rulelang")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([rulelang, *args], cwd=play, env=env, capture_output=True, text=True, timeout=300)

    where = subprocess.run([str(python), "-c", "import rulelang, sys; print(rulelang.__file__)"], cwd=play, env=env,
                           capture_output=True, text=True, timeout=60)
    assert where.stdout.startswith(str(venv)), where.stdout  # the installed package, not this checkout
    played = run("run", "barnyard", "-q", "--seed", "1")
    assert played.returncode == 0, played.stderr
    here = CliRunner().invoke(main, ["run", str(ROOT / "games" / "barnyard.rules"), "-q", "--seed", "1"])
    assert played.stdout == here.stdout
    listed = run("games")
    assert listed.returncode == 0 and "Barnyard Roundup, 2 to 6 players" in listed.stdout
    assert str(venv) in listed.stdout
    variant = run("check", "barnyard-2p.rules")
    assert variant.returncode == 0, variant.stderr
    traced = run("run", "chicken", "--seed", "2", "-q", "--trace", "t.jsonl")
    assert traced.returncode == 0, traced.stderr
    replayed = run("replay", "t.jsonl")
    assert replayed.returncode == 0 and replayed.stdout.startswith("compliant"), replayed.stdout + replayed.stderr
