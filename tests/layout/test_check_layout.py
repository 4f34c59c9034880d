"""The layout of rulelang/check/: modules by job, the common part at the bottom (circles, private imports, sizes
and docstrings: test_layering.py)."""

from __future__ import annotations

from pathlib import Path

from layout_support import imports, modules

import rulelang
from rulelang.check.checker import Checker

PACKAGE = Path(rulelang.__file__).parent


def test_the_common_part_of_the_checker_is_the_bottom_of_its_layering() -> None:
    edges = imports(modules())[0]
    assert {d for d in edges["rulelang.check.common"] if d.startswith("rulelang.check")} <= {"rulelang.check.model"}


def test_the_checker_is_made_of_one_part_per_job() -> None:
    homes = {name: getattr(Checker, name).__module__ for name in
             ("collect", "expr", "query", "iterable", "block", "check_triggers", "check_ranking", "drop_out", "check")}
    assert homes == {
        "collect": "rulelang.check.declarations",
        "expr": "rulelang.check.expressions",
        "query": "rulelang.check.queries",
        "iterable": "rulelang.check.queries",
        "block": "rulelang.check.statements",
        "check_triggers": "rulelang.check.triggers",
        "check_ranking": "rulelang.check.scoring",
        "drop_out": "rulelang.check.rounds",
        "check": "rulelang.check.checker",
    }
