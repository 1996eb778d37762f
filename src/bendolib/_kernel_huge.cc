/*
 * bendolib._kernel_huge: the compiled kernel's playout parts (those of _kernel.c but the
 * step API and the batched games: the chain games' and the triangle games' playouts)
 * built a third time, for tile sets of 129 to 256 tiles (double-15's 136 up to
 * double-21's 253, triangles 0-8's 165 up to 249 with mirrors): with BENDOLIB_HUGE,
 * _kernel.d/kernel.h makes a mask the 256-bit value type of _kernel.d/mask256.h, whose
 * C++ operators are those the parts use on the integer masks of the other builds, and a
 * tile index an unsigned byte.  The playout parts are written in the common subset of
 * C and C++ (an allocation cast to its type, no goto past an initialisation), so g++
 * compiles them as they are; setup.py builds this on Linux only (untested elsewhere),
 * never as a required extension; elsewhere such sets play on the Python engine.
 * bendolib.playouts sends a rule set here when its tile set has more than 128 tiles.
 */
#define BENDOLIB_HUGE 1
#include "_kernel.d/kernel.h"
#include "_kernel.d/rng.c"
#include "_kernel.d/geom_hex.c"
#include "_kernel.d/listing.c"
#include "_kernel.d/rules.c"
#include "_kernel.d/boundary.c"
#include "_kernel.d/playout.c"

#include "_kernel.d/tri.c"
#include "_kernel.d/run.c"

static PyMethodDef methods[] = {
    PLAYOUT_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, KNAME(""),
    "Whole playouts in compiled code, tile sets of 129 to 256 tiles (see bendolib.playouts).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel_huge(void) {
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
