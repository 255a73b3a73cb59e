"""The bot process (soccerdesk.ui.bot_pool): it thinks at a lower priority than the window."""

from __future__ import annotations

import os
import random
import signal
import time
from typing import Any

import pytest

from soccerdesk.bots.bts_particles import ParticleBelief
from soccerdesk.bots.levels import search_bot
from soccerdesk.rules import get_game
from soccerdesk.ui import bot_pool
from tests.match_positions import watched_match


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


def _decisions_of(state: Any, seat: int) -> list[int]:
    """The numbers of actions after which ``seat`` alone decides among two or more actions."""
    game = get_game("big-time-soccer")
    history = state.history()
    found = []
    for n in range(len(history)):
        if history[n][0] == seat:
            before = game.load(game.dump(state), upto=n)
            if len(before.legal_actions(seat)) > 1:
                found.append(n)
    return found


def test_a_kept_bots_belief_begins_again_for_a_new_match_an_undo_and_a_resumed_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot process keeps one bot per (name, game, seat) between turns. Big Time Soccer's
    search levels' belief follows the match (ParticleBelief): kept, it goes on from where it
    was; in another match, after an undo, or when a saved match is opened again, it begins
    again and holds what a new one would."""
    monkeypatch.setattr(bot_pool, "_bots", {})
    monkeypatch.setattr(bot_pool, "_last", {})
    bot = search_bot("big-time-soccer", None, "expert", max_iterations=4)  # expert: every decision searched
    bot_pool._bots["expert", "big-time-soccer", 0] = bot
    game = get_game("big-time-soccer")
    first = watched_match(60008, 420)[-1]
    other = watched_match(60009, 300)[-1]
    cuts = [n for n in _decisions_of(first, 0) if n > 120]
    early, middle, late = cuts[0], cuts[len(cuts) // 2], cuts[-1]

    def think_at(match: Any, upto: int) -> Any:
        record = game.dump(game.load(game.dump(match), upto=upto))
        text, error = bot_pool.think("big-time-soccer", record, 0, "expert", 7)
        assert text and not error
        assert bot_pool._bots["expert", "big-time-soccer", 0] is bot
        replay = bot.belief._replay  # type: ignore[attr-defined]
        fresh = ParticleBelief()
        fresh.worlds(game.load(record).determinize(0, random.Random(0)), 0)
        return replay, fresh._replay

    def same(replay: Any, fresh: Any) -> bool:
        return (replay.hands, replay.weights, replay.first, replay.items) == (
            fresh.hands,
            fresh.weights,
            fresh.first,
            fresh.items,
        )

    replay, fresh = think_at(first, middle)
    assert replay.first > 0 and same(replay, fresh)  # met halfway: the last decisions weighed
    begun_at = replay.first
    replay, fresh = think_at(first, late)  # the match goes on: the filter with it
    assert replay.first == begun_at < fresh.first and len(replay.items) == late
    replay, fresh = think_at(first, early)  # an undo
    assert same(replay, fresh)
    replay, fresh = think_at(other, _decisions_of(other, 0)[-1])  # another match
    assert same(replay, fresh)
    replay, fresh = think_at(first, late)  # the first match opened again
    assert same(replay, fresh)
