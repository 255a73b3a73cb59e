""" "What happened" as each player at a hot-seat screen reads it (issue 13, items 3 and 8).

The log keeps the match's events and is told again for whoever takes the screen: zones named
as that player's board labels them, and a secret told once, in full, to the player who may
read it (never also as the public line that retells it without the secret). Played as people
play: the game, the opponent and Kick off clicked on the home screen, each action clicked on
the board, the hand-over cover's button clicked.
"""

from __future__ import annotations

import re

from clicking import WAIT_MS, click, click_path, deciding, on_handover, start_match

from soccerdesk.ui.boards.big_time_soccer import zone_words
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView

HOT_SEAT = ("human", None)
TO_ZONE = re.compile(r" to ((?:D|M|A)[12] (?:left|centre|right))$")


def take_over(qtbot, view: MatchView) -> int:
    """Click the hand-over cover's button (if it shows) and wait for the board; the seat at the screen."""
    qtbot.waitUntil(lambda: on_handover(view) or deciding(view), timeout=WAIT_MS)
    if on_handover(view):
        click(qtbot, view.handover_page.button, what="the hand-over button")
        qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
    assert view.view_data is not None
    return int(view.view_data["seat"])


def click_and_wait(qtbot, view: MatchView, text: str) -> None:
    """Play ``text`` with clicks on the board and wait until the position moves on."""
    shown = view.view_data
    click_path(qtbot, view, text)
    qtbot.waitUntil(lambda: view.view_data is not shown or not deciding(view), timeout=WAIT_MS)


def ball_zone_words(view: MatchView) -> str:
    """The zone the ball is drawn in, as the board on screen labels it ("M1 centre")."""
    board = view.board
    assert view.view_data is not None
    return zone_words(board.zone_name(*board.own(view.view_data["state"]["ball"])))


def moves_of(lines: list[str], name: str) -> list[str]:
    """The log's lines that move the ball to a zone for ``name`` ("Away plays ... to M2 centre")."""
    return [line for line in lines if line.startswith(f"{name} plays ") and TO_ZONE.search(line)]


def test_the_log_names_zones_as_the_board_of_the_player_now_at_the_screen(qtbot, window: MainWindow) -> None:
    """Issue 13.8 in hot-seat: after the hand-over the log still named zones from the side of
    the player who had left the screen."""
    view = start_match(qtbot, window, "big-time-soccer", HOT_SEAT, {})
    # Play on (passing when offered) until a player moves the ball with a card and the other
    # takes the screen.
    for _ in range(12):
        mover = take_over(qtbot, view)
        moves = [text for text in view.board.keyboard_actions() if text.startswith("play ") and text.count(" ") == 2]
        if not moves:
            click_and_wait(qtbot, view, view.board.keyboard_actions()[0])
            continue
        click_and_wait(qtbot, view, moves[0])
        break
    else:
        raise AssertionError("nobody moved the ball with a card")
    name = view.names[mover]
    qtbot.waitUntil(lambda: on_handover(view) or deciding(view), timeout=WAIT_MS)
    assert on_handover(view), "a hot-seat match hands the screen over after a card is played"
    reader = take_over(qtbot, view)
    assert reader == 1 - mover
    # The card's line as the new reader's board labels the zone the ball went to.
    read_now = moves_of(view.log_lines(), name)
    assert read_now, view.log_lines()
    seen_zone = TO_ZONE.search(read_now[-1]).group(1)  # type: ignore[union-attr]
    assert seen_zone == ball_zone_words(view), (read_now[-1], ball_zone_words(view))
    # The same event in the mover's words named the mirrored zone (every row changes sides).
    mover_lines = moves_of(view.log_lines_for(mover), name)
    assert TO_ZONE.search(mover_lines[-1]).group(1) != seen_zone  # type: ignore[union-attr]

    # The reader answers; back at the mover's screen the line names the zone as their board does.
    click_and_wait(qtbot, view, view.board.keyboard_actions()[0])
    while take_over(qtbot, view) != mover:
        click_and_wait(qtbot, view, view.board.keyboard_actions()[0])
    again = moves_of(view.log_lines(), name)
    assert again[: len(mover_lines)] == mover_lines  # the events kept, told in the mover's words


def draw_lines(view: MatchView, name: str) -> tuple[list[str], list[str]]:
    """``name``'s draws in the log: (cards named, public "draws a card" / "draws 6 cards" lines)."""
    draws = [line for line in view.log_lines() if line.startswith(f"{name} draws ")]
    public = [line for line in draws if re.fullmatch(rf"{re.escape(name)} draws (a card|\d+ cards)", line)]
    return [line for line in draws if line not in public], public


def cards_told(lines: list[str], name: str) -> int:
    """How many of ``name``'s draws ``lines`` tell: a line a card, "draws 6 cards" six,
    "draws Pass Ahead 2 (×2)" two."""
    total = 0
    for line in lines:
        if not line.startswith(f"{name} draws "):
            continue
        many = re.fullmatch(r".* draws (\d+) cards|.* \(×(\d+)\)", line)
        total += int(many.group(1) or many.group(2)) if many else 1
    return total


def test_a_secret_is_told_once_to_its_reader_and_its_public_line_to_the_other(qtbot, window: MainWindow) -> None:
    """A seat that reads "Home draws Dribble Ahead 1" does not also read "Home draws a card"
    (it read like two draws); the other seat reads only the public line."""
    view = start_match(qtbot, window, "big-time-soccer", HOT_SEAT, {})
    first = take_over(qtbot, view)
    other = 1 - first
    named, public = draw_lines(view, view.names[first])
    their_named, their_public = draw_lines(view, view.names[other])
    assert named and not public, view.log_lines()  # my own cards, each once
    assert their_public and not their_named, view.log_lines()  # the other's: no card named
    # The deal reads as one line for the other's six cards, not six times "draws a card".
    assert f"{view.names[other]} draws 6 cards" in view.log_lines(), view.log_lines()
    assert cards_told(named, view.names[first]) == 6, named
    dealt = {first: cards_told(named, view.names[first]), other: cards_told(their_public, view.names[other])}

    click_and_wait(qtbot, view, view.board.keyboard_actions()[0])
    assert take_over(qtbot, view) == other
    # Now the other player reads their own cards by name, and mine only as drawn cards.
    mine_named, mine_public = draw_lines(view, view.names[first])
    theirs_named, theirs_public = draw_lines(view, view.names[other])
    assert theirs_named and not theirs_public, view.log_lines()
    assert mine_public and not mine_named, view.log_lines()
    assert cards_told(theirs_named, view.names[other]) >= dealt[other]
    assert cards_told(mine_public, view.names[first]) >= dealt[first]
    # Every draw is told once, whoever reads: as many cards for each seat's draws either way.
    for name in view.names:
        told = [cards_told(view.log_lines_for(seat), name) for seat in (0, 1)]
        assert told[0] == told[1], (name, told)


PUBLIC_CARD = re.compile(
    r"^(?P<name>.+) (?:draws (?:an attacking|a defending) card\.|puts (?:an attacking|a defending) card aside\.)$"
)


def test_soccer_go_tells_my_draw_by_name_once_and_the_computers_without_it(qtbot, window: MainWindow) -> None:
    """Soccer-Go tells a draw as "draws a defending card" (the back of the card, for everyone)
    and "draws Block" (the card, for its owner): the owner reads only the second. The replay,
    which shows every card, tells each draw once too."""
    view = start_match(qtbot, window, "soccer-go", ("bot", "normal"), {})
    me, computer = view.names
    for _ in range(200):
        qtbot.waitUntil(lambda: deciding(view) or on_handover(view), timeout=WAIT_MS)
        lines = view.log_lines()
        mine = [line for line in lines if line.startswith(f"{me} draws ")]
        theirs = [m for m in map(PUBLIC_CARD.match, lines) if m and m.group("name") == computer]
        if mine and theirs:
            break
        click_and_wait(qtbot, view, view.board.keyboard_actions()[0])
    else:
        raise AssertionError("neither side drew a card in 200 decisions")
    assert not [m for m in map(PUBLIC_CARD.match, lines) if m and m.group("name") == me], lines
    assert all(PUBLIC_CARD.match(line) is None for line in mine), mine  # my draws name the card
    assert all(m.group(0).startswith(f"{computer} ") for m in theirs)  # theirs do not

    from soccerdesk.ui.replay import ReplayViewer

    record = view.session.record()
    assert record is not None
    replay = ReplayViewer(view.game, record, names=view.names)
    try:
        steps = [replay.log.item(i).text().split("\n") for i in range(replay.log.count())]
        for step in steps:
            # Every card is shown in the replay: a public line never repeats a draw the step names.
            for name in view.names:
                named = [line for line in step if line.startswith(f"{name} draws ") and not PUBLIC_CARD.match(line)]
                backs = [line for line in step if (m := PUBLIC_CARD.match(line)) and m.group("name") == name]
                assert not (named and backs), step
        assert any(line.startswith(f"{computer} draws ") for step in steps for line in step)
    finally:
        replay.deleteLater()


def test_the_square_under_the_last_players_mouse_is_not_framed_for_the_next(qtbot, window: MainWindow) -> None:
    """QA: in hot-seat Pawn Soccer the keeper pointed at a goal square and clicked it (its secret
    penalty dive); after the hand-over the kicker's board still framed that square as "under the
    mouse", since the board heard of no mouse move while the cover was up. Soccer-Go's face-down
    picks go the same way: the marker points at a number and clicks it, the cover goes up."""
    from driving import click_on_screen
    from PySide6.QtTest import QTest

    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, {})
    first = take_over(qtbot, view)
    board, viewport = view.board, view.view.viewport()
    top = viewport.window()
    pointed = []
    for _ in range(10):  # the first player's turn, clicked as a person: point at a thing, click it
        assert view.view_data is not None
        legal = view.view_data["legal"]
        text = next((t for t in legal if t in ("end", "stop")), legal[0])
        shown = view.view_data
        for key in board.paths.paths[text]:
            spot = view.view.mapFromScene(board.pos_of(key))
            QTest.mouseMove(top.windowHandle(), viewport.mapTo(top, spot))
            qtbot.waitUntil(lambda key=key: board.hovered == key, timeout=WAIT_MS)
            pointed.append(key)
            click_on_screen(viewport, spot)
        qtbot.waitUntil(lambda shown=shown: view.view_data is not shown or on_handover(view), timeout=WAIT_MS)
        if on_handover(view) or view.view_data["seat"] != first:
            break
    qtbot.waitUntil(lambda: on_handover(view), timeout=WAIT_MS)
    assert pointed
    assert board.hovered is None  # the cover is up: the mouse is over no square
    assert take_over(qtbot, view) != first
    assert board.hovered is None


def test_the_log_under_the_hand_over_cover_tells_the_move_just_played(qtbot, window: MainWindow) -> None:
    """QA: while the cover waited for the next player, "What happened" stopped before the move
    just played (it came when the next player took the screen). It is there under the cover,
    without anyone's secret: Home's pick shows as "Home has chosen.", not as its number."""
    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, {})
    first = take_over(qtbot, view)
    name = view.names[first]
    assert view.view_data is not None
    pick = view.view_data["legal"][0]
    click_path(qtbot, view, pick)
    qtbot.waitUntil(lambda: on_handover(view), timeout=WAIT_MS)
    lines = view.log_lines()
    assert lines and lines[-1] == f"{name} has chosen.", lines
    number = pick.split()[-1]
    assert not any(line.startswith(name) and line.endswith(f" {number}.") for line in lines), lines
    take_over(qtbot, view)
    after = iter(view.log_lines())  # the next player's own lines join in their places;
    assert all(line in after for line in lines)  # nothing shown under the cover goes or moves
    assert view.log_lines().count(f"{name} has chosen.") == lines.count(f"{name} has chosen.")  # not told twice


def test_at_one_screen_the_other_side_waits_for_the_screen_it_is_not_choosing(qtbot, window: MainWindow) -> None:
    """UI audit, 7 December: while one player picks, the other's box said "choosing…", though the
    other picks only after the hand-over."""
    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, {})
    take_over(qtbot, view)
    board = view.board
    assert board.opponent_status == "waits for the screen"  # type: ignore[attr-defined]
