/*
 * bendolib._kernel_wide: the compiled kernel of _kernel.c built a second time, from the
 * same parts, for tile sets of 65 to 128 tiles (double-12 and the sets between): with
 * BENDOLIB_WIDE, _kernel.d/kernel.h makes a mask an unsigned __int128 and raises the
 * limits that scale with the tiles (MAXT, MAXOCC).  bendolib.playouts sends a rule set
 * here when its tile set is larger than bendolib._kernel takes; bendolib._kernel itself
 * is built exactly as before (its 64-bit masks keep their speed).
 */
#define BENDOLIB_WIDE 1
#include "_kernel.c"
