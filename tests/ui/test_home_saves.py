"""The home screen's Recent matches and Match form, as a player meets them (QA pass 12).

Finding 7: an autosave cut short, or replaced by other JSON, dropped off Recent matches
without a word, and the player took the match for lost. It is listed now with why it cannot
be read, and activating it tells where the file is; nothing is deleted and nothing pops up at
start-up.
Finding 11: "You play: Home" showed against a friend at the same screen, where it means
nothing; and an entry in Recent matches did not give the time played.

Matches are played as people play: the game, the opponent and Kick off clicked, each move
clicked on the board, Ctrl+H to go home. The files they leave are then damaged by hand, as the
tester did, and the app is started again on the same data folder.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from clicking import (
    WAIT_MS,
    assert_reachable,
    choose_in_combo,
    click,
    click_path,
    deciding,
    on_handover,
    start_match,
)
from PySide6.QtCore import QSize, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QListWidgetItem, QMessageBox

from soccerdesk.ui.home import folder_words
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.settings import AppSettings

HOT_SEAT = ("human", None)
SHORT = {
    "soccer-go": {"rounds": 1},
    "soccero": {"turns": 3, "quick_setup": True},
    "pawn-soccer": {"goals": 1, "quick_setup": True},
}
"""Options that keep a match short."""

CLOCK = re.compile(r"Time played (\d\d+):(\d\d)")


def play_and_leave(qtbot, window: MainWindow, game_id: str, moves: int = 3) -> tuple[Path, str]:
    """A hot-seat match of ``game_id`` with ``moves`` moves clicked on the board, left with
    Ctrl+H. Returns its autosave and what the match screen's clock said as it was left."""
    view = start_match(qtbot, window, game_id, HOT_SEAT, SHORT[game_id])
    rng = random.Random(3)
    for _ in range(moves):
        qtbot.waitUntil(lambda: on_handover(view) or deciding(view), timeout=WAIT_MS)
        if on_handover(view):
            click(qtbot, view.handover_page.button, what="the hand-over button")
            qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
        shown = view.view_data
        assert shown is not None
        click_path(qtbot, view, rng.choice(sorted(shown["legal"])))
        qtbot.waitUntil(lambda shown=shown: view.view_data is not shown or not deciding(view), timeout=WAIT_MS)
    session = window.session
    assert session is not None and session.autosave is not None
    qtbot.wait(1100)  # a second on the clock
    clock = view.clock_label.text()
    go_home(qtbot, window)
    assert session.autosave.is_file()
    return session.autosave, clock


def go_home(qtbot, window: MainWindow) -> None:
    window.activateWindow()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.match_view is None and window.home.isVisible(), timeout=WAIT_MS)


def start_again(qtbot, settings: AppSettings) -> MainWindow:
    """The app started again on the same settings and data folder."""
    again = MainWindow(AppSettings(settings.qsettings, settings.data_dir))
    qtbot.addWidget(again)
    again.resize(1200, 780)
    again.show()
    qtbot.waitUntil(lambda: again.home.loaded, timeout=20_000)
    return again


def entries(window: MainWindow) -> list[QListWidgetItem]:
    recent = window.home.recent
    return [recent.item(row) for row in range(recent.count())]


def entry_of(window: MainWindow, path: Path) -> QListWidgetItem:
    """The Recent matches entry of the file ``path``."""
    found = [item for item in entries(window) if item.data(Qt.ItemDataRole.UserRole) == path]
    assert len(found) == 1, [item.text() for item in entries(window)]
    return found[0]


def choose_entry(qtbot, window: MainWindow, item: QListWidgetItem) -> None:
    recent = window.home.recent
    recent.scrollToItem(item)
    click(qtbot, recent.viewport(), recent.visualItemRect(item).center(), f"the entry {item.text()!r}")
    assert recent.currentItem() is item


def shown_boxes(window: MainWindow) -> list[QMessageBox]:
    return [box for box in window.findChildren(QMessageBox) if box.isVisible()]


def message_box(qtbot, window: MainWindow) -> QMessageBox:
    """The one message box showing in ``window`` (waited for)."""
    qtbot.waitUntil(lambda: bool(shown_boxes(window)), timeout=WAIT_MS)
    (box,) = shown_boxes(window)
    return box


def press_ok(qtbot, window: MainWindow, box: QMessageBox) -> None:
    click(qtbot, box.button(QMessageBox.StandardButton.Ok), what="OK")
    qtbot.waitUntil(lambda: not shown_boxes(window), timeout=WAIT_MS)


def test_damaged_autosaves_are_listed_with_why_and_where_and_kept(qtbot, window: MainWindow, settings) -> None:
    """Finding 7: one autosave cut to 200 bytes, another replaced with other JSON, with the
    app closed. At the next start both are in Recent matches, each naming its file and saying
    what is wrong, in the words Match → Open match… uses; no message box comes up by itself;
    choosing one and clicking Resume (or pressing Enter on it) shows the whole path; the files
    are left as they are."""
    cut, _ = play_and_leave(qtbot, window, "soccero")
    foreign, _ = play_and_leave(qtbot, window, "pawn-soccer")
    window.close()
    cut.write_bytes(cut.read_bytes()[:200])
    foreign.write_text(json.dumps({"hello": [1, 2, 3]}))
    damaged = {cut: cut.read_bytes(), foreign: foreign.read_bytes()}

    again = start_again(qtbot, settings)
    assert QApplication.activeModalWidget() is None
    assert not shown_boxes(again)
    cut_entry, foreign_entry = entry_of(again, cut), entry_of(again, foreign)
    # Its name, and the folder it is in (UI audit 8: the name alone, where the README promises
    # "where it is").
    folder = folder_words(cut.parent)
    assert folder == str(settings.autosave_dir)  # the tests' data folder is outside the home folder
    assert cut_entry.text() == (
        f"Could not read a match: {cut.name} is damaged or cut short, so it cannot be opened as a match."
        f" It is in {folder}"
    )
    assert foreign_entry.text() == (
        f"Could not read a match: {foreign.name} is not a soccerdesk match file. It is in {folder}"
    )
    # The same words as Match → Open match… gives for the same file.
    assert again.open_path(cut) is False
    assert again.last_message in cut_entry.text()
    press_ok(qtbot, again, message_box(qtbot, again))

    # Chosen and Resume clicked: why, and the whole path, in a box; no match opens.
    choose_entry(qtbot, again, cut_entry)
    assert again.home.resume_button.isEnabled()
    click(qtbot, again.home.resume_button, what="Resume / replay")
    box = message_box(qtbot, again)
    assert "damaged or cut short" in box.text() and cut.name in box.text()
    assert str(cut) in box.informativeText() and "Nothing was deleted" in box.informativeText()
    assert again.match_view is None
    press_ok(qtbot, again, box)

    # The keyboard way: the entry chosen, Enter.
    choose_entry(qtbot, again, foreign_entry)
    QTest.keyClick(again.home.recent, Qt.Key.Key_Return)
    box = message_box(qtbot, again)
    assert "is not a soccerdesk match file" in box.text() and str(foreign) in box.informativeText()
    press_ok(qtbot, again, box)
    assert again.match_view is None

    assert {path: path.read_bytes() for path in damaged} == damaged  # neither deleted nor rewritten
    again.close()


def test_a_folder_in_the_home_folder_is_named_from_it(monkeypatch, tmp_path: Path) -> None:
    """A damaged file's folder in Recent matches: the data folder under the home folder reads
    "~/…", not a long path from the root."""
    monkeypatch.setenv("HOME", str(tmp_path))
    assert folder_words(tmp_path / ".local" / "share" / "soccerdesk" / "autosave") == (
        "~/.local/share/soccerdesk/autosave"
    )
    assert folder_words(tmp_path) == "~"
    assert folder_words(Path("/srv/matches")) == "/srv/matches"


def test_a_record_whose_actions_are_text_is_listed_with_why(qtbot, window: MainWindow, settings) -> None:
    """Finding 7 with finding 8: a match file whose "actions" became text is not listed as a
    match of five actions; its entry says what is wrong with it, as the rules word it."""
    path, _ = play_and_leave(qtbot, window, "soccer-go")
    window.close()
    record = json.loads(path.read_text(encoding="utf-8"))
    record["actions"] = "hello"
    path.write_text(json.dumps(record), encoding="utf-8")

    again = start_again(qtbot, settings)
    assert entry_of(again, path).text() == (
        f"Could not read a match: {path.name}: the record's actions are not a list (they are text)."
        f" It is in {folder_words(path.parent)}"
    )
    again.close()


def test_an_entry_gives_the_time_played_as_the_match_screen_does(qtbot, window: MainWindow) -> None:
    """Finding 11b: Recent matches gives each match's time played, in the match screen's words,
    and the match resumes with that time on its clock."""
    path, clock_when_left = play_and_leave(qtbot, window, "soccer-go")
    entry = entry_of(window, path)
    listed = CLOCK.search(entry.text())
    assert listed is not None, entry.text()
    left = CLOCK.fullmatch(clock_when_left)
    assert left is not None, clock_when_left

    def seconds(found: re.Match[str]) -> int:
        return int(found[1]) * 60 + int(found[2])

    assert seconds(listed) >= 1
    assert 0 <= seconds(listed) - seconds(left) <= 1  # the moments between the last tick and leaving
    assert re.fullmatch(r"Soccer-Go: Home \d–\d Away  ·  unfinished  ·  Time played \d\d:\d\d  ·  .+", entry.text())

    choose_entry(qtbot, window, entry)
    click(qtbot, window.home.resume_button, what="Resume / replay")
    view = window.match_view
    assert view is not None
    qtbot.waitUntil(lambda: CLOCK.fullmatch(view.clock_label.text()) is not None, timeout=WAIT_MS)
    resumed = CLOCK.fullmatch(view.clock_label.text())
    assert resumed is not None
    assert 0 <= seconds(resumed) - seconds(listed) <= 1


def test_you_play_is_hidden_against_a_friend_at_the_same_screen(qtbot, window: MainWindow) -> None:
    """Finding 11a: "You play" chooses a seat against the computer; with a friend (hot-seat)
    both seats are people's, so it and its label are gone until a computer is chosen again."""
    home = window.home
    (label,) = [label for label in home.findChildren(QLabel) if label.text() == "You play"]
    choose_in_combo(qtbot, home.opponent, ("bot", "normal"))
    assert home.side.isVisible() and label.isVisible()
    choose_in_combo(qtbot, home.opponent, HOT_SEAT)
    assert not home.side.isVisible() and not label.isVisible()
    choose_in_combo(qtbot, home.opponent, ("bot", "easy"))
    assert home.side.isVisible() and label.isVisible()
    # Chosen when the app starts again: hidden from the first moment.
    choose_in_combo(qtbot, home.opponent, HOT_SEAT)
    click(qtbot, home.cards["soccer-go"], what="the Soccer-Go card")
    click(qtbot, home.start_button, what="Kick off")
    assert window.match_view is not None
    go_home(qtbot, window)
    again = start_again(qtbot, window.settings)
    assert tuple(again.home.opponent.currentData()) == HOT_SEAT
    assert not again.home.side.isVisible()
    again.close()


def test_enter_presses_the_focused_home_screen_button(qtbot, tmp_path) -> None:
    """QA pass 15: Tab to "How to play this game", then Enter: nothing happened (Space worked)."""
    from PySide6.QtCore import QSettings

    from soccerdesk.ui.settings import AppSettings

    settings = AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), tmp_path / "data")
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.home.loaded, timeout=20_000)
    window.activateWindow()
    for _ in range(60):
        focused = QApplication.focusWidget()
        if focused is not None and focused.objectName() == "how-to-play":
            break
        QTest.keyClick(window.windowHandle(), Qt.Key.Key_Tab)
    else:
        raise AssertionError("Tab never reached How to play")
    with qtbot.waitSignal(window.home.help_requested, timeout=2_000):
        QTest.keyClick(window.windowHandle(), Qt.Key.Key_Return)


def test_a_match_that_no_longer_replays_to_its_end_goes_on_from_where_it_does(
    qtbot, window: MainWindow, settings
) -> None:
    """A rule mended (Soccero's making room, 5 December) can make an older autosave refuse an
    action part-way: the match was lost. Resumed from Recent matches, the player is offered to
    go on from the last position that replays; the file is kept, out of the list."""
    path, _clock = play_and_leave(qtbot, window, "pawn-soccer", moves=4)
    record = json.loads(path.read_text(encoding="utf-8"))
    kept = len(record["actions"])
    record["actions"].append([0, "move A1-A2"])  # what the rules now refuse
    record["actions"].append([1, "end"])
    path.write_text(json.dumps(record), encoding="utf-8")
    window.home.refresh_recent()
    choose_entry(qtbot, window, entry_of(window, path))
    click(qtbot, window.home.resume_button, what="Resume / replay")
    box = message_box(qtbot, window)
    assert f"action {kept + 1}" in box.text() and f"first {kept} actions replay" in box.text()
    # UI audit 8: Enter went on (a copy started by one key meant for the boxes before); it
    # leaves things as they are now.
    QTest.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not shown_boxes(window), timeout=WAIT_MS)
    assert window.match_view is None and path.is_file()
    click(qtbot, window.home.resume_button, what="Resume / replay")
    box = message_box(qtbot, window)
    go_on = next(b for b in box.buttons() if b.text() == f"Go on from action {kept}")
    click(qtbot, go_on, what="Go on")
    qtbot.waitUntil(lambda: window.match_view is not None, timeout=WAIT_MS)
    assert window.session is not None and window.session.state.ply == kept
    assert not path.exists() and path.with_name(f"{path.name}.unreplayable").is_file()  # kept
    go_home(qtbot, window)
    assert all(item.data(Qt.ItemDataRole.UserRole) != path for item in entries(window))
    # The copy says what it is in Recent matches (it was a second row just like the match's).
    copy = window.home.recent.item(0).text()
    assert copy.startswith(f"Pawn Soccer (copy from action {kept}): Home "), copy


def test_recent_matches_shows_whole_entries_at_the_smallest_window(
    qtbot, window: MainWindow, settings: AppSettings
) -> None:
    """New-user audit (7 December), finding 6: at 1000 × 540 Recent matches showed one and a
    half entries, the second wrapped onto a line cut across ("07 Dec / 13:2…"). At the smallest
    window the list shows whole entries only, two at least, each on one line (cut with "…"
    where narrower, its tooltip whole), an unreadable file's too; bigger, it shows more."""
    soccero, _ = play_and_leave(qtbot, window, "soccero")
    pawns, _ = play_and_leave(qtbot, window, "pawn-soccer")
    window.close()
    pawns.write_text(json.dumps({"hello": [1, 2, 3]}))
    again = start_again(qtbot, settings)
    recent = again.home.recent
    seen = {}
    for size in (again.minimumSize(), QSize(1280, 720)):
        again.resize(size)
        qtbot.waitUntil(lambda size=size: again.size() == size, timeout=2_000)
        qtbot.wait(50)
        room = recent.viewport().rect()
        shown = [item for item in entries(again) if recent.visualItemRect(item).intersects(room)]
        assert all(room.contains(recent.visualItemRect(item)) for item in shown), [
            (item.text(), recent.visualItemRect(item), room) for item in shown
        ]
        assert all(recent.visualItemRect(item).height() < 2 * recent.fontMetrics().lineSpacing() for item in shown)
        seen[size.width()] = len(shown)
    assert seen[again.minimumSize().width()] >= 2
    assert seen[1280] == len(entries(again)) == 2
    assert entry_of(again, soccero).text() in entry_of(again, soccero).toolTip()
    assert entry_of(again, pawns).text() in entry_of(again, pawns).toolTip()


def simulated(settings: AppSettings, *args: str) -> list[Path]:
    """Records written by the simulator's ``--record`` straight into the autosave folder, as a
    player who wants to watch the bots' matches there would put them (README: "--record DIR
    writes every match as a replayable record")."""
    from soccerdesk import sim

    assert sim.main(["--game", "pawn-soccer", "--json", "--record", str(settings.autosave_dir), *args]) == 0
    return sorted(settings.autosave_dir.glob("*.json"))


def test_a_finished_simulator_record_is_listed_at_full_time_with_its_score(qtbot, settings: AppSettings) -> None:
    """Docs audit s28, finding 2: a finished 3–0 record made by ``soccerdesk.sim --record`` was
    listed "unfinished" with the tooltip "Continue this match" (only the app's own block in a
    file said a match was over), and Resume then opened its replay. It is listed as its actions
    replay: the score, "full time", "Replay"; Resume opens the replay."""
    from soccerdesk.rules import get_game

    (path,) = simulated(settings, "--players", "normal", "normal", "--matches", "1", "--seed", "1")
    final = get_game("pawn-soccer").load(json.loads(path.read_text(encoding="utf-8")))
    assert final.is_terminal() and "app" not in json.loads(path.read_text(encoding="utf-8"))
    score = f"{final.score[0]}–{final.score[1]}"
    window = start_again(qtbot, settings)
    qtbot.waitUntil(lambda: score in entry_of(window, path).text(), timeout=WAIT_MS)
    entry = entry_of(window, path)
    assert entry.text().startswith(f"Pawn Soccer: Home {score} Away  ·  full time  ·  "), entry.text()
    assert entry.toolTip().endswith("\nReplay"), entry.toolTip()
    choose_entry(qtbot, window, entry)
    assert window.home.resume_button.toolTip().startswith("Replay the match chosen")
    click(qtbot, window.home.resume_button, what="Resume / replay")
    qtbot.waitUntil(lambda: window.replay_view is not None and window.replay_view.isVisible(), timeout=WAIT_MS)
    assert window.match_view is None
    window.close()


def test_a_record_whose_actions_do_not_replay_is_listed_as_damaged_with_what_and_where(
    qtbot, settings: AppSettings
) -> None:
    """Docs audit s28, finding 2: a record whose actions do not replay was listed as an
    ordinary match with a blank score; only Resume said what was wrong, and not where the file
    is (README: "A damaged match file is listed too, saying what is wrong with it and where it
    is"). Two simulator records damaged by hand: one refusing its first action, one its 51st.
    Each entry says what is wrong and where; Resume on the first explains with the whole path,
    on the second offers to go on from action 50. Nothing is rewritten."""
    (made,) = simulated(settings, "--players", "normal", "normal", "--matches", "1", "--seed", "1")
    record = json.loads(made.read_text(encoding="utf-8"))
    made.unlink()
    first, part = settings.autosave_dir / "broken-actions.json", settings.autosave_dir / "part.json"
    first.write_text(json.dumps({**record, "actions": [[0, "move Z1-Z2"]]}), encoding="utf-8")
    actions = record["actions"]
    part.write_text(json.dumps({**record, "actions": [*actions[:50], [0, "move Z1-Z2"], *actions[51:]]}))
    damaged = {path: path.read_bytes() for path in (first, part)}

    window = start_again(qtbot, settings)
    folder = folder_words(settings.autosave_dir)
    for path, action in ((first, 1), (part, 51)):
        said = f"Could not replay a match: {path.name}: action {action} ('move Z1-Z2' by Home) cannot be replayed: "
        qtbot.waitUntil(lambda path=path, said=said: entry_of(window, path).text().startswith(said), timeout=WAIT_MS)
        entry = entry_of(window, path)
        assert entry.text().endswith(f". It is in {folder}"), entry.text()
        assert not entry.icon().isNull() and str(path) in entry.toolTip()

    choose_entry(qtbot, window, entry_of(window, first))
    click(qtbot, window.home.resume_button, what="Resume / replay")
    box = message_box(qtbot, window)
    assert "action 1 ('move Z1-Z2' by Home) cannot be replayed" in box.text() and first.name in box.text()
    assert str(first) in box.informativeText()
    press_ok(qtbot, window, box)
    assert window.match_view is None and window.replay_view is None

    choose_entry(qtbot, window, entry_of(window, part))
    assert "go on" in window.home.resume_button.toolTip()
    click(qtbot, window.home.resume_button, what="Resume / replay")
    box = message_box(qtbot, window)
    assert "action 51" in box.text()
    assert [b.text() for b in box.buttons() if b.text().startswith("Go on")] == ["Go on from action 50"]
    click(qtbot, next(b for b in box.buttons() if b.text() == "Cancel"), what="Cancel")
    qtbot.waitUntil(lambda: not shown_boxes(window), timeout=WAIT_MS)
    assert {path: path.read_bytes() for path in damaged} == damaged
    window.close()


def whole_rows_shown(window: MainWindow) -> int:
    recent = window.home.recent
    room = recent.viewport().rect()
    return sum(room.contains(recent.visualItemRect(item)) for item in entries(window))


@pytest.mark.parametrize(("size", "least"), [(QSize(1280, 728), 8), (QSize(1000, 540), 4)])
def test_recent_matches_takes_the_room_the_home_screen_has(
    qtbot, settings: AppSettings, size: QSize, least: int
) -> None:
    """First-minute audit s28, finding 5: after five matches the fifth was below the fold, the
    list held to a quarter of the height: 4 rows in the window a 1366 × 768 screen opens
    (1280 × 728), 2 at the smallest (1000 × 540), the game cards' pictures at full size. It
    shows 8 and 4 now; the cards keep their whole descriptions and every button stays on
    screen."""
    simulated(settings, "--players", "random", "random", "--matches", "10", "--seed", "2", "--option", "goals=1")
    window = start_again(qtbot, settings)
    window.resize(size)
    qtbot.waitUntil(lambda: window.size() == size, timeout=2_000)
    qtbot.wait(50)  # the layouts settle
    assert whole_rows_shown(window) >= least
    home = window.home
    for card in home.cards.values():
        text_height = card.fontMetrics().lineSpacing() * len(card.text().split("\n"))
        assert card.contentsRect().height() - card.iconSize().height() >= text_height, card.game_id
    for button in (home.resume_button, home.start_button, home.learn_button):
        assert_reachable(button, what=button.text())
    window.close()


def test_the_newest_match_is_chosen_so_resume_works_at_once(qtbot, window: MainWindow, settings) -> None:
    """First-minute audit s28, finding 5: "Resume / replay" was grey with nothing chosen and
    nothing said to pick a match first (a double-click worked, which a new player may not try).
    With no match it is grey and says why; after a match the newest is chosen, and Resume
    continues it without a click in the list."""
    home = window.home
    assert not home.resume_button.isEnabled()
    assert home.resume_button.toolTip().startswith("No matches yet")
    simulated(settings, "--players", "random", "random", "--matches", "1", "--seed", "2", "--option", "goals=1")
    path, _clock = play_and_leave(qtbot, window, "soccer-go")
    assert home.recent.currentItem() is entry_of(window, path)
    assert home.resume_button.isEnabled()
    assert home.resume_button.toolTip() == "Continue the match chosen in the list (or double-click one)"
    click(qtbot, home.resume_button, what="Resume / replay")
    qtbot.waitUntil(lambda: window.match_view is not None, timeout=WAIT_MS)
    assert window.session is not None and window.session.autosave == path
