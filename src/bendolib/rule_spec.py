"""
The portable form of a rule set: a registered rule set's name and the changes made to it.

Records and position texts carry a rule set as a small JSON-ready dict::

    {"name": "basic"}                                  # the registered rule set
    {"name": "basic", "parameters": {"target": 50}}    # basic.configure(target=50)

Changed policy fields are written as flat parameters when :meth:`RuleSet.configure`
routes them back unambiguously, and as whole policies otherwise.  A renamed rule set
(``configure("my-basic", ...)``) adds ``"base"``: the registered set it derives from.
Values are JSON scalars and lists; a tile set, a tile or a policy object is a tagged
dict (``{"$tileset": ...}``, ``{"$tile": "3-5L"}``, ``{"$policy": "module:Class", ...}``);
only classes of the ``bendolib`` package are ever looked up.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import attrs

from bendolib import rules as registry
from bendolib.errors import BendolibError, ParseError, RuleSetError
from bendolib.rules.ruleset import RuleSet
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, SYMBOL_NAMES, Tile, TileSet

_TILE = re.compile(r"^(\d+|[APW])-(\d+|[APW])([LR]?)$")
_FACES = {name: face for face, name in SYMBOL_NAMES.items()}
#: RuleSet fields that are not rules: never compared or written.
_NOT_RULES = ("name", "description")


def tile_text(tile: Tile) -> str:
    """A tile as text: ``"3-5L"`` (faces low to high, then the bend read that way)."""
    return str(tile)


def parse_tile_text(text: str) -> Tile:
    """The tile written by :func:`tile_text` (raises :class:`ParseError`)."""
    match = _TILE.match(text)
    if match is None:
        raise ParseError("a tile is written like '3-5L', '6-6' or 'A-W'", text, 0)
    a, b = (_FACES.get(g) if g in _FACES else int(g) for g in match.group(1, 2))
    assert a is not None and b is not None
    bend = {"L": LEFT, "R": RIGHT}.get(match.group(3), STRAIGHT)
    try:
        return Tile(a, b, bend)
    except ValueError as exc:
        raise ParseError(f"bad tile: {exc}", text, 0) from None


def encode_value(value: Any) -> Any:
    """A parameter value as JSON-ready data (see the module docstring)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, TileSet):
        return {
            "$tileset": {
                "name": value.name,
                "top": value.top,
                "tiles": [tile_text(t) for t in value.tiles],
            }
        }
    if isinstance(value, Tile):
        return {"$tile": tile_text(value)}
    if isinstance(value, frozenset | set):
        return sorted(encode_value(v) for v in value)
    if isinstance(value, tuple | list):
        return [encode_value(v) for v in value]
    if attrs.has(type(value)):
        cls = type(value)
        if not cls.__module__.startswith("bendolib."):
            raise RuleSetError(f"cannot write {cls.__qualname__}: not a bendolib class")
        out: dict[str, Any] = {"$policy": f"{cls.__module__}:{cls.__qualname__}"}
        for field in attrs.fields(cls):
            if field.init:
                out[field.alias or field.name] = encode_value(getattr(value, field.name))
        return out
    raise RuleSetError(f"cannot write a parameter value of type {type(value).__name__}")


def decode_value(data: Any) -> Any:
    """The parameter value written by :func:`encode_value` (lists come back as tuples)."""
    if isinstance(data, list):
        return tuple(decode_value(v) for v in data)
    if not isinstance(data, dict):
        return data
    if "$tile" in data:
        return parse_tile_text(str(data["$tile"]))
    if "$tileset" in data:
        spec = data["$tileset"]
        tiles = tuple(parse_tile_text(str(t)) for t in spec["tiles"])
        return TileSet(str(spec["name"]), tiles, int(spec["top"]))
    if "$policy" in data:
        cls = _policy_class(str(data["$policy"]))
        fields = {k: decode_value(v) for k, v in data.items() if k != "$policy"}
        try:
            return cls(**fields)
        except (TypeError, ValueError) as exc:
            raise ParseError(f"bad {data['$policy']}: {exc}") from None
    raise ParseError(f"unknown value {data!r}")


def _policy_class(path: str) -> Any:
    module_name, _, qualname = path.partition(":")
    if not module_name.startswith("bendolib.") or not qualname:
        raise ParseError(f"not a bendolib class: {path!r}")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise ParseError(f"unknown class {path!r}") from None
    if not isinstance(obj, type) or not attrs.has(obj):
        raise ParseError(f"not a policy class: {path!r}")
    return obj


def _changed_fields(base: RuleSet, rules: RuleSet) -> list[str]:
    return [
        f.name
        for f in attrs.fields(RuleSet)
        if f.name not in _NOT_RULES and getattr(base, f.name) != getattr(rules, f.name)
    ]


def _flat_changes(base: RuleSet, rules: RuleSet, changed: list[str]) -> dict[str, Any]:
    """The changes as ``configure`` keywords: policy fields flat where possible."""
    params: dict[str, Any] = {}
    for name in changed:
        old, new = getattr(base, name), getattr(rules, name)
        same_kind = old is not None and new is not None and type(old) is type(new)
        if same_kind and attrs.has(type(new)) and not isinstance(new, TileSet):
            for field in attrs.fields(type(new)):
                if field.init and getattr(old, field.name) != getattr(new, field.name):
                    params[field.alias or field.name] = getattr(new, field.name)
        else:
            params[name] = new
    return params


def _configure(base: RuleSet, name: str, params: dict[str, Any]) -> RuleSet:
    return base.configure(name if name != base.name else None, **params)


def rules_to_spec(rules: RuleSet) -> dict[str, Any]:
    """
    The portable form of ``rules``; raises :class:`RuleSetError` when it derives
    from no registered rule set or a change cannot be written.
    """
    candidates = [registry.get(n) for n in registry.names()]
    if not candidates:
        raise RuleSetError("no rule set is registered")
    own = [c for c in candidates if c.name == rules.name]
    base = own[0] if own else min(candidates, key=lambda c: len(_changed_fields(c, rules)))
    changed = _changed_fields(base, rules)
    attempts = [_flat_changes(base, rules, changed), {n: getattr(rules, n) for n in changed}]
    for params in attempts:
        try:
            rebuilt = _configure(base, rules.name, params)
        except (BendolibError, TypeError, ValueError):
            continue
        if rebuilt == rules:
            spec: dict[str, Any] = {"name": rules.name}
            if base.name != rules.name:
                spec["base"] = base.name
            if params:
                spec["parameters"] = {k: encode_value(v) for k, v in params.items()}
            return spec
    raise RuleSetError(
        f"rule set {rules.name!r} cannot be written as changes to a registered rule set"
    )


def rules_from_spec(spec: Any) -> RuleSet:
    """
    The rule set of a portable form; raises :class:`ParseError` for a malformed one
    and :class:`~bendolib.errors.UnknownRuleSetError` for an unregistered name.
    """
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise ParseError(f"a rule set is written {{'name': ..., 'parameters': ...}}, not {spec!r}")
    name = spec["name"]
    base_name = spec.get("base", name)
    params = spec.get("parameters", {})
    if not isinstance(base_name, str) or not isinstance(params, dict):
        raise ParseError(f"bad rule set {spec!r}")
    base = registry.get(base_name)
    decoded = {str(k): decode_value(v) for k, v in params.items()}
    try:
        return _configure(base, name, decoded)
    except RuleSetError as exc:
        raise ParseError(f"bad parameters for {base_name}: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise ParseError(f"bad parameters for {base_name}: {exc}") from None
