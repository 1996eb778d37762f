"""The fixed-size numeric encoding and the action numbering (issue 5)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import rules
from bendolib.encoding import (
    action_count,
    action_index,
    action_mask,
    describe_action,
    encode,
    encode_array,
    encoding_size,
    history_actions,
    layout,
    layout_planes,
    layout_window,
    max_ends,
    max_sites,
    move_of,
    on_cells,
    planes_shape,
    site_order,
)
from bendolib.geometry import TRIANGLES_GEOMETRY, Cell, TriangleBoard
from bendolib.geometry.triangles import TrianglePlacement
from bendolib.geometry.trilattice import neighbors
from bendolib.moves import Place, PlaceInCell
from bendolib.rules.triangles import TRIANGLE_RULESETS
from bendolib.state import GameState
from bendolib.tiles import TRIANGLES
from random_play import random_play as play
from triangle_positions import D, U, build, fill

#: Every rule set: the registered ones and the triangle games (issue 15; they are
#: named in the registry by its phase 2, and then listed once).
ALL = (
    *(rules.get(name) for name in rules.names()),
    *(r for r in TRIANGLE_RULESETS if r.name not in rules.names()),
)


def field(values: tuple[int, ...], name: str, state: GameState) -> tuple[int, ...]:
    for f in layout(state.rules, state.players):
        if f.name == name:
            return values[f.offset : f.offset + f.length]
    raise KeyError(name)


@pytest.mark.parametrize("ruleset", ALL, ids=lambda r: r.name)
def test_layout_tiles_the_vector_without_gaps(ruleset: bendolib.RuleSet) -> None:
    for players in ruleset.player_counts:
        offset = 0
        for f in layout(ruleset, players):
            assert f.offset == offset and f.length > 0 and f.description
            offset += f.length
        assert offset == encoding_size(ruleset, players)


@given(st.sampled_from(ALL), st.integers(0, 10_000), st.integers(0, 120))
def test_every_observation_encodes_to_the_same_length(
    ruleset: bendolib.RuleSet, seed: int, moves: int
) -> None:
    state = play(ruleset, seed, moves)
    n = len(state.rules.tileset)
    for seat in range(state.players):
        obs = state.observation(seat)
        values = encode(obs)
        assert len(values) == encoding_size(state.rules, state.players)
        assert all(type(v) is int for v in values)
        hand = field(values, "hand", state)
        assert [i for i in range(n) if hand[i]] == [
            state.rules.tileset.index(t) for t in state.hand(seat)
        ]
        sizes = field(values, "hand_sizes", state)
        assert sizes[0] == len(state.hand(seat))
        assert sizes[1 % state.players] == len(state.hand((seat + 1) % state.players))
        assert field(values, "stock_size", state) == (state.stock_size,)
        if not on_cells(state.rules):
            ends = field(values, "ends", state)
            assert sum(ends[0::4]) == len(state.board.ends)
            values_shown = [ends[4 * k + 1] for k in range(len(state.board.ends))]
            assert values_shown == list(state.board.values)
        cur = field(values, "current_player", state)[0]
        assert (seat + cur) % state.players == state.current_player


@given(st.sampled_from(ALL), st.integers(0, 10_000), st.integers(0, 120))
def test_action_numbers_are_distinct_in_range_and_invertible(
    ruleset: bendolib.RuleSet, seed: int, moves: int
) -> None:
    state = play(ruleset, seed, moves)
    legal = bendolib.legal_moves(state)
    board = state.board
    numbers = [action_index(m, state.rules, board) for m in legal]
    assert len(set(numbers)) == len(legal)
    assert all(0 <= k < action_count(state.rules) for k in numbers)
    mask = action_mask(legal, state.rules, board)
    assert sum(mask) == len(legal)
    for move, k in zip(legal, numbers, strict=True):
        assert mask[k] == 1
        assert move_of(k, legal, state.rules, board) == move


def test_action_space_sizes() -> None:
    basic = rules.get("basic")
    assert max_ends(basic) == 2
    # 28 openings, 28 tiles x 2 ends x 2 sides x 2 turns, draw, pass, next
    assert action_count(basic) == 28 + 28 * 2 * 2 * 2 + 3
    five = rules.get("all-five")
    assert max_ends(five) == 4


def test_the_sizes_on_the_encoding_page_are_the_codes() -> None:
    """
    docs/encoding.md's "Sizes:" sentences give each rule set's encoding size for exactly
    the player counts it allows (the page said "2 to 6 players" for both triangle games,
    while Triangle Dominoes allows 2 to 4).
    """
    page = (Path(__file__).resolve().parent.parent / "docs" / "encoding.md").read_text()
    text = " ".join(page.split())

    def sizes(name: str) -> str:
        counts = rules.get(name).player_counts
        return " / ".join(f"{encoding_size(rules.get(name), p):,}" for p in counts)

    assert f'"basic" encodes to {sizes("basic")} ints for 2 / 3 / 4 players' in text
    assert f'"all-five" to {sizes("all-five")},' in text
    assert f"action tiles to {sizes('bendo-all-in-actions')}." in text
    dominoes, triominoes = rules.get("triangle-dominoes"), rules.get("triominoes")
    assert dominoes.player_counts == (2, 3, 4)
    assert triominoes.player_counts == (2, 3, 4, 5, 6)
    assert (
        f"the triangle games encode to {sizes('triangle-dominoes')} ints for 2 / 3 / 4 "
        "players (Triangle Dominoes is played by 2 to 4), and Triominoes, played by 2 to 6, "
        f"to {encoding_size(triominoes, 5):,} / {encoding_size(triominoes, 6):,} for 5 / 6."
    ) in text


def test_an_illegal_action_number_is_refused() -> None:
    state = play("basic", 0, 3)
    legal = bendolib.legal_moves(state)
    used = {action_index(m, state.rules) for m in legal}
    free = next(k for k in range(action_count(state.rules)) if k not in used)
    with pytest.raises(ValueError, match="not legal"):
        move_of(free, legal, state.rules)


def test_the_placement_number_reads_tile_end_side_and_turn() -> None:
    state = play("basic", 3, 6)
    placement = next(m for m in bendolib.legal_moves(state) if isinstance(m, Place))
    n = len(state.rules.tileset)
    k = action_index(placement, state.rules) - n
    turn, rest = k % 2, k // 2
    side, rest = rest % 2, rest // 2
    end, tile = rest % max_ends(state.rules), rest // max_ends(state.rules)
    assert state.rules.tileset.tiles[tile] == placement.tile
    assert end == placement.end
    assert side == (0 if placement.inward == placement.tile.a else 1)
    assert turn == (0 if placement.turn == bendolib.LEFT else 1)


def test_numpy_array_matches_the_tuple() -> None:
    np = pytest.importorskip("numpy")
    obs = play("all-five", 1, 8).observation(0)
    array = encode_array(obs)
    assert array.dtype == np.int32 and tuple(int(v) for v in array) == encode(obs)


@pytest.mark.parametrize("name", ["basic", "all-five", "classic-draw", "bendo-all-in-actions"])
def test_every_action_has_a_distinct_name(name: str) -> None:
    ruleset = rules.get(name)
    names = [describe_action(k, ruleset) for k in range(action_count(ruleset))]
    assert len(set(names)) == len(names)
    assert names[-3:] == ["draw", "pass", "next"]
    state = play(name, 4, 5)
    for move in bendolib.legal_moves(state):
        if isinstance(move, Place):
            assert str(move.tile) in describe_action(action_index(move, ruleset), ruleset)
    with pytest.raises(ValueError, match="outside"):
        describe_action(action_count(ruleset), ruleset)


# -- the triangle geometry (issue 15): sites, cells and the 2-D planes -------------------

TRIANGLE_DOMINOES, TRIOMINOES = TRIANGLE_RULESETS


def test_the_triangle_action_space_is_tile_by_site_slot_by_rotation() -> None:
    for ruleset in TRIANGLE_RULESETS:
        n = len(ruleset.tileset)
        assert n == 56 and max_sites(ruleset) == n + 2
        # 56 openings, 56 tiles x 58 site slots x 3 rotations, draw, pass, next
        assert action_count(ruleset) == 56 + 56 * 58 * 3 + 3 == 9803
        assert [f.name for f in layout(ruleset, 2)][6:8] == ["cells", "sites"]
        assert encoding_size(ruleset, 2) == 56 * 4 + 2 + 1 + 4 * 56 + 7 * 58 + 6 + 3 * 2 + 1 + 3


def test_a_strip_of_k_triangles_has_k_plus_2_sites_the_bound_of_max_sites() -> None:
    """k tiles joined edge to edge share k - 1 edges at least: 3k - 2(k - 1) open."""
    cells = [U(0, 0)]
    for x in range(4):
        cells += [D(x, 0), U(x + 1, 0)]
    for k in range(1, len(cells) + 1):
        board = build(fill(cells[:k]))
        assert len(site_order(board)) == k + 2


def test_the_site_order_depends_on_the_layout_not_on_the_order_of_play() -> None:
    moves = fill([U(0, 0), D(0, 0), D(-1, 0), D(0, -1)])
    one = build(moves)
    other = build([moves[0], *reversed(moves[1:])])
    assert one.sites != other.sites  # the board lists its sites in the order they opened
    assert site_order(one) == site_order(other) == tuple(sorted(one.sites))
    keys = [Cell.from_key(k) for k in site_order(one)]
    assert keys == sorted(keys, key=lambda c: (c.x, c.y, c.down))
    listed = TRIANGLES_GEOMETRY.placements(one, TRIANGLES, TRIANGLES.full_mask, frozenset())
    for move in listed:
        assert action_index(move, TRIOMINOES, one) == action_index(move, TRIOMINOES, other)


def test_a_placement_number_reads_tile_site_slot_and_rotation() -> None:
    state = play(TRIOMINOES, 5, 9)
    board = state.board
    order = site_order(board)
    n = len(TRIOMINOES.tileset)
    for move in bendolib.legal_moves(state):
        if not isinstance(move, PlaceInCell):
            continue
        k = action_index(move, TRIOMINOES, board) - n
        rotation, rest = k % 3, k // 3
        slot, tile = rest % max_sites(TRIOMINOES), rest // max_sites(TRIOMINOES)
        assert TRIOMINOES.tileset.tiles[tile] == move.tile
        assert order[slot] == move.cell.key and rotation == move.rotation
        name = describe_action(k + n, TRIOMINOES, board)
        assert str(move.tile) in name and f"cell {move.cell}" in name


def test_the_opening_is_numbered_by_its_tile() -> None:
    state = bendolib.new_game(TRIANGLE_DOMINOES, 2, 3)
    (opening,) = bendolib.legal_moves(state)
    assert isinstance(opening, PlaceInCell) and opening.cell == Cell(0, 0, False)
    index = action_index(opening, TRIANGLE_DOMINOES, state.board)
    assert index == TRIANGLE_DOMINOES.tileset.index(opening.tile)
    assert describe_action(index, TRIANGLE_DOMINOES) == f"open {opening.tile}"


def test_a_placement_in_a_cell_needs_its_board() -> None:
    state = play(TRIANGLE_DOMINOES, 2, 4)
    move = next(m for m in bendolib.legal_moves(state) if isinstance(m, PlaceInCell))
    with pytest.raises(ValueError, match="needs the board"):
        action_index(move, TRIANGLE_DOMINOES)
    taken = PlaceInCell(move.tile, Cell(0, 0, False), 0)
    with pytest.raises(ValueError, match="not a free cell beside the layout"):
        action_index(taken, TRIANGLE_DOMINOES, state.board)
    with pytest.raises(ValueError, match="no action in the encoding of basic"):
        action_index(move, rules.get("basic"))


def test_the_triangle_fields_hold_every_tiles_cell_and_every_site() -> None:
    state = play(TRIOMINOES, 11, 14)
    board = state.board
    assert isinstance(board, TriangleBoard) and len(board.placements) > 3
    values = encode(state.observation(0))
    cells = field(values, "cells", state)
    tileset = TRIOMINOES.tileset
    for placed in board.placements:
        assert isinstance(placed, TrianglePlacement)
        i = tileset.index(placed.tile)
        cell = placed.cell
        assert cells[4 * i : 4 * i + 4] == (cell.x, cell.y, int(cell.down), placed.rotation)
    sites = field(values, "sites", state)
    order = site_order(board)
    for slot, key in enumerate(order):
        cell = Cell.from_key(key)
        pattern = board.cell_numbers(key)
        assert sites[7 * slot : 7 * slot + 7] == (1, cell.x, cell.y, int(cell.down), *pattern)
        assert max(pattern) >= 0  # a site touches the layout along an edge
    assert not any(sites[7 * len(order) :])


def test_the_window_of_the_planes_holds_every_cell_a_set_can_reach() -> None:
    """Breadth first from U(0, 0): the cells n - 1 edge crossings away fit the window."""
    low, size = layout_window(TRIOMINOES)
    reached = {Cell(0, 0, False).key}
    frontier = set(reached)
    for _ in range(len(TRIOMINOES.tileset) - 1):
        frontier = {c for key in frontier for c in neighbors(key)} - reached
        reached |= frontier
    coords = [Cell.from_key(k) for k in reached]
    assert min(c.x for c in coords) == low == min(c.y for c in coords)
    assert max(c.x for c in coords) == low + size - 1 == max(c.y for c in coords)


def test_the_planes_draw_each_tile_in_its_cell() -> None:
    np = pytest.importorskip("numpy")
    state = play(TRIANGLE_DOMINOES, 8, 30)
    board = state.board
    planes = layout_planes(board, TRIANGLE_DOMINOES)
    assert planes.shape == planes_shape(TRIANGLE_DOMINOES) == (8, 56, 56)
    assert planes.dtype == np.int32
    low = layout_window(TRIANGLE_DOMINOES)[0]
    for placed in board.placements:
        assert isinstance(placed, TrianglePlacement)
        base = 4 * int(placed.cell.down)
        drawn = planes[base : base + 4, placed.cell.y - low, placed.cell.x - low]
        assert tuple(int(v) for v in drawn) == (1, *placed.corners)
    assert int(planes[0].sum() + planes[4].sum()) == len(board.placements)
    empty = (planes[0] == 0) & (planes[4] == 0)
    assert (planes[1:4][:, planes[0] == 0] == -1).all() and empty.any()
    with pytest.raises(ValueError, match="no tiles in cells"):
        layout_planes(board, rules.get("basic"))


@given(st.sampled_from(TRIANGLE_RULESETS), st.integers(0, 10_000), st.integers(1, 80))
def test_history_actions_number_each_move_on_the_board_it_was_laid_on(
    ruleset: bendolib.RuleSet, seed: int, moves: int
) -> None:
    state = bendolib.new_game(ruleset, 2, seed)
    rng = random.Random(seed)
    numbers = []
    for _ in range(moves):
        if state.is_round_over:
            break
        legal = bendolib.legal_moves(state)
        move = legal[rng.randrange(len(legal))]
        numbers.append(action_index(move, ruleset, state.board))
        state = bendolib.apply(state, move)
        assert len(site_order(state.board)) <= max_sites(ruleset)
    assert history_actions(ruleset, state.observation(0).history) == tuple(numbers)


def test_every_triangle_action_has_a_distinct_name() -> None:
    names = [describe_action(k, TRIOMINOES) for k in range(action_count(TRIOMINOES))]
    assert len(set(names)) == len(names) and names[-3:] == ["draw", "pass", "next"]
