"""
Bugs planted on purpose, each built the way a user would build it: a policy, a rule set
or a bot of their own, through bendolib's public extension points.

``PLANTED`` lists them with the area they belong to, what they break, and which check
must name them.  ``tests/test_testing_*.py`` prove the testing kit catches each one, and
``bench/planted_bugs.py`` measures how fast each tool catches it and how long the
reported counterexample is (the table in docs/testing.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

import bendolib
from bendolib import GameState, Move, Place
from bendolib.moves import DRAW
from bendolib.observation import Observation
from bendolib.rules import (
    Deal,
    DrawPenalties,
    DrawPolicy,
    HighestDouble,
    Match,
    RoundOutcome,
    RoundScore,
    StartDecision,
    TriominoesRoundScoring,
    WinnerTakesPips,
)
from bendolib.rules.effects import next_seat
from bendolib.testing import invariants
from bendolib.testing.bot_harness import (
    BOT_DETERMINISTIC,
    BOT_ERRORS,
    BOT_LEGAL,
    BOT_PURE,
)
from bendolib.tiles import TileSet

BASIC = bendolib.rules.get("basic")
ALL_FIVE = bendolib.rules.get("all-five")
DRAW_GAME = bendolib.rules.get("draw-dominoes")
TRIOMINOES = bendolib.rules.get("triominoes")


# -- scoring --------------------------------------------------------------------------------


@attrs.frozen
class PointsToNextSeat:
    """The winner's points are written in the next seat's column (winners still right)."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        n = len(base.points)
        return RoundScore(tuple(base.points[(s - 1) % n] for s in range(n)), base.winners)


@attrs.frozen
class WinnersDisagree:
    """The points go to the winner, but ``winners`` names the next seat."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        if not base.winners:
            return base
        return RoundScore(base.points, ((base.winners[0] + 1) % len(base.points),))


@attrs.frozen
class LosersPay:
    """Every loser is charged the points in their own hand (negative points)."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        points = tuple(
            p if s in base.winners else -outcome.hand_points[s] for s, p in enumerate(base.points)
        )
        return RoundScore(points, base.winners)


@attrs.frozen
class PenaltyPlay:
    """All Five's play scoring, but a placement that scores nothing costs a point."""

    def score(self, end_values: tuple[int, ...]) -> int:
        total = sum(end_values)
        return total if total % 5 == 0 else -1


# -- match ----------------------------------------------------------------------------------


@attrs.frozen
class LowestSideWins(Match):
    """Once a side reaches the target, the lowest side is declared the winner."""

    def winner(self, side_scores: Sequence[int], round_sides: Sequence[int] = ()) -> int | None:
        if max(side_scores) < self.target:
            return None
        return min(range(len(side_scores)), key=lambda i: side_scores[i])


@attrs.frozen
class FirstRoundDecides(Match):
    """The leader after any round wins, target or not."""

    def winner(self, side_scores: Sequence[int], round_sides: Sequence[int] = ()) -> int | None:
        best = max(side_scores)
        leaders = [i for i, s in enumerate(side_scores) if s == best]
        return leaders[0] if best > 0 and len(leaders) == 1 else None


@attrs.frozen
class NobodyScores(Match):
    """A match policy that never names a winner: the match cannot end."""

    def winner(self, side_scores: Sequence[int], round_sides: Sequence[int] = ()) -> int | None:
        return None


# -- turn order -----------------------------------------------------------------------------


@attrs.frozen
class SkipAfterDouble:
    """A double skips the next seat (an undeclared change of the order of play)."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        if not move.tile.is_double:
            return state
        seat = next_seat(state)
        return state if seat < 0 else state.replace(current_player=seat)


@attrs.frozen
class ScribbledLastPlacer:
    """
    Writes ``last_placer=-7`` (a seat that does not exist), past the checks of
    ``GameState.replace`` (which refuses it, issue 22).
    """

    def after_place(self, state: GameState, move: Place) -> GameState:
        return attrs.evolve(state, last_placer=-7)


@attrs.frozen
class GhostSeatStarts:
    """Names a seat one past the last as the round's first player."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        decision = HighestDouble().choose(tileset, hands, round_number)
        return StartDecision(len(hands), decision.opening, decision.redeal)


# -- drawing --------------------------------------------------------------------------------


@attrs.frozen
class EmptyDraws(DrawPolicy):
    """A drawing policy whose batch is set to 0 behind the validation: draws take nothing."""

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(self, "batch", 0)


@attrs.frozen
class NextDrawsWithoutTaking:
    """A 'next player draws' effect that copies the top of the stock without taking it."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        seat = next_seat(state)
        if seat < 0 or state.stock_pos >= len(state.deck):
            return state
        hands = list(state.hand_masks)
        hands[seat] |= 1 << state.deck[state.stock_pos]
        return attrs.evolve(state, hand_masks=tuple(hands))


# -- dealing --------------------------------------------------------------------------------


@attrs.frozen
class OversizedDeal(Deal):
    """Deals 10 tiles each at four players: more than a double-6 set holds."""

    def hand_size(self, players: int) -> int:
        return 10 if players == 4 else super().hand_size(players)


@attrs.frozen
class OpensWithAnothersTile:
    """Seat 0 starts with a tile dealt to seat 1."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        return StartDecision(0, (hands[1] & -hands[1]).bit_length() - 1)


# -- effects --------------------------------------------------------------------------------


@attrs.frozen
class StealFromNext:
    """The placer takes the next player's lowest tile (an effect changing the placer's hand)."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        seat, other = state.current_player, next_seat(state)
        if other < 0 or not state.hand_masks[other]:
            return state
        low = state.hand_masks[other] & -state.hand_masks[other]
        hands = list(state.hand_masks)
        hands[other] &= ~low
        hands[seat] |= low
        return attrs.evolve(state, hand_masks=tuple(hands))


@attrs.frozen
class ContextScribbler:
    """Reverses the direction by writing into the round context it shares with the caller."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        object.__setattr__(state.context, "direction", -state.direction)
        return state


# -- mutation -------------------------------------------------------------------------------


@attrs.frozen
class TargetCreep:
    """Raises the match target by one on every placement (mutates the rule set)."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        match = state.rules.match
        object.__setattr__(match, "target", match.target + 1)
        return state


@attrs.frozen
class ListWeights:
    """A round scoring that keeps its weights in a list (an unhashable policy)."""

    weights: list[int] = attrs.field(factory=lambda: [1, 1, 1, 1])

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        weighted = tuple(w * p for w, p in zip(self.weights, base.points, strict=False))
        return RoundScore(weighted, base.winners)


# -- bots -----------------------------------------------------------------------------------


@attrs.frozen
class AlwaysDraws:
    """Draws whatever the legal moves say."""

    name: str = "always-draws"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        return DRAW


@attrs.frozen
class GlobalRandom:
    """Picks with the module-level random generator instead of the one it is given."""

    name: str = "global-random"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        return random.choice(list(legal))


class Fickle:
    """Remembers how often it was asked and picks by that count (state between calls)."""

    name = "fickle"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        self.calls += 1
        return legal[self.calls % len(legal)]


@attrs.frozen
class SortsInPlace:
    """Sorts the list of legal moves it is given, in place, by notation."""

    name: str = "sorts-in-place"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        if isinstance(legal, list):
            legal.sort(key=str)
        return legal[0]


@attrs.frozen
class ForgetsItsHand:
    """Clears the observation's hand once it has chosen (writes into a frozen value)."""

    name: str = "forgets-its-hand"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        move = legal[rng.randrange(len(legal))]
        object.__setattr__(observation, "hand_mask", 0)
        return move


@attrs.frozen
class NoFourHanded:
    """Crashes in four-player games."""

    name: str = "no-four-handed"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        if observation.players == 4:
            raise RuntimeError("four players are not supported")
        return legal[0]


@attrs.frozen
class NeedsHistory:
    """Crashes when a round in play shows tiles on the table but no history (a loaded game)."""

    name: str = "needs-history"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        if observation.board.placements and not observation.history:
            raise KeyError("no history: where did these tiles come from?")
        return legal[0]


# -- issue 25: bugs that agree with themselves ---------------------------------------------
#
# Each comes with a legitimate variant of the same kind that the kit must pass.


@attrs.frozen
class BlockedHandCountedTwice:
    """Basic's scoring, but a blocked round's winner is paid the others' hands twice."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        if not outcome.blocked:
            return base
        return RoundScore(tuple(2 * p for p in base.points), base.winners)


@attrs.frozen
class HalfPoints:
    """Basic's scoring with the points halved (``/``: they stop being integers)."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        return RoundScore(tuple(p / 2 for p in base.points), base.winners)  # type: ignore[misc]


@attrs.frozen
class PenaltyWrongSign(DrawPenalties):
    """Triominoes' penalties with the sign turned: a draw earns its 5 points."""

    def cost(self, before: GameState, move: Move, after: GameState) -> int:
        return -super().cost(before, move, after)


@attrs.frozen
class NoOutBonus:
    """Triominoes' round scoring, but going out pays only the others' hands (no 25)."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = TriominoesRoundScoring().score(outcome)
        if outcome.blocked or not base.winners:
            return base
        winner = base.winners[0]
        points = tuple(p - 25 if s == winner else p for s, p in enumerate(base.points))
        return RoundScore(points, base.winners)


@attrs.frozen
class RandomTieBreak:
    """A blocked round's near-tie (hands within 5 points) broken with the global random."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        if not outcome.blocked:
            return base
        low = min(outcome.hand_points)
        tied = [s for s, p in enumerate(outcome.hand_points) if p <= low + 5]
        winner = random.choice(tied)
        total = sum(p for s, p in enumerate(outcome.hand_points) if s != winner)
        points = tuple(total if s == winner else 0 for s in range(len(outcome.hand_points)))
        return RoundScore(points, (winner,))


@attrs.frozen
class GlobalRandomStarter:
    """A start policy that picks the starting seat with the global random generator."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        seat = random.randrange(len(hands))
        return StartDecision(seat, (hands[seat] & -hands[seat]).bit_length() - 1)


@attrs.frozen
class HashedStarter:
    """A start policy that takes the starting seat from ``hash()`` of a string."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        seat = hash(f"round {round_number}") % len(hands)
        return StartDecision(seat, (hands[seat] & -hands[seat]).bit_length() - 1)


@attrs.frozen
class SeatByRound:
    """Legitimate: the starting seat turns with the round number (deterministic)."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        seat = round_number % len(hands)
        return StartDecision(seat, (hands[seat] & -hands[seat]).bit_length() - 1)


class PlainScoring:
    """Basic's scoring in a plain class: equal only to itself, so unequal after pickling."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        return WinnerTakesPips().score(outcome)

    def __hash__(self) -> int:
        return 7


class PlainScoringWithEquality(PlainScoring):
    """Legitimate: the same plain class with value equality."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return 7


_STALE: dict[int, int] = {}


@attrs.frozen
class StaleStarter:
    """Caches the starter by round number across games: later games start stale."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        if round_number not in _STALE:
            _STALE[round_number] = max(range(len(hands)), key=lambda s: hands[s])
        seat = _STALE[round_number] % len(hands)
        return StartDecision(seat, (hands[seat] & -hands[seat]).bit_length() - 1)


@attrs.frozen
class ListPenalties(DrawPenalties):
    """Triominoes' penalties holding a list (an unhashable penalties policy)."""

    extra: list[int] = attrs.field(factory=list)


@attrs.frozen
class Crashes:
    """An effect that raises a plain exception on a double (not a library error)."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        if move.tile.is_double and state.board.placements[1:]:
            raise ZeroDivisionError("a double divides by zero")
        return state


class SlowBot:
    """Thinks for 50 ms a decision."""

    name = "slow"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        import time

        time.sleep(0.05)
        return legal[0]


class WritesIntoMoves:
    """Writes into the legal move it returns (the library memoises moves)."""

    name = "writes-into-moves"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        move = legal[0]
        if isinstance(move, Place):
            object.__setattr__(move, "end", 7)
        return move


class WritesIntoTheBoard:
    """Writes into the observation's board, then picks with its rng (looks nondeterministic)."""

    name = "writes-into-the-board"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        move = legal[rng.randrange(len(legal))]
        object.__setattr__(observation.board, "ends", ())
        return move


class WritesLater:
    """
    Keeps the first tile on the table of each observation it is shown and, from its
    ninth call, writes into the one it kept the call before (the harness shares a game's
    copies between decisions: what it was given once is part of what it is given again).
    """

    name = "writes-later"

    def __init__(self) -> None:
        self.kept: object | None = None
        self.calls = 0

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        self.calls += 1
        if self.kept is not None and self.calls > 8:
            object.__setattr__(self.kept, "tile", 0)
        if observation.board.placements:
            self.kept = observation.board.placements[0]
        return legal[0]


class SortsACopy:
    """Legitimate: sorts its own copy of the legal moves."""

    name = "sorts-a-copy"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        return sorted(legal, key=str)[0]


# -- the list ---------------------------------------------------------------------------------


@attrs.frozen
class Planted:
    """One planted bug: its area, a name, the rule set (or bot) and the check that names it."""

    area: str
    name: str
    rules: bendolib.RuleSet
    invariant: str
    bot: object = None
    tools: tuple[str, ...] = ("check_ruleset", "api_state_machine")

    @property
    def is_bot(self) -> bool:
        """True for a broken bot (checked with the bot tools)."""
        return self.bot is not None


_BOT_TOOLS = ("check_bot", "bot_state_machine")


def planted() -> tuple[Planted, ...]:
    """Every planted bug (built afresh: some mutate their rule set when played)."""
    return (
        Planted(
            "scoring",
            "points to the next seat",
            BASIC.configure("next-seat", round_scoring=PointsToNextSeat()),
            invariants.ROUND_POINTS,
        ),
        Planted(
            "scoring",
            "winners disagree with points",
            BASIC.configure("disagree", round_scoring=WinnersDisagree()),
            invariants.ROUND_POINTS,
        ),
        Planted(
            "scoring",
            "losers pay (negative points)",
            BASIC.configure("losers-pay", round_scoring=LosersPay()),
            invariants.ROUND_POINTS,
        ),
        Planted(
            "scoring",
            "penalty in play (negative play points)",
            ALL_FIVE.configure("penalty", play_scoring=PenaltyPlay()),
            invariants.ROUND_POINTS,
        ),
        Planted(
            "match",
            "lowest side wins",
            BASIC.configure("lowest-wins", match=LowestSideWins(target=100)),
            invariants.MATCH_WINNER,
        ),
        Planted(
            "match",
            "first round decides",
            BASIC.configure("first-round", match=FirstRoundDecides(target=100)),
            invariants.MATCH_WINNER,
        ),
        Planted(
            "match",
            "the match never ends",
            BASIC.configure("endless", match=NobodyScores(target=100)),
            invariants.TERMINATION,
        ),
        Planted(
            "turn order",
            "a double skips a seat",
            BASIC.configure("skip", effects=SkipAfterDouble()),
            invariants.TURN_ORDER,
        ),
        Planted(
            "turn order",
            "last_placer=-7",
            BASIC.configure("scribbled", effects=ScribbledLastPlacer()),
            invariants.FIELDS,
        ),
        Planted(
            "turn order",
            "a seat that does not exist starts",
            BASIC.configure("ghost", start=GhostSeatStarts()),
            invariants.DEALS,
        ),
        Planted(
            "drawing",
            "draws take no tile",
            DRAW_GAME.configure("empty-draws", draw=EmptyDraws(when_stuck="until_fits")),
            invariants.MOVES,
        ),
        Planted(
            "drawing",
            "a 'next draws' effect copies the stock",
            BASIC.configure("copying-draw", effects=NextDrawsWithoutTaking()),
            invariants.TILE_CONSERVATION,
        ),
        Planted(
            "dealing",
            "four hands of 10 from 28 tiles",
            BASIC.configure("oversized", deal=OversizedDeal(BASIC.deal.hand_sizes)),
            invariants.TILE_CONSERVATION,
        ),
        Planted(
            "dealing",
            "opens with another seat's tile",
            BASIC.configure("wrong-opener", start=OpensWithAnothersTile()),
            invariants.DEALS,
        ),
        Planted(
            "effects",
            "the placer steals a tile",
            BASIC.configure("steal", effects=StealFromNext()),
            invariants.MOVES,
        ),
        Planted(
            "effects",
            "an effect writes into the shared round context",
            BASIC.configure("scribbler", effects=ContextScribbler()),
            invariants.APPLY_PURE,
        ),
        Planted(
            "mutation",
            "the match target creeps up during play",
            BASIC.configure("creep", effects=TargetCreep(), match=Match(target=99)),
            invariants.APPLY_PURE,
        ),
        Planted(
            "mutation",
            "a policy holding a list",
            BASIC.configure("list-weights", round_scoring=ListWeights()),
            invariants.POLICIES,
        ),
        Planted(
            "agreeing scoring",
            "points stop being integers",
            BASIC.configure("half-points", round_scoring=HalfPoints()),
            invariants.POINT_TYPES,
        ),
        Planted(
            "agreeing scoring",
            "a penalty with the wrong sign",
            TRIOMINOES.configure("wrong-sign", penalties=PenaltyWrongSign()),
            invariants.POINT_TYPES,
        ),
        Planted(
            "nondeterminism",
            "a starter from the global random",
            BASIC.configure("random-starter", start=GlobalRandomStarter()),
            invariants.REPLAYS,
        ),
        Planted(
            "nondeterminism",
            "a random tie-break",
            BASIC.configure("random-tie", round_scoring=RandomTieBreak()),
            invariants.REPLAYS,
            tools=("check_ruleset",),
        ),
        Planted(
            "nondeterminism",
            "a starter from hash() of a string",
            BASIC.configure("hashed-starter", start=HashedStarter()),
            invariants.REPLAYS,
            tools=("check_ruleset",),
        ),
        Planted(
            "nondeterminism",
            "a plain-class policy unequal after pickling",
            BASIC.configure("plain", round_scoring=PlainScoring()),
            invariants.REPLAYS,
            tools=("check_ruleset",),
        ),
        Planted(
            "nondeterminism",
            "a starter cached across games",
            BASIC.configure("stale", start=StaleStarter()),
            invariants.REPLAYS,
            tools=("check_ruleset",),
        ),
        Planted(
            "attribution",
            "an unhashable penalties policy",
            TRIOMINOES.configure("list-penalties", penalties=ListPenalties()),
            invariants.POLICIES,
        ),
        Planted(
            "attribution",
            "an effect raising a plain exception",
            BASIC.configure("crashes", effects=Crashes()),
            invariants.ERRORS,
        ),
        Planted("bots", "returns draw regardless", BASIC, BOT_LEGAL, AlwaysDraws(), _BOT_TOOLS),
        Planted("bots", "global random", BASIC, BOT_DETERMINISTIC, GlobalRandom(), _BOT_TOOLS),
        Planted("bots", "state between calls", BASIC, BOT_DETERMINISTIC, Fickle(), _BOT_TOOLS),
        Planted(
            "bots", "sorts the legal moves in place", BASIC, BOT_PURE, SortsInPlace(), _BOT_TOOLS
        ),
        Planted(
            "bots", "clears the observation's hand", BASIC, BOT_PURE, ForgetsItsHand(), _BOT_TOOLS
        ),
        Planted("bots", "crashes at four players", BASIC, BOT_ERRORS, NoFourHanded(), _BOT_TOOLS),
        Planted("bots", "needs the round's history", BASIC, BOT_ERRORS, NeedsHistory(), _BOT_TOOLS),
        Planted(
            "bots", "writes into the legal moves", BASIC, BOT_PURE, WritesIntoMoves(), _BOT_TOOLS
        ),
        Planted(
            "bots", "writes into the observation", BASIC, BOT_PURE, WritesIntoTheBoard(), _BOT_TOOLS
        ),
    )
