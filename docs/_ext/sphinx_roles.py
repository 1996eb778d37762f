"""
A griffe extension for the API reference: Sphinx roles in docstrings become links.

The docstrings write cross-references the Sphinx way (``:class:`ParseError```,
``:func:`~bendolib.engine.apply```). Before mkdocstrings renders them, each role whose
name resolves to a documented bendolib object becomes a Markdown autorefs link to it
(so a reference to an object missing from the API pages fails the strict build); any
other role (``:mod:`random```) becomes plain code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(
    r":(?:py:)?(?:class|func|meth|attr|data|exc|mod|obj|const):`(~?)([\w.]+)(?:\(\))?`"
)
PACKAGE = "bendolib"


def _target(obj: griffe.Object, name: str, package: griffe.Module) -> griffe.Object | None:
    """The bendolib object that ``name``, written in ``obj``'s docstring, refers to."""
    head, _, rest = name.partition(".")
    if head == PACKAGE:
        path = rest
    else:
        try:
            resolved = obj.resolve(head)
        except Exception:  # griffe's NameResolutionError, or an unloaded alias target
            return None
        if resolved != PACKAGE and not resolved.startswith(PACKAGE + "."):
            return None
        path = ".".join(p for p in (resolved.partition(".")[2], rest) if p)
    try:
        found = package[path] if path else package
    except Exception:  # no such member
        return None
    while isinstance(found, griffe.Alias):
        try:
            found = found.final_target
        except Exception:  # an alias to an object griffe did not load
            return None
    return found


def _documented(target: griffe.Object) -> bool:
    """True if the API pages render ``target``: every public object (no ``_`` in its path)."""
    return not any(part.startswith("_") for part in target.path.split("."))


def _rewrite(obj: griffe.Object, package: griffe.Module) -> None:
    """Replace the roles in ``obj``'s docstring by links or code."""
    docstring = obj.docstring
    if docstring is None or ":" not in docstring.value:
        return

    def link(match: re.Match[str]) -> str:
        short, name = match.group(1), match.group(2)
        shown = name.rsplit(".", 1)[-1] if short else name
        target = _target(obj, name, package)
        if target is None or not _documented(target):
            return f"`{shown}`"
        return f"[`{shown}`][{target.path}]"

    docstring.value = ROLE.sub(link, docstring.value)


def _walk(obj: griffe.Object, package: griffe.Module) -> None:
    """Rewrite the docstrings of ``obj`` and every object defined in it."""
    _rewrite(obj, package)
    for member in obj.members.values():
        if not isinstance(member, griffe.Alias):
            _walk(member, package)


class SphinxRoles(griffe.Extension):
    """Turn the Sphinx cross-reference roles of bendolib's docstrings into links."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite every docstring of the package once it is loaded."""
        if pkg.name == PACKAGE:
            _walk(pkg, pkg)
