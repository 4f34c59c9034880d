"""Shared fixtures: the two Chicken! engines (loaded once, P1 starts), the scripting helper, and
``at_root`` (a module that runs games and traces by their ``games/...`` paths uses it with
``pytestmark = pytest.mark.usefixtures("at_root")``)."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

# The user's cache (the parser's tables) goes to a directory of this run, never to ~/.cache; subprocesses inherit it.
_CACHE = tempfile.mkdtemp(prefix="rulelang-test-cache-")
os.environ["RULELANG_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

from scripted import CHICKEN, EGGSPANSION, ROOT, load  # noqa: E402


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository root (games/ lives here)."""
    return ROOT


@pytest.fixture(scope="session")
def chicken():
    """The base game, P1 starts."""
    return load(CHICKEN)


@pytest.fixture(scope="session")
def eggspansion():
    """Chicken! with the Eggspansion!, P1 starts."""
    return load(EGGSPANSION)


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test in the repository root (returned): traces name their game as ``games/...``, relative to it."""
    monkeypatch.chdir(ROOT)
    return ROOT
