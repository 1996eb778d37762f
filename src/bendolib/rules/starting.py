"""Starting policies: who begins a round, and with which tile."""

from __future__ import annotations

from typing import Literal, Protocol

import attrs

from bendolib._memo import remember
from bendolib.errors import RuleSetError
from bendolib.tiles import Tile, TileSet, indices


@attrs.frozen
class StartDecision:
    """
    The round's first player, and the tile it must open with (-1: free play).

    ``redeal`` asks for a fresh shuffle instead (no qualifying tile was dealt).
    """

    player: int = 0
    opening: int = -1
    redeal: bool = False


class StartPolicy(Protocol):
    """Chooses the round's first player from the dealt hands (tile-index bitmasks)."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        """The start of a round with these hands."""
        ...


def _highest(tileset: TileSet, mask: int) -> int:
    """
    Index of the highest number tile in ``mask`` (most points, then the higher top
    face); tiles with a symbol face (action tiles) never count; -1 if none.
    """
    best = -1
    best_key = (-1, -1)
    for i in indices(mask):
        tile = tileset.tiles[i]
        if tile.a < 0:
            continue
        key = (tile.points, max(tile.a, tile.b))
        if key > best_key:
            best, best_key = i, key
    return best


def _numbers(tile: Tile) -> tuple[int, int]:
    return (tile.a, tile.b) if tile.a <= tile.b else (tile.b, tile.a)


#: Whether a tile set holds some numbers twice (both bends), by id (the value keeps
#: the set alive, so its id is not reused).
_TWINS: dict[int, tuple[TileSet, bool]] = {}


def _has_twins(tileset: TileSet) -> bool:
    found = _TWINS.get(id(tileset))
    if found is None:
        numbers = [_numbers(t) for t in tileset.tiles]
        found = remember(_TWINS, id(tileset), (tileset, len(set(numbers)) < len(numbers)))
    return found[1]


def _equals(tileset: TileSet, mask: int, index: int) -> list[int]:
    """The tiles of ``mask`` with the numbers of tile ``index`` (its other bends), in order."""
    key = _numbers(tileset.tiles[index])
    return [i for i in indices(mask) if _numbers(tileset.tiles[i]) == key]


def _holder(hands: tuple[int, ...], index: int) -> int:
    for player, hand in enumerate(hands):
        if hand >> index & 1:
            return player
    return -1


@attrs.frozen
class HighestDouble:
    """
    The holder of the highest double starts (and opens with it).

    ``no_double``: with no double in any hand, the holder of the highest tile
    (most pips, then the higher top number) starts (``"highest_tile"``), or the
    tiles are shuffled and dealt again (``"redeal"``).  ``opens``: the starter must
    lay that tile as the first move; when False the starter plays freely (the table
    was opened by the deal, as in All Five).

    ``split``: in a set with a tile in both bends, the highest tile may be dealt
    twice; held by one player, that player starts with the copy listed first in the
    tile set; held by two players, the tiles are dealt again (``"redeal"``) or the
    lower seat starts (``"lowest_seat"``).
    """

    no_double: Literal["highest_tile", "redeal"] = "highest_tile"
    opens: bool = True
    split: Literal["redeal", "lowest_seat"] = "redeal"

    def __attrs_post_init__(self) -> None:
        if self.no_double not in ("highest_tile", "redeal"):
            raise RuleSetError(f"unknown no_double {self.no_double!r}")
        if self.split not in ("redeal", "lowest_seat"):
            raise RuleSetError(f"unknown split {self.split!r}; use 'redeal' or 'lowest_seat'")

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        """Holder of the highest double (or of the highest tile)."""
        dealt = 0
        for hand in hands:
            dealt |= hand
        tile = _highest(tileset, dealt & tileset.doubles_mask)
        if tile < 0:
            if self.no_double == "redeal":
                return StartDecision(redeal=True)
            tile = _highest(tileset, dealt)
            if tile < 0:
                return StartDecision(redeal=True)
        player = _holder(hands, tile)
        if _has_twins(tileset):
            copies = _equals(tileset, dealt, tile)
            holders = sorted({_holder(hands, i) for i in copies})
            if len(holders) > 1 and self.split == "redeal":
                return StartDecision(redeal=True)
            player = holders[0]
            tile = next(i for i in copies if _holder(hands, i) == player)
        return StartDecision(player, tile if self.opens else -1)


@attrs.frozen
class HolderOf:
    """
    The holder of one named tile (e.g. 6-6) starts with it; if nobody holds it,
    the ``fallback`` policy decides.
    """

    a: int = 6
    b: int = 6
    fallback: HighestDouble = HighestDouble()

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        """Holder of tile ``a-b``."""
        i = tileset.find(self.a, self.b)
        if i >= 0:
            player = _holder(hands, i)
            if player >= 0:
                return StartDecision(player, i)
        return self.fallback.choose(tileset, hands, round_number)


@attrs.frozen
class FixedSeat:
    """
    Seat ``seat`` starts every round and opens with any tile of its hand (as in
    OpenSpiel's and the ``dominoes`` package's default games).
    """

    seat: int = 0

    def __attrs_post_init__(self) -> None:
        if self.seat < 0:
            raise RuleSetError(f"seat must be 0 or more, not {self.seat}")

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        """Seat ``seat``, free opening."""
        if self.seat >= len(hands):
            raise RuleSetError(f"seat {self.seat} does not exist with {len(hands)} players")
        return StartDecision(self.seat, -1)
