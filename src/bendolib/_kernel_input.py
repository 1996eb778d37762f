"""
What the compiled kernel reads: a RuleSet as a flat *spec* tuple, a GameState as a flat
*state* tuple, and the reason a rule set is left to the Python engine.

The kernel knows the built-in parts exactly: the tile sets of at most 1,024 tiles (at
most 64 in ``bendolib._kernel``, 65 to 128 in its wide build ``bendolib._kernel_wide``,
129 to 256 in ``bendolib._kernel_huge``, 257 to 1,024 in ``bendolib._kernel_vast``),
faces -8 to 55, the straight line and the bend lattice, the
built-in policies (by their class, not a subclass, and by their fields: a policy that
gained a parameter is played by the Python engine until the kernel learns it) and at
most 8 players.

The rule options of issue 13 (``RuleSet.closing``, ``DrawPolicy.after_voluntary`` and
``when_blocked``, ``Match.target_check``, ``FinishingOrder.rounding``,
``HighestDouble.split``) are read when the rule set has them; a rule set without them
plays the behaviour they were introduced to change.
"""

from __future__ import annotations

from typing import Any

import attrs

from bendolib._kernel_abi import (
    DEAL_FIELDS,
    DRAW_FIELDS,
    FINISHING_ORDER_FIELDS,
    FIXED_SEAT_FIELDS,
    GEOMETRY_FIELDS,
    HIGHEST_PLAY_SCORE_FIELDS,
    MATCH_FIELDS,
    MAX_TILES_VAST,
    RULESET_FIELDS,
    WINNER_TAKES_PIPS_FIELDS,
)
from bendolib._kernel_abi import MAX_PLAYERS as MAX_PLAYERS
from bendolib._kernel_abi import MAX_TILES as MAX_TILES
from bendolib._kernel_abi import NotForKernelError as NotForKernelError
from bendolib._kernel_tri_input import tri_spec_tuple, tri_state_tuple
from bendolib.geometry.bend import BendGeometry
from bendolib.geometry.straight import StraightGeometry
from bendolib.geometry.triangles import TriangleGeometry
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.effects import FaceEffects, NextDraws, Reverse
from bendolib.rules.match import Match
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import (
    EndsMultiple,
    FinishingOrder,
    HighestPlayScore,
    WinnerTakesPips,
)
from bendolib.rules.starting import FixedSeat, HighestDouble, HolderOf
from bendolib.state import GameState

_MASK = (1 << 64) - 1

#: The fields of each part the kernel plays, by class (anything else: the Python engine).
KNOWN_FIELDS: dict[type, frozenset[str]] = {
    RuleSet: RULESET_FIELDS,
    StraightGeometry: GEOMETRY_FIELDS,
    BendGeometry: GEOMETRY_FIELDS,
    Deal: DEAL_FIELDS,
    DrawPolicy: DRAW_FIELDS,
    Match: MATCH_FIELDS,
    HighestDouble: frozenset({"no_double", "opens", "split"}),
    HolderOf: frozenset({"a", "b", "fallback"}),
    FixedSeat: FIXED_SEAT_FIELDS,
    WinnerTakesPips: WINNER_TAKES_PIPS_FIELDS,
    FinishingOrder: FINISHING_ORDER_FIELDS,
    HighestPlayScore: HIGHEST_PLAY_SCORE_FIELDS,
    EndsMultiple: frozenset({"multiple"}),
    FaceEffects: frozenset({"by_face"}),
    Reverse: frozenset(),
    NextDraws: frozenset({"count"}),
}


def _known(part: Any, what: str) -> None:
    """Raise NotForKernelError unless ``part`` is a built-in class with fields the kernel knows."""
    fields = KNOWN_FIELDS.get(type(part))
    if fields is None:
        raise NotForKernelError(f"{what} is a {type(part).__name__}")
    unknown = _fields(part) - fields
    if unknown:
        raise NotForKernelError(f"{what} has parameters {sorted(unknown)} the kernel lacks")


def _fields(part: Any) -> frozenset[str]:
    return frozenset(f.name for f in attrs.fields(type(part)))


def _plays(part: Any, cls: type) -> bool:
    return type(part) is cls and _fields(part) <= KNOWN_FIELDS[cls]


#: HighestDouble.split: 0 before the option existed (the first holder of the tile).
_SPLIT = {None: 0, "redeal": 1, "lowest_seat": 2}


def _highest_double(policy: HighestDouble) -> tuple[int, int, int]:
    """(redeal, opens, split) of a HighestDouble policy."""
    split = _SPLIT[getattr(policy, "split", None)]
    return int(policy.no_double == "redeal"), int(policy.opens), split


def _start(start: Any, tileset: Any) -> tuple[int, int, int, int, int, int]:
    """(kind, tile, redeal, opens, seat, split) of a start policy; kind 0 when unknown."""
    if _plays(start, FixedSeat):
        return (3, -1, 0, 0, start.seat, 0)
    if _plays(start, HolderOf) and _plays(start.fallback, HighestDouble):
        redeal, opens, split = _highest_double(start.fallback)
        return (2, tileset.find(start.a, start.b), redeal, opens, 0, split)
    if _plays(start, HighestDouble):
        redeal, opens, split = _highest_double(start)
        return (1, -1, redeal, opens, 0, split)
    return (0, -1, 0, 0, 0, 0)


def _scoring(scoring: Any, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kernel's round-scoring tuple and the place points (FinishingOrder)."""
    _known(scoring, "the round scoring")
    if type(scoring) is WinnerTakesPips:
        win = -1 if scoring.win_points is None else scoring.win_points
        return (
            1,
            int(scoring.blocked_winner == "lowest_side"),
            int(scoring.tie == "locker_loses"),
            int(scoring.minus_own),
            int(scoring.out_wins),
            int(scoring.takes == "all"),
            win,
        ), ()
    if type(scoring) is FinishingOrder:
        up = getattr(scoring, "rounding", "down") == "up"
        return (2, 0, 0, 0, 0, 0, -1), (
            int(scoring.tie == "share"),
            int(up),
            *scoring.points_for(players),
        )
    if type(scoring) is HighestPlayScore:
        return (3, 0, 0, 0, 0, 0, -1), ()
    raise NotForKernelError(f"the round scoring is a {type(scoring).__name__}")  # pragma: no cover


def _effects(effects: Any) -> tuple[tuple[int, int, int], ...]:
    if effects is None:
        return ()
    _known(effects, "the effects")
    out = []
    for face, effect in effects.by_face:
        _known(effect, f"the effect of face {face}")
        if type(effect) is Reverse:
            out.append((face, 1, 0))
        else:
            out.append((face, 2, effect.count))
    return tuple(out)


def spec_tuple(rules: RuleSet, players: int) -> tuple[Any, ...]:
    """The kernel's description of ``rules`` for ``players`` (raises NotForKernelError)."""
    if type(rules.geometry) is TriangleGeometry:  # the triangle games: _kernel.d/tri.c
        return tri_spec_tuple(rules, players)
    _known(rules, "the rule set")
    _known(rules.geometry, "the geometry")
    if rules.penalties is not None:
        raise NotForKernelError("the kernel has no draw or pass penalties")
    for part, what in (
        (rules.deal, "the deal"),
        (rules.draw, "the draw"),
        (rules.match, "the match"),
    ):
        _known(part, what)
    tileset = rules.tileset
    if len(tileset) > MAX_TILES_VAST:  # (more than MAX_TILES: the wide, huge or vast build)
        raise NotForKernelError(
            f"{tileset.name} has {len(tileset)} tiles (the kernel: at most {MAX_TILES_VAST})"
        )
    if not 1 <= players <= MAX_PLAYERS:
        raise NotForKernelError(f"{players} players (the kernel: 1 to {MAX_PLAYERS})")
    faces = {face for t in tileset.tiles for face in (t.a, t.b)} | set(rules.wild_faces)
    if min(faces) < -8 or max(faces) > 55 or tileset.top > 55:
        raise NotForKernelError("faces beyond -8..55")
    turns = tileset.turn_table
    tiles = tuple(
        (t.a, t.b, tileset.points(i), turns[2 * i], turns[2 * i + 1])
        for i, t in enumerate(tileset.tiles)
    )
    bends = rules.geometry.uses_bends
    draw = rules.draw
    when = {"never": 0, "once": 1, "until_fits": 2}[draw.when_stuck]
    scoring, places = _scoring(rules.round_scoring, players)
    play = rules.play_scoring
    multiple = 0
    if play is not None:
        _known(play, "the play scoring")
        assert isinstance(play, EndsMultiple)
        multiple = play.multiple
    try:
        hand_size = rules.deal.hand_size(players)
    except Exception:
        hand_size = 0
    return (
        (players, tileset.top, int(bends), int(rules.finish == "last_one_left")),
        tiles,
        tuple(sorted(rules.wild_faces)),
        _start(rules.start, tileset),
        (when, int(draw.voluntary), int(draw.must_play), draw.batch, draw.max_per_turn or 0),
        scoring,
        places,
        rules.match.sides(players),
        (rules.match.target, multiple),
        _effects(rules.effects),
        (
            int(bends and getattr(rules, "even_closing", False)),
            int(getattr(draw, "when_blocked", "as_stuck") == "one_each"),
            int(draw.voluntary and getattr(draw, "after_voluntary", "play") == "pass"),
            int(getattr(rules.match, "target_check", "round_end") == "at_once"),
            int(getattr(rules.match, "several", "highest") == "round_winner"),
        ),
        (hand_size, rules.deal.table_tiles),
    )


#: Boards already translated, by id (the value holds the board, so its id stays unique).
_BOARDS: dict[int, tuple[Any, int, tuple[tuple[int, int, int, int], ...], bytes]] = {}


def state_tuple(state: GameState) -> tuple[Any, ...]:
    """The kernel's description of ``state``."""
    context = state.context
    board = state.board
    if type(context.rules.geometry) is TriangleGeometry:  # the triangle games: _kernel.d/tri.c
        return tri_state_tuple(state)
    known = _BOARDS.get(id(board))
    if known is None or known[0] is not board:
        occupancy = board.occupancy
        known = (
            board,
            len(board.placements),
            tuple((e.value, e.free, e.cell, e.side) for e in board.ends),
            occupancy.to_bytes((occupancy.bit_length() + 7) // 8, "little"),
        )
        if len(_BOARDS) >= 4096:
            _BOARDS.clear()
        _BOARDS[id(board)] = known
    results = context.results
    last = results[-1] if results else None
    return (
        context.players,
        context.seed & _MASK,
        context.round_number,
        context.deck,
        state.stock_pos,
        state.hand_masks,
        state.current_player,
        context.scores,
        context.opening,
        state.drawn,
        state.drawn_count,
        context.direction,
        context.out,
        context.play_points,
        context.phase,
        state.last_placer,
        context.match_winner,
        known[1],
        known[2],
        known[3],
        None
        if last is None
        else (last.blocked, last.order, last.hand_points, last.points, last.winners),
    )
