"""What happens to a player's match on disk when the disk refuses it (files audit, 7 December).

Finding 1: an autosave the disk refused (full, read-only, a stick pulled out) was dropped
without a word, and the player left sure that the match was kept. The match screen says so at
once now, tries again with the next move (and with Try again), and Home and Quit ask before a
match that is not all in its file is left.

The disk's refusal is a real failing write, made without root: a folder where the autosave's
temporary file must go (``<match>.tmp``), so that writing it fails with "Is a directory".
Moves are clicked on the board; Home is Ctrl+H, as a person leaves.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from clicking import WAIT_MS, click, click_path, deciding, start_match
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QListWidgetItem, QMessageBox, QPushButton

from soccerdesk.rules import get_game
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView
from soccerdesk.ui.session import LocalSession
from soccerdesk.ui.settings import AppSettings

PAWN_SOCCER_VS_FRIEND = ("pawn-soccer", ("human", None), {"goals": 3, "quick_setup": True})


def play_moves(qtbot, view: MatchView, moves: int, rng: random.Random) -> None:
    """``moves`` moves clicked on the board, each waited for."""
    for _ in range(moves):
        qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
        shown = view.view_data
        assert shown is not None
        click_path(qtbot, view, rng.choice(sorted(shown["legal"])))
        qtbot.waitUntil(lambda shown=shown: view.view_data is not shown, timeout=WAIT_MS)


def refuse_writes(session: LocalSession) -> Path:
    """Make the next writes of ``session``'s autosave fail (its temporary file's place is taken)."""
    session.flush_autosave()  # no write is under way
    assert session.autosave is not None
    blocker = session.autosave.with_suffix(".tmp")
    blocker.mkdir()
    return blocker


def actions_on_disk(path: Path) -> int:
    return len(json.loads(path.read_text(encoding="utf-8"))["actions"])


def shown_boxes(window: MainWindow) -> list[QMessageBox]:
    return [box for box in window.findChildren(QMessageBox) if box.isVisible()]


def the_box(qtbot, window: MainWindow) -> QMessageBox:
    qtbot.waitUntil(lambda: len(shown_boxes(window)) == 1, timeout=WAIT_MS)
    return shown_boxes(window)[0]


def press_home_keys(window: MainWindow) -> None:
    window.activateWindow()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)


def button_named(box: QMessageBox, text: str):
    (found,) = [button for button in box.buttons() if button.text() == text]
    return found


def test_a_refused_autosave_is_told_at_once_and_tried_again_with_the_next_move(qtbot, window: MainWindow) -> None:
    """Finding 1: the disk refuses the autosave mid-match. The match screen says so in words at
    once and keeps saying it while the moves go on; once the disk takes writes again, the next
    move saves the whole match and the warning goes."""
    view = start_match(qtbot, window, *PAWN_SOCCER_VS_FRIEND)
    session = window.session
    assert session is not None and session.autosave is not None
    rng = random.Random(5)
    play_moves(qtbot, view, 2, rng)
    assert not view.save_warning.isVisible()
    blocker = refuse_writes(session)
    play_moves(qtbot, view, 1, rng)
    qtbot.waitUntil(view.save_warning.isVisible, timeout=WAIT_MS)
    words = view.save_warning_label.text()
    assert words.startswith("This match could not be saved: is a directory.")
    assert "soccerdesk will try again with your next move" in words and "Save match as…" in words
    play_moves(qtbot, view, 2, rng)
    assert view.save_warning.isVisible()
    assert actions_on_disk(session.autosave) < session.state.ply

    blocker.rmdir()
    play_moves(qtbot, view, 1, rng)
    qtbot.waitUntil(lambda: not view.save_warning.isVisible(), timeout=WAIT_MS)
    session.flush_autosave()  # the dice rolled after the move are saved too
    assert actions_on_disk(session.autosave) == session.state.ply


def test_try_again_saves_and_home_asks_before_an_unsaved_match_is_left(qtbot, window: MainWindow) -> None:
    """Finding 1: with the autosave refused, Home asks first (Keep playing is the default) and
    names why; Try again saves once the disk takes writes; refused again, leaving on purpose
    goes home with no second message, the file as it was at its last good save."""
    view = start_match(qtbot, window, *PAWN_SOCCER_VS_FRIEND)
    session = window.session
    assert session is not None and session.autosave is not None
    rng = random.Random(8)
    play_moves(qtbot, view, 2, rng)
    blocker = refuse_writes(session)
    play_moves(qtbot, view, 1, rng)
    qtbot.waitUntil(view.save_warning.isVisible, timeout=WAIT_MS)

    press_home_keys(window)
    box = the_box(qtbot, window)
    assert box.objectName() == "leave-unsaved"
    assert box.text() == "This match could not be saved: is a directory."
    assert "Save match as…" in box.informativeText() and str(session.autosave) in box.informativeText()
    click(qtbot, button_named(box, "Keep playing"), what="Keep playing")
    qtbot.waitUntil(lambda: not shown_boxes(window), timeout=WAIT_MS)
    assert window.match_view is view

    blocker.rmdir()
    click(qtbot, view.save_again, what="Try again")
    qtbot.waitUntil(lambda: not view.save_warning.isVisible(), timeout=WAIT_MS)
    session.flush_autosave()  # the dice rolled after the move are saved too
    assert actions_on_disk(session.autosave) == session.state.ply
    saved = session.state.ply

    refuse_writes(session)
    play_moves(qtbot, view, 1, rng)
    qtbot.waitUntil(view.save_warning.isVisible, timeout=WAIT_MS)
    press_home_keys(window)
    box = the_box(qtbot, window)
    click(qtbot, button_named(box, "Leave without saving"), what="Leave without saving")
    qtbot.waitUntil(lambda: window.match_view is None and window.home.isVisible(), timeout=WAIT_MS)
    qtbot.wait(100)
    assert not shown_boxes(window)
    assert actions_on_disk(session.autosave) == saved


def test_a_save_refused_as_the_match_is_left_is_told_on_the_home_screen(qtbot, window: MainWindow) -> None:
    """Finding 1: every move was saved, and the disk refuses the last write made as Home is
    pressed (the time played since): the home screen says that the match was not saved."""
    view = start_match(qtbot, window, *PAWN_SOCCER_VS_FRIEND)
    session = window.session
    assert session is not None and session.autosave is not None
    play_moves(qtbot, view, 2, random.Random(3))
    session.flush_autosave()
    assert not view.save_warning.isVisible()
    refuse_writes(session)
    press_home_keys(window)
    qtbot.waitUntil(lambda: window.match_view is None, timeout=WAIT_MS)
    box = the_box(qtbot, window)
    assert box.windowTitle() == "This match was not saved"
    assert box.text().startswith("The match you left could not be saved: is a directory.")
    assert str(session.autosave) in box.text()


def test_quit_asks_before_an_unsaved_match_is_closed(qtbot, window: MainWindow) -> None:
    """Finding 1: closing the window (its title bar's close button) with the autosave refused
    asks first; Quit without saving closes it."""
    view = start_match(qtbot, window, *PAWN_SOCCER_VS_FRIEND)
    session = window.session
    assert session is not None and session.autosave is not None
    rng = random.Random(4)
    play_moves(qtbot, view, 1, rng)
    refuse_writes(session)
    play_moves(qtbot, view, 1, rng)
    qtbot.waitUntil(view.save_warning.isVisible, timeout=WAIT_MS)
    window.close()  # what the window manager's close button asks
    box = the_box(qtbot, window)
    assert box.objectName() == "quit-unsaved"
    assert window.isVisible()
    click(qtbot, button_named(box, "Quit without saving"), what="Quit without saving")
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=WAIT_MS)
    assert window.session is None


ODD_FILES = {
    "deep.json": "[" * 100_000 + "]" * 100_000,  # nested past what the JSON parser reads
    "digits.json": '{"format": "soccerdesk-match", "seed": ' + "7" * 5000 + "}",  # past Python's digit limit
}


def odd_files(folder: Path) -> dict[Path, str]:
    """Files that broke start-up, Recent matches or Open match… (files audit, finding 2), with
    what each entry must say, beside one good match."""
    folder.mkdir(parents=True, exist_ok=True)
    said: dict[Path, str] = {}
    for name, text in ODD_FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
        said[folder / name] = f"{name} is damaged or cut short, so it cannot be opened as a match."
    game = get_game("pawn-soccer")
    good = game.dump(game.new_match(seed=3))
    (folder / "good.json").write_text(json.dumps(good), encoding="utf-8")
    seeded = folder / "seed-option.json"
    seeded.write_text(json.dumps({**good, "options": {"seed": 5}}), encoding="utf-8")
    said[seeded] = f"seed-option.json: bad options in record: {game.title} has no option 'seed'"
    return said


def test_odd_files_among_the_autosaves_are_listed_as_damaged_and_the_app_works(
    qtbot, settings: AppSettings, monkeypatch
) -> None:
    """Finding 2: a file nested too deep, one with a 5000-digit number and one whose options
    hold "seed" among the autosaves. The app starts, Kick off works, each odd file is listed as
    damaged beside the good match, and Match → Open match… on each says what is wrong."""
    said = odd_files(settings.autosave_dir)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1200, 780)
    window.show()
    qtbot.waitUntil(lambda: window.home.loaded, timeout=20_000)
    recent = window.home.recent
    texts = [recent.item(row).text() for row in range(recent.count())]
    assert len(texts) == 4
    assert sum(text.startswith("Pawn Soccer: Home") for text in texts) == 1, texts
    for words in said.values():
        assert any(text.startswith(f"Could not read a match: {words}") for text in texts), (words, texts)
    click(qtbot, window.home.cards["pawn-soccer"], what="the Pawn Soccer card")
    qtbot.waitUntil(window.home.start_button.isEnabled, timeout=WAIT_MS)

    open_action = match_action(window, "&Open match…")
    for path, words in said.items():
        monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, path=path: (str(path), ""))
        open_action.trigger()
        box = the_box(qtbot, window)
        assert box.text().startswith(words)
        click(qtbot, box.button(QMessageBox.StandardButton.Ok), what="OK")
        qtbot.waitUntil(lambda: not shown_boxes(window), timeout=WAIT_MS)
    assert window.match_view is None
    window.close()


def match_action(window: MainWindow, text: str) -> QAction:
    (found,) = [a for a in window.menuBar().actions()[0].menu().actions() if a.text() == text]
    return found


def save_as(qtbot, window: MainWindow, monkeypatch, path: Path) -> None:
    """Match → Save match as…, the file dialog answering ``path``."""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: (str(path), ""))
    action = match_action(window, "&Save match as…")
    assert action.isEnabled()
    action.trigger()


def test_save_match_as_says_when_it_fails_and_keeps_an_earlier_save(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path
) -> None:
    """Finding 3: Save match as… into a place that cannot be written raised out of the menu
    without a word; saving again over an earlier save, cut short, destroyed it. Now a message
    names the file and why, and the earlier save is kept whole."""
    view = start_match(qtbot, window, *PAWN_SOCCER_VS_FRIEND)
    play_moves(qtbot, view, 2, random.Random(6))
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("a file, not a folder", encoding="utf-8")
    save_as(qtbot, window, monkeypatch, not_a_folder / "my-match.json")
    box = the_box(qtbot, window)
    assert box.windowTitle() == "This match could not be saved"
    assert box.text().startswith(f"The match could not be saved to {not_a_folder / 'my-match.json'}: ")
    click(qtbot, box.button(QMessageBox.StandardButton.Ok), what="OK")
    qtbot.waitUntil(lambda: not shown_boxes(window), timeout=WAIT_MS)

    target = tmp_path / "my-match.json"
    save_as(qtbot, window, monkeypatch, target)
    assert window.statusBar().currentMessage() == f"Saved to {target}"
    earlier = target.read_bytes()
    play_moves(qtbot, view, 1, random.Random(7))
    target.with_suffix(".tmp").mkdir()  # the next write of it fails part-way
    save_as(qtbot, window, monkeypatch, target)
    box = the_box(qtbot, window)
    assert box.text() == f"The match could not be saved to {target}: is a directory."
    assert target.read_bytes() == earlier


def pawn_soccer_record(seed: int, moves: int) -> dict[str, Any]:
    """The record of a Pawn Soccer match ``moves`` random moves in (its set-up: no dice yet)."""
    game = get_game("pawn-soccer")
    state, rng = game.new_match(seed=seed), random.Random(seed)
    for _ in range(moves):
        seat = state.current_players()[0]
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    return game.dump(state)


def test_a_partial_copy_that_cannot_be_written_is_refused_in_words(
    qtbot, window: MainWindow, settings: AppSettings, monkeypatch, tmp_path: Path
) -> None:
    """Finding 3: the copy that goes on from the last action that replays is written whole, and
    a copy the disk refuses is said so (here the autosave folder's place is taken by a file)."""
    record = pawn_soccer_record(seed=2, moves=4)
    record["actions"].append([0, "move A1-A2"])  # what the rules refuse here: 4 actions replay
    source = tmp_path / "friend.json"
    source.write_text(json.dumps(record), encoding="utf-8")
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.autosave_dir.write_text("not a folder", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(source), ""))
    match_action(window, "&Open match…").trigger()
    box = the_box(qtbot, window)
    click(qtbot, next(b for b in box.buttons() if b.text() == "Go on from action 4"), what="Go on")
    qtbot.waitUntil(lambda: any(b.windowTitle() == "This match cannot be resumed" for b in shown_boxes(window)))
    (box,) = shown_boxes(window)
    assert box.text().startswith("friend.json: ")
    assert window.match_view is None and source.read_text(encoding="utf-8") == json.dumps(record)


def test_an_unfinished_match_with_nobody_at_this_screen_opens_as_its_replay(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path
) -> None:
    """Finding 5: an unfinished record whose two players are the computer (an edited file)
    raised IndexError out of Open match…; it opens in the replay viewer, as far as it goes."""
    record = pawn_soccer_record(seed=9, moves=6)
    bot = {"kind": "bot", "name": "Computer", "bot": "heuristic", "colour": ""}
    record["app"] = {"players": [bot, {**bot, "name": "Computer 2"}], "over": False}
    path = tmp_path / "bots.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(path), ""))
    match_action(window, "&Open match…").trigger()
    qtbot.waitUntil(lambda: window.replay_view is not None and window.replay_view.isVisible(), timeout=WAIT_MS)
    assert window.session is None and not shown_boxes(window)
    assert window.replay_view.slider.maximum() == 6


def test_a_record_saved_with_a_byte_order_mark_is_a_match(
    qtbot, window: MainWindow, settings: AppSettings, monkeypatch, tmp_path: Path
) -> None:
    """Finding 6: a record re-saved by a Windows editor ("UTF-8 with BOM") was "not a
    soccerdesk match file"; it is listed and opens as the match it is."""
    game = get_game("pawn-soccer")
    record = game.dump(game.new_match(seed=4))
    path = settings.autosave_dir / "edited.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record), encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    window.home.refresh_recent()
    recent = window.home.recent
    assert [recent.item(row).text()[:17] for row in range(recent.count())] == ["Pawn Soccer: Home"]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(path), ""))
    match_action(window, "&Open match…").trigger()
    qtbot.waitUntil(lambda: window.match_view is not None, timeout=WAIT_MS)
    assert not shown_boxes(window)


def edited_autosave(settings: AppSettings, name: str, seed: int) -> tuple[Path, list[int], list[int]]:
    """A finished Pawn Soccer match between Ann and Bob in the autosave folder, whose file says
    Ann scored three goals more than its actions replay to (an edited file, a rule mended
    since). Returns the file, the score it says and the score its actions give."""
    from soccerdesk.bots import make_bot
    from soccerdesk.sim import play_match

    bots = [make_bot("random", "pawn-soccer") for _ in (0, 1)]
    record = play_match("pawn-soccer", bots, seed, swap=False, options={}).record
    assert record is not None
    real = list(get_game("pawn-soccer").load(record).score)
    told = [real[0] + 3, real[1]]
    ann, bob = ({"kind": "human", "name": name, "bot": None, "colour": ""} for name in ("Ann", "Bob"))
    record["app"] = {"players": [ann, bob], "score": told, "over": True}
    path = settings.autosave_dir / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record), encoding="utf-8")
    return path, told, real


def entry_item(window: MainWindow, path: Path) -> QListWidgetItem:
    recent = window.home.recent
    (item,) = [
        recent.item(row) for row in range(recent.count()) if recent.item(row).data(Qt.ItemDataRole.UserRole) == path
    ]
    return item


def entry_text(window: MainWindow, path: Path) -> str:
    return entry_item(window, path).text()


def test_recent_matches_gives_the_score_the_match_opens_with(qtbot, window: MainWindow, settings: AppSettings) -> None:
    """Finding 7: a finished match whose file says 3–0 but whose actions replay to another score
    was listed 3–0 and opened with the other; later the list agreed only once it had been opened.
    The list now gives the score its actions replay to without opening it, and opening it
    writes that score into the file."""
    path, told, real = edited_autosave(settings, "edited.json", 3)
    window.home.refresh_recent()
    qtbot.waitUntil(lambda: f"Ann {real[0]}–{real[1]} Bob" in entry_text(window, path), timeout=WAIT_MS)
    assert entry_text(window, path).startswith(f"Pawn Soccer: Ann {real[0]}–{real[1]} Bob")
    # its tooltip too (it kept the file's score when only the row was corrected)
    assert entry_item(window, path).toolTip().startswith(f"Pawn Soccer: Ann {real[0]}–{real[1]} Bob")
    assert json.loads(path.read_text(encoding="utf-8"))["app"]["score"] == told  # not written by listing

    recent = window.home.recent
    click(qtbot, recent.viewport(), recent.visualItemRect(recent.item(0)).center(), "the entry")
    click(qtbot, window.home.resume_button, what="Resume / replay")
    qtbot.waitUntil(lambda: window.replay_view is not None and window.replay_view.isVisible(), timeout=WAIT_MS)
    assert json.loads(path.read_text(encoding="utf-8"))["app"]["score"] == real
    (close,) = [b for b in window.replay_view.findChildren(QPushButton) if b.text() == "Close replay"]
    click(qtbot, close, what="Close replay")
    qtbot.waitUntil(window.home.isVisible, timeout=WAIT_MS)
    assert entry_text(window, path).startswith(f"Pawn Soccer: Ann {real[0]}–{real[1]} Bob")


def test_recent_matches_replays_a_file_again_only_when_it_changed(
    qtbot, window: MainWindow, settings: AppSettings, monkeypatch
) -> None:
    """Replaying every listed file at each refresh cost up to 0.4 s: a file is replayed once,
    and again only after it changed (its time or size)."""
    from soccerdesk.ui import home

    replayed: list[Path] = []

    def counted(files: dict[Path, Any]) -> dict[Path, Any]:
        replayed.extend(files)
        return real_replayed_scores(files)

    real_replayed_scores = home.replayed_scores
    monkeypatch.setattr(home, "replayed_scores", counted)
    first, _told, real = edited_autosave(settings, "first.json", 3)
    second, _told2, real2 = edited_autosave(settings, "second.json", 4)
    window.home.refresh_recent()
    qtbot.waitUntil(lambda: f"Ann {real2[0]}–{real2[1]} Bob" in entry_text(window, second), timeout=WAIT_MS)
    assert sorted(replayed) == [first, second]
    window.home.refresh_recent()
    qtbot.wait(200)
    assert sorted(replayed) == [first, second]
    assert f"Ann {real[0]}–{real[1]} Bob" in entry_text(window, first)  # from what was replayed before

    record = json.loads(first.read_text(encoding="utf-8"))
    record["app"]["score"] = [9, 9]
    first.write_text(json.dumps(record, indent=1), encoding="utf-8")  # another size
    window.home.refresh_recent()
    qtbot.waitUntil(lambda: len(replayed) == 3, timeout=WAIT_MS)
    assert replayed[-1] == first
    qtbot.waitUntil(lambda: f"Ann {real[0]}–{real[1]} Bob" in entry_text(window, first), timeout=WAIT_MS)
