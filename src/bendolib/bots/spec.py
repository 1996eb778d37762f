"""
Bots named by text: registered names, ``module:Class``, ``path/to/bot.py:Class``, with
literal arguments.

``load("search(worlds=16)")``, ``load("mybot:FlatMC(worlds=10)")`` and
``load("bots/flat.py:FlatMC")`` each build a bot.  The arguments are read as Python
call arguments whose values are literals (numbers, strings, True/False/None, tuples,
lists, dicts), never evaluated as code.  A bare name is looked up among the registered
bots (:func:`bendolib.bots.register`), then among the bots other packages install
through the ``bendolib.bots`` entry-point group.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bendolib.bots.bot import Bot
from bendolib.errors import BendolibError
from bendolib.moves import Move
from bendolib.observation import Observation

#: The longest bot text read (characters).
MAX_SPEC = 2000


class BotSpecError(BendolibError, ValueError):
    """A bot text that cannot be read or does not build a bot."""


class UnknownBotError(BendolibError, LookupError):
    """A bot name that is neither registered nor installed."""


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


def split_specs(text: str) -> list[str]:
    """
    ``text`` cut at the commas that are outside brackets and quotes:
    ``"greedy,search(worlds=4, forced_draws=False)"`` is two bots.
    """
    out: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, char in enumerate(text):
        if quote:
            if char == quote and text[i - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return [part for part in out if part]


def parse(spec: str) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """
    A bot text as its target (a name, ``module:attr`` or ``file.py:attr``), positional
    and keyword arguments; :class:`BotSpecError` when it is not one.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a bot is named by a str, not {type(spec).__name__}")
    text = spec.strip()
    if not text or len(text) > MAX_SPEC:
        raise BotSpecError(f"a bot text has 1 to {MAX_SPEC} characters: {_quoted(spec)}")
    target, paren, rest = text.partition("(")
    target = target.strip()
    if not target:
        raise BotSpecError(f"a bot text starts with a name: {_quoted(spec)}")
    if not paren:
        return target, (), {}
    if not rest.rstrip().endswith(")"):
        raise BotSpecError(f"the arguments of a bot end with ')': {_quoted(spec)}")
    try:
        call = ast.parse(f"f({rest}", mode="eval").body
    except SyntaxError:
        raise BotSpecError(f"cannot read the arguments of {_quoted(spec)}") from None
    if not isinstance(call, ast.Call):  # pragma: no cover - "f(...)" parses as a call
        raise BotSpecError(f"cannot read the arguments of {_quoted(spec)}")
    try:
        args = tuple(ast.literal_eval(a) for a in call.args)
        kwargs = {}
        for keyword in call.keywords:
            if keyword.arg is None:
                raise ValueError("** arguments")
            kwargs[keyword.arg] = ast.literal_eval(keyword.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise BotSpecError(
            f"the arguments of a bot are literals (numbers, strings, True, False, None, "
            f"lists, tuples, dicts) given as name=value or by position: {_quoted(spec)}"
        ) from None
    return target, args, kwargs


def _registered() -> Mapping[str, Callable[..., Bot]]:
    registry = sys.modules.get("bendolib.bots")
    return getattr(registry, "_FACTORIES", {})


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group="bendolib.bots")}


def installed() -> tuple[str, ...]:
    """The names of the bots other packages install (entry-point group ``bendolib.bots``)."""
    return tuple(sorted(_entry_points()))


def _is_file(module: str) -> bool:
    return module.endswith(".py") or "/" in module or os.sep in module


def _attribute(module: Any, path: str, where: str, spec: str) -> Any:
    found = module
    for part in path.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise BotSpecError(f"{where} has no {path!r}: {_quoted(spec)}") from None
    return found


def _module_from_file(path: str, spec: str) -> Any:
    full = os.path.abspath(path)
    if not os.path.isfile(full):
        raise BotSpecError(f"no bot file {path!r}: {_quoted(spec)}")
    digest = hashlib.sha1(full.encode("utf-8")).hexdigest()[:12]
    stem = "".join(c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(full))[0])
    name = f"_bendolib_bot_{stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    found = importlib.util.spec_from_file_location(name, full)
    if found is None or found.loader is None:
        raise BotSpecError(f"cannot load {path!r} as Python: {_quoted(spec)}")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise BotSpecError(
            f"loading {path!r} raised {type(exc).__name__}: {str(exc)[:200]}"
        ) from exc
    return module


def _build(factory: Any, args: tuple[Any, ...], kwargs: dict[str, Any], spec: str) -> Bot:
    if callable(getattr(factory, "choose", None)) and not isinstance(factory, type):
        if args or kwargs:
            raise BotSpecError(f"{_quoted(spec)} names a bot object, which takes no arguments")
        bot: Any = factory
    elif callable(factory):
        try:
            bot = factory(*args, **kwargs)
        except BendolibError:
            raise
        except Exception as exc:
            raise BotSpecError(
                f"building {_quoted(spec)} raised {type(exc).__name__}: {str(exc)[:200]}"
            ) from exc
    else:
        raise BotSpecError(f"{_quoted(spec)} names neither a bot nor a bot factory")
    if not callable(getattr(bot, "choose", None)):
        raise BotSpecError(f"{_quoted(spec)} built a {type(bot).__name__}, which has no choose")
    return bot  # type: ignore[no-any-return]


class FileBot:
    """
    A bot loaded from a Python file (``path/to/bot.py:Class(args)``): plays as the bot it
    wraps, and pickles as its text, so worker processes load the file again.
    """

    def __init__(self, spec: str, bot: Bot) -> None:
        self.spec = spec
        self.bot = bot
        name = getattr(bot, "name", None)
        self.name = name if isinstance(name, str) else type(bot).__name__
        start = getattr(bot, "start_match", None)
        if callable(start):
            self.start_match = start

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The wrapped bot's move."""
        return self.bot.choose(observation, legal_moves, rng)

    def __reduce__(self) -> tuple[Callable[[str], Bot], tuple[str]]:
        return (load, (self.spec,))

    def __repr__(self) -> str:
        return f"FileBot({self.spec!r})"


def load(spec: str, registered: Mapping[str, Callable[..., Bot]] | None = None) -> Bot:
    """
    The bot that ``spec`` names: ``NAME``, ``NAME(args)``, ``module:attr(args)`` or
    ``path/to/file.py:attr(args)`` (``attr`` a class, a factory or a bot object).
    ``registered`` maps the registered names to their factories (default: those of
    :mod:`bendolib.bots`).
    """
    target, args, kwargs = parse(spec)
    module_name, colon, attribute = target.rpartition(":")
    if not colon:
        factories = _registered() if registered is None else registered
        factory = factories.get(target)
        if factory is None:
            points = _entry_points()
            if target not in points:
                known = ", ".join([*factories, *sorted(set(points) - set(factories))])
                raise UnknownBotError(
                    f"unknown bot {target!r}; known: {known}; or name one as module:Class "
                    "or path/to/file.py:Class"
                )
            try:
                factory = points[target].load()
            except Exception as exc:
                raise BotSpecError(
                    f"loading the installed bot {target!r} raised {type(exc).__name__}: "
                    f"{str(exc)[:200]}"
                ) from exc
        return _build(factory, args, kwargs, spec)
    if not module_name or not attribute:
        raise BotSpecError(f"a bot is named module:Class or file.py:Class: {_quoted(spec)}")
    if _is_file(module_name):
        module = _module_from_file(module_name, spec)
        bot = _build(_attribute(module, attribute, repr(module_name), spec), args, kwargs, spec)
        rest = spec.strip()[len(target) :]
        return FileBot(f"{os.path.abspath(module_name)}:{attribute}{rest}", bot)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotSpecError(f"cannot import {module_name!r} ({exc}): {_quoted(spec)}") from None
    return _build(_attribute(module, attribute, repr(module_name), spec), args, kwargs, spec)


__all__ = [
    "MAX_SPEC",
    "BotSpecError",
    "FileBot",
    "UnknownBotError",
    "installed",
    "load",
    "parse",
    "split_specs",
]
