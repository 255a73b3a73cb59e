"""Bots think in a separate process, so the window never waits for them.

A bot thread in the UI process would share the interpreter lock with the UI thread: a
searching bot then holds up every repaint by milliseconds at a time. In a worker process the
UI thread keeps its interpreter to itself.

The worker gets the match record (not the state: a record is small, JSON-able and replays
exactly), replays it, asks the bot and answers the action text. This module imports neither
Qt nor anything of the UI: the worker process loads only the rules and the bots.

The worker is started with "spawn", which imports the program's main module again: a script
that opens soccerdesk windows must keep its work under ``if __name__ == "__main__":`` (the
app's own entry points do).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import random
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

from soccerdesk.bots import Bot, make_bot
from soccerdesk.rules import State, get_game

_bots: dict[tuple[str, str, int], Bot] = {}  # in the worker: one bot per (name, game, seat), kept between turns
_last: dict[str, tuple[dict[str, Any], State]] = {}  # in the worker: game id -> last record and its state
_pool: BotProcess | None = None


def warm_up(game_id: str, bot_name: str) -> str:
    """In the worker: load the game and its bot before the first decision is asked for."""
    get_game(game_id)
    make_bot(bot_name, game_id)
    return "ready"


def think(game_id: str, record: dict[str, Any], seat: int, bot_name: str, seed: int) -> tuple[str, str]:
    """In the worker: the bot's action text for ``seat`` in the position ``record`` reaches.

    Returns ``(text, "")``, or ``("", traceback)`` when the bot failed.
    """
    try:
        state = _replay(game_id, record)
        bot = _bots.get((bot_name, game_id, seat))
        if bot is None:
            bot = _bots[(bot_name, game_id, seat)] = make_bot(bot_name, game_id)
        return str(bot.decide(state, seat, random.Random(seed))), ""
    except Exception:  # the UI falls back to a legal action: a bot bug must not end the match
        return "", traceback.format_exc(limit=4)


def _replay(game_id: str, record: dict[str, Any]) -> State:
    """The state ``record`` reaches, continuing from the last record when this one extends it.

    A match record grows by a few actions between two bot turns; replaying only those keeps
    a long match from costing more with every turn.
    """
    game = get_game(game_id)
    last = _last.get(game_id)
    actions = record["actions"]
    if last is not None:
        before, state = last
        done = before["actions"]
        same_match = all(before[k] == record.get(k) for k in ("seed", "options"))
        if same_match and len(done) <= len(actions) and actions[: len(done)] == done:
            for seat, text in actions[len(done) :]:
                state = state.apply(seat, game.parse_action(text))
            _last[game_id] = (record, state)
            return state
    state = game.load(record)
    _last[game_id] = (record, state)
    return state


BOT_NICENESS = 10
"""How much lower than the window's the bot process's CPU priority is (Unix nice levels).

A search uses all the CPU time it gets, the window needs little but at once: on a busy
machine (a single core, other programs) the window must win, or an animation stutters while
the bot thinks. On an idle machine with a core to spare for each, nothing changes."""


class BotProcessGone(RuntimeError):
    """The bot process ended (shut down, or it died) before it answered."""


_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class BotProcess(Executor):
    """One bot process that runs the calls submitted to it one at a time, in order.

    Not a ``ProcessPoolExecutor``: that one cannot end a worker in the middle of a call, so
    quitting while a bot thinks meant waiting for the search or leaving the worker behind; its
    call queue holds semaphores, which an app ended by a signal leaves to the resource
    tracker's "leaked semaphore" warning; and when its worker dies it sets an error on futures
    that were already cancelled, which raises ``InvalidStateError`` in its manager thread. Here
    the calls travel over a pipe (no semaphores), one thread of this process sends them and
    reads the answers, and :meth:`shutdown` ends the process at once when asked to cancel.

    The process starts with the first call. If it dies, that call's future and every queued one
    get :class:`BotProcessGone`, and later calls to :meth:`submit` raise it (callers fall back to
    thinking in their own process).
    """

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._jobs: deque[_Job] = deque()
        self._closed = False  # no new calls taken
        self._cancel = False  # queued calls cancelled and the process ended without waiting
        self._process: BaseProcess | None = None
        self._thread: threading.Thread | None = None
        self._running: _Job | None = None

    @property
    def running(self) -> str | None:
        """The name of the function the process is running now (``"think"``), or ``None``."""
        with self._lock:
            return None if self._running is None else getattr(self._running[1], "__name__", "?")

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise BotProcessGone("the bot process is shut down")
            self._jobs.append((future, fn, args, kwargs))
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="soccerdesk-bot-process", daemon=True)
                self._thread.start()
            self._lock.notify()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more calls. With ``cancel_futures`` also cancel the queued calls and end the
        process now, dropping a call it is running (its future gets :class:`BotProcessGone`);
        without it the queued calls are answered first. ``wait``: return once the process is gone.
        """
        with self._lock:
            self._closed = True
            if cancel_futures:
                self._cancel = True
                while self._jobs:
                    self._jobs.popleft()[0].cancel()
                if self._process is not None and self._process.is_alive():
                    self._process.terminate()  # the serving thread then reads the end of the pipe
            self._lock.notify()
            thread = self._thread
        if wait and thread is not None and thread is not threading.current_thread():
            thread.join()

    def _serve(self) -> None:
        """On this object's thread: send each call to the process and set its future."""
        connection: Connection | None = None
        try:
            while True:
                with self._lock:
                    while not self._jobs and not self._closed:
                        self._lock.wait()
                    if not self._jobs or self._cancel:
                        return
                    future, fn, args, kwargs = self._jobs.popleft()
                    if not future.set_running_or_notify_cancel():
                        continue  # cancelled while it waited in the queue
                    if connection is None:
                        try:
                            connection = self._start_process()
                        except Exception as exc:  # e.g. spawn refused in a script without a __main__ guard
                            self._fail(future, f"the bot process could not start: {exc}")
                            return
                    self._running = (future, fn, args, kwargs)
                try:
                    connection.send((fn, args, kwargs))
                    ok, value = connection.recv()
                except (OSError, EOFError):  # the process ended: shut down, killed or crashed
                    self._fail(future)
                    return
                finally:
                    with self._lock:
                        self._running = None
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        finally:
            self._end_process(connection)

    def _start_process(self) -> Connection:
        """Under the lock: start the bot process; the end of the pipe this side keeps."""
        import multiprocessing  # here: the window should not wait for multiprocessing at start-up

        # spawn: a forked copy of a process running Qt threads is not safe to use.
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(target=_worker_main, args=(theirs, os.getpid()), name="soccerdesk-bot", daemon=True)
        process.start()
        theirs.close()
        self._process = process
        return ours

    def _fail(self, future: Future[Any], why: str = "") -> None:
        """The process is gone (or never came): ``future`` and every queued call fail; no call is
        taken any more."""
        with self._lock:
            shut_down = self._cancel
            self._closed = True
            jobs, self._jobs = list(self._jobs), deque()
        if not why:
            why = "the bot process was shut down" if shut_down else "the bot process ended unexpectedly"
        future.set_exception(BotProcessGone(why))
        for job in jobs:
            if job[0].set_running_or_notify_cancel():
                job[0].set_exception(BotProcessGone(why))

    def _end_process(self, connection: Connection | None) -> None:
        if connection is not None:
            connection.close()  # the process reads the end of its pipe and returns
        with self._lock:
            process, self._process = self._process, None
        if process is None:
            return
        process.join(timeout=2.0)
        if process.is_alive():
            process.kill()
            process.join()
        process.close()


def _worker_main(connection: Connection, parent: int) -> None:
    """The bot process: run each call that arrives on ``connection`` and send back its answer."""
    # Ctrl+C in a terminal reaches every process of the group: the app decides when this one ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _start_worker(parent)
    while True:
        try:
            fn, args, kwargs = connection.recv()
        except (EOFError, OSError):  # the app closed the pipe or is gone
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except Exception as exc:
            answer = (False, exc)
        try:
            connection.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError):  # an answer or error pickle cannot carry
            connection.send((False, RuntimeError(traceback.format_exc(limit=4))))
        except (BrokenPipeError, OSError):
            return


def _start_worker(parent: int) -> None:
    """In the worker, first thing: lower its priority and watch the app."""
    if hasattr(os, "nice"):  # Unix; Windows keeps the normal priority
        # Where lowering it is refused, thinking at the normal priority still works.
        with contextlib.suppress(OSError):
            os.nice(BOT_NICENESS)
    _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    """In the worker: end this process when the app is gone (even if it crashed or was killed)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="soccerdesk-parent-watch", daemon=True).start()


def shared_bot_pool() -> Executor:
    """The app's one bot process (started on first use; :func:`shutdown_shared_bot_pool` ends it)."""
    global _pool
    if _pool is None:
        _pool = BotProcess()
        # Also at exit, while the interpreter is whole, for a program that does not call it.
        atexit.register(shutdown_shared_bot_pool)
    return _pool


def shutdown_shared_bot_pool() -> None:
    """End the bot process now, dropping a decision it is thinking about (the app is quitting)."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
