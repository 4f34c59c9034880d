"""The layering of ``rulelang/``, read from the source (ast): no import circle, no private name imported across modules.

Every import counts, also one inside a function (a lazy import hides a circle, it does not remove it), but for
those under ``if TYPE_CHECKING:`` (read by type checkers only, never run). What still
exists is listed below by name, so that whoever removes it empties the list: a listed circle or import that is
gone fails ``test_the_allow_lists_name_only_what_still_exists``.
"""

from __future__ import annotations

from pathlib import Path

from layout_support import circles, imports, module_lines, modules, undocumented

KNOWN_CIRCLES: set[frozenset[str]] = set()

KNOWN_PRIVATE_IMPORTS: set[tuple[str, str, str]] = set()  # (importer, module, name)

MAX_LINES = 800
"""No module of rulelang/ is longer (issue 23: a module over that is split by job)."""

KNOWN_LONG: dict[str, int] = {}
"""Modules still over MAX_LINES, each with the length it may not exceed (it may only shrink)."""


def test_the_finder_sees_circles_lazy_imports_and_private_names(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from pkg.sub.c import g  # lazy\n    return g\n")
    (pkg / "sub" / "c.py").write_text("from ..a import _hidden\nfrom pkg.d import __version__\n")
    (pkg / "d.py").write_text("import pkg.a\n__version__ = '1'\n")
    (pkg / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import _x\n")
    edges, private = imports(modules(pkg))
    assert edges["pkg.b"] == {"pkg.sub.c"} and edges["pkg.sub.c"] == {"pkg.a", "pkg.d"} and edges["pkg.e"] == set()
    assert circles(edges) == {frozenset({"pkg.a", "pkg.b", "pkg.sub.c", "pkg.d"})}
    assert private == {("pkg.sub.c", "pkg.a", "_hidden")}
    (pkg / "d.py").write_text("__version__ = '1'\n")
    (pkg / "a.py").write_text("")
    assert circles(imports(modules(pkg))[0]) == set()


def test_no_import_circle_in_rulelang_but_the_known_ones() -> None:
    found = circles(imports(modules())[0])
    new = found - KNOWN_CIRCLES
    assert not new, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in new)


def test_no_private_name_imported_across_modules_but_the_known_ones() -> None:
    new = imports(modules())[1] - KNOWN_PRIVATE_IMPORTS
    assert not new, "private names imported: " + "; ".join(f"{a} imports {n} from {b}" for a, b, n in sorted(new))


def test_the_allow_lists_name_only_what_still_exists() -> None:
    edges, private = imports(modules())
    assert KNOWN_CIRCLES <= circles(edges), "a known circle is gone: remove its entry from KNOWN_CIRCLES"
    gone = KNOWN_PRIVATE_IMPORTS - private
    assert not gone, f"no longer imported, remove from KNOWN_PRIVATE_IMPORTS: {sorted(gone)}"


def test_no_module_is_over_800_lines_but_the_known_ones_which_only_shrink() -> None:
    lines = module_lines(modules())
    long = {name: n for name, n in lines.items() if n > MAX_LINES and n > KNOWN_LONG.get(name, 0)}
    assert long == {}, f"split these by job (at most {MAX_LINES} lines): {long}"
    gone = {name for name in KNOWN_LONG if lines.get(name, 0) <= MAX_LINES}
    assert not gone, f"no longer over {MAX_LINES} lines, remove from KNOWN_LONG: {sorted(gone)}"


def test_every_module_says_what_it_does() -> None:
    assert undocumented(modules()) == []
