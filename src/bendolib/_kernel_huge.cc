/*
 * bendolib._kernel_huge: the compiled kernel's playout parts (the chain games' and the
 * triangle games'), the chain games' step API and new_game's deal (those of _kernel.c but
 * the triangle games' step API, the batched games, the small calls of state_obj.c and
 * module.c's deal_deck and deal_hands) built a third time, for tile sets of 129 to 256
 * tiles (double-15's 136 up to double-21's 253, triangles 0-8's 165 up to 249 with
 * mirrors): with BENDOLIB_HUGE,
 * _kernel.d/kernel.h makes a mask the value type of _kernel.d/mask_words.h with
 * MASK_WORDS 64-bit words (4 here), whose C++ operators are those the parts use on the
 * integer masks of the other builds.  These parts are written in the common subset of C
 * and C++ (an allocation cast to its type, no goto past an initialisation), so g++
 * compiles them as they are; setup.py builds this on Linux only (untested elsewhere),
 * never as a required extension; elsewhere such sets play on the Python engine.
 * _kernel_vast.cc builds this file again with 16 words (bendolib._kernel_vast, 257 to
 * 1,024 tiles).  bendolib.playouts sends a rule set here when its tile set has more
 * than 128 tiles.
 */
#ifndef MASK_WORDS
#define MASK_WORDS 4
#define STEP_ABOVE 128 /* the step API: the sets bendolib._kernel_wide leaves */
#define KBUILD "_kernel_huge"
#define KERNEL_INIT PyInit__kernel_huge
#define KDOC "tile sets of 129 to 256 tiles"
#endif
#define BENDOLIB_HUGE 1
#include "_kernel.d/kernel.h"
#include "_kernel.d/rng.c"
#include "_kernel.d/geom_hex.c"
#include "_kernel.d/listing.c"
#include "_kernel.d/rules.c"
#include "_kernel.d/boundary.c"
#include "_kernel.d/playout.c"

/* the triangle games' playouts (tri.c, compiled as C++ too): triangle sets of 129 to 256
 * tiles in this build (bendolib._kernel_tri_input takes at most 256; the vast build
 * compiles them too, and is never sent one) */
#include "_kernel.d/tri.c"
#include "_kernel.d/run.c"

/* the step API of the chain games (bendolib.engine's legal_moves and apply, when the
 * smaller builds give None), its parts compiled as C++ too: the triangle games' paths
 * (tri_step.c) decline every state */
static int tri_step_setup(PyObject *config) { return 0; }
static PyObject *tri_step_legal(PyObject *state, int *mine) {
    *mine = 0;
    return NULL;
}
static PyObject *tri_step_apply(PyObject *const *args, int *mine) {
    *mine = 0;
    return NULL;
}
#include "_kernel.d/step_setup.c"
#include "_kernel.d/step_listing.c"
#include "_kernel.d/step_legal.c"
#include "_kernel.d/step_apply.c"
#include "_kernel.d/deal.c"

static PyMethodDef methods[] = {
    PLAYOUT_METHODS
    STEP_METHODS
    DEAL_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, KNAME(""),
    "Whole playouts in compiled code, " KDOC " (see bendolib.playouts).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC KERNEL_INIT(void) {
    build_spiral();
    for (uint64_t b = 1; b < TABLED; b++)
        rests[b] = ((uint64_t)0 - b) % b;
    for (int s = 0; s < MAXP; s++)
        if (!(single_seat[s] = Py_BuildValue("(i)", s)))
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    /* one exception class for every build: bendolib._kernel's (callers catch that one) */
    PyObject *narrow = PyImport_ImportModule("bendolib._kernel");
    UnsupportedError = narrow ? PyObject_GetAttrString(narrow, "UnsupportedError") : NULL;
    Py_XDECREF(narrow);
    if (!UnsupportedError || PyModule_AddObject(m, "UnsupportedError", UnsupportedError)) {
        Py_XDECREF(UnsupportedError);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(UnsupportedError);
    if (PyModule_AddIntConstant(m, "ABI", KERNEL_ABI) || PyModule_AddIntConstant(m, "MAX_TILES", MAXT) ||
        PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
