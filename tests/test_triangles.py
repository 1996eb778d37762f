"""The triangle tiles, lattice and geometry, and the two triangle rule sets (issue 15).

Rule tests cite the sentence they check: seeds/004 for Triangle Dominoes, the published
Triominoes rules (as summed up in docs/rules/triominoes.md) for Triominoes.
"""

from __future__ import annotations

import pytest

import bendolib
from bendolib import IllegalMoveError, ParseError, RuleSetError
from bendolib.blocking import Block
from bendolib.geometry import BEND, TRIANGLES_GEOMETRY, Cell, OpenEdge, TriangleBoard
from bendolib.geometry.trilattice import (
    ORIGIN,
    LatticeRangeError,
    across,
    around,
    cell_key,
    corners,
    neighbors,
    point_key,
)
from bendolib.moves import DRAW, PASS, Draw, Pass, PlaceInCell
from bendolib.rules import TRIANGLE_DOMINOES, TRIOMINOES, HighestTriple, TriominoesRoundScoring
from bendolib.rules.scoring import RoundOutcome
from bendolib.tiles import TRIANGLES, Tile, TileSet, Triangle
from triangle_positions import D, U, build, fill, lay, position

# -- the tiles ---------------------------------------------------------------------------


def test_the_set_has_every_multiset_of_three_numbers_once() -> None:
    """Issue 15: '56 triangles, a number 0-5 at each corner: every multiset once'."""
    kinds = [len(set(t.faces)) for t in TRIANGLES.tiles]
    assert len(TRIANGLES) == 56
    assert (kinds.count(1), kinds.count(2), kinds.count(3)) == (6, 30, 20)
    assert len({tuple(sorted(t.faces)) for t in TRIANGLES.tiles}) == 56


def test_three_different_numbers_increase_clockwise_and_no_mirror_is_in_the_set() -> None:
    """Issue 15: 'a tile with three different numbers exists only with the numbers
    increasing clockwise'."""
    for tile in TRIANGLES.tiles:
        assert isinstance(tile, Triangle)
        a, b, c = tile.faces
        assert a <= b <= c
    mirror = Triangle(0, 2, 1)
    assert mirror not in TRIANGLES.tiles
    with pytest.raises(ParseError, match="mirror image"):
        TRIANGLES.parse_tile("0-2-1")
    assert len(TileSet.triangles(5, mirrors=True)) == 76


def test_a_triangle_reads_clockwise_from_its_lowest_number() -> None:
    assert str(Triangle(1, 3, 2)) == "1-3-2"
    with pytest.raises(ValueError, match="clockwise from its lowest"):
        Triangle(2, 1, 3)
    with pytest.raises(ValueError, match="no bend"):
        Triangle(1, 2, 3, bend=1)
    assert TRIANGLES.parse_tile("4-5-3") == Triangle(3, 4, 5)  # any corner first
    assert Triangle(3, 4, 5).turned(1) == (5, 3, 4)


def test_triangle_points_and_triples_in_the_tile_set_tables() -> None:
    tile = TRIANGLES.parse_tile("2-3-5")
    index = TRIANGLES.index(tile)
    assert tile.points == TRIANGLES.points(index) == 10
    assert bin(TRIANGLES.doubles_mask).count("1") == 6  # the triples
    assert TRIANGLES.is_double(TRIANGLES.index(TRIANGLES.parse_tile("4-4-4")))
    assert bin(TRIANGLES.with_face(5)).count("1") == 21
    assert TRIANGLES.mask_points(TRIANGLES.full_mask) == sum(t.points for t in TRIANGLES.tiles)
    assert TRIANGLES.turn_table == ()  # no bends


def test_a_triangle_has_no_opposite_face() -> None:
    with pytest.raises(ValueError, match="triangle"):
        Triangle(1, 2, 3).other(1)


def test_geometries_refuse_the_other_kind_of_tile() -> None:
    with pytest.raises(RuleSetError, match="triangles"):
        TRIOMINOES.configure(tileset=bendolib.tiles.STANDARD_STRAIGHT)
    with pytest.raises(RuleSetError, match="dominoes, not triangles"):
        bendolib.rules.get("basic").configure(tileset=TRIANGLES, geometry=BEND)
    with pytest.raises(RuleSetError, match="wild faces"):
        TRIOMINOES.configure(wild_faces={0})


# -- the lattice -------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [U(0, 0), D(0, 0), U(-3, 5), D(7, -2)], ids=str)
def test_neighbours_share_an_edge_read_the_other_way(cell: Cell) -> None:
    key = cell.key
    for k, beyond in enumerate(neighbors(key)):
        back = across(cell.down, k)
        assert neighbors(beyond)[back] == key
        mine = corners(key)
        theirs = corners(beyond)
        assert (theirs[back], theirs[(back + 1) % 3]) == (mine[(k + 1) % 3], mine[k])


def test_six_cells_meet_at_every_point() -> None:
    point = point_key(2, -1)
    cells = around(point)
    assert len(set(cells)) == 6
    assert all(point in corners(c) for c in cells)
    assert sum(1 for c in cells if c & 1) == 3  # three up, three down


def test_cells_are_written_x_comma_y_and_up_or_down() -> None:
    assert str(Cell(3, -2, True)) == "3,-2d"
    assert Cell.from_key(cell_key(-4, 1, False)) == Cell(-4, 1)
    assert str(ORIGIN) == "0,0u"
    with pytest.raises(LatticeRangeError):
        point_key(1 << 13, 0)


# -- the geometry ------------------------------------------------------------------------


def test_the_first_tile_lies_in_the_origin_with_three_open_edges() -> None:
    board, move = TRIANGLES_GEOMETRY.opening(TRIANGLES.parse_tile("3-4-5"), 3)
    assert move == PlaceInCell(Triangle(3, 4, 5), ORIGIN, 0)
    assert len(board.ends) == 3 and all(isinstance(e, OpenEdge) for e in board.ends)
    assert board.edges == board.ends
    assert [e.values for e in board.edges] == [(3, 4), (4, 5), (5, 3)]
    assert {e.target for e in board.edges} == {D(-1, 0), D(0, 0), D(0, -1)}


def test_a_tile_matches_both_numbers_of_the_shared_edge() -> None:
    """Issue 15: 'along every shared edge the two corner numbers match'."""
    board = build([lay("3-4-5", U(0, 0))])
    moves = TRIANGLES_GEOMETRY.placements(board, TRIANGLES, TRIANGLES.full_mask, frozenset())
    # D(0, 0) shares U(0, 0)'s edge from corner 1 (4) to corner 2 (5): its corners 0 and
    # 2 are those points, so it shows 4 at corner 0 and 5 at corner 2
    there = {str(m) for m in moves if m.cell == D(0, 0)}
    assert there and all(text.startswith("4-") and text[4] == "5" for text in there)
    assert "4-4-5@0,0d" in there and "4-0-5@0,0d" not in there  # 0-4-5 reads 4-5-0


def test_no_two_tiles_in_a_cell_and_a_cell_needs_a_shared_edge() -> None:
    board = build([lay("3-4-5", U(0, 0))])
    moves = TRIANGLES_GEOMETRY.placements(board, TRIANGLES, TRIANGLES.full_mask, frozenset())
    assert {m.cell for m in moves} == {D(-1, 0), D(0, 0), D(0, -1)}
    state = position(TRIOMINOES, board, [["3-3-4", "1-1-1"], ["0-0-0"]])
    for bad, why in [
        (PlaceInCell(Triangle(3, 3, 4), U(0, 0), 0), "is taken"),
        (PlaceInCell(Triangle(3, 3, 4), U(2, 2), 0), "shares no edge"),
        (lay("3-3-4", D(0, 0), (3, 3, 4)), "shows 4, the tile 3"),
        (PlaceInCell(Triangle(0, 0, 0), D(0, 0), 0), "not in player 0's hand"),
    ]:
        with pytest.raises(IllegalMoveError, match=why):
            bendolib.apply(state, bad)


def test_a_triple_is_listed_once_per_cell() -> None:
    board = build(fill([U(0, 0)], {point_key(0, 0): 1, point_key(0, 1): 1}))
    moves = TRIANGLES_GEOMETRY.placements(board, TRIANGLES, TRIANGLES.full_mask, frozenset())
    triples = [m for m in moves if m.tile == Triangle(1, 1, 1)]
    assert [m.rotation for m in triples] == [0]


def _hexagon() -> list[PlaceInCell]:
    # six cells round point (0, 0), counter-clockwise; the centre shows 5
    cells = [U(0, 0), D(-1, 0), U(-1, 0), D(-1, -1), U(0, -1), D(0, -1)]
    return fill(cells, {point_key(0, 0): 5})


def test_six_tiles_round_a_point_make_a_hexagon() -> None:
    moves = _hexagon()
    board = build(moves[:5])
    assert TRIANGLES_GEOMETRY.hexagons(board, moves[4].cell) == 0
    board = TRIANGLES_GEOMETRY.play(board, moves[5])
    assert TRIANGLES_GEOMETRY.hexagons(board, moves[5].cell) == 1
    assert not TRIANGLES_GEOMETRY.is_bridge(board, moves[5].cell)


def _bridge() -> list[PlaceInCell]:
    # D(1, -1) shares an edge with U(1, 0) only; its corner (2, -1) opposite that edge is
    # touched by D(2, -2), reached round the other side
    path = [U(1, 0), D(1, 0), U(2, 0), D(2, -1), U(3, -1), D(3, -2), U(3, -2), D(2, -2)]
    shift = [Cell(c.x - 1, c.y, c.down) for c in [*path, D(1, -1)]]  # start in U(0, 0)
    return fill(shift)


def test_a_bridge_touches_by_one_edge_and_the_opposite_corner() -> None:
    """Issue 15: 'a bridge (a tile touching the layout by one edge and the opposite
    corner)'."""
    moves = _bridge()
    board = build(moves)
    last = moves[-1].cell
    assert TRIANGLES_GEOMETRY.is_bridge(board, last)
    assert not any(
        TRIANGLES_GEOMETRY.is_bridge(build(moves[: k + 1]), m.cell)
        for k, m in enumerate(moves[:-1])
    )


def test_a_tile_matches_every_corner_it_touches() -> None:
    """Issue 15: 'every corner it touches carries the same number as all the tiles
    meeting at that point' - also a corner where it meets another tile only there."""
    moves = _bridge()
    board = build(moves[:-1])
    cell = moves[-1].cell
    (shared,) = [k for k, b in enumerate(neighbors(cell.key)) if b in board.filled]
    far = corners(cell.key)[(shared + 2) % 3]  # met by D(1, -2) only
    listed = TRIANGLES_GEOMETRY.placements(board, TRIANGLES, TRIANGLES.full_mask, frozenset())
    here = [m for m in listed if m.cell == cell]
    assert here and all(m.corners[(shared + 2) % 3] == board.number_at(far) for m in here)
    edge_only = [
        lay(str(t), cell, reading)
        for t in TRIANGLES.tiles
        for reading in {PlaceInCell(t, cell, r).corners for r in range(3)}
        if reading[shared] == board.number_at(corners(cell.key)[shared])
        and reading[(shared + 1) % 3] == board.number_at(corners(cell.key)[(shared + 1) % 3])
    ]
    assert len(edge_only) > len(here)  # matching the edge alone is not enough


def _hole() -> list[PlaceInCell]:
    # five cells round point (0, 0), leaving D(0, -1), whose corners then read 5, 2, 1
    # clockwise: only the mirror image of 1-2-5 would fit
    cells = [U(0, 0), D(-1, 0), U(-1, 0), D(-1, -1), U(0, -1)]
    return fill(cells, {point_key(0, 0): 5, point_key(1, 0): 2, point_key(1, -1): 1})


def test_open_edges_are_blocked_c_a_or_b() -> None:
    board = build(_hole())
    hole = D(0, -1).key
    assert board.cell_numbers(hole) == (5, 2, 1)
    everything = TRIANGLES.full_mask
    into_hole = [e for e, end in enumerate(board.ends) if getattr(end, "site", None) == hole]
    assert len(into_hole) == 2
    for e in range(len(board.ends)):
        letter = TRIANGLES_GEOMETRY.classify_end(board, e, TRIANGLES, everything)
        assert (letter == "C") == (e in into_hole)
    edge = next(e for e in range(len(board.ends)) if e not in into_hole)
    end = board.ends[edge]
    assert isinstance(end, OpenEdge)
    pair = set(end.values)
    carrying = sum(1 << i for i, t in enumerate(TRIANGLES.tiles) if pair <= set(t.faces))
    assert TRIANGLES_GEOMETRY.classify_end(board, edge, TRIANGLES, everything & ~carrying) == "A"
    fits = TRIANGLES_GEOMETRY.fitting(TRIANGLES, board.cell_numbers(end.site))
    letter = TRIANGLES_GEOMETRY.classify_end(board, edge, TRIANGLES, everything & ~fits)
    assert letter in ("A", "B")
    state = position(TRIOMINOES, board, [["0-0-0"], ["5-5-5"]])
    statuses = bendolib.classify_ends(state)
    assert [s.end for s in statuses if s.blocked is Block.DEAD_END] == into_hole
    for status in statuses:
        assert len(status.values) == 2
        assert status.label == f"{status.end}:{status.values[0]}-{status.values[1]}"


# -- moves, notation, pictures -----------------------------------------------------------


def test_cell_moves_round_trip_through_the_notation() -> None:
    for rules in (TRIANGLE_DOMINOES, TRIOMINOES):
        state = bendolib.new_game(rules, 3, 5)
        for k in range(40):
            if state.is_game_over:
                break
            legal = bendolib.legal_moves(state)
            for move in legal:
                assert bendolib.parse_move(str(move), state) == move
            state = bendolib.apply(state, legal[(7 * k) % len(legal)])


def test_shortened_cell_moves_and_their_errors() -> None:
    board = build([lay("3-4-5", U(0, 0))])
    state = position(TRIOMINOES, board, [["3-4-4", "0-0-0"], ["1-1-1"]])
    legal = bendolib.legal_moves(state)
    only = [m for m in legal if isinstance(m, PlaceInCell)]
    assert [str(m) for m in only] == ["4-4-3@-1,0d"]
    assert bendolib.parse_move("4-4-3", state) == only[0]  # the reading, no cell
    assert bendolib.parse_move("3-4-4", state) == only[0]  # the tile
    assert bendolib.parse_move("4-4-3@-1,0D", state) == only[0]
    with pytest.raises(ParseError, match="a triangle has three"):
        bendolib.parse_move("4-4", state)
    with pytest.raises(ParseError, match="'u' \\(up\\) or 'd'"):
        bendolib.parse_move("4-4-3@-1,0", state)
    with pytest.raises(IllegalMoveError, match="already open"):
        bendolib.parse_move("4-4-3*", state)
    with pytest.raises(IllegalMoveError, match="not in player 0's hand"):
        bendolib.parse_move("1-1-1@0,0d", state)
    with pytest.raises(IllegalMoveError, match="fits no free cell"):
        bendolib.parse_move("0-0-0", state)


def test_the_opening_is_written_with_its_cell_and_read_with_a_star() -> None:
    state = bendolib.new_game(TRIOMINOES, 2, 3)
    (move,) = bendolib.legal_moves(state)
    assert isinstance(move, PlaceInCell)
    assert str(move) == f"{move.tile}@0,0u"
    assert bendolib.parse_move(f"{move.tile}*", state) == move


def test_the_text_picture_of_a_triangle_layout() -> None:
    board = build([lay("3-4-5", U(0, 0)), lay("4-4-5", D(0, 0), (4, 4, 5))])
    state = position(TRIOMINOES, board, [["0-0-0"], ["1-1-1"]])
    picture = bendolib.text.triangle_map(state)
    assert picture.splitlines() == [
        "    +",
        "  4---4",
        "+/ \\*/+",
        "3---5",
        "  +",
    ]
    text = str(state).splitlines()
    assert text[1:6] == picture.splitlines()
    assert text[6] == "ends: 0:3-4 (open), 1:5-3 (open), 2:4-4 (open), 3:4-5 (open)"


# -- the rule sets: Triangle Dominoes (seeds/004) ----------------------------------------


def test_triangle_dominoes_deals_six_each() -> None:
    """seeds/004: 'take 6 cards each'."""
    state = bendolib.new_game(TRIANGLE_DOMINOES, 3, 1)
    assert [len(hand) for hand in state.hands] == [6, 6, 6]
    assert state.stock_size == 56 - 18


def test_triangle_dominoes_the_triple_holder_takes_the_first() -> None:
    """seeds/004: 'The player who has a card with three matching numbers takes the first'
    (the highest triple when several; else the highest pair)."""
    hands = (
        TRIANGLES.mask_of([TRIANGLES.parse_tile(t) for t in ("1-1-1", "0-1-2")]),
        TRIANGLES.mask_of([TRIANGLES.parse_tile(t) for t in ("4-4-4", "2-2-5")]),
    )
    decision = TRIANGLE_DOMINOES.start.choose(TRIANGLES, hands, 1)
    assert (decision.player, TRIANGLES.tiles[decision.opening]) == (1, Triangle(4, 4, 4))
    no_triples = (
        TRIANGLES.mask_of([TRIANGLES.parse_tile(t) for t in ("3-4-5", "1-4-4")]),
        TRIANGLES.mask_of([TRIANGLES.parse_tile(t) for t in ("3-3-5", "0-1-2")]),
    )
    decision = TRIANGLE_DOMINOES.start.choose(TRIANGLES, no_triples, 1)
    assert TRIANGLES.tiles[decision.opening] == Triangle(1, 4, 4)  # pair of 4s
    decision = TRIOMINOES.start.choose(TRIANGLES, no_triples, 1)
    assert TRIANGLES.tiles[decision.opening] == Triangle(3, 4, 5)  # the highest sum, 12
    free = HighestTriple(opens=False).choose(TRIANGLES, hands, 1)
    assert (free.player, free.opening) == (1, -1)


def test_triangle_dominoes_each_tile_laid_scores_its_sum() -> None:
    """Issue 15 (Triangle Dominoes): 'each player scores the sum of the three numbers of
    every tile they lay (the opener too)'."""
    state = bendolib.new_game(TRIANGLE_DOMINOES, 2, 4)
    while not state.is_round_over:
        before = state
        move = bendolib.legal_moves(state)[0]
        state = bendolib.apply(state, move)
        gained = (
            state.play_points[before.current_player] - before.play_points[before.current_player]
        )
        assert gained == (move.tile.points if isinstance(move, PlaceInCell) else 0)


def test_triangle_dominoes_a_stuck_player_draws_one_and_may_lay_it() -> None:
    """Issue 15 (Triangle Dominoes): 'a player who cannot lay draws one tile and, if it
    fits, may lay it, else the turn ends'."""
    board = build([lay("5-5-5", U(0, 0))])
    state = position(TRIANGLE_DOMINOES, board, [["0-0-0"], ["1-1-1"]], stock=["4-5-5", "0-1-1"])
    assert bendolib.legal_moves(state) == (DRAW,)
    drawn = bendolib.apply(state, DRAW)
    legal = bendolib.legal_moves(drawn)
    assert legal[-1] == PASS and all(isinstance(m, PlaceInCell) for m in legal[:-1])
    state = position(TRIANGLE_DOMINOES, board, [["0-0-0"], ["1-1-1"]], stock=["0-1-1"])
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 1 and after.stock_size == state.stock_size - 1


def test_triangle_dominoes_the_highest_score_wins() -> None:
    """Issue 15: 'the game ends when a player has laid all tiles or no one can lay; the
    highest score wins'."""
    state = bendolib.new_game(TRIANGLE_DOMINOES, 2, 11)
    while not state.is_round_over:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    result = state.last_result
    assert result is not None and result.points == (0, 0)
    best = max(state.play_points)
    assert result.winners == tuple(s for s in range(2) if state.play_points[s] == best)
    if len(result.winners) == 1:
        assert state.is_game_over and state.winner == result.winners[0]


# -- the rule sets: Triominoes -----------------------------------------------------------


def test_triominoes_hand_sizes() -> None:
    """Triominoes: 9 tiles each for 2 players, 7 for 3 or 4, 6 for 5 or 6."""
    sizes = {p: len(bendolib.new_game(TRIOMINOES, p, 1).hands[0]) for p in range(2, 7)}
    assert sizes == {2: 9, 3: 7, 4: 7, 5: 6, 6: 6}


@pytest.mark.parametrize(("tile", "points"), [("5-5-5", 25), ("0-0-0", 40), ("3-4-5", 12)])
def test_triominoes_opening_bonus(tile: str, points: int) -> None:
    """Triominoes: the opening triple scores its sum plus 10, 0-0-0 plus 40 in all; a
    tile that is not a triple scores its sum only."""
    rules = TRIOMINOES.configure(start=HighestTriple())
    state = position(rules, TriangleBoard(), [[tile, "1-1-2"], ["1-2-3"]])
    state = state.replace(opening=rules.tileset.index(rules.tileset.parse_tile(tile)))
    after = bendolib.apply(state, bendolib.legal_moves(state)[0])
    assert after.scores[0] == points


def test_triominoes_hexagon_bonus() -> None:
    """Triominoes: completing a hexagon scores 50 more."""
    moves = _hexagon()
    board = build(moves[:5])
    state = position(TRIOMINOES, board, [[str(moves[5].tile), "0-0-0"], ["1-1-1"]])
    after = bendolib.apply(state, moves[5])
    assert after.scores[0] == moves[5].tile.points + 50


def test_triominoes_bridge_bonus() -> None:
    """Triominoes: a bridge scores 40 more."""
    moves = _bridge()
    board = build(moves[:-1])
    # (the other tile in hand is one the board does not hold: 0-0-0 is on it, and
    # GameState refuses a tile in two places)
    state = position(TRIOMINOES, board, [[str(moves[-1].tile), "5-5-5"], ["1-1-1"]])
    after = bendolib.apply(state, moves[-1])
    assert after.scores[0] == moves[-1].tile.points + 40


def test_triominoes_drawing_costs_five_and_a_pass_after_three_ten_more() -> None:
    """Triominoes: each tile drawn costs 5, up to 3 tiles; passing after the third costs
    10 more (25 in all)."""
    board = build([lay("5-5-5", U(0, 0))])
    state = position(TRIOMINOES, board, [["0-0-0"], ["1-1-1"]], stock=["0-1-1", "0-1-2", "1-1-2"])
    for k in range(3):
        assert bendolib.legal_moves(state) == (DRAW,)
        state = bendolib.apply(state, DRAW)
        if k < 2:
            assert state.current_player == 0 and state.scores[0] == -5 * (k + 1)
    assert state.current_player == 1 and state.scores == (-25, 0)
    assert state.play_points == (-25, 0)


def test_triominoes_a_drawn_tile_that_fits_is_laid_or_the_turn_passes() -> None:
    board = build([lay("5-5-5", U(0, 0))])
    state = position(TRIOMINOES, board, [["0-0-0"], ["1-1-1"]], stock=["4-5-5"])
    state = bendolib.apply(state, DRAW)
    assert state.scores[0] == -5
    passed = bendolib.apply(state, PASS)
    assert passed.scores[0] == -15 and passed.current_player == 1
    laid = bendolib.apply(state, bendolib.legal_moves(state)[0])
    assert laid.scores[0] == -5 + 14


def test_triominoes_a_pass_with_the_stock_empty_costs_nothing_by_default() -> None:
    """Triominoes (the published French rules): a player who needs a tile when none is
    left passes without the 10 (``pass_when_empty``)."""
    board = build([lay("5-5-5", U(0, 0))])
    state = position(TRIOMINOES, board, [["0-0-0"], ["1-1-1", "4-5-5"]], empty_stock=True)
    assert bendolib.legal_moves(state) == (PASS,)
    assert bendolib.apply(state, PASS).scores[0] == 0
    harsh = TRIOMINOES.configure(pass_when_empty=10)
    state = position(harsh, board, [["0-0-0"], ["1-1-1", "4-5-5"]], empty_stock=True)
    assert bendolib.apply(state, PASS).scores[0] == -10


def test_triominoes_going_out_scores_25_and_the_others_hands() -> None:
    """Triominoes: going out scores 25 plus the points left in the other hands."""
    board = build([lay("5-5-5", U(0, 0))])
    state = position(TRIOMINOES, board, [["4-5-5"], ["1-1-1", "0-1-2"]])
    after = bendolib.apply(state, bendolib.legal_moves(state)[0])
    assert after.is_round_over
    assert after.scores == (14 + 25 + 3 + 3, 0)
    assert after.last_result is not None and after.last_result.winners == (0,)


def test_triominoes_blocked_round_scoring() -> None:
    """Triominoes, published rules (issue 21 point 5; docs/rules/triominoes.md [4, 11]):
    in a blocked round the lowest hand collects the others' points minus its own (the
    default since issue 21); or (``blocked="each_loses"``, the former default) each
    player loses what is left in hand."""
    outcome = RoundOutcome(((0,), (1,), (2,)), (5, 12, 20), (), True, 0, (0, 0, 0))
    assert TRIOMINOES.round_scoring == TriominoesRoundScoring(blocked="lowest_collects")
    assert TriominoesRoundScoring().score(outcome).points == (12 + 20 - 5, 0, 0)
    each = TriominoesRoundScoring(blocked="each_loses").score(outcome)
    assert each.points == (-5, -12, -20)
    collect = TriominoesRoundScoring(blocked="lowest_collects").score(outcome)
    assert collect.points == (12 + 20 - 5, 0, 0) and collect.winners == (0,)
    tie = RoundOutcome(((0,), (1,)), (5, 5), (), True, 0, (0, 0))
    assert TriominoesRoundScoring(blocked="lowest_collects").score(tie).points == (0, 0)


def test_triominoes_plays_to_400() -> None:
    """Triominoes: the match goes to 400 (``target``)."""
    assert TRIOMINOES.match.target == 400
    state = bendolib.new_game(TRIOMINOES.configure(target=60), 2, 2)
    while not state.is_game_over:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    assert max(state.scores) >= 60


@pytest.mark.parametrize("rules", [TRIANGLE_DOMINOES, TRIOMINOES], ids=lambda r: r.name)
def test_full_matches_play_through_the_public_api(rules: bendolib.RuleSet) -> None:
    for players in rules.player_counts:
        state = bendolib.new_game(rules, players, 100 + players)
        moves = 0
        while not state.is_game_over:
            legal = bendolib.legal_moves(state)
            state = bendolib.apply(state, legal[(moves * 5) % len(legal)])
            moves += 1
        assert state.winner is not None


def test_draw_and_pass_are_typed_moves() -> None:
    assert isinstance(DRAW, Draw) and isinstance(PASS, Pass)
    assert Tile(1, 2) != Triangle(1, 2, 3)


# -- issue 21 point 5: the published Triominoes rules where they are clear ----------------


def _zero_instead_deal() -> bendolib.GameState:
    """A fresh two-player Triominoes deal whose starter holds another triple and 0-0-0."""
    zero = TRIANGLES.parse_tile("0-0-0")
    for seed in range(3000):
        state = bendolib.new_game(TRIOMINOES, 2, seed)
        opening = TRIANGLES.tiles[state.opening]
        if opening != zero and zero in state.hands[state.current_player]:
            return state
    raise AssertionError("no deal found")  # pragma: no cover


def test_triominoes_the_highest_triple_may_open_with_0_0_0_instead() -> None:
    """Published Triominoes rules (issue 21 point 5a): the holder of the highest triple
    may open with 0-0-0 instead, scoring its 0 + 10 + 30 = 40; the other rule sets
    (and ``zero_instead=False``) list the highest triple alone."""
    state = _zero_instead_deal()
    highest = TRIANGLES.tiles[state.opening]
    legal = bendolib.legal_moves(state)
    assert [m.tile for m in legal if isinstance(m, PlaceInCell)] == [
        highest,
        TRIANGLES.parse_tile("0-0-0"),
    ]
    opened = bendolib.apply(state, legal[1])
    assert opened.scores[state.current_player] == 0 + 10 + 30
    plain = state.replace(rules=TRIOMINOES.configure(zero_instead=False))
    assert [m.tile for m in bendolib.legal_moves(plain) if isinstance(m, PlaceInCell)] == [highest]
    assert TRIANGLE_DOMINOES.start == HighestTriple(no_triple="highest_pair", zero_instead=False)


def test_triominoes_several_past_400_the_rounds_winner_wins() -> None:
    """Published Triominoes rules (issue 21 point 5b): when several players pass the
    target in one round, the game goes to that round's winner, not to the highest
    score; ``several="highest"`` (the former rule) gives it to the highest score."""
    assert TRIOMINOES.match.several == "round_winner"
    match = TRIOMINOES.match
    assert match.winner([410, 450], round_sides=(0,)) == 0
    assert match.winner([410, 450], round_sides=()) == 1
    assert match.winner([410, 350], round_sides=(1,)) == 0
    former = TRIOMINOES.configure(several="highest").match
    assert former.winner([410, 450], round_sides=(0,)) == 1
    # in play: short matches where both players pass the target in the last round
    rules = TRIOMINOES.configure(target=40)
    differs = 0
    for seed in range(40):
        state = bendolib.new_game(rules, 2, seed)
        while not state.is_game_over:
            state = bendolib.apply(state, bendolib.legal_moves(state)[0])
        result = state.last_result
        assert result is not None
        if min(state.scores) >= 40 and len(result.winners) == 1:
            assert state.winner == result.winners[0]
            differs += state.scores[result.winners[0]] < max(state.scores)
    assert differs  # some match went to the round's winner with the lower score


# -- issue 21 point 4: Triangle Dominoes, the other reading of seeds/004 -------------------


def test_seed004_collect_reading_keeps_drawing_until_a_tile_fits() -> None:
    """seeds/004 read as this game's (issue 21 point 4): "they keep "drawing" dominoes
    ... until they find one they can play"; the library's reading draws one."""
    from bendolib.rules.triangles import TRIANGLE_DOMINOES_COLLECT as COLLECT

    board = build([lay("5-5-5", U(0, 0))])
    stock = ["0-1-1", "0-1-2", "4-5-5"]
    state = position(COLLECT, board, [["0-0-0"], ["1-1-1"]], stock=stock)
    for _ in range(2):
        state = bendolib.apply(state, DRAW)
        assert state.current_player == 0  # nothing drawn fits yet: draw on
    state = bendolib.apply(state, DRAW)
    assert any(isinstance(m, PlaceInCell) for m in bendolib.legal_moves(state))
    assert TRIANGLE_DOMINOES.draw.when_stuck == "once"


def test_seed004_collect_reading_the_player_out_collects_the_others_dots() -> None:
    """seeds/004 read as this game's (issue 21 point 4): "Each player adds up the dots on
    all of their remaining dominoes. The player who used up all their dominoes collects
    those points"; "If the game ended "blocked" ..., the player with the fewest points
    remaining wins that round and collects the points (minus any points they have
    remaining.)"; "until any player reaches a predetermined score, for example, 100"."""
    from bendolib.rules.scoring import WinnerTakesPips
    from bendolib.rules.triangles import TRIANGLE_DOMINOES_COLLECT as COLLECT

    assert COLLECT.match.target == 100 and COLLECT.play_scoring is None
    assert (
        TRIANGLE_DOMINOES.configure(
            "triangle-dominoes/collect",
            when_stuck="until_fits",
            play_scoring=None,
            round_scoring=WinnerTakesPips(
                blocked_winner="lowest_seat", tie="nobody", minus_own=True
            ),
            target=100,
        )
        == COLLECT
    )
    out = RoundOutcome(((0,), (1,), (2,)), (0, 12, 20), (0,), False, 0, (0, 0, 0))
    assert COLLECT.round_scoring.score(out).points == (32, 0, 0)
    blocked = RoundOutcome(((0,), (1,), (2,)), (5, 12, 20), (), True, 0, (0, 0, 0))
    assert COLLECT.round_scoring.score(blocked).points == (12 + 20 - 5, 0, 0)
    # in play: no point while laying; the round's end awards the winner the others' dots
    state = bendolib.new_game(COLLECT, 3, 5)
    while not state.is_round_over:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
        assert state.play_points == (0, 0, 0)
    result = state.last_result
    assert result is not None and sum(result.points) == state.scores[result.winners[0]] > 0
