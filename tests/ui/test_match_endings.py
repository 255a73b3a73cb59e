"""How a match ends on screen: a cup's penalty shootout shown kick by kick, and the result
(the result page and Recent matches) saying how the match was decided besides its score."""

from __future__ import annotations

import json
import random

import pytest
from driving import click_action, ready
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from soccerdesk.rules import CHANCE, get_game
from soccerdesk.ui.animation import Animation
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import FULL_TIME_HINT, MatchView, Summary, phase_text
from soccerdesk.ui.session import APP_KEY, Player
from soccerdesk.ui.settings import AppSettings
from tests.match_positions import cup_match_before_its_shootout


def resume_a_cup_match_before_its_shootout(
    qtbot, window: MainWindow, settings: AppSettings, friend: bool
) -> tuple[MatchView, str]:
    """A cup match one decision before its shootout, resumed from Recent matches with clicks,
    against the computer or a friend; the match screen and that decision."""
    record, decision = cup_match_before_its_shootout()
    away = Player("human", "Away (normal)") if friend else Player("bot", "Away (normal)", bot="normal")
    record[APP_KEY] = {"players": [Player("human", "Home").to_json(), away.to_json()]}
    settings.autosave_dir.mkdir(parents=True, exist_ok=True)
    (settings.autosave_dir / "cup.json").write_text(json.dumps(record))
    home = window.home
    home.refresh_recent()
    recent = home.recent
    qtbot.mouseClick(recent.viewport(), Qt.MouseButton.LeftButton, pos=recent.visualItemRect(recent.item(0)).center())
    qtbot.mouseClick(home.resume_button, Qt.MouseButton.LeftButton)
    view = window.match_view
    assert view is not None
    qtbot.waitUntil(lambda: ready(view), timeout=15_000)
    return view, decision


@pytest.mark.parametrize("friend", [False, True])
def test_a_cup_shootout_is_shown_kick_by_kick_and_the_result_gives_its_score(
    qtbot, window: MainWindow, settings: AppSettings, friend: bool
) -> None:
    """QA: the whole shootout was played at once behind three die animations, over a board that
    still said "2nd half", while the side panel said "the match is over"; the result gave no
    shootout score, nor did Recent matches."""
    settings.animation_speed = "fast"
    view, decision = resume_a_cup_match_before_its_shootout(qtbot, window, settings, friend)
    if view.stack.currentWidget() is view.handover_page:  # against a friend: Home takes the screen
        qtbot.mouseClick(view.handover_page.button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: ready(view) and view.stack.currentWidget() is view.board_page, timeout=15_000)
    shown: list[Animation] = []
    hints: list[str] = []
    play = view.animation.play

    under: list[tuple[str, str, str]] = []  # what the screen shows while each batch plays

    def spy(animations, speed, backdrop=None, **options):
        shown.extend(animations)
        hints.append(view.hint_label.text())
        state = view.view_data["state"]
        under.append((state["phase"], view.phase_label.text(), view.keyboard_label.text()))
        play(animations, speed, backdrop, **options)

    view.animation.play = spy
    click_action(qtbot, view, decision)  # the last decision: then the dice, full time, the shootout
    qtbot.waitUntil(lambda: view.stack.currentWidget() is view.summary_page, timeout=60_000)
    state = window.session.state
    g0, g1, k0, k1 = state.shootout
    # Every kick is shown, after a SHOOT-OUT banner, each captioned with the tally so far.
    banner = next(i for i, a in enumerate(shown) if a.kind == "banner" and a.faces == ("SHOOT-OUT",))
    kicks = shown[banner + 1 :]
    assert len(kicks) == k0 + k1 and all(a.kind == "die" for a in kicks)
    assert kicks[-1].text.endswith(f"(Home {g0}/{k0}, Away (normal) {g1}/{k1})"), kicks[-1].text
    assert "5 kicks each" in shown[banner].text
    # While the kicks play nothing says the match is over, and the board under them is the
    # shootout's start (QA: it still asked for the card already discarded, "2nd half").
    assert hints and not any(h.startswith("Full time") for h in hints), hints
    assert under[-1][:2] == ("shootout", "Shoot-out") and not under[-1][2], under
    assert view.hint_label.text() == FULL_TIME_HINT
    winner = state.winner
    high, low = max(g0, g1), min(g0, g1)
    result = view.summary_page.label.text()
    expected = (
        ("Home wins" if winner == 0 else "Away (normal) wins")
        if friend
        else ("You win" if winner == 0 else "Away (normal) wins")
    )
    assert f"{expected} on penalties, {high}–{low}" in result, result
    assert view.phase_label.text() == f"Full time, on penalties, {high}–{low}"  # the header too
    window.go_home()
    line = window.home.recent.item(0).text()
    assert f"full time, {'Home' if winner == 0 else 'Away (normal)'} wins on penalties, {high}–{low}" in line, line


def test_the_result_page_says_after_extra_time_and_the_shootouts_score(qtbot) -> None:
    page = Summary()
    qtbot.addWidget(page)
    base = {"title": "Soccer-Go", "names": ["Home", "Away"], "plies": 90, "local_seats": [0]}
    page.show_result({**base, "score": [1, 0], "winner": 0, "details": {"extra_time": True}})
    assert "You win after extra time!" in page.label.text()
    page.show_result({**base, "score": [0, 0], "winner": 1, "details": {"extra_time": True, "shootout": [2, 3]}})
    assert "Away wins after extra time, on penalties, 3–2." in page.label.text()
    page.show_result({**base, "score": [2, 1], "winner": 0, "details": {}})
    assert "You win!" in page.label.text() and "penalties" not in page.label.text()
    page.show_result({**base, "score": [0, 0], "winner": 1, "details": {"forfeit": True}})
    assert "Away wins by forfeit." in page.label.text()
    # A relay from before the details, or a saved summary without them: a level score decided.
    page.show_result({**base, "score": [0, 0], "winner": 0})
    assert "You win on penalties!" in page.label.text()


def test_soccer_go_header_names_extra_time_and_the_shootouts_kick_not_a_round() -> None:
    """QA: a one-round match's header said "Extra time · Round 2", then "Shootout · Round 3"."""
    game = get_game("soccer-go")

    def both(state, attack: str, defend: str):
        attacker = state.attacker
        return state.apply(attacker, game.parse_action(attack)).apply(1 - attacker, game.parse_action(defend))

    s = game.new_match(seed=1, rounds=1, power_cards=False).apply(CHANCE, game.parse_action("toss 0"))
    assert phase_text(s.view(0)) == "Round 1 of 1"  # one round has no halves
    s = both(both(s, "pass 2", "mark 2"), "pass 2", "mark 2")  # both attacks marked: level
    assert phase_text(s.view(0)) == "Extra time"
    for _ in range(4):  # both extra-time attacks end on their second mark
        s = both(s, "pass 2", "mark 2")
    assert phase_text(s.view(0)) == "Penalty shootout · kick 1 of 3"
    for _ in range(3):
        s = both(both(s, "shoot left", "save right"), "shoot left", "save right")
    assert phase_text(s.view(0)) == "Penalty shootout · sudden death"


def test_a_golden_goal_has_no_goal_target_and_its_draw_says_why(qtbot, window: MainWindow) -> None:
    """QA: under golden goal the "Goal target" box stayed editable (it counts for nothing), and a
    golden-goal match that ran out of turns ended on a bare "A draw."."""
    from PySide6.QtWidgets import QComboBox, QSpinBox

    qtbot.mouseClick(window.home.cards["pawn-soccer"], Qt.MouseButton.LeftButton)
    form = window.home.options_form
    length, goals = form.findChild(QComboBox, "option-length"), form.findChild(QSpinBox, "option-goals")
    assert goals.isEnabled()
    length.setFocus()
    QTest.keyClick(length, Qt.Key.Key_Down)  # the next choice: the first goal wins
    assert length.currentData() == "golden_goal" and not goals.isEnabled()
    QTest.keyClick(length, Qt.Key.Key_Up)
    assert goals.isEnabled()
    page = Summary()
    qtbot.addWidget(page)
    base = {"title": "Pawn Soccer", "names": ["Home", "Away"], "plies": 40, "local_seats": [0]}
    page.show_result({**base, "score": [0, 0], "winner": None, "details": {"turn_limit": 5}})
    assert "A draw at the turn limit (5 turns a side)." in page.label.text()


def test_soccer_go_three_marks_are_clicked_in_any_order(qtbot, window: MainWindow, tmp_path) -> None:
    """QA: under DEEP PRESS the three marks had to be clicked lowest first (the higher numbers
    were greyed out until then, which read as "not allowed"). A click on a picked number takes it back."""
    from driving import click_on_screen

    game = get_game("soccer-go")
    s = game.new_match(seed=1).apply(CHANCE, game.parse_action("toss 0"))
    for card in ("att-bogey", "attacking-gk", "att-block-1", "att-block-2", "def-bogey", "high-press"):
        s = s.apply(CHANCE, game.parse_action(f"draw {card}"))
    s = s.apply(CHANCE, game.parse_action("draw deep-press")).apply(CHANCE, game.parse_action("draw def-block-1"))
    for number in (2, 3):  # two unmarked passes: DEEP PRESS may be played from pass 3
        s = s.apply(0, game.parse_action(f"pass {number}")).apply(1, game.parse_action("mark 9"))
    s = s.apply(1, game.parse_action("play deep-press")).apply(0, game.parse_action("no card"))
    s = s.apply(0, game.parse_action("pass 5"))  # Home has passed: Away marks three
    assert "mark 4+5+6" in [str(a) for a in s.legal_actions(1)]
    record = game.dump(s)
    record[APP_KEY] = {"players": [Player("human", "Home").to_json(), Player("human", "Away").to_json()]}
    path = tmp_path / "deep-press.json"
    path.write_text(json.dumps(record))
    window.settings.animation_speed = "off"
    assert window.open_path(path)
    view = window.match_view
    qtbot.waitUntil(lambda: view.stack.currentWidget() is view.handover_page, timeout=10_000)
    qtbot.mouseClick(view.handover_page.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ready(view) and view.view_data.get("seat") == 1, timeout=10_000)

    def click(number: int) -> None:
        spot = view.view.mapFromScene(view.board.pos_of(("num", number)))
        click_on_screen(view.view.viewport(), spot)

    assert "click three numbers you mark" in view.board.status(view.view_data)
    click(8)
    assert ("num", 4) in view.board.targets  # a lower number is still open after a higher one
    assert "each higher" not in view.hint_label.text() and "any order" in view.hint_label.text()
    click(4)
    click(8)  # taken back
    assert view.board.selection == (("num", 4),)
    click(10)
    click(6)
    qtbot.waitUntil(lambda: window.session.state.ply > s.ply, timeout=5_000)
    assert str(window.session.state.history()[s.ply][1]) == "mark 4+6+10"


def test_pawn_soccers_window_after_a_turn_ends_by_itself_unless_asked_for(qtbot, window: MainWindow) -> None:
    """QA: "Substitute now … or end the turn" followed every turn while the substitute was unused,
    doubling the clicks. It now ends by itself (the substitute is offered before every turn);
    the View menu brings it back."""
    from PySide6.QtGui import QAction

    window.settings.animation_speed = "off"
    qtbot.mouseClick(window.home.cards["pawn-soccer"], Qt.MouseButton.LeftButton)
    window.home.set_opponent("normal")
    qtbot.mouseClick(window.home.start_button, Qt.MouseButton.LeftButton)
    view = window.match_view
    rng = random.Random(5)
    seen_after, offered = [], []
    for _ in range(12):  # six turns of Home's, each by one click path
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if view.stack.currentWidget() is not view.board_page:
            break
        seen_after.append(view.view_data["state"]["phase"] == "after_turn")
        legal = view.board.legal()
        offered.append(any(a.startswith("sub ") for a in legal))
        click_action(qtbot, view, rng.choice([a for a in legal if not a.startswith("sub ")]))
    assert not any(seen_after) and any(offered)  # the substitute is still offered, before a turn
    history = [str(action) for _seat, action in window.session.state.history()]
    assert "end" in history  # each window was there, and ended for the player
    [ask] = [a for a in window.findChildren(QAction) if a.text().startswith("Pawn Soccer: offer the substitute")]
    ask.trigger()
    assert window.settings.ask_after_turn
    for _ in range(12):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if view.view_data["state"]["phase"] == "after_turn":
            break
        legal = view.board.legal()
        click_action(qtbot, view, rng.choice([a for a in legal if not a.startswith("sub ")]))
    assert view.view_data["state"]["phase"] == "after_turn" and "end" in view.board.legal()


def test_undo_after_a_turn_whose_window_ended_by_itself_takes_back_the_move(qtbot, window: MainWindow) -> None:
    """Pawn Soccer hot-seat: the window after a turn ends by itself. QA pass 12: Undo stopped at
    that window, which the player never saw, and a second Undo was needed; one Undo now takes
    back the move itself. Played again, the window ends by itself again."""
    from clicking import start_match

    window.settings.animation_speed = "off"
    view = start_match(qtbot, window, "pawn-soccer", ("human", None), {"quick_setup": True})
    rng = random.Random(8)
    for _ in range(30):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if view.stack.currentWidget() is view.handover_page:
            qtbot.mouseClick(view.handover_page.button, Qt.MouseButton.LeftButton)
            continue
        legal = view.board.legal()
        if view.view_data["state"]["phase"] == "turn" and any(a.startswith("move ") for a in legal):
            break
        click_action(qtbot, view, rng.choice([a for a in legal if not a.startswith("sub ")]))
    session = window.session
    before = session.state.ply
    move = next(a for a in view.board.legal() if a.startswith("move "))
    click_action(qtbot, view, move)
    qtbot.waitUntil(lambda: session.state.ply >= before + 2, timeout=5_000)  # the move, then "end"
    assert str(session.state.history()[-1][1]) == "end"
    qtbot.waitUntil(lambda: view.undo_button.isEnabled(), timeout=5_000)
    qtbot.mouseClick(view.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ready(view) and view.view_data["ply"] == before, timeout=5_000)
    qtbot.wait(100)  # and it stays there: nothing is played again by itself
    assert session.state.ply == before and view.view_data["state"]["phase"] == "turn"
    assert move in view.board.legal()
    click_action(qtbot, view, move)  # played again: its window ends by itself again
    qtbot.waitUntil(lambda: session.state.ply == before + 2, timeout=5_000)


def test_a_boards_full_time_line_says_how_the_match_was_decided(qtbot) -> None:
    """QA: a shoot-out replay's last step said "Full time: Away wins." with no word of penalties."""
    from soccerdesk.ui.boards import BoardConfig, make_board

    board = make_board(BoardConfig("big-time-soccer", perspective=0, team_names=("Home", "Away")))
    said = board.full_time_words({"winner": 1, "details": {"shootout": [4, 5]}})
    assert said == "Full time: Away wins on penalties, 5–4."
    assert board.full_time_words({"winner": None, "details": {}}) == "Full time: a draw."


def test_after_full_time_enter_and_tab_keep_the_line_that_says_where_to_go(
    qtbot, window: MainWindow, settings: AppSettings
) -> None:
    """UI audit 7: back on the board after full time, one Enter put "Press Tab to pick an action,
    then Enter to play it." beside "Nothing to play now.", in place of the full-time line saying
    where the result, the rematch and the replay are."""
    view, decision = resume_a_cup_match_before_its_shootout(qtbot, window, settings, friend=False)
    click_action(qtbot, view, decision)
    qtbot.waitUntil(lambda: view.stack.currentWidget() is view.summary_page, timeout=60_000)
    qtbot.mouseClick(view.summary_page.board, Qt.MouseButton.LeftButton)  # back to the board
    assert view.stack.currentWidget() is view.board_page
    assert view.hint_label.text() == FULL_TIME_HINT
    window.activateWindow()
    for _ in range(2):
        QTest.keyClick(window.windowHandle(), Qt.Key.Key_Return)
        assert view.hint_label.text() == FULL_TIME_HINT, view.hint_label.text()
        assert view.keyboard_label.text() == "Nothing to play now."
    assert view.stack.currentWidget() is view.board_page  # no key started a rematch
    # End-of-match audit 3: Match → Hint (Ctrl+I) is greyed as the Hint button is, and the key
    # leaves the full-time line as it is.
    assert not window.hint_action.isEnabled()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert view.hint_label.text() == FULL_TIME_HINT, view.hint_label.text()


def test_after_look_at_the_board_the_keys_get_back_to_the_result(
    qtbot, window: MainWindow, settings: AppSettings
) -> None:
    """Keyboard audit 2: on the board after full time, Tab stayed on the board for ever ("Nothing
    to play now."), so Result, Rematch and the replay were out of a keyboard player's reach.
    Tab now goes on to the Result button, and Escape goes back to the result too."""
    view, decision = resume_a_cup_match_before_its_shootout(qtbot, window, settings, friend=False)
    click_action(qtbot, view, decision)
    qtbot.waitUntil(lambda: view.stack.currentWidget() is view.summary_page, timeout=60_000)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)

    def key(key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        QTest.keyClick(window.windowHandle(), key, modifier)

    key(Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is view.summary_page.board
    key(Qt.Key.Key_Return)  # Look at the board
    assert view.stack.currentWidget() is view.board_page
    assert view.view.hasFocus()
    reached = []
    for _ in range(6):
        key(Qt.Key.Key_Tab)
        reached.append(QApplication.focusWidget())
        if reached[-1] is view.result_button:
            break
    assert reached[-1] is view.result_button, reached
    key(Qt.Key.Key_Return)
    assert view.stack.currentWidget() is view.summary_page
    key(Qt.Key.Key_Tab)
    key(Qt.Key.Key_Return)  # Look at the board again
    assert view.stack.currentWidget() is view.board_page
    key(Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
    assert not view.view.hasFocus()  # Shift+Tab leaves the board too
    view.view.setFocus()
    key(Qt.Key.Key_Escape)
    assert view.stack.currentWidget() is view.summary_page
