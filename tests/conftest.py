"""The whole session's settings: a cache folder of its own, for the endgame tables.

``parlour`` is imported first (with ``parlour.cache``), so that the compiled kernels stay
where every run of parlour finds them (the user's cache folder for these sources, which
``NUMBA_CACHE_DIR`` then names for the child processes too): compiling them again would
cost each run minutes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour import cache


@pytest.fixture(autouse=True, scope="session")
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One temporary cache folder for the session and the processes it starts: each
    endgame table is built once a run, and never into the user's cache."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(cache.ENVIRONMENT, str(folder))
        yield folder
