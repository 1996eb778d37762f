"""
Adapters to other frameworks, each behind an optional extra (never imported by
``import bendolib``): :mod:`bendolib.adapters.openspiel` (``bendolib[openspiel]``) and
:mod:`bendolib.adapters.pettingzoo` (``bendolib[pettingzoo]``).
"""
