"""
bendolib: the rules of Bendominoes (curved dominoes) and classic domino games.

Immutable states, pure ``legal_moves`` / ``apply``, and pluggable rule sets::

    import bendolib
    state = bendolib.new_game(bendolib.rules.get("basic"), players=2, seed=7)
    while not state.is_game_over:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
"""

from bendolib import position_text, records, render_svg, rules, text
from bendolib.blocking import Block, EndStatus, classify_ends
from bendolib.engine import apply, legal_moves, new_game
from bendolib.errors import (
    ArgumentError,
    BendolibError,
    IllegalMoveError,
    ParseError,
    RecordError,
    RuleSetError,
    UnknownRuleSetError,
)
from bendolib.geometry import Board, End, Placement, Position
from bendolib.moves import DRAW, NEXT_ROUND, PASS, Draw, Move, NextRound, Pass, Place
from bendolib.notation import parse_move
from bendolib.observation import Observation
from bendolib.rules import RuleSet
from bendolib.sampling import sample_state
from bendolib.state import STATE_FIELDS, GameState, RoundContext, RoundResult, Turn
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, Tile, TileSet

__version__ = "0.1.0"

__all__ = [
    "DRAW",
    "LEFT",
    "NEXT_ROUND",
    "PASS",
    "RIGHT",
    "STATE_FIELDS",
    "STRAIGHT",
    "ArgumentError",
    "BendolibError",
    "Block",
    "Board",
    "Draw",
    "End",
    "EndStatus",
    "GameState",
    "IllegalMoveError",
    "Move",
    "NextRound",
    "Observation",
    "ParseError",
    "Pass",
    "Place",
    "Placement",
    "Position",
    "RecordError",
    "RoundContext",
    "RoundResult",
    "RuleSet",
    "RuleSetError",
    "Tile",
    "TileSet",
    "Turn",
    "UnknownRuleSetError",
    "__version__",
    "apply",
    "classify_ends",
    "legal_moves",
    "new_game",
    "parse_move",
    "position_text",
    "records",
    "render_svg",
    "rules",
    "sample_state",
    "text",
]
