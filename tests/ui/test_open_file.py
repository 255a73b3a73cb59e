"""``soccerdesk MATCH.json``: the desktop entry's ``%f`` (a file manager's "Open with soccerdesk")
opens a saved match as Match → Open match… does; a bad file gets the same message."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from running_app import App, launcher

from soccerdesk.rules import get_game
from soccerdesk.ui.screenshot import middle_position

_launch = pytest.fixture(name="launch")(launcher)


def test_a_match_file_named_on_the_command_line_is_resumed(launch: Callable[..., App], tmp_path: Path) -> None:
    path = tmp_path / "saved match.json"
    path.write_text(json.dumps(middle_position(get_game("pawn-soccer"))))
    app = launch(tmp_path, "open", str(path))
    assert app.wait_for("OPENED") == "OPENED MatchView"
    code, errors = app.finish()
    assert code == 0, errors


def test_a_file_that_is_no_match_gets_a_message_and_the_home_screen(launch: Callable[..., App], tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text("not a match\n")
    app = launch(tmp_path, "open", str(path))
    line = app.wait_for("MESSAGE")
    assert "notes.json" in line
    code, errors = app.finish()
    assert code == 0, errors
