"""Division and remainder written inline (``a // b``, ``a % b``) where the operands are whole numbers.

The generator writes ``/`` and ``%`` as Python's own operators when the left side is
always whole (counts, whole constants, ``players`` and their sums, differences and
products) and the right side a positive whole constant; elsewhere it calls
``runtime.div``/``runtime.mod``, where the language's meaning is defined. Both must
give the same numbers, negative ones included (whole-number division is floor division).
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from rulelang import load_game
from rulelang.compile.runtime import div, mod

CASES = [  # (expression, uses the operators inline); the pot holds 6 beans, 3 players play
    ("count(all in pot) / 4", True),
    ("count(all in pot) % 4", True),
    ("(count(all in pot) - 11) / 4", True),
    ("(count(all in pot) - 11) % 4", True),
    ("(players * 2 - count(all in pot) - 3) / 2", True),
    ("count(all in pot) / players", False),
    ("fraction(count(all in pot), 4) / 1", False),
]


@pytest.mark.parametrize(("expr", "inline"), CASES)
def test_inline_division_gives_what_div_gives(expr: str, inline: bool, tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(f"""game "T"
players 3 to 3 default 3

6 Bean tokens

zone pot

counter result = 0

setup:
  move all from box to pot

turn:
  set result to {expr}
  end game

rank p by highest result
""", encoding="utf-8")
    engine = load_game(path)
    source = engine.program.generated.source
    assert bool(re.search(r" (//|%) [0-9]+\)", source)) == inline
    assert ("div(" in source or "mod(" in source) == (not inline)
    st = engine.new_state(3)
    n, players = 6, 3
    want = {
        "count(all in pot) / 4": div(n, 4, None), "count(all in pot) % 4": mod(n, 4, None),
        "(count(all in pot) - 11) / 4": div(n - 11, 4, None), "(count(all in pot) - 11) % 4": mod(n - 11, 4, None),
        "(players * 2 - count(all in pot) - 3) / 2": div(players * 2 - n - 3, 2, None),
        "count(all in pot) / players": div(n, players, None),
        "fraction(count(all in pot), 4) / 1": Fraction(3, 2),
    }[expr]
    assert st.over
    assert st.counters[0] == want
