/*
 * bendolib._kernel: whole playouts in compiled code.
 *
 * The specification is the Python engine (bendolib.engine) driven by
 * bendolib._playouts_reference: this file makes exactly the moves that code makes,
 * with the same SplitMix64 draws, and lists the legal moves in the engine's order.
 * bendolib._kernel_input turns a RuleSet into a flat "spec" tuple and a GameState into
 * a flat "state" tuple; anything this kernel does not know never reaches it (the
 * Python engine plays it instead).  Conditions met only inside a playout that the
 * kernel does not handle (a deal that never suits the start policy, a scorer asked
 * about a seat that laid no tile...) raise UnsupportedError, and the caller falls back.
 *
 * Data: tile sets of at most 64 tiles (hands, the drawn tiles and fit tables are
 * 64-bit masks; _kernel_wide.c builds the same parts with 128-bit masks, for up to 128
 * tiles, as bendolib._kernel_wide, _kernel_huge.cc the playout parts, the chain games'
 * step API and the deal with 256-bit masks, up to 256 tiles, as bendolib._kernel_huge,
 * and _kernel_vast.cc with 1,024-bit masks, up to 1,024, as bendolib._kernel_vast), at
 * most 8 players and 4 open ends.  On
 * the curved lattice a cell is kept in axial coordinates packed into 16 bits,
 * ((q + 128) << 8) | (r + 128), so the neighbour across a side is one addition (the
 * builds of more than 128 tiles refuse a chain that would leave that range); the
 * occupancy is a short list of
 * (cell, 6-bit corner mask) pairs, which makes a state a plain copyable struct.
 *
 * One translation unit: this file #includes the kernel's parts from _kernel.d/, in this
 * order (each part starts with a comment saying what it holds; setup.py lists them as
 * the extension's depends).  The folder's name has a dot so that it is no Python
 * package: it never shadows this extension, bendolib._kernel, when it is not built.
 */
#include "_kernel.d/kernel.h"       /* limits, enums, bits, Spec, KState, KMove */
#include "_kernel.d/rng.c"          /* SplitMix64 (bendolib._rng) */
#include "_kernel.d/geom_hex.c"     /* the curved lattice: occupancy, placing on a board */
#include "_kernel.d/listing.c"      /* the legal moves on structs */
#include "_kernel.d/rules.c"        /* round end, scoring, dealing, applying, policies */
#include "_kernel.d/boundary.c"     /* reading the spec and state tuples in */
#include "_kernel.d/playout.c"      /* outcomes and the playout loop (play_one) */
#include "_kernel.d/tri.c"          /* the triangle games' playouts */
#include "_kernel.d/run.c"          /* run, listing, perft, walk */
#include "_kernel.d/step_setup.c"   /* step API: layouts, step_setup, RulesInfo */
#include "_kernel.d/step_listing.c" /* step API: placements over the open ends */
#include "_kernel.d/step_legal.c"   /* step API: step_legal, step_fits */
#include "_kernel.d/step_apply.c"   /* step API: placing, finish, place, draw */
#include "_kernel.d/tri_step.c"     /* step API: the triangle games */
#include "_kernel.d/batch.c"        /* batched games (bendolib.vector) */
#include "_kernel.d/state_obj.c"    /* small calls: a GameState read here, play */
#include "_kernel.d/deal.c"         /* new_game's first deal */
#include "_kernel.d/module.c"       /* step_apply, deals, method table, init */
