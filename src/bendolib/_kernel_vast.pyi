"""
Types of the vast build of the compiled kernel (``_kernel_vast.cc``: the parts of
``_kernel.c`` with 1,024-bit masks, for tile sets of 257 to 1,024 tiles): ``compile``,
``run``, ``listing``, ``perft`` and ``walk``, the chain games' step API (``step_setup``,
``step_legal``, ``step_apply``) and new_game's deal (``deal``, ``deal_set``,
``deal_quick``), as in ``bendolib._kernel``.
"""

from bendolib._kernel import ABI as ABI
from bendolib._kernel import MAX_PLAYERS as MAX_PLAYERS
from bendolib._kernel import MAX_TILES as MAX_TILES
from bendolib._kernel import UnsupportedError as UnsupportedError
from bendolib._kernel import compile as compile
from bendolib._kernel import deal as deal
from bendolib._kernel import deal_quick as deal_quick
from bendolib._kernel import deal_set as deal_set
from bendolib._kernel import listing as listing
from bendolib._kernel import perft as perft
from bendolib._kernel import run as run
from bendolib._kernel import step_apply as step_apply
from bendolib._kernel import step_legal as step_legal
from bendolib._kernel import step_setup as step_setup
from bendolib._kernel import walk as walk
