"""How long an author waits for diagnostics after an edit: the language server, driven over its protocol.

    python benchmarks/editor.py [GAME] [--edits N] [--pause S] [--seed S] [--tree TREE]

``rulelang lsp`` runs as a subprocess (``python -m rulelang lsp``, this checkout first on ``PYTHONPATH``,
or the checkout ``--tree`` names, e.g. an older commit's ``git worktree``), as an editor runs it. The
client opens ``games/GAME.rules`` (default: the largest of ``games/``) and waits for its first
diagnostics, then makes N edits (default 60) one after another, each to the file as it is on disk,
``--pause`` seconds apart (default 0.3, so that no check is still running when the next edit comes),
each a *valid* edit an author makes while writing:

- a letter of a string changed (a label, a ``say``), outside its ``{...}`` holes;
- a number in a rule's body changed to another one;
- a comment line or a blank line added (every line below moves);
- a ``say`` line added at the start of a rule (new code: the generated names below shift);
- a space added at the end of a line.

Each edit's latency is the wall time from sending ``textDocument/didChange`` to receiving the
``publishDiagnostics`` of that version (the server's short wait for more typing included); beside
it, the CPU time the server process used meanwhile (from ``/proc``, Linux only), which the load of
the machine changes much less. The script prints the median, the spread (10th and 90th
percentiles, minimum, maximum) by kind of edit and overall, how many edits got diagnostics (0
expected: the edits are valid), and the load average before and after. The last line is
``median_ms: X`` (wall time).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0

try:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path
except ImportError:  # pragma: no cover - the rulelang[lsp] extra
    raise SystemExit("benchmarks/editor.py needs pygls (pip install 'rulelang[lsp]')") from None

_STRING = re.compile(r'"([^"\\\n{}]{4,})"')
_BODY_NUMBER = re.compile(r"^(\s+)(.*?[-+=<>(, ])(\d+)\b", re.MULTILINE)
_RULE = re.compile(r"^(?:override\s+)?rule\b[^\n]*:\n", re.MULTILINE)


def largest_game() -> str:
    """The name of the largest games/GAME.rules, by size."""
    return max((ROOT / "games").glob("*.rules"), key=lambda p: p.stat().st_size).stem


def edits(text: str, count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` edited texts of ``text``, each one edit away from it: (kind, new text)."""
    rng = random.Random(seed)
    strings = [m for m in _STRING.finditer(text)]
    numbers = [m for m in _BODY_NUMBER.finditer(text) if not m.group(2).lstrip().startswith("#")]
    rules = [m.end() for m in _RULE.finditer(text)]
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)][:-1]
    line_ends = [m.start() for m in re.finditer("\n", text)]
    out: list[tuple[str, str]] = []
    kinds = ["string", "number", "comment line", "blank line", "say line", "space"]
    while len(out) < count:
        kind = kinds[len(out) % len(kinds)]
        if kind == "string" and strings:
            m = rng.choice(strings)
            at = m.start(1) + rng.randrange(len(m.group(1)))
            new = text[:at] + rng.choice("aeiou") + text[at + 1:]
        elif kind == "number" and numbers:
            m = rng.choice(numbers)
            value = int(m.group(3))
            new = text[:m.start(3)] + str(value + 1 if value < 9 else value - 1) + text[m.end(3):]
        elif kind == "comment line":
            at = rng.choice(line_starts)
            new = text[:at] + "# a note while writing\n" + text[at:]
        elif kind == "blank line":
            at = rng.choice(line_starts)
            new = text[:at] + "\n" + text[at:]
        elif kind == "say line" and rules:
            at = rng.choice(rules)
            indent = re.match(r"[ \t]*", text[at:]).group()
            new = text[:at] + f'{indent}say "checking the rules"\n' + text[at:]
        else:
            kind = "space"
            at = rng.choice(line_ends)
            new = text[:at] + " " + text[at:]
        out.append((kind, new))
    return out


def _cpu_seconds(pid: int | None) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (nan where /proc cannot tell)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


async def measure(tree: Path, game: Path, changes: list[tuple[str, str]], pause: float
                  ) -> tuple[float, list[tuple[str, float, float, int]]]:
    """Open ``game`` in a server run from ``tree``; (seconds to the first diagnostics, [(kind, seconds,
    server CPU seconds, diagnostics)] per edit)."""
    client = LanguageClient("rulelang-benchmark", "1")
    arrived: dict[int | None, asyncio.Future] = {}
    loop = asyncio.get_running_loop()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: types.PublishDiagnosticsParams) -> None:
        future = arrived.get(params.version)
        if future is not None and not future.done():
            future.set_result((time.perf_counter(), len(params.diagnostics)))

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")])}
    await client.start_io(sys.executable, "-m", "rulelang", "lsp", cwd=str(tree), env=env)
    pid = getattr(getattr(client, "_server", None), "pid", None)  # (pygls keeps the process there)
    results: list[tuple[str, float, float, int]] = []
    try:
        await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(tree)))), TIMEOUT)
        client.initialized(types.InitializedParams())
        uri = from_fs_path(str(game))
        text = game.read_text(encoding="utf-8")
        arrived[1] = loop.create_future()
        start = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="rulelang", version=1, text=text)))
        opened_at, _count = await asyncio.wait_for(arrived[1], TIMEOUT)
        first = opened_at - start
        for version, (kind, new) in enumerate(changes, start=2):
            await asyncio.sleep(pause)
            arrived[version] = loop.create_future()
            cpu = _cpu_seconds(pid)
            sent = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)]))
            at, count = await asyncio.wait_for(arrived[version], TIMEOUT)
            results.append((kind, at - sent, _cpu_seconds(pid) - cpu, count))
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
    finally:
        client.exit(None)
        await asyncio.wait_for(client.stop(), TIMEOUT)
    return first, results


def _spread(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    if len(ms) >= 10:
        deciles = statistics.quantiles(ms, n=10)
        p10, p90 = deciles[0], deciles[-1]
    else:
        p10, p90 = ms[0], ms[-1]
    return (f"median {statistics.median(ms):7.1f}  p10 {p10:7.1f}  p90 {p90:7.1f}  min {ms[0]:7.1f}  "
            f"max {ms[-1]:7.1f} ms  ({len(ms)} edits)")


def main(argv: list[str] | None = None) -> int:
    """Measure and print the latencies."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", nargs="?", default=None, help="games/GAME.rules (default: the largest)")
    ap.add_argument("--edits", type=int, default=60, help="edits to make (default 60)")
    ap.add_argument("--pause", type=float, default=0.3, help="seconds between edits (default 0.3)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the edits' places (default 1)")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose server runs (default: this one)")
    args = ap.parse_args(argv)
    name = args.game or largest_game()
    game = (ROOT / "games" / f"{name}.rules").resolve()
    if not game.is_file() or args.edits < 1 or args.pause < 0:
        ap.error(f"no game {name!r} in games/, or a bad number")
    tree = args.tree.resolve()
    changes = edits(game.read_text(encoding="utf-8"), args.edits, args.seed)
    before = os.getloadavg()[0]
    first, results = asyncio.run(measure(tree, game, changes, args.pause))
    after = os.getloadavg()[0]
    print(f"rulelang lsp ({tree}) on games/{name}.rules ({game.stat().st_size} bytes): {len(results)} edits, "
          f"{args.pause} s apart; load {before:.2f} before, {after:.2f} after (2 cores)")
    print(f"  first diagnostics after opening: {first * 1000:.0f} ms")
    print("  wall time from the edit to its diagnostics:")
    for kind in dict.fromkeys(r[0] for r in results):
        print(f"    {kind:13} {_spread([r[1] for r in results if r[0] == kind])}")
    print(f"    {'all':13} {_spread([r[1] for r in results])}")
    cpu = [r[2] for r in results]
    if cpu == cpu:  # (no nan)
        print(f"  server CPU time meanwhile (clock ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms):")
        print(f"    {'all':13} {_spread(cpu)}")
    flagged = sum(1 for r in results if r[3])
    print(f"  edits with diagnostics: {flagged} (0 expected: every edit keeps the game valid)")
    print(f"median_ms: {statistics.median(r[1] for r in results) * 1000:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
