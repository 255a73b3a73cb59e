"""The Big Time Soccer board: every legal action is reachable by clicks (cards, zones, goal,
goalkeeper, buttons), illegal clicks explain themselves, drawing never fails over whole
random matches, and the hand shown is only the viewer's own."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from painting import SMALLEST_BOARD, NotingPainter, unreadable_texts
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from test_board_pawn_soccer import deciding_views, descriptions, random_match, refusals  # shared board-test helpers

from soccerdesk.rules import CHANCE
from soccerdesk.rules.api import State
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.big_time_soccer import (
    BUTTON,
    BUTTON_LABELS,
    FACE,
    KIND_WORDS,
    MODE_LABELS,
    Board,
    paint_card_on_its_side,
    roll_words,
    short_name,
    side_name_rect,
    side_name_text,
    zone_words,
)
from soccerdesk.ui.boards.drawing import Painted, button_face, text_extent
from soccerdesk.ui.match_view import BoardView

GAME = "big-time-soccer"


@pytest.fixture(scope="module")
def match_states() -> list[State]:
    return random_match(21, GAME) + random_match(22, GAME, mode="cup")


def decisions(states: list[State]) -> list[dict[str, Any]]:
    """The view of every seat that must decide (chance steps left out)."""
    return [s.view(seat) for s in states for seat in s.current_players() if seat != CHANCE]


def test_every_legal_action_is_playable_by_clicking_the_board(qtbot: Any, match_states: list[State]) -> None:
    """Issue 6: cards, zones, the goal, the goalkeeper and buttons produce every legal text."""
    boards = {0: Board(BoardConfig(GAME, 0)), 1: Board(BoardConfig(GAME, 1))}
    rng = random.Random(3)
    verbs: set[str] = set()
    for view in decisions(match_states)[::2]:
        board = boards[view["seat"]]
        board.set_view(view)
        emitted: list[str] = []
        board.action_chosen.connect(emitted.append)
        for text in view["legal"]:
            emitted.clear()
            assert board.play(text), f"{text}: a step of its click path is not drawn"
            assert emitted == [text]
            verbs.add(text.split()[0])
        board.action_chosen.disconnect(emitted.append)
        assert all(refusals(qtbot, board, rng, 2))
    assert {"play", "shoot", "clear-in", "clear-out", "hold", "discard", "reply", "goal-kick", "throw-in"} <= verbs


def test_every_button_label_fits_its_button(qtbot: Any, match_states: list[State]) -> None:
    """ "Clear (goal kick to them)" ran over the bottom of its button: every label the panel
    shows is drawn on one line, or two, inside the button."""
    boards = {0: Board(BoardConfig(GAME, 0)), 1: Board(BoardConfig(GAME, 1))}
    labels = {*BUTTON_LABELS.values(), *MODE_LABELS.values()}
    for view in decisions(match_states):
        board = boards[view["seat"]]
        board.set_view(view)
        labels.update(board.action_label(text) for text in board.loose_actions())
    for label in sorted(labels):
        room, font, text = button_face(label, QRectF(QPointF(0, 0), BUTTON), bold=True)  # lit: bold, the widest
        extent = text_extent(text, font.pointSizeF(), bold=True)
        assert extent.width() <= room.width() and extent.height() <= room.height(), (label, text)


def test_hot_seat_board_draws_the_field_from_the_acting_seat(qtbot: Any, match_states: list[State]) -> None:
    """Hot-seat shares one board (perspective 0); zones in action texts are in the actor's frame,
    so the board turns to whoever acts and every action is still clickable."""
    board = Board(BoardConfig(GAME, 0))
    view = next(v for v in decisions(match_states) if v["seat"] == 1 and any(t.startswith("play ") for t in v["legal"]))
    board.set_view(view)
    for text in view["legal"]:
        with qtbot.waitSignal(board.action_chosen) as blocker:
            assert board.play(text)
        assert blocker.args == [text]
    # The ball is drawn in the zone the actor's own frame names.
    ball = next(item for item in board.items() if item.toolTip().startswith("The ball"))
    assert ball.pos() == board.zone_rect(view["state"]["ball_zone"][1]).topLeft()


def test_a_card_highlights_the_zones_it_can_reach(qtbot: Any, match_states: list[State]) -> None:
    """Issue 6: legal zones are highlighted for the chosen card, and only those."""
    view = next(v for v in decisions(match_states) if any(t.startswith("play ") for t in v["legal"]))
    board = Board(BoardConfig(GAME, view["seat"]))
    board.set_view(view)
    code = next(t.split()[1] for t in view["legal"] if t.startswith("play "))
    board.click(("card", code))
    reachable = {("zone", t.split()[2]) for t in view["legal"] if t.startswith(f"play {code} ")}
    zones = {k for k in board.targets if k[0] == "zone"}
    assert zones == reachable


def test_illegal_clicks_explain_why(qtbot: Any, match_states: list[State]) -> None:
    """Issue 6: a click that leads to no legal action says why."""
    views = decisions(match_states)
    view = next(
        v
        for v in views
        if v["state"]["phase"] == "play"
        and any(c in ("C", "I", "C3", "I3", "STAR") for c in v["state"]["hand"])
        and not v["state"]["ball_zone"][v["seat"]].startswith("A")
    )
    board = Board(BoardConfig(GAME, view["seat"]))
    board.set_view(view)
    defensive = next(c for c in view["state"]["hand"] if c in ("C", "I", "C3", "I3", "STAR"))
    with qtbot.waitSignal(board.hint) as blocker:
        board.click(("card", defensive))
    assert "reply" in blocker.args[0]
    with qtbot.waitSignal(board.hint) as blocker:
        board.click(("goal",))
    assert "Shot" in blocker.args[0]
    # A card, then a zone it cannot reach.
    text = next(t for t in view["legal"] if t.startswith("play "))
    code = text.split()[1]
    board.click(("card", code))
    unreachable = next(k for k in (("zone", r + c) for r in ("D1", "A2") for c in "LCR") if k not in board.targets)
    with qtbot.waitSignal(board.hint) as blocker:
        board.click(unreachable)
    assert unreachable[1] in blocker.args[0]
    # A spectator cannot act.
    spectator = Board(BoardConfig(GAME, None))
    spectator.set_view(match_states[60].view(None))
    with qtbot.waitSignal(spectator.hint) as blocker:
        spectator.click(("zone", "M1C"))
    assert blocker.args[0]


def test_render_never_fails_over_a_whole_match(qtbot: Any, match_states: list[State]) -> None:
    """Every state of a league and a cup match draws for the home seat, a sample for the away seat and a
    spectator; the d20 follows the events."""
    boards = [Board(BoardConfig(GAME, seat)) for seat in (0, 1, None)]
    for index, state in enumerate(match_states):
        events = [e.to_json() for e in state.events if e.visible_to(0)]
        for board in boards if index % 6 == 0 else boards[:1]:
            view = state.view(board.config.perspective)
            board.set_view(view, events)
            if view["legal"] and index % 5 == 0:
                board.set_preview(view["legal"][0])
    assert boards[0].last_roll is not None
    assert all(board.items() for board in boards)
    boards[0].set_view({"legal": [], "state": {}})  # a match window before its first view
    assert not boards[0].items()
    boards[0].set_view(match_states[-1].view(0))
    assert boards[0].items()


def test_only_the_viewers_hand_is_drawn(qtbot: Any, match_states: list[State]) -> None:
    """Hidden information: the board draws the viewer's cards and never a card key of the other hand."""
    state = match_states[200]
    board = Board(BoardConfig(GAME, 0))
    board.set_view(state.view(0))
    drawn = {item.data(0) for item in board.items() if isinstance(item.data(0), tuple) and item.data(0)[0] == "card"}
    assert drawn == {("card", code) for code in state.view(0)["state"]["hand"]}
    spectator = Board(BoardConfig(GAME, None))
    spectator.set_view(state.view(None))
    assert not [item for item in spectator.items() if isinstance(item.data(0), tuple) and item.data(0)[0] == "card"]


def test_keyboard_preview_names_the_card_and_the_zone(qtbot: Any, match_states: list[State]) -> None:
    """Not "play DA1P A1C": the card's name and the zone in words."""
    board = Board(BoardConfig(GAME, 0))
    views = [v for v in decisions(match_states) if v["seat"] == 0][::3]
    said = descriptions(board, views)
    plays = {text: words for text, words in said.items() if text.startswith("play ")}
    assert plays
    for text, words in plays.items():
        _, code, zone = text.split()
        assert code not in words.split() and zone not in words.split(), (text, words)
        assert words.startswith("Play ") and board.cards[code]["name"].split(",")[0].split(" (")[0] in words
    sides = {"L": "left", "C": "centre", "R": "right"}
    assert all(words.endswith(f"{text[-3:-1]} {sides[text[-1]]}") for text, words in plays.items())
    cards = {text: words for text, words in said.items() if text.split()[0] in ("discard", "reply", "passback")}
    assert all(text.split()[1] not in words.split() for text, words in cards.items() if text != "reply none")


def test_the_log_names_zones_as_the_readers_board_labels_them(qtbot: Any, match_states: list[State]) -> None:
    """Issue 13.8: the rules name a zone in the mover's frame ("Away plays Pass Ahead 2 to A1C")
    while the reader's board labels it otherwise (D2C from the other side). Each board says the
    zone as it labels it, in words, and it is where that board draws the ball."""
    boards = {seat: Board(BoardConfig(GAME, seat)) for seat in (0, 1)}
    code = re.compile(r"\b[DMA][12][LCR]\b")
    checked = {0: 0, 1: 0}
    for state in match_states:
        for event in (e.to_json() for e in state.events if e.kind == "play"):
            mover = event["data"]["seat"]
            for seat, board in boards.items():
                board.set_view(state.view(seat))
                said = board.event_text(event)
                ball = board.zone_name(*board.own(state.view(seat)["state"]["ball"]))
                assert said.endswith(f" to {zone_words(ball)}"), (event["text"], seat, said)
                assert not code.search(said), said
                checked[int(seat != mover)] += 1
    assert checked[0] > 10 and checked[1] > 10  # read by the mover and by the other side
    # A hot-seat log read again by the other player: the same board, the other reader's frame.
    event = {"kind": "play", "text": "Seat 1 plays Pass Ahead 2 to A1C", "data": {"seat": 1}}
    assert boards[0].event_text(event, reader=1) == "Seat 1 plays Pass Ahead 2 to A1 centre"
    assert boards[0].event_text(event, reader=0) == "Seat 1 plays Pass Ahead 2 to D2 centre"
    # QA: "plays Pass Right 1, then Dribble to D2 left" read as two cards played.
    event = {"kind": "play", "text": "Seat 1 plays Pass Right 1, then Dribble to A1C", "data": {"seat": 1}}
    assert boards[0].event_text(event, reader=1) == "Seat 1 plays Pass Right 1 (next: Dribble) to A1 centre"
    # A change of control says where, in the reader's frame (third rules audit).
    event = {"kind": "control", "text": "Seat 1 gains control of the ball in its D2L", "data": {"seat": 1}}
    assert boards[0].event_text(event, reader=0) == "Seat 1 gains control of the ball in A1 right"
    # Third rules audit, finding 2: two brackets in a row for a card that says where it is not played.
    event = {"kind": "play", "text": "Seat 0 plays Dribble Diagonal Left 1, then Pass (not in D1-D2) to A1C"}
    assert boards[0].event_text(event) == "Seat 0 plays Dribble Diagonal Left 1 (next: Pass; not in D1-D2) to A1C"
    # QA pass 14: "Goal kick lands in M2 left" did not say whose ball it is there.
    text = "Goal kick lands in seat 1's M2L: seat 1 controls the ball"
    event = {"kind": "goal_kick_result", "text": text, "data": {"seat": 1}}
    assert boards[0].event_text(event, reader=0) == "Goal kick lands in M1 right: seat 1 controls the ball"


def test_every_zone_in_event_texts_is_said_in_words(qtbot: Any, match_states: list[State]) -> None:
    """Issue 13.7/13.8: no zone code ("A1C", "its D1L", "seat 1's M2C") reaches a log line."""
    board = Board(BoardConfig(GAME, 1))
    board.set_view(match_states[-1].view(1))
    events = [e.to_json() for s in match_states for e in s.events]
    zoned = [e for e in events if re.search(r"\b[DMA][12][LCR]\b", e["text"])]
    assert {e["kind"] for e in zoned} >= {"play", "clear", "throw_in"}
    for event in zoned:
        said = board.event_text(event)
        assert not re.search(r"\b[DMA][12][LCR]\b|\bits\b|seat \d's [DMA]", said), (event["text"], said)


def test_a_die_roll_is_said_in_words(qtbot: Any) -> None:
    """The d20's caption and the rolling line: "aimed goal kick", not "aimed"; "goal kick", not "goal_kick"."""
    assert roll_words("goal_kick") == "goal kick" and roll_words("aimed") == "aimed goal kick"
    assert all("_" not in roll_words(chart) for chart in ("goal_kick", "defense", "red", "stoppage", "shootout"))


def test_card_faces_are_card_names_not_codes() -> None:
    """Issue 13.7: an animation showed "DDR1P"; the board names every card as its face does."""
    board = Board(BoardConfig(GAME, 0))
    for code, card in board.cards.items():
        name = board.card_name(code)
        assert name == short_name(card) and code not in name.split(), (code, name)
    assert board.card_name("DDR1P") == "Dribble Diagonal Right 1"


def test_every_card_name_fits_inside_the_border_at_8_points(qtbot: Any) -> None:
    """Issue 13.14: "Shot: Outside the Box" wrapped, and its second line sat on the card's edge.
    QA pass 15 and the small window audit: upright, 92 wide, a card's name was drawn at 3 to
    7 points. A hand card now lies on its side: every name, at the card's own size, is 8 points
    (bold where it fits), whole, inside the border and clear of the icons above it, and its
    last number is never alone on a line."""
    card_rect = QRectF(0, 0, FACE.width(), FACE.height())
    border = 5.5  # the coloured border's pen, centred one unit in from the edge
    inner = card_rect.adjusted(1 + border / 2, 1 + border / 2, -1 - border / 2, -1 - border / 2)
    wrap = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
    bold = set()
    for card in Board(BoardConfig(GAME, 0)).cards.values():
        room = side_name_rect(card_rect, card)
        assert inner.contains(room)
        font, shown = side_name_text(card, room.size(), 1.0)
        assert font.pointSizeF() == 8
        needed = QFontMetricsF(font).boundingRect(QRectF(0, 0, room.width(), 10_000), wrap, shown)
        assert needed.width() <= room.width() and needed.height() <= room.height(), (card["name"], needed)
        assert shown.replace("\u200b", "").replace("\u00a0", " ") == short_name(card)
        if shown[-1].isdigit():  # never a number alone on a line ("Pass Ahead" / "2")
            assert shown[-2] == "\u00a0", shown
        if font.bold():
            bold.add(short_name(card))
    assert {"Pass Ahead 2", "Challenge", "Dribble Diagonal Right 1"} <= bold


def test_the_outside_shot_cards_name_stays_clear_of_its_red_line(qtbot: Any) -> None:
    """QA s28 (first minutes, zdc.png): on "Pass Diagonal Right 2 + Outside Shot" in the hand,
    "Outside Shot" ran to the card's inner red line. Drawn four times its size, the name's
    letters now end at least 3 units inside that line, and its last line above the bottom one."""
    scale = 4
    cards = [c for c in Board(BoardConfig(GAME, 0)).cards.values() if c.get("outside_shot")]
    assert cards
    for card in cards:
        image = QImage(int(FACE.width() * scale), int(FACE.height() * scale), QImage.Format.Format_RGB32)
        image.fill(Qt.GlobalColor.white)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.scale(scale, scale)
        paint_card_on_its_side(painter, QRectF(0, 0, FACE.width(), FACE.height()), card)
        painter.end()

        def red(x: int, y: int, image: QImage = image) -> bool:
            c = image.pixelColor(x, y)
            return c.red() > 150 and c.green() < 100 and c.blue() < 100

        def ink(x: int, y: int, image: QImage = image) -> bool:  # the name's near-black letters
            c = image.pixelColor(x, y)
            return max(c.red(), c.green(), c.blue()) < 110

        middle = image.height() // 2
        line_right = next(x for x in range(image.width() - 1, 0, -1) if red(x, middle))
        line_right = next(x for x in range(line_right, 0, -1) if not red(x, middle)) + 1  # its inner edge
        line_bottom = next(y for y in range(image.height() - 1, 0, -1) if red(image.width() // 2, y))
        line_bottom = next(y for y in range(line_bottom, 0, -1) if not red(image.width() // 2, y)) + 1
        name_left = int(33 * scale)  # right of the small field and its arrow
        letters = [
            (x, y) for y in range(int(28 * scale), line_bottom) for x in range(name_left, line_right) if ink(x, y)
        ]
        assert letters, short_name(card)
        assert max(x for x, _ in letters) <= line_right - 3 * scale, (short_name(card), max(letters), line_right)
        assert max(y for _, y in letters) <= line_bottom - 1 * scale, (short_name(card), line_bottom)


def test_the_reply_prompt_says_when_no_card_can_answer(qtbot: Any, match_states: list[State]) -> None:
    """QA: "Click a highlighted defensive card" was asked with no card to click."""
    board = Board(BoardConfig(GAME, 0))
    seen = set()
    for view in decisions(match_states):
        if view["state"]["phase"] != "reply":
            continue
        board.set_view(view)
        prompt = board._status(view)
        only_let_go = view["legal"] == ["reply none"]
        seen.add(only_let_go)
        assert ("highlighted" in prompt) != only_let_go, prompt
        assert ("No card in your hand can answer: click Let it go." in prompt) == only_let_go, prompt
    assert seen == {True, False}


def test_the_prompt_says_when_the_only_thing_left_is_a_clear_from_their_box(
    qtbot: Any, match_states: list[State]
) -> None:
    """In the opponent's box without an Inside shot only the clear is legal: the prompt said
    "choose a card, then a zone — or shoot, clear or hold" all the same."""
    boards = {0: Board(BoardConfig(GAME, 0)), 1: Board(BoardConfig(GAME, 1))}
    seen = set()
    for view in decisions(match_states):
        if view["state"]["phase"] != "play":
            continue
        board = boards[view["seat"]]
        board.set_view(view)
        must_clear = all(text.startswith("clear-box") for text in view["legal"])
        seen.add(must_clear)
        assert ("you must clear" in board._status(view)) == must_clear, (view["legal"], board._status(view))
    assert seen == {True, False}


def test_a_card_face_and_the_log_call_a_card_by_one_name(qtbot: Any) -> None:
    """QA: the log said "C/I + Star" and "Shot at Net - Outside the Box" for the cards named
    "Challenge/Intercept + Star" and "Shot: Outside the Box" on the board. A face may leave out
    what its icons show (", then Pass"), never say it otherwise."""
    cards = Board(BoardConfig(GAME, 0)).cards
    for card in cards.values():
        assert card["name"].startswith(short_name(card)), (card["name"], short_name(card))
    assert cards["STAR"]["name"] == short_name(cards["STAR"]) == KIND_WORDS["star"]


def test_the_clear_buttons_tooltip_tells_the_odds_and_cost_of_this_clear(qtbot: Any, match_states: list[State]) -> None:
    """QA: "Clear, keep in play: no card; roll 1–2" was said at a free kick too (1–10 keeps the
    ball there) and in stoppage time (where a clear costs a card)."""
    board = Board(BoardConfig(GAME, 0))
    seen = set()
    for view in decisions(match_states):
        if view["seat"] != 0 or not any(t.startswith("clear-in") for t in view["legal"]):
            continue
        board.set_view(view)
        tips = [item.toolTip() for item in board.items() if item.toolTip().startswith("Clear, keep in play")]
        if not tips:
            continue  # a box clear, or the button is a zone's choice
        state = view["state"]
        free, stoppage = state["phase"] == "free_kick", bool(state.get("stoppage"))
        assert ("1–10" in tips[0]) == free and ("1–2" in tips[0]) != free, tips
        assert ("discard a card" in tips[0]) == stoppage, tips
        seen.add((free, stoppage))
    assert (False, False) in seen and (False, True) in seen


def test_the_prompt_says_when_only_a_clear_is_left_and_names_a_card_once(qtbot: Any, match_states: list[State]) -> None:
    """QA: "Your ball: choose a card, then a zone — or shoot, clear or hold" was asked with no
    card playable and the hold barred; "Your opponent played Pass Ahead 1, then Pass" read as
    two cards (the second is the card's next-card icon, said on the line below)."""
    boards = {0: Board(BoardConfig(GAME, 0)), 1: Board(BoardConfig(GAME, 1))}
    seen = set()
    for view in decisions(match_states):
        board = boards[view["seat"]]
        phase = view["state"]["phase"]
        if phase not in ("play", "reply"):
            continue
        board.set_view(view)
        words = board._status(view)
        if phase == "reply":
            assert ", then " not in words, words
            continue
        only_clears = not any(t.startswith(("play ", "shoot", "hold", "passback")) for t in view["legal"])
        box = all(t.startswith("clear-box") for t in view["legal"])
        if not box:
            assert words.startswith("No card of yours") == only_clears, (view["legal"], words)
            seen.add(only_clears)
    assert seen == {True, False}


def test_a_discard_is_said_by_the_discarding_sides_name_where_nobody_plays(
    qtbot: Any, match_states: list[State]
) -> None:
    """QA: a replay (and the board under the shootout's kicks) said "Your opponent discards a
    card…" when Home was discarding: the view belongs to nobody, or to the one who discards."""
    state = next(s for s in match_states if s.phase == "discard")
    [seat] = state.current_players()
    board = Board(BoardConfig(GAME, 0, team_names=("Lions", "Tigers")))
    view = state.view(None)
    assert board._status(view) == f"{('Lions', 'Tigers')[seat]} discards a card…"
    other = state.view(1 - seat)
    assert board._status(other) == f"{('Lions', 'Tigers')[seat]} discards a card…"


def test_a_replay_shows_the_last_roll_up_to_its_step_and_no_ball_in_a_shootout(qtbot: Any) -> None:
    """QA: stepping back in a replay, the die showed a shootout kick still to come (16), and the
    panel gave one side the ball through all the kicks."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from soccerdesk.rules import get_game
    from soccerdesk.ui.replay import ReplayViewer
    from tests.match_positions import cup_match_before_its_shootout

    game = get_game(GAME)
    record, decision = cup_match_before_its_shootout()
    state = game.replay(record)[-1]
    state = state.apply(0, game.parse_action(decision))
    rng = random.Random(3)
    while not state.is_terminal():
        state = state.apply(CHANCE, rng.choice(state.chance_outcomes())[0])
    states = game.replay(game.dump(state))
    viewer = ReplayViewer(game, game.dump(state), names=("Reds", "Blues"))
    qtbot.addWidget(viewer)
    viewer.show()
    QTest.keyClick(viewer, Qt.Key.Key_End)
    start = next(i for i, s in enumerate(states) if s.phase == "shootout")
    viewer.show_step(start - 1)  # back, to the discard before the shootout
    rolls = [e for s in states[:start] for e in s.events if e.kind == "roll"]
    assert viewer.board.last_roll == (rolls[-1].data["roll"], rolls[-1].data.get("chart", ""))
    from painting import painted_texts

    assert any("● ball" in text for text in painted_texts(viewer.board))  # the side in control
    viewer.show_step(start + 3)
    assert not any("● ball" in text for text in painted_texts(viewer.board))


def test_the_ball_prompt_names_only_what_may_be_done_there(qtbot: Any, match_states: list[State]) -> None:
    """QA: in the box the prompt offered "shoot, clear or hold", and a hold is not allowed there."""
    board = Board(BoardConfig(GAME, 0))
    checked = 0
    for view in decisions(match_states):
        if view["state"]["phase"] != "play" or not any(t.startswith("play ") for t in view["legal"]):
            continue
        board.set_view(view)
        said = board._status(view)
        if not said.startswith("Your ball"):
            continue
        assert ("hold" in said) == ("hold" in view["legal"]), (said, view["legal"])
        assert ("shoot" in said) == any(t.startswith("shoot") for t in view["legal"]), (said, view["legal"])
        checked += "hold" not in view["legal"]
    assert checked


def test_the_panel_prompt_follows_the_card_clicked(qtbot: Any, match_states: list[State]) -> None:
    """QA: after a card was clicked the panel still said "choose a card, then a zone — or clear
    or hold" (the next step showed only in the small status line); and in the opponent's box it
    said "no card can be played — or shoot", though a shot is played with a card."""
    from painting import painted_texts, shown
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    view = next(v for v in decisions(match_states) if any(t.startswith("play ") for t in v["legal"]))
    board = Board(BoardConfig(GAME, view["seat"]))
    board.set_view(view)
    gview = shown(qtbot, board, (1300, 900))

    def prompts() -> list[str]:
        return [t for t in painted_texts(board) if t.startswith("Your ball") or ": click " in t]

    assert len(prompts()) == 1 and prompts()[0].startswith("Your ball: choose a card, then a zone"), prompts()
    code = next(t.split()[1] for t in view["legal"] if t.startswith("play "))
    pos = board.pos_of(("card", code))
    assert pos is not None
    QTest.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=gview.mapFromScene(pos))
    assert board.selection == (("card", code),)
    assert prompts() == [board.selection_hint(board.selection)], prompts()
    board.cancel_selection()
    assert prompts()[0].startswith("Your ball: choose a card, then a zone")

    boards = {0: Board(BoardConfig(GAME, 0)), 1: Board(BoardConfig(GAME, 1))}
    no_card = [
        v
        for v in decisions(match_states)
        if v["state"]["phase"] == "play"
        and not any(t.startswith("play ") for t in v["legal"])
        and any(t.startswith("shoot") for t in v["legal"])
    ]
    assert no_card, "never only a shot and clears in these matches"
    for v in no_card:
        boards[v["seat"]].set_view(v)
        said = [t for t in painted_texts(boards[v["seat"]]) if t.startswith("Your ball")]
        # QA pass 17: "no Pass or Dribble card can be played here — or shoot" read as if the shot
        # could not be played either: what may be done is said as such.
        assert said and said[0].startswith("Your ball: no Pass or Dribble card fits here. You may shoot"), said


def test_no_ball_trail_is_drawn_across_a_goal_and_its_kick_off(qtbot: Any) -> None:
    """QA: after a goal and the kick-off a trail ran from the goal mouth (A2C) to the kick-off
    zone, as if the ball had been passed there. Shown step by step as a match is played, the
    board traces the ball's moves but none across a goal."""
    states = random_match(21, GAME)
    board = Board(BoardConfig(GAME, 0))
    traced_after_goal, traced_otherwise = [], []
    for state in states:
        events = [{"kind": e.kind, "text": e.text, "data": e.data} for e in state.events if e.audience in (None, (0,))]
        board.set_view(state.view(0), events)
        scored = any(e["kind"] == "goal" for e in events)
        (traced_after_goal if scored else traced_otherwise).append(board.traced)
    assert traced_after_goal, "no goal in this match"
    assert all(t is None for t in traced_after_goal), traced_after_goal
    assert any(t is not None for t in traced_otherwise)


def test_hold_says_what_it_does_and_its_discard_is_a_swap(qtbot: Any, match_states: list[State]) -> None:
    """QA pass 17: "Hold the ball" had only its name as a tooltip, and the hold's discard said
    "Choose the card to discard." where the discard is a swap the player may decline."""
    holds = [v for v in decisions(match_states) if "hold" in v["legal"]]
    swaps = [v for v in decisions(match_states) if v["state"]["phase"] == "discard" and "discard none" in v["legal"]]
    assert holds and swaps, "no hold in these matches"
    for view in holds[:3]:
        board = Board(BoardConfig(GAME, view["seat"]))
        board.set_view(view)
        tips = [item.toolTip() for item in board.items() if "Challenge" in item.toolTip()]
        assert any("roll 1–10 to keep it" in tip for tip in tips), tips
    for view in swaps[:3]:
        board = Board(BoardConfig(GAME, view["seat"]))
        board.set_view(view)
        assert board._status(view) == "Discard a card to draw a new one, or Keep all cards."


BOARD_SIZES = [SMALLEST_BOARD, (1018, 630), (1658, 990)]
"""The board's room on the match screen at 1000 × 540, 1280 × 720 and 1920 × 1080."""


@pytest.mark.parametrize("size", BOARD_SIZES)
def test_every_text_reads_at_8_points_and_fits_at_every_window_size(
    qtbot: Any, match_states: list[State], size: tuple[int, int]
) -> None:
    """UI audit, small window: at 1000 × 540 the hand's card names read at 3 to 5 points, the
    zone names (A1L...) and the panel at about 5, and some card marks were under 8 points even
    at 1920 × 1080. In whole matches, at the three window sizes, every text of the board is at
    least 8 points on screen and fits its room (nothing is left out: the yellow chits' numbers
    are 8 points too)."""
    views = deciding_views(match_states, every=3)
    assert unreadable_texts(qtbot, Board(BoardConfig(GAME, 0)), views, size) == []


@pytest.mark.parametrize("size", BOARD_SIZES)
def test_the_hand_and_the_panel_keep_their_size_on_screen_and_the_field_grows(
    qtbot: Any, match_states: list[State], size: tuple[int, int]
) -> None:
    """The hand lies in one row under the field and the panel, its cards on their side, at
    their own size on screen or bigger; the field is drawn as big as before or bigger (the
    upright hand had made the board shown at 0.66, 0.95 and 1.50 of its size)."""
    board = Board(BoardConfig(GAME, 0))
    view = BoardView(board)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    board.set_view(next(v for v in decisions(match_states) if len(v["state"]["hand"]) == 6))
    view.fit()
    cards = [board.item_for(("card", code)) for code in board.view_data["state"]["hand"]]
    shown = [view.mapFromScene(card.sceneBoundingRect()).boundingRect() for card in cards if card]
    assert len(shown) == 6
    assert all(r.width() >= FACE.width() - 1 and r.height() >= FACE.height() - 1 for r in shown), shown
    assert len({r.top() for r in shown}) == 1  # one row
    assert all(view.viewport().rect().contains(r) for r in shown), shown
    assert view.transform().m11() >= {SMALLEST_BOARD: 0.66, (1018, 630): 0.95, (1658, 990): 1.49}[size]


@pytest.mark.parametrize("size", BOARD_SIZES)
def test_clicks_on_the_screen_play_cards_zones_and_buttons_at_every_window_size(
    qtbot: Any, match_states: list[State], size: tuple[int, int]
) -> None:
    """A person's clicks, on the view's viewport where each thing is drawn, play the actions of
    whole matches at the three window sizes: a card then a zone (or the goal, the keeper), the
    clear buttons, the other buttons."""
    boards = {seat: Board(BoardConfig(GAME, seat)) for seat in (0, 1)}
    views = {}
    for seat, board in boards.items():
        views[seat] = BoardView(board)
        qtbot.addWidget(views[seat])
        views[seat].resize(*size)
        views[seat].show()
    rng = random.Random(5)
    played: set[str] = set()
    for seen in decisions(match_states)[::3]:
        board, view = boards[seen["seat"]], views[seen["seat"]]
        board.set_view(seen)
        view.fit()
        text = rng.choice(seen["legal"])
        emitted: list[str] = []
        board.action_chosen.connect(emitted.append)
        for key in board.paths.paths.get(text, (("action", text),)):
            spot = view.mapFromScene(board.pos_of(key))
            assert view.viewport().rect().contains(spot), (text, key, spot)
            QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=spot)
        board.action_chosen.disconnect(emitted.append)
        assert emitted == [text]
        played.add(text.split()[0])
    assert {"play", "clear-in", "discard", "reply"} <= played, played


@pytest.mark.parametrize("size", BOARD_SIZES)
def test_the_keys_title_is_never_drawn_over_the_panels_buttons_or_words(
    qtbot: Any, match_states: list[State], size: tuple[int, int]
) -> None:
    """New-user audit (7 December), finding 2: at 1000 × 540, with "Your next card must be",
    a note and a row of three buttons (Clear in play, Clear out of play, Hold), the key's title
    "KEY: rest the mouse here to read it" was drawn under the buttons. In whole matches, at the
    three window sizes, the key (or its title alone) overlaps nothing else drawn in the panel:
    with no room at the panel's foot, the title stands beside the panel's heading."""
    board = Board(BoardConfig(GAME, 0))
    view = BoardView(board)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()

    def says_key(item: Painted) -> bool:
        return any(text.startswith("KEY") for text in painted_by(item))

    titles_alone = 0
    for seen in deciding_views(match_states, every=2):
        board.set_view(seen)
        view.fit()
        [key] = [item for item in board.items() if isinstance(item, Painted) and says_key(item)]
        spot = key.sceneBoundingRect()
        titles_alone += spot.height() <= 18 * board.panel_zoom + 0.5
        assert view.viewport().rect().contains(view.mapFromScene(spot).boundingRect())
        under = [
            item.toolTip() or type(item).__name__
            for item in board.items()
            if item is not key
            and item.isVisible()
            and isinstance(item, Painted)
            and not item.sceneBoundingRect().contains(spot)  # the panel itself
            and item.sceneBoundingRect().intersects(spot)
        ]
        assert under == [], (seen["state"].get("phase"), under)
    assert titles_alone or size != SMALLEST_BOARD, "no position left the key its title only"


def ink_rows(view: BoardView, item: Painted) -> tuple[int, int]:
    """The first and last rows of the viewport where ``item`` paints anything."""
    viewport = view.viewport()
    image = QImage(viewport.width(), viewport.height(), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setWorldTransform(item.deviceTransform(view.viewportTransform()))
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    rows = [y for y in range(image.height()) if any(image.pixelColor(x, y).alpha() for x in range(0, image.width(), 2))]
    return rows[0], rows[-1]


@pytest.mark.parametrize("size", [*BOARD_SIZES, (1018, 710)])
def test_a_chosen_card_stands_clear_of_the_hands_title(
    qtbot: Any, match_states: list[State], size: tuple[int, int]
) -> None:
    """New-user audit (7 December), finding 5: at the first window size (1280 × 800) the card
    clicked in the hand, lifted with its white frame, ran through the "YOUR HAND" title above
    it. Clicked on screen, at each window size, the first card rises and stays under the title."""
    board = Board(BoardConfig(GAME, 0))
    view = BoardView(board)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    for seen in decisions(match_states):
        key = ("card", (seen["state"]["hand"] or [""])[0])
        board.set_view(seen)
        if key in board.paths.first_keys():
            break
    view.fit()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(board.pos_of(key)))
    assert board.selection == (key,)
    card = board.item_for(key)
    title = next(item for item in board.items() if isinstance(item, Painted) and "YOUR HAND" in painted_by(item))
    assert ink_rows(view, title)[1] < ink_rows(view, card)[0]


def painted_by(item: Painted) -> list[str]:
    image = QImage(10, 10, QImage.Format.Format_ARGB32)  # kept while painted on
    painter = NotingPainter(image)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return painter.texts


def test_the_second_half_kick_off_draws_no_trail_from_where_the_first_half_ended(
    qtbot: Any, match_states: list[State]
) -> None:
    """The ball's last move is traced on the field; the second half's kick-off puts the ball in
    place (third rules audit: the log now says so), it was not passed there."""
    board = Board(BoardConfig(GAME, 0))
    seen = [
        (before, after)
        for before, after in zip(match_states, match_states[1:], strict=False)
        if any(e.kind == "kickoff" for e in after.events)
    ]
    assert seen
    for before, after in seen:
        board.set_view(before.view(0), [])
        board.set_view(after.view(0), [e.to_json() for e in after.events])
        assert board._ball_before is None
