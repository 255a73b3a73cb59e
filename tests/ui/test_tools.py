"""Help, undo, rematch, screenshots and the command line of the app."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from driving import ready
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QSpinBox

from soccerdesk.rules import GAMES, get_game
from soccerdesk.ui.boards import BOARD_MODULES
from soccerdesk.ui.help import HelpDialog, help_markdown
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.screenshot import ScreenshotError, take_screenshot
from soccerdesk.ui.session import LocalSession, Player


@pytest.mark.parametrize("game_id", GAMES)
def test_help_explains_each_game_with_diagrams_drawn_by_the_app(qtbot, game_id: str) -> None:
    game = get_game(game_id)
    dialog = HelpDialog(game)
    qtbot.addWidget(dialog)
    text = dialog.browser.toPlainText()
    assert game.title in text and "Playing in soccerdesk" in text
    image = dialog.browser.loadResource(QTextDocument.ResourceType.ImageResource.value, f"diagram:{game_id}")
    assert isinstance(image, QImage) and not image.isNull()


def test_help_appends_our_rulings_when_docs_are_there() -> None:
    game = get_game("pawn-soccer")
    rulings = Path(__file__).parents[2] / "docs" / "rulings.md"
    if "## Pawn Soccer" not in rulings.read_text():
        pytest.skip("no Pawn Soccer rulings recorded yet")
    assert "## Our rulings" in help_markdown(game)


@pytest.mark.parametrize("game_id", ["big-time-soccer", "pawn-soccer", "soccero", "soccer-go"])
def test_our_rulings_in_the_help_are_written_for_players(qtbot, game_id: str) -> None:
    """QA: Pawn Soccer's help showed docs/rulings.md as written for developers: file paths,
    option identifiers (`closed_goal_area`), action syntax (`kickoff C5`), "Seat 0 is Blue"."""
    game = get_game(game_id)
    page = help_markdown(game)
    rulings = page[page.index("## Our rulings") :]
    for developers in (".toml", ".py", "tests/", "Seat 0", "RULINGS.md", "`", "view's", "issue 1"):
        assert developers not in rulings, (developers, rulings)
    for option in game.options:
        assert f"“{option.name}”" not in rulings, option.name
    assert rulings.count("\n- **") >= 8  # the rulings themselves are all still there, bar a few
    if game_id == "pawn-soccer":
        assert "“Keep attackers out of goal-kick areas”" in rulings or "Option “" in rulings
        assert "carries the ball to D6; its square is left empty" in rulings
    # Actions by the words of the board's buttons (QA: "clear-box", "propose-end", "discard none").
    if game_id == "big-time-soccer":
        for action in ("clear-box", "propose-end", "discard none"):
            assert f"“{action}”" not in rulings, action
        assert "“Propose to end the half”" in rulings and "“Keep all cards”" in rulings


def test_undo_takes_back_a_move_and_the_bot_reply(qtbot) -> None:
    """Pawn Soccer's set-up has no dice and no secrets: a placement can be taken back."""
    game = get_game("pawn-soccer")
    session = LocalSession(game, (Player("human", "Ann"), Player("bot", "Bot", "random")), seed=2)
    session.start()
    qtbot.waitUntil(lambda: 0 in session.state.current_players(), timeout=5_000)
    before = session.state
    legal = session.state.view(0)["legal"]
    session.submit(legal[0])
    qtbot.waitUntil(lambda: 0 in session.state.current_players(), timeout=5_000)
    assert session.state.ply >= before.ply + 2 and session.can_undo()
    session.undo()
    assert session.state == before
    session.close()


def test_rematch_starts_the_same_match_again(qtbot, window: MainWindow) -> None:
    home = window.home
    qtbot.mouseClick(home.cards["soccer-go"], Qt.MouseButton.LeftButton)
    home.set_opponent("normal")
    home.options_form.findChild(QSpinBox, "option-rounds").setValue(1)
    qtbot.mouseClick(home.start_button, Qt.MouseButton.LeftButton)
    first = window.session
    window.rematch()
    second = window.session
    assert second is not first and isinstance(second, LocalSession)
    assert second.state.options["rounds"] == 1 and second.players == first.players
    qtbot.waitUntil(lambda: ready(window.match_view), timeout=10_000)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "soccerdesk", *args], capture_output=True, text=True, timeout=120)


def test_screenshot_of_a_mid_match_position(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    result = _run("--screenshot", "soccer-go", str(out), "--size", "960x600")
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (960, 600)


def test_screenshot_of_a_game_without_a_board_fails_clearly(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOARD_MODULES, "pawn-soccer", "soccerdesk.ui.boards.not_written_yet")
    with pytest.raises(ScreenshotError, match="board of pawn-soccer is not drawn yet"):
        take_screenshot("pawn-soccer", tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_screenshot_of_an_unknown_game_is_refused_by_the_command_line(tmp_path: Path) -> None:
    result = _run("--screenshot", "tiddlywinks", str(tmp_path / "x.png"))
    assert result.returncode == 2
    assert "no game 'tiddlywinks'" in result.stderr and "Traceback" not in result.stderr


def test_version() -> None:
    result = _run("--version")
    assert result.returncode == 0 and result.stdout.startswith("soccerdesk ")


def test_the_undo_button_takes_back_a_move_on_screen(qtbot, window: MainWindow) -> None:
    home = window.home
    qtbot.mouseClick(home.cards["pawn-soccer"], Qt.MouseButton.LeftButton)
    home.set_opponent("normal")
    qtbot.mouseClick(home.start_button, Qt.MouseButton.LeftButton)
    view = window.match_view
    qtbot.waitUntil(lambda: ready(view), timeout=10_000)
    before = view.view_data["ply"]
    view.play(view.view_data["legal"][0])  # a pawn placed in the set-up: no dice, no secrets
    qtbot.waitUntil(lambda: view.view_data["ply"] >= before + 2 and ready(view), timeout=10_000)
    assert view.undo_button.isEnabled()
    qtbot.mouseClick(view.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.view_data["ply"] == before, timeout=5_000)
