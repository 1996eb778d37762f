"""
Fixed-size numeric encodings for learning code: observations and moves as integers.

:func:`encode` turns an :class:`~bendolib.observation.Observation` into a tuple of
ints whose length depends only on the rule set and the number of players
(:func:`encoding_size`); :func:`layout` names every field (docs/encoding.md lists
them).  Seats are relative to the observer: seat offset 0 is the observer, 1 the next
player in seat order, and so on.  :func:`action_index` numbers every move in a fixed
action space of :func:`action_count` actions; :func:`action_mask` marks the legal ones.
``numpy`` is optional: :func:`encode_array` returns an array when it is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from bendolib.moves import OPENING, Draw, Move, NextRound, Pass, Place
from bendolib.observation import Observation
from bendolib.rules.ruleset import RuleSet
from bendolib.tiles import LEFT, RIGHT

#: Move kinds in the ``last_move`` field.
NO_MOVE, PLACE, DRAW, PASS, NEXT = 0, 1, 2, 3, 4


@attrs.frozen
class Field:
    """One field of the encoding: ``name``, its ``offset`` and ``length``, and what it holds."""

    name: str
    offset: int
    length: int
    description: str


def max_ends(rules: RuleSet) -> int:
    """The most open ends a board of ``rules`` can have: two per opening tile."""
    return 2 * max(1, rules.deal.table_tiles)


def layout(rules: RuleSet, players: int) -> tuple[Field, ...]:
    """The fields of the encoding for ``rules`` with ``players`` players, in order."""
    n = len(rules.tileset)
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
        (
            "ends",
            4 * max_ends(rules),
            "for each open-end slot: present (0/1), the value it shows, "
            "left turn free (0/1), right turn free (0/1); absent slots are all 0",
        ),
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
    slots = max_ends(rules)
    ends = obs.board.ends
    if len(ends) > slots:
        raise ValueError(f"{len(ends)} open ends do not fit the encoding's {slots} slots")
    for end in ends:
        out += [1, end.value, int(bool(end.free & LEFT)), int(bool(end.free & RIGHT))]
    out += [0] * (4 * (slots - len(ends)))
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


def _last_move(obs: Observation) -> list[int]:
    if not obs.history:
        return [-1, NO_MOVE, -1]
    turn = obs.history[-1]
    seat = (turn.player - obs.player) % obs.players
    move = turn.move
    if isinstance(move, Place):
        return [seat, PLACE, obs.rules.tileset.index(move.tile)]
    return [seat, DRAW if isinstance(move, Draw) else PASS, -1]


def encode_array(observation: Observation) -> Any:
    """:func:`encode` as a numpy int32 array (needs numpy)."""
    import numpy as np

    return np.asarray(encode(observation), dtype=np.int32)


# -- actions -------------------------------------------------------------------------


def _dimensions(rules: RuleSet) -> tuple[int, int, int, int]:
    """Tiles, end slots, named values and turns of the placement block."""
    values = rules.tileset.top + 1 if rules.wild_faces else 1
    turns = 2 if rules.geometry.uses_bends else 1
    return len(rules.tileset), max_ends(rules), values, turns


def action_count(rules: RuleSet) -> int:
    """Size of the fixed action space of ``rules``."""
    tiles, ends, values, turns = _dimensions(rules)
    return tiles + tiles * ends * 2 * values * turns + 3


def action_index(move: Move, rules: RuleSet) -> int:
    """
    The action number of ``move``: openings first (one per tile), then placements by
    (tile, end, inward side, named value, turn), then draw, pass and next round.
    """
    tiles, ends, values, turns = _dimensions(rules)
    placements = tiles * ends * 2 * values * turns
    if isinstance(move, Draw):
        return tiles + placements
    if isinstance(move, Pass):
        return tiles + placements + 1
    if isinstance(move, NextRound):
        return tiles + placements + 2
    if not isinstance(move, Place):
        raise ValueError(f"{move} has no action in this encoding (a placement in a cell)")
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


def action_mask(legal_moves: Sequence[Move], rules: RuleSet) -> tuple[int, ...]:
    """1 for the action number of each legal move, 0 elsewhere."""
    mask = [0] * action_count(rules)
    for move in legal_moves:
        mask[action_index(move, rules)] = 1
    return tuple(mask)


def move_of(index: int, legal_moves: Sequence[Move], rules: RuleSet) -> Move:
    """The legal move numbered ``index`` (ValueError if none is)."""
    for move in legal_moves:
        if action_index(move, rules) == index:
            return move
    raise ValueError(f"action {index} is not legal here")


def describe_action(index: int, rules: RuleSet) -> str:
    """
    A readable name of action ``index`` that does not depend on the state (a double's
    "face b" placements are never legal: its inward face is always ``a``).
    """
    tiles, ends, values, turns = _dimensions(rules)
    placements = tiles * ends * 2 * values * turns
    if not 0 <= index < action_count(rules):
        raise ValueError(f"action {index} is outside 0..{action_count(rules) - 1}")
    if index >= tiles + placements:
        return ("draw", "pass", "next")[index - tiles - placements]
    if index < tiles:
        return f"open {rules.tileset.tiles[index]}"
    rest = index - tiles
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
