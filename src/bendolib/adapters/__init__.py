"""
Adapters to other frameworks, each behind an optional extra (never imported by
``import bendolib``): :mod:`bendolib.adapters.openspiel` (``bendolib[openspiel]``),
:mod:`bendolib.adapters.gymnasium` (``bendolib[gymnasium]``) and
:mod:`bendolib.adapters.pettingzoo` (``bendolib[pettingzoo]``).
"""
