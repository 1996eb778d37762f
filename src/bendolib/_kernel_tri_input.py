"""
What the compiled kernel reads for the triangle games (``src/bendolib/_kernel.d/tri.c``):
a triangle RuleSet as a flat *spec* tuple (tagged ``"triangles"``) and a GameState on a
triangle board as a flat *state* tuple.

The kernel knows the triangle parts exactly, by class and by fields: a rule set whose
part is another class, or a class that gained a parameter the kernel does not know, is
played by the Python engine (:class:`~bendolib._kernel_abi.NotForKernelError` says
why).  Tile sets of at most 256 triangles (64 in ``bendolib._kernel``, 65 to 128 in
``bendolib._kernel_wide``, 129 to 256 in ``bendolib._kernel_huge``, which has the
triangle games' playouts only, not their step API) with numbers 0 to 14, at most 8
players.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    MAX_PLAYERS,
    MAX_TILES_HUGE,
    RULESET_FIELDS,
    WINNER_TAKES_PIPS_FIELDS,
    NotForKernelError,
)
from bendolib.geometry.triangles import TriangleBoard, TriangleGeometry, TrianglePlacement
from bendolib.geometry.trilattice import cell_coords
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.match import Match
from bendolib.rules.penalties import DrawPenalties
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import FinishingOrder, HighestPlayScore, WinnerTakesPips
from bendolib.rules.starting import FixedSeat
from bendolib.rules.triangles import (
    HighestTriple,
    MostPlayPoints,
    TriangleScoring,
    TriominoesRoundScoring,
)
from bendolib.state import GameState
from bendolib.tiles import Triangle

_MASK = (1 << 64) - 1
#: The highest number a triangle may show in the kernel (a pattern packs 4 bits a corner).
MAX_FACE = 14

#: The fields of each part the kernel plays, by class (anything else: the Python engine).
KNOWN_FIELDS: dict[type, frozenset[str]] = {
    RuleSet: RULESET_FIELDS,
    TriangleGeometry: GEOMETRY_FIELDS,
    Deal: DEAL_FIELDS,
    DrawPolicy: DRAW_FIELDS,
    # (``several`` and ``zero_instead``: issue 21's options, read when the class has them)
    Match: MATCH_FIELDS,
    HighestTriple: frozenset({"no_triple", "opens", "zero_instead"}),
    FixedSeat: FIXED_SEAT_FIELDS,
    TriangleScoring: frozenset(
        {"opening_bonus", "zero_triple_bonus", "bridge_bonus", "hexagon_bonus"}
    ),
    MostPlayPoints: frozenset(),
    TriominoesRoundScoring: frozenset({"out_bonus", "blocked"}),
    DrawPenalties: frozenset({"per_draw", "pass_after_draws", "pass_when_empty"}),
    # the chain games' round scorings, played by the chain kernel's score_round
    WinnerTakesPips: WINNER_TAKES_PIPS_FIELDS,
    FinishingOrder: FINISHING_ORDER_FIELDS,
    HighestPlayScore: HIGHEST_PLAY_SCORE_FIELDS,
}


def _known(part: Any, what: str) -> None:
    """Raise NotForKernelError unless ``part`` is a class the kernel knows, every field too."""
    fields = KNOWN_FIELDS.get(type(part))
    if fields is None:
        raise NotForKernelError(f"{what} is a {type(part).__name__}")
    unknown = frozenset(f.name for f in attrs.fields(type(part))) - fields
    if unknown:
        raise NotForKernelError(f"{what} has parameters {sorted(unknown)} the kernel lacks")


def _code(value: object, codes: Mapping[Any, int], what: str) -> int:
    """
    The kernel's code of an option's value; NotForKernelError for a value it does not
    know (an option that gained a value is never played as another).
    """
    if type(value) not in (str, bool, type(None)) or value not in codes:
        raise NotForKernelError(f"{what}={str(value)[:40]!r}, which the kernel does not play")
    return codes[value]


_BOOL = {False: 0, True: 1}


def _int(value: object, what: str, low: int = 0) -> int:
    """A plain int parameter of at least ``low`` (NotForKernelError otherwise)."""
    if type(value) is not int or not low <= value < 1 << 31:
        raise NotForKernelError(f"{what}={str(value)[:40]!r}, which the kernel does not play")
    return value


def is_triangle_rules(rules: RuleSet) -> bool:
    """True when ``rules`` lays triangles on the built-in triangle geometry."""
    return type(rules.geometry) is TriangleGeometry


def _sum_rank(faces: tuple[int, ...]) -> tuple[int, ...]:
    return (sum(faces), *sorted(faces, reverse=True))


def _pair_rank(faces: tuple[int, ...]) -> tuple[int, ...] | None:
    pairs = [f for f in set(faces) if faces.count(f) == 2]
    return (pairs[0], sum(faces) - 2 * pairs[0]) if pairs else None


def _order(
    faces: list[tuple[int, ...]], rank: Callable[[tuple[int, ...]], tuple[int, ...] | None]
) -> tuple[int, ...]:
    """Tile indices by rank, highest first (equal ranks: the lower index first), unranked out."""
    ranked = [(r, i) for i, f in enumerate(faces) if (r := rank(f)) is not None]
    ranked.sort(key=lambda item: (tuple(-x for x in item[0]), item[1]))
    return tuple(i for _, i in ranked)


def _start(start: Any, faces: list[tuple[int, ...]]) -> tuple[Any, ...]:
    """
    (kind, opens, seat, redeal, triples, fallback, zero_instead): kind 1 HighestTriple,
    2 FixedSeat.
    """
    _known(start, "the start")
    if type(start) is FixedSeat:
        return (2, 0, _int(start.seat, "seat"), 0, (), (), 0)
    assert isinstance(start, HighestTriple)
    triples = _order(faces, lambda f: _sum_rank(f) if len(set(f)) == 1 else None)
    fallback: tuple[int, ...] = ()
    no_triple = _code(
        start.no_triple, {"highest_pair": 0, "highest_sum": 1, "redeal": 2}, "no_triple"
    )
    if no_triple == 0:
        fallback = _order(faces, _pair_rank) + _order(faces, _sum_rank)
    elif no_triple == 1:
        fallback = _order(faces, _sum_rank)
    opens = _code(start.opens, _BOOL, "opens")
    zero = _code(getattr(start, "zero_instead", False), _BOOL, "zero_instead")
    return (1, opens, 0, int(no_triple == 2), triples, fallback, zero)


def _chain_scoring(scoring: Any, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """
    A chain game's round scoring as the chain kernel's score_round reads it (the
    scoring tuple and the place points, as ``_kernel_input`` makes them, every value
    coded explicitly).
    """
    if type(scoring) is WinnerTakesPips:
        win = scoring.win_points
        return (
            1,
            _code(scoring.blocked_winner, {"lowest_seat": 0, "lowest_side": 1}, "blocked_winner"),
            _code(scoring.tie, {"nobody": 0, "locker_loses": 1}, "tie"),
            _code(scoring.minus_own, _BOOL, "minus_own"),
            _code(scoring.out_wins, _BOOL, "out_wins"),
            _code(scoring.takes, {"opponents": 0, "all": 1}, "takes"),
            -1 if win is None else _int(win, "win_points"),
        ), ()
    if type(scoring) is FinishingOrder:
        points = tuple(_int(p, "place points", -(1 << 30)) for p in scoring.points_for(players))
        return (2, 0, 0, 0, 0, 0, -1), (
            _code(scoring.tie, {"seat": 0, "share": 1}, "tie"),
            _code(getattr(scoring, "rounding", "down"), {"down": 0, "up": 1}, "rounding"),
            *points,
        )
    assert type(scoring) is HighestPlayScore
    _code(scoring.tie, {"nobody": 0}, "tie")
    return (3, 0, 0, 0, 0, 0, -1), ()


def tri_spec_tuple(rules: RuleSet, players: int) -> tuple[Any, ...]:
    """The kernel's description of a triangle ``rules`` for ``players`` (NotForKernelError)."""
    _known(rules, "the rule set")
    _known(rules.geometry, "the geometry")
    for part, what in (
        (rules.deal, "the deal"),
        (rules.draw, "the draw"),
        (rules.match, "the match"),
        (rules.round_scoring, "the round scoring"),
    ):
        _known(part, what)
    if rules.effects is not None:
        raise NotForKernelError("the kernel has no effects on triangles")
    if rules.wild_faces:
        raise NotForKernelError("no face is wild on triangles")
    tileset = rules.tileset
    if len(tileset) > MAX_TILES_HUGE:  # (more than MAX_TILES: the wide or huge build)
        raise NotForKernelError(
            f"{tileset.name} has {len(tileset)} tiles (the kernel: at most {MAX_TILES_HUGE})"
        )
    if not 1 <= players <= MAX_PLAYERS:
        raise NotForKernelError(f"{players} players (the kernel: 1 to {MAX_PLAYERS})")
    if not all(type(t) is Triangle for t in tileset.tiles):
        raise NotForKernelError(f"{tileset.name} holds tiles other than triangles")
    faces = [t.faces for t in tileset.tiles]
    if min(min(f) for f in faces) < 0 or max(max(f) for f in faces) > MAX_FACE:
        raise NotForKernelError(f"triangle numbers beyond 0..{MAX_FACE}")
    if rules.deal.table_tiles:
        raise NotForKernelError("a triangle round opened with table tiles")
    try:
        hand_size = rules.deal.hand_size(players)
    except Exception:
        raise NotForKernelError(f"no hand size for {players} players") from None
    tiles = tuple((*f, tileset.points(i)) for i, f in enumerate(faces))
    draw = rules.draw
    penalties: tuple[int, ...] = (0, 0, 0, 0)
    if rules.penalties is not None:
        _known(rules.penalties, "the penalties")
        p = rules.penalties
        assert isinstance(p, DrawPenalties)
        penalties = (
            1,
            _int(p.per_draw, "per_draw"),
            _int(p.pass_after_draws, "pass_after_draws"),
            _int(p.pass_when_empty, "pass_when_empty"),
        )
    play: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)
    if rules.play_scoring is not None:
        _known(rules.play_scoring, "the play scoring")
        s = rules.play_scoring
        assert isinstance(s, TriangleScoring)
        bonuses = (s.opening_bonus, s.zero_triple_bonus, s.bridge_bonus, *s.hexagon_bonus)
        play = (1, *(_int(b, "a bonus", -(1 << 30)) for b in bonuses))
    scoring = rules.round_scoring
    chain: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    if type(scoring) is TriominoesRoundScoring:
        blocked = _code(scoring.blocked, {"each_loses": 0, "lowest_collects": 1}, "blocked")
        round_ = (2, _int(scoring.out_bonus, "out_bonus", -(1 << 30)), blocked)
    elif type(scoring) is MostPlayPoints:
        round_ = (1, 0, 0)
    else:
        chain = _chain_scoring(scoring, players)
        round_ = (3, 0, 0)
    finish = _code(rules.finish, {"first_out": 0, "last_one_left": 1}, "finish")
    return (
        "triangles",
        (players, len(tileset), tileset.top, finish, hand_size),
        tiles,
        _start(rules.start, faces),
        (
            _code(draw.when_stuck, {"never": 0, "once": 1, "until_fits": 2}, "when_stuck"),
            _code(draw.voluntary, _BOOL, "voluntary"),
            _code(draw.must_play, _BOOL, "must_play"),
            _int(draw.batch, "batch", 1),
            0 if draw.max_per_turn is None else _int(draw.max_per_turn, "max_per_turn", 1),
            _code(draw.after_voluntary, {"play": 0, "pass": 1}, "after_voluntary"),
            _code(draw.when_blocked, {"as_stuck": 0, "one_each": 1}, "when_blocked"),
        ),
        penalties,
        play,
        round_,
        rules.match.sides(players),
        (
            _int(rules.match.target, "target", 1),
            _code(rules.match.target_check, {"round_end": 0, "at_once": 1}, "target_check"),
            _code(
                getattr(rules.match, "several", "highest"),
                {"highest": 0, "round_winner": 1},
                "several",
            ),
        ),
        chain,
    )


def tri_state_tuple(state: GameState) -> tuple[Any, ...]:
    """The kernel's description of ``state`` on a triangle board."""
    context = state.context
    board = state.board
    if not isinstance(board, TriangleBoard) and board.placements:
        raise NotForKernelError(f"not a triangle board: {type(board).__name__}")
    placements = tuple(
        (*cell_coords(p.cell.key), *p.corners)
        for p in board.placements
        if isinstance(p, TrianglePlacement)
    )
    if len(placements) != len(board.placements):
        raise NotForKernelError("a triangle board with placements of another kind")
    sites = tuple(cell_coords(site) for site in getattr(board, "sites", ()))
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
        placements,
        sites,
        None
        if last is None
        else (last.blocked, last.order, last.hand_points, last.points, last.winners),
    )
