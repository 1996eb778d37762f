"""Dealing policy: hand sizes by player count, and tiles turned up on the table."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from bendolib.errors import RuleSetError


def _freeze(sizes: Mapping[int, int] | tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    items = sizes.items() if isinstance(sizes, Mapping) else sizes
    return tuple(sorted((int(p), int(n)) for p, n in items))


@attrs.frozen
class Deal:
    """
    How many tiles each player takes, by player count; ``table_tiles`` more are
    turned up from the stock to open the round (All Five's two back-to-back tiles).
    """

    hand_sizes: tuple[tuple[int, int], ...] = attrs.field(converter=_freeze)
    table_tiles: int = 0

    def __attrs_post_init__(self) -> None:
        if not self.hand_sizes:
            raise RuleSetError("hand_sizes needs at least one player count")
        for players, size in self.hand_sizes:
            if players < 1 or size < 1:
                raise RuleSetError(
                    f"bad hand size {size} for {players} players (each hand needs a tile)"
                )
        if self.table_tiles < 0:
            raise RuleSetError("table_tiles cannot be negative")

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this deal supports."""
        return tuple(p for p, _ in self.hand_sizes)

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each of ``players`` players."""
        for count, size in self.hand_sizes:
            if count == players:
                return size
        raise RuleSetError(f"this deal has no hand size for {players} players")
