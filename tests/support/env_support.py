"""What the environment adapters' tests share: the games they run and how many play each."""

from __future__ import annotations

from pathlib import Path

from rulelang import load_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.rules"))  # every game, including ones added later
CHICKEN = ROOT / "games" / "chicken.rules"
ROOST = ROOT / "games" / "rule-the-roost.rules"


def players_for(path: Path) -> int:
    """How many play ``path`` in the adapters' API tests: three, or fewer if the game takes fewer."""
    return min(3, load_game(path).model.max_players)
