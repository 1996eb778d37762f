"""
The portable form of a rule set: a registered rule set's name and the changes made to it.

Records and position texts carry a rule set as a small JSON-ready dict::

    {"name": "basic"}                                  # the registered rule set
    {"name": "basic", "parameters": {"target": 50}}    # basic.configure(target=50)

Changed policy fields are written as flat parameters when :meth:`RuleSet.configure`
routes them back unambiguously, and as whole policies otherwise.  A renamed rule set
(``configure("my-basic", ...)``) adds ``"base"``: the registered set it derives from
(a registered name always stands for that rule set: ``{"name": "basic", "base":
"classic-block"}`` is refused).  Values are JSON scalars and lists; a tile set, a tile
or a policy object is a tagged dict (``{"$tileset": ...}``, ``{"$tile": "3-5L"}``,
``{"$policy": "module:Class", ...}``).

A policy is read back only if its class is in the registry of policy classes: the
library's own, and those a program registers with :func:`register_policy`.  A name
in the data is looked up there and nowhere else (no module is ever imported because
data names it).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from bendolib import rules as registry
from bendolib._memo import remember
from bendolib.errors import BendolibError, ParseError, RuleSetError
from bendolib.geometry.bend import BendGeometry
from bendolib.geometry.straight import StraightGeometry
from bendolib.geometry.triangles import TriangleGeometry
from bendolib.limits import MAX_DEPTH, MAX_DIGITS, MAX_TILES, nests_within, quoted, shown
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.effects import FaceEffects, NextDraws, Reverse
from bendolib.rules.match import Match
from bendolib.rules.penalties import DrawPenalties
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import EndsMultiple, FinishingOrder, HighestPlayScore, WinnerTakesPips
from bendolib.rules.starting import FixedSeat, HighestDouble, HolderOf
from bendolib.rules.triangles import (
    HighestTriple,
    MostPlayPoints,
    TriangleScoring,
    TriominoesRoundScoring,
)
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, SYMBOL_NAMES, Tile, TileSet, Triangle

__all__ = [
    "decode_value",
    "encode_value",
    "parse_tile_text",
    "policy_classes",
    "register_policy",
    "rules_from_spec",
    "rules_to_spec",
    "tile_text",
]

_FACE = rf"([0-9]{{1,{MAX_DIGITS}}}|[APW])"
_TILE = re.compile(rf"{_FACE}-{_FACE}([LR]?)")
_TRIANGLE = re.compile(rf"{_FACE}-{_FACE}-{_FACE}")
_FACES = {name: face for face, name in SYMBOL_NAMES.items()}
#: RuleSet fields that are not rules: never compared or written.
_NOT_RULES = ("name", "description")
#: The keys of a rule set's portable form.
_SPEC_KEYS = frozenset({"name", "base", "parameters"})

#: Policy classes by the name data uses for them, and the names by class.
_POLICY_CLASSES: dict[str, type] = {}
_POLICY_NAMES: dict[type, str] = {}


def register_policy(cls: type, name: str | None = None, *, replace: bool = False) -> type:
    """
    Let records and position texts carry instances of ``cls``, an attrs class (a
    policy of your own, say), under ``name`` (default ``"module:QualifiedName"``).
    Returns ``cls``, so it can be used as a class decorator.  A name stands for one
    class: registering another under it raises :class:`RuleSetError` unless ``replace``
    (or unless it is the same class defined again).
    """
    if not isinstance(cls, type) or not attrs.has(cls):
        raise TypeError(f"register_policy takes an attrs class, not {shown(cls)}")
    key = f"{cls.__module__}:{cls.__qualname__}" if name is None else name
    if not isinstance(key, str):
        raise TypeError(f"a policy's name is a str, not {type(key).__name__}")
    known = _POLICY_CLASSES.get(key)
    redefined = known is not None and (known.__module__, known.__qualname__) == (
        cls.__module__,
        cls.__qualname__,
    )  # the same class defined again (a module reloaded, a notebook cell run again)
    if known is not None and known is not cls and not redefined and not replace:
        raise RuleSetError(f"a policy class named {quoted(key)} is already registered")
    _POLICY_CLASSES[key] = cls
    _POLICY_NAMES[cls] = key
    return cls


def policy_classes() -> dict[str, type]:
    """The registered policy classes, by the name records use for them."""
    return dict(_POLICY_CLASSES)


#: The library's own policy classes (every class a registered rule set can hold).
LIBRARY_POLICIES: tuple[type, ...] = (
    Deal,
    DrawPolicy,
    Match,
    HighestDouble,
    HolderOf,
    FixedSeat,
    WinnerTakesPips,
    FinishingOrder,
    HighestPlayScore,
    EndsMultiple,
    FaceEffects,
    NextDraws,
    Reverse,
    DrawPenalties,
    HighestTriple,
    TriangleScoring,
    TriominoesRoundScoring,
    MostPlayPoints,
    BendGeometry,
    StraightGeometry,
    TriangleGeometry,
)
for _cls in LIBRARY_POLICIES:
    register_policy(_cls)


def tile_text(tile: Tile) -> str:
    """
    A tile as text: ``"3-5L"`` (faces low to high, then the bend read that way); a
    triangle ``"0-3-5"`` (its numbers clockwise from the lowest).
    """
    return str(tile)


def parse_tile_text(text: str) -> Tile:
    """
    The tile written by :func:`tile_text` (raises :class:`ParseError`); a triangle's
    numbers may start at any corner (``"3-5-0"`` is ``"0-3-5"``), clockwise.
    """
    if not isinstance(text, str):
        raise TypeError(f"a tile is read from a str, not {type(text).__name__}")
    triangle = _TRIANGLE.fullmatch(text)
    if triangle is not None:
        a, b, c = (_FACES[g] if g in _FACES else int(g) for g in triangle.group(1, 2, 3))
        lowest = min((a, b, c), (b, c, a), (c, a, b))
        try:
            return Triangle(*lowest)
        except RuleSetError as exc:
            raise ParseError(f"bad tile: {exc}", text, 0) from None
    match = _TILE.fullmatch(text)
    if match is None:
        raise ParseError("a tile is written like '3-5L', '6-6', 'A-W' or '0-3-5'", text, 0)
    a, b = (_FACES[g] if g in _FACES else int(g) for g in match.group(1, 2))
    bend = {"L": LEFT, "R": RIGHT}.get(match.group(3), STRAIGHT)
    try:
        return Tile(a, b, bend)
    except RuleSetError as exc:
        raise ParseError(f"bad tile: {exc}", text, 0) from None


def encode_value(value: Any) -> Any:
    """A parameter value as JSON-ready data (see the module docstring)."""
    if isinstance(value, int) and abs(value) >= 10**MAX_DIGITS:
        raise RuleSetError(f"cannot write a number of more than {MAX_DIGITS} digits")
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
        name = _POLICY_NAMES.get(cls)
        if name is None:
            raise RuleSetError(
                f"cannot write a {cls.__qualname__}: register its class with "
                "bendolib.records.register_policy"
            )
        out: dict[str, Any] = {"$policy": name}
        for field in attrs.fields(cls):
            if field.init:
                out[field.alias or field.name] = encode_value(getattr(value, field.name))
        return out
    raise RuleSetError(f"cannot write a parameter value of type {type(value).__name__}")


def decode_value(data: Any) -> Any:
    """
    The parameter value written by :func:`encode_value` (lists come back as tuples);
    raises :class:`ParseError` for anything else.
    """
    if not nests_within(data):
        raise ParseError(f"values nest more than {MAX_DEPTH} levels deep")
    return _decode(data)


def _decode(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(_decode(v) for v in data)
    if isinstance(data, float) and not -(2.0**63) < data < 2.0**63:
        raise ParseError(f"a number out of range: {data!r}")
    if isinstance(data, int) and abs(data) >= 10**MAX_DIGITS:
        raise ParseError(f"a number has at most {MAX_DIGITS} digits")
    if not isinstance(data, dict):
        if data is None or isinstance(data, bool | int | float | str):
            return data
        raise ParseError(f"not a parameter value: {shown(data)}")
    if "$tile" in data:
        return parse_tile_text(_one(data, "$tile", str))
    if "$tileset" in data:
        return _tileset(_one(data, "$tileset", dict))
    if "$policy" in data:
        path = data["$policy"]
        if not isinstance(path, str):
            raise ParseError(f"a policy's name is a string, not {shown(path)}")
        cls = _POLICY_CLASSES.get(path)
        if cls is None:
            raise ParseError(
                f"unknown policy class {quoted(path)} (a program registers its own with "
                "bendolib.records.register_policy)"
            )
        fields = {str(k): _decode(v) for k, v in data.items() if k != "$policy"}
        try:
            return cls(**fields)
        except BendolibError as exc:
            raise ParseError(f"bad {path}: {exc}") from None
        except Exception as exc:  # a class's own check of its fields, whatever it raises
            raise ParseError(f"bad {path}: {type(exc).__name__}: {exc}") from exc
    raise ParseError(f"unknown value {shown(data)}")


def _one(data: dict[str, Any], key: str, kind: type) -> Any:
    """The value of a tagged dict's only key, of type ``kind``."""
    if len(data) != 1 or not isinstance(data[key], kind):
        raise ParseError(f"{key} is a dict with one {kind.__name__}: {shown(data)}")
    return data[key]


def _tileset(spec: dict[str, Any]) -> TileSet:
    if set(spec) - {"name", "top", "tiles"} or not {"name", "tiles"} <= set(spec):
        raise ParseError("a $tileset has a name, tiles and (optionally) top")
    name, tiles, top = spec["name"], spec["tiles"], spec.get("top")
    if not isinstance(name, str) or not isinstance(tiles, list):
        raise ParseError("a $tileset's name is a string and its tiles a list")
    if len(tiles) > MAX_TILES:
        raise ParseError(f"a tile set has at most {MAX_TILES} tiles, not {len(tiles)}")
    if not all(isinstance(t, str) for t in tiles):
        raise ParseError("a $tileset's tiles are written as strings like '3-5L' or '0-3-5'")
    if top is not None and (not isinstance(top, int) or isinstance(top, bool)):
        raise ParseError(f"a $tileset's top is an integer, not {shown(top)}")
    parsed = tuple(parse_tile_text(t) for t in tiles)
    try:
        return TileSet(name, parsed) if top is None else TileSet(name, parsed, top)
    except RuleSetError as exc:
        raise ParseError(f"bad $tileset: {exc}") from None


def _changed_fields(base: RuleSet, rules: RuleSet) -> list[str]:
    # only the fields a rule set is made from (not those derived from them)
    return [
        f.name
        for f in attrs.fields(RuleSet)
        if f.init and f.name not in _NOT_RULES and getattr(base, f.name) != getattr(rules, f.name)
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


#: ``base.configure()`` with no change, by (id of ``base``, name): the base (kept, so that
#: its id stays its own) and the copy.  A rule set read back or written unchanged, as
#: most are, skips building and checking a copy (0.15 ms: a third of reading a position).
_UNCHANGED: dict[tuple[int, str], tuple[RuleSet, RuleSet]] = {}


def _configure(base: RuleSet, name: str, params: dict[str, Any]) -> RuleSet:
    if params:
        return base.configure(name if name != base.name else None, **params)
    key = (id(base), name)
    found = _UNCHANGED.get(key)
    if found is None or found[0] is not base:
        configured = base.configure(name if name != base.name else None)
        found = remember(_UNCHANGED, key, (base, configured), limit=256)
    return found[1]


def rules_to_spec(rules: RuleSet) -> dict[str, Any]:
    """
    The portable form of ``rules``; raises :class:`RuleSetError` when it derives
    from no registered rule set or a change cannot be written.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules_to_spec takes a RuleSet, not {type(rules).__name__}")
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
        f"rule set {quoted(rules.name)} cannot be written as changes to a registered rule set"
    )


def rules_from_spec(spec: Any) -> RuleSet:
    """
    The rule set of a portable form; raises :class:`ParseError` for a malformed one
    and :class:`~bendolib.errors.UnknownRuleSetError` for an unregistered name.
    """
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise ParseError(
            f"a rule set is written {{'name': ..., 'parameters': ...}}, not {shown(spec)}"
        )
    unknown = set(spec) - _SPEC_KEYS
    if unknown:
        raise ParseError(f"a rule set has no key {quoted(', '.join(sorted(map(str, unknown))))}")
    name = spec["name"]
    base_name = spec.get("base", name)
    params = spec.get("parameters", {})
    if not isinstance(base_name, str) or not isinstance(params, dict):
        raise ParseError(f"bad rule set {shown(spec)}")
    if base_name != name and name in registry.names():
        raise ParseError(
            f"{quoted(name)} is a registered rule set: a set derived from {quoted(base_name)} "
            "needs a name of its own"
        )
    base = registry.get(base_name)
    decoded = {str(k): decode_value(v) for k, v in params.items()}
    try:
        return _configure(base, name, decoded)
    except BendolibError as exc:
        raise ParseError(f"bad parameters for {base_name}: {exc}") from None
    except (TypeError, ValueError, LookupError, ArithmeticError, AttributeError) as exc:
        # a policy's own check of a value it cannot use
        raise ParseError(f"bad parameters for {base_name}: {type(exc).__name__}: {exc}") from None
