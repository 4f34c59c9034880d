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

# The support modules (tests/support/: scripted, *_support) are imported by their names from every folder.
SUPPORT = Path(__file__).resolve().parent / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))

# The user's cache (the parser's tables) goes to a directory of this run, never to ~/.cache; subprocesses inherit it.
_CACHE = tempfile.mkdtemp(prefix="rulelang-test-cache-")
os.environ["RULELANG_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

from scripted import CHICKEN, EGGSPANSION, ROOT, load  # noqa: E402

_PATCHES: dict[str, bool] = {}


def _patches_code(module: object) -> bool:
    """Whether a test module patches anything (the code generator's switches, mostly): then its tests load
    games afresh, since load_game's kept engines were compiled without the patch."""
    path = getattr(module, "__file__", None) or ""
    if path not in _PATCHES:
        text = Path(path).read_text(encoding="utf-8") if path else ""
        _PATCHES[path] = "setattr(" in text or "mock.patch" in text
    return _PATCHES[path]


@pytest.fixture(autouse=True)
def _fresh_loads_where_code_is_patched(request: pytest.FixtureRequest):
    """Turn load_game's kept engines off (RULELANG_NO_CACHE) for the tests of a module that patches code."""
    if not _patches_code(request.module):
        yield
        return
    before = os.environ.get("RULELANG_NO_CACHE")
    os.environ["RULELANG_NO_CACHE"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("RULELANG_NO_CACHE", None)
        else:
            os.environ["RULELANG_NO_CACHE"] = before


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
