/*
 * bendolib._kernel_vast: _kernel_huge.cc (the chain games' playouts, step API and
 * new_game's deal, as C++) built again with masks of 16 64-bit words, for tile sets of
 * 257 to 1,024 tiles (double-22's 276 up to double-43's 990, the library's limit,
 * bendolib.limits.MAX_TILES):
 * a tile index is then two bytes.  Its own build rather than wider masks in
 * bendolib._kernel_huge, whose 4 words keep the smaller sets' speed.  bendolib.playouts
 * sends a chain rule set here when its tile set has more than 256 tiles.
 */
#define MASK_WORDS 16
#define STEP_ABOVE 256 /* the step API: the sets bendolib._kernel_huge leaves */
#define KBUILD "_kernel_vast"
#define KERNEL_INIT PyInit__kernel_vast
#define KDOC "tile sets of 257 to 1,024 tiles"
#include "_kernel_huge.cc"
