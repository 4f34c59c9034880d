"""Start-up: --help loads no engine, checker or code generator; the parser's tables come back from the user's
cache as checked JSON data, and a changed grammar, Lark version or damaged entry is a miss that rebuilds them."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import lark
import pytest

from rulelang import usercache
from rulelang.syntax import parser

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("rulelang.engine", "rulelang.compile", "rulelang.check", "rulelang.syntax.parser", "rulelang.game", "lark")


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), RULELANG_CACHE_DIR=str(tmp_path / "cache"))
    return env


def _heavy(modules: list[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_main_help_through_python_m_imports_nothing_heavy(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "rulelang", "--help"], cwd=tmp_path,
                          env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Commands:" in done.stdout and "run" in done.stdout
    imported = [line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "rulelang.cli" in imported  # the probe sees rulelang's own imports
    assert _heavy(imported) == []


def test_every_subcommand_help_imports_nothing_heavy(tmp_path: Path) -> None:
    probe = """
import json, sys
from rulelang.cli import main
shown = {}
for name in [None] + sorted(main.commands):
    try:
        main([name, "--help"] if name else ["--help"], prog_name="rulelang")
    except SystemExit as exc:
        shown[name or ""] = exc.code
print(json.dumps({"codes": shown, "modules": sorted(sys.modules)}))
"""
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=_env(tmp_path), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert {"run", "check", "simulate", "replay", "compile", "fmt", "lsp", "compare"} <= set(result["codes"])
    assert set(result["codes"].values()) == {0}
    assert _heavy(result["modules"]) == []


def test_package_names_still_import_lazily() -> None:
    import rulelang
    from rulelang.engine.engine import Engine
    from rulelang.game import load_game

    assert rulelang.Engine is Engine and rulelang.load_game is load_game
    assert set(rulelang.__all__) <= set(dir(rulelang))
    with pytest.raises(AttributeError):
        rulelang.no_such_name  # noqa: B018


# ------------------------------------------------------------------ the parser's tables in the user's cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An empty cache directory for this test; the parser is built afresh and forgotten afterwards."""
    where = tmp_path / "cache"
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(where))
    monkeypatch.delenv("RULELANG_NO_CACHE", raising=False)
    parser._parser.cache_clear()
    yield where
    parser._parser.cache_clear()


def _entries(where: Path) -> list[Path]:
    return sorted(where.glob("parser-*.json"))


def _fresh() -> lark.Lark:
    parser._parser.cache_clear()
    return parser._parser()


def _trees(p: lark.Lark, games: tuple[str, ...] = ("chicken", "rooster-rush")) -> list[lark.Tree]:
    every = sorted((ROOT / "games").glob("*.rules"))
    paths = every if games == ("*",) else [ROOT / "games" / f"{g}.rules" for g in games]
    texts = [path.read_text(encoding="utf-8") for path in paths]
    trees = [p.parse(t if t.endswith("\n") else t + "\n", start="start") for t in texts]
    return trees + [p.parse("1 + sum(eggs of all in middle) * 2", start="expr")]


def test_first_build_writes_a_private_entry_and_the_second_reads_it(cache: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    built = _fresh()
    [entry] = _entries(cache)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700 and stat.S_IMODE(entry.stat().st_mode) == 0o600
    doc = json.loads(entry.read_text(encoding="ascii"))
    assert doc["format"] == usercache.FORMAT and entry.name.startswith("parser-" + doc["key"][:32])

    def no_build(*args, **kwargs):
        raise AssertionError("the tables were built again instead of read from the cache")

    monkeypatch.setattr(parser, "Lark", type("NoBuild", (), {"__new__": no_build,
                                                             "_load_from_dict": lark.Lark._load_from_dict}))
    loaded = _fresh()
    assert isinstance(loaded, lark.Lark) and loaded is not built
    assert _trees(loaded, ("*",)) == _trees(built, ("*",))


def test_parse_errors_are_the_same_from_cached_tables(cache: Path) -> None:
    _fresh()
    assert _entries(cache)
    _fresh()  # from the cache now
    with pytest.raises(Exception) as from_cache:
        parser.parse_text("rule x:\n  set = 3\n", "bad.rules")
    parser._parser.cache_clear()
    os.environ["RULELANG_NO_CACHE"] = "1"
    try:
        with pytest.raises(Exception) as built:
            parser.parse_text("rule x:\n  set = 3\n", "bad.rules")
    finally:
        del os.environ["RULELANG_NO_CACHE"]
    assert str(from_cache.value) == str(built.value) and from_cache.value.format() == built.value.format()


def test_a_changed_grammar_misses(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh()
    [first] = _entries(cache)
    text = parser.grammar_text()
    monkeypatch.setattr(parser, "grammar_text", lambda: text + "\n// a comment changes the grammar's hash\n")
    _fresh()
    assert len(_entries(cache)) == 2 and first in _entries(cache)


def test_another_lark_version_misses(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh()
    monkeypatch.setattr(lark, "__version__", lark.__version__ + ".post999")
    _fresh()
    assert len(_entries(cache)) == 2


def _rebuilt_after(cache: Path, damage) -> None:
    """Damage the one entry; the next load must ignore it, build the tables and write a good entry again."""
    good = _fresh()
    [entry] = _entries(cache)
    damage(entry)
    built_again: list[bool] = []
    real = parser.Lark

    class Watch(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            built_again.append(True)
            super().__init__(*args, **kwargs)

    try:
        parser.Lark = Watch  # type: ignore[misc]
        again = _fresh()
    finally:
        parser.Lark = real  # type: ignore[misc]
    assert built_again == [True]
    assert _trees(again) == _trees(good)
    assert usercache.read_entry(entry.name, json.loads(entry.read_text(encoding="ascii"))["key"]) is not None


def test_a_flipped_byte_is_rejected_and_rebuilt(cache: Path) -> None:
    def flip(entry: Path) -> None:
        doc = json.loads(entry.read_text(encoding="ascii"))
        doc["payload"] = doc["payload"].replace('"NAME"', '"NAMF"', 1)
        entry.write_text(json.dumps(doc), encoding="ascii")

    _rebuilt_after(cache, flip)


def test_a_truncated_entry_is_rejected_and_rebuilt(cache: Path) -> None:
    _rebuilt_after(cache, lambda entry: entry.write_bytes(entry.read_bytes()[:1000]))


def test_a_consistent_but_forged_entry_never_runs_code(cache: Path, tmp_path: Path) -> None:
    """An attacker who recomputes the hash still only supplies data: an unknown type is refused, nothing runs."""
    marker = tmp_path / "ran"

    def forge(entry: Path) -> None:
        doc = json.loads(entry.read_text(encoding="ascii"))
        payload = json.loads(doc["payload"])
        payload["memo"] = {"i": [[0, {"s": {"__type__": "os.system", "cmd": f"touch {marker}"}}]]}
        payload["data"]["s"]["__reduce__"] = f"__import__('os').system('touch {marker}')"
        text = usercache._payload_text(payload)
        doc["payload"] = text
        doc["sha256"] = __import__("hashlib").sha256(text.encode("ascii")).hexdigest()
        entry.write_text(json.dumps(doc), encoding="ascii")

    _rebuilt_after(cache, forge)
    assert not marker.exists()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file ownership and modes are POSIX")
def test_an_entry_others_can_write_is_ignored(cache: Path) -> None:
    _fresh()
    [entry] = _entries(cache)
    key = json.loads(entry.read_text(encoding="ascii"))["key"]
    assert usercache.read_entry(entry.name, key) is not None
    entry.chmod(0o666)
    assert usercache.read_entry(entry.name, key) is None
    entry.chmod(0o600)
    cache.chmod(0o777)
    try:
        assert usercache.read_entry(entry.name, key) is None
        assert not usercache.write_entry("other.json", "k", [1])  # nor written into a shared directory
    finally:
        cache.chmod(0o700)
    assert usercache.read_entry(entry.name, "another key") is None


def test_the_cache_can_be_turned_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULELANG_NO_CACHE", "1")
    assert usercache.cache_dir() is None
    _fresh()
    assert not cache.exists()


def test_the_default_place_is_the_users_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("RULELANG_CACHE_DIR", raising=False)
    monkeypatch.delenv("RULELANG_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert usercache.cache_dir() == tmp_path / "xdg" / "rulelang"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/not/used")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert usercache.cache_dir() == tmp_path / "home" / ".cache" / "rulelang"


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(blocker / "cache"))
    parser._parser.cache_clear()
    try:
        assert isinstance(parser._parser(), lark.Lark)
    finally:
        parser._parser.cache_clear()
    assert not usercache.write_entry("x.json", "k", [1])
    assert usercache.read_entry("x.json", "k") is None
