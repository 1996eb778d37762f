"""
What the compiled kernel reads for the triangle games (``src/bendolib/_kernel_tri.c``):
a triangle RuleSet as a flat *spec* tuple (tagged ``"triangles"``) and a GameState on a
triangle board as a flat *state* tuple.

The kernel knows the triangle parts exactly, by class and by fields: a rule set whose
part is another class, or a class that gained a parameter the kernel does not know, is
played by the Python engine (:class:`~bendolib._kernel_abi.NotForKernelError` says
why).  Tile sets of at most 64 triangles with numbers 0 to 14, at most 8 players.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from bendolib._kernel_abi import MAX_PLAYERS, MAX_TILES, NotForKernelError
from bendolib.geometry.triangles import TriangleBoard, TriangleGeometry, TrianglePlacement
from bendolib.geometry.trilattice import cell_coords
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.match import Match
from bendolib.rules.penalties import DrawPenalties
from bendolib.rules.ruleset import RuleSet
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
    RuleSet: frozenset(
        {
            "name",
            "tileset",
            "geometry",
            "deal",
            "start",
            "draw",
            "round_scoring",
            "match",
            "play_scoring",
            "finish",
            "wild_faces",
            "effects",
            "description",
            "wild_mask",
            "listing",
            "closing",
            "even_closing",
            "penalties",
        }
    ),
    TriangleGeometry: frozenset({"name", "uses_bends"}),
    Deal: frozenset({"hand_sizes", "table_tiles"}),
    DrawPolicy: frozenset(
        {
            "when_stuck",
            "voluntary",
            "must_play",
            "batch",
            "max_per_turn",
            "draws",
            "after_voluntary",
            "when_blocked",
        }
    ),
    Match: frozenset({"target", "teams", "_seats", "target_check"}),
    HighestTriple: frozenset({"no_triple", "opens"}),
    FixedSeat: frozenset({"seat"}),
    TriangleScoring: frozenset(
        {"opening_bonus", "zero_triple_bonus", "bridge_bonus", "hexagon_bonus"}
    ),
    MostPlayPoints: frozenset(),
    TriominoesRoundScoring: frozenset({"out_bonus", "blocked"}),
    DrawPenalties: frozenset({"per_draw", "pass_after_draws", "pass_when_empty"}),
}


def _known(part: Any, what: str) -> None:
    """Raise NotForKernelError unless ``part`` is a class the kernel knows, every field too."""
    fields = KNOWN_FIELDS.get(type(part))
    if fields is None:
        raise NotForKernelError(f"{what} is a {type(part).__name__}")
    unknown = frozenset(f.name for f in attrs.fields(type(part))) - fields
    if unknown:
        raise NotForKernelError(f"{what} has parameters {sorted(unknown)} the kernel lacks")


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
    """(kind, opens, seat, redeal, triples, fallback): kind 1 HighestTriple, 2 FixedSeat."""
    _known(start, "the start")
    if type(start) is FixedSeat:
        return (2, 0, start.seat, 0, (), ())
    assert isinstance(start, HighestTriple)
    triples = _order(faces, lambda f: _sum_rank(f) if len(set(f)) == 1 else None)
    fallback: tuple[int, ...] = ()
    if start.no_triple == "highest_pair":
        fallback = _order(faces, _pair_rank) + _order(faces, _sum_rank)
    elif start.no_triple == "highest_sum":
        fallback = _order(faces, _sum_rank)
    return (1, int(start.opens), 0, int(start.no_triple == "redeal"), triples, fallback)


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
    if len(tileset) > MAX_TILES:
        raise NotForKernelError(f"{tileset.name} has {len(tileset)} tiles (kernel: {MAX_TILES})")
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
        penalties = (1, p.per_draw, p.pass_after_draws, p.pass_when_empty)
    play: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)
    if rules.play_scoring is not None:
        _known(rules.play_scoring, "the play scoring")
        s = rules.play_scoring
        assert isinstance(s, TriangleScoring)
        play = (1, s.opening_bonus, s.zero_triple_bonus, s.bridge_bonus, *s.hexagon_bonus)
    scoring = rules.round_scoring
    if type(scoring) is TriominoesRoundScoring:
        round_ = (2, scoring.out_bonus, int(scoring.blocked == "lowest_collects"))
    else:
        round_ = (1, 0, 0)
    return (
        "triangles",
        (players, len(tileset), tileset.top, int(rules.finish == "last_one_left"), hand_size),
        tiles,
        _start(rules.start, faces),
        (
            {"never": 0, "once": 1, "until_fits": 2}[draw.when_stuck],
            int(draw.voluntary),
            int(draw.must_play),
            draw.batch,
            draw.max_per_turn or 0,
            int(draw.after_voluntary == "pass"),
            int(draw.when_blocked == "one_each"),
        ),
        penalties,
        play,
        round_,
        rules.match.sides(players),
        (rules.match.target, int(rules.match.target_check == "at_once")),
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
