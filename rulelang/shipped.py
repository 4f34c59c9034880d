"""The games that ship with rulelang, found by name when no such file exists.

An installed wheel holds them in ``rulelang/games/``; a source checkout (or an editable
install) has them in the repository's ``games/``. A command given ``NAME``,
``NAME.rules`` or ``games/NAME.rules`` reads that file when it exists, and the
shipped game of that name only when it does not: a file path always wins.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import attrs

from rulelang.safeio import RULES_SUFFIX, decode_text, read_rules

GAMES_PREFIX = "games/"
"""How traces and the documentation name a shipped game: ``games/NAME.rules``."""


def games_dir() -> Path | None:
    """The directory of the shipped games: the installed package's, else the source tree's (None if neither)."""
    here = Path(__file__).resolve().parent
    installed = here / "games"
    if installed.is_dir():
        return installed
    source_tree = here.parent / "games"
    if source_tree.is_dir() and (here.parent / "grammar" / "rulelang.lark").is_file():
        return source_tree
    return None


def shipped_games() -> list[Path]:
    """Every shipped ``.rules`` file, sorted by name."""
    where = games_dir()
    if where is None:
        return []
    return sorted(p for p in where.iterdir() if p.name.endswith(RULES_SUFFIX) and p.is_file())


def shipped_name(name: str) -> str | None:
    """The file name (``NAME.rules``) that ``name`` gives a shipped game, if it is a shipped game's name.

    ``name`` is ``NAME``, ``NAME.rules`` or ``games/NAME.rules``: no other directory, no ``..``.
    """
    if name.startswith(GAMES_PREFIX):
        name = name[len(GAMES_PREFIX):]
    if not name or "/" in name or "\\" in name or "\x00" in name or name.startswith("."):
        return None
    file_name = name if name.endswith(RULES_SUFFIX) else name + RULES_SUFFIX
    return file_name if any(p.name == file_name for p in shipped_games()) else None


def find_shipped(name: str) -> Path | None:
    """The path of the shipped game ``name`` names (see :func:`shipped_name`), or None."""
    file_name = shipped_name(name)
    where = games_dir()
    return where / file_name if file_name is not None and where is not None else None


def rules_path(given: str) -> str:
    """The file a command reads for the rules argument ``given``.

    ``given`` itself if such a file (not a directory) exists, or it is ``-`` (standard input); ``NAME.rules``
    if ``given`` is ``NAME`` and that file exists here; else the shipped game of that name;
    else ``given`` (with ``.rules`` added to a bare name), which the loader says does not exist.
    """
    if given == "-" or (os.path.lexists(given) and not os.path.isdir(given)):
        return given
    named = given + RULES_SUFFIX
    if not given.endswith(RULES_SUFFIX) and "/" not in given and os.path.lexists(named) and not os.path.isdir(named):
        return named
    found = find_shipped(given)
    if found is not None:
        return str(found)
    if given and not given.endswith(RULES_SUFFIX) and "/" not in given and "\\" not in given:
        return given + RULES_SUFFIX  # a name: the loader says there is no such file, the CLI hints at the games
    return given


def recorded_name(given: str, path: str) -> str:
    """How a trace names the rules file a command was given as ``given`` and read at ``path``.

    ``games/NAME.rules`` when ``given`` was looked up as a shipped game, else the path read.
    """
    where = games_dir()
    if path != given and where is not None and Path(path).parent == where:
        return GAMES_PREFIX + Path(path).name
    return Path(path).as_posix()


@attrs.frozen
class ShippedGame:
    """One shipped game, as ``rulelang games`` lists it."""

    name: str
    title: str
    min_players: int | None
    max_players: int | None
    extends: str | None


_GAME_LINE = re.compile(r'^game\s+"((?:[^"\\]|\\.)*)"(?:\s+extends\s+"([^"]*)")?', re.MULTILINE)
_PLAYERS_LINE = re.compile(r"^players\s+(\d+)\s+to\s+(\d+)", re.MULTILINE)


def describe(path: Path, depth: int = 0) -> ShippedGame:
    """The title and player range of the shipped game at ``path``, from a scan of its text (no parse).

    A variant without its own ``players`` line takes its base game's range.
    """
    text = decode_text(read_rules(path, path.name), "rules file", path.name)  # the one policy for rules files
    game = _GAME_LINE.search(text)
    players = _PLAYERS_LINE.search(text)
    title = game.group(1) if game else path.stem
    extends = game.group(2) if game else None
    low = high = None
    if players:
        low, high = int(players.group(1)), int(players.group(2))
    elif extends and depth < 8 and (path.parent / extends).is_file():
        base = describe(path.parent / extends, depth + 1)
        low, high = base.min_players, base.max_players
    return ShippedGame(path.name[: -len(RULES_SUFFIX)], title, low, high, extends)
