"""
The engine's fast paths (memoised moves, ends and placements, the identity check of
listed moves, the packed shuffle) give exactly what the plain code gives.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

import bendolib
from bendolib import (
    GameState,
    IllegalMoveError,
    RuleSetError,
    _memo,
    _placing,
    apply,
    engine,
    legal_moves,
    new_game,
)
from bendolib.geometry.bend import BendGeometry
from bendolib.moves import DRAW, PASS, Draw, Pass, Place
from bendolib.rules.ruleset import LIST_BEND, LIST_GENERAL, LIST_STRAIGHT
from random_play import random_play


@attrs.frozen
class PlainBend(BendGeometry):
    """The bend geometry under a type of the user's: the engine lists it without memos."""

    name: str = "plain-bend"


def _states(rules: str, games: int, players: int) -> list[GameState]:
    """Every state of ``games`` random rounds."""
    ruleset = bendolib.rules.get(rules)
    out = []
    for seed in range(games):
        state = new_game(ruleset, players, seed)
        rng = random.Random(seed)
        while not state.is_round_over:
            out.append(state)
            legal = legal_moves(state)
            state = apply(state, legal[rng.randrange(len(legal))])
    return out


def test_listing_kinds() -> None:
    """Built-in geometries without wild faces take the memoised listings."""
    assert bendolib.rules.get("basic").listing == LIST_BEND
    assert bendolib.rules.get("classic-block").listing == LIST_STRAIGHT
    assert bendolib.rules.get("bendo-all-in-actions").listing == LIST_GENERAL
    plain = attrs.evolve(bendolib.rules.get("basic"), geometry=PlainBend())
    assert plain.listing == LIST_GENERAL


@pytest.mark.parametrize(("rules", "players"), [("basic", 2), ("basic", 4), ("all-five", 3)])
def test_memoised_bend_listing_equals_the_general_one(rules: str, players: int) -> None:
    """Same moves, in the same order, and the same boards after each of them."""
    plain = attrs.evolve(bendolib.rules.get(rules), geometry=PlainBend())
    for state in _states(rules, 30, players):
        twin = state.replace(rules=plain)
        moves = legal_moves(state)
        assert moves == legal_moves(twin)
        for move in moves:
            assert apply(state, move).board == apply(twin, move).board


@pytest.mark.parametrize(("rules", "players"), [("classic-block", 2), ("domino-pairs", 4)])
def test_memoised_straight_listing_equals_the_general_one(rules: str, players: int) -> None:
    """The placements memoised by hand subset are those the general listing builds."""
    for state in _states(rules, 30, players):
        if not state.board.placements:
            continue
        hand = state.hand_masks[state.current_player]
        fast = _placing.placements(state, hand)
        assert fast == _placing._general_placements(state.rules, state.board, hand)


def test_emptied_memos_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memos emptied every few entries give the same games."""
    expected = [
        random_play(name, seed, 400) for name in ("basic", "classic-draw") for seed in (1, 2)
    ]
    monkeypatch.setattr(_memo, "LIMIT", 5)
    again = [random_play(name, seed, 400) for name in ("basic", "classic-draw") for seed in (1, 2)]
    assert again == expected


def test_an_equal_move_applies_like_the_listed_one() -> None:
    """apply checks a move it did not list; an equal copy gives an equal state."""
    state = random_play("basic", 3, 6, players=2, stop="round")
    for move in legal_moves(state):
        if isinstance(move, Place):
            copy = attrs.evolve(move)
            assert copy is not move
            assert apply(state, copy) == apply(state, move)


def test_a_move_listed_for_another_state_is_still_checked() -> None:
    """The identity check only trusts a move listed for this very state."""
    state = new_game(bendolib.rules.get("classic-block"), 2, 4)
    first = legal_moves(state)[0]
    after = apply(state, first)
    legal_moves(state)  # the last listing is for ``state`` again
    with pytest.raises(IllegalMoveError):
        apply(after, first)  # the same tile again: not in the hand any more


def test_pickles_carry_no_memo() -> None:
    """A pickled state holds its rules' definitions, not the engine's memos."""
    state = random_play("basic", 5, 30, players=2)
    assert state.rules.tileset._memo  # playing filled it
    back = pickle.loads(pickle.dumps(state))
    assert back == state
    assert not back.rules.tileset._memo
    assert len(pickle.dumps(state)) < 20_000


def test_draw_and_pass_are_checked_whatever_was_listed() -> None:
    """A fresh ``Draw()`` or ``Pass()`` applies like the listed one; an illegal one raises."""
    for state in _states("basic", 10, 2):
        legal = legal_moves(state)
        for move, fresh in ((DRAW, Draw()), (PASS, Pass())):
            if move in legal:
                assert apply(state, fresh) == apply(state, move)
            else:
                legal_moves(state)
                with pytest.raises(IllegalMoveError):
                    apply(state, fresh)


@pytest.mark.parametrize(
    "deck",
    [tuple(range(27)), (*range(27), 26), (*range(27), 28), (*range(1, 28), -1)],
    ids=["short", "repeated", "out of range", "negative"],
)
def test_deal_from_rejects_a_deck_that_is_not_a_permutation(deck: tuple[int, ...]) -> None:
    """The fast deal trusts its deck, so the public one checks it."""
    with pytest.raises(RuleSetError, match="each of the 28 tile indices once"):
        engine.deal_from(bendolib.rules.get("classic-block"), 2, deck)


@pytest.mark.parametrize(("rules", "players"), [("basic", 2), ("all-five", 2)])
def test_listing_at_a_joint_equals_the_general_one(rules: str, players: int) -> None:
    """Where a placement would close the chain (issue 13), the memoised listing leaves out
    the same uneven closings as the general one, and keeps the rest in the same order."""
    from bendolib.geometry.bend import joints

    plain = attrs.evolve(bendolib.rules.get(rules), geometry=PlainBend())
    loose = bendolib.rules.get(rules, closing="any")
    seen = 0
    for state in _states(rules, 60, players):
        if not state.board.placements or not joints(state.board.ends):
            continue
        seen += 1
        moves = legal_moves(state)
        assert moves == legal_moves(state.replace(rules=plain))
        every = legal_moves(state.replace(rules=loose))
        placed = [m for m in moves if isinstance(m, Place)]
        assert [m for m in every if m in placed] == placed
    assert seen >= 20
