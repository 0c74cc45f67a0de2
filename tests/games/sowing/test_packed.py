"""Endgame tables packed in fewer bits (``packed``): the values come back as they were."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.sowing import endgame, packed

RULES = 2  # Kalah's: empty captures


@pytest.mark.parametrize("slice_", [packed.SLICE, 8, 24])
def test_a_built_table_packed_unpacks_to_its_values(
    monkeypatch: pytest.MonkeyPatch, slice_: int
) -> None:
    """In slices of any multiple of 8 positions (each count then ends mid-byte)."""
    monkeypatch.setattr(packed, "SLICE", slice_)
    values = endgame.build(4, RULES, 9, lambda done: None)
    small = packed.pack(values, 4)
    assert len(small) == packed.packed_bytes(4, 9) < len(values) // 2 + 10  # 4 bits each
    assert np.array_equal(packed.unpack(small, 4, 9), values)


@settings(max_examples=50)
@given(st.integers(1, 4), st.integers(0, 10), st.randoms(use_true_random=False))
def test_any_values_a_table_can_hold_round_trip(pits: int, seeds: int, rng: random.Random) -> None:
    """Each count n's values are n less twice the mover's seeds to come, 0..n."""
    values = np.concatenate(
        [
            np.array(
                [
                    2 * rng.randint(0, n) - n
                    for _ in range(endgame.positions(pits, n) - endgame.positions(pits, n - 1))
                ],
                dtype=np.int8,
            )
            for n in range(seeds + 1)
        ]
    )
    assert np.array_equal(packed.unpack(packed.pack(values, pits), pits, seeds), values)


def test_a_value_no_position_can_have_is_refused() -> None:
    values = endgame.build(3, RULES, 5, lambda done: None)
    odd = values.copy()
    odd[endgame.positions(3, 4)] += 1  # the first position of 5 seeds: now even
    with pytest.raises(ValueError, match="values of 5 seeds in the pits are not gains"):
        packed.pack(odd, 3)
    too_big = values.copy()
    too_big[endgame.positions(3, 2)] = 5  # 3 seeds in the pits: at most +3
    with pytest.raises(ValueError, match="of 3 seeds"):
        packed.pack(too_big, 3)


def test_bytes_that_are_not_the_table_s_are_refused() -> None:
    small = packed.pack(endgame.build(3, RULES, 5, lambda done: None), 3)
    with pytest.raises(ValueError, match="no packed table of 3 pits a side to 6 seeds"):
        packed.unpack(small, 3, 6)


def test_the_widths_halve_a_table_to_15_seeds() -> None:
    assert [packed.width(n) for n in (0, 1, 2, 3, 15, 16, 28, 31, 32)] == [
        1,
        1,
        2,
        2,
        4,
        5,
        5,
        5,
        6,
    ]
    assert packed.packed_bytes(6, 14) < endgame.positions(6, 14) // 2 + 15
    assert packed.packed_bytes(6, 28) < 0.63 * endgame.positions(6, 28)  # 3.5 GB of 5.6
