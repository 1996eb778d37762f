"""
Many worlds of one observation, cheaply: one replayed world, then new decks dealt into it.

:func:`bendolib.sampling.sample_state` draws a deck consistent with the observation
(exactly uniform under the per-tile deductions), then replays the round's whole public
history on the Python engine to build the state and to reject the rare deck the history
rules out: the replay is two thirds of its cost.  :class:`Worlds` replays once, learns
which deck positions each seat holds (dealt or drawn), and builds every later world from
a new deck of the same sampler by putting its tiles in those hands: the same state the
replay would give (a test checks it), without the final rejection, which the deductions
of the forced-draws opponent model make rare (none in 200 decisions of greedy play; the
second world of each observation is replayed, as a check).  Every world comes from
:func:`~bendolib.sampling.sample_state` where it cannot: the plain posterior (no
opponent model, or one the history contradicts: about one deck in ten is then rejected
after draws by choice), a loaded position, tiles dealt to the table, a sampler that is
not exact.
"""

from __future__ import annotations

import random

from bendolib.moves import Place, PlaceInCell
from bendolib.observation import Observation
from bendolib.sampling import replay, sample_state, sampler
from bendolib.state import GameState


class Worlds:
    """
    Draws states consistent with ``observation`` (``forced_draws``: under the
    opponent model of :func:`~bendolib.sampling.sample_state`); :meth:`draw` gives the
    next one.
    """

    def __init__(self, observation: Observation, rng: random.Random, forced_draws: bool) -> None:
        self.observation = observation
        self.forced_draws = forced_draws
        self.first: GameState = sample_state(observation, rng, forced_draws=forced_draws)
        self._sampler = None
        self._owners: tuple[int, ...] = ()
        self._placed: tuple[int, ...] = ()
        self._pending = [self.first]  # the worlds still to hand out, last first
        # the plain posterior's per-tile deductions leave some decks to the replay's
        # rejection (about one in ten after draws by choice): those worlds are replayed
        model = sampler(observation, forced_draws)
        if (
            not forced_draws
            or observation.start is not None
            or observation.rules.deal.table_tiles
            or not model.exact
            or not model.count()
        ):
            return
        first = self.first
        tileset = observation.rules.tileset
        placed = [0] * observation.players
        for turn in observation.history:
            if type(turn.move) is Place or type(turn.move) is PlaceInCell:
                placed[turn.player] |= 1 << tileset.index(turn.move.tile)
        held = [first.hand_masks[s] | placed[s] for s in range(observation.players)]
        owners = []
        for position in range(first.stock_pos):
            tile = first.deck[position]
            owner = next((s for s, mask in enumerate(held) if mask >> tile & 1), -1)
            owners.append(owner)
        # each seat holds exactly the tiles at its positions (else: no fast path)
        for seat, mask in enumerate(held):
            got = 0
            for position, owner in enumerate(owners):
                if owner == seat:
                    got |= 1 << first.deck[position]
            if got != mask:
                return
        self._sampler = model
        self._owners = tuple(owners)
        self._placed = tuple(placed)
        # one dealt world checked against the replay: a model the history contradicts
        # (sample_state then fell back to the plain posterior) deals no more of them
        probe = self._dealt(rng)
        if probe is None or replay(observation, probe.deck, probe.seed) != probe:
            self._sampler = None
        else:
            self._pending.insert(0, probe)

    def draw(self, rng: random.Random) -> GameState:
        """The next world (the replayed one first)."""
        if self._pending:
            return self._pending.pop()
        world = self._dealt(rng) if self._sampler is not None else None
        if world is None:
            return sample_state(self.observation, rng, forced_draws=self.forced_draws)
        return world

    def _dealt(self, rng: random.Random) -> GameState | None:
        """A world dealt from a new deck into the first world's hands (None: cannot)."""
        model = self._sampler
        assert model is not None
        deck = model.sample_deck(rng)
        hands = [0] * len(self._placed)
        for position, owner in enumerate(self._owners):
            if owner >= 0:
                hands[owner] |= 1 << deck[position]
        for seat, placed in enumerate(self._placed):
            if hands[seat] & placed != placed:
                return None
            hands[seat] &= ~placed
        return self.first._replaced(deck=deck, hand_masks=tuple(hands), seed=rng.getrandbits(64))
