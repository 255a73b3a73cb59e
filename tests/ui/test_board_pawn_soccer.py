"""The Pawn Soccer board: every legal action is reachable by clicks, illegal clicks explain
themselves, and drawing never fails over whole random matches."""

from __future__ import annotations

import random
from typing import Any

import pytest
from painting import SMALLEST_BOARD, painted_texts, shown, texts_on_screen, unreadable_texts
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsView, QStyleOptionGraphicsItem

from soccerdesk.rules import CHANCE, get_game, play_out
from soccerdesk.rules import pawn_soccer as pawn_rules
from soccerdesk.rules.api import State
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.drawing import SMALLEST_ON_SCREEN, ClickBoard
from soccerdesk.ui.boards.pawn_soccer import Board

GAME = "pawn-soccer"


def random_match(seed: int, game_id: str = GAME, **options: Any) -> list[State]:
    """Every state of one random match of ``game_id`` (played out, then replayed from its record).

    Shared by the board tests of Big Time Soccer and Soccero."""
    game = get_game(game_id)
    rng = random.Random(seed)
    final = play_out(game.new_match(seed=seed, **options), lambda s, seat: rng.choice(s.legal_actions(seat)), rng)
    return game.replay(game.dump(final))


def deciding_views(states: list[State], every: int) -> list[dict[str, Any]]:
    """Views of the seats that must decide: every ``every``-th ordinary turn, and every rarer moment."""
    views = []
    for index, state in enumerate(states):
        for seat in state.current_players():
            if seat != CHANCE:
                view = state.view(seat)
                if index % every == 0 or view["state"]["phase"] not in ("turn", "setup"):
                    views.append(view)
    return views


def board_for(qtbot: Any, seat: int | None) -> Board:
    board = Board(BoardConfig(GAME, seat))
    return board


def played_by_clicks(board: Board, view: dict[str, Any], sample: int = 12) -> dict[str, list[str]]:
    """For up to ``sample`` legal texts (all verbs kept): what the board emitted when its click path was clicked."""
    board.set_view(view)
    by_verb: dict[str, list[str]] = {}
    for text in view["legal"]:
        by_verb.setdefault(text.split()[0], []).append(text)
    rng = random.Random(view["ply"])
    chosen = [texts[0] for texts in by_verb.values()] + rng.sample(view["legal"], min(sample, len(view["legal"])))
    out: dict[str, list[str]] = {}
    for text in chosen:
        emitted: list[str] = []
        board.action_chosen.connect(emitted.append)
        assert board.play(text), f"{text}: a step of its click path is not drawn"
        board.action_chosen.disconnect(emitted.append)
        out[text] = emitted
    return out


def refusals(qtbot: Any, board: ClickBoard, rng: random.Random, count: int = 3) -> list[str]:
    """Click ``count`` drawn things that start no legal action: each must explain itself, none may play.

    Shared by the board tests of Big Time Soccer and Soccero."""
    starts = board.paths.first_keys() | board.own_buttons  # the board's own buttons play what they say
    keys = sorted({item.data(0) for item in board.items() if isinstance(item.data(0), tuple)} - starts, key=repr)
    hints = []
    for key in rng.sample(keys, min(count, len(keys))):
        board.cancel_selection()
        with qtbot.assertNotEmitted(board.action_chosen), qtbot.waitSignal(board.hint) as blocker:
            board.click(key)
        hints.append(blocker.args[0])
    return hints


@pytest.fixture(scope="module")
def match_states() -> list[State]:
    return random_match(11) + random_match(12, quick_setup=True, goals=1)


def test_every_legal_action_is_playable_by_clicking_the_board(qtbot: Any, match_states: list[State]) -> None:
    """Issue 6: each action (set-up, kick-off, move, pass, chain, kick, steal, sub, end...) has a click path."""
    boards = {0: board_for(qtbot, 0), 1: board_for(qtbot, 1)}
    rng = random.Random(4)
    verbs: set[str] = set()
    for view in deciding_views(match_states, 3):
        result = played_by_clicks(boards[view["seat"]], view)
        for text, emitted in result.items():
            assert emitted == [text]
            verbs.add(text.split()[0])
        assert all(refusals(qtbot, boards[view["seat"]], rng, 2))
    assert {"place", "kickoff", "move", "pass", "kick", "sub", "end"} <= verbs


def penalty_state() -> State:
    """A penalty for Blue, set on a real kick-off position (random play almost never fouls in its own area)."""
    kickoff = next(s for s in random_match(5, quick_setup=True) if s.view(0)["state"]["phase"] == "turn")
    assert isinstance(kickoff, pawn_rules.PawnState)
    state = kickoff.evolve(phase=pawn_rules.PENALTY, side=-1, picks=(0, 0), taker=0)
    state._set_meta(kickoff.info, None, ())
    return state


def test_penalty_choice_is_a_click_on_a_goal_square(qtbot: Any) -> None:
    """Rulings, Pawn Soccer 8: both sides pick 1-3 secretly; the board maps them to the goal squares."""
    state = penalty_state()
    assert state.current_players() == (0, 1)
    for seat in state.current_players():
        board = board_for(qtbot, seat)
        view = state.view(seat)
        goal = sorted(
            view["state"]["board"]["ends"][1 - view["state"]["penalty"]["taker"]]["goal"], key=lambda s: (s[0], s[1:])
        )
        for n, square in enumerate(goal, start=1):
            board.set_view(view)
            with qtbot.waitSignal(board.action_chosen) as blocker:
                board.click(("sq", square))
            assert blocker.args == [f"penalty {n}"]


def _shown_board_with_a_move(qtbot: Any, match_states: list[State]) -> tuple[Board, QGraphicsView, str]:
    """A board at a decision with a pawn move, shown in a view; with the text of one such move."""
    view_data = next(v for v in deciding_views(match_states, 1) if any(t.startswith("move ") for t in v["legal"]))
    board = board_for(qtbot, view_data["seat"])
    board.set_view(view_data)
    gview = shown(qtbot, board, (900, 800))
    return board, gview, next(t for t in view_data["legal"] if t.startswith("move "))


def test_a_real_mouse_click_selects_and_moves(qtbot: Any, match_states: list[State]) -> None:
    """Clicking through a QGraphicsView (the user's way) plays a move."""
    board, gview, text = _shown_board_with_a_move(qtbot, match_states)
    gview.fitInView(board.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
    start, target = text.split()[1].split("-")

    def point(square: str) -> QPoint:
        pos = board.pos_of(("sq", square))
        assert pos is not None
        return gview.mapFromScene(pos)

    qtbot.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=point(start))
    assert board.selection == (("sq", start),)
    assert ("sq", target) in board.targets
    with qtbot.waitSignal(board.action_chosen) as blocker:
        qtbot.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=point(target))
    assert blocker.args == [text]


def test_a_pawn_can_be_dragged_to_its_target(qtbot: Any, match_states: list[State]) -> None:
    """Issue 6: drag as well as click — press on a pawn, release on a highlighted square."""
    board, gview, text = _shown_board_with_a_move(qtbot, match_states)
    start, target = (gview.mapFromScene(board.pos_of(("sq", sq))) for sq in text.split()[1].split("-"))
    with qtbot.waitSignal(board.action_chosen) as blocker:
        qtbot.mousePress(gview.viewport(), Qt.MouseButton.LeftButton, pos=start)
        qtbot.mouseMove(gview.viewport(), pos=target)
        qtbot.mouseRelease(gview.viewport(), Qt.MouseButton.LeftButton, pos=target)
    assert blocker.args == [text]


def test_illegal_clicks_explain_why(qtbot: Any, match_states: list[State]) -> None:
    """Issue 6: an illegal attempt explains itself instead of doing nothing."""
    view = next(
        v
        for v in deciding_views(match_states, 1)
        if v["state"]["phase"] == "turn" and any(t.startswith("move ") for t in v["legal"])
    )
    seat = view["seat"]
    board = board_for(qtbot, seat)
    board.set_view(view)
    pawns = view["state"]["pawns"]
    theirs = next(p["square"] for p in pawns if p["team"] != seat and not p["ball"])
    with qtbot.waitSignal(board.hint) as blocker:
        board.click(("sq", theirs))
    assert "other team" in blocker.args[0]
    assert board.selection == ()
    # A pawn without the ball, then a square four rows away: too far to move.
    text = next(t for t in view["legal"] if t.startswith("move "))
    start = text.split()[1].split("-")[0]
    board.click(("sq", start))
    col, row = start[0], int(start[1:])
    far = f"{col}{row + 4 if row + 4 <= 11 else row - 4}"
    with qtbot.waitSignal(board.hint) as blocker:
        board.click(("sq", far))
    assert blocker.args[0] and "legal" not in blocker.args[0]
    # Nobody may act in a spectator's view.
    spectator = board_for(qtbot, None)
    spectator.set_view(match_states[40].view(None))
    with qtbot.waitSignal(spectator.hint) as blocker:
        spectator.click(("sq", "D6"))
    assert "not your turn" in blocker.args[0]


def test_render_never_fails_over_a_whole_match(qtbot: Any, match_states: list[State]) -> None:
    """Every state of two random matches draws for both seats and a spectator; keyboard preview too."""
    boards = [board_for(qtbot, seat) for seat in (0, 1, None)]
    for index, state in enumerate(match_states):
        events = [e.to_json() for e in state.events]
        for board in boards if index % 4 == 0 else boards[:1]:
            view = state.view(board.config.perspective)
            board.set_view(view, events)
            if view["legal"]:
                board.set_preview(view["legal"][-1])
    assert all(board.items() for board in boards)


def test_setup_is_played_by_clicking_squares(qtbot: Any) -> None:
    """Rulebook, Setup: pawns go on squares of the own half, never on special spaces."""
    state = get_game(GAME).new_match(seed=3)
    seat = state.current_players()[0]
    view = state.view(seat)
    board = board_for(qtbot, seat)
    board.set_view(view)
    square = view["legal"][0].split()[1]
    with qtbot.waitSignal(board.action_chosen) as blocker:
        board.click(("sq", square))
    assert blocker.args == [f"place {square}"]
    end = view["state"]["board"]["ends"][seat]
    with qtbot.waitSignal(board.hint) as blocker:
        board.click(("sq", end["long_pass_spaces"][0]))
    assert "long-pass" in blocker.args[0]
    other_half = "D9" if seat == 0 else "D3"
    with qtbot.waitSignal(board.hint) as blocker:
        board.click(("sq", other_half))
    assert "own half" in blocker.args[0]


def test_keyboard_preview_marks_the_whole_click_path(qtbot: Any, match_states: list[State]) -> None:
    """Issue 6, keyboard play: Tab previews an action (its pawn and square marked), Enter plays it, Escape clears a selection."""
    view = next(v for v in deciding_views(match_states, 1) if any(t.startswith("pass ") for t in v["legal"]))
    board = board_for(qtbot, view["seat"])
    board.set_view(view)
    text = next(t for t in view["legal"] if t.startswith("pass "))
    start, target = text.split()[1].split("-")
    board.set_preview(text)
    assert {("sq", start), ("sq", target)} <= board.preview_keys()
    with qtbot.waitSignal(board.action_chosen) as blocker:
        assert board.play(text)
    assert blocker.args == [text]
    board.click(("sq", start))
    assert board.selection
    gview = shown(qtbot, board)
    gview.setFocus()
    qtbot.keyClick(gview, Qt.Key.Key_Escape)
    assert board.selection == ()


def tray_view() -> tuple[dict[str, Any], list[str]]:
    """A set-up view with both kinds of pawn left to place (as after a goal, a carded one
    among them), and the squares free for them."""
    state = get_game(GAME).new_match(seed=3)
    seat = state.current_players()[0]
    view = state.view(seat)
    squares = [t.split()[1] for t in view["legal"]]
    view["legal"] = [f"place {sq}" for sq in squares] + [f"place {sq} yellow" for sq in squares]
    view["state"]["to_place"][seat] = {"clean": 5, "yellow": 1}
    return view, squares


def test_a_carded_pawn_is_placed_from_the_tray(qtbot: Any) -> None:
    """After a goal, pawns keep their yellow cards (``place X yellow``): with both kinds left the
    carded pawn is taken from the tray first, a plain click places a clean one."""
    view, squares = tray_view()
    seat = view["seat"]
    board = board_for(qtbot, seat)
    board.set_view(view)
    with qtbot.waitSignal(board.action_chosen) as blocker:
        board.click(("sq", squares[0]))
    assert blocker.args == [f"place {squares[0]}"]
    board.click(("tray", "yellow"))
    assert ("sq", squares[1]) in board.targets
    with qtbot.waitSignal(board.action_chosen) as blocker:
        board.click(("sq", squares[1]))
    assert blocker.args == [f"place {squares[1]} yellow"]


def test_every_square_is_found_where_it_is_drawn_and_explains_itself(qtbot: Any, match_states: list[State]) -> None:
    """The squares have no item each: a click and a tooltip find them by geometry, goals included, on both ends."""
    view_data = match_states[len(match_states) // 2].view(0)
    board_data = view_data["state"]["board"]
    names = [f"{c}{r}" for r in range(1, board_data["rows"] + 1) for c in board_data["columns"]]
    names += [sq for end in board_data["ends"] for sq in end["goal"]]
    for seat in (0, 1):
        board = board_for(qtbot, seat)
        board.set_view(match_states[len(match_states) // 2].view(seat))
        for name in names:
            rect = board.square_rect(name)
            assert board.pos_of(("sq", name)) == rect.center()
            for corner in (rect.topLeft() + QPointF(0.5, 0.5), rect.bottomRight() - QPointF(0.5, 0.5)):
                assert board.key_at(corner) == ("sq", name)
            assert board.grid_tooltip(("sq", name)).splitlines()[0] == name
        goal = board_data["ends"][0]["goal"][0]
        beside = board.square_rect(goal).center() + QPointF(-board.square_rect(goal).width() * board.columns, 0)
        assert board.grid_key_at(beside) is None


def descriptions(board: ClickBoard, views: list[dict[str, Any]]) -> dict[str, str]:
    """``board.describe`` of every legal text of ``views``, each view shown on the board first.

    Shared by the board tests of Big Time Soccer, Soccero and Soccer-Go: the keyboard preview
    says the action in words, never the raw text ("play DA1P A1C")."""
    said: dict[str, str] = {}
    for view in views:
        board.set_view(view)
        for text in view["legal"]:
            words = board.describe(text)
            assert words and words[0].isupper(), (text, words)
            said[text] = words
    return said


def test_keyboard_preview_says_moves_in_words(qtbot: Any, match_states: list[State]) -> None:
    board = Board(BoardConfig(GAME, 0, team_names=("Reds", "Whites")))
    said = descriptions(board, [v for v in deciding_views(match_states, 5) if v["seat"] == 0])
    assert said["end"] == "End turn"
    moves = {text: words for text, words in said.items() if text.split()[0] in ("move", "pass", "kick", "steal")}
    assert moves and all(text not in words for text, words in moves.items())
    for text, words in moves.items():
        _, a, b = text.replace("-", " ").split()
        assert a in words and b in words, (text, words)  # both squares, in words
    assert any(words.startswith("Place a pawn on ") for words in said.values())


def test_the_turn_number_stays_while_the_side_that_moved_may_substitute(
    qtbot: Any, match_states: list[State], monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA: "Turn 2 of 100 each" while Home could still substitute in its turn 1."""
    board = board_for(qtbot, 0)
    written: list[str] = []
    add_text = board.add_text

    def noted(pos: QPointF, text: str, *args: Any, **kwargs: Any) -> Any:
        written.append(text)
        return add_text(pos, text, *args, **kwargs)

    monkeypatch.setattr(board, "add_text", noted)
    shown_in_turn: dict[int, str] = {}
    after_turns = 0
    for state in match_states:
        view = state.view(0)
        phase, side = view["state"]["phase"], view["state"]["side_to_move"]
        if phase not in ("turn", "chain", "after_turn"):
            continue
        written.clear()
        board.set_view(view)
        turn = next(t.split(" · ")[-1] for t in written if " of " in t and "each" in t)
        if phase == "after_turn":
            after_turns += 1
            assert turn == shown_in_turn[side], (turn, shown_in_turn[side])
        else:
            shown_in_turn[side] = turn
    assert after_turns > 0


def test_choosing_a_pawn_that_could_steal_diagonally_warns_of_the_card(qtbot: Any, match_states: list[State]) -> None:
    """QA: the pawn's hint said only "(move, steal)", and one click gave a yellow card and a
    penalty. Choosing a pawn with a diagonal steal on offer now says what it costs."""
    seen = set()
    for state in [*match_states, *random_match(1, quick_setup=True)]:  # seed 1: a diagonal steal
        for seat in state.current_players():
            if seat not in (0, 1):
                continue
            view = state.view(seat)
            steals = [t for t in view["legal"] if t.startswith("steal ")]
            if not steals:
                continue
            board = board_for(qtbot, seat)
            board.set_view(view)
            for text in steals:
                start = text.split()[1].split("-")[0]
                board.cancel_selection()
                board.click(("sq", start))
                diagonal = any(
                    (lambda a, b: a[0] != b[0] and a[1:] != b[1:])(*t.split()[1].split("-"))
                    for t in steals
                    if t.split()[1].startswith(f"{start}-")
                )
                assert ("yellow card" in board.selection_hint(board.selection)) == diagonal, (text, steals)
                seen.add(diagonal)
    assert seen == {True, False}


def test_the_turn_prompt_mentions_the_substitute_while_it_is_on_offer(qtbot: Any, match_states: list[State]) -> None:
    """The window after a turn ends by itself now: the prompt says the substitute may come on
    before the turn (QA: nothing said where it had gone)."""
    board = Board(BoardConfig(GAME, 0))
    offered = plain = 0
    for state in match_states:
        view = state.view(0)
        if view["state"]["phase"] != "turn" or not view["legal"] or view["state"].get("kickoff_turn"):
            continue
        board.set_view(view)
        said = board._status(view)
        subs = any(t.startswith("sub ") for t in view["legal"])
        assert ("substitute may come on" in said) == subs, said
        offered += subs
        plain += not subs
    assert offered


def test_the_key_explains_every_mark_and_the_kick_off_prompt_the_substitute(
    qtbot: Any, match_states: list[State]
) -> None:
    """QA: the red mark of a pawn that may not steal the ball back and the tick of a pawn that has
    received in a chain pass were in no key (only in tooltips); and the kick-off's prompt did
    not mention the substitute while the bench was outlined as a legal click."""
    from painting import painted_texts

    board = board_for(qtbot, 0)
    kickoffs = [
        v
        for s in match_states
        for v in [s.view(0)]
        if v["state"].get("phase") == "turn" and v["state"].get("kickoff_turn") and v["legal"]
    ]
    assert kickoffs, "no kick-off turn of seat 0 in these matches"
    board.set_view(kickoffs[0])
    texts = painted_texts(board)
    assert "lost the ball: can't win it back this turn" in texts and "has received in this chain pass" in texts, texts
    with_sub = [v for v in kickoffs if any(t.startswith("sub ") for t in v["legal"])]
    assert with_sub, "the substitute is never on offer at a kick-off here"
    board.set_view(with_sub[0])
    said = [t for t in painted_texts(board) if t.startswith("Kick-off")]
    assert said and "substitute" in said[0], said


def test_a_pawn_on_a_yellow_card_is_warned_that_a_diagonal_steal_sends_it_off(qtbot: Any) -> None:
    """QA pass 14: the warning was the general one ("earns a yellow card"); for a pawn already on
    a yellow, one click sent it off. Chosen with a click on the board, it now says so."""
    game = get_game(GAME)
    # Blue's pawn on D5, on a yellow card, may steal diagonally from Orange's ball carrier on E6.
    blue = ["D5", "A2", "B2", "C2", "F2", "G2"]
    orange = ["E6", "A9", "B9", "C9", "F9", "G9"]
    for yellow, expected in ((["D5"], "sends it off"), ([], "earns a yellow card")):
        state = game.position(blue, orange, "E6", 0, yellow=yellow)
        view = state.view(0)
        assert "steal D5-E6" in view["legal"]
        board = board_for(qtbot, 0)
        board.set_view(view)
        gview = shown(qtbot, board, (900, 800))
        spot = gview.mapFromScene(board.pos_of(("sq", "D5")))
        QTest.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=spot)
        assert board.selection == (("sq", "D5"),)
        hint = board.selection_hint(board.selection)
        assert expected in hint and ("has a yellow card" in hint) == bool(yellow), hint


def test_the_sprint_zone_is_described_as_the_board_plays_it(qtbot: Any, match_states: list[State]) -> None:
    """QA pass 17: the key said "up to 3 squares ahead" and a sprint square's tooltip the same,
    where a run ends at the end of its three-square zone (two steps at most); and the arrows of
    the other side's lanes made it look as if only that side might use them."""
    board = Board(BoardConfig(GAME, 0))
    board.set_view(match_states[len(match_states) // 2].view(0))
    squares = [f"{c}{r}" for c in "ABCDEFG" for r in range(1, 12)]
    tips = {board.grid_tooltip(("sq", sq)) for sq in squares}
    texts = set(painted_texts(board))
    assert not any("up to 3" in text for text in tips | texts), [t for t in tips | texts if "up to 3" in t]
    assert any("Sprint zone" in tip and "either side may use it" in tip for tip in tips), tips
    assert "sprint zone: run ahead to its end, any side" in texts


class _Noting(QPainter):
    """A painter on an image that notes where its texts and circles land."""

    def __init__(self, image: QImage) -> None:
        super().__init__(image)
        self.texts: list[tuple[str, QRectF]] = []
        self.circles: list[QRectF] = []

    def drawText(self, *args: Any) -> None:  # type: ignore[override]  # noqa: N802 (Qt API)
        if len(args) == 3 and isinstance(args[2], str):
            self.texts.append((args[2], self.boundingRect(QRectF(args[0]), int(args[1]), args[2])))
        super().drawText(*args)

    def drawEllipse(self, *args: Any) -> None:  # type: ignore[override]  # noqa: N802 (Qt API)
        if len(args) == 3:
            centre, rx, ry = args
            self.circles.append(QRectF(centre.x() - rx, centre.y() - ry, 2 * rx, 2 * ry))
        else:
            self.circles.append(QRectF(args[0]))
        super().drawEllipse(*args)


def test_the_legal_click_dot_on_the_bench_leaves_the_word_bench_readable(qtbot: Any, match_states: list[State]) -> None:
    """QA (ui audit 6): the yellow dot of a legal click sat on the "e" of "bench" ("be•nch")."""
    view = next(v for v in deciding_views(match_states, 1) if any(t.startswith("sub ") for t in v["legal"]))
    board = board_for(qtbot, view["seat"])
    board.set_view(view)
    gview = shown(qtbot, board, (900, 800))
    qtbot.waitExposed(gview)
    key = ("bench", view["seat"])
    assert key in board.targets  # marked as a legal click, with its dot
    item = board.item_for(key)
    assert item is not None
    rect = item.boundingRect()
    image = QImage(int(rect.width()) + 1, int(rect.height()) + 1, QImage.Format.Format_ARGB32)
    painter = _Noting(image)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    word = [box for text, box in painter.texts if text == "bench"]
    assert word, painter.texts
    assert painter.circles
    for circle in painter.circles:
        assert not circle.intersects(word[0]), (circle, word[0])


@pytest.mark.parametrize("size", [SMALLEST_BOARD, (1018, 630), (1658, 990)])
def test_the_carded_pawn_in_the_set_up_tray_reads_whole_beside_its_dot(qtbot: Any, size: tuple[int, int]) -> None:
    """QA, pawn audit 3, finding 2: the set-up tray's label read "place a•carded pawr", its last
    letter under the legal-click frame and the dot on its words (as the bench's once did). At
    the board's sizes of the 1000 × 540, 1280 × 720 and 1920 × 1080 windows it now reads whole,
    clear of the frame and the dot, and a click on it still takes the carded pawn."""
    from soccerdesk.ui.boards.pawn_soccer import TRAY_FRAME
    from soccerdesk.ui.match_view import BoardView

    view, squares = tray_view()
    board = board_for(qtbot, view["seat"])
    board.set_view(view)
    gview = BoardView(board)
    qtbot.addWidget(gview)
    gview.resize(*size)
    gview.show()
    gview.fit()
    qtbot.waitExposed(gview)
    key = ("tray", "yellow")
    assert key in board.targets
    item = board.item_for(key)
    assert item is not None
    label = [t for t in texts_on_screen(gview, lambda i: i is item) if t.text.strip()]
    assert len(label) == 1 and label[0].fits and label[0].points >= SMALLEST_ON_SCREEN - 0.05, label
    rect = item.boundingRect()
    image = QImage(int(rect.width()) + 1, int(rect.height()) + 1, QImage.Format.Format_ARGB32)
    painter = _Noting(image)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    (word,) = [box for text, box in painter.texts]
    assert word.right() <= rect.width() - TRAY_FRAME, (word, rect)  # short of the frame
    assert painter.circles and not any(circle.intersects(word) for circle in painter.circles), (painter.circles, word)
    # A person clicks the carded pawn, then a square.
    QTest.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=gview.mapFromScene(board.pos_of(key)))
    assert board.selection == (key,)
    with qtbot.waitSignal(board.action_chosen) as blocker:
        QTest.mouseClick(
            gview.viewport(), Qt.MouseButton.LeftButton, pos=gview.mapFromScene(board.pos_of(("sq", squares[0])))
        )
    assert blocker.args == [f"place {squares[0]} yellow"]


def _white_pixels(gview: QGraphicsView, board: Board, square: str) -> int:
    """Near-white pixels of ``square`` as the view shows it."""
    image = gview.viewport().grab().toImage()
    area = gview.mapFromScene(board.grid_rect(("sq", square)) or board.square_rect(square)).boundingRect()
    return sum(
        1
        for x in range(max(0, area.left()), min(image.width(), area.right() + 1))
        for y in range(max(0, area.top()), min(image.height(), area.bottom() + 1))
        if min(QColor(image.pixel(x, y)).getRgb()[:3]) >= 235
    )


def test_the_pawn_under_the_mouse_does_not_look_chosen(qtbot: Any, match_states: list[State]) -> None:
    """QA (ui audit 2): hovering a pawn drew the white frame the key calls "chosen", so after a
    click, the mouse resting there, the last square looked selected. Hover is lighter and unframed;
    a click (chosen) still frames it white."""
    board, gview, text = _shown_board_with_a_move(qtbot, match_states)
    qtbot.waitExposed(gview)
    start = text.split()[1].split("-")[0]
    spot = gview.mapFromScene(board.pos_of(("sq", start)))
    away = QPoint(2, 2)
    qtbot.mouseMove(gview.viewport(), pos=away)
    plain = _white_pixels(gview, board, start)
    qtbot.mouseMove(gview.viewport(), pos=spot)
    qtbot.waitUntil(lambda: board.hovered == ("sq", start), timeout=2_000)
    hovered = _white_pixels(gview, board, start)
    qtbot.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=spot)
    assert board.selection == (("sq", start),)
    chosen = _white_pixels(gview, board, start)
    assert chosen - plain > 60, (plain, chosen)  # the key's "white: chosen" shows
    assert hovered - plain < 10, (plain, hovered, chosen)  # the mouse alone draws no white frame


@pytest.mark.parametrize("size", [SMALLEST_BOARD, (1018, 630), (1658, 990)])
def test_every_text_reads_at_8_points_and_fits_at_the_smallest_window(
    qtbot: Any, match_states: list[State], size: tuple[int, int]
) -> None:
    """UI audit, left item (as on the Soccero board): at 1000 × 540 the key and the side panel
    read at about 5 points. In whole matches, at the smallest window and larger, each text of
    the board is at least 8 points on screen and fits its room."""
    views = deciding_views(match_states, every=3)
    assert unreadable_texts(qtbot, Board(BoardConfig(GAME, 0)), views, size) == []


def test_the_boards_prompt_follows_a_click_on_the_bench(qtbot: Any, match_states: list[State]) -> None:
    """New-user audit (7 December), finding 4: after a click on the bench the side line said
    "Choose the pawn the substitute replaces." while the board's own prompt still said "click a
    pawn, then a highlighted square. Your substitute may come on first: bench, then a pawn.".
    Clicked on screen, the bench turns the board's prompt to the next step; clicked again, it
    is put back, and so is the prompt."""
    board = Board(BoardConfig(GAME, 0))
    view = next(
        s.view(0)
        for s in match_states
        if s.view(0)["state"]["phase"] == "turn" and any(t.startswith("sub ") for t in s.view(0)["legal"])
    )
    board.set_view(view)
    gview = shown(qtbot, board, SMALLEST_BOARD)
    gview.fitInView(board.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
    bench = gview.mapFromScene(board.pos_of(("bench", 0)))
    before = " ".join(painted_texts(board))
    assert "bench, then a pawn" in before and "substitute replaces" not in before

    qtbot.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=bench)
    assert board.selection == (("bench", 0),)
    said = " ".join(painted_texts(board))
    assert "Choose the pawn the substitute replaces, or click the bench again" in said, said
    assert "bench, then a pawn" not in said

    qtbot.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=bench)
    assert board.selection == ()
    assert " ".join(painted_texts(board)) == before
