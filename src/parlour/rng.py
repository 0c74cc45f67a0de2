"""splitmix64, the one home of the compiled code's random numbers and hash mixing.

:func:`mix` is splitmix64's finaliser, a bijection of 64-bit words that scrambles every
bit: the searches hash positions with it (:mod:`parlour.search.table`, the games' keys).
A generator is splitmix64's state kept in a one-element ``uint64`` array, so that the
compiled code and plain Python share it: :func:`rng_start` starts one stream a game of a
run (War's deals, the batches' random moves), :func:`rng_below` draws from it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


@njit(cache=True, nogil=True)
def mix(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser: every bit of the input moves about half the output bits."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True)
def rng_start(rng: np.ndarray, seed: int, index: int) -> None:
    """Start game ``index``'s own stream of the run ``seed``.

    One stream a game (not one a thread) is what makes a run's numbers the same whatever
    the number of threads, and lets the actors replay any single game of a run.
    """
    rng[0] = mix(np.uint64(seed) ^ mix(np.uint64(index) * _GAMMA + _GAMMA))


@njit(cache=True, nogil=True)
def rng_below(rng: np.ndarray, n: int) -> np.int64:
    """A random int in 0..n-1 (multiply-shift of the high 32 bits: bias below n / 2**32)."""
    rng[0] += _GAMMA
    high = mix(rng[0]) >> _S32
    return np.int64((high * np.uint64(n)) >> _S32)


def new_rng(seed: int, index: int) -> np.ndarray:
    """A generator array for plain Python callers, started on game ``index`` of ``seed``."""
    rng = np.zeros(1, dtype=np.uint64)
    rng_start(rng, seed, index)
    return rng
