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
import random
import threading
import time
import traceback
from concurrent.futures import Executor
from typing import Any

from soccerdesk.bots import Bot, make_bot
from soccerdesk.rules import State, get_game

_bots: dict[tuple[str, str, int], Bot] = {}  # in the worker: one bot per (name, game, seat), kept between turns
_last: dict[str, tuple[dict[str, Any], State]] = {}  # in the worker: game id -> last record and its state
_pool: Executor | None = None


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
    """The app's one bot process (started on first use, ended when the app exits)."""
    global _pool
    if _pool is None:
        # Imported here: the window should not wait for multiprocessing at start-up.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # spawn: a forked copy of a process running Qt threads is not safe to use.
        _pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
        # Shut down while the interpreter is whole: left to garbage collection at exit, the
        # pool's clean-up runs after its modules are gone and prints an ignored exception.
        atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
    return _pool
