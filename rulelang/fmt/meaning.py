"""Whether two parsed files say the same thing: their ASTs equal once places are ignored."""

from __future__ import annotations

from typing import Any

import attrs
from lark import Token, Tree

from rulelang.syntax.span import Span


def shape(node: Any) -> Any:
    """A comparable value for an AST node: its class and fields, recursively, without spans or paths."""
    if isinstance(node, Span):
        return None
    if attrs.has(type(node)):
        return (type(node).__name__,) + tuple(
            (f.name, shape(getattr(node, f.name)))
            for f in attrs.fields(type(node))
            if not f.name.endswith("span") and f.name != "path"
        )
    if isinstance(node, Tree):  # a construct the AST builder leaves as a parse tree
        return ("Tree", str(node.data), shape(node.children))
    if isinstance(node, Token):
        return ("Token", node.type, str(node))
    if isinstance(node, tuple | list):
        return tuple(shape(v) for v in node)
    return node


def same_meaning(a: Any, b: Any) -> bool:
    """True if the two ASTs differ only in their source places."""
    return shape(a) == shape(b)
