"""Hand-built positions for rule tests: hands, stock and a board chosen tile by tile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import bendolib
from bendolib import GameState, Place, RuleSet
from bendolib.geometry.board import Board
from bendolib.geometry.chain import as_chain
from bendolib.tiles import Tile, TileSet

#: A placement step: (end, tile text, inward face, turn); end -1 opens the board.
Step = tuple[int, str, int, int]


def tile(tileset: TileSet, text: str) -> Tile:
    """The tile written ``text`` (``"6-1"``)."""
    return tileset.parse_tile(text)


def mask(tileset: TileSet, texts: Sequence[str]) -> int:
    """The bitmask of some tiles written as text."""
    return tileset.mask_of(tile(tileset, t) for t in texts)


def build_board(rules: RuleSet, steps: Sequence[Step]) -> Board:
    """A board built by laying tiles one by one with the rule set's geometry."""
    board: Board | None = None
    for end, text, inward, turn in steps:
        t = tile(rules.tileset, text)
        if board is None:
            board = rules.geometry.open([(t, inward)])
        else:
            board = as_chain(rules.geometry).place(board, end, t, inward, t.other(inward), turn)
    return board if board is not None else Board()


def position(
    rules: RuleSet,
    hands: Sequence[Sequence[str]],
    stock: Sequence[str] = (),
    steps: Sequence[Step] = (),
    current: int = 0,
    **fields: Any,
) -> GameState:
    """A state with these hands, stock (in drawing order) and board, ``current`` to move."""
    ts = rules.tileset
    board = build_board(rules, steps)
    on_board = [ts.index(p.tile) for p in board.placements]
    in_hands = [ts.index(tile(ts, t)) for hand in hands for t in hand]
    in_stock = [ts.index(tile(ts, t)) for t in stock]
    used = on_board + in_hands + in_stock
    assert len(set(used)) == len(used), "a tile is used twice"
    # tiles not mentioned are set aside before the stock (out of play in this position)
    aside = [i for i in range(len(ts)) if i not in used]
    deck = tuple(on_board + aside + in_hands + in_stock)
    players = len(hands)
    state = GameState.create(
        rules=rules,
        players=players,
        seed=0,
        round_number=1,
        deck=deck,
        stock_pos=len(deck) - len(in_stock),
        hand_masks=tuple(mask(ts, hand) for hand in hands),
        board=board,
        current_player=current,
        scores=(0,) * players,
        play_points=(0,) * players,
    )
    return state.replace(**fields) if fields else state


def places(state: GameState) -> list[Place]:
    """The legal placements of ``state`` (no draw, pass or next)."""
    return [m for m in bendolib.legal_moves(state) if isinstance(m, Place)]


def play_tile(state: GameState, text: str, shows: int | None = None) -> GameState:
    """Apply the first legal placement of the tile written ``text`` (showing ``shows``)."""
    wanted = tile(state.rules.tileset, text)
    move = next(
        m for m in places(state) if m.tile == wanted and (shows is None or m.shows == shows)
    )
    return bendolib.apply(state, move)


#: issue 21 point 2: in this All Five position end 3 (showing 2) leads into the cell
#: that ends 1 (showing 2) and 2 (showing 0) lead into: a tile from end 3 turning LEFT
#: closes onto end 1, turning RIGHT onto end 2.
ALL_FIVE_TWO_WAY = (
    "all-five players=4 turn=3 scores=79,60,152,67 "
    "hands=1-6R,4-4/1-1,1-3L/4-6L,5-6L/2-2,2-6L stock=0-1L,0-4L,6-6,1-5L,2-4L,3-4L "
    "board=2-5*,0-3*,3-6@3R,6-0@3L,0-5@3R,2-0@0R,5-5@1L,5-4@1R,4-1@1L,0-0@2R,1-2@1L,"
    "5-3@3R,3-3@3L,3-2@3R"
)
