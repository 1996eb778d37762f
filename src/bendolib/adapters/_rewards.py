"""The adapters' shared reward: each seat's side gain in the round minus the mean gain."""

from __future__ import annotations

from bendolib.rules.penalties import DrawPenalties
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.triangles import TriangleScoring, TriominoesRoundScoring
from bendolib.state import GameState


def round_returns(state: GameState, start: tuple[int, ...]) -> list[float]:
    """
    Each seat's side gain since ``start`` (the side scores when the round was dealt)
    minus the mean over the seats: zero-sum, in points.
    """
    players = state.players
    side_of = {seat: i for i, side in enumerate(state.sides) for seat in side}
    gains = [a - b for a, b in zip(state.side_scores, start, strict=True)]
    per_seat = [float(gains[side_of[seat]]) for seat in range(players)]
    mean = sum(per_seat) / players
    return [g - mean for g in per_seat]


def reward_bound(rules: RuleSet) -> float:
    """
    A bound on the absolute value of any seat's return in one round: twice a bound on
    the points any side can win or lose in a round.
    """
    tileset = rules.tileset
    n = len(tileset)
    pips = tileset.mask_points(tileset.full_mask)
    top = max(1, tileset.top)
    per_play = 2 * max(1, rules.deal.table_tiles) * top
    points = pips + n * per_play + 100
    # the triangle games' bonuses and penalties: each tile laid scores at most its sum
    # and the largest bonus; every draw costs ``per_draw`` and at most one pass after
    # it; a pass on an empty stock comes at most once per seat between two tiles laid
    scoring = rules.play_scoring
    if isinstance(scoring, TriangleScoring):
        bonus = max(scoring.bridge_bonus, *scoring.hexagon_bonus)
        points += n * bonus + scoring.opening_bonus + scoring.zero_triple_bonus
    if isinstance(rules.round_scoring, TriominoesRoundScoring):
        points += rules.round_scoring.out_bonus
    penalties = rules.penalties
    if isinstance(penalties, DrawPenalties):
        points += n * (penalties.per_draw + penalties.pass_after_draws)
        points += (n + 1) * max(rules.player_counts) * penalties.pass_when_empty
    return float(2 * points)
