"""A finished online match, resumed, logs how it ended below its moves (QA pass 16, finding 9).

Bob came back to a match Alice had claimed after his countdown: his log's first line was
"Alice wins: you did not come back.", above the coin toss. The match's end reached his screen
before the moves waiting to be shown, and was logged at once.
"""

from __future__ import annotations

from pathlib import Path

from test_online import run_on_qt_loop, two_players, until
from test_online_truth import claim_by_clicking, come_back, screen


def test_the_ending_is_the_last_line_of_a_resumed_log(qtbot, tmp_path: Path) -> None:
    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, abandon_seconds=1)
        room, token = bob.room, bob.token
        try:
            mine, _ = screen(qtbot, alice)
            await until(lambda: bob.view is not None and bob.seat in bob.view["to_move"])
            await bob.drop()
            await claim_by_clicking(qtbot, mine, "Take the win")
            await until(lambda: mine.stack.currentWidget() is mine.summary_page)
            back = await come_back(relay, room, token)
            theirs, _ = screen(qtbot, back, back.told)
            await until(lambda: theirs.stack.currentWidget() is theirs.summary_page)
            lines = theirs.log_lines()
            ending = "Alice wins: you did not come back."
            assert lines.count(ending) == 1 and lines[-1] == ending, lines
            assert any(line.startswith("Coin toss") for line in lines[:-1]), lines
            theirs.session.close()
            await back.close()
        finally:
            mine.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)
