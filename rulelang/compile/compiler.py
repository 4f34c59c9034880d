"""The entry of the compile stage: a checked model in, a Program out.

The rules, and what a decision reads, run as Python written by one translation (exprs.py,
queries.py, labels.py, codegen.py); the static analyses they share are in analysis.py.
"""

from __future__ import annotations

from rulelang.check import model as m
from rulelang.compile.codegen import compile_program
from rulelang.compile.program import Program
from rulelang.compile.runtime import player_label

__all__ = ["compile_model", "player_label"]


def compile_model(model: m.Model) -> Program:
    """Compile a checked model into a Program (its rules run as generated Python: see codegen.py)."""
    return compile_program(model)
