"""Fast constructors for the frozen value classes built on every move (the hot path)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

T = TypeVar("T")


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """
    A function taking every field of the slotted, frozen attrs class ``cls`` in order
    and returning the instance, as ``cls(...)`` would, without the generic
    ``__init__``: each slot is written once, before anyone can see the object.

    Only for classes with no validators, converters, ``on_setattr`` hooks or
    ``__attrs_post_init__`` (checked here), so the result is identical to ``cls(...)``.
    """
    fields = attrs.fields(cast(Any, cls))
    if getattr(cls, "__attrs_post_init__", None) is not None:
        raise TypeError(f"{cls.__name__} has __attrs_post_init__")
    for field in fields:
        if field.validator is not None or field.converter is not None or not field.init:
            raise TypeError(f"{cls.__name__}.{field.name} is not a plain field")
    names = [field.name for field in fields]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    self = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = getattr(cls, name).__set__  # the slot, inherited or own
        lines.append(f"    _set{i}(self, {name})")
    lines.append("    return self")
    exec("\n".join(lines), namespace)  # source built from field names only
    make: Callable[..., T] = namespace["make"]
    make.__doc__ = f"A new {cls.__name__} from all its fields, in order."
    return make


_UNCHANGED: Any = object()


def fast_evolver(cls: type[T]) -> Callable[..., T]:
    """
    A function ``evolve(instance, **changes)`` for the slotted, frozen attrs class
    ``cls``: a new instance with the fields named in ``changes`` replaced, like
    ``attrs.evolve`` but without its per-call introspection.  Same restrictions as
    :func:`fast_constructor`.
    """
    fast_constructor(cls)  # the checks
    names = [field.name for field in attrs.fields(cast(Any, cls))]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_U": _UNCHANGED}
    params = ", ".join(f"{name}=_U" for name in names)
    lines = [f"def evolve(_old, *, {params}):", "    self = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = getattr(cls, name).__set__  # the slot, inherited or own
        lines.append(f"    _set{i}(self, _old.{name} if {name} is _U else {name})")
    lines.append("    return self")
    exec("\n".join(lines), namespace)  # source built from field names only
    evolve: Callable[..., T] = namespace["evolve"]
    evolve.__doc__ = f"A copy of a {cls.__name__} with some fields replaced."
    return evolve
