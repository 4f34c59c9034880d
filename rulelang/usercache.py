"""The user's cache directory: JSON data that is slow to compute and cheap to read back.

Only data is cached here, never code: an entry is one JSON document holding a payload, the
key it was computed for and the SHA-256 of the payload's text. Reading an entry checks all
three, and that the directory and the file belong to this user and cannot be written by
anybody else; an entry that fails any check is ignored (and rewritten by the caller). See
"The cache" in docs/architecture.md for the threat model.

``RULELANG_CACHE_DIR`` relocates the cache; ``RULELANG_NO_CACHE=1`` turns it off. Otherwise
it is ``$XDG_CACHE_HOME/rulelang`` or ``~/.cache/rulelang``.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

FORMAT = 1
"""The layout of an entry; a change makes every older entry a miss."""


def cache_dir() -> Path | None:
    """The directory the cache lives in, or None when the cache is turned off."""
    if os.environ.get("RULELANG_NO_CACHE", "").strip() not in ("", "0"):
        return None
    relocated = os.environ.get("RULELANG_CACHE_DIR", "").strip()
    if relocated:
        return Path(relocated)
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "rulelang"


def _private(info: os.stat_result) -> bool:
    """Whether a file or directory belongs to this user and only this user can write it."""
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return owner_ok and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def entry_path(name: str) -> Path | None:
    """Where the entry ``name`` (a file name) lives, or None when the cache is off."""
    directory = cache_dir()
    return None if directory is None else directory / name


def _payload_text(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=True)


def read_entry(name: str, key: str) -> Any | None:
    """The payload stored under ``name`` for ``key``, or None: missing, stale, corrupt or not private."""
    path = entry_path(name)
    if path is None:
        return None
    try:
        if not _private(os.stat(path.parent)):
            return None
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode) or not _private(os.fstat(handle.fileno())):
                return None
            raw = handle.read()
        doc = json.loads(raw.decode("ascii"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("key") != key:
        return None
    text = doc.get("payload")
    if not isinstance(text, str) or hashlib.sha256(text.encode("ascii")).hexdigest() != doc.get("sha256"):
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def write_entry(name: str, key: str, payload: Any) -> bool:
    """Store ``payload`` under ``name`` for ``key``, atomically (readers see the old entry or the new one).

    Returns whether it was written; a cache that cannot be written is not an error."""
    path = entry_path(name)
    if path is None:
        return False
    text = _payload_text(payload)
    doc = json.dumps({"format": FORMAT, "key": key, "sha256": hashlib.sha256(text.encode("ascii")).hexdigest(),
                      "payload": text}, ensure_ascii=True)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(os.stat(path.parent)):
            return False
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(doc)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
    except OSError:
        return False
    return True
