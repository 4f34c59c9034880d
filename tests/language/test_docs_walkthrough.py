"""docs/language.md: the "writing a new game" walk-through is a game that checks, plays as shown, simulates."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from rulelang.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "language.md"


def _walkthrough() -> tuple[str, list[str]]:
    """(the game's text, the shell session) of the walk-through section."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Writing a new game", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    game = "\n".join(b for b in blocks if not b.startswith("$"))
    (session,) = [b for b in blocks if b.startswith("$")]
    return game, session.splitlines()


def test_the_walkthrough_game_checks_plays_as_shown_and_simulates(tmp_path: Path) -> None:
    game, session = _walkthrough()
    path = tmp_path / "pig.rules"
    path.write_text(game, encoding="utf-8")
    runner = CliRunner()
    check = runner.invoke(main, ["check", str(path)])
    assert check.exit_code == 0, check.stderr
    assert check.stdout.replace(str(path), "pig.rules").strip() == session[1]
    run = runner.invoke(main, ["run", str(path), "--seed", "2"])
    assert run.exit_code == 0, run.stderr
    shown = session[session.index("$ rulelang run pig.rules --seed 2") + 1:]
    shown = shown[:next(i for i, line in enumerate(shown) if line.startswith("$"))]
    out = run.stdout.splitlines()
    at = 0
    for line in shown:  # the lines shown appear in this order ("..." skips some)
        if line.strip() == "...":
            continue
        at = out.index(line, at) + 1
    simulate = runner.invoke(main, ["simulate", str(path), "-n", "50"])
    assert simulate.exit_code == 0, simulate.stderr
    assert "P1 wins" in simulate.stdout
