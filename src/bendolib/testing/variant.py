"""
``check_variant``: play a variant and the rule set it was built from side by side.

Both get the same deals (the same seeds) and the same moves (chosen among the variant's
legal moves); after every move the two games are compared: the legal moves listed,
the points the move scored (play points, a round's points, a draw's or a pass's cost),
whose turn it is, and the outcome (a round's end, its winners, the match's end).  Every
difference is reported, attributed to the policies that differ between the two rule
sets; a difference that none of the changed policies can cause is a finding (a user who
changed only the drawing sees any scoring difference as one).  A game stops being
compared once the two games part (a move legal in one only, other tiles moved, another
player to move, another outcome): what follows is no longer the same game.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import attrs

from bendolib.engine import apply, legal_moves, new_game
from bendolib.moves import Draw, Move, NextRound, Pass
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GAME_OVER, PLAYING, GameState
from bendolib.testing import invariants as inv
from bendolib.testing.checker import _Chooser, game_seed, rules_expression

LISTINGS = "listings"
SCORES = "scores"
TURN_ORDER = "turn order"
OUTCOMES = "outcomes"
TILES = "tiles"
DEALS = "deals"

#: The kinds of difference, in the order they are looked for.
DIFFERENCES: tuple[str, ...] = (DEALS, LISTINGS, TILES, OUTCOMES, TURN_ORDER, SCORES)

#: The parts of a rule set whose change can explain each kind of difference.
EXPLAINED_BY: dict[str, tuple[str, ...]] = {
    DEALS: ("tileset", "deal", "start"),
    LISTINGS: (
        "tileset",
        "geometry",
        "draw",
        "closing",
        "wild_faces",
        "effects",
        "start",
        "finish",
        "match",
    ),
    TILES: ("tileset", "geometry", "draw", "effects", "finish", "deal"),
    OUTCOMES: (
        "round_scoring",
        "play_scoring",
        "penalties",
        "match",
        "finish",
        "effects",
        "draw",
    ),
    TURN_ORDER: ("effects", "draw", "finish", "start"),
    SCORES: ("round_scoring", "play_scoring", "penalties", "match", "effects"),
}

_RULE_PARTS = (*inv.PARTS, "finish", "closing", "wild_faces")


def changed_parts(variant: RuleSet, base: RuleSet) -> tuple[str, ...]:
    """The parts of the two rule sets that differ (policies, tile set, plain rules)."""
    return tuple(p for p in _RULE_PARTS if getattr(variant, p) != getattr(base, p))


@attrs.frozen
class Difference:
    """
    One difference between the variant's game and the base's after the same moves.

    ``kind`` is one of :data:`DIFFERENCES`; ``situation`` what the move was (a round
    ending blocked, a draw...); ``variant`` and ``base`` what each game gave;
    ``policies`` the changed policies that can explain it (none: a finding, unless the
    caller said the kind was expected).  ``choices`` replay the variant's game to the
    state before the move (:func:`~bendolib.testing.replay_choices`).
    """

    kind: str
    game: int
    players: int
    seed: int
    moves: int
    move: str
    situation: str
    variant: str
    base: str
    policies: tuple[str, ...]
    finding: bool
    choices: tuple[int, ...]
    rules_expr: str = "variant"

    @property
    def reproduction(self) -> str:
        """A line of Python that rebuilds the state in which the two games differ."""
        return (
            f"bendolib.testing.replay_choices({self.rules_expr}, players={self.players}, "
            f"seed={self.seed}, choices={list(self.choices)})"
        )

    def __str__(self) -> str:
        why = (
            f"explained by {', '.join(self.policies)}"
            if self.policies
            else "no changed policy explains it"
        )
        label = "FINDING " if self.finding else ""
        return (
            f"{label}{self.kind}: game {self.game} (players={self.players}, seed={self.seed}), "
            f"move {self.moves} {self.move} ({self.situation}): variant {self.variant}, "
            f"base {self.base} [{why}]\n    state before: {self._state_line()}"
        )

    def _state_line(self) -> str:
        if len(self.choices) <= 24:
            return self.reproduction
        return f"{len(self.choices)} moves from the deal (the difference's .reproduction)"


@attrs.frozen
class VariantReport:
    """
    What :func:`check_variant` compared and every difference found.

    ``changed`` lists the parts of the rule sets that differ; ``compared`` the moves
    played in both games; ``differences`` every difference (``findings`` those no
    changed policy explains, or of a kind not in ``expect``).
    """

    variant: str
    base: str
    games: int
    compared: int
    changed: tuple[str, ...]
    differences: tuple[Difference, ...]

    @property
    def findings(self) -> tuple[Difference, ...]:
        """The differences that are findings."""
        return tuple(d for d in self.differences if d.finding)

    @property
    def ok(self) -> bool:
        """True when no difference is a finding."""
        return not self.findings

    def of(self, kind: str) -> tuple[Difference, ...]:
        """The differences of one kind."""
        return tuple(d for d in self.differences if d.kind == kind)

    def raise_for_violation(self) -> None:
        """Raise ``AssertionError`` with the report when a difference is a finding."""
        if not self.ok:
            raise AssertionError(str(self))

    def __str__(self) -> str:
        head = (
            f"{self.variant} against {self.base}: {self.games} games, {self.compared} moves "
            f"compared; changed: {', '.join(self.changed) or 'nothing'}"
        )
        lines = [head]
        for kind in DIFFERENCES:
            found = self.of(kind)
            if not found:
                continue
            findings = sum(d.finding for d in found)
            lines.append(
                f"  {kind}: {len(found)} difference{'s' if len(found) > 1 else ''}"
                + (f", {findings} FINDING{'S' if findings > 1 else ''}" if findings else "")
            )
            shown = [d for d in found if d.finding][:3] or list(found[:3])
            lines.extend(f"    {d}" for d in shown)
        if len(lines) == 1:
            lines.append("  no difference")
        return "\n".join(lines)


def _situation(before: GameState, move: Move, after: GameState) -> str:
    if isinstance(move, NextRound):
        return "the next round dealt"
    if before.phase == PLAYING and after.phase != PLAYING:
        result = after.results[-1] if after.results else None
        if result is not None and result.blocked:
            return "the round ends blocked"
        return "the round ends with a player out"
    if isinstance(move, Draw):
        return "a draw" + (" that empties the stock" if after.stock_size == 0 else "")
    if isinstance(move, Pass):
        return "a pass"
    if not before.board.placements:
        return "the opening placement"
    return "a placement"


def _delta(before: GameState, after: GameState, name: str) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(getattr(after, name), getattr(before, name), strict=False))


def _outcome(state: GameState) -> str:
    result = state.results[-1] if state.results else None
    phase = {PLAYING: "in play", GAME_OVER: "match over"}.get(state.phase, "round over")
    if state.phase == PLAYING or result is None:
        return phase
    ended = "blocked" if result.blocked else "out"
    winner = f", side {state.match_winner} wins" if state.phase == GAME_OVER else ""
    return f"{phase} ({ended}, winners {list(result.winners)}{winner})"


def _points(before: GameState, after: GameState) -> str:
    """What a move scored: each seat's change of score (and the round's points)."""
    delta = _delta(before, after, "scores")
    text = f"scores {list(delta)}"
    if len(after.results) > len(before.results):
        text += f" (round points {list(after.results[-1].points)})"
    return text


def _where_tiles(state: GameState) -> str:
    sizes = [h.bit_count() for h in state.hand_masks]
    return (
        f"hands of {sizes}, {state.stock_size} in the stock, "
        f"{len(state.board.placements)} on the board"
    )


def _tiles(state: GameState) -> tuple[object, ...]:
    return (state.hand_masks, state.stock_pos, state.deck, state.board.placements)


def _compare_game(
    variant: RuleSet,
    base: RuleSet,
    players: int,
    seed: int,
    number: int,
    changed: tuple[str, ...],
    expect: frozenset[str] | None,
    max_moves: int | None,
    expr: str,
) -> tuple[list[Difference], int]:
    found: list[Difference] = []
    choices: list[int] = []

    def differ(kind: str, move: str, where: str, mine: str, theirs: str) -> None:
        policies = tuple(p for p in changed if p in EXPLAINED_BY[kind])
        finding = kind not in expect if expect is not None else not policies
        found.append(
            Difference(
                kind,
                number,
                players,
                seed,
                len(choices),
                move,
                where,
                mine,
                theirs,
                policies,
                finding,
                tuple(choices),
                expr,
            )
        )

    v, b = new_game(variant, players, seed), new_game(base, players, seed)
    if _tiles(v) != _tiles(b) or v.current_player != b.current_player:
        differ(
            DEALS,
            "-",
            "the deal",
            f"player {v.current_player} starts",
            f"player {b.current_player} starts",
        )
        return found, 0
    chooser = _Chooser(seed, players, None)
    compared = 0
    while not v.is_game_over and not b.is_game_over:
        if max_moves is not None and compared >= max_moves:
            break
        lv, lb = legal_moves(v), legal_moves(b)
        if lv != lb and set(lv) != set(lb):
            only_v = sorted(str(m) for m in set(lv) - set(lb))[:4]
            only_b = sorted(str(m) for m in set(lb) - set(lv))[:4]
            differ(LISTINGS, "-", "the legal moves", f"only {only_v}", f"only {only_b}")
        index = chooser.next(len(lv))
        assert index is not None
        move = lv[index]
        if move not in lb:
            break
        v2, b2 = apply(v, move), apply(b, move)
        compared += 1
        text = str(move)
        where = _situation(v, move, v2)
        if _tiles(v2) != _tiles(b2):
            differ(TILES, text, where, _where_tiles(v2), _where_tiles(b2))
            break
        if (v2.phase, v2.results[-1:] and v2.results[-1].winners, v2.match_winner) != (
            b2.phase,
            b2.results[-1:] and b2.results[-1].winners,
            b2.match_winner,
        ):
            differ(OUTCOMES, text, where, _outcome(v2), _outcome(b2))
            break
        if _delta(v, v2, "scores") != _delta(b, b2, "scores") or (
            len(v2.results) > len(v.results) and v2.results[-1].points != b2.results[-1].points
        ):
            differ(SCORES, text, where, _points(v, v2), _points(b, b2))
        if (v2.current_player, v2.direction) != (b2.current_player, b2.direction):
            differ(
                TURN_ORDER,
                text,
                where,
                f"player {v2.current_player} moves next",
                f"player {b2.current_player}",
            )
            break
        choices.append(index)
        v, b = v2, b2
    return found, compared


def check_variant(
    variant: RuleSet,
    base: RuleSet | None = None,
    games: int = 20,
    seed: int = 0,
    players: int | Sequence[int] | None = None,
    *,
    expect: Collection[str] | None = None,
    max_moves: int | None = None,
) -> VariantReport:
    """
    Play ``games`` games of ``variant`` and of ``base`` with the same deals and the same
    moves and report every difference (see the module's text).

    ``base`` is by default the registered rule set ``variant`` was configured from
    (``variant.origin``).  Games cycle through the player counts both allow (or
    ``players``).  A difference that no changed policy can explain is a finding; with
    ``expect`` (kinds of :data:`DIFFERENCES`), every difference of another kind is one.
    ``max_moves`` bounds the moves compared in each game.
    """
    if not isinstance(variant, RuleSet):
        raise TypeError(f"variant must be a RuleSet, not {type(variant).__name__}")
    if base is None:
        from bendolib import rules as registry

        if variant.origin not in registry.names():
            raise ValueError(
                f"{variant.name!r} was not configured from a registered rule set: give base="
            )
        base = registry.get(variant.origin)
    if not isinstance(base, RuleSet):
        raise TypeError(f"base must be a RuleSet, not {type(base).__name__}")
    wanted = None if expect is None else frozenset(expect)
    if wanted is not None and wanted - set(DIFFERENCES):
        raise ValueError(f"unknown kinds {sorted(wanted - set(DIFFERENCES))}; known: {DIFFERENCES}")
    if players is None:
        counts = tuple(c for c in variant.player_counts if c in base.player_counts)
    else:
        counts = (players,) if isinstance(players, int) else tuple(players)
    if not counts:
        raise ValueError("the variant and its base allow no common player count")
    changed = changed_parts(variant, base)
    expr = rules_expression(variant)
    expr = "variant" if expr == "rules" else expr
    differences: list[Difference] = []
    compared = 0
    for number in range(games):
        count = counts[number % len(counts)]
        found, moves = _compare_game(
            variant, base, count, game_seed(seed, number), number, changed, wanted, max_moves, expr
        )
        differences.extend(found)
        compared += moves
    return VariantReport(variant.name, base.name, games, compared, changed, tuple(differences))
