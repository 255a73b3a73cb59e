"""The bot process (soccerdesk.ui.bot_pool): it thinks at a lower priority than the window."""

from __future__ import annotations

import os

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
