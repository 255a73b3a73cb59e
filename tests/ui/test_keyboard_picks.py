"""The keyboard's pick on the match screen, as a keyboard player makes it (keyboard audit)."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path

from driving import ready
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from soccerdesk.bots import RandomBot
from soccerdesk.rules import Action, State, get_game
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView
from soccerdesk.ui.session import LocalSession, Player


class HeldBot(RandomBot):
    """A random bot that answers only when the test lets it: its secret pick arrives at a
    moment the test chooses."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.asked = 0
        self.gate = threading.Semaphore(0)

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        self.asked += 1
        self.gate.acquire(timeout=30)
        return super().choose(state, seat, legal, rng)


def test_soccer_go_the_keyboard_pick_stays_when_the_computers_secret_pick_arrives(qtbot) -> None:
    """Keyboard audit 3: Tab picked "Pass to number 1"; the computer's secret pick arrived with
    the same choices and threw the pick away, so two more Tabs played the 2nd pass, not the 3rd."""
    bots: list[HeldBot] = []

    def held(name: str, game_id: str) -> HeldBot:
        bots.append(HeldBot(game_id))
        return bots[-1]

    players = (Player("human", "Home"), Player("bot", "Away", bot="random"))
    session = LocalSession(get_game("soccer-go"), players, seed=2, bot_factory=held)
    view = MatchView(session, speed="off")
    qtbot.addWidget(view)
    view.resize(1200, 780)
    view.show()
    session.start()
    view.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is view)
    (bot,) = bots
    answered = 0

    def key(key: Qt.Key) -> None:
        QTest.keyClick(view.windowHandle(), key)

    for _ in range(60):
        qtbot.waitUntil(lambda answered=answered: ready(view) or bot.asked > answered, timeout=10_000)
        both = set(session.state.current_players()) == {0, 1}
        if bot.asked > answered and not (both and ready(view)):
            answered += 1
            bot.gate.release()  # the computer alone decides: let it
            continue
        if not (both and bot.asked > answered):
            key(Qt.Key.Key_Tab)
            key(Qt.Key.Key_Return)
            continue
        # Both pick at once and the computer has not picked yet.
        shown, choices = view.view_data, view.board.keyboard_actions()
        assert len(choices) >= 3
        key(Qt.Key.Key_Tab)
        assert view.keyboard_label.text().endswith(f"(1/{len(choices)})")
        answered += 1
        bot.gate.release()
        qtbot.waitUntil(lambda shown=shown: view.view_data is not shown and ready(view), timeout=10_000)
        assert view.board.keyboard_actions() == choices  # the same decision, the computer's pick hidden
        assert view.keyboard_label.text().endswith(f"(1/{len(choices)})"), view.keyboard_label.text()
        key(Qt.Key.Key_Tab)
        key(Qt.Key.Key_Tab)
        assert view.keyboard_label.text().endswith(f"(3/{len(choices)})")
        key(Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: any(seat == 0 for seat, _ in session.record()["actions"][-2:]), timeout=10_000)
        mine = [text for seat, text in session.record()["actions"] if seat == 0]
        assert mine[-1] == choices[2]
        break
    else:
        raise AssertionError("no decision where both sides pick at once")
    session.close()


def test_pawn_soccer_arrow_keys_move_on_from_the_ball_carriers_kick(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """Keyboard audit 5: with the ball carrier's kick or move picked (its last click is the Kick
    or Move choice beside the board, with no place on it), all four arrow keys did nothing."""
    record = {
        "format": "soccerdesk-match",
        "version": 1,
        "game": "pawn-soccer",
        "seed": 1,
        "options": {},
        "actions": [
            [0, "place E1"], [1, "place F10"], [0, "place F1"], [1, "place B9"], [0, "place A2"], [1, "place D10"],
            [0, "place C4"], [1, "place E10"], [0, "place F5"], [1, "place A10"], [0, "place E2"], [1, "place E7"],
            [-1, "toss blue"], [0, "kickoff E2"],
        ],
        "app": {"players": [Player("human", "Home").to_json(), Player("bot", "Away", bot="easy").to_json()]},
    }  # fmt: skip
    path = tmp_path / "kick.json"
    path.write_text(json.dumps(record))
    assert window.open_path(path)
    view = window.match_view
    assert view is not None
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)

    def key(key: Qt.Key) -> None:
        QTest.keyClick(window.windowHandle(), key)

    for _ in range(20):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        actions = view.board.keyboard_actions()
        kicks = [text for text in actions if view.board.pos_of(view.board.paths.paths[text][-1]) is None]
        if kicks:
            break
        key(Qt.Key.Key_Tab)
        key(Qt.Key.Key_Return)
    else:
        raise AssertionError("the ball carrier never had a kick to pick")
    moved = 0
    for arrow in (Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_Right, Qt.Key.Key_Down):
        key(Qt.Key.Key_Escape)  # let go of the pick: Tab starts from the first again
        for _ in range(actions.index(kicks[0]) + 1):
            key(Qt.Key.Key_Tab)
        assert view.board.preview == kicks[0]
        key(arrow)
        moved += view.board.preview != kicks[0]
        assert "Enter plays:" in view.keyboard_label.text()
    assert moved >= 2, moved
