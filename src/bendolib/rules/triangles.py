"""
The triangle games on the triangular lattice: Triangle Dominoes (seeds/004) and
Triominoes, composed from policies (docs/rules/triangle-dominoes.md and
docs/rules/triominoes.md give each decision and its source).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import attrs

from bendolib.errors import RuleSetError
from bendolib.geometry.triangles import TRIANGLES_GEOMETRY, TriangleBoard, TriangleGeometry
from bendolib.moves import PlaceInCell
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.match import Match
from bendolib.rules.penalties import DrawPenalties
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import RoundOutcome, RoundScore, WinnerTakesPips
from bendolib.rules.starting import StartDecision
from bendolib.tiles import TRIANGLES, TileSet, indices

if TYPE_CHECKING:
    from bendolib.geometry.board import Board
    from bendolib.moves import Move
    from bendolib.state import GameState


def _holder(hands: tuple[int, ...], index: int) -> int:
    for player, hand in enumerate(hands):
        if hand >> index & 1:
            return player
    return -1


def _best(tileset: TileSet, mask: int, key: str) -> int:
    """The tile of ``mask`` ranked highest by ``key`` ("sum" or "pair"), or -1."""
    best = -1
    best_key: tuple[int, ...] = (-1,)
    for i in indices(mask):
        faces = tileset.tiles[i].faces
        high = tuple(sorted(faces, reverse=True))
        if key == "pair":
            pairs = [f for f in set(faces) if faces.count(f) == 2]
            if not pairs:
                continue
            rank: tuple[int, ...] = (pairs[0], sum(faces) - 2 * pairs[0])
        else:
            rank = (sum(faces), *high)
        if rank > best_key:
            best, best_key = i, rank
    return best


@attrs.frozen
class HighestTriple:
    """
    The holder of the highest triple (most points) starts, laying it when ``opens``.
    With no triple dealt, ``no_triple`` decides: the holder of the highest pair tile
    (``"highest_pair"``: the highest pair number, then the higher third number; with
    no pair either, as ``"highest_sum"``), of the tile with the highest sum
    (``"highest_sum"``: ties go to the higher numbers, compared highest first), or a
    new deal (``"redeal"``).
    """

    no_triple: Literal["highest_pair", "highest_sum", "redeal"] = "highest_sum"
    opens: bool = True
    zero_instead: bool = False
    """The holder of the highest triple may open with 0-0-0 instead, when holding it
    too (published Triominoes rules; the 0-0-0 bonus then applies)."""

    def __attrs_post_init__(self) -> None:
        if self.no_triple not in ("highest_pair", "highest_sum", "redeal"):
            raise RuleSetError(f"unknown no_triple {self.no_triple!r}")

    def alternatives(self, tileset: TileSet, hand: int, opening: int) -> tuple[int, ...]:
        """
        The tiles the starter holding ``hand`` may open with besides ``opening``: 0-0-0
        under ``zero_instead`` when ``opening`` is another triple.
        """
        if not self.zero_instead or opening < 0 or not tileset.tiles[opening].is_double:
            return ()
        for i in indices(hand & tileset.doubles_mask):
            if i != opening and not any(tileset.tiles[i].faces):
                return (i,)
        return ()

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        """The holder of the highest triple, or of the fallback tile."""
        dealt = 0
        for hand in hands:
            dealt |= hand
        tile = _best(tileset, dealt & tileset.doubles_mask, "sum")
        if tile < 0:
            if self.no_triple == "redeal":
                return StartDecision(redeal=True)
            if self.no_triple == "highest_pair":
                tile = _best(tileset, dealt, "pair")
            if tile < 0:
                tile = _best(tileset, dealt, "sum")
            if tile < 0:
                return StartDecision(redeal=True)
        return StartDecision(_holder(hands, tile), tile if self.opens else -1)


def _bonuses(values: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


@attrs.frozen
class TriangleScoring:
    """
    A placed triangle scores the sum of its numbers at once, plus bonuses.

    * ``opening_bonus`` when the round opens with a triple, and ``zero_triple_bonus``
      more when that triple is 0-0-0;
    * ``hexagon_bonus[n - 1]`` when the tile completes ``n`` hexagons (six tiles
      round a point; one tile can close up to three);
    * else ``bridge_bonus`` when it is a bridge (it touches the rest of the layout by
      exactly one edge and by the corner opposite that edge).
    """

    opening_bonus: int = 10
    zero_triple_bonus: int = 30
    bridge_bonus: int = 40
    hexagon_bonus: tuple[int, ...] = attrs.field(default=(50, 60, 70), converter=_bonuses)

    def __attrs_post_init__(self) -> None:
        if len(self.hexagon_bonus) != 3:
            raise RuleSetError(f"hexagon_bonus lists the bonus for 1, 2 and 3 hexagons: {self}")

    def score_move(self, before: GameState, move: Move, board: Board) -> int:
        """The tile's sum and its bonuses."""
        if not isinstance(move, PlaceInCell):
            raise RuleSetError(f"triangle scoring scores triangles laid in cells, not {move!r}")
        tile = move.tile
        points = tile.points
        if before.board.is_empty:
            if tile.is_double:
                points += self.opening_bonus
                if not any(tile.faces):
                    points += self.zero_triple_bonus
            return points
        geometry = before.rules.geometry
        if isinstance(geometry, TriangleGeometry) and isinstance(board, TriangleBoard):
            hexagons = geometry.hexagons(board, move.cell)
            if hexagons:
                points += self.hexagon_bonus[min(hexagons, 3) - 1]
            elif geometry.is_bridge(board, move.cell):
                points += self.bridge_bonus
        return points


def _award(players: int, seat: int, amount: int) -> tuple[int, ...]:
    return tuple(amount if s == seat else 0 for s in range(players))


@attrs.frozen
class TriominoesRoundScoring:
    """
    The end of a Triominoes round.  A player who went out scores ``out_bonus`` plus
    the points left in the other hands.  A blocked round (stock empty, no one can
    lay): ``blocked="each_loses"`` takes from each player the points left in their
    hand (the lowest hand, when it is alone, is credited as the round's winner);
    ``"lowest_collects"`` gives the lowest hand, when alone, the others' points minus
    its own (a tie for lowest: nobody scores).
    """

    out_bonus: int = 25
    blocked: Literal["each_loses", "lowest_collects"] = "lowest_collects"

    def __attrs_post_init__(self) -> None:
        if self.blocked not in ("each_loses", "lowest_collects"):
            raise RuleSetError(f"unknown blocked rule {self.blocked!r}")

    @property
    def negative_points(self) -> bool:
        """
        Declared for :mod:`bendolib.testing`: under ``"each_loses"`` a blocked round
        takes points away.
        """
        return self.blocked == "each_loses"

    def score(self, outcome: RoundOutcome) -> RoundScore:
        """The points each seat wins (or loses) for the round."""
        hands = outcome.hand_points
        players = len(hands)
        if outcome.order:
            winner = outcome.order[0]
            others = sum(hands) - hands[winner]
            return RoundScore(_award(players, winner, self.out_bonus + others), (winner,))
        low = min(hands)
        lowest = [s for s in range(players) if hands[s] == low]
        alone = tuple(lowest) if len(lowest) == 1 else ()
        if self.blocked == "each_loses":
            return RoundScore(tuple(-h for h in hands), alone)
        if not alone:
            return RoundScore((0,) * players, ())
        return RoundScore(_award(players, alone[0], sum(hands) - 2 * low), alone)


@attrs.frozen
class MostPlayPoints:
    """
    No points at the end of a round (everything was scored in play); the seats with
    the most points scored in play this round are its winners.
    """

    def score(self, outcome: RoundOutcome) -> RoundScore:
        """Nothing more; the winners."""
        best = max(outcome.play_points)
        winners = tuple(s for s, p in enumerate(outcome.play_points) if p == best)
        return RoundScore((0,) * len(outcome.play_points), winners)


#: seeds/004: "take 6 cards each"; the published classroom game is for 2 to 4.
TRIANGLE_DOMINOES_HANDS = {2: 6, 3: 6, 4: 6}
#: Triominoes: 9 tiles each for 2 players, 7 for 3 or 4, 6 for 5 or 6.
TRIOMINOES_HANDS = {2: 9, 3: 7, 4: 7, 5: 6, 6: 6}

TRIANGLE_DOMINOES = RuleSet(
    name="triangle-dominoes",
    description=(
        "Seed 004's Triangle Dominoes: 6 tiles each, the highest triple opens; each tile "
        "laid scores its sum; a stuck player draws one; highest score when a player is "
        "out or no one can lay."
    ),
    tileset=TRIANGLES,
    geometry=TRIANGLES_GEOMETRY,
    deal=Deal(TRIANGLE_DOMINOES_HANDS),
    start=HighestTriple(no_triple="highest_pair"),
    draw=DrawPolicy(when_stuck="once", voluntary=False, must_play=False),
    round_scoring=MostPlayPoints(),
    match=Match(target=1, target_check="round_end"),
    play_scoring=TriangleScoring(
        opening_bonus=0, zero_triple_bonus=0, bridge_bonus=0, hexagon_bonus=(0, 0, 0)
    ),
)

TRIOMINOES = RuleSet(
    name="triominoes",
    description=(
        "Triominoes: 9/7/6 tiles, the highest triple opens with a bonus; tile sums, "
        "hexagon and bridge bonuses; up to 3 draws at 5 points each; going out scores "
        "25 and the others' hands; first to 400."
    ),
    tileset=TRIANGLES,
    geometry=TRIANGLES_GEOMETRY,
    deal=Deal(TRIOMINOES_HANDS),
    start=HighestTriple(no_triple="highest_sum", zero_instead=True),
    # "cannot or will not lay": a voluntary draw is drawn like any other (the drawn
    # tile may be laid), and a layout nothing fits is drawn on as usual, up to three
    draw=DrawPolicy(
        when_stuck="until_fits",
        voluntary=True,
        must_play=False,
        max_per_turn=3,
        after_voluntary="play",
        when_blocked="as_stuck",
    ),
    round_scoring=TriominoesRoundScoring(blocked="lowest_collects"),
    match=Match(target=400, target_check="round_end", several="round_winner"),
    play_scoring=TriangleScoring(),
    penalties=DrawPenalties(),
)

#: Triangle Dominoes with seeds/004's neighbouring "dominoes" sentences read as the
#: game's own (issue 21 point 4; docs/rules/triangle-dominoes.md): a stuck player keeps
#: drawing until a tile fits, tiles score nothing when laid, the player out collects the
#: dots left in the others' hands, a blocked round goes to the fewest dots (who collects
#: the others' minus their own), first to 100.  Not registered: use it as it is, or
#: ``TRIANGLE_DOMINOES.configure(...)`` with these parameters.
TRIANGLE_DOMINOES_COLLECT = TRIANGLE_DOMINOES.configure(
    "triangle-dominoes/collect",
    when_stuck="until_fits",
    play_scoring=None,
    round_scoring=WinnerTakesPips(blocked_winner="lowest_seat", tie="nobody", minus_own=True),
    target=100,
)

#: The triangle rule sets, registered by name (``bendolib.rules.get("triominoes")``).
TRIANGLE_RULESETS = (TRIANGLE_DOMINOES, TRIOMINOES)
