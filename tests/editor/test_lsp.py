"""`rulelang lsp`, driven over its protocol: the server runs as a subprocess (`python -m rulelang lsp`).

Diagnostics are the checker's messages at the checker's places, as typed (unsaved text);
hover, go-to-definition, completion, the outline and formatting answer from the buffer.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game

try:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path
except ImportError:  # the rulelang[lsp] extra is not installed: the protocol tests skip
    HAVE_PYGLS = False
else:
    HAVE_PYGLS = True

needs_pygls = pytest.mark.skipif(not HAVE_PYGLS, reason="pygls is not installed (pip install 'rulelang[lsp]')")

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 30.0

BASE = """\
# A tiny game to edit.
game "Roll High"
players 2 to 2

option target = 10 "points to win"
attribute pips = 0

face One: pips 1
face Two: pips 2

# The only die.
1 Red die "red die": One, Two, One, Two, One, Two

counter score per player = 0 "points"

zone middle "the middle"  # where the die is rolled

define total_pips = sum(pips of all in middle)

setup:
  move all from box to middle

turn:
  roll all in middle
  add_up

rule add_up "Add the pips to the score":
  score of current += total_pips
  bonus(1)

rule bonus(n: number) "Everyone scores n, twice":
  let twice = n * 2
  for q in players:
    score of q += twice

when score of current >= target "a player reaches the target":
  end game

rank p by highest score of p
"""

VARIANT = """\
game "Roll Higher" extends "base.rules"

override rule add_up "Twice the pips":
  score of current += 2 * total_pips
"""


def _pos(text: str, needle: str, nth: int = 0, shift: int = 0) -> types.Position:
    """The position of the nth occurrence of needle in text (plus shift characters)."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += shift
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


class Session:
    """A client talking to one server process, collecting the diagnostics it publishes."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.diagnostics: dict[str, asyncio.Queue[list[types.Diagnostic]]] = {}

    def queue(self, uri: str) -> asyncio.Queue[list[types.Diagnostic]]:
        return self.diagnostics.setdefault(uri, asyncio.Queue())

    async def next_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        return list(await asyncio.wait_for(self.queue(uri).get(), TIMEOUT))

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="rulelang", version=1, text=text)))
        return uri

    def replace(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def edit(self, uri: str, version: int, start: types.Position, end: types.Position, text: str) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end),
                                                                    text=text)]))

    async def hover(self, uri: str, position: types.Position) -> str | None:
        result = await asyncio.wait_for(self.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)), TIMEOUT)
        if result is None:
            return None
        assert isinstance(result.contents, types.MarkupContent)
        return result.contents.value

    async def definition(self, uri: str, position: types.Position) -> list[types.Location]:
        result = await asyncio.wait_for(self.client.text_document_definition_async(
            types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)), TIMEOUT)
        if result is None:
            return []
        return list(result) if isinstance(result, list) else [result]  # type: ignore[list-item]

    async def completion(self, uri: str, position: types.Position) -> dict[str, types.CompletionItem]:
        result = await asyncio.wait_for(self.client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)), TIMEOUT)
        items = result.items if isinstance(result, types.CompletionList) else (result or [])
        return {item.label: item for item in items}


async def _start(cwd: Path, extra_env: dict[str, str] | None = None) -> Session:
    client = LanguageClient("rulelang-test", "1")
    session = Session(client)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _publish(params: types.PublishDiagnosticsParams) -> None:
        session.queue(params.uri).put_nowait(params.diagnostics)

    path = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])  # this checkout's rulelang first
    env = {**os.environ, "PYTHONPATH": path, **(extra_env or {})}
    await client.start_io(sys.executable, "-m", "rulelang", "lsp", cwd=str(cwd), env=env)
    await asyncio.wait_for(client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(cwd)))), TIMEOUT)
    client.initialized(types.InitializedParams())
    return session


async def _stop(session: Session) -> None:
    try:
        await asyncio.wait_for(session.client.shutdown_async(None), TIMEOUT)
    finally:
        session.client.exit(None)
        await asyncio.wait_for(session.client.stop(), TIMEOUT)


@pytest.fixture(scope="module")
def lsp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[asyncio.AbstractEventLoop, Session]]:
    """One server process for the module (as an editor keeps one), and the event loop its client runs in."""
    loop = asyncio.new_event_loop()
    session = loop.run_until_complete(_start(tmp_path_factory.mktemp("lsp-cwd")))
    try:
        yield loop, session
    finally:
        loop.run_until_complete(_stop(session))
        loop.close()


def _run(lsp: tuple[asyncio.AbstractEventLoop, Session], scenario: Callable[[Session], Awaitable[None]]) -> None:
    loop, session = lsp
    loop.run_until_complete(scenario(session))


def _checker_errors(path: Path) -> list[Any]:
    """What `rulelang check` reports for the file on disk."""
    try:
        load_game(path)
    except ErrorList as exc:
        return exc.errors
    except RulelangError as exc:
        return [exc]
    return []


@needs_pygls
def test_diagnostics_as_typed_match_the_checker_and_go_away_when_fixed(lsp: Any, tmp_path: Path) -> None:
    broken = BASE.replace("score of current += total_pips", "score of current += total_pip")
    (tmp_path / "base.rules").write_text(broken, encoding="utf-8")
    expected = _checker_errors(tmp_path / "base.rules")
    assert len(expected) == 1

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "base.rules", broken)
        diagnostics = await s.next_diagnostics(uri)
        assert len(diagnostics) == 1
        d = diagnostics[0]
        assert d.severity == types.DiagnosticSeverity.Error
        assert d.source == "rulelang"
        assert d.message.split("\n")[0] == expected[0].message == "unknown name 'total_pip'"
        start = _pos(broken, "total_pip", nth=1)
        assert d.range.start == start
        assert d.range.end == types.Position(line=start.line, character=start.character + len("total_pip"))
        assert (expected[0].span.line - 1, expected[0].span.col - 1) == (start.line, start.character)
        # fix it by typing the missing letter (unsaved): no diagnostics
        at = types.Position(line=start.line, character=start.character + len("total_pip"))
        s.edit(uri, 2, at, at, "s")
        assert await s.next_diagnostics(uri) == []
        # an error on a declaration is underlined on its line only, as the checker's caret is
        s.replace(uri, 3, BASE.replace("players 2 to 2", "players 3 to 2"))
        [d] = await s.next_diagnostics(uri)
        assert d.message.startswith("players must be")
        line = _pos(BASE, "players 2 to 2").line
        assert (d.range.start, d.range.end) == (types.Position(line=line, character=0),
                                                types.Position(line=line, character=len("players 3 to 2")))
        # a syntax error while typing: the checker's syntax message, on its line
        s.replace(uri, 4, BASE.replace("turn:", "turn"))
        diagnostics = await s.next_diagnostics(uri)
        assert [d.message.split("\n")[0] for d in diagnostics] == ["unexpected end of line"]
        assert "hint: expected ':'" in diagnostics[0].message
        assert diagnostics[0].range.start.line == _pos(BASE, "turn:").line
        # hover still answers from the last buffer that parsed
        text = await s.hover(uri, _pos(BASE, "add_up"))
        assert text is not None and "Add the pips to the score" in text

    _run(lsp, scenario)


@needs_pygls
def test_hover_shows_declaration_and_documentation(lsp: Any, tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "base.rules", BASE)
        assert await s.next_diagnostics(uri) == []
        rule = await s.hover(uri, _pos(BASE, "  add_up", shift=4))  # the call in the turn
        assert rule is not None
        assert 'rule add_up "Add the pips to the score":' in rule and "*rule*" in rule
        die = await s.hover(uri, _pos(BASE, "Red"))
        assert die is not None
        assert '1 Red die "red die": One, Two, One, Two, One, Two' in die
        assert "red die" in die and "The only die." in die
        counter = await s.hover(uri, _pos(BASE, "score of current >=", shift=1))
        assert counter is not None and "*counter* `score`: points" in counter
        hole = await s.hover(uri, _pos(BASE, "target", nth=1))
        assert hole is not None and "*option* `target`: points to win" in hole
        zone = await s.hover(uri, _pos(BASE, "middle", nth=2))
        assert zone is not None and 'zone middle "the middle"\n' in zone and "where the die is rolled" in zone
        assert await s.hover(uri, _pos(BASE, "A tiny game")) is None  # a comment
        assert await s.hover(uri, _pos(BASE, "the middle", shift=4)) is None  # plain string text

    _run(lsp, scenario)


@needs_pygls
def test_definition_of_rules_zones_counters_and_defines(lsp: Any, tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    (tmp_path / "variant.rules").write_text(VARIANT, encoding="utf-8")

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "base.rules", BASE)
        assert await s.next_diagnostics(uri) == []
        cases = [
            (_pos(BASE, "add_up", nth=0), _pos(BASE, "add_up", nth=1)),  # rule
            (_pos(BASE, "middle", nth=2), _pos(BASE, "middle", nth=0)),  # zone (in "roll all in middle")
            (_pos(BASE, "score", nth=2), _pos(BASE, "score", nth=0)),  # counter
            (_pos(BASE, "total_pips", nth=1), _pos(BASE, "total_pips", nth=0)),  # define
        ]
        for use, declared in cases:
            [location] = await s.definition(uri, use)
            assert location.uri == uri
            assert location.range.start == declared, (use, declared)
        assert await s.definition(uri, _pos(BASE, "roll")) == []  # a keyword
        locals_ = [
            (_pos(BASE, "n * 2"), _pos(BASE, "n: number")),  # a parameter
            (_pos(BASE, "+= twice", shift=3), _pos(BASE, "twice =")),  # a let
            (_pos(BASE, "score of q", shift=9), _pos(BASE, "q in players")),  # a for variable
            (_pos(BASE, "highest score of p", shift=17), _pos(BASE, "p by")),  # the ranking's player
        ]
        for use, bound in locals_:
            [location] = await s.definition(uri, use)
            assert (location.uri, location.range.start) == (uri, bound), (use, bound)
        text = await s.hover(uri, _pos(BASE, "score of q", shift=9))
        assert text is not None and "for q in players:" in text and "*local* `q`" in text

        variant_uri = s.open(tmp_path / "variant.rules", VARIANT)
        assert await s.next_diagnostics(variant_uri) == []
        locations = await s.definition(variant_uri, _pos(VARIANT, "total_pips"))
        assert [(loc.uri, loc.range.start) for loc in locations] == [(uri, _pos(BASE, "total_pips"))]
        override = await s.definition(variant_uri, _pos(VARIANT, "add_up"))
        assert [loc.uri for loc in override] == [variant_uri, uri]  # the override first, then the base's rule
        text = await s.hover(variant_uri, _pos(VARIANT, "add_up"))
        assert text is not None and text.index("Twice the pips") < text.index("Add the pips to the score")

    _run(lsp, scenario)


@needs_pygls
def test_errors_in_extends_are_shown_on_the_extends_line(lsp: Any, tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(BASE.replace("players 2 to 2", "players 2 to"), encoding="utf-8")
    missing = VARIANT.replace("base.rules", "nowhere.rules")

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "missing.rules", missing)
        [d] = await s.next_diagnostics(uri)
        assert d.message.startswith("the game this file extends does not exist: ")
        assert d.range.start == _pos(missing, '"nowhere.rules"')
        uri = s.open(tmp_path / "variant.rules", VARIANT)
        [d] = await s.next_diagnostics(uri)
        assert d.range.start == _pos(VARIANT, '"base.rules"')
        assert "base.rules:3:" in d.message and "unexpected end of line" in d.message
        assert d.related_information and d.related_information[0].location.uri.endswith("/base.rules")
        # the base is fixed and saved in the editor: the variant is checked again, and is fine
        base_uri = s.open(tmp_path / "base.rules", BASE.replace("players 2 to 2", "players 2 to"))
        assert len(await s.next_diagnostics(base_uri)) == 1
        s.replace(base_uri, 2, BASE)
        assert await s.next_diagnostics(base_uri) == []
        (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
        s.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=base_uri)))
        assert await s.next_diagnostics(base_uri) == []
        assert await s.next_diagnostics(uri) == []

    _run(lsp, scenario)


@needs_pygls
def test_completion_and_formatting(lsp: Any, tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    messy = BASE.replace("  roll all in middle", "    roll   all in middle").replace("  add_up\n", "    add_up\n")

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "base.rules", messy)
        assert await s.next_diagnostics(uri) == []
        items = await s.completion(uri, _pos(messy, "add_up"))
        kinds = types.CompletionItemKind
        for name, kind in [("add_up", kinds.Function), ("middle", kinds.Variable), ("score", kinds.Variable),
                           ("total_pips", kinds.Function), ("Red", kinds.Class), ("target", kinds.Constant)]:
            assert items[name].kind == kind, name
        assert items["move"].kind == types.CompletionItemKind.Keyword
        assert items["max"].kind == types.CompletionItemKind.Function
        edits = await asyncio.wait_for(s.client.text_document_formatting_async(types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True))), TIMEOUT)
        assert edits is not None and len(edits) == 1
        assert edits[0].new_text == BASE
        symbols = await asyncio.wait_for(s.client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=types.TextDocumentIdentifier(uri=uri))), TIMEOUT)
        assert {sym.name for sym in symbols or []} >= {"add_up", "middle", "score", "total_pips", "Red"}

    _run(lsp, scenario)


def test_lsp_without_pygls_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "rulelang.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code == 1
    assert "needs pygls" in result.output and "pip install 'rulelang[lsp]'" in result.output
    assert "Traceback" not in result.output


# ------------------------------------------------------------------ colouring (no pygls needed)


def test_the_textmate_grammar_is_the_generated_one() -> None:
    from rulelang.lsp.textmate import grammar_json

    committed = (REPO / "editors" / "vscode" / "syntaxes" / "rulelang.tmLanguage.json").read_text(encoding="utf-8")
    assert committed == grammar_json(), (
        "editors/vscode/syntaxes/rulelang.tmLanguage.json is stale: run "
        "'python -m rulelang.lsp.textmate > editors/vscode/syntaxes/rulelang.tmLanguage.json'")


def test_every_keyword_of_the_grammar_is_coloured_as_a_keyword() -> None:
    from rulelang.lsp.analysis import keywords
    from rulelang.lsp.textmate import scopes_of

    for word in keywords():
        [(_, scope)] = scopes_of(word)
        assert scope.split(".")[0] in ("keyword", "storage", "constant", "support"), (word, scope)
    assert scopes_of("score of current >= 10") == [
        ("score", "variable.other.rulelang"), ("of", "keyword.other.rulelang"),
        ("current", "constant.language.rulelang"), ("10", "constant.numeric.integer.rulelang")]


def test_the_vscode_extension_declares_the_language_and_grammar() -> None:
    import json

    folder = REPO / "editors" / "vscode"
    package = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    [language] = package["contributes"]["languages"]
    assert language["extensions"] == [".rules"]
    [grammar] = package["contributes"]["grammars"]
    assert (folder / grammar["path"]).is_file() and (folder / language["configuration"]).is_file()
    assert (folder / package["main"]).is_file()
    json.loads((folder / language["configuration"]).read_text(encoding="utf-8"))


# ------------------------------------------------------------------ files the server must not read

SECRET = "root:x:0:0:the-secret-line"


def _outside(tmp_path: Path) -> tuple[Path, Path]:
    """A project folder, and next to it a file the project must not reach (it is not rules at all)."""
    project = tmp_path / "project"
    project.mkdir()
    secret = tmp_path / "secret.rules"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    return project, secret


def _refused_without_echo(diagnostics: list[types.Diagnostic], secret: Path) -> types.Diagnostic:
    [d] = diagnostics
    assert SECRET not in d.message and "root" not in d.message
    for info in d.related_information or []:
        assert info.location.uri != from_fs_path(str(secret)) and SECRET not in info.message
    return d


@needs_pygls
def test_a_symlink_out_of_the_directory_is_not_read(lsp: Any, tmp_path: Path) -> None:
    project, secret = _outside(tmp_path)
    (project / "shadow.rules").symlink_to(secret)
    text = 'game "Peek" extends "shadow.rules"\n'
    (project / "peek.rules").write_text(text, encoding="utf-8")
    expected = _checker_errors(project / "peek.rules")  # what `rulelang check` says of the same file
    assert len(expected) == 1 and "outside the directory" in expected[0].message

    async def scenario(s: Session) -> None:
        uri = s.open(project / "peek.rules", text)
        d = _refused_without_echo(await s.next_diagnostics(uri), secret)
        assert d.message.split("\n")[0] == expected[0].message
        assert "'shadow.rules' is outside the directory" in d.message
        start = _pos(text, '"shadow.rules"')
        assert d.range.start == start  # on the extends, where the checker puts its caret

    _run(lsp, scenario)


@needs_pygls
def test_extends_above_the_directory_is_not_read(lsp: Any, tmp_path: Path) -> None:
    project, secret = _outside(tmp_path)
    text = 'game "Peek" extends "../secret.rules"\n'

    async def scenario(s: Session) -> None:
        uri = s.open(project / "peek.rules", text)  # never saved: the buffer alone names the file
        d = _refused_without_echo(await s.next_diagnostics(uri), secret)
        assert "'../secret.rules' is outside the directory" in d.message
        assert d.range.start.line == 0

    _run(lsp, scenario)


@needs_pygls
def test_a_buffer_over_the_size_limit_is_refused_at_once(lsp: Any, tmp_path: Path) -> None:
    from rulelang.safeio import MAX_RULES_BYTES

    text = BASE + "# padding\n" * (MAX_RULES_BYTES // 10 + 1)

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "huge.rules", text)
        [d] = await s.next_diagnostics(uri)
        assert "is too big to check" in d.message and f"the limit is {MAX_RULES_BYTES}" in d.message
        assert d.range.start == types.Position(line=0, character=0)
        # the server still answers, and the same buffer made small again is checked as usual
        s.replace(uri, 2, BASE)
        assert await s.next_diagnostics(uri) == []
        assert await s.hover(uri, _pos(BASE, "add_up")) is not None

    _run(lsp, scenario)


@needs_pygls
def test_hover_is_answered_while_a_check_runs_and_stale_checks_are_dropped(tmp_path: Path) -> None:
    """RULELANG_LSP_TEST_HOLD (test-only) makes every check wait in the worker until the file it names exists."""
    hold = tmp_path / "release"
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    broken = BASE.replace("score of current += total_pips", "score of current += total_pip")

    async def scenario(s: Session) -> None:
        hold.touch()
        uri = s.open(tmp_path / "base.rules", BASE)
        assert await s.next_diagnostics(uri) == []
        hold.unlink()  # from now on every check waits
        s.replace(uri, 2, broken)
        await asyncio.sleep(0.5)  # past the debounce: the check of version 2 is in the worker, held
        text = await s.hover(uri, _pos(BASE, "add_up"))  # answered from the last analysis, meanwhile
        assert text is not None and "Add the pips to the score" in text
        items = await s.completion(uri, _pos(BASE, "add_up"))
        assert "total_pips" in items
        s.replace(uri, 3, BASE.replace("players 2 to 2", "players 3 to 2"))  # a newer edit: version 2 is stale
        await asyncio.sleep(0.5)
        assert s.queue(uri).empty()  # nothing published while the checks are held
        hold.touch()
        diagnostics = await s.next_diagnostics(uri)
        assert [d.message.split("\n")[0][:16] for d in diagnostics] == ["players must be "]  # version 3's only
        await asyncio.sleep(1.0)
        assert s.queue(uri).empty()  # version 2's diagnostics were never published

    loop = asyncio.new_event_loop()
    try:
        session = loop.run_until_complete(_start(cwd, {"RULELANG_LSP_TEST_HOLD": str(hold)}))
        try:
            loop.run_until_complete(scenario(session))
        finally:
            hold.touch()
            loop.run_until_complete(_stop(session))
    finally:
        loop.close()


# ------------------------------------------------------------------ the analysis behind the diagnostics


@pytest.mark.parametrize("path", sorted((REPO / "tests" / "bad_rules").glob("*.rules")), ids=lambda p: p.name)
def test_the_analysis_gives_rulelang_checks_messages_and_places(path: Path) -> None:
    from rulelang.lsp.analysis import analyse

    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        pytest.skip("an editor decodes the buffer itself")
    expected = _checker_errors(path)
    problems = analyse(path, text).problems
    assert [p.message for p in problems] == [e.message + (f"\nhint: {e.hint}" if e.hint else "") for e in expected]
    assert [p.span or p.elsewhere for p in problems] == [e.span for e in expected]
    assert bool(problems) == (path.name not in ("ok_base.rules", "utf8_bom.rules"))  # the corpus's valid files


def test_rules_too_deep_for_the_checker_are_a_problem_as_load_game_says_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulelang.lsp.analysis as analysis

    def too_deep(*_args: Any, **_kwargs: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    path = REPO / "tests" / "bad_rules" / "ok_base.rules"
    monkeypatch.setattr(analysis, "check_sources", too_deep)
    problems = analysis.analyse(path, path.read_text(encoding="utf-8")).problems
    assert [p.message.split("\n")[0] for p in problems] == [
        "the rules nest too deeply to check (definitions used inside deep expressions?)"]
    assert problems[0].span is not None and problems[0].span.line == 1
