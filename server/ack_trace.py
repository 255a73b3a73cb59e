"""Where the time between an action and its acknowledgement goes, for the relay benchmark.

Off unless the environment variable ``SOCCERDESK_ACK_TRACE`` names a file: then the relay
records, for each stage of the acknowledgement path, when it happened and how long it took,
and writes them to that file (JSON) when it stops. ``benchmarks/relay_load.py --trace`` sets it
and prints the stages' percentiles over its measured window. The stages:

``frame_wait``   a frame queued on a connection until it is handed to the socket: the wait for
                 the store's commit (SQLite's at the start of the next loop turn, Redis's
                 reply) and for the connection's writer to run
``write_queued`` (Redis) a write made by a room until its batch is handed to Redis
``round_trip``   (Redis) a batch handed to Redis until its replies are read
``batch_size``   (Redis) writes in one batch (a count, not seconds)
``room_queue``   (Redis) the room's writes waiting, this one included, when a write is made (a count)
``write_acked``  (Redis) a write made by a room until Redis acknowledged it (its room's earlier
                 writes go first, one at a time)
``loop_lag``     how late a 5 ms timer of the event loop fires (every other job's wait for the loop)

Recording costs a ``perf_counter`` call and a list append; nothing is recorded when it is off.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

ENV = "SOCCERDESK_ACK_TRACE"


class AckTrace:
    """Samples ``(time.monotonic() when taken, value)`` per stage, written out by :meth:`save`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.samples: dict[str, list[tuple[float, float]]] = {}
        self._lag: asyncio.Task[None] | None = None

    def add(self, stage: str, value: float) -> None:
        self.samples.setdefault(stage, []).append((time.monotonic(), value))

    def start(self) -> None:
        """Start measuring the event loop's lag (from within the running loop)."""
        if self._lag is None:
            self._lag = asyncio.get_running_loop().create_task(self._measure_lag())

    async def _measure_lag(self) -> None:
        while True:
            due = time.perf_counter() + 0.005
            await asyncio.sleep(0.005)
            self.add("loop_lag", max(0.0, time.perf_counter() - due))

    async def stop(self) -> None:
        if self._lag is not None:
            self._lag.cancel()
            await asyncio.wait([self._lag])
            self._lag = None
        self.save()

    def save(self) -> None:
        Path(self.path).write_text(json.dumps(self.samples))


def _from_env() -> AckTrace | None:
    path = os.environ.get(ENV, "")
    return AckTrace(path) if path else None


TRACE: AckTrace | None = _from_env()
"""The relay's trace, or ``None`` (the usual case: nothing is recorded)."""
