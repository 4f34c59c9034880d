"""Text to Lark parse tree: the grammar, the indenter, and readable syntax errors."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.grammar import Rule
from lark.indenter import DedentError, Indenter
from lark.lexer import TerminalDef

from rulelang.errors import RulelangError
from rulelang.syntax.scan import scan_text
from rulelang.syntax.span import Span, register_source
from rulelang.usercache import read_entry, write_entry


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_text() -> str:
    """Return the text of ``rulelang.lark``, from the installed package or the source tree."""
    try:
        shipped = resources.files("rulelang").joinpath("grammar/rulelang.lark")
        if shipped.is_file():
            return shipped.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):  # pragma: no cover
        pass
    source_tree = Path(__file__).resolve().parents[2] / "grammar" / "rulelang.lark"
    return source_tree.read_text(encoding="utf-8")


_LARK_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": True,
    "maybe_placeholders": True,
    "start": ["start", "expr"],
}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, read back from the user's cache when it holds the tables of this grammar and Lark."""
    text = grammar_text()
    from rulelang.version import __version__

    parts = [text, lark.__version__, __version__, repr(sorted(_LARK_OPTIONS.items()))]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()
    name = f"parser-{key[:32]}.json"
    cached = read_entry(name, key)
    if cached is not None:
        try:
            return Lark._load_from_dict(_decode(cached["data"]), _decode(cached["memo"]), postlex=_RulesIndenter())
        except Exception:  # a damaged entry of the right shape: build the tables again
            pass
    parser = Lark(text, postlex=_RulesIndenter(), **_LARK_OPTIONS)
    write_entry(name, key, parser_tables(parser))
    return parser


def parser_tables(parser: Lark) -> dict[str, Any]:
    """The LALR parser as JSON data (Lark's own serialization, without the indenter, which is code)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
    return {"data": _encode(data), "memo": _encode(memo)}


def _encode(value: Any) -> Any:
    """Lark's serialized form as JSON: tuples and dicts are tagged, so that decoding gives back the same value."""
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {"s": {k: _encode(v) for k, v in value.items()}}
        return {"i": [[k, _encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__} in the parser tables")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        ((tag, inner),) = value.items()
        if tag == "s":
            return {k: _decode(v) for k, v in inner.items()}
        if tag == "i":
            return {k: _decode(v) for k, v in inner}
        if tag == "t":
            return tuple(_decode(v) for v in inner)
        raise ValueError(f"unknown tag {tag!r} in the cached parser tables")
    return value


_TOKEN_NAMES = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "NAME": "a name",
    "STRING": "a string",
    "INT": "a number",
    "COLON": "':'",
    "COMMA": "','",
    "LPAR": "'('",
    "RPAR": "')'",
    "EQUAL": "'='",
    "$END": "end of file",
    "ADD_OP": "'+=' or '-='",
    "ADD_SUB": "'+' or '-'",
    "COMP_OP": "a comparison",
    "MUL_DIV": "'*', '/' or '%'",
    "PLACE": "'at top' or 'at bottom'",
    "RANK_DIR": "'highest' or 'lowest'",
    "COMPONENT_CLASS": "dice, cards, tokens or pieces",
    "PER_PLAYER": "'per player'",
    "RANDOM_WORD": "'random'",
    "OVERRIDE": "'override'",
    "COUNTER_TYPE": "': TYPE' (number, text, kind, player or face)",
    "NO_KIND": "'no kind'",
    "NO_FACE": "'no face'",
    "BEST": "'best'",
}


def _describe_expected(expected: set[str]) -> str:
    names = sorted({_TOKEN_NAMES.get(e, e.lower().strip('"') if e.isupper() else e) for e in expected})
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names)


def parse_text(text: str, path: str, start: str = "start", offset: tuple[int, int] = (0, 0)) -> Tree:
    """Parse ``text`` (the contents of ``path``) into a Lark tree, or raise RulelangError."""
    if start == "start":
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        register_source(path, text)
    if start == "start" and not text.endswith("\n"):
        text += "\n"
    scan_text(text, path, offset)  # sizes only hostile input reaches are refused before the parser's slow work
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as exc:
        err = _syntax_error(exc, path, offset, text)
        if start == "start":
            err = _newcomer_slip(err, text) or err
        if start == "expr" and ("end of file" in err.message or "end of line" in err.message):
            err = RulelangError("the expression in {...} ends too early", err.span,
                                hint="complete the expression between the braces")
        elif start == "expr" and err.message.startswith("unexpected 'in'"):
            err = RulelangError(err.message + " inside {...}", err.span,
                                hint="a hole shows one value, not a query: a name, count(all in ZONE), "
                                     "any(K in ZONE) or sum(ATTR of all in ZONE)")
        raise err from None
    except DedentError:
        line = _dedent_line(text)
        raise RulelangError(
            "indentation does not match any outer block",
            Span(path, line, 1, line, 2),
            hint="indent a block by the same amount as the lines around it (spaces, not tabs)",
        ) from None
    check_nesting(tree, path, offset)
    return tree


MAX_NESTING = 100
"""How deeply blocks and expressions may nest (a chain of n operators counts n levels).

The shipped games nest 15 levels at most; the limit keeps every later stage (which walks
the rules recursively) far from Python's recursion limit."""

_CHAINS = frozenset({"or_expr", "and_expr", "sum_expr", "product", "comparison"})


def check_nesting(tree: Tree, path: str, offset: tuple[int, int] = (0, 0)) -> None:
    """Raise RulelangError at the first place where ``tree`` nests deeper than MAX_NESTING."""
    stack: list[tuple[Tree, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in _CHAINS:
            depth += max(1, sum(1 for c in node.children if isinstance(c, Tree)) - 1)  # k operands: k-1 levels
        else:
            depth += 1
        if depth > MAX_NESTING:
            meta = node.meta
            line = getattr(meta, "line", 1) + offset[0]
            col = getattr(meta, "column", 1) + (offset[1] if getattr(meta, "line", 1) == 1 else 0)
            raise RulelangError(
                f"the rules nest too deeply here (more than {MAX_NESTING} levels of blocks and expressions)",
                Span(path, line, col, line, col + 1),
                hint="split the rule into smaller rules or definitions, or a long sum into partial sums",
            )
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth))


_ELSE_IF = re.compile(r"^\s*else\s+if\b")
_ASSIGN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)(\s+of\s+[A-Za-z_][A-Za-z0-9_]*)?\s*=[^=]")
_STRING_IN_HOLE = re.compile(r'\{[^{}"]*"[^{}]*\}')
_ADD_TO = re.compile(r"^\s*(add|subtract)\s+(.+?)\s+(to|from)\s+(.+?)\s*(#.*)?$")
_RANKING_BLOCK = re.compile(r"^(ranking|rank|winner|scoring|score)\s*:")
# Words that start a statement since rounds and races were added: a rule or counter of that name now fails.
_NEW_KEYWORD = re.compile(r"^\s*(spin|drop)\s*($|\(|\+=|-=|#)")


def _newcomer_slip(err: RulelangError, text: str) -> RulelangError | None:
    """A clearer error for slips a newcomer makes (from other languages), or None."""
    if err.span is None:
        return None
    lines = text.splitlines()
    if not 1 <= err.span.line <= len(lines):
        return None
    line = lines[err.span.line - 1]
    here = Span(err.span.file, err.span.line, 1 + len(line) - len(line.lstrip(" \t")), err.span.line,
                1 + len(line.rstrip()))
    if _ELSE_IF.match(line):
        return RulelangError("'else if' is written 'elif'", here, hint="write: elif CONDITION:")
    found = _ASSIGN.match(line)
    if found and not line.lstrip().startswith(("let ", "option ", "attribute ", "counter ", "define ")):
        name = found.group(1) + (found.group(2) or "")
        hint = f"change a counter with 'set {name} to ...' (or '+=', '-=')"
        if not found.group(2):
            hint += f"; name a value with 'let {name} = ...'"
        return RulelangError(f"'{name} = ...' is not a statement", here, hint=hint)
    found = _NEW_KEYWORD.match(line)
    if found:
        word = found.group(1)
        return RulelangError(f"'{word}' starts a statement ('{'spin QUERY' if word == 'spin' else 'drop out PLAYER'}')",
                             here, hint=f"a rule or counter named '{word}' needs another name: rename it "
                                        f"(e.g. '{word}_it') where it is declared and used")
    found = _ADD_TO.match(line)
    if found and (found.group(1), found.group(3)) in (("add", "to"), ("subtract", "from")):
        op = "+=" if found.group(1) == "add" else "-="
        return RulelangError(f"'{found.group(1)} ... {found.group(3)} ...' is not a statement", here,
                             hint=f"write: {found.group(4)} {op} {found.group(2)}")
    if _RANKING_BLOCK.match(line) and err.span.line == here.line:
        return RulelangError("who wins is said by one 'rank' line", here,
                             hint="write: rank p by highest score of p (keys joined with ', then')")
    if _STRING_IN_HOLE.search(line):
        return RulelangError("a string cannot go inside {...}", here,
                             hint="put the text outside the braces, or name the value with 'let' first")
    return None


def _dedent_line(text: str) -> int:
    """Find the first line whose indentation matches no open block."""
    stack = [0]
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        width = len(raw.expandtabs(4)) - len(stripped)
        if width > stack[-1]:
            stack.append(width)
            continue
        while width < stack[-1]:
            stack.pop()
        if width != stack[-1]:
            return number
    return 1


def _indented_line(text: str, after: int) -> tuple[int, int]:
    """The first line with code after line ``after``, and the column its code starts at."""
    lines = text.split("\n")
    for number in range(after + 1, len(lines) + 1):
        raw = lines[number - 1]
        stripped = raw.lstrip(" \t")
        if stripped and not stripped.startswith("#"):
            return number, len(raw) - len(stripped) + 1
    return after, 1


def _syntax_error(exc: UnexpectedInput, path: str, offset: tuple[int, int], text: str = "") -> RulelangError:
    line = (exc.line if exc.line and exc.line > 0 else 1) + offset[0]
    col = (exc.column if exc.column and exc.column > 0 else 1) + (offset[1] if exc.line == 1 else 0)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "_INDENT" and offset == (0, 0) and text:
        line, col = _indented_line(text, line)
        return RulelangError("unexpected indentation", Span(path, line, 1, line, col),
                             hint="this line is indented more than the line before it")
    if isinstance(exc, UnexpectedCharacters):
        char = exc.char
        if char == '"':
            return RulelangError(
                "unterminated string", Span(path, line, col, line, col + 1),
                hint='close the string with " on the same line',
            )
        return RulelangError(
            f"unexpected character {char!r}",
            Span(path, line, col, line, col + 1),
            hint="names are letters, digits and '_'; strings use double quotes",
        )
    if isinstance(exc, UnexpectedEOF):
        return RulelangError(
            "unexpected end of file",
            Span(path, line, col, line, col + 1),
            hint=f"expected {_describe_expected(set(exc.expected))}",
        )
    assert isinstance(exc, UnexpectedToken)
    tok: Token = exc.token
    if tok.type == "$END":
        what = "end of file"
    elif tok.type == "_NL":
        what = "end of line"
    elif tok.type == "_INDENT":
        what = "an indented block"
    elif tok.type == "_DEDENT":
        what = "end of block"
    else:
        what = repr(str(tok))
    width = max(1, len(str(tok))) if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") else 1
    hint = f"expected {_describe_expected(set(exc.expected))}"
    if "_INDENT" in exc.expected:
        hint = "a line ending in ':' must be followed by an indented block"
    elif tok.type == "_INDENT":
        hint = "this line is indented more than the line before it"
    return RulelangError(
        f"unexpected {what}",
        Span(path, line, col, line, col + width),
        hint=hint,
    )
