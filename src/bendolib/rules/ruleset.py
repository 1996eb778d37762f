"""RuleSet: a variant composed from small policies."""

from __future__ import annotations

import functools
import types
import typing
from typing import Any, Literal

import attrs

from bendolib.errors import RuleSetError
from bendolib.geometry.base import Geometry
from bendolib.geometry.bend import BendGeometry
from bendolib.geometry.chain import ChainGeometry
from bendolib.limits import MAX_DEPTH, MAX_PARAM, shown
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.effects import EffectPolicy
from bendolib.rules.match import Match
from bendolib.rules.penalties import Penalties
from bendolib.rules.scoring import MoveScoring, PlayScoring, RoundScoring
from bendolib.rules.starting import FixedSeat, HighestDouble, HolderOf, StartPolicy
from bendolib.tiles import TileSet

Finish = Literal["first_out", "last_one_left"]
Closing = Literal["even", "any"]

#: Values of :attr:`RuleSet.listing`: how the engine lists the placements.
LIST_GENERAL = 0
LIST_STRAIGHT = 1
LIST_BEND = 2

#: The registered rule sets by name, in registration order: filled by
#: :func:`bendolib.rules.register`, read by ``repr`` (kept here, beside the class, so
#: that this module does not import the package that registers them).
_REGISTRY: dict[str, RuleSet] = {}

#: RuleSet fields that hold a policy whose own fields are parameters.
_POLICIES = (
    "deal",
    "start",
    "draw",
    "round_scoring",
    "match",
    "play_scoring",
    "effects",
    "penalties",
)


def _frozenset(values: Any) -> frozenset[int]:
    return frozenset(int(v) for v in values)


#: Parts every rule set has, by the class they must be or the methods they must have.
_PART_CLASSES: dict[str, type] = {
    "tileset": TileSet,
    "deal": Deal,
    "draw": DrawPolicy,
    "match": Match,
}
_PART_METHODS: dict[str, tuple[str, ...]] = {
    "geometry": ("open",),
    "start": ("choose",),
    "round_scoring": ("score",),
    "effects": ("after_place",),
    "penalties": ("cost",),
}
#: Parts that need one of several sets of methods.
_PART_EITHER: dict[str, tuple[tuple[str, ...], ...]] = {
    # the whole Geometry protocol, or a chain geometry's own three methods
    "geometry": (("placements", "fits", "play"), ("place", "connected")),
    "play_scoring": (("score",), ("score_move",)),
}
_OPTIONAL_PARTS = ("play_scoring", "effects", "penalties")


def is_chain(geometry: object) -> bool:
    """True for a chain geometry (tiles laid at open ends, moves ``Place``)."""
    return isinstance(geometry, ChainGeometry) or not hasattr(geometry, "placements")


def _check_parts(rules: RuleSet) -> None:
    """Raise RuleSetError for a missing part or a part of the wrong kind."""
    if not isinstance(rules.name, str):
        raise RuleSetError(f"a rule set's name is a string, not {rules.name!r}")
    for part, cls in _PART_CLASSES.items():
        if not isinstance(getattr(rules, part), cls):
            raise RuleSetError(f"{part} must be a {cls.__name__}, not {getattr(rules, part)!r}")
    for part, methods in _PART_METHODS.items():
        value = getattr(rules, part)
        if value is None and part in _OPTIONAL_PARTS:
            continue
        if not all(callable(getattr(value, m, None)) for m in methods):
            raise RuleSetError(f"{part} must have {', '.join(methods)}: {value!r}")
    for part, choices in _PART_EITHER.items():
        value = getattr(rules, part)
        if value is None and part in _OPTIONAL_PARTS:
            continue
        if not any(all(callable(getattr(value, m, None)) for m in ms) for ms in choices):
            wanted = " or ".join(", ".join(ms) for ms in choices)
            raise RuleSetError(f"{part} must have {wanted}: {value!r}")


def _check_sizes(rules: RuleSet) -> None:
    """
    Raise RuleSetError for an integer parameter of a policy beyond ``MAX_PARAM`` in
    absolute value (a target, a batch, points: no game uses one; docs/records.md,
    "Limits").
    """
    for part in _POLICIES:
        pending: list[tuple[str, Any, int]] = [(part, getattr(rules, part), 0)]
        while pending:
            where, value, depth = pending.pop()
            if isinstance(value, int) and not isinstance(value, bool):
                if abs(value) > MAX_PARAM:
                    raise RuleSetError(
                        f"{where} is {shown(value)}: integer parameters are from -2**62 to "
                        "2**62 (docs/records.md, Limits)"
                    )
            elif depth > MAX_DEPTH:
                continue  # nesting is the readers' limit; nothing a game uses is so deep
            elif isinstance(value, tuple | list | frozenset | set):
                pending.extend((where, item, depth + 1) for item in value)
            elif isinstance(value, dict):
                pending.extend((where, item, depth + 1) for item in (*value, *value.values()))
            elif attrs.has(type(value)) and not isinstance(value, TileSet):
                for field in attrs.fields(type(value)):
                    if field.name.startswith("_"):
                        continue  # derived
                    name = f"{where}.{field.name}" if depth else field.name
                    pending.append((name, getattr(value, field.name, None), depth + 1))


def _matches(hint: Any, value: Any) -> bool:
    """True when ``value`` fits a simple annotation (other annotations always fit)."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return any(type(value) is type(arg) and value == arg for arg in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return any(_matches(arg, value) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    return True


@functools.lru_cache(maxsize=256)
def _hints(cls: type) -> dict[str, Any]:
    """``typing.get_type_hints(cls)``, once a class (it evaluates every annotation)."""
    return typing.get_type_hints(cls)


def _check_value(cls: type, key: str, value: Any) -> None:
    """Raise RuleSetError when a parameter value does not fit the field's annotation."""
    field = attrs.fields_dict(cls)[key]
    if field.converter is not None:
        return
    try:
        hint = _hints(cls)[key]
    except Exception:  # an annotation that cannot be resolved: the policy checks its values
        return
    if not _matches(hint, value):
        raise RuleSetError(f"parameter {key} must be {hint}, not {value!r}")


@attrs.frozen
class RuleSet:
    """
    A game variant: the tile set, the geometry and one policy per rule area.

    * ``deal``: hand sizes by player count, tiles turned up to open the table;
    * ``start``: who begins and with which tile;
    * ``draw``: when a player may or must draw;
    * ``finish``: the round ends when one player goes out (``"first_out"``) or
      when only one player still holds tiles (``"last_one_left"``);
    * ``round_scoring``: the points a finished round gives each seat;
    * ``play_scoring``: points scored by a placement at once (All Five), or None;
    * ``match``: target score and teams;
    * ``wild_faces``: faces that match any number (the player names the value they
      show outward);
    * ``effects``: what a placed tile does besides extending the chain (the action
      tiles' arrow and plus), or None;
    * ``closing``: a placement whose far end would meet another open end of the chain
      (both ends connect) is legal only when the number it shows there equals that
      end's number (``"even"``: the joint matches), or whatever it shows (``"any"``);
    * ``penalties``: points a draw or a pass costs the player (Triominoes), or None.

    Parameters of the policies can be changed with :meth:`configure`.
    """

    name: str
    tileset: TileSet
    geometry: Geometry
    deal: Deal
    start: StartPolicy
    draw: DrawPolicy
    round_scoring: RoundScoring
    match: Match
    play_scoring: PlayScoring | MoveScoring | None = None
    finish: Finish = "first_out"
    wild_faces: frozenset[int] = attrs.field(default=frozenset(), converter=_frozenset)
    effects: EffectPolicy | None = None
    closing: Closing = "even"
    description: str = attrs.field(default="", eq=False)
    penalties: Penalties | None = None
    wild_mask: int = attrs.field(init=False, eq=False, repr=False, hash=False)
    """Bitmask of the tiles that carry a wild face (derived from ``wild_faces``)."""
    listing: int = attrs.field(init=False, eq=False, repr=False, hash=False)
    """How the engine lists placements (derived): :data:`LIST_STRAIGHT` or
    :data:`LIST_BEND` (no wild face, a built-in geometry; memoised), else
    :data:`LIST_GENERAL`."""
    even_closing: bool = attrs.field(init=False, eq=False, repr=False, hash=False)
    """True when ``closing == "even"`` and the geometry can close the chain (derived)."""
    origin: str = attrs.field(init=False, default="", eq=False, repr=False, hash=False)
    """The name of the rule set this one was configured from ('' for one built directly):
    a registered rule set's name when the chain of :meth:`configure` calls starts at one."""

    def __attrs_post_init__(self) -> None:
        _check_parts(self)
        _check_sizes(self)
        wild_mask = 0
        for face in self.wild_faces:
            wild_mask |= self.tileset.with_face(face)
        object.__setattr__(self, "wild_mask", wild_mask)
        listing = LIST_GENERAL
        chain = is_chain(self.geometry)
        if not wild_mask and chain:
            if not self.geometry.uses_bends:
                listing = LIST_STRAIGHT
            elif type(self.geometry) is BendGeometry:
                listing = LIST_BEND
        object.__setattr__(self, "listing", listing)
        check_tileset = getattr(self.geometry, "check_tileset", None)
        if check_tileset is not None:
            check_tileset(self.tileset)
        if self.wild_faces and not chain:
            raise RuleSetError(f"wild faces need a chain geometry, not {self.geometry.name}")
        if self.finish not in ("first_out", "last_one_left"):
            raise RuleSetError(f"unknown finish {self.finish!r}")
        if self.closing not in ("even", "any"):
            raise RuleSetError(f"unknown closing {self.closing!r}; use 'even' or 'any'")
        even = self.closing == "even" and callable(getattr(self.geometry, "joints", None))
        object.__setattr__(self, "even_closing", even)
        if self.geometry.uses_bends and not self.tileset.curved:
            raise RuleSetError("the bend geometry needs curved tiles")
        for players, size in self.deal.hand_sizes:
            need = players * size + self.deal.table_tiles
            if need > len(self.tileset):
                raise RuleSetError(
                    f"{players} hands of {size} and {self.deal.table_tiles} table tiles "
                    f"need {need} tiles; {self.tileset.name} has {len(self.tileset)}"
                )
            self.match.sides(players)
            check_players = getattr(self.round_scoring, "check_players", None)
            if check_players is not None:
                check_players(players)
        if self.deal.table_tiles and not self.geometry.uses_bends:
            raise RuleSetError("only the bend geometry opens with tiles from the stock")
        if self.deal.table_tiles > 2:
            raise RuleSetError("at most two tiles (back to back in the centre cell) open the table")
        _check_start(self)

    def __repr__(self) -> str:
        """
        The name and what differs from the registered rule set it derives from:
        ``RuleSet('basic', target=50)``, ``RuleSet('mine', base='basic', effects=...)``.
        """
        known = list(_REGISTRY.values())
        own = [r for r in known if r.name == self.name]
        if not own and self.origin in _REGISTRY:
            own = [_REGISTRY[self.origin]]
        if not own and not known:
            return f"RuleSet({self.name!r})"
        base = own[0] if own else min(known, key=lambda r: len(_changed(r, self)))
        parts = [repr(self.name)]
        if base.name != self.name:
            parts.append(f"base={base.name!r}")
        for key, value in _changed(base, self).items():
            shown = f"<{value.name}>" if isinstance(value, TileSet) else repr(value)
            parts.append(f"{key}={shown if len(shown) <= 60 else shown[:57] + '...'}")
        return f"RuleSet({', '.join(parts)})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's and hypothesis's display: the short :meth:`__repr__`."""
        printer.text(repr(self))

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players this rule set allows."""
        return self.deal.player_counts

    def parameters(self) -> dict[str, Any]:
        """Every parameter :meth:`configure` accepts, with its current value."""
        params: dict[str, Any] = {
            "tileset": self.tileset,
            "finish": self.finish,
            "wild_faces": self.wild_faces,
            "closing": self.closing,
        }
        for name in _POLICIES:
            policy = getattr(self, name)
            if policy is not None and attrs.has(type(policy)):
                for field in attrs.fields(type(policy)):
                    if field.init and not field.name.startswith("_"):
                        params[field.name] = getattr(policy, field.name)
        return params

    def configure(self, name: str | None = None, **params: Any) -> RuleSet:
        """
        A copy with some parameters changed (``target=200``, ``batch=2`` ...).

        Each keyword names a field of this rule set (a whole policy too:
        ``start=FixedSeat(0)``) or of one of its policies; unknown names and invalid
        values raise :class:`RuleSetError`.
        """
        # whole policies first (``start=FixedSeat(0)``), then the fields of the policies
        # as they are then; the rule set is checked once, with every change made
        changes: dict[str, Any] = {k: v for k, v in params.items() if k in _POLICIES}
        policies: dict[str, dict[str, Any]] = {}

        def current(policy_name: str) -> Any:
            return changes[policy_name] if policy_name in changes else getattr(self, policy_name)

        for key, value in params.items():
            if key in _POLICIES:
                continue
            if key in ("tileset", "finish", "wild_faces", "closing", "geometry", "description"):
                changes[key] = value
                continue
            owner = None
            for policy_name in _POLICIES:
                policy = current(policy_name)
                has_field = attrs.has(type(policy)) and key in attrs.fields_dict(type(policy))
                if policy is not None and has_field:
                    owner = policy_name
                    break
            if owner is None:
                raise RuleSetError(f"{self.name} has no parameter {key!r}")
            policies.setdefault(owner, {})[key] = value
        for owner, values in policies.items():
            try:
                evolved = attrs.evolve(current(owner), **values)
            except (TypeError, ValueError) as exc:
                if isinstance(exc, RuleSetError):
                    raise
                raise RuleSetError(f"bad parameters for {self.name}: {exc}") from exc
            for key, value in values.items():
                _check_value(type(evolved), key, value)
            changes[owner] = evolved
        if name is not None:
            changes["name"] = name
        configured = _evolve(self, changes)
        registered = self.name in _REGISTRY and _REGISTRY[self.name] == self
        origin = self.name if registered or not self.origin else self.origin
        object.__setattr__(configured, "origin", origin)
        return configured


def _changed(base: RuleSet, rules: RuleSet) -> dict[str, Any]:
    """The rules of ``rules`` that differ from ``base``: a policy's changed fields by name."""
    changes: dict[str, Any] = {}
    for field in attrs.fields(RuleSet):
        if not field.eq or field.name in ("name", "description"):
            continue
        old, new = getattr(base, field.name), getattr(rules, field.name)
        if old == new:
            continue
        if type(old) is type(new) and field.name in _POLICIES and attrs.has(type(new)):
            for sub in attrs.fields(type(new)):
                if sub.init and getattr(old, sub.name) != getattr(new, sub.name):
                    changes[sub.alias or sub.name] = getattr(new, sub.name)
        else:
            changes[field.name] = new
    return changes


def _evolve(rules: RuleSet, changes: dict[str, Any]) -> RuleSet:
    """``attrs.evolve`` with any failure of the new values reported as RuleSetError."""
    try:
        return attrs.evolve(rules, **changes)
    except RuleSetError:
        raise
    except (TypeError, ValueError, AttributeError) as exc:
        raise RuleSetError(f"bad parameters for {rules.name}: {exc}") from exc


def _check_start(rules: RuleSet) -> None:
    """Raise RuleSetError when the start policy cannot begin a round of this deal."""
    start = rules.start
    if rules.deal.table_tiles and (getattr(start, "opens", False) or isinstance(start, HolderOf)):
        raise RuleSetError(
            f"table_tiles={rules.deal.table_tiles} opens the round with tiles from the stock, "
            f"so the starter cannot also open it with a tile (start={start!r}): use "
            "opens=False or table_tiles=0"
        )
    seat = getattr(start, "seat", None)
    if isinstance(start, FixedSeat) and seat is not None:
        short = [p for p in rules.player_counts if p <= seat]
        if short:
            raise RuleSetError(
                f"start={start!r} needs at least {seat + 1} players; hand_sizes also "
                f"allow {', '.join(map(str, short))}"
            )
    for policy in (start, getattr(start, "fallback", None)):
        if (
            isinstance(policy, HighestDouble)
            and policy.no_double == "redeal"
            and not rules.tileset.doubles_mask
        ):
            raise RuleSetError(
                f"{rules.tileset.name} has no double, so no_double='redeal' never deals"
            )
