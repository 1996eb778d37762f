"""
bendolib against the anchor implementations of the same rules (issue 4).

classic-block (2 players) is played beside OpenSpiel's ``python_block_dominoes`` and
domino-pairs (4 players) beside OpenSpiel's ``python_team_dominoes`` and the
``dominoes`` package's ``Game``, on the same deals: bendolib deals from a seed and
the same hands are given to the anchor.  At every turn the player to move and the set
of legal moves must agree (a move is compared as (tile, value it is laid against),
None for the opening), a seeded random move is made in both, and the round's scores
must agree at the end.  Passes are explicit moves in bendolib; the anchors skip a
player who cannot move, so a bendolib pass is checked to be the only legal move.

Each anchor is configured to the anchor's own rules (see docs/rules/classic-block.md
and docs/rules/domino-pairs.md for how they differ from the seeds):
``bendolib.rules.classic.AS_OPENSPIEL_BLOCK``, ``AS_OPENSPIEL_TEAM`` and
``AS_DOMINOES_PACKAGE``.

The anchors are optional: ``pip install -e '.[anchors]'`` (CI does).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import pytest

from bendolib import GameState, Move, Place, apply, legal_moves, new_game
from bendolib._rng import SplitMix64
from bendolib.moves import OPENING, PASS
from bendolib.rules import RuleSet
from bendolib.rules.classic import AS_DOMINOES_PACKAGE, AS_OPENSPIEL_BLOCK, AS_OPENSPIEL_TEAM

DEALS = 1000

HAVE_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
HAVE_DOMINOES = importlib.util.find_spec("dominoes") is not None
NO_OPENSPIEL = "anchor not installed: OpenSpiel (pip install open_spiel, or -e '.[anchors]')"
NO_DOMINOES = "anchor not installed: the dominoes package (pip install dominoes, or '.[anchors]')"

Key = tuple[int, int, int | None]


def key_of(move: Place) -> Key:
    """A placement as (low face, high face, value laid against; None to open)."""
    return (move.tile.a, move.tile.b, None if move.end == OPENING else move.inward)


def bendolib_keys(state: GameState) -> dict[Key, Move]:
    """The legal placements by key (two ends showing one value give one key)."""
    keys: dict[Key, Move] = {}
    legal = legal_moves(state)
    for move in legal:
        if isinstance(move, Place):
            keys.setdefault(key_of(move), move)
    assert not keys or all(isinstance(m, Place) for m in legal), "no draw or pass beside"
    return keys


def play_side_by_side(
    rules: RuleSet,
    players: int,
    seed: int,
    anchor_keys: Callable[[], dict[Key, Any]],
    anchor_player: Callable[[], int],
    anchor_play: Callable[[Any], None],
    anchor_over: Callable[[], bool],
) -> GameState:
    """Play one round in bendolib and the anchor together; the final bendolib state."""
    state = new_game(rules, players, seed)
    rng = SplitMix64(seed)
    while not state.is_round_over:
        assert not anchor_over(), f"seed {seed}: the anchor ended the round first"
        ours = bendolib_keys(state)
        if not ours:
            assert legal_moves(state) == (PASS,), f"seed {seed}: no placement and no pass"
            state = apply(state, PASS)
            continue
        assert anchor_player() == state.current_player, f"seed {seed}: player to move"
        theirs = anchor_keys()
        assert set(ours) == set(theirs), f"seed {seed}: legal moves at {state.history}"
        chosen = sorted(ours, key=lambda k: (k[0], k[1], -1 if k[2] is None else k[2]))
        key = rng.choice(chosen)
        state = apply(state, ours[key])
        anchor_play(theirs[key])
    assert anchor_over(), f"seed {seed}: bendolib ended the round, the anchor did not"
    return state


def round_points(state: GameState) -> tuple[int, ...]:
    """Points each seat won in the round just finished."""
    result = state.last_result
    assert result is not None
    return result.points


# -- OpenSpiel ----------------------------------------------------------------------------


def _openspiel_game(name: str) -> tuple[Any, Any]:
    import pyspiel
    from open_spiel.python.games import block_dominoes, team_dominoes

    module = block_dominoes if name == "python_block_dominoes" else team_dominoes
    return pyspiel.load_game(name), module


def openspiel_round(name: str, rules: RuleSet, players: int, seed: int) -> None:
    """One deal played in bendolib and in an OpenSpiel dominoes game."""
    game, module = _openspiel_game(name)
    deck = [(int(a), int(b)) for a, b in module._DECK]
    dealt = new_game(rules, players, seed)
    if players == 2:  # block dominoes deals seat 0's seven tiles, then seat 1's
        order = [tile for hand in dealt.hands for tile in hand]
    else:  # team dominoes deals one tile to each seat in turn
        order = [hand[k] for k in range(7) for hand in dealt.hands]
    os_state = game.new_initial_state()
    for tile in order:
        os_state.apply_action(deck.index((tile.a, tile.b)))

    def keys() -> dict[Key, Any]:
        out: dict[Key, Any] = {}
        for action in os_state.legal_actions():
            act = module._ACTIONS[action]
            edge = None if act.edge is None else int(act.edge)
            out[(int(act.tile[0]), int(act.tile[1]), edge)] = action
        return out

    final = play_side_by_side(
        rules,
        players,
        seed,
        keys,
        lambda: int(os_state.current_player()),
        os_state.apply_action,
        os_state.is_terminal,
    )
    points = round_points(final)
    if players == 2:
        ours = [points[0] - points[1], points[1] - points[0]]
    else:
        team0 = points[0] + points[2] - points[1] - points[3]
        ours = [team0, -team0, team0, -team0]
    assert [int(r) for r in os_state.returns()] == ours, f"seed {seed}: scores"


@pytest.mark.skipif(not HAVE_OPENSPIEL, reason=NO_OPENSPIEL)
def test_classic_block_two_players_agrees_with_openspiel_block_dominoes() -> None:
    for seed in range(DEALS):
        openspiel_round("python_block_dominoes", AS_OPENSPIEL_BLOCK, 2, seed)


@pytest.mark.skipif(not HAVE_OPENSPIEL, reason=NO_OPENSPIEL)
def test_domino_pairs_agrees_with_openspiel_team_dominoes() -> None:
    for seed in range(DEALS):
        openspiel_round("python_team_dominoes", AS_OPENSPIEL_TEAM, 4, seed)


# -- the dominoes package -----------------------------------------------------------------


def dominoes_round(seed: int) -> None:
    """One deal played in bendolib and in the dominoes package (6-6 opens)."""
    import dominoes

    rules = AS_DOMINOES_PACKAGE
    dealt = new_game(rules, 4, seed)
    hands = [dominoes.Hand([dominoes.Domino(t.a, t.b) for t in hand]) for hand in dealt.hands]
    double_six = dominoes.Domino(6, 6)
    starter = next(p for p, hand in enumerate(hands) if double_six in hand)
    # what Game.new(starting_domino=6-6) builds, before it plays the 6-6 itself
    game = dominoes.Game(dominoes.Board(), hands, [], starter, ((double_six, True),), starter, None)

    def keys() -> dict[Key, Any]:
        out: dict[Key, Any] = {}
        for d, left in game.valid_moves:
            low, high = sorted((d.first, d.second))
            if not len(game.board):
                out[(low, high, None)] = (d, left)
            else:
                end = game.board.left_end() if left else game.board.right_end()
                out[(low, high, end)] = (d, left)
        return out

    final = play_side_by_side(
        rules,
        4,
        seed,
        keys,
        lambda: int(game.turn),
        lambda move: game.make_move(*move),
        lambda: game.result is not None,
    )
    points = round_points(final)
    assert game.result.points == points[0] + points[2] - points[1] - points[3], f"seed {seed}"


@pytest.mark.skipif(not HAVE_DOMINOES, reason=NO_DOMINOES)
def test_domino_pairs_agrees_with_the_dominoes_package() -> None:
    for seed in range(DEALS):
        dominoes_round(seed)


@pytest.mark.skipif(not HAVE_DOMINOES, reason=NO_DOMINOES)
def test_the_dominoes_package_opens_with_double_six_like_domino_pairs() -> None:
    """Game.new(starting_domino=6-6) lays the 6-6 from its holder's hand at once, which is
    the game dominoes_round builds; domino-pairs' only first move is that 6-6."""
    import dominoes

    game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    assert game.moves[0] == (dominoes.Domino(6, 6), True)
    assert all(move is None for move in game.moves[1:])  # passes of players without a 6
    assert tile_six_six_left(game) == 0
    for seed in range(20):
        state = new_game(AS_DOMINOES_PACKAGE, 4, seed)
        assert [str(m) for m in legal_moves(state)] == ["6-6*"]


def tile_six_six_left(game: Any) -> int:
    """How many hands of a dominoes Game still hold 6-6."""
    import dominoes

    return sum(dominoes.Domino(6, 6) in hand for hand in game.hands)
