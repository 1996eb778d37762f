"""
Adapters to other frameworks, each behind an optional extra (never imported by
``import bendolib``): :mod:`bendolib.adapters.openspiel` (``bendolib[openspiel]``),
:mod:`bendolib.adapters.gymnasium` (``bendolib[gymnasium]``) and
:mod:`bendolib.adapters.pettingzoo` (``bendolib[pettingzoo]``).

Importing an adapter whose extra is not installed raises :class:`MissingExtraError`
(a ``ModuleNotFoundError``) that says which extra to install.
"""

from __future__ import annotations

__all__ = ["MissingExtraError", "missing_extra"]


class MissingExtraError(ModuleNotFoundError):
    """
    An adapter imported without the packages of its extra: ``adapter`` is the
    module, ``extra`` the extra that provides them, ``name`` the missing module.
    """

    def __init__(self, adapter: str, extra: str, missing: str | None) -> None:
        super().__init__(
            f"{adapter} needs the '{extra}' extra (no module named {missing!r}): "
            f"pip install 'bendolib[{extra}]'",
            name=missing,
        )
        self.adapter = adapter
        self.extra = extra


def missing_extra(adapter: str, extra: str, error: ImportError) -> MissingExtraError:
    """The error an adapter raises when importing one of its extra's packages failed."""
    return MissingExtraError(adapter, extra, error.name)
