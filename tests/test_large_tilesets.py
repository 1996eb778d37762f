"""More than 256 curved tiles: the memo of placements keeps tiles apart (issue 14, point 3)."""

from __future__ import annotations

import bendolib
from bendolib import GameState, Place
from bendolib.tiles import TileSet


def _position(rules: bendolib.RuleSet, opening: int, held: int) -> GameState:
    """Seat 0 to move, holding tile ``held``; the board opened with tile ``opening``."""
    tiles = rules.tileset.tiles
    first = tiles[opening]
    board = rules.geometry.open([(first, first.a)])
    rest = [i for i in range(len(tiles)) if i not in (opening, held)]
    deck = (held, *rest[:7], opening, *rest[7:])
    return GameState.create(
        rules=rules,
        players=2,
        seed=0,
        round_number=1,
        deck=deck,
        stock_pos=9,
        hand_masks=(1 << held, sum(1 << i for i in rest[:7])),
        board=board,
        current_player=0,
        scores=(0, 0),
    )


def test_a_tile_beyond_index_255_is_not_mistaken_for_another() -> None:
    """
    Before: the memo key packed the tile index in 8 bits, so tile 256 at an end showing
    4 shared the key of tile 0 at the same end showing 5, and ``legal_moves`` offered
    tile 0, which the player did not hold (applying it duplicated the tile).
    """
    tiles = list(TileSet.double(22).tiles)  # 276 curved tiles, in an order of our own
    five, four = TileSet.double(22).find(5, 9), TileSet.double(22).find(4, 9)
    tiles[0], tiles[five] = tiles[five], tiles[0]
    tiles[256], tiles[four] = tiles[four], tiles[256]
    tileset = TileSet("big", tuple(tiles))
    rules = bendolib.rules.get("basic").configure("big", tileset=tileset)
    a = _position(rules, tileset.find(5, 5), 0)  # 5-9 against an end showing 5
    b = _position(rules, tileset.find(4, 4), 256)  # 4-9 against an end showing 4
    assert bendolib.legal_moves(a)  # fills the memo for tile 0 at the ends of 5-5
    moves = [m for m in bendolib.legal_moves(b) if isinstance(m, Place)]
    assert moves
    for move in moves:
        assert move.tile == tiles[256], f"offered {move.tile}, held {tiles[256]}"
        after = bendolib.apply(b, move)
        assert sorted(after.deck) == list(range(len(tiles)))
        assert after.hand_masks[0] == 0
