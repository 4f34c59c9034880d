"""Small functions on the Python source the generator writes (and the tables it writes with it):
rewrites of a test's text, what a text may call, a helper's prologue.

They read and rewrite generated text only, never a rules file's; see exprs.py and codegen.py for
what writes that text.
"""

from __future__ import annotations

import ast
import re
from typing import Any


def owned_piles(texts: list[str], piles: list[tuple[str, str]], v: str,
                consts: dict[str, Any]) -> tuple[list[str], list[tuple[str, str]], list[str]] | None:
    """``texts`` reading the piles (``name = src``, see ``piles.class_zone``) on the value ``v`` with no
    check, for when ``v`` owns them all: (texts, piles, the sets of owners to check); None: no such piles."""
    masks: dict[str, str] = {}  # a table's contents -> its name
    plain = []
    for name, src in piles:
        head, sep, owns = src.partition(" if ")
        mask = owns.removesuffix(" else None").removesuffix(f"[{v}]")
        if not sep or owns != f"{mask}[{v}] else None" or mask not in consts:
            return None
        if f"{mask}s" not in consts:  # the components that own such a pile
            consts[f"{mask}s"] = frozenset(i for i, owns in enumerate(consts[mask]) if owns)
        masks.setdefault(repr(consts[mask]), f"{mask}s")
        texts = [unguarded(t, name) for t in texts]
        if sum(len(re.findall(rf"\b{name}\b", t)) for t in texts) == 1:  # read once: looked up there
            texts = [re.sub(rf"\b{name}\b", lambda _m, head=head: head, t) for t in texts]
        else:
            plain.append((name, head))
    return (texts, plain, list(masks.values())) if masks else None


def unguarded(text: str, name: str) -> str:
    """``text`` with each ``(name if name is not None else SLOW)`` read as ``name``."""
    head = f"({name} if {name} is not None else "
    out = []
    at = 0
    while (i := text.find(head, at)) >= 0:
        depth, j = 1, i + 1
        while depth:
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
            j += 1
        out.append(text[at:i] + name)
        at = j
    return "".join(out) + text[at:]


_SAFE_CALLS = frozenset({"isdisjoint", "issuperset", "len", "bool", "sum", "map", "any", "all", "sorted", "set",
                         "frozenset", "min", "max", "abs", "range", "count", "intersection"})


KEYWORDS_NOT_CALLS = True
"""Whether ``cannot_fail`` reads a keyword before a parenthesis (``a and (b)``, ``not (x)``) as the keyword it
is, not as a call of something unknown that might fail; the equivalence tests turn it off to compare."""

_KEYWORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "for", "lambda"})


def cannot_fail(text: str) -> bool:
    """Whether generated source calls nothing but builtins and methods that cannot raise a rules error
    (no helper, no check of a seat or a pile, no division): computing it or not changes nothing but time."""
    names = re.findall(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(", text)
    if KEYWORDS_NOT_CALLS:
        return all(name in _SAFE_CALLS or name in _KEYWORDS for name in names)
    return all(name in _SAFE_CALLS for name in names)


def one_group(text: str) -> bool:
    """Whether ``text`` is one parenthesized group: its first '(' closes at its last character."""
    if not text.startswith("("):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


def inline_single_piles(texts: list[str], piles: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """Of the piles looked up before a test (``name = src``, see ``piles.class_zone``), those read only
    once in ``texts`` are looked up where they are read instead (so never when an earlier part of the test
    is false); returns the texts and the piles still looked up before."""
    kept = []
    for name, src in piles:
        use = f"({name} if {name} is not None else "
        if src.endswith(" else None") and sum(t.count(use) for t in texts) == 1 \
                and sum(len(re.findall(rf"\b{name}\b", t)) for t in texts) == 2:
            texts = [t.replace(use, f"({src[:-len(' else None')]} else ") for t in texts]
        else:
            kept.append((name, src))
    return texts, kept


def same_by_face(rows: list[list[Any]]) -> list[Any] | None:
    """Rows of values by face + 1 (index 0: no face) that are the same for every component: one row
    by face (index -1, the last: no face, as the faces list has -1 for it); None if they differ."""
    if not rows or any(row != rows[0] for row in rows):
        return None
    return rows[0][1:] + rows[0][:1]


_MASKED = re.compile(r"\[(_c\d+) for \1 in (.+) if (mk\d+)\[\1\]\]")
_FILTERED = re.compile(r"\[\*filter\((mk\d+)\.__getitem__, (.+)\)\]")


def masked_zone(source: str) -> tuple[str, str] | None:
    """(zone, mask) of the source ``[c for c in ZONE if MASK[c]]`` (or ``[*filter(MASK.__getitem__, ZONE)]``)
    of one zone's components passing a mask (as ``selection`` writes it), or None for any other source."""
    found = _MASKED.fullmatch(source)
    if found is not None:
        if found.group(2).count("[") - found.group(2).count("]") != 0:
            return None
        return found.group(2), found.group(3)
    found = _FILTERED.fullmatch(source)
    if found is None or not _balanced(found.group(2)):
        return None
    return found.group(2), found.group(1)


def _balanced(source: str) -> bool:
    """Whether the brackets and parentheses of ``source`` (generated code, no strings) close in order, none
    left open and none closed that it did not open: one expression, not the end of one and the start of
    the next."""
    depth = 0
    for ch in source:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def check_no_loop_vars(lines: list[tuple[int, str, Any]], loop_vars: dict[int, str]) -> None:
    """A helper function must not read a loop variable of the block being written (it would not see it)."""
    names = set(loop_vars.values())
    for _ind, text, _span in lines:
        if names.intersection(re.findall(r"_v[0-9]+", text)):
            raise AssertionError(f"a helper function reads a loop variable of its caller: {text}")


SEATS_IN_NOW = "(SEATS_IN.get(tuple(st.out)) or players_in(st.out))"
"""Source of the players still in: a tuple kept by the values of ``st.out`` (see ``runtime.seats_in``)."""

SEATS_KEPT = "_seats_in"
"""A block's variable for the players still in (see ``seats_once``); generated names are never spelt so."""


def seats_once(lines: list[tuple[int, str, Any]]) -> list[tuple[int, str, Any]]:
    """A block's lines (at indentation 1 and deeper) with the players still in looked up once, where the block
    begins, and again after each drop out, instead of at each use, where it uses them more than once: a drop
    out (``drop_out``) is the only statement of generated code that changes ``st.out``, so each use reads the
    same tuple it would have looked up."""
    if sum(text.count(SEATS_IN_NOW) for _i, text, _sp in lines) < 2:
        return lines
    out = [(1, f"{SEATS_KEPT} = {SEATS_IN_NOW}", None)]
    for ind, text, sp in lines:
        out.append((ind, text.replace(SEATS_IN_NOW, SEATS_KEPT), sp))
        if "drop_out(" in text:
            out.append((ind, f"{SEATS_KEPT} = {SEATS_IN_NOW}", sp))
    return out


ZONE_LOCALS = True
"""Whether generated functions read each zone table they use more than once through a local (see
``zone_locals``); the equivalence tests turn it off to compare with the code that reads ``Z[n]`` at each use."""

_ZONE_TABLE = re.compile(r"\bZ\[([0-9]+)\]")


def zone_locals(lines: list[tuple[int, str, Any]], ind: int) -> list[tuple[int, str, Any]]:
    """A function's lines with each zone table ``Z[n]`` read inside a loop (its body, or a ``while`` test) looked up
    once, just before the outermost loop that reads it, into a local ``Z_n``, which the reads inside that loop use.

    The same lists are read: ``st.zones`` keeps one list per zone for the life of a state (set when the state
    is made, then changed in place: generated code and the runtime move components within the lists and never
    store a new list into ``st.zones[n]``), and ``n`` is a zone's index, so the lookup cannot fail; it is made
    where the loop begins, so every read of ``Z_n`` follows it. (``ind``: the indentation of the function's body.)"""
    if not ZONE_LOCALS:
        return lines
    out: list[tuple[int, str, Any]] = []
    at = 0
    while at < len(lines):
        i, text, sp = lines[at]
        if not text.startswith(("for ", "while ")):
            out.append(lines[at])
            at += 1
            continue
        end = at + 1
        while end < len(lines) and lines[end][0] > i:
            end += 1
        inside = [text] if text.startswith("while ") else []  # a 'while' test is read at every pass
        inside += [t for _i, t, _sp in lines[at + 1:end]]
        kept = sorted({n for t in inside for n in _ZONE_TABLE.findall(t)}, key=int)

        def local(found: re.Match, kept: list[str] = kept) -> str:
            return f"Z_{found.group(1)}" if found.group(1) in kept else found.group(0)

        out += [(i, f"Z_{n} = Z[{n}]", sp) for n in kept]
        out.append((i, _ZONE_TABLE.sub(local, text) if text.startswith("while ") else text, sp))
        out += [(j, _ZONE_TABLE.sub(local, t), s2) for j, t, s2 in lines[at + 1:end]]
        at = end
    return out


TRUTH_TESTS = True
"""Whether ``bool(x)`` is written ``(x)`` where only its truth is tested (see ``truth_tests``); the
equivalence tests turn it off to compare with the code that calls ``bool`` there."""

_TESTED = re.compile(r"(if|elif|while) (.*):")


def truth_tests(lines: list[tuple[int, str, Any]]) -> list[tuple[int, str, Any]]:
    """A function's lines with each ``bool(x)`` whose value is only tested for truth written ``(x)``: in the
    test of an ``if``, ``elif`` or ``while`` line, as it is, under ``not``, or as an operand of ``and``/``or``
    (or a branch of ``a if t else b``) that is itself only tested; and as the test of ``a if t else b``
    anywhere. ``x`` is tested for its truth either way, once, at the same point (``bool(a) and b`` and
    ``a and b`` are false together, and true together); elsewhere (compared, stored, returned) the call
    stays."""
    if not TRUTH_TESTS:
        return lines
    out = []
    for ind, text, sp in lines:
        found = _TESTED.fullmatch(text) if "bool(" in text else None
        if found is not None:
            text = f"{found.group(1)} {_untested_bools(found.group(2))}:"
        out.append((ind, text, sp))
    return out


def _untested_bools(test: str) -> str:
    """The expression ``test`` (tested for truth) with its calls ``bool(x)`` whose truth alone counts as ``(x)``."""
    try:
        tree = ast.parse(test, mode="eval")
    except SyntaxError:
        return test
    spans: list[tuple[int, int]] = []  # the offsets of each 'bool' name to drop

    def visit(node: ast.AST, tested: bool) -> None:
        if tested and type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == "bool" \
                and len(node.args) == 1 and not node.keywords and type(node.args[0]) is not ast.Starred:
            spans.append((node.func.col_offset, node.func.end_col_offset))
            visit(node.args[0], True)
            return
        if type(node) is ast.BoolOp:
            for value in node.values:
                visit(value, tested)
            return
        if type(node) is ast.UnaryOp and type(node.op) is ast.Not:
            visit(node.operand, True)
            return
        if type(node) is ast.IfExp:
            visit(node.test, True)
            visit(node.body, tested)
            visit(node.orelse, tested)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, False)

    visit(tree.body, True)
    if not test.isascii():  # offsets are of UTF-8 bytes: generated tests are ASCII (user text is in constants)
        return test
    for start, end in sorted(spans, reverse=True):
        test = test[:start] + test[end:]
    return test


def prologue(lines: list[tuple[int, str, Any]], ind: int) -> list[tuple[int, str, Any]]:
    """Local names for the state's tables, for those the body uses."""
    text = "\n".join(t for _i, t, _s in lines)
    out = []
    if "Z[" in text:
        out.append((ind, "Z = st.zones", None))
    if "C[" in text:
        out.append((ind, "C = st.counters", None))
    if "F[" in text:
        out.append((ind, "F = st.faces", None))
    return out


def last_n(out: list[int], n: int) -> list[int]:
    """The last ``n`` of a selection (none for n <= 0)."""
    return out[-n:] if n > 0 else []
