"""
Fixed-size numeric encodings for learning code: observations and moves as integers.

:func:`encode` turns an :class:`~bendolib.observation.Observation` into a tuple of
ints whose length depends only on the rule set and the number of players
(:func:`encoding_size`); :func:`layout` names every field (docs/encoding.md lists
them).  Seats are relative to the observer: seat offset 0 is the observer, 1 the next
player in seat order, and so on.  :func:`action_index` numbers every move in a fixed
action space of :func:`action_count` actions; :func:`action_mask` marks the legal ones.
``numpy`` is optional: :func:`encode_array` returns an array when it is installed.

On the triangle geometry (tiles laid in the cells of an unbounded lattice) the open
ends are replaced by the tiles' cells and the free cells beside the layout (the
*sites*, in a canonical order: :func:`site_order`); a placement's action number names
its tile, its site's slot in that order and its rotation, so numbering a placement
needs the board it is laid on (``board=``).  :func:`layout_planes` draws such a
layout as planes of a 2-D grid that holds every layout the tile set can make.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from bendolib.geometry.board import Board
from bendolib.geometry.triangles import TriangleBoard, TriangleGeometry, TrianglePlacement
from bendolib.geometry.trilattice import Cell, cell_coords
from bendolib.moves import OPENING, Draw, Move, NextRound, Pass, Place, PlaceInCell
from bendolib.observation import Observation
from bendolib.rules.ruleset import RuleSet
from bendolib.state import Turn
from bendolib.tiles import LEFT, RIGHT

#: Move kinds in the ``last_move`` field.
NO_MOVE, PLACE, DRAW, PASS, NEXT = 0, 1, 2, 3, 4
#: The ways a triangle turns in its cell.
ROTATIONS = 3
#: Values at each cell of :func:`layout_planes`: filled, then the numbers at corners 0-2.
_CELL_PLANES = 4


@attrs.frozen
class Field:
    """One field of the encoding: ``name``, its ``offset`` and ``length``, and what it holds."""

    name: str
    offset: int
    length: int
    description: str


def on_cells(rules: RuleSet) -> bool:
    """True when ``rules`` lays tiles in the cells of a lattice (the triangle geometry)."""
    return isinstance(rules.geometry, TriangleGeometry)


def max_ends(rules: RuleSet) -> int:
    """The most open ends a board of ``rules`` can have: two per opening tile."""
    return 2 * max(1, rules.deal.table_tiles)


def max_sites(rules: RuleSet) -> int:
    """
    The most sites (free cells sharing an edge with the layout) a triangle layout of
    ``rules`` can have: ``k`` tiles joined edge to edge share at least ``k - 1`` edges,
    so at most ``3k - 2(k - 1) = k + 2`` edges are open; ``k`` is at most the set's size.
    """
    return len(rules.tileset) + 2


def site_order(board: Board) -> tuple[int, ...]:
    """
    The sites of a triangle layout (cell keys of the free cells with an open edge) in
    the canonical order of the encoding: by the cell's ``x``, then ``y``, up before
    down.  It depends only on where the tiles lie, not on the order they were laid.
    Empty for other boards.
    """
    return tuple(sorted(board.sites)) if isinstance(board, TriangleBoard) else ()


def _slots(board: Board | None) -> dict[int, int]:
    """The slot of each site of ``board`` (cell key to slot)."""
    if board is None:
        return {}
    return {site: k for k, site in enumerate(site_order(board))}


def layout(rules: RuleSet, players: int) -> tuple[Field, ...]:
    """The fields of the encoding for ``rules`` with ``players`` players, in order."""
    n = len(rules.tileset)
    table: list[tuple[str, int, str]]
    if on_cells(rules):
        table = [
            (
                "cells",
                4 * n,
                "for each tile i on the table: the x and y of its cell, 1 if the cell "
                "points down, the tile's rotation; all 0 for a tile not on the table",
            ),
            (
                "sites",
                7 * max_sites(rules),
                "for each site slot (site_order): present (0/1), the cell's x, y and "
                "down (0/1), the number each of its corners 0, 1, 2 must show (-1: any); "
                "absent slots are all 0",
            ),
        ]
    else:
        table = [
            (
                "ends",
                4 * max_ends(rules),
                "for each open-end slot: present (0/1), the value it shows, "
                "left turn free (0/1), right turn free (0/1); absent slots are all 0",
            )
        ]
    spec = [
        ("hand", n, "1 if the observer holds tile i (tile-set index order)"),
        ("drawn", n, "1 if the observer drew tile i during the current turn"),
        ("board", n, "1 if tile i is on the table"),
        (
            "possible",
            (players - 1) * n,
            "for each other seat (offsets 1..players-1), 1 if it may hold tile i "
            "(observation.deductions.possible); once the round is over, its shown hand",
        ),
        ("hand_sizes", players, "tiles in each hand, by seat offset"),
        ("stock_size", 1, "tiles left in the stock"),
        *table,
        ("current_player", 1, "seat offset of the player to move"),
        ("phase", 1, "0 playing, 1 round over, 2 match over"),
        ("opening", 1, "index of the tile the round must open with, or -1"),
        ("drawn_count", 1, "tiles the player to move has drawn this turn"),
        ("direction", 1, "1 for seat order, -1 when play runs backwards"),
        ("round_number", 1, "the round being played, from 1"),
        ("scores", players, "match score of each seat (its own points), by seat offset"),
        ("side_scores", players, "match score of each seat's side (team total), by seat offset"),
        ("play_points", players, "points each seat scored by play this round, by seat offset"),
        ("target", 1, "the match's target score"),
        (
            "last_move",
            3,
            "the round's latest move: seat offset (-1 if none), kind "
            "(0 none, 1 place, 2 draw, 3 pass), tile index placed (-1 otherwise)",
        ),
    ]
    fields = []
    offset = 0
    for name, length, description in spec:
        fields.append(Field(name, offset, length, description))
        offset += length
    return tuple(fields)


def encoding_size(rules: RuleSet, players: int) -> int:
    """Length of :func:`encode`'s output for ``rules`` and ``players``."""
    last = layout(rules, players)[-1]
    return last.offset + last.length


def _bits(mask: int, n: int) -> list[int]:
    return [mask >> i & 1 for i in range(n)]


def encode(observation: Observation) -> tuple[int, ...]:
    """The observation as a fixed-size tuple of ints (fields as in :func:`layout`)."""
    obs = observation
    rules = obs.rules
    n = len(rules.tileset)
    players = obs.players
    me = obs.player

    def rel(seq: Sequence[int]) -> list[int]:
        return [seq[(me + k) % players] for k in range(players)]

    out: list[int] = []
    out += _bits(obs.hand_mask, n)
    out += _bits(obs.drawn_mask, n)
    out += _bits(obs.placed_mask, n)
    possible = obs.deductions.possible
    for k in range(1, players):
        out += _bits(possible[(me + k) % players], n)
    out += rel(obs.hand_sizes)
    out.append(obs.stock_size)
    if on_cells(rules):
        out += _layout_fields(obs.board, rules)
    else:
        out += _end_fields(obs.board, rules)
    out.append((obs.current_player - me) % players)
    out.append(obs.phase)
    out.append(obs.opening)
    out.append(obs.drawn_count)
    out.append(obs.direction)
    out.append(obs.round_number)
    out += rel(obs.scores)
    sides = obs.sides
    side_scores = obs.side_scores
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    out += rel([side_scores[side_of[s]] for s in range(players)])
    out += rel(obs.play_points)
    out.append(rules.match.target)
    out += _last_move(obs)
    return tuple(out)


def _end_fields(board: Board, rules: RuleSet) -> list[int]:
    slots = max_ends(rules)
    ends = board.ends
    if len(ends) > slots:
        raise ValueError(f"{len(ends)} open ends do not fit the encoding's {slots} slots")
    out: list[int] = []
    for end in ends:
        out += [1, end.value, int(bool(end.free & LEFT)), int(bool(end.free & RIGHT))]
    return out + [0] * (4 * (slots - len(ends)))


def _layout_fields(board: Board, rules: RuleSet) -> list[int]:
    tileset = rules.tileset
    cells = [0] * (4 * len(tileset))
    for placed in board.placements:
        if isinstance(placed, TrianglePlacement):
            i = 4 * tileset.index(placed.tile)
            cell = placed.cell
            cells[i : i + 4] = [cell.x, cell.y, int(cell.down), placed.rotation]
    slots = max_sites(rules)
    sites: list[int] = []
    if isinstance(board, TriangleBoard):  # (an empty table is a plain Board)
        order = site_order(board)
        if len(order) > slots:  # pragma: no cover - max_sites bounds every layout
            raise ValueError(f"{len(order)} sites do not fit the encoding's {slots} slots")
        for key in order:
            x, y, down = cell_coords(key)
            sites += [1, x, y, int(down), *board.cell_numbers(key)]
    return cells + sites + [0] * (7 * slots - len(sites))


def _last_move(obs: Observation) -> list[int]:
    if not obs.history:
        return [-1, NO_MOVE, -1]
    turn = obs.history[-1]
    seat = (turn.player - obs.player) % obs.players
    move = turn.move
    if isinstance(move, (Place, PlaceInCell)):
        return [seat, PLACE, obs.rules.tileset.index(move.tile)]
    return [seat, DRAW if isinstance(move, Draw) else PASS, -1]


def encode_array(observation: Observation) -> Any:
    """:func:`encode` as a numpy int32 array (needs numpy)."""
    import numpy as np

    return np.asarray(encode(observation), dtype=np.int32)


# -- the layout as a 2-D grid ---------------------------------------------------------


def layout_window(rules: RuleSet) -> tuple[int, int]:
    """
    The lattice window of :func:`layout_planes` for a triangle rule set: ``(low,
    size)``, cells ``U(x, y)`` and ``D(x, y)`` with ``low <= x, y < low + size``.  The
    round opens in ``U(0, 0)`` and every tile is joined to it edge to edge, so a tile is
    at most ``n - 1`` edge crossings from it (``n`` tiles in the set); ``d`` crossings
    move ``x`` and ``y`` each within ``-ceil(d / 2) .. floor(d / 2)``: the window holds
    every layout the set can make.
    """
    n = len(rules.tileset)
    return -(n // 2), n


def planes_shape(rules: RuleSet) -> tuple[int, int, int]:
    """The shape of :func:`layout_planes` for ``rules``: (planes, rows, columns)."""
    size = layout_window(rules)[1]
    return 2 * _CELL_PLANES, size, size


def layout_planes(board: Board, rules: RuleSet) -> Any:
    """
    A triangle layout as a numpy int32 array of shape :func:`planes_shape` (needs
    numpy): row ``y - low``, column ``x - low`` (:func:`layout_window`); planes 0-3
    describe the up cells ``U(x, y)`` and planes 4-7 the down cells ``D(x, y)``: 1 if
    a tile lies there (else 0), then the numbers it shows at corners 0, 1, 2 (-1 on an
    empty cell).
    """
    import numpy as np

    if not on_cells(rules):
        raise ValueError(f"{rules.name} lays no tiles in cells: no planes to draw")
    low, size = layout_window(rules)
    planes = np.zeros(planes_shape(rules), dtype=np.int32)
    for k in range(2):
        planes[_CELL_PLANES * k + 1 : _CELL_PLANES * (k + 1)] = -1
    for placed in board.placements:
        if not isinstance(placed, TrianglePlacement):
            raise ValueError(f"not a triangle layout: {placed!r:.60}")
        cell = placed.cell
        row, column = cell.y - low, cell.x - low
        if not (0 <= row < size and 0 <= column < size):  # pragma: no cover - see layout_window
            raise ValueError(f"cell {cell} is outside the window of {rules.name}")
        base = _CELL_PLANES * int(cell.down)
        planes[base, row, column] = 1
        planes[base + 1 : base + _CELL_PLANES, row, column] = placed.corners
    return planes


# -- actions -------------------------------------------------------------------------


def _dimensions(rules: RuleSet) -> tuple[int, int, int, int]:
    """Tiles, end (or site) slots, named values and turns (or rotations) of the placements."""
    if on_cells(rules):
        return len(rules.tileset), max_sites(rules), 1, ROTATIONS
    values = rules.tileset.top + 1 if rules.wild_faces else 1
    turns = 2 if rules.geometry.uses_bends else 1
    return len(rules.tileset), max_ends(rules), values, turns


def _placements(rules: RuleSet) -> int:
    tiles, slots, values, turns = _dimensions(rules)
    return tiles * slots * (1 if on_cells(rules) else 2) * values * turns


def action_count(rules: RuleSet) -> int:
    """Size of the fixed action space of ``rules``."""
    return len(rules.tileset) + _placements(rules) + 3


def action_index(move: Move, rules: RuleSet, board: Board | None = None) -> int:
    """
    The action number of ``move``: openings first (one per tile), then placements, then
    draw, pass and next round.  A chain placement is numbered by (tile, end, inward
    side, named value, turn); a placement in a cell by (tile, site slot, rotation), the
    slot of its cell in :func:`site_order` of ``board``, the board it is laid on
    (required for those).
    """
    return _index(move, rules, board, None)


def _index(move: Move, rules: RuleSet, board: Board | None, slots: dict[int, int] | None) -> int:
    """:func:`action_index`, with the slots of ``board``'s sites when already known."""
    tiles, ends, values, turns = _dimensions(rules)
    placements = _placements(rules)
    if isinstance(move, Draw):
        return tiles + placements
    if isinstance(move, Pass):
        return tiles + placements + 1
    if isinstance(move, NextRound):
        return tiles + placements + 2
    if isinstance(move, PlaceInCell) and on_cells(rules):
        return _cell_index(move, rules, board, slots)
    if not isinstance(move, Place) or on_cells(rules):
        raise ValueError(f"{move} has no action in the encoding of {rules.name}")
    tile = rules.tileset.index(move.tile)
    if move.end == OPENING:
        return tile
    if not 0 <= move.end < ends:
        raise ValueError(f"end {move.end} is outside the action space's {ends} end slots")
    side = 0 if move.inward == move.tile.a else 1
    outward = move.tile.other(move.inward) if not move.tile.is_double else move.inward
    named = move.shows if outward in rules.wild_faces else 0
    turn = 1 if (turns == 2 and move.turn == RIGHT) else 0
    index = (((tile * ends + move.end) * 2 + side) * values + named) * turns + turn
    return tiles + index


def _cell_index(
    move: PlaceInCell, rules: RuleSet, board: Board | None, slots: dict[int, int] | None
) -> int:
    if board is None:
        raise ValueError(f"numbering {move} needs the board it is laid on (board=...)")
    tile = rules.tileset.index(move.tile)
    if not board.placements:
        return tile  # the opening: one per tile, in the first cell
    slot = (slots if slots is not None else _slots(board)).get(move.cell.key)
    if slot is None:
        raise ValueError(f"cell {move.cell} of {move} is not a free cell beside the layout")
    if not 0 <= move.rotation < ROTATIONS:
        raise ValueError(f"rotation {move.rotation} of {move} is not 0, 1 or 2")
    return len(rules.tileset) + (tile * max_sites(rules) + slot) * ROTATIONS + move.rotation


def action_mask(
    legal_moves: Sequence[Move], rules: RuleSet, board: Board | None = None
) -> tuple[int, ...]:
    """
    1 for the action number of each legal move, 0 elsewhere (``board`` as in
    :func:`action_index`).
    """
    mask = [0] * action_count(rules)
    slots = _slots(board)  # sorted once for all the moves
    for move in legal_moves:
        mask[_index(move, rules, board, slots)] = 1
    return tuple(mask)


def move_of(
    index: int, legal_moves: Sequence[Move], rules: RuleSet, board: Board | None = None
) -> Move:
    """
    The legal move numbered ``index`` (ValueError if none is; ``board`` as in
    :func:`action_index`).
    """
    slots = _slots(board)
    for move in legal_moves:
        if _index(move, rules, board, slots) == index:
            return move
    raise ValueError(f"action {index} is not legal here")


def history_actions(rules: RuleSet, history: Sequence[Turn]) -> tuple[int, ...]:
    """
    The action numbers of a round's moves (``history``, from the deal on), each
    numbered on the board it was laid on (the layout is replayed for cell geometries).
    """
    if not on_cells(rules):
        return tuple(action_index(turn.move, rules) for turn in history)
    geometry = rules.geometry
    board: Board = TriangleBoard()
    out = []
    for turn in history:
        move = turn.move
        out.append(action_index(move, rules, board))
        if isinstance(move, PlaceInCell):
            board = geometry.play(board, move)
    return tuple(out)


def describe_action(index: int, rules: RuleSet, board: Board | None = None) -> str:
    """
    A readable name of action ``index`` that does not depend on the state (a double's
    "face b" placements are never legal: its inward face is always ``a``); on a cell
    geometry, ``board`` adds the cell of the action's site slot when there is one.
    """
    tiles, ends, values, turns = _dimensions(rules)
    placements = _placements(rules)
    if not 0 <= index < action_count(rules):
        raise ValueError(f"action {index} is outside 0..{action_count(rules) - 1}")
    if index >= tiles + placements:
        return ("draw", "pass", "next")[index - tiles - placements]
    if index < tiles:
        return f"open {rules.tileset.tiles[index]}"
    rest = index - tiles
    if on_cells(rules):
        rotation, rest = rest % ROTATIONS, rest // ROTATIONS
        slot, tile_index = rest % ends, rest // ends
        text = f"{rules.tileset.tiles[tile_index]} turned {rotation} at site {slot}"
        order = site_order(board) if board is not None else ()
        if slot < len(order):
            text += f" (cell {Cell.from_key(order[slot])})"
        return text
    turn, rest = rest % turns, rest // turns
    named, rest = rest % values, rest // values
    side, rest = rest % 2, rest // 2
    end, tile_index = rest % ends, rest // ends
    tile = rules.tileset.tiles[tile_index]
    inward = tile.a if side == 0 else tile.b
    text = f"{tile} at end {end} inward {inward} (face {'ab'[side]})"
    if rules.wild_faces:
        text += f" named {named}"
    if turns == 2:
        text += " turning " + ("right" if turn else "left")
    return text
