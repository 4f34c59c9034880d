"""rulelang: write a tabletop game's rulebook once, then play, simulate and check it."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from rulelang.version import __version__

if TYPE_CHECKING:
    from rulelang.engine.decision import Decision
    from rulelang.engine.engine import Engine, IllegalAction
    from rulelang.engine.state import State
    from rulelang.errors import ErrorList, RulelangError
    from rulelang.game import load_game
    from rulelang.rng import Rng

__all__ = ["__version__", "Decision", "Engine", "ErrorList", "IllegalAction", "Rng", "RulelangError", "State",
           "load_game"]

# Where each public name lives: imported on first use, so that importing a light submodule (the command
# line, for --help) does not load the engine, the checker and the code generator.
_HOMES = {
    "Decision": "rulelang.engine.decision",
    "Engine": "rulelang.engine.engine",
    "IllegalAction": "rulelang.engine.engine",
    "State": "rulelang.engine.state",
    "ErrorList": "rulelang.errors",
    "RulelangError": "rulelang.errors",
    "load_game": "rulelang.game",
    "Rng": "rulelang.rng",
}


def __getattr__(name: str) -> Any:
    """The public names of the package, imported on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's names, the lazily imported ones included."""
    return sorted(set(globals()) | set(__all__))
