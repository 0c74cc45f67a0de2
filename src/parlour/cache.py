"""The folder where parlour keeps what it computes once a machine: the compiled numba
kernels and the sowing games' endgame tables.

``PARLOUR_CACHE_DIR`` names the folder (the tests point it at a temporary one); by
default it is the user's cache folder of the platform (``platformdirs``).  What is kept
depends on the code that computed it, so each kind of thing lives in a subfolder named by
a hash of that code (:func:`versioned`): changed code finds a new, empty folder, never a
stale file.  (The endgame tables, hours of building, live in a folder of their files'
layout instead, and are checked against the code when read: ``parlour.games.sowing.endgame``.)
Several checkouts of different code may share the cache, so a folder is
removed only once it has gone unused for a while.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

ENVIRONMENT = "PARLOUR_CACHE_DIR"
PACKAGE = Path(__file__).parent
KERNEL_SOURCES = ("core.py", "games", "search")
"""Where the kernels live and what they import (the rules, the searches, the core's
constants), under the package: the code a compiled kernel can depend on."""
KERNELS_MARK = "PARLOUR_KERNELS_DIR"
"""The ``NUMBA_CACHE_DIR`` parlour set (not the user), as its children inherit it."""
UNUSED = 7 * 24 * 3600
"""Seconds after which a folder of another version of the code, not used since, goes."""


def root() -> Path:
    """The cache folder: ``PARLOUR_CACHE_DIR``, or the user's cache folder."""
    named = os.environ.get(ENVIRONMENT)
    if named:
        return Path(named)
    import platformdirs

    return Path(platformdirs.user_cache_dir("parlour", appauthor=False))


def digest(files: Iterable[Path], base: Path) -> str:
    """A short hash of the names (relative to ``base``) and contents of ``files``."""
    hashed = hashlib.blake2b(digest_size=8)
    for file in sorted(files):
        for part in (file.relative_to(base).as_posix().encode(), file.read_bytes()):
            hashed.update(len(part).to_bytes(8, "little"))
            hashed.update(part)
    return hashed.hexdigest()


def kernel_sources(package: Path) -> list[Path]:
    """The Python files of ``KERNEL_SOURCES`` under ``package``."""
    files: list[Path] = []
    for name in KERNEL_SOURCES:
        where = package / name
        files.extend(where.rglob("*.py") if where.is_dir() else [where])
    return files


def versioned(kind: str, version: str) -> Path:
    """The folder of ``kind`` for ``version`` of its code (made if missing, and marked as
    used).  Making one removes the folders of other versions unused for ``UNUSED``
    seconds."""
    folder = root() / kind / version
    if folder.is_dir():
        os.utime(folder)
        return folder
    old = time.time() - UNUSED
    if folder.parent.is_dir():
        for other in folder.parent.iterdir():
            with suppress(OSError):  # another process may be removing it too
                if other.stat().st_mtime < old:
                    shutil.rmtree(other)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def use_for_kernels() -> None:
    """Point numba's cache at the folder of the current kernel sources, unless the user
    set ``NUMBA_CACHE_DIR``.  numba checks a cached kernel against its own file only, so
    without this a kernel would go on running the old copy of a kernel it calls after
    that one changed.  Children inherit the setting, marked as parlour's own
    (``KERNELS_MARK``): a child of other code (another checkout's engine, started by this
    one) takes the folder of its own sources, where its kernels were compiled before,
    rather than its parent's.  Without a writable cache numba keeps its own default."""
    inherited = os.environ.get("NUMBA_CACHE_DIR")
    if inherited and os.environ.get(KERNELS_MARK) != inherited:
        return  # the user's own
    try:
        version = digest(kernel_sources(PACKAGE), PACKAGE)
        if inherited and Path(inherited).name == version:
            return  # a parent's, of this very code
        folder = versioned("kernels", version)
    except OSError:
        return
    os.environ["NUMBA_CACHE_DIR"] = os.environ[KERNELS_MARK] = str(folder)
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before parlour: make it read its settings again
        numba.core.config.reload_config()


def kernel_file(name: str, source: str) -> Path:
    """A Python file ``name`` holding ``source``, for numba to compile and cache like any
    other: in the kernels' folder (which ``use_for_kernels`` makes numba's cache, so it
    outlives a test session's own cache folder), under a hash of ``source``.  It is
    written once: numba would take a rewritten file for a changed one."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    version = hashlib.blake2b(source.encode(), digest_size=8).hexdigest()
    folder = (Path(base) if base else root() / "kernels") / "generated" / version
    path = folder / name
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(path, source.encode())
    return path


def write_whole(path: Path, *parts: bytes | memoryview) -> None:
    """Write ``parts`` one after the other into ``path``, through a temporary file in its
    folder renamed into place: a reader (another process) finds the old file or the whole
    new one, never a part, and a write stopped halfway leaves nothing behind."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as file:
            for part in parts:
                file.write(part)
        os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)
