"""Slow work off the event loop: bot decisions and replays of stored matches.

A relay's event loop must answer every connection's ``ping`` within milliseconds, but a
bot's decision may take hundreds of milliseconds and replaying a long stored match
longer still. :class:`Thinker` runs such work in worker threads and gives each job a
time budget; the loop only awaits the answer. The rules are pure functions of frozen
states, so a worker may read a state while the loop goes on with the next one.

Work started on behalf of a client address is counted against that address
(:attr:`Thinker.charge`): a bot's move spends one of the address's messages, so one
address cannot make the relay's bots think faster than it may itself send actions.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

CHARGE_PAUSE = 0.05
"""Seconds to wait before asking again when an address has no message left to spend."""


class Thinker:
    """Worker threads with a time budget per job.

    ``charge(address)`` spends one message of ``address`` and says whether it had one;
    :meth:`run` with ``address`` waits (without blocking the loop) until it has.
    """

    def __init__(self, workers: int = 1, budget: float = 2.0, charge: Callable[[str], bool] | None = None) -> None:
        self.budget = budget
        self.charge = charge
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="relay-think")
        # Work without a budget (replaying a stored match) has a thread of its own, so a long
        # replay never makes the bots' moves wait past their budget.
        self._unbudgeted = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="relay-load")

    async def run(
        self, work: Callable[..., T], *args: Any, budget: float | None = None, address: str | None = None
    ) -> T:
        """``work(*args)`` in a worker; raises :class:`TimeoutError` after ``budget`` seconds
        (``self.budget`` by default; ``0``: no budget). A job that runs out of time finishes
        in its worker and its answer is dropped."""
        if address is not None and self.charge is not None:
            while not self.charge(address):
                await asyncio.sleep(CHARGE_PAUSE)
        limit = self.budget if budget is None else budget
        future = asyncio.get_running_loop().run_in_executor(self._pool if limit else self._unbudgeted, work, *args)
        if not limit:
            return await future
        started = time.monotonic()
        try:
            async with asyncio.timeout(limit):
                return await asyncio.shield(future)
        except TimeoutError:
            raise TimeoutError(f"no answer after {time.monotonic() - started:.1f} s") from None

    def close(self) -> None:
        """Stop taking work; jobs still running finish in their threads."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._unbudgeted.shutdown(wait=False, cancel_futures=True)


__all__ = ["Thinker"]
