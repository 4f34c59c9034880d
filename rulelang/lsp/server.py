"""``rulelang lsp``: a language server for .rules files (pygls, the ``rulelang[lsp]`` extra).

Diagnostics come from :mod:`rulelang.lsp.analysis` (the checker's own messages) a moment
after each change; hover, go-to-definition, completion, the outline and formatting use
the last analysis of the buffer whose files all parsed.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from rulelang.errors import RulelangError
from rulelang.fmt import format_text
from rulelang.lsp.analysis import (
    Analyser,
    Analysis,
    Problem,
    Symbol,
    display_path,
    functions,
    keywords,
    local_binding,
    word_at,
)
from rulelang.safeio import check_rules_buffer
from rulelang.syntax.span import Span, source_line

DEBOUNCE_SECONDS = 0.03
"""How long the server waits after a change for the next one before it checks (a paste or a multi-cursor edit
comes as a burst of changes). A check is not delayed longer: a change that comes while one runs makes that one
stale (it publishes nothing) and is checked as soon as the worker is free."""

_COMPLETION_KIND = {
    "rule": types.CompletionItemKind.Function,
    "define": types.CompletionItemKind.Function,
    "zone": types.CompletionItemKind.Variable,
    "counter": types.CompletionItemKind.Variable,
    "option": types.CompletionItemKind.Constant,
    "attribute": types.CompletionItemKind.Property,
    "face": types.CompletionItemKind.EnumMember,
    "component": types.CompletionItemKind.Class,
    "sheet": types.CompletionItemKind.Struct,
}
_SYMBOL_KIND = {
    "rule": types.SymbolKind.Function,
    "define": types.SymbolKind.Function,
    "zone": types.SymbolKind.Variable,
    "counter": types.SymbolKind.Variable,
    "option": types.SymbolKind.Constant,
    "attribute": types.SymbolKind.Property,
    "face": types.SymbolKind.EnumMember,
    "component": types.SymbolKind.Class,
    "sheet": types.SymbolKind.Struct,
}


def _version() -> str:
    try:
        return version("rulelang")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


TEST_HOLD_VARIABLE = "RULELANG_LSP_TEST_HOLD"
"""Test-only: when this environment variable names a path, every check waits (at most 60 s) in the worker
until a file exists at that path, so that a test can send requests while a check is in flight."""


def _test_hold() -> None:
    hold = os.environ.get(TEST_HOLD_VARIABLE)
    if not hold:
        return
    deadline = time.monotonic() + 60
    while not os.path.exists(hold) and time.monotonic() < deadline:
        time.sleep(0.02)


class RulesServer(LanguageServer):
    """The language server, with the latest analysis of each open buffer.

    Checks run one at a time on a worker thread (each is bounded: see :mod:`rulelang.syntax.scan`), so the
    event loop keeps answering hover, completion and the rest from the last analysis; a check whose buffer
    has been edited again since it was asked for is dropped, and only the newest one's diagnostics are published.
    """

    def __init__(self) -> None:
        super().__init__("rulelang", _version(), text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}
        self.analysers: dict[str, Analyser] = {}  # what each buffer's checks reuse from its previous ones
        self.indexed: dict[str, Analysis] = {}  # the last analysis whose files all parsed
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.latest: dict[str, int] = {}  # the newest check asked for, per buffer
        self.checks = itertools.count(1)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulelang-check")

    def refresh(self, uri: str) -> None:
        """Check the buffer ``uri`` as it is now, off the event loop, and publish its diagnostics when done."""
        document = self.workspace.get_text_document(uri)
        fs_path = to_fs_path(uri) if uri.startswith("file:") else None
        path = Path(fs_path) if fs_path else None
        token = next(self.checks)
        self.latest[uri] = token
        asyncio.get_running_loop().create_task(self._check(uri, token, path, document.source, document.version))

    def _current(self, uri: str, token: int) -> bool:
        return self.latest.get(uri) == token

    def _analyse(self, uri: str, token: int, path: Path | None, text: str) -> Analysis | None:
        """Run in the worker: the analysis of ``text``, or None if a newer edit of the buffer came first."""
        _test_hold()
        if not self._current(uri, token):
            return None
        try:
            return self.analysers.setdefault(uri, Analyser()).analyse(path, text)
        except Exception as exc:  # a bug in rulelang must not stop the server: say so where the user looks
            self.analysers.pop(uri, None)  # (and nothing it kept is trusted again)
            message = f"rulelang could not check this file (internal error: {type(exc).__name__}: {exc})"
            return Analysis(display_path(path), (Problem(message + "\nhint: please report it", None, "error"),), None)

    async def _check(self, uri: str, token: int, path: Path | None, text: str, version: int | None) -> None:
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self.worker, self._analyse, uri, token, path, text)
        if result is None or not self._current(uri, token):
            return  # stale: a newer check of this buffer publishes instead
        self.analyses[uri] = result
        if result.symbols is not None:
            self.indexed[uri] = result
        diagnostics = [_diagnostic(p) for p in result.problems]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    def forget(self, uri: str) -> None:
        """Drop what is known of a closed buffer (a check still running for it publishes nothing)."""
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.latest.pop(uri, None)
        self.analyses.pop(uri, None)
        self.indexed.pop(uri, None)
        self.analysers.pop(uri, None)

    def refresh_later(self, uri: str) -> None:
        """Analyse the buffer after a short pause, once typing stops."""
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.latest[uri] = next(self.checks)  # a check already running for an older text is stale now

        async def later() -> None:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            self.pending.pop(uri, None)
            self.refresh(uri)

        self.pending[uri] = asyncio.get_running_loop().create_task(later())


server = RulesServer()


def _lsp_position(span_file: str, line: int, col: int) -> types.Position:
    """A 1-based line and character column as an LSP position (0-based, UTF-16 code units)."""
    text = source_line(span_file, line) or ""
    prefix = text[: max(0, col - 1)]
    return types.Position(line=max(0, line - 1), character=len(prefix.encode("utf-16-le")) // 2)


def _range(span: Span) -> types.Range:
    return types.Range(start=_lsp_position(span.file, span.line, span.col),
                       end=_lsp_position(span.file, span.end_line, span.end_col))


def _first_line_range(span: Span) -> types.Range:
    """The range of a span, cut at the end of its first line (where ``rulelang check`` puts its caret)."""
    if span.end_line == span.line:
        return _range(span)
    end_col = len((source_line(span.file, span.line) or "").rstrip()) + 1
    return _range(Span(span.file, span.line, span.col, span.line, max(end_col, span.col + 1)))


def _diagnostic(problem: Problem) -> types.Diagnostic:
    severity = types.DiagnosticSeverity.Warning if problem.severity == "warning" else types.DiagnosticSeverity.Error
    message = problem.message
    where = problem.span or problem.anchor
    if problem.span is None and problem.elsewhere is not None:
        message = f"{problem.elsewhere}: {message}"
    rng = _first_line_range(where) if where is not None else types.Range(start=types.Position(line=0, character=0),
                                                             end=types.Position(line=0, character=1))
    related = None
    if problem.span is None and problem.elsewhere is not None:
        related = [types.DiagnosticRelatedInformation(
            location=types.Location(uri=_uri_of(problem.elsewhere.file), range=_range(problem.elsewhere)),
            message=problem.message.split("\n", 1)[0])]
    return types.Diagnostic(range=rng, message=message, severity=severity, source="rulelang",
                            related_information=related)


def _uri_of(display: str) -> str:
    """The URI of a file named as the loader shows it (relative to the working directory, or absolute)."""
    return from_fs_path(str((Path.cwd() / display).resolve())) or display


def _symbol_uri(uri: str, analysis: Analysis, symbol: Symbol) -> str:
    return uri if symbol.span.file == analysis.display else _uri_of(symbol.span.file)


def _word(ls: RulesServer, uri: str, position: types.Position) -> str | None:
    document = ls.workspace.get_text_document(uri)
    lines = document.lines
    if position.line >= len(lines):
        return None
    line = lines[position.line].rstrip("\r\n")
    units = 0
    col = len(line)
    for index, char in enumerate(line):
        if units >= position.character:
            col = index
            break
        units += len(char.encode("utf-16-le")) // 2
    return word_at(line, col)


def _lookup(ls: RulesServer, uri: str, position: types.Position) -> tuple[Analysis, tuple[Symbol, ...]] | None:
    analysis = ls.indexed.get(uri)
    name = _word(ls, uri, position)
    if analysis is None or analysis.symbols is None or name is None:
        return None
    symbols = analysis.symbols.get(name)
    return (analysis, symbols) if symbols else None


def _hover_text(symbol: Symbol) -> str:
    parts = [f"```rules\n{symbol.declaration}\n```", f"*{symbol.kind}* `{symbol.name}`"
             + (f": {symbol.doc}" if symbol.doc else "")]
    if symbol.comment:
        parts.append(symbol.comment)
    parts.append(f"declared at {symbol.span}")
    return "\n\n".join(parts)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
    """Check a buffer as soon as it opens."""
    ls.refresh(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
    """Check a buffer once typing pauses."""
    ls.refresh_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams) -> None:
    """Check every open buffer again when one is saved (it may be the base another one extends)."""
    saved = params.text_document.uri
    for uri in [saved] + [u for u in ls.analyses if u != saved]:
        ls.refresh(uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget a closed buffer and clear its diagnostics."""
    uri = params.text_document.uri
    ls.forget(uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _local(ls: RulesServer, uri: str, position: types.Position) -> tuple[int, int, int, str] | None:
    """The binding of the local name under the cursor (line, start, end, the binding line), UTF-16 columns."""
    name = _word(ls, uri, position)
    if name is None:
        return None
    lines = [line.rstrip("\r\n") for line in ls.workspace.get_text_document(uri).lines]
    found = local_binding(lines, position.line, name)
    if found is None:
        return None
    number, start, end = found
    text = lines[number]

    def units(col: int) -> int:
        return len(text[:col].encode("utf-16-le")) // 2

    return number, units(start), units(end), text.strip()


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
    """The declaration and documentation of the name under the cursor."""
    local = _local(ls, params.text_document.uri, params.position)
    if local is not None:
        name = _word(ls, params.text_document.uri, params.position)
        value = f"```rules\n{local[3]}\n```\n\n*local* `{name}`, bound on line {local[0] + 1}"
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value))
    found = _lookup(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    _analysis, symbols = found
    text = "\n\n---\n\n".join(_hover_text(s) for s in reversed(symbols))
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulesServer, params: types.DefinitionParams) -> list[types.Location] | None:
    """Where the name under the cursor is declared (a variant's override first, then the base's) or bound."""
    local = _local(ls, params.text_document.uri, params.position)
    if local is not None:
        line, start, end, _text = local
        return [types.Location(uri=params.text_document.uri, range=types.Range(
            start=types.Position(line=line, character=start), end=types.Position(line=line, character=end)))]
    found = _lookup(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    analysis, symbols = found
    return [types.Location(uri=_symbol_uri(params.text_document.uri, analysis, s), range=_range(s.span))
            for s in reversed(symbols)]


@server.feature(types.TEXT_DOCUMENT_COMPLETION)
def completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
    """The game's declared names, the built-in functions and the keywords."""
    items: list[types.CompletionItem] = []
    analysis = ls.indexed.get(params.text_document.uri)
    if analysis is not None and analysis.symbols is not None:
        for name, symbols in sorted(analysis.symbols.items()):
            symbol = symbols[-1]
            items.append(types.CompletionItem(
                label=name, kind=_COMPLETION_KIND.get(symbol.kind, types.CompletionItemKind.Text),
                detail=symbol.kind + (f": {symbol.doc}" if symbol.doc else ""), sort_text=f"0{name}"))
    items += [types.CompletionItem(label=f, kind=types.CompletionItemKind.Function, detail="built-in",
                                   sort_text=f"1{f}") for f in functions()]
    items += [types.CompletionItem(label=k, kind=types.CompletionItemKind.Keyword, sort_text=f"2{k}")
              for k in keywords()]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: RulesServer, params: types.DocumentSymbolParams) -> list[types.SymbolInformation]:
    """The outline of a buffer: its own declarations."""
    uri = params.text_document.uri
    analysis = ls.indexed.get(uri)
    if analysis is None or analysis.symbols is None:
        return []
    return [types.SymbolInformation(name=s.name, kind=_SYMBOL_KIND.get(s.kind, types.SymbolKind.Variable),
                                    location=types.Location(uri=uri, range=_range(s.span)))
            for symbols in analysis.symbols.values() for s in symbols if s.span.file == analysis.display]


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: RulesServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    """The whole buffer in the canonical layout of ``rulelang fmt`` (nothing if it does not parse)."""
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    try:
        check_rules_buffer(document.source, "buffer.rules")  # as large a buffer as the CLI would read, no more
        new = format_text(document.source, ls.analyses[uri].display if uri in ls.analyses else "buffer.rules")
    except RulelangError:
        return None
    if new == document.source:
        return []
    end = types.Position(line=len(document.lines), character=0)
    return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=new)]


def serve() -> None:
    """Run the server over standard input and output until the editor closes it."""
    server.start_io()
