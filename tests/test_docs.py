"""docs/api.md's examples run as written, and the adapters' docstring examples hold."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

API = Path(__file__).parents[1] / "docs" / "api.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


@pytest.mark.slow
def test_the_api_page_runs_top_to_bottom(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = BLOCK.findall(API.read_text())
    assert len(blocks) >= 9  # games, engine, actors, envs, batch, OpenSpiel
    namespace: dict[str, object] = {"__name__": "__main__"}  # as a script the reader runs
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"{API.name} block {number}", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "illegal move 3: pit D is empty" in printed
    assert "games finished" in printed
    assert "4 games recorded in match 1" in printed  # the arena's match, read back
    assert "'player_0': (" in printed  # the environment's rewards and margins


@pytest.mark.parametrize("module", ["parlour.batch", "parlour.envs", "parlour.openspiel"])
def test_docstring_examples(module: str) -> None:
    failed, tried = doctest.testmod(importlib.import_module(module))
    assert failed == 0 and tried > 0
