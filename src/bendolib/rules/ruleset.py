"""RuleSet: a variant composed from small policies."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from bendolib.errors import RuleSetError
from bendolib.geometry.base import Geometry
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.match import Match
from bendolib.rules.scoring import PlayScoring, RoundScoring
from bendolib.rules.starting import StartPolicy
from bendolib.tiles import TileSet

Finish = Literal["first_out", "last_one_left"]

#: RuleSet fields that hold a policy whose own fields are parameters.
_POLICIES = ("deal", "start", "draw", "round_scoring", "match", "play_scoring")


def _frozenset(values: Any) -> frozenset[int]:
    return frozenset(int(v) for v in values)


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
      show outward).

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
    play_scoring: PlayScoring | None = None
    finish: Finish = "first_out"
    wild_faces: frozenset[int] = attrs.field(default=frozenset(), converter=_frozenset)
    description: str = attrs.field(default="", eq=False)

    def __attrs_post_init__(self) -> None:
        if self.finish not in ("first_out", "last_one_left"):
            raise RuleSetError(f"unknown finish {self.finish!r}")
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
        if self.deal.table_tiles and not self.geometry.uses_bends:
            raise RuleSetError("only the bend geometry opens with tiles from the stock")

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

        Each keyword names a field of this rule set or of one of its policies;
        unknown names and invalid values raise :class:`RuleSetError`.
        """
        changes: dict[str, Any] = {}
        policies: dict[str, dict[str, Any]] = {}
        for key, value in params.items():
            if key in ("tileset", "finish", "wild_faces", "geometry", "description"):
                changes[key] = value
                continue
            owner = None
            for policy_name in _POLICIES:
                policy = getattr(self, policy_name)
                has_field = attrs.has(type(policy)) and key in attrs.fields_dict(type(policy))
                if policy is not None and has_field:
                    owner = policy_name
                    break
            if owner is None:
                raise RuleSetError(f"{self.name} has no parameter {key!r}")
            policies.setdefault(owner, {})[key] = value
        for owner, values in policies.items():
            try:
                changes[owner] = attrs.evolve(getattr(self, owner), **values)
            except (TypeError, ValueError) as exc:
                if isinstance(exc, RuleSetError):
                    raise
                raise RuleSetError(f"bad parameters for {self.name}: {exc}") from exc
        if name is not None:
            changes["name"] = name
        return attrs.evolve(self, **changes)
