"""LocalSession: the controller a match window talks to (toy game, no window)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toy import GAME, toy_bots

from soccerdesk.rules import CorruptRecord
from soccerdesk.ui.session import LocalSession, Player

HUMAN = Player("human", "Ann")
BOT = Player("bot", "Bot", "first")


def _session(players: tuple[Player, Player], tmp_path: Path | None = None, **kw: object) -> LocalSession:
    autosave = tmp_path / "auto.json" if tmp_path else None
    return LocalSession(GAME, players, seed=3, autosave=autosave, bot_factory=toy_bots, **kw)  # type: ignore[arg-type]


def test_views_are_of_the_human_seat_and_chance_is_resolved(qtbot) -> None:
    session = _session((HUMAN, BOT))
    views: list[dict] = []
    session.view_changed.connect(lambda view, events: views.append(view))
    session.start()
    assert views and views[-1]["seat"] == 0
    assert views[-1]["legal"] == ["show 1", "show 2"]  # the coin toss is already done
    session.close()


def test_bot_answers_off_the_ui_thread_and_match_reaches_the_end(qtbot, tmp_path: Path) -> None:
    session = _session((HUMAN, BOT), tmp_path)
    summaries: list[dict] = []
    session.finished.connect(summaries.append)
    session.start()
    for _ in range(40):
        if summaries:
            break
        if session.viewer() in session.state.current_players():
            session.submit("show 2")  # the bot shows 1: an odd sum, a goal every time
        qtbot.waitUntil(lambda: bool(summaries) or 0 in session.state.current_players(), timeout=3000)
    assert summaries and max(summaries[0]["score"]) == 2
    session.flush_autosave()
    saved = json.loads((tmp_path / "auto.json").read_text())
    assert GAME.load(saved) == session.state  # autosave after every action
    assert LocalSession.players_of(saved) == (HUMAN, BOT)
    session.close()


def test_illegal_text_is_refused_with_the_reason(qtbot) -> None:
    session = _session((HUMAN, BOT))
    reasons: list[str] = []
    session.refused.connect(reasons.append)
    session.start()
    session.submit("show 7")
    assert reasons and "not an action" in reasons[0]


def test_hot_seat_hands_over_before_showing_the_next_secret(qtbot) -> None:
    session = _session((HUMAN, Player("human", "Ben")))
    views: list[dict] = []
    handovers: list[tuple[int, str]] = []
    session.view_changed.connect(lambda view, events: views.append(view))
    session.handover.connect(lambda seat, name: handovers.append((seat, name)))
    session.start()
    session.submit("show 2")
    assert handovers == [(1, "Ben")]
    shown = len(views)
    session.submit("show 1")  # nobody may play for Ben before he takes the screen
    assert len(views) == shown
    session.take_over()
    assert views[-1]["seat"] == 1 and views[-1]["state"]["mine"] is None


def test_undo_never_goes_back_over_a_reveal(qtbot) -> None:
    # In odds and evens every choice is simultaneous: nothing can be taken back.
    session = _session((HUMAN, BOT))
    session.start()
    session.submit("show 1")
    qtbot.waitUntil(lambda: session.state.ply >= 3, timeout=3000)
    assert not session.can_undo()
    reasons: list[str] = []
    session.refused.connect(reasons.append)
    session.undo()
    assert reasons and "cannot be taken back" in reasons[0]


def test_resume_from_a_record_and_refuse_a_corrupt_one(qtbot) -> None:
    first = _session((HUMAN, BOT))
    first.start()
    first.submit("show 2")
    qtbot.waitUntil(lambda: first.state.ply >= 3, timeout=3000)
    record = first.record()
    resumed = LocalSession(GAME, (HUMAN, BOT), record=record, bot_factory=toy_bots)
    assert resumed.state == first.state
    with pytest.raises(CorruptRecord):
        LocalSession(GAME, (HUMAN, BOT), record={**record, "actions": [[0, "nonsense"]]}, bot_factory=toy_bots)


def test_a_broken_bot_process_falls_back_to_a_bot_in_this_process(qtbot) -> None:
    """The match goes on when the bot process dies (or cannot be used at all)."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    class BrokenPool:
        def submit(self, *args: object) -> Future:
            raise BrokenProcessPool("the bot process died")

    session = LocalSession(GAME, (HUMAN, BOT), seed=3, bot_factory=toy_bots, bot_pool=BrokenPool())  # type: ignore[arg-type]
    session.start()
    session.submit("show 2")
    qtbot.waitUntil(lambda: 0 in session.state.current_players() or session.state.is_terminal(), timeout=3000)
    assert session.state.ply == 3 and sum(session.state.score) == 1  # toss, our card, the bot's card
    session.close()


def test_a_resumed_session_tells_every_past_event_in_order_with_its_ply(qtbot) -> None:
    """Issue 13.4: a resumed match's log was empty."""
    first = _session((HUMAN, BOT))
    told: list[dict] = []
    first.view_changed.connect(lambda view, events: told.extend(events))
    first.start()
    first.submit("show 2")
    qtbot.waitUntil(lambda: first.state.ply >= 3 and first.viewer() == 0, timeout=3000)
    record = first.record()
    first.close()
    resumed = LocalSession(GAME, (HUMAN, BOT), record=record, bot_factory=toy_bots)
    again: list[dict] = []
    resumed.view_changed.connect(lambda view, events: again.extend(events))
    resumed.start()
    assert [e["text"] for e in again] == [e["text"] for e in told[: len(again)]] and again
    assert [e["ply"] for e in again] == sorted(e["ply"] for e in again)
    resumed.close()


@pytest.mark.parametrize("saved", [125, 12.5, "125", -3, True, None, 1e12])
def test_time_played_is_read_from_a_record_and_anything_odd_counts_as_none(saved: object) -> None:
    from soccerdesk.ui.session import APP_KEY, played_seconds

    expected = float(saved) if type(saved) in (int, float) and 0 <= saved < 1e8 else 0.0  # type: ignore[operator]
    assert played_seconds({APP_KEY: {"played_seconds": saved}}) == expected
    assert played_seconds({}) == 0.0


def test_a_locked_match_file_cannot_be_opened_twice(tmp_path: Path) -> None:
    from soccerdesk.ui.session import MatchFileInUse, lock_match_file

    path = tmp_path / "match.json"
    lock = lock_match_file(path)
    with pytest.raises(MatchFileInUse, match="another soccerdesk window") as refused:
        lock_match_file(path)
    assert refused.value.path == path and refused.value.pid > 0
    lock.unlock()
    lock_match_file(path).unlock()


def test_while_the_bot_thinks_the_status_says_whose_move_it_is_not_again_that_it_thinks(qtbot) -> None:
    """The match screen's busy line already says the computer is thinking
    (test_a_local_match_still_says_the_computer_is_thinking); the status said "Bot is
    thinking…" beside it, the same thing twice. And once the person had made their secret
    pick (both pick at once in the toy game), it still said "Ann to play" while only the
    bot was left to pick."""
    session = _session((HUMAN, BOT))
    said: list[str] = []
    busy: list[bool] = []
    session.status.connect(said.append)
    session.busy.connect(busy.append)
    session.start()
    session.submit("show 2")
    assert said[-1] == "Bot to play" and busy[-1] and session.state.current_players() == (1,)
    assert not any("thinking" in text for text in said)
    qtbot.waitUntil(lambda: said[-1] == "Ann to play", timeout=3000)
    session.close()
