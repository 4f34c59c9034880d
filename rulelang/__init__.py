"""rulelang: write a tabletop game's rulebook once, then play, simulate and check it."""

from rulelang.engine.decision import Decision
from rulelang.engine.engine import Engine, IllegalAction
from rulelang.engine.state import State
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.rng import Rng

__all__ = ["Decision", "Engine", "ErrorList", "IllegalAction", "Rng", "RulelangError", "State", "load_game"]
__version__ = "0.1.0"
