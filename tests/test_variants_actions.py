"""The optional action tiles of the All In games (seeds/001 names Arrow and Plus actions
and Wild stars and scores them in hand; what they do is the library's interpretation,
docs/rules/actions.md): the set, the wild star, the arrow, the plus, and the effects
hook that makes each of them a replaceable policy."""

from __future__ import annotations

import attrs
import pytest

import bendolib
from bendolib import NEXT_ROUND, GameState, Place, RuleSetError
from bendolib.moves import Move
from bendolib.rules.bendomino import ACTION_SET, ACTION_TILES, with_actions
from bendolib.rules.effects import FaceEffects, NextDraws, Reverse, next_seat
from bendolib.rules.starting import HighestDouble
from bendolib.tiles import ARROW, LEFT, PLUS, RIGHT, STANDARD, STAR, Triangle
from positions import mask, places, position, tile
from positions import play_tile as play

ACTIONS = bendolib.rules.get("bendo-all-in-actions")
TS = ACTION_SET


def centre(value: int) -> list[tuple[int, str, int, int]]:
    """The double ``value`` alone in the centre: two free ends showing ``value``."""
    return [(-1, f"{value}-{value}", value, RIGHT)]


def test_action_set_is_the_standard_set_plus_six_action_tiles() -> None:
    """Decision: the action set is the 28 standard tiles and six action tiles, an arrow,
    a plus and a wild star turning each way, each with a number (1 to 6 once)."""
    assert len(ACTION_SET) == 34
    assert ACTION_SET.tiles[:28] == STANDARD.tiles
    symbols = sorted((t.a, t.bend) for t in ACTION_TILES)
    assert symbols == sorted((s, b) for s in (ARROW, PLUS, STAR) for b in (LEFT, RIGHT))
    assert sorted(t.b for t in ACTION_TILES) == [1, 2, 3, 4, 5, 6]
    assert ACTIONS.tileset == ACTION_SET and ACTIONS.wild_faces == {STAR}


def test_plain_set_stays_the_default() -> None:
    """issue 3: 'The plain 28-tile set stays the default': only the -actions rule set
    (or one made with ``with_actions``) plays with the action tiles (the triangle games
    of issue 15 have their own 56 triangles)."""
    for name in bendolib.rules.names():
        rules = bendolib.rules.get(name)
        if isinstance(rules.tileset.tiles[0], Triangle):
            assert len(rules.tileset) == 56 and rules.effects is None
        elif rules is not ACTIONS:
            assert len(rules.tileset) == 28 and rules.effects is None
    assert with_actions(bendolib.rules.get("bendo-all-in-teams")).tileset == ACTION_SET


def test_wild_star_matches_any_number() -> None:
    """Decision: a wild star face goes against an end showing any number."""
    state = position(ACTIONS, [["W-3"], ["0-0"]], ["1-1"], centre(6))
    star_in = [m for m in places(state) if m.inward == STAR]
    assert star_in and all(m.shows == 3 for m in star_in)
    after = bendolib.apply(state, star_in[0])
    assert after.board.ends[star_in[0].end].value == 3


def test_wild_star_outward_shows_the_value_the_player_names() -> None:
    """Decision: a star laid outward shows the number its player names (0 to 6); the
    notation writes it '=n'."""
    state = position(ACTIONS, [["W-6"], ["0-0"]], ["1-1"], centre(6))
    named = [m for m in places(state) if m.inward == 6]
    assert {m.shows for m in named} == set(range(7))
    move = next(m for m in named if m.shows == 2)
    assert str(move).startswith("6-W=2@")
    assert bendolib.parse_move(str(move), state) == move
    after = bendolib.apply(state, move)
    assert after.board.ends[move.end].value == 2


def test_arrow_reverses_the_order_of_play() -> None:
    """Decision: an arrow reverses the order of play: after it, the previous player
    moves next, and play goes on the other way round."""
    hands = [["A-5", "0-0"], ["5-4", "2-2"], ["5-6", "1-1"]]
    state = position(ACTIONS, hands, ["3-3", "0-1"], centre(5))
    state = play(state, "A-5")
    assert state.direction == -1
    assert state.current_player == 2
    state = play(state, "5-6")
    assert state.current_player == 1


def test_arrow_with_two_players_changes_nothing() -> None:
    """Decision: with two players, reversing the order leaves the other player next."""
    state = position(ACTIONS, [["A-5", "0-0"], ["5-4", "2-2"]], ["3-3"], centre(5))
    after = play(state, "A-5")
    assert after.direction == -1 and after.current_player == 1


def test_arrow_end_is_matched_by_an_arrow_or_a_star() -> None:
    """Decision: an arrow or plus face laid outward is an end showing that symbol; only
    the same symbol or a wild star goes against it."""
    hands = [["A-5", "0-0"], ["A-2", "W-3", "2-2", "5-6"]]
    # closing="any": on this two-tile board the arrow end's left turn would close the
    # chain onto the 5, which the default even closing allows only for a tile showing 5
    rules = ACTIONS.configure(closing="any")
    state = play(position(rules, hands, ["3-3"], centre(5)), "A-5")
    arrow_end = state.board.values.index(ARROW)
    on_arrow = {(m.tile, m.inward) for m in places(state) if m.end == arrow_end}
    assert on_arrow == {(tile(TS, "A-2"), ARROW), (tile(TS, "W-3"), STAR)}
    even = play(position(ACTIONS, hands, ["3-3"], centre(5)), "A-5")
    assert not [m for m in places(even) if m.end == arrow_end]


def test_plus_makes_the_next_player_draw_one() -> None:
    """Decision: a plus makes the next player draw one tile from the stock; that player
    then plays the turn as usual (the drawn tile is not 'drawn this turn')."""
    hands = [["P-4", "0-0"], ["4-3", "2-2"], ["4-6", "1-1"]]
    state = position(ACTIONS, hands, ["3-3", "0-1"], centre(4))
    after = play(state, "P-4")
    assert after.current_player == 1
    assert tile(TS, "3-3") in after.hand(1) and len(after.hand(1)) == 3
    assert after.stock_size == 1 and after.drawn == 0


def test_plus_follows_the_order_of_play() -> None:
    """Decision: 'next player' follows the current order of play (after an arrow, the
    previous seat)."""
    hands = [["P-4", "0-0"], ["4-3", "2-2"], ["4-6", "1-1"]]
    state = position(ACTIONS, hands, ["3-3", "0-1"], centre(4), direction=-1)
    assert next_seat(state) == 2
    after = play(state, "P-4")
    assert after.current_player == 2 and len(after.hand(2)) == 3


def test_plus_with_an_empty_stock_does_nothing() -> None:
    """Decision: with the stock empty (or a rule set without drawing) a plus has no
    effect."""
    hands = [["P-4", "0-0"], ["4-3", "2-2"]]
    after = play(position(ACTIONS, hands, [], centre(4)), "P-4")
    assert len(after.hand(1)) == 2
    no_draw = ACTIONS.configure(when_stuck="never", voluntary=False)
    after = play(position(no_draw, hands, ["3-3"], centre(4)), "P-4")
    assert len(after.hand(1)) == 2 and after.stock_size == 1


def test_plus_as_the_last_tile_still_counts() -> None:
    """Decision: an action played as one's last tile still takes effect."""
    hands = [["P-4"], ["4-3", "2-2"], ["4-6", "1-1"]]
    after = play(position(ACTIONS, hands, ["3-3"], centre(4)), "P-4")
    assert after.out == (0,)
    assert len(after.hand(1)) == 3


def test_effects_are_replaceable_policies() -> None:
    """issue 3: 'each effect a policy that a user can replace': a plus drawing two, no
    effects at all, or a user's own effect through the same hook."""
    hands = [["P-4", "A-5", "0-0"], ["4-3", "2-2"], ["4-6", "1-1"]]
    stock = ["3-3", "0-1", "0-2"]
    two = ACTIONS.configure(by_face={ARROW: Reverse(), PLUS: NextDraws(2)})
    assert len(play(position(two, hands, stock, centre(4)), "P-4").hand(1)) == 4
    none = ACTIONS.configure(effects=None)
    after = play(position(none, hands, stock, centre(4)), "P-4")
    assert len(after.hand(1)) == 2 and after.direction == 1

    @attrs.frozen
    class SkipNext:
        """A user's effect: the next player loses the turn."""

        def after_place(self, state: GameState, move: Place) -> GameState:
            return attrs.evolve(state, current_player=next_seat(state))

    skip = ACTIONS.configure(effects=FaceEffects({PLUS: SkipNext()}))
    assert play(position(skip, hands, stock, centre(4)), "P-4").current_player == 2


def test_effect_policies_are_validated() -> None:
    """Bad effect parameters raise RuleSetError with a clear message."""
    with pytest.raises(RuleSetError, match="at least 1"):
        NextDraws(0)
    with pytest.raises(RuleSetError, match="no after_place"):
        FaceEffects({PLUS: 3})  # type: ignore[dict-item]
    with pytest.raises(RuleSetError, match="at least 1"):
        ACTIONS.configure(by_face={PLUS: NextDraws(-1)})


def test_action_tiles_never_open_a_round() -> None:
    """Decision: the highest tile that opens a round when no double was dealt is a
    number tile; an action tile never opens."""
    hands = (mask(TS, ["W-6", "0-1"]), mask(TS, ["5-6", "0-2"]))
    decision = HighestDouble().choose(ACTION_SET, hands, 1)
    assert decision.player == 1 and decision.opening == TS.index(tile(TS, "5-6"))
    only_actions = (mask(TS, ["W-6"]), mask(TS, ["A-2"]))
    assert HighestDouble().choose(ACTION_SET, only_actions, 1).redeal


def test_direction_resets_with_each_round() -> None:
    """Decision: each round starts in the normal (clockwise) order."""
    hands = [["A-5"], ["5-4", "2-2"]]
    state = play(position(ACTIONS, hands, [], centre(5)), "A-5")
    assert state.is_round_over and state.direction == -1
    move: Move = NEXT_ROUND
    assert bendolib.apply(state, move).direction == 1
