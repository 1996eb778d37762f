"""One kind of kernel call, many times, for counting its instructions with callgrind.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/call_instructions.py MODE

MODE is ``large`` (one ``_kernel.run`` of 20,000 random playouts of Basic, 2 players,
from the deal of seed 3), ``full`` (20,000 calls of ``playouts(state, 1)``), ``quick``
(20,000 direct ``_kernel.quick`` calls of one playout, the C call ``playouts`` makes),
``play0`` (20,000 ``_kernel.play`` calls of no playout: reading the state's slots),
``run1`` (20,000 direct ``_kernel.run`` calls of one playout), ``run0`` (of none),
``tuple`` (20,000 ``state_tuple`` conversions), ``deal`` (20,000 ``new_game`` calls) or
``loop`` (the same start and an empty loop, to subtract).  Instructions per playout or
call: (the mode's count - loop's) / 20,000.
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
    elif mode == "quick":
        for _ in range(N):
            kernel.quick(state, 1, "random", 1, "round", False)
    elif mode == "play0":
        for _ in range(N):
            kernel.play(spec, state, 0, 0, 1, False, False, None, Outcome)
    elif mode == "deal":
        for seed in range(N):
            new_game(BASIC, 2, seed=seed)
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
        raise SystemExit(
            f"unknown mode {mode!r}: large, full, quick, play0, run1, run0, tuple, deal or loop"
        )


if __name__ == "__main__":
    main()
