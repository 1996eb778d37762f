"""One kind of kernel call, many times, for counting its instructions with callgrind.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/call_instructions.py MODE

MODE is ``large`` (one ``_kernel.run`` of 20,000 random playouts of Basic, 2 players,
from the deal of seed 3), ``full`` (20,000 calls of ``playouts(state, 1)``), ``run1``
(20,000 direct ``_kernel.run`` calls of one playout), ``run0`` (of none), ``tuple``
(20,000 ``state_tuple`` conversions) or ``loop`` (the same start and an empty loop, to
subtract).  Instructions per playout or call: (the mode's count - loop's) / 20,000.
Callgrind counts instructions, which other load on the machine does not change.
"""

from __future__ import annotations

import sys

import bendolib.playouts as api
from bendolib import new_game
from bendolib._kernel_input import state_tuple
from bendolib._playouts_reference import Outcome
from bendolib.rules import BASIC

N = 20000


def main() -> None:
    state = new_game(BASIC, 2, seed=3)
    spec, _ = api._compiled(BASIC, 2)
    flat = state_tuple(state)
    kernel = api._kernel
    assert kernel is not None and spec is not None, "the compiled kernel is not loaded"
    mode = sys.argv[1]
    if mode == "full":
        for _ in range(N):
            api.playouts(state, 1, seed=1)
    elif mode == "run1":
        for _ in range(N):
            kernel.run(spec, flat, 1, 0, 1, False, False, None, Outcome)
    elif mode == "run0":
        for _ in range(N):
            kernel.run(spec, flat, 0, 0, 1, False, False, None, Outcome)
    elif mode == "tuple":
        for _ in range(N):
            state_tuple(state)
    elif mode == "large":
        kernel.run(spec, flat, N, 0, 1, False, False, None, Outcome)
    elif mode == "loop":
        for _ in range(N):
            pass
    else:
        raise SystemExit(f"unknown mode {mode!r}: large, full, run1, run0, tuple or loop")


if __name__ == "__main__":
    main()
