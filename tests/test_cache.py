"""parlour's cache folder: the numba kernels' folder follows their sources, old folders go."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parlour import cache


def kernels_hash(package: Path) -> str:
    return cache.digest(cache.kernel_sources(package), package)


@pytest.mark.parametrize(
    ("edited", "changes"),
    [
        ("games/sowing/game.py", True),  # rules that other kernels call
        ("games/sowing/evaluation.py", True),
        ("core.py", True),  # constants the rules read
        ("cli/analyze.py", False),  # no kernel there: the compiled kernels stay valid
    ],
)
def test_the_kernels_folder_changes_with_their_sources(
    tmp_path: Path, edited: str, changes: bool
) -> None:
    copy = tmp_path / "parlour"
    shutil.copytree(cache.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = kernels_hash(copy)
    assert before == kernels_hash(cache.PACKAGE)  # the contents decide, not the place
    with (copy / edited).open("a") as source:
        source.write("\n# an edit\n")
    assert (kernels_hash(copy) != before) == changes


def numba_settings(code: str, **environment: str) -> list[str]:
    """What ``code`` prints in a fresh interpreter, with ``environment`` and without the
    ``NUMBA_CACHE_DIR`` this process inherited from its own ``import parlour``."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | environment
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return run.stdout.split()


KERNEL_FOLDER = (
    "import {first}, {then}, numba; from parlour.games.sowing import game as sowing;"
    "print(numba.config.CACHE_DIR, sowing.apply_move._cache.cache_path)"
)


@pytest.mark.parametrize("first", ["parlour", "numba"])
def test_numba_caches_kernels_in_the_folder_of_their_sources(tmp_path: Path, first: str) -> None:
    """Whether numba is imported before parlour or not, its kernels go to the folder
    named by the hash of the kernel sources."""
    then = "numba" if first == "parlour" else "parlour"
    found, kernel = numba_settings(
        KERNEL_FOLDER.format(first=first, then=then), PARLOUR_CACHE_DIR=str(tmp_path)
    )
    expected = tmp_path / "kernels" / kernels_hash(cache.PACKAGE)
    assert Path(found) == expected
    assert Path(kernel).is_relative_to(expected)
    assert expected.is_dir()


def test_a_numba_cache_folder_of_the_user_s_own_is_kept(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    found, _ = numba_settings(
        KERNEL_FOLDER.format(first="parlour", then="numba"),
        PARLOUR_CACHE_DIR=str(tmp_path),
        NUMBA_CACHE_DIR=str(mine),
    )
    assert Path(found) == mine
    assert not (tmp_path / "kernels").exists()


def test_a_child_of_other_code_takes_the_folder_of_its_own_sources(tmp_path: Path) -> None:
    """A parlour of other code (another checkout) that started this one leaves it the
    folder of its parent's sources, marked as parlour's: this one takes its own, where its
    kernels were compiled before; a parent of the same code passes its folder on."""
    code = KERNEL_FOLDER.format(first="parlour", then="numba")
    parents = tmp_path / "kernels" / "0123456789abcdef"
    found, _ = numba_settings(
        code, PARLOUR_CACHE_DIR=str(tmp_path), NUMBA_CACHE_DIR=str(parents),
        PARLOUR_KERNELS_DIR=str(parents),
    )  # fmt: skip
    assert Path(found) == tmp_path / "kernels" / kernels_hash(cache.PACKAGE)
    same = tmp_path / "elsewhere" / kernels_hash(cache.PACKAGE)
    found, _ = numba_settings(
        code, PARLOUR_CACHE_DIR=str(tmp_path), NUMBA_CACHE_DIR=str(same),
        PARLOUR_KERNELS_DIR=str(same),
    )  # fmt: skip
    assert Path(found) == same


def test_a_new_version_s_folder_removes_the_unused_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENVIRONMENT, str(tmp_path))
    long_ago = time.time() - cache.UNUSED - 60
    old, recent, used = (cache.versioned("kind", name) for name in ("old", "recent", "used"))
    for folder in (old, used):
        (folder / "file").write_bytes(b"kept")
        os.utime(folder, (long_ago, long_ago))
    assert cache.versioned("kind", "used") == used  # a use marks the folder as used now
    new = cache.versioned("kind", "new")
    assert new.is_dir() and recent.is_dir() and (used / "file").read_bytes() == b"kept"
    assert not old.exists()
