"""Reading untrusted input files and writing output files without surprises.

Every file rulelang reads (a ``.rules`` file, a trace, a position) goes through
:func:`read_input`: only regular files are read (a FIFO would hang, ``/dev/zero`` would
exhaust memory), never more than a size cap, and a file with NUL bytes is refused with
the place of the first one. Every file rulelang writes goes through :func:`check_output`
first: it refuses device nodes, FIFOs, directories, symbolic links it would replace, and
any file the same command reads.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from rulelang.errors import RulelangError
from rulelang.syntax.span import Span

MAX_RULES_BYTES = 1024 * 1024
"""The largest ``.rules`` file read (the biggest shipped game is about 40 KB). Checking costs about
a second and 1.5 KB of memory per 10 KB of rules, so 4 MiB of generated statements took minutes and
gigabytes; 1 MiB keeps the worst case to about a minute."""

MAX_TRACE_BYTES = 256 * 1024 * 1024
"""The largest trace read (a 100,000-step game is about 10 MB)."""

MAX_POSITION_BYTES = 4 * 1024 * 1024
"""The largest position file read."""

RULES_SUFFIX = ".rules"


class InputError(RulelangError):
    """An input file that cannot be read safely (missing, special, too big, binary)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_input(path: str | Path, what: str, limit: int, shown: str | None = None) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``); an InputError names ``what`` went wrong."""
    name = shown or Path(path).as_posix()
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"no such {what}: {name}") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} {name}: {exc.strerror or exc}",
                         hint="a symbolic link that points to itself, or a path through a file?") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"cannot read {what} {name}: it is {_kind(info.st_mode)}",
                         hint=f"give the path of a {what} (a regular file)")
    if info.st_size > limit:
        raise InputError(f"{what} {name} is too big ({info.st_size} bytes; the limit is {limit})")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise InputError(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the two looks
            raise InputError(f"cannot read {what} {name}: it is not a regular file")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise InputError(f"{what} {name} is too big (more than {limit} bytes)")
    except OSError as exc:
        raise InputError(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


STDIN_NAME = "<stdin>"
"""How standard input (the argument ``-``) is named in messages."""


def read_stdin(what: str, limit: int) -> bytes:
    """The bytes of standard input (at most ``limit``; ``limit + 1`` are read to tell); an InputError if more."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError(f"there is no standard input to read the {what} from",
                         hint=f"give the path of a {what} instead of -")
    try:
        data = stream.read(limit + 1)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the {what} from standard input: {getattr(exc, 'strerror', None) or exc}"
                         ) from None
    if len(data) > limit:
        raise InputError(f"the {what} on standard input is too big (more than {limit} bytes)")
    return data


def decode_text(data: bytes, what: str, shown: str) -> str:
    """``data`` as UTF-8 text (a leading BOM dropped); invalid bytes or NUL are an InputError with a place."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _place(data[: exc.start].decode("utf-8", "replace"))
        raise InputError(f"{shown} is not UTF-8 text (byte 0x{data[exc.start]:02x})",
                         Span(shown, line, col, line, col + 1), hint="save the file as UTF-8") from None
    return _no_nul(text, shown, "save the file as plain UTF-8 text")


def _no_nul(text: str, shown: str, hint: str) -> str:
    """``text``, or an InputError at its first NUL character (binary data, not rules text)."""
    nul = text.find("\x00")
    if nul >= 0:
        line, col = _place(text[:nul])
        raise InputError(f"{shown} contains a NUL byte: it is not a text file",
                         Span(shown, line, col, line, col + 1), hint=hint)
    return text


def _place(before: str) -> tuple[int, int]:
    line = before.count("\n") + 1
    return line, len(before) - (before.rfind("\n") + 1) + 1


def require_rules_suffix(path: str | Path, shown: str, span: Span | None = None) -> None:
    """Refuse to read a file as rules unless its name ends in ``.rules``."""
    if not str(path).endswith(RULES_SUFFIX):
        raise InputError(f"{shown} is not a .rules file", span,
                         hint="rulelang reads rules only from files whose names end in .rules")


def read_rules(path: str | Path, shown: str, *, within: Path | None = None, written: str | None = None,
               span: Span | None = None, what: str = "rules file",
               outside: str = "the directory of the file that names it") -> bytes:
    """The bytes of the rules file ``path`` under the one policy every entry point uses.

    The name must end in ``.rules``; the file must be a regular file of at most MAX_RULES_BYTES;
    a file named by another one (``within`` its directory: an ``extends``, a trace's header) must
    lie in that directory or below it once symbolic links are followed. Every error names
    ``shown`` (or ``written``, as the referring file spells it) at ``span``, never what a
    refused file holds.
    """
    target = Path(path)
    try:
        resolved = target.resolve()
    except (OSError, RuntimeError):
        raise InputError(f"cannot read {shown}: a symbolic link loop", span,
                         hint="a symbolic link that points back to itself") from None
    if within is not None and not inside(within, target):
        raise InputError(f"'{written or shown}' is outside {outside}", span,
                         hint="a .rules file named by another file must lie in that file's directory or below it "
                              "(a symbolic link must not lead out of it)")
    try:
        data = read_input(resolved if within is not None else target, what, MAX_RULES_BYTES, shown)
    except InputError as exc:
        exc.span = span
        raise
    require_rules_suffix(target, shown, span)  # after the look at its kind: a device is refused as a device
    return data


def check_rules_buffer(text: str, shown: str) -> str:
    """``text`` (an editor's unsaved buffer) if the CLI would read it as a file: at most MAX_RULES_BYTES, no NUL.

    A leading BOM is dropped, as :func:`decode_text` drops it.
    """
    size = len(text) if len(text) * 4 <= MAX_RULES_BYTES else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RULES_BYTES:
        raise InputError(f"{shown} is too big to check ({size} bytes; the limit is {MAX_RULES_BYTES})",
                         hint="split the game into a base file and variants that extend it")
    text = text.removeprefix("\ufeff")
    return _no_nul(text, shown, "remove the NUL character")


def inside(base: Path, target: Path) -> bool:
    """Whether ``target`` (resolved) lies in ``base`` (resolved) or below it."""
    try:
        target.resolve().relative_to(base.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def check_output(path: str, option: str, inputs: Iterable[str | Path] = ()) -> str | None:
    """Why ``path`` must not be written (None if it may): empty, special, a symlink, or one of ``inputs``."""
    if not path or not path.strip():
        return "an empty path names no file"
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return f"{path} is a symbolic link: give the path of the file itself"
    if not stat.S_ISREG(info.st_mode):
        return f"{path} is {_kind(info.st_mode)}, not a regular file: it would be replaced"
    for other in inputs:
        try:
            o = os.stat(other)
        except OSError:
            continue
        if (o.st_dev, o.st_ino) == (info.st_dev, info.st_ino):
            same = Path(other).as_posix() == Path(path).as_posix()
            named = "" if same else f" ({Path(other).as_posix()})"
            return f"{path} is an input of this command{named}: writing it would destroy it"
    return None


MAX_JSON_DEPTH = 32
"""How deeply a trace event or a position may nest lists and objects (they use 4 levels)."""


def json_too_deep(value: object, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON value ``value`` nests lists and objects more than ``limit`` deep."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children)
    return False


def long_number_place(text: str) -> tuple[int, int]:
    """Line and column (1-based) of the first number in ``text`` longer than Python reads from JSON
    (``json.loads`` raises a plain ValueError for it); (1, 1) if there is none."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
    found = re.search(r"\d{" + str(max(limit, 1) + 1) + ",}", text)
    return _place(text[: found.start()]) if found else (1, 1)
