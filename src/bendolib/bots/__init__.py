"""
Bots: the :class:`Bot` protocol, baseline players and search players, by name.

``bendolib.bots.get("greedy")`` returns a new bot; ``names()`` lists the registered
ones ("random", "greedy", "search", "infoset", "ismcts", "process") and those other
packages install (entry-point group ``bendolib.bots``); ``register`` adds a factory under
a new name; ``load("search(worlds=16)")``, ``load("mybot:FlatMC(worlds=10)")`` or
``load("path/to/bot.py:FlatMC")`` builds a bot from its text (:mod:`bendolib.bots.spec`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bendolib.bots.baseline import GreedyBot, RandomBot
from bendolib.bots.bot import Bot, ForfeitError
from bendolib.bots.infoset import InfoSetBot
from bendolib.bots.process import ProcessBot, ProtocolError
from bendolib.bots.search import SearchBot
from bendolib.bots.spec import BotSpecError, UnknownBotError, installed, split_specs
from bendolib.bots.spec import load as _load
from bendolib.errors import BendolibError

_FACTORIES: dict[str, Callable[..., Bot]] = {}


def register(name: str, factory: Callable[..., Bot], *, replace: bool = False) -> None:
    """Make ``factory(**params)`` available as ``get(name, **params)``."""
    if name in _FACTORIES and not replace:
        raise ValueError(f"a bot named {name!r} is already registered")
    _FACTORIES[name] = factory


def get(name: str, **params: Any) -> Bot:
    """
    A new bot registered as ``name`` (or installed under that name by another package),
    built with ``params``.
    """
    factory = _FACTORIES.get(name)
    if factory is None:
        if not isinstance(name, str):
            raise TypeError(f"a bot name is a str, not {type(name).__name__}")
        if name not in installed():
            known = ", ".join(names())
            raise UnknownBotError(f"unknown bot {name!r}; known: {known}")
        factory = _installed_factory(name)
    return factory(**params)


def _installed_factory(name: str) -> Callable[..., Bot]:
    from importlib.metadata import entry_points

    (point,) = [ep for ep in entry_points(group="bendolib.bots") if ep.name == name]
    factory: Callable[..., Bot] = point.load()
    return factory


def load(spec: str) -> Bot:
    """
    The bot a text names: a registered or installed name, ``module:Class`` or
    ``path/to/bot.py:Class``, each with optional literal arguments in brackets:
    ``search(worlds=16)``, ``mybot:FlatMC(worlds=10)``.  A wrong text raises
    :class:`BotSpecError` (or :class:`UnknownBotError` for a name that is not known).
    """
    return _load(spec, _FACTORIES)


def names() -> tuple[str, ...]:
    """The registered bot names, in registration order, then the installed ones."""
    return (*_FACTORIES, *(n for n in installed() if n not in _FACTORIES))


def _ismcts(**params: Any) -> Bot:
    """OpenSpiel's IS-MCTS through the adapter (needs the ``openspiel`` extra)."""
    try:
        from bendolib.adapters.openspiel import ISMCTSBot
    except ImportError as exc:
        raise BendolibError(
            f"the ismcts bot needs OpenSpiel: pip install 'bendolib[openspiel]' ({exc})"
        ) from None
    return ISMCTSBot(**params)


register("random", RandomBot)
register("greedy", GreedyBot)
register("search", SearchBot)
register("infoset", InfoSetBot)
register("ismcts", _ismcts)
register("process", ProcessBot)

__all__ = [
    "Bot",
    "BotSpecError",
    "ForfeitError",
    "GreedyBot",
    "InfoSetBot",
    "ProcessBot",
    "ProtocolError",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "get",
    "installed",
    "load",
    "names",
    "register",
    "split_specs",
]
