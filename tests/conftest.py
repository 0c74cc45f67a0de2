"""The whole session's settings: a cache folder of its own, for the endgame tables, and
the hypothesis profiles.

``parlour`` is imported first (with ``parlour.cache``), so that the compiled kernels stay
where every run of parlour finds them (the user's cache folder for these sources, which
``NUMBA_CACHE_DIR`` then names for the child processes too): compiling them again would
cost each run minutes.

The hypothesis profile ``long`` (``--hypothesis-profile=long``, or the environment
variable ``HYPOTHESIS_PROFILE=long``) runs 40 times the default examples: 100,000 inputs
for the fuzz suite of tests/test_fuzz.py, whose tests scale with ``max_examples``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from parlour import cache

settings.register_profile("long", max_examples=4_000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True, scope="session")
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One temporary cache folder for the session and the processes it starts: each
    endgame table is built once a run, and never into the user's cache."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(cache.ENVIRONMENT, str(folder))
        patch.setenv("XDG_DATA_HOME", str(folder / "data"))  # the arena's default database
        yield folder
