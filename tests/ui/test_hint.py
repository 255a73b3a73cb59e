"""The Hint button: asks off the UI thread, shows the search bot's action on the board with a
line of why, counts as given, and drops an answer for a position the match has left."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import Qt

from soccerdesk.bots import make_bot
from soccerdesk.learn import hint
from soccerdesk.rules import CHANCE, State, get_game, sample_chance
from soccerdesk.ui.boards import BoardConfig, make_board
from soccerdesk.ui.hint import HintControl


def _position(game_id: str, plies: int, seed: int = 3) -> State:
    """A heuristic match run on until ``plies`` actions are done and one seat decides among several."""
    bot = make_bot("heuristic", game_id)
    state = get_game(game_id).new_match(seed=seed)
    rng = random.Random(seed)
    while True:
        players = state.current_players()
        seat = players[0]
        if state.ply >= plies and len(players) == 1 and seat != CHANCE and len(state.legal_actions(seat)) > 1:
            return state
        action = sample_chance(state, rng) if seat == CHANCE else bot.decide(state, seat, rng)
        state = state.apply(seat, action)


class Screen:
    """A board showing the seat to move, as the match screen does, and what a hint may be asked about."""

    def __init__(self, state: State, online: bool = False) -> None:
        self.state = state
        self.online = online
        self.seat = state.current_players()[0]
        self.board = make_board(BoardConfig(state.game.id, perspective=self.seat))
        self.board.set_view(state.view(self.seat))

    def request(self) -> tuple[str, dict[str, Any], int] | None:
        if self.online or self.seat not in self.state.current_players():
            return None
        return self.state.game.id, self.state.game.dump(self.state), self.seat


def test_a_click_on_hint_shows_the_search_bots_action_on_the_board(qtbot) -> None:
    screen = Screen(_position("big-time-soccer", 40))
    pool = ThreadPoolExecutor(max_workers=1)
    control = HintControl(screen.board, screen.request, executor=pool)
    qtbot.addWidget(control)
    control.show()
    given: list[int] = []
    control.given.connect(given.append)
    assert control.button.isEnabled()
    qtbot.mouseClick(control.button, Qt.MouseButton.LeftButton)
    assert not control.button.isEnabled() and "Thinking" in control.line.text()  # the UI goes on meanwhile
    qtbot.waitUntil(lambda: control.action is not None, timeout=30_000)
    assert control.action in screen.board.legal()
    assert screen.board.preview == control.action  # marked on the board like a keyboard preview
    assert screen.board.preview_keys()  # ... at the places a click would take
    assert control.line.text().startswith(f"Hint: {screen.board.describe(control.action)}.")
    assert given == [screen.seat]
    control.refresh()  # the learner moved: the hint goes away
    assert screen.board.preview is None and control.line.text() == ""
    pool.shutdown()


def test_an_answer_for_a_position_left_meanwhile_is_dropped(qtbot) -> None:
    screen = Screen(_position("pawn-soccer", 30))
    pool = ThreadPoolExecutor(max_workers=1)
    control = HintControl(screen.board, screen.request, executor=pool)
    qtbot.addWidget(control)
    given: list[int] = []
    control.given.connect(given.append)
    control.ask()
    seat = screen.seat
    legal = screen.state.legal_actions(seat)
    screen.state = screen.state.apply(seat, legal[0])  # the player moved before the hint came
    pool.shutdown(wait=True)
    qtbot.waitUntil(lambda: not control._poll.isActive(), timeout=10_000)
    assert control.action is None and screen.board.preview is None and given == []


def test_no_hint_online(qtbot) -> None:
    screen = Screen(_position("soccer-go", 10), online=True)
    control = HintControl(screen.board, screen.request, executor=ThreadPoolExecutor(max_workers=1))
    qtbot.addWidget(control)
    assert not control.button.isEnabled()
    control.ask()
    assert control.action is None and not control._poll.isActive()


def test_the_hint_button_speaks_a_players_words(qtbot) -> None:
    """QA pass 10: "search bot" and "playouts" are jargon for a player."""
    screen = Screen(_position("soccero", 20))
    control = HintControl(screen.board, screen.request, executor=ThreadPoolExecutor(max_workers=1))
    qtbot.addWidget(control)
    assert control.button.toolTip() == "What would the computer play here? (counted in the match record)"


def test_the_hint_shown_is_the_one_the_learn_module_gives(qtbot) -> None:
    state = _position("soccero", 20)
    screen = Screen(state)
    pool = ThreadPoolExecutor(max_workers=1)
    control = HintControl(screen.board, screen.request, executor=pool)
    control._rng = random.Random(5)
    seed = random.Random(5).randrange(2**62)
    qtbot.addWidget(control)
    control.ask()
    qtbot.waitUntil(lambda: control.action is not None, timeout=30_000)
    expected = hint.suggest(state, screen.seat, seed)
    assert control.action == expected.action and control.line.text().endswith(expected.why)
    pool.shutdown()


def test_hint_in_a_match_against_the_computer_is_counted_in_the_record(qtbot, window) -> None:
    from clicking import click, click_path, deciding, start_match

    view = start_match(qtbot, window, "pawn-soccer", ("bot", "easy"), {"quick_setup": True})
    control = view.hint_control
    assert control is not None and control.isVisible()
    qtbot.waitUntil(lambda: deciding(view) and control.button.isEnabled(), timeout=20_000)
    click(qtbot, control.button, what="Hint")
    qtbot.waitUntil(lambda: control.action is not None, timeout=60_000)
    session = window.session
    assert control.action in view.board.legal() and view.board.preview == control.action
    assert session.hints == [1, 0] and session.record()["hints"] == [1, 0]
    hinted = control.action
    click_path(qtbot, view, hinted)  # the learner takes the hint: it goes away
    qtbot.waitUntil(lambda: control.action is None, timeout=20_000)
    assert (0, hinted) in [(seat, str(action)) for seat, action in session.state.history()]
    # The count survives saving and resuming.
    record = session.record()
    from soccerdesk.ui.session import LocalSession, Player

    resumed = LocalSession(session.game, (Player("human", "Home"), Player("bot", "Away", bot="easy")), record=record)
    assert resumed.hints == [1, 0]
    resumed.close()


def test_hot_seat_hints_go_to_the_player_at_the_screen_never_under_the_cover(qtbot) -> None:
    from soccerdesk.ui.session import LocalSession, Player

    game = get_game("soccer-go")
    session = LocalSession(game, (Player("human", "Ann"), Player("human", "Bob")), seed=4)
    handovers: list[int] = []
    session.handover.connect(lambda seat, _name: handovers.append(seat))
    session.start()
    asked: list[int] = []
    covered = 0
    taken = 0  # hand-overs the next player has taken
    for _ in range(40):
        state = session.state
        if taken == len(handovers):
            found = session.hint_position()
            seat = session.viewer()
            if seat in state.current_players():
                assert found is not None and found[2] == seat and found[1] == game.dump(state)
                asked.append(seat)
                session.submit(str(state.legal_actions(seat)[0]))
            else:
                assert found is None
        else:  # the hand-over cover: nobody's cards on screen, no hint for anyone
            assert session.hint_position() is None
            covered += 1
            taken = len(handovers)
            session.take_over()
    assert covered >= 2 and handovers[0] == 0  # the first hand is dealt under the cover too
    assert set(asked) == {0, 1}  # both players got to ask, each on their own turn
    session.close()


def test_a_hint_from_the_keyboard(qtbot, window) -> None:
    """QA pass 15: Tab steps through the board's actions only, so the Hint button could not be
    reached by keyboard. Match → Hint (Ctrl+I) asks for one."""
    from clicking import deciding, start_match
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    view = start_match(qtbot, window, "pawn-soccer", ("bot", "easy"), {"quick_setup": True})
    control = view.hint_control
    assert control is not None and window.hint_action.isEnabled()
    assert window.hint_action.shortcut().toString() == "Ctrl+I"
    qtbot.waitUntil(lambda: deciding(view) and control.button.isEnabled(), timeout=20_000)
    window.activateWindow()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: control.action is not None, timeout=60_000)
    assert control.line.text().startswith("Hint:") and window.session.hints == [1, 0]
