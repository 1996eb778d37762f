"""Tiles and tile sets: the default bend table, user bend tables, both-bends sets."""

from __future__ import annotations

import pytest

from bendolib import RuleSetError, Tile, TileSet
from bendolib.errors import ParseError
from bendolib.tiles import LEFT, RIGHT, STANDARD, STRAIGHT, default_bend


def test_standard_set_has_28_tiles_each_once() -> None:
    """seeds/000: 28 Bendominoes, every pair of 0..6 once."""
    assert len(STANDARD) == 28
    assert {(t.a, t.b) for t in STANDARD.tiles} == {(a, b) for a in range(7) for b in range(a, 7)}


def test_default_bend_table_is_the_documented_one() -> None:
    """Library assumption: a|b read from a to b turns left iff (b - a) mod 7 is 1, 2 or 4."""
    for tile in STANDARD.tiles:
        if tile.is_double:
            assert tile.bend == STRAIGHT
            continue
        expected = LEFT if (tile.b - tile.a) % 7 in (1, 2, 4) else RIGHT
        assert tile.bend == expected
        assert tile.turn_from(tile.a) == expected
        assert tile.turn_from(tile.b) == (RIGHT if expected == LEFT else LEFT)


def test_every_number_has_three_tiles_turning_each_way() -> None:
    """The default table is balanced: read from any number, three tiles turn each way."""
    for n in range(7):
        turns = [t.turn_from(n) for t in STANDARD.tiles if n in (t.a, t.b) and not t.is_double]
        assert turns.count(LEFT) == 3 and turns.count(RIGHT) == 3


def test_doubles_turn_both_ways() -> None:
    assert Tile(3, 3).turn_from(3) == LEFT | RIGHT


def test_user_bend_table_and_validation() -> None:
    table = {(a, b): LEFT for a in range(3) for b in range(a + 1, 3)}
    ts = TileSet.double(2, bends=table)
    assert all(t.bend == LEFT for t in ts.tiles if not t.is_double)
    assert TileSet.double(2, bends=lambda a, b: RIGHT).tiles[1].bend == RIGHT
    with pytest.raises(RuleSetError, match="no entry"):
        TileSet.double(3, bends=table)
    with pytest.raises(RuleSetError, match="LEFT or RIGHT"):
        TileSet.double(2, bends={k: 7 for k in table})


def test_both_bends_set_has_every_non_double_twice() -> None:
    ts = TileSet.double(6, both_bends=True)
    assert len(ts) == 7 + 2 * 21
    assert ts.parse_tile("2-5L") != ts.parse_tile("2-5R")
    with pytest.raises(ParseError, match="more than one"):
        ts.parse_tile("2-5")


@pytest.mark.parametrize("top", [6, 9, 12])
def test_larger_sets_count(top: int) -> None:
    """Double-N sets hold (N+1)(N+2)/2 tiles; the generalised default bend is antisymmetric."""
    ts = TileSet.double(top)
    assert len(ts) == (top + 1) * (top + 2) // 2
    for a in range(top + 1):
        for b in range(top + 1):
            if a != b:
                assert {default_bend(a, b, top + 1), default_bend(b, a, top + 1)} == {LEFT, RIGHT}


def test_tile_validation_and_points() -> None:
    with pytest.raises(ValueError, match="ordered"):
        Tile(5, 2)
    with pytest.raises(ValueError, match="no bend"):
        Tile(2, 2, LEFT)
    assert Tile(3, 4, LEFT).points == 7 and Tile(6, 6).points == 12
    assert STANDARD.mask_points(STANDARD.full_mask) == 168
    with pytest.raises(RuleSetError, match="repeats"):
        TileSet("bad", (Tile(1, 1), Tile(1, 1)))


def test_parse_tile_either_order() -> None:
    assert STANDARD.parse_tile("5-2") == STANDARD.parse_tile("2-5")
    with pytest.raises(ParseError):
        STANDARD.parse_tile("2/5")
    with pytest.raises(ParseError):
        STANDARD.parse_tile("2-9")
