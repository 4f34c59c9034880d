"""Shared fixtures: the two Chicken! engines (loaded once, P1 starts) and the scripting helper."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

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
