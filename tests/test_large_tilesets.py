"""More than 256 tiles: the memo of placements keeps tiles apart (issue 14, point 3); the
builds of the compiled kernel by tile count (issue 24, point 2)."""

from __future__ import annotations

import pytest

import bendolib
from bendolib import GameState, Place
from bendolib.geometry.triangles import TriangleBoard, TriangleGeometry
from bendolib.geometry.trilattice import Cell
from bendolib.moves import Draw, PlaceInCell
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


def test_a_triangle_beyond_index_255_is_not_mistaken_for_another() -> None:
    """
    Before: the triangle geometry's memo key packed the tile index in 8 bits, so tile 256
    (3-7-8) in cell U(0, 0) shared the key of tile 0 (0-0-0) in D(0, 0), turned the same
    way, and ``placements`` offered 0-0-0 in D(0, 0) for a hand holding 3-7-8 only (on
    triangles 0-9 with mirrors, 340 tiles, played by the Python engine).
    """
    tiles = TileSet.triangles(9, mirrors=True)
    geometry = TriangleGeometry()
    zeros, high = tiles.tiles[0], tiles.tiles[256]
    # D(0, 0) open beside 0-0-0 in U(0, 1); U(0, 0) open beside tile 51 in D(0, -1)
    a = geometry.play(TriangleBoard(), PlaceInCell(zeros, Cell(0, 1, False), 0))
    b = geometry.play(TriangleBoard(), PlaceInCell(tiles.tiles[51], Cell(0, -1, True), 2))
    listed = geometry.placements(a, tiles, 1, frozenset())  # fills the memo for tile 0
    assert PlaceInCell(zeros, Cell(0, 0, True), 0) in listed
    moves = geometry.placements(b, tiles, 1 << 256, frozenset())
    assert PlaceInCell(high, Cell(0, 0, False), 0) in moves
    assert all(move.tile == high for move in moves), moves


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


def test_which_build_of_the_kernel_plays_which_triangle_set() -> None:
    """
    Issue 24 point 2 ("Any tile set the library accepts ... in the core (no 64-tile
    ceiling)") for the triangle games: up to 64 triangles the 64-bit build, 65 to 128 the
    wide build, 129 to 256 the huge build, beyond that the Python engine, and
    ``kernel_reason`` says why.
    """
    from bendolib import playouts as api
    from large_sets import on_triangles

    if api._kernel_wide is None or api._kernel_huge is None:
        pytest.skip("the wide and huge builds of the kernel are not both loaded")
    for name in ("triangle-dominoes", "triominoes"):
        for top, mirrors, build in (
            (4, True, "bendolib._kernel"),  # 45 tiles
            (5, True, "bendolib._kernel_wide"),  # 76
            (7, False, "bendolib._kernel_wide"),  # 120
            (7, True, "bendolib._kernel_huge"),  # 176
            (8, True, "bendolib._kernel_huge"),  # 249
        ):
            rules = on_triangles(name, top, mirrors)
            for players in rules.player_counts:
                spec, reason, kernel = api._compiled_in(rules, players)
                assert spec is not None and kernel is not None, reason
                assert kernel.__name__ == build, (name, top, mirrors)
        assert api.kernel_reason(on_triangles(name, 9, True), 2) == (
            "triangles with mirrors 0-9 has 340 tiles (the kernel: at most 256)"
        )


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


@pytest.mark.parametrize(("top", "mirrors", "beyond"), [(5, True, 64), (8, True, 128)])
def test_the_large_builds_read_whole_triangle_hands(top: int, mirrors: bool, beyond: int) -> None:
    """
    The wide build (triangles 0-5 with mirrors, 76 tiles) lists the engine's moves for a
    hand holding a triangle beyond index 63, the huge one (0-8 with mirrors, 249) beyond
    127 (an index beyond a signed byte); a hand beyond the tile set, beyond the build's
    bits or negative is left to the Python engine (UnsupportedError), never truncated.
    """
    from bendolib import playouts as api
    from bendolib._kernel_input import state_tuple
    from large_sets import on_triangles

    rules = on_triangles("triominoes", top, mirrors)
    n = len(rules.tileset)
    if (api._kernel_wide if n <= 128 else api._kernel_huge) is None:
        pytest.skip("this build of the kernel is not loaded")
    spec, _, kernel = api._compiled_in(rules, 2)
    for seed in range(100):
        state = bendolib.new_game(rules, 2, seed)
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
        held = [
            rules.tileset.index(m.tile)
            for m in bendolib.legal_moves(state)
            if isinstance(m, PlaceInCell)
        ]
        if max(held, default=0) >= beyond:
            break
    assert max(held) >= beyond
    expected = tuple(
        (0, m.cell.x, m.cell.y, int(m.cell.down), rules.tileset.index(m.tile), m.rotation)
        if isinstance(m, PlaceInCell)
        else (1 if isinstance(m, Draw) else 2, 0, 0, 0, 0, 0)
        for m in bendolib.legal_moves(state)
    )
    assert kernel.listing(spec, state_tuple(state)) == expected
    for hands in ((1 << n, 0), (1 << 256, 0), (1 << 300, 0), (-1, 0)):
        bad = list(state_tuple(state))
        bad[5] = hands
        with pytest.raises(kernel.UnsupportedError):
            kernel.listing(spec, tuple(bad))
