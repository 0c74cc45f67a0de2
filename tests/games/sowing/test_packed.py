"""Endgame tables packed in a few bits a position (``packed``): the values come back as they
were, and a write touches its own bits alone."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.sowing import endgame, packed


@settings(max_examples=50, deadline=None)  # the first example compiles the kernels
@given(st.integers(1, 8), st.integers(0, 40), st.randoms(use_true_random=False))
def test_any_gains_a_count_can_hold_round_trip(bits: int, seeds: int, rng: random.Random) -> None:
    """A count n's gains are n less twice the mover's seeds to come, 0..n; written at any
    bit (``first``) of a table of any width holding n, they read back as they were."""
    seeds = min(seeds, (1 << bits) - 2)
    first, count = rng.randrange(20), rng.randrange(1, 50)
    gains = np.array([2 * rng.randint(0, seeds) - seeds for _ in range(count)], dtype=np.int8)
    table = packed.empty(first + count, bits)
    assert packed.store(table, bits, first, seeds, gains)
    back = np.empty(count, dtype=np.int64)
    packed.load(table, bits, first, seeds, back)
    assert np.array_equal(back, gains)
    assert all(packed.read(table, bits, i) == (1 << bits) - 1 for i in range(first))


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 8), st.randoms(use_true_random=False))
def test_a_write_changes_its_own_position_alone(bits: int, rng: random.Random) -> None:
    count = 40
    mine = [rng.randrange(1 << bits) for _ in range(count)]
    table = packed.empty(count, bits)
    packed.put(table, bits, 0, np.array(mine, dtype=np.uint8))
    i, new = rng.randrange(count), rng.randrange(1 << bits)
    packed.write(table, bits, i, new)
    mine[i] = new
    assert [packed.read(table, bits, j) for j in range(count)] == mine


def test_a_value_no_position_can_have_is_refused() -> None:
    table = packed.empty(10, 5)
    assert not packed.store(table, 5, 0, 5, np.array([1, 3, 4], dtype=np.int8))  # 4: even
    assert not packed.store(table, 5, 0, 3, np.array([5], dtype=np.int8))  # at most +3
    assert packed.store(table, 5, 0, 3, np.array([-3, 3], dtype=np.int8))


def test_six_pits_take_five_bits_a_position() -> None:
    """On six pits a side a table goes to 30 seeds in the pits: seeds to come 0..30 and
    all ones fit five bits, 5/8 of a byte a position (the 30-seed table 6.9 GB, not 11.1)."""
    assert endgame.largest(6) == 30 and endgame.width(6) == 5
    assert endgame.table_bytes(6, 30) < 0.63 * endgame.positions(6, 30)
    assert [packed.width(most) for most in (1, 2, 6, 7, 30, 31, 254)] == [2, 2, 3, 4, 5, 6, 8]
    with pytest.raises(ValueError, match="need 9 bits"):
        packed.width(255)
