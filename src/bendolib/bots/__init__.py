"""
Bots: the :class:`Bot` protocol, baseline players and search players, by name.

``bendolib.bots.get("greedy")`` returns a new bot; ``names()`` lists the registered
ones ("random", "greedy", "search", "infoset"); ``register`` adds a factory under a
new name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bendolib.bots.baseline import GreedyBot, RandomBot
from bendolib.bots.bot import Bot
from bendolib.bots.infoset import InfoSetBot
from bendolib.bots.search import SearchBot
from bendolib.errors import BendolibError

_FACTORIES: dict[str, Callable[..., Bot]] = {}


class UnknownBotError(BendolibError, LookupError):
    """A bot name that is not registered."""


def register(name: str, factory: Callable[..., Bot], *, replace: bool = False) -> None:
    """Make ``factory(**params)`` available as ``get(name, **params)``."""
    if name in _FACTORIES and not replace:
        raise ValueError(f"a bot named {name!r} is already registered")
    _FACTORIES[name] = factory


def get(name: str, **params: Any) -> Bot:
    """A new bot registered as ``name``, built with ``params``."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(sorted(_FACTORIES))
        raise UnknownBotError(f"unknown bot {name!r}; known: {known}") from None
    return factory(**params)


def names() -> tuple[str, ...]:
    """The registered bot names, in registration order."""
    return tuple(_FACTORIES)


register("random", RandomBot)
register("greedy", GreedyBot)
register("search", SearchBot)
register("infoset", InfoSetBot)

__all__ = [
    "Bot",
    "GreedyBot",
    "InfoSetBot",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "get",
    "names",
    "register",
]
