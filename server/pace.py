"""Log lines about something that keeps happening (a full disk, a process out of file
descriptors): said when it starts, then at most once in a while, with how many times it
happened meanwhile, so that a relay in trouble does not fill its log with the same line."""

from __future__ import annotations

import time
from collections.abc import Callable


class Pace:
    """When a line about something that keeps happening is due: the first time, then at most once
    every ``every`` seconds of ``clock``.

    :meth:`happened` counts each time, and says how many times it happened since the last line
    (the times the caller has not said yet); :attr:`happening` says whether it has happened since
    :meth:`reset` (whether a line about it is the first).
    """

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self._missed = 0
        self._said: float | None = None

    def happened(self) -> int:
        """It happened once more: how many times since the last line (this one included) if a
        line is due now, else 0 (say nothing)."""
        self._missed += 1
        now = self.clock()
        if self._said is not None and now - self._said < self.every:
            return 0
        self._said = now
        count, self._missed = self._missed, 0
        return count

    @property
    def happening(self) -> bool:
        """Whether it happened since it was last :meth:`reset` (it is going on)."""
        return self._said is not None

    def reset(self) -> None:
        """It stopped happening: the next time is said at once."""
        self._missed = 0
        self._said = None


__all__ = ["Pace"]
