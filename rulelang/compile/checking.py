"""Compiling generated source only to learn whether it compiles, remembering the functions that did.

The language server compiles a game after every edit only for the errors Python's compiler may
raise (nesting too deep: see ``codegen.generate``); the code object is never run. A generated
module is a list of top-level functions, and whether one compiles depends on its own text alone,
so :class:`CheckingCompile` compiles only the functions it has not seen compile before, told apart
by their text with comment lines left out and the generator's numbered names (``_v12``, ``k3``,
``r2_5``: they shift when a statement is added above) renamed in order of appearance. Renaming
names consistently and dropping comment lines changes nothing a compiler refuses, as long as no
line is continued with a backslash and no string spans lines (the generator writes neither;
a module that has one is compiled whole). When any function fails, the whole module is compiled
with the built-in ``compile``, so the error raised (or not) is exactly the plain compile's.
"""

from __future__ import annotations

import re
from typing import Any

MAX_REMEMBERED = 5_000
"""Functions remembered at most (the largest shipped game compiles to 116, of about 2 kB each); past it the
memory starts afresh."""

_NUMBERED = re.compile(r"\b[A-Za-z_][A-Za-z_0-9]*[0-9]\b")
_TOP_LEVEL = re.compile(r"^(?=\S)", re.MULTILINE)
_COMMENT_LINE = re.compile(r"^[ \t]*#[^\n]*\n?", re.MULTILINE)


def compile_python(source: str, filename: str, mode: str) -> Any:
    """The built-in ``compile`` (for callers outside this package, which do not call it themselves)."""
    return compile(source, filename, mode)


def function_key(chunk: str) -> str:
    """The text of one top-level statement as remembered: comment lines out, numbered names renamed in order."""
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        found = names.get(m.group())
        if found is None:
            found = names[m.group()] = f"_q{len(names)}"
        return found

    return _NUMBERED.sub(rename, _COMMENT_LINE.sub("", chunk))


class CheckingCompile:
    """A ``compile_source`` for :func:`rulelang.compile.codegen.compile_model` that checks and returns None.

    It raises what ``compile(source, filename, "exec")`` raises; when that would succeed it returns None,
    compiling only the top-level functions whose key it has not seen compile. Not thread-safe: one per
    analyser."""

    def __init__(self) -> None:
        self.compiled: set[str] = set()  # keys (see function_key) of functions that compiled
        self.seen: set[str] = set()  # the very texts of functions whose key compiled (no key to compute)
        self.last_compiled = 0  # functions compiled by the last call (for the benchmark and tests)

    def __call__(self, source: str, filename: str, mode: str) -> None:
        """Check that ``source`` compiles (see the class); raise the built-in compile's error if it does not."""
        if mode != "exec" or "\\\n" in source or '"""' in source or "'''" in source:
            compile(source, filename, mode)  # not the generator's plain shape: the plain way
            self.last_compiled = -1
            return None
        starts = [m.start() for m in _TOP_LEVEL.finditer(source)] + [len(source)]
        texts = {source[a:b] for a, b in zip(starts, starts[1:])} - self.seen
        keys = {function_key(text) for text in texts}
        keys.discard("")
        new = [key for key in keys if key not in self.compiled]
        for key in new:
            try:
                compile(key, filename, "exec")
            except (SyntaxError, RecursionError, MemoryError, ValueError):
                compile(source, filename, mode)  # the whole module: the exact error a plain compile raises
                self.last_compiled = -1  # (and if it passes after all, so be it: the whole module is the truth)
                return None
        if len(self.compiled) + len(new) > MAX_REMEMBERED or len(self.seen) + len(texts) > MAX_REMEMBERED:
            self.compiled, self.seen = set(), set()
        self.compiled.update(new)
        self.seen.update(texts)
        self.last_compiled = len(new)
        return None
