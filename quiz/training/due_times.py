"""When a trainee's cards fall due, up to a moment: the count of due cards at any time before
it, without asking the database again (the sidebar's count, ``quiz.ui.shell``)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import datetime
from typing import Mapping

from quiz.training.scheduling import as_utc


@dataclass(frozen=True)
class DueTimes:
    """The due moments of the cards that are due at ``until`` (so also of those due before).

    ``count_at(now)`` is exact for any ``now`` before ``until`` as long as no schedule changed
    meanwhile other than through ``answered``."""

    until: datetime
    dues: Mapping[str, datetime]  # card id -> its due moment (UTC), each at or before ``until``
    _sorted: list[datetime] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "until", as_utc(self.until))
        object.__setattr__(self, "dues", {card: as_utc(due) for card, due in self.dues.items()})
        object.__setattr__(self, "_sorted", sorted(self.dues.values()))

    def holds_at(self, now: datetime) -> bool:
        """Whether ``count_at(now)`` can be answered from these moments."""
        return as_utc(now) < self.until

    def count_at(self, now: datetime) -> int:
        """How many of the cards are due at ``now`` (due at or before it)."""
        return bisect_right(self._sorted, as_utc(now))

    def answered(self, card_id: str, next_due: datetime) -> DueTimes:
        """These moments after an answer moved ``card_id``'s schedule on to ``next_due``."""
        dues = {card: due for card, due in self.dues.items() if card != card_id}
        if as_utc(next_due) <= self.until:
            dues[card_id] = next_due
        return DueTimes(self.until, dues)
