"""The compiled step paths behind legal_moves and apply against the Python engine.

``bendolib.engine`` hands the commonest cases of :func:`legal_moves`, :func:`apply` and
the deal shuffle to the compiled kernel (``step_legal``, ``step_apply``, ``deal_deck``);
the Python code is their specification.  These tests play the same random rounds with
the compiled paths and with them switched off, and compare every listing and every
state (value, hash, history).  Without the kernel (``BENDOLIB_PURE_PYTHON=1``, or no
compiler) they are skipped.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import apply, engine, legal_moves, new_game
from bendolib._rng import SplitMix64, derive_seed
from bendolib.notation import parse_move
from bendolib.testing import strategies as bst
from step_compare import assert_same_state, listed_both_ways

pytestmark = pytest.mark.skipif(engine._step_kernel is None, reason="the kernel is not built")

ROUNDS = 6


def _cases() -> list[tuple[str, int]]:
    return [
        (name, players)
        for name in bendolib.rules.names()
        for players in bendolib.rules.get(name).player_counts
    ]


def _pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_step_legal", None)
    monkeypatch.setattr(engine, "_step_apply", None)
    monkeypatch.setattr(engine, "_step_legal_larger", ())
    monkeypatch.setattr(engine, "_step_apply_larger", ())
    monkeypatch.setattr(engine, "_deal_deck", None)
    monkeypatch.setattr(engine, "_deal_hands", None)


@pytest.mark.parametrize(("name", "players"), _cases())
def test_same_listings_and_states(name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each move of random rounds: the same legal moves and the same next state."""
    rules = bendolib.rules.get(name)
    rng = random.Random(f"{name}/{players}")
    compiled_legal, compiled_apply = engine._step_legal, engine._step_apply
    for seed in range(ROUNDS):
        state = new_game(rules, players, seed)
        with monkeypatch.context() as patch:
            _pure(patch)
            assert new_game(rules, players, seed) == state
        steps = 0
        while not state.is_game_over and steps < 120:
            step = listed_both_ways(state, rng, monkeypatch, _pure)
            assert compiled_legal is not None and compiled_apply is not None
            after = apply(state, step.listed)
            assert_same_state(after, step.expected)
            state = after
            steps += 1


def test_deal_deck_is_the_splitmix_shuffle() -> None:
    """The compiled deal shuffle draws the deck SplitMix64 draws."""
    assert engine._deal_deck is not None
    for seed in (0, 1, 2**64 - 1, 123456789):
        for count in (0, 1, 2, 7, 8, 28, 55, 91):
            expected = SplitMix64(derive_seed(seed, 3, 1)).shuffled(range(count))
            assert engine._deal_deck(seed, 3, 1, count) == expected


def test_apply_of_an_unlisted_equal_move_is_checked() -> None:
    """A move equal to a listed one but not the listed object goes the checked way."""
    state = new_game("basic", 2, 5)
    state = apply(state, legal_moves(state)[0])
    moves = legal_moves(state)
    copy = attrs.evolve(moves[0])
    assert copy is not moves[0]
    assert apply(state, copy) == apply(state, moves[0])


@pytest.mark.parametrize(("name", "players"), [("basic", 2), ("domino-pairs", 4)])
def test_the_compiled_paths_do_the_work(name: str, players: int) -> None:
    """Most moves of a random round are listed and applied by the compiled paths."""
    assert engine._step_legal is not None and engine._step_apply is not None
    rng = random.Random(3)
    listed = applied = moves = 0
    for seed in range(5):
        state = new_game(name, players, seed)
        while not state.is_round_over:
            legal = legal_moves(state)
            listed += engine._step_legal(state) is not None
            move = legal[rng.randrange(len(legal))]
            after = engine._step_apply(state, move, state, legal)
            applied += after is not None
            state = apply(state, move)
            moves += 1
    assert listed > 0.7 * moves
    assert applied > 0.9 * moves


def test_a_deal_larger_than_the_deck_deals_what_there_is() -> None:
    """Hands past the end of the deck (a faulty rule set): the Python engine deals them."""
    assert engine._deal_hands is not None
    assert engine._deal_hands(tuple(range(6)), 4, 2) is None
    assert engine._deal_hands((3, 1, 0, 2), 2, 2) == (0b1010, 0b101)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bst.rulesets(configured=True), st.data())
def test_configured_rule_sets_play_as_the_engine(
    rules: bendolib.RuleSet, data: st.DataObject
) -> None:
    """
    Any parameters of the built-in rule sets (every build's step paths, the triangle
    games' too): a match played move for move both ways, through its round ends (the
    test above plays each rule set's defaults only).
    """
    players = data.draw(st.sampled_from(rules.player_counts), label="players")
    seed = data.draw(st.integers(0, 2**64 - 1), label="seed")
    rng = random.Random(seed)
    state = new_game(rules, players, seed)
    with pytest.MonkeyPatch.context() as monkeypatch:
        steps = 0
        while not state.is_game_over and steps < 400:
            step = listed_both_ways(state, rng, monkeypatch, _pure)
            after = apply(state, step.listed)
            assert_same_state(after, step.expected)
            state = after
            steps += 1


def test_a_shared_target_under_several_round_winner() -> None:
    """
    ``Match(several="round_winner")``: both sides reach the target in one round, and
    the round's winner takes the match.  The compiled round end gave the match to the
    highest total only, so that a tie at the target played on (found by
    test_testing_checker's configured rule sets: side scores [30, 30], match not over).
    """
    rules = bendolib.rules.get(
        "bendo-all-in-caribbean", no_double="redeal", target=25, several="round_winner"
    )
    # (the checker's report, as it printed the moves)
    moves = (
        "6-6* pass 6-4@1R 4-5@1L pass 5-1@1R 1-2@1L 6-2@0R 2-3@1L 2-4@0L 4-4@0R pass 3-3@1R "
        "4-0@0R 3-1@1R 0-0@0L 0-1@0L 1-4@0R pass pass 1-1@1L pass pass 1-6@1R 6-3@1L 3-5@1L "
        "5-5@1R 5-6@1L 4-3@0R 3-0@0L 0-2@0L 2-5@0R 5-0@0L pass 0-6@0R"
    )
    state = new_game(rules, 4, seed=4095345163953262787)
    for text in moves.split():
        state = apply(state, parse_move(text, state))
    assert state.side_scores == (30, 30)
    winners = state.results[-1].winners
    assert state.is_game_over
    assert state.match_winner == next(i for i, side in enumerate(state.sides) if winners[0] in side)
