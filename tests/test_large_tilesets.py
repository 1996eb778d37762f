"""More than 256 curved tiles: the memo of placements keeps tiles apart (issue 14, point 3)."""

from __future__ import annotations

import pytest

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


# -- tile sets of more than 64 tiles in the compiled kernel (issue 24 point 2) -----------


def test_which_build_of_the_kernel_plays_which_tile_set() -> None:
    """
    Issue 24 point 2 ("double-9, double-12, double-15 and the action-tile sets in the
    core"): up to 64 tiles the 64-bit build, 65 to 128 the wide build (double-12 and the
    action tiles on it), 129 to 256 the huge build (double-15 to double-21), 257 to 1,024
    (the library's limit) the vast build (double-22 to double-43).
    """
    from bendolib import playouts as api
    from large_sets import on_double

    if None in (api._kernel_wide, api._kernel_huge, api._kernel_vast):
        pytest.skip("the wide, huge and vast builds of the kernel are not all loaded")
    for name, top, build in (
        ("basic", 6, "bendolib._kernel"),
        ("classic-draw", 9, "bendolib._kernel"),
        ("basic", 12, "bendolib._kernel_wide"),
        ("bendo-all-in-actions", 12, "bendolib._kernel_wide"),
        ("basic", 15, "bendolib._kernel_huge"),
        ("bendo-all-in-actions", 15, "bendolib._kernel_huge"),
        ("classic-draw", 21, "bendolib._kernel_huge"),
        ("basic", 22, "bendolib._kernel_vast"),
        ("bendo-all-in-actions", 30, "bendolib._kernel_vast"),
        ("classic-draw", 43, "bendolib._kernel_vast"),
    ):
        spec, reason, kernel = api._compiled_in(on_double(name, top), 2)
        assert spec is not None and kernel is not None, reason
        assert kernel.__name__ == build, (name, top)


@pytest.mark.parametrize("top", [12, 21, 43])
def test_the_large_builds_read_whole_masks_and_refuse_the_rest(top: int) -> None:
    """
    The wide build (double-12) reads a hand holding tile 89 (beyond one 64-bit word), the
    huge one (double-21) tile 251 (an index beyond a signed byte), the vast one
    (double-43) tile 988 (beyond a byte), and each lists the engine's moves for it; a
    hand beyond the tile set, beyond the build's bits or negative is left to the Python
    engine (UnsupportedError), never truncated.
    """
    from bendolib import playouts as api
    from bendolib._kernel_input import state_tuple
    from large_sets import on_double

    if {12: api._kernel_wide, 21: api._kernel_huge, 43: api._kernel_vast}[top] is None:
        pytest.skip("this build of the kernel is not loaded")
    rules = on_double("classic-block", top)
    spec, _, kernel = api._compiled_in(rules, 2)
    state = _position(rules, rules.tileset.find(top, top), rules.tileset.find(top - 1, top))
    state = state.replace(play_points=(0, 0))
    assert rules.tileset.find(top - 1, top) >= {12: 64, 21: 128, 43: 256}[top]
    expected = tuple(
        (0, m.end, rules.tileset.index(m.tile), m.inward, m.shows, m.turn)
        for m in bendolib.legal_moves(state)
        if isinstance(m, Place)
    )
    assert expected and kernel.listing(spec, state_tuple(state)) == expected
    n = len(rules.tileset)
    beyond = (1 << n, 1 << max(n, 256), 1 << max(n, 300), 1 << 1024, 1 << 1100)
    for hands in (*((b, 0) for b in beyond), (-1, 0), (1 << 90, 1 << 90), (-(1 << 1000), 0)):
        bad = list(state_tuple(state))
        bad[5] = hands
        with pytest.raises(kernel.UnsupportedError):
            kernel.listing(spec, tuple(bad))
