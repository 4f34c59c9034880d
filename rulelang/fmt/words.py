"""The language's keywords, read from the grammar text (so words added to the grammar are known at once)."""

from __future__ import annotations

import re
from functools import lru_cache

from rulelang.syntax.parser import grammar_text


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every reserved word: the grammar's quoted words and the words of its word-only terminals."""
    text = grammar_text()
    words = set(re.findall(r'"([a-z]+)"', text))
    for line in text.splitlines():
        m = re.match(r"\s*[A-Z_]+(?:\.\d+)?\s*:\s*/(.*)/\s*$", line)
        if m and "(?=" not in m.group(1) and m.group(1)[:1].isalpha():
            # (a terminal read only in a context, 'best' before 'NAME in' or ': kind', reserves no word)
            words |= set(re.findall(r"[a-z]{2,}", m.group(1)))
    return frozenset(words)


@lru_cache(maxsize=1)
def call_keywords() -> frozenset[str]:
    """Keywords written like a call, directly followed by '(' in the grammar (``count(...)``)."""
    return frozenset(re.findall(r'"([a-z]+)"\s+"\("', grammar_text()))


@lru_cache(maxsize=1)
def symbols() -> tuple[str, ...]:
    """The grammar's punctuation and operators (``==``, ``+=``, ``(``, ...), longest first."""
    text = re.sub(r"(?m)^\s*//.*$", "", grammar_text())  # comments
    text = re.sub(r"/(?:[^/\\\n]|\\.)+/", "", text)  # regular expressions
    found = set(re.findall(r'"([^"\w\s]+)"', text))
    return tuple(sorted(found, key=lambda s: (-len(s), s)))
