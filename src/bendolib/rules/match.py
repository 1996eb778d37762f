"""Match policy: the target score, the sides that score together, and who wins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from bendolib.errors import RuleSetError


def round_sides(sides: Sequence[Sequence[int]], winners: Sequence[int]) -> tuple[int, ...]:
    """The sides of the seats ``winners`` (a round's winners), in side order."""
    return tuple(i for i, side in enumerate(sides) if any(s in side for s in winners))


def match_winner(
    match: Match, side_scores: Sequence[int], round_sides: Sequence[int]
) -> int | None:
    """
    ``match.winner``, told the round's winning sides only under ``several="round_winner"``
    (a match policy written before that option takes the side scores alone).
    """
    if getattr(match, "several", "highest") == "round_winner":
        return match.winner(side_scores, round_sides)
    return match.winner(side_scores)


def _freeze_teams(teams: Sequence[Sequence[int]] | None) -> tuple[tuple[int, ...], ...] | None:
    if teams is None:
        return None
    return tuple(tuple(int(s) for s in team) for team in teams)


#: One side per seat, by number of players.
_SOLO = tuple(tuple((s,) for s in range(players)) for players in range(16))


@attrs.frozen
class Match:
    """
    Rounds are played until a side reaches ``target``.

    ``teams`` lists the seats of each team (partners), or ``None`` when everyone
    plays alone.  When several sides reach the target in the same round, ``several``
    decides: the highest total wins (``"highest"``; a tie for highest plays another
    round), or the side that won that round, when it is one of them and alone
    (``"round_winner"``, the published Triominoes rule; otherwise as ``"highest"``).

    ``target_check``: with points scored in play (All Five), the match ends at the
    placement that takes a side to the target (``"at_once"``: "the first player to
    reach 200 points wins the game", seeds/000; the round stops there and its end
    scores nothing), or the target is looked at only when a round ends
    (``"round_end"``).  Rule sets that score only at a round's end play the same
    either way.
    """

    target: int = 100
    teams: tuple[tuple[int, ...], ...] | None = attrs.field(default=None, converter=_freeze_teams)
    target_check: Literal["at_once", "round_end"] = "at_once"
    several: Literal["highest", "round_winner"] = "highest"
    _seats: int = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        count = -1 if self.teams is None else sum(len(team) for team in self.teams)
        object.__setattr__(self, "_seats", count)
        if self.target_check not in ("at_once", "round_end"):
            raise RuleSetError(
                f"unknown target_check {self.target_check!r}; use 'at_once' or 'round_end'"
            )
        if self.several not in ("highest", "round_winner"):
            raise RuleSetError(f"unknown several {self.several!r}; use 'highest' or 'round_winner'")
        if self.target < 1:
            raise RuleSetError(f"target must be positive, not {self.target}")
        if self.teams is not None:
            seats = sorted(s for team in self.teams for s in team)
            if seats != list(range(len(seats))) or len(self.teams) < 2:
                raise RuleSetError(f"teams must split seats 0..n-1 into sides: {self.teams}")

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The scoring sides for ``players`` seats."""
        if self.teams is None:
            return _SOLO[players] if players < len(_SOLO) else tuple((s,) for s in range(players))
        if self._seats != players:
            raise RuleSetError(f"the teams {self.teams} need {players} players")
        return self.teams

    def winner(self, side_scores: Sequence[int], round_sides: Sequence[int] = ()) -> int | None:
        """
        The winning side, or ``None`` while the match goes on; ``round_sides``: the
        sides that won the round just ended (read under ``several="round_winner"``).
        """
        best = max(side_scores)
        if best < self.target:
            return None
        if self.several == "round_winner":
            reached = [i for i, s in enumerate(side_scores) if s >= self.target]
            won = [i for i in reached if i in round_sides]
            if len(reached) > 1 and len(won) == 1:
                return won[0]
        leaders = [i for i, s in enumerate(side_scores) if s == best]
        return leaders[0] if len(leaders) == 1 else None
