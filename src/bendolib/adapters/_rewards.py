"""The adapters' shared reward: each seat's side gain in the round minus the mean gain."""

from __future__ import annotations

from bendolib.rules.ruleset import RuleSet
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
    """A bound on the absolute value of any seat's return in one round."""
    tileset = rules.tileset
    pips = tileset.mask_points(tileset.full_mask)
    top = max(1, tileset.top)
    per_play = 2 * max(1, rules.deal.table_tiles) * top
    return float(2 * (pips + len(tileset) * per_play + 100))
