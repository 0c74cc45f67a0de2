"""perft leaves per second: parlour's numba kernel beside plain C and plain Python.

Seed 003 moved the Mancala move function to C for speed; this measures how close the
numba kernel comes.  The C and Python versions below are independent transcriptions of the
same explicit-stack walk and the same rules (RULES.md section 1, ``kalah``); each run checks
that all three count the same leaves before it prints the ratios.  One difference is
parlour's by design: its kernel is compiled once per board size, with the size a constant
(the C below reads it at run time, as a plain version would).

    .venv/bin/python benchmarks/perft.py [--depth 10] [--python-depth 7] [--quick]
"""

from __future__ import annotations

import argparse
import ctypes
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import parlour
from parlour.games.sowing.game import SowingState
from record import arguments, record, whole

C_SOURCE = r"""
/* perft for the kalah rules (6 pits, store skipping, empty capture), layout as parlour's. */
#include <string.h>
#define MAXD 64
static int over(const int *b, int p) {
    int e0 = 1, e1 = 1;
    for (int i = 0; i < p; i++) { if (b[i]) e0 = 0; if (b[p + 1 + i]) e1 = 0; }
    return e0 || e1;
}
static int play(int *b, int p, int col, int rules) {
    int holes = 2 * p + 2, me = b[holes];
    int store = me == 0 ? p : 2 * p + 1;
    int skip = (rules & 1) ? -1 : (me == 0 ? 2 * p + 1 : p);
    int i = me == 0 ? col : 2 * p - col, seeds = b[i], extra = 0;
    b[i] = 0;
    while (seeds > 0) { if (++i == holes) i = 0; if (i != skip) { b[i]++; seeds--; } }
    if (i == store) extra = 1;
    else if (b[i] == 1 && (me == 0 ? i < p : (i > p && i <= 2 * p))) {
        int o = 2 * p - i;
        if (b[o] > 0 || (rules & 2)) { b[store] += b[i] + b[o]; b[i] = 0; b[o] = 0; }
    }
    if (over(b, p)) {
        for (int c = 0; c < p; c++) { b[p] += b[c]; b[c] = 0; b[2*p+1] += b[p+1+c]; b[p+1+c] = 0; }
        return 1;
    }
    if (!extra) b[holes] = 1 - me;
    return 0;
}
long long perft(const int *board, int n, int depth, int rules) {
    int p = (n - 3) / 2, stack[MAXD + 1][64], next[MAXD + 1], level = 0;
    long long leaves = 0;
    if (depth == 0 || over(board, p)) return 1;
    memcpy(stack[0], board, n * sizeof(int));
    next[0] = 0;
    while (level >= 0) {
        int col = next[level];
        if (col >= p) { level--; continue; }
        next[level] = col + 1;
        int *here = stack[level], me = here[n - 1];
        if (here[me == 0 ? col : 2 * p - col] == 0) continue;
        int *child = stack[level + 1];
        memcpy(child, here, n * sizeof(int));
        if (play(child, p, col, rules) || level + 1 == depth) leaves++;
        else next[++level] = 0;
    }
    return leaves;
}
"""


def compile_c() -> Callable[[np.ndarray, int, int], int]:
    """Compile C_SOURCE with the system compiler and return a callable like the kernel's."""
    folder = Path(tempfile.mkdtemp(prefix="parlour-perft-"))
    (folder / "perft.c").write_text(C_SOURCE)
    library = folder / "perft.so"
    subprocess.run(
        ["cc", "-O2", "-shared", "-fPIC", str(folder / "perft.c"), "-o", str(library)],
        check=True,
    )
    function = ctypes.CDLL(str(library)).perft
    function.restype = ctypes.c_longlong
    function.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int, ctypes.c_int]

    def perft_c(board: np.ndarray, depth: int, rules: int) -> int:
        data = np.ascontiguousarray(board, dtype=np.int32)  # C works on int
        return int(
            function(data.ctypes.data_as(ctypes.POINTER(ctypes.c_int)), len(data), depth, rules)
        )

    return perft_c


def perft_python(board: list[int], depth: int, rules: int) -> int:
    """The same rules in plain Python, recursive, on lists."""
    p = (len(board) - 3) // 2
    if depth == 0 or _over(board, p):
        return 1
    me = board[-1]
    leaves = 0
    for col in range(p):
        if board[col if me == 0 else 2 * p - col] == 0:
            continue
        child = board.copy()
        if _play(child, p, col, rules):
            leaves += 1
        else:
            leaves += perft_python(child, depth - 1, rules)
    return leaves


def _over(b: list[int], p: int) -> bool:
    return not any(b[:p]) or not any(b[p + 1 : 2 * p + 1])


def _play(b: list[int], p: int, col: int, rules: int) -> bool:
    """Play one move in place; True when it ends the game."""
    holes, me = 2 * p + 2, b[-1]
    store = p if me == 0 else 2 * p + 1
    skip = -1 if rules & 1 else (2 * p + 1 if me == 0 else p)
    i = col if me == 0 else 2 * p - col
    seeds, b[i], extra = b[i], 0, False
    while seeds:
        i = (i + 1) % holes
        if i != skip:
            b[i] += 1
            seeds -= 1
    own = i < p if me == 0 else p < i <= 2 * p
    if i == store:
        extra = True
    elif b[i] == 1 and own and (b[2 * p - i] > 0 or rules & 2):
        b[store] += b[i] + b[2 * p - i]
        b[i] = b[2 * p - i] = 0
    if _over(b, p):
        for c in range(p):
            b[p] += b[c]
            b[2 * p + 1] += b[p + 1 + c]
            b[c] = b[p + 1 + c] = 0
        return True
    if not extra:
        b[-1] = 1 - me
    return False


def measure(name: str, run: Callable[[], int], repeat: int) -> tuple[int, float]:
    """Best of ``repeat`` runs: (leaves, leaves per second)."""
    best = float("inf")
    leaves = 0
    for _ in range(repeat):
        started = time.perf_counter()
        leaves = run()
        best = min(best, time.perf_counter() - started)
    rate = leaves / best
    print(f"{name:<8} {leaves:>12,} leaves  {best:8.3f} s  {rate:>14,.0f} leaves/s")
    return leaves, rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=whole(), default=10)
    parser.add_argument("--python-depth", type=whole(0), default=7)
    parser.add_argument("--repeat", type=whole(), default=3)
    args = arguments(parser, quick={"depth": 5, "python_depth": 4, "repeat": 1})

    start = parlour.game("kalah").start()
    assert isinstance(start, SowingState)
    board, rules = start.board.copy(), start.game.rules
    perft_c = compile_c()
    start.perft(2)  # compile (or load from cache) before timing

    print(f"kalah (6 pits, 4 seeds), perft depth {args.depth}, best of {args.repeat}")
    leaves, parlour_rate = measure("parlour", lambda: start.perft(args.depth), args.repeat)
    leaves_c, c_rate = measure("C -O2", lambda: perft_c(board, args.depth, rules), args.repeat)
    assert leaves == leaves_c, "the C version counts differently"
    as_list = [int(v) for v in board]
    python_leaves, python_rate = measure(
        f"Python d{args.python_depth}", lambda: perft_python(as_list, args.python_depth, rules), 1
    )
    assert python_leaves == start.perft(args.python_depth)
    print(f"parlour / C      = {parlour_rate / c_rate:.2f}x")
    print(f"parlour / Python = {parlour_rate / python_rate:.0f}x")
    rates = {"parlour": parlour_rate, "c": c_rate, "python": python_rate}
    record(args, {"leaves": leaves, "leaves_per_second": rates})


if __name__ == "__main__":
    main()
