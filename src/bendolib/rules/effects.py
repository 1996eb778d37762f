"""Effect policies: what a placed tile does besides extending the chain (action tiles)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

import attrs

from bendolib.errors import RuleSetError

if TYPE_CHECKING:
    from bendolib.moves import Place
    from bendolib.state import GameState


class EffectPolicy(Protocol):
    """
    Changes the state after a placement: the tile is on the board and out of the
    placer's hand, ``state.current_player`` is still the placer, and the engine
    then ends the round or passes the turn (in ``state.direction``) as usual.
    Whether the placer went out is settled before the effect, so an effect changes
    other hands, the stock, the direction or the seat to move from, not the placer's
    hand.
    """

    def after_place(self, state: GameState, move: Place) -> GameState:
        """The state once the placed tile's effect has happened."""
        ...


def next_seat(state: GameState) -> int:
    """The seat that moves after the current player (in ``direction``, skipping empty hands)."""
    seat = state.current_player
    for _ in range(state.players - 1):
        seat = (seat + state.direction) % state.players
        if state.hand_masks[seat]:
            return seat
    return -1


@attrs.frozen
class Reverse:
    """Reverse the order of play (an arrow): the next player is the previous one."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        """The state with ``direction`` flipped."""
        return state._replaced(direction=-state.direction)  # still 1 or -1: unchecked


@attrs.frozen
class NextDraws:
    """
    The next player draws ``count`` tiles from the stock (a plus), as far as the
    stock lasts; nothing happens in a rule set that never draws.
    """

    count: int = 1

    def __attrs_post_init__(self) -> None:
        if self.count < 1:
            raise RuleSetError(f"count must be at least 1, not {self.count}")

    def after_place(self, state: GameState, move: Place) -> GameState:
        """The state with the next player's hand grown by the drawn tiles."""
        seat = next_seat(state)
        if seat < 0 or not state.rules.draw.draws:
            return state
        taken = state.deck[state.stock_pos : state.stock_pos + self.count]
        if not taken:
            return state
        mask = 0
        for i in taken:
            mask |= 1 << i
        hands = tuple(h | mask if s == seat else h for s, h in enumerate(state.hand_masks))
        return attrs.evolve(state, hand_masks=hands, stock_pos=state.stock_pos + len(taken))


def _freeze_effects(
    by_face: Mapping[int, EffectPolicy] | tuple[tuple[int, EffectPolicy], ...],
) -> tuple[tuple[int, EffectPolicy], ...]:
    items = by_face.items() if isinstance(by_face, Mapping) else by_face
    return tuple((int(face), effect) for face, effect in items)


@attrs.frozen
class FaceEffects:
    """
    The effect of each face: a placed tile triggers the effect of every face it
    carries (once per face, in the order listed), whichever way round it lies.
    """

    by_face: tuple[tuple[int, EffectPolicy], ...] = attrs.field(converter=_freeze_effects)

    def __attrs_post_init__(self) -> None:
        faces = [face for face, _ in self.by_face]
        if len(set(faces)) != len(faces):
            raise RuleSetError(f"a face has more than one effect: {faces}")
        for face, effect in self.by_face:
            if not callable(getattr(effect, "after_place", None)):
                raise RuleSetError(f"the effect of face {face} has no after_place method")

    def after_place(self, state: GameState, move: Place) -> GameState:
        """The state after the effects of the placed tile's faces."""
        faces = {move.tile.a, move.tile.b}
        for face, effect in self.by_face:
            if face in faces:
                state = effect.after_place(state, move)
        return state
