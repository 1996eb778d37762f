"""
Types of the wide build of the compiled kernel (``_kernel_wide.c``: the parts of
``_kernel.c`` with 128-bit masks, for tile sets of 65 to 128 tiles): the same functions.
"""

from bendolib._kernel import *  # noqa: F403
