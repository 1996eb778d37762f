"""
Sampling full states consistent with an observation (determinization).

:func:`sample_state` deals the hidden tiles again: the other hands, the tiles they drew
and the stock's order, uniformly among the deals that agree with everything the
observer knows.  Precisely, every deck order (up to the order of the tiles inside each
dealt hand) that, replayed through the round's public history, gives exactly the same
observation is equally likely.  This is the posterior of a fair shuffle when the
players' choices are not taken as evidence (a player's choice among legal moves is
assumed to say nothing about its hand; the deductions forced by the rules are used).

How: the per-tile constraints of :func:`bendolib.observation.hidden_deal` define which
tiles may lie in which deck positions; an exact count of the assignments that satisfy
them (dynamic programming over groups of interchangeable tiles and positions) lets the
sampler draw one uniformly; the round is then replayed from that deck and kept only if
it reproduces the observation (rejection), which makes the result exact.

When that count would cost too much (custom double-9 or double-12 sets late in a round
with many draws), the proposal comes instead from a Markov chain of tile swaps that
keeps the per-tile constraints: the samples are then still consistent, but only
approximately uniform (:attr:`Sampler.exact` says which).
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import factorial

from bendolib._inference import HiddenDeal, Slot, deck_layout, hidden_deal
from bendolib._memo import remember
from bendolib.engine import apply, deal_from
from bendolib.errors import ArgumentError, BendolibError
from bendolib.observation import Observation, observe
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, GameState
from bendolib.tiles import indices

#: Default number of rejected deals after which :func:`sample_state` gives up.
MAX_ATTEMPTS = 10_000
#: Work allowed for the exact count before the Markov chain is used instead.
BUDGET = 60_000
#: Swap attempts per hidden position between two samples of the Markov chain.
CHAIN_STEPS = 20
#: Attempts under the ``forced_draws`` opponent model before falling back.
MODEL_ATTEMPTS = 200


class SamplingError(BendolibError, RuntimeError):
    """No consistent state was found (the observation cannot arise from any deal)."""


def sample_state(
    observation: Observation,
    rng: random.Random,
    max_attempts: int = MAX_ATTEMPTS,
    *,
    forced_draws: bool = False,
) -> GameState:
    """
    A full state consistent with ``observation``: the hidden hands, the tiles drawn by
    the other players and the stock's order resampled uniformly among the consistent
    deals (see the module docstring); ``apply`` works on it.  Its seed (which deals the
    later rounds) is drawn from ``rng`` too.

    ``forced_draws`` samples under an opponent model instead: every draw at the start
    of a turn is read as "could not place" even where drawing by choice is allowed
    (see :func:`bendolib.observation.deduce`); when no deal fits that model, the plain
    posterior is used.
    """
    if not isinstance(observation, Observation):
        raise TypeError(f"sample_state takes an Observation, not {type(observation).__name__}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng is a random.Random, not {type(rng).__name__}")
    if not isinstance(max_attempts, int) or isinstance(max_attempts, bool):
        raise TypeError(f"max_attempts is an int, not {type(max_attempts).__name__}")
    if max_attempts < 1:
        raise ArgumentError(f"max_attempts is 1 or more, not {max_attempts}")
    _check_counts(observation)
    try:
        if forced_draws:
            model = sampler(observation, True)
            if model.count():
                try:
                    return model.sample(rng, min(max_attempts, MODEL_ATTEMPTS))
                except SamplingError:
                    pass
        return sampler(observation).sample(rng, max_attempts)
    except SamplingError:
        raise
    except (
        BendolibError,
        LookupError,
        ValueError,
        TypeError,
        AttributeError,
        ArithmeticError,
    ) as exc:
        # an observation no state gives (one built or edited by hand)
        raise SamplingError(
            f"no state gives this observation ({type(exc).__name__}: {exc})"
        ) from exc


def _check_counts(observation: Observation) -> None:
    """
    Raise SamplingError unless the observation's counts fit its tile set: what sizes
    the work of sampling (an observation edited by hand could ask for any amount).
    """
    for obs in (observation, observation.start):
        if obs is None:
            continue
        if not isinstance(obs, Observation) or not isinstance(obs.rules, RuleSet):
            raise SamplingError("an observation's start is an Observation of a rule set")
        total = len(obs.rules.tileset)
        sizes = obs.hand_sizes
        masks = (obs.hand_mask, obs.drawn_mask, *obs.revealed)
        counts = (obs.players, obs.player, obs.current_player, obs.stock_size, obs.opening)
        if (
            not all(type(n) is int for n in (*counts, *masks, *sizes, obs.drawn_count))
            or obs.players not in obs.rules.player_counts
            or not (0 <= obs.player < obs.players and 0 <= obs.current_player < obs.players)
            or len(sizes) != obs.players
            or not all(0 <= n <= total for n in (*sizes, obs.stock_size, obs.drawn_count))
            or sum(sizes) + obs.stock_size > total
            or not all(0 <= mask < 1 << total for mask in masks)
            or not -1 <= obs.opening < total
        ):
            raise SamplingError("no state gives this observation: its counts do not fit its tiles")


@lru_cache(maxsize=32)
def sampler(observation: Observation, forced_draws: bool = False) -> Sampler:
    """The (cached) sampler of one observation: build once, sample many times."""
    return Sampler(observation, forced_draws)


class _BudgetExceededError(Exception):
    """The exact count needs more work than the budget allows."""


class Sampler:
    """
    Draws consistent states for one observation; the counting is done once.

    ``exact`` is True when the per-tile constraints could be counted within the work
    budget (always so with the 28-tile sets of the registered rule sets); then every
    sample is exactly uniform.  Otherwise (large custom tile sets with many draws) the
    proposal comes from a Markov chain of tile swaps that keeps the per-tile
    constraints, started from a deal found by bipartite matching: approximately
    uniform, and still always consistent.
    """

    def __init__(self, observation: Observation, forced_draws: bool = False) -> None:
        self.observation = observation
        self.deal: HiddenDeal = hidden_deal(observation, forced_draws)
        self.attempts = 0
        self.accepted = 0
        self.slots = _merged(self.deal.slots)
        tiles_by_signature: dict[tuple[int, ...], list[int]] = {}
        for tile in indices(self.deal.hidden):
            signature = tuple(s for s, slot in enumerate(self.slots) if slot.accepts >> tile & 1)
            tiles_by_signature.setdefault(signature, []).append(tile)
        self._types = sorted(
            ((tuple(tiles), sig) for sig, tiles in tiles_by_signature.items()),
            key=lambda item: (len(item[1]), len(item[0]), item[0]),
        )
        self._caps = tuple(len(slot.positions) for slot in self.slots)
        # the counting packs the capacities left into one int, ``width`` bits a slot (a
        # split never takes more than a slot's room, so a subtraction never borrows)
        self._width = max((*self._caps, 1)).bit_length()
        self._memo: dict[tuple[int, int], int] = {}
        field = (1 << self._width) - 1
        self._fields = tuple(
            sum(field << (s * self._width) for s in slots) for _, slots in self._types
        )
        self._moves: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self._budget: int | None = BUDGET
        self._chain: list[int] = []
        try:
            self._count(0, self._caps)
            self.exact = True
        except _BudgetExceededError:
            self.exact = False
            self._memo = {}
            self._moves = {}
            self._start_chain()
        self._budget = None

    def count(self) -> int:
        """
        Number of assignments of the hidden tiles that meet the per-tile constraints
        (when not ``exact``: 1 if one was found, which is always the case).
        """
        if not self.exact:
            return 1 if self._chain else 0
        return self._count(0, self._caps)

    def _count(self, j: int, caps: tuple[int, ...]) -> int:
        """The assignments of the tile types from ``j`` on into the capacities ``caps``."""
        width = self._width
        packed = 0
        for s, cap in enumerate(caps):
            packed |= cap << (s * width)
        return self._count_packed(j, packed)

    def _count_packed(self, j: int, caps: int) -> int:
        if j == len(self._types):
            return 0 if caps else 1
        key = (j, caps)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        moves = self._moves_at(j, caps)
        if self._budget is not None:
            self._budget -= 1 + len(moves)
            if self._budget < 0:
                raise _BudgetExceededError
        total = 0
        nxt = j + 1
        if nxt == len(self._types):  # the last type: only the split that fills every slot
            for taken, ways in moves:
                if caps == taken:
                    total += ways
        else:
            memo = self._memo
            count = self._count_packed
            for taken, ways in moves:
                after = caps - taken
                rest = memo.get((nxt, after))
                if rest is None:
                    rest = count(nxt, after)
                if rest:
                    total += ways * rest
        self._memo[key] = total
        return total

    def _moves_at(self, j: int, caps: int) -> list[tuple[int, int]]:
        """
        The splits of type ``j`` into the packed capacities ``caps``, in
        :func:`_splits`' order: each as (the packed amounts taken, its multinomial).
        """
        tiles, slots = self._types[j]
        key = (j, caps & self._fields[j])
        found = self._moves.get(key)
        if found is None:
            width = self._width
            full = (1 << width) - 1
            shifts = [s * width for s in slots]
            room = [caps >> at & full for at in shifts]
            budget = self._budget
            if budget is not None and len(tiles) > 1 and _over(budget, len(tiles), room):
                raise _BudgetExceededError  # as the count of the splits would (no listing)
            splits_key = (len(tiles), *shifts, -1, *room)
            found = _SPLITS.get(splits_key)
            if found is None:
                found = remember(_SPLITS, splits_key, _packed_splits(len(tiles), shifts, room))
            self._moves[key] = found
        return found

    def sample_deck(self, rng: random.Random) -> tuple[int, ...]:
        """A deck drawn uniformly among those meeting the per-tile constraints."""
        if not self.exact:
            return self._walk(rng, CHAIN_STEPS * max(1, len(self._chain)))
        caps = self._caps
        if not self._count(0, caps):
            raise SamplingError("no deal meets the deductions of this observation")
        deck = list(self.deal.known)
        slot_tiles: list[list[int]] = [[] for _ in caps]
        for j, (tiles, slots) in enumerate(self._types):
            options = []
            total = 0
            for split in _splits(len(tiles), slots, caps):
                after = _minus(caps, slots, split)
                weight = _multinomial(len(tiles), split) * self._count(j + 1, after)
                if weight:
                    options.append((weight, split, after))
                    total += weight
            pick = rng.randrange(total)
            chosen = 0
            while pick >= options[chosen][0]:
                pick -= options[chosen][0]
                chosen += 1
            _, split, after = options[chosen]
            shuffled = _shuffled(tiles, rng)
            for slot_index, amount in zip(slots, split, strict=True):
                slot_tiles[slot_index].extend(shuffled[:amount])
                shuffled = shuffled[amount:]
            caps = after
        for slot, tiles_here in zip(self.slots, slot_tiles, strict=True):
            for position, tile in zip(slot.positions, _shuffled(tiles_here, rng), strict=True):
                deck[position] = tile
        return _canonical(self.observation, deck)

    def _start_chain(self) -> None:
        """A first assignment meeting the per-tile constraints, by bipartite matching."""
        positions = [p for slot in self.slots for p in slot.positions]
        accepts = {p: slot.accepts for slot in self.slots for p in slot.positions}
        owner: dict[int, int] = {}

        def place(tile: int, seen: set[int]) -> bool:
            for position in positions:
                if accepts[position] >> tile & 1 and position not in seen:
                    seen.add(position)
                    if position not in owner or place(owner[position], seen):
                        owner[position] = tile
                        return True
            return False

        for tile in indices(self.deal.hidden):
            if not place(tile, set()):
                return
        self._positions = positions
        self._accepts = [accepts[p] for p in positions]
        self._chain = [owner[p] for p in positions]

    def _walk(self, rng: random.Random, steps: int) -> tuple[int, ...]:
        """Swap tiles between hidden positions (pairs and triples), keeping the constraints."""
        chain, accepts = self._chain, self._accepts
        n = len(chain)
        for _ in range(steps if n > 1 else 0):
            i, j = rng.randrange(n), rng.randrange(n)
            if rng.randrange(2) and n > 2:
                k = rng.randrange(n)
                if len({i, j, k}) == 3:
                    a, b, c = chain[i], chain[j], chain[k]
                    if accepts[i] >> c & 1 and accepts[j] >> a & 1 and accepts[k] >> b & 1:
                        chain[i], chain[j], chain[k] = c, a, b
                continue
            a, b = chain[i], chain[j]
            if accepts[i] >> b & 1 and accepts[j] >> a & 1:
                chain[i], chain[j] = b, a
        deck = list(self.deal.known)
        for position, tile in zip(self._positions, chain, strict=True):
            deck[position] = tile
        return _canonical(self.observation, deck)

    def sample(self, rng: random.Random, max_attempts: int = MAX_ATTEMPTS) -> GameState:
        """A consistent state (rejection of the deals the public history rules out)."""
        if not self.exact and not self._chain:
            raise SamplingError("no deal meets the deductions of this observation")
        for _ in range(max_attempts):
            self.attempts += 1
            if self.exact:
                deck = self.sample_deck(rng)
            else:
                deck = self._walk(rng, CHAIN_STEPS * max(1, len(self._chain)))
            state = replay(self.observation, deck, rng.getrandbits(64))
            if state is not None:
                self.accepted += 1
                return state
        raise SamplingError(f"no consistent deal found in {max_attempts} attempts")


def _merged(slots: tuple[Slot, ...]) -> tuple[Slot, ...]:
    """The slots with those that accept the same tiles taken together."""
    by_accepts: dict[int, list[Slot]] = {}
    for slot in slots:
        by_accepts.setdefault(slot.accepts, []).append(slot)
    return tuple(
        Slot(tuple(p for s in same for p in s.positions), accepts, same[0].seat, same[0].kind)
        for accepts, same in by_accepts.items()
    )


def replay(observation: Observation, deck: tuple[int, ...], seed: int = 0) -> GameState | None:
    """
    The state reached by dealing ``deck`` (laid out as :func:`bendolib.observation.deck_layout`
    says) and replaying the round's public history, if it gives exactly
    ``observation``; None otherwise.
    """
    obs = observation
    if obs.start is not None:
        state: GameState | None = _origin(obs, deck, seed)
    else:
        state = _dealt(obs, deck, seed)
    if state is None:
        return None
    for turn in obs.history:
        if state.phase != PLAYING or state.current_player != turn.player:
            return None
        try:
            state = apply(state, turn.move)
        except BendolibError:
            return None
    if observe(state, obs.player) != obs:
        return None
    return state


def _dealt(obs: Observation, deck: tuple[int, ...], seed: int) -> GameState | None:
    """The round dealt from ``deck`` with the match as ``obs`` shows it."""
    players = obs.players
    round_points = (0,) * players
    results = obs.results
    if obs.phase != PLAYING and results and results[-1].round_number == obs.round_number:
        round_points = results[-1].points
        results = results[:-1]
    scores = tuple(
        s - p - r for s, p, r in zip(obs.scores, obs.play_points, round_points, strict=True)
    )
    return deal_from(obs.rules, players, deck, seed, obs.round_number, scores, results)


def _origin(obs: Observation, deck: tuple[int, ...], seed: int) -> GameState:
    """The position ``obs.start`` describes, its hidden tiles taken from ``deck``."""
    start = obs.start
    assert start is not None
    layout = deck_layout(obs)
    hands = []
    for first, size in layout.hands:
        mask = 0
        for tile in deck[first : first + size]:
            mask |= 1 << tile
        hands.append(mask)
    if start.current_player == obs.player:
        drawn = start.drawn_mask
    else:
        drawn = 0
        first, size = layout.drawn
        for tile in deck[first : first + size]:
            drawn |= 1 << tile
    origin = GameState.create(
        rules=obs.rules,
        players=obs.players,
        seed=seed,
        round_number=start.round_number,
        deck=deck,
        stock_pos=layout.stock,
        hand_masks=tuple(hands),
        board=start.board,
        current_player=start.current_player,
        scores=start.scores,
        opening=start.opening,
        drawn=drawn,
        drawn_count=start.drawn_count,
        direction=start.direction,
        out=start.out,
        play_points=start.play_points,
        results=start.results,
        phase=start.phase,
        last_placer=start.last_placer,
        match_winner=start.match_winner,
    )
    return origin.replace(origin=origin)


def _canonical(obs: Observation, deck: list[int]) -> tuple[int, ...]:
    """
    The deck with each hand's block sorted (the order inside a hand means nothing;
    the tiles the player to move had drawn before a loaded position, apart).
    """
    layout = deck_layout(obs)
    blocks = list(layout.hands)
    drawn_first, drawn_count = layout.drawn
    if drawn_count:
        blocks.append(layout.drawn)
    for first, size in blocks:
        if drawn_count and first < drawn_first < first + size:
            size = drawn_first - first
        deck[first : first + size] = sorted(deck[first : first + size])
    if layout.aside[1]:
        first, size = layout.aside
        deck[first : first + size] = sorted(deck[first : first + size])
    return tuple(deck)


def _splits(n: int, slots: tuple[int, ...], caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to put ``n`` tiles into ``slots`` without exceeding their capacities."""
    out: list[tuple[int, ...]] = []
    room = [caps[s] for s in slots]

    after = [0] * len(room)
    for k in range(len(room) - 2, -1, -1):
        after[k] = after[k + 1] + room[k + 1]

    def fill(k: int, left: int, prefix: tuple[int, ...]) -> None:
        if k == len(room) - 1:
            if left <= room[k]:
                out.append((*prefix, left))
            return
        for amount in range(max(0, left - after[k]), min(left, room[k]) + 1):
            fill(k + 1, left - amount, (*prefix, amount))

    if not slots:
        return [()] if n == 0 else []
    fill(0, n, ())
    return out


#: :func:`_packed_splits` by (tiles, the shifts, -1, the rooms): the observations of one
#: game share many (the listings are read, never changed).
_SPLITS: dict[tuple[int, ...], list[tuple[int, int]]] = {}


def _packed_splits(n: int, shifts: list[int], room: list[int]) -> list[tuple[int, int]]:
    """
    :func:`_splits` of ``n`` tiles into slots of capacities ``room``, in the same order,
    each as (the amounts packed at ``shifts``, the multinomial ``n! / prod(amount!)``).
    """
    # a slot without room takes 0 in every split: the others' order is unchanged
    used = [(at, r) for at, r in zip(shifts, room, strict=True) if r]
    if n == 1:  # most types are a single tile: the last slot's split comes first
        return [(1 << at, 1) for at, _ in reversed(used)]
    if not used:
        return [(0, 1)] if n == 0 else []
    out: list[tuple[int, int]] = []
    last = len(used) - 1
    if last == 0:
        return [(n << used[0][0], 1)] if n <= used[0][1] else []
    after = [0] * len(used)
    for k in range(last - 1, -1, -1):
        after[k] = after[k + 1] + used[k + 1][1]
    end = used[last][0]

    def fill(k: int, left: int, taken: int, ways: int) -> None:
        at, r = used[k]
        amounts = range(max(0, left - after[k]), min(left, r) + 1)
        if k == last - 1:  # the last slot takes what is left (at most its room)
            for amount in amounts:
                rest = left - amount
                ways_here = ways // factorial(amount) // factorial(rest)
                out.append((taken + (amount << at) + (rest << end), ways_here))
            return
        for amount in amounts:
            fill(k + 1, left - amount, taken + (amount << at), ways // factorial(amount))

    fill(0, n, 0, factorial(n))
    return out


def _over(budget: int, n: int, room: list[int]) -> bool:
    """True when ``n`` tiles have ``budget`` or more :func:`_splits` into ``room``."""
    bound = 1  # the splits are fewer than the choices of each slot's amount
    for r in room:
        if r:
            bound *= min(r, n) + 1
            if bound >= budget:
                return _split_count(n, room) >= budget
    return False


def _split_count(n: int, room: list[int]) -> int:
    """The number of :func:`_splits` of ``n`` tiles into slots of capacities ``room``."""
    ways = [1] + [0] * n
    for r in room:
        if r:
            ways = [sum(ways[max(0, t - r) : t + 1]) for t in range(n + 1)]
    return ways[n]


def _minus(
    caps: tuple[int, ...], slots: tuple[int, ...], split: tuple[int, ...]
) -> tuple[int, ...]:
    after = list(caps)
    for slot, amount in zip(slots, split, strict=True):
        after[slot] -= amount
    return tuple(after)


def _multinomial(n: int, split: tuple[int, ...]) -> int:
    value = factorial(n)
    for amount in split:
        value //= factorial(amount)
    return value


def _shuffled(items: tuple[int, ...] | list[int], rng: random.Random) -> list[int]:
    """A uniformly shuffled copy (Fisher-Yates with ``randrange``, stable across Pythons)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
