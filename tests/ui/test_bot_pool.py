"""The bot process (soccerdesk.ui.bot_pool): it thinks at a lower priority than the window."""

from __future__ import annotations

import os
import signal
import time

import pytest

from soccerdesk.ui import bot_pool


@pytest.mark.skipif(not hasattr(os, "nice"), reason="process priorities by nice level are a Unix feature")
def test_the_bot_process_gives_way_to_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A searching bot must not take CPU time the window needs to draw (a busy or one-core machine)."""
    monkeypatch.setattr(bot_pool, "_pool", None)  # a pool of this test's own, shut down below
    pool = bot_pool.shared_bot_pool()
    try:
        worker_nice = pool.submit(os.nice, 0).result(timeout=60)
        assert worker_nice >= os.nice(0) + bot_pool.BOT_NICENESS or worker_nice == 19
        assert pool.submit(bot_pool.warm_up, "soccer-go", "random").result(timeout=60) == "ready"
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _fail() -> None:
    raise ValueError("a bot bug")


def test_answers_come_back_in_order_and_errors_as_exceptions() -> None:
    pool = bot_pool.BotProcess()
    try:
        futures = [pool.submit(pow, 2, n) for n in range(5)]
        assert [f.result(timeout=60) for f in futures] == [1, 2, 4, 8, 16]
        with pytest.raises(ValueError, match="a bot bug"):
            pool.submit(_fail).result(timeout=60)
        assert pool.submit(pow, 3, 2).result(timeout=60) == 9  # the process outlives a failed call
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def test_shutdown_while_a_call_runs_ends_the_process_at_once() -> None:
    """Quitting while a bot thinks: the running call fails, queued ones are cancelled, nothing waits."""
    pool = bot_pool.BotProcess()
    running = pool.submit(_sleep, 30.0)
    queued = pool.submit(_sleep, 0.0)
    deadline = time.monotonic() + 60
    while pool.running != "_sleep" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.running == "_sleep"
    process = pool._process
    assert process is not None and process.is_alive()
    started = time.monotonic()
    pool.shutdown(wait=True, cancel_futures=True)
    assert time.monotonic() - started < 10  # not the 30 s the call would take
    assert queued.cancelled()
    with pytest.raises(bot_pool.BotProcessGone, match="shut down"):
        running.result(timeout=0)
    assert pool._process is None and pool.running is None
    with pytest.raises(RuntimeError):  # callers fall back to thinking in their own process
        pool.submit(pow, 2, 2)


def test_shutdown_without_cancelling_answers_the_queued_calls_first() -> None:
    pool = bot_pool.BotProcess()
    futures = [pool.submit(_sleep, 0.05) for _ in range(3)]
    pool.shutdown(wait=True)
    assert [f.result(timeout=0) for f in futures] == [0.05, 0.05, 0.05]


def test_a_dead_bot_process_fails_its_calls_and_refuses_new_ones() -> None:
    """The process killed from outside: the caller learns it at once, and is never left waiting."""
    pool = bot_pool.BotProcess()
    try:
        running = pool.submit(_sleep, 30.0)
        queued = pool.submit(_sleep, 0.0)
        deadline = time.monotonic() + 60
        while pool.running != "_sleep" and time.monotonic() < deadline:
            time.sleep(0.01)
        process = pool._process
        assert process is not None and process.pid is not None
        os.kill(process.pid, signal.SIGKILL)
        with pytest.raises(bot_pool.BotProcessGone, match="ended unexpectedly"):
            running.result(timeout=30)
        with pytest.raises(bot_pool.BotProcessGone):
            queued.result(timeout=30)
        with pytest.raises(RuntimeError):
            pool.submit(pow, 2, 2)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def test_a_bot_process_that_cannot_start_fails_its_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spawning refused (a script without a ``__main__`` guard): the calls fail at once, so the
    session falls back to thinking in its own process instead of waiting for ever."""

    def refuse(self: bot_pool.BotProcess) -> None:
        raise RuntimeError("An attempt has been made to start a new process before bootstrapping")

    monkeypatch.setattr(bot_pool.BotProcess, "_start_process", refuse)
    pool = bot_pool.BotProcess()
    try:
        first = pool.submit(pow, 2, 2)
        with pytest.raises(bot_pool.BotProcessGone, match="could not start: An attempt"):
            first.result(timeout=30)
        with pytest.raises(bot_pool.BotProcessGone):
            pool.submit(pow, 2, 2)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
