"""The Soccero board at set pieces (extended rules), as QA pass 14 played them: the players
under the loose ball stay visible, the player picked for a free move or the wall is framed
and named, the panel says who must move first and why there is no Shoot button, the kick
buttons fit and explain their kicking rules, and the kick-die box says what a set-piece
curve does."""

from __future__ import annotations

import math
from typing import Any

from painting import painted_texts, shown
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsScene

from soccerdesk.rules import get_game
from soccerdesk.rules.soccero import set_pieces
from soccerdesk.rules.soccero.state import SocceroState
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.drawing import button_face
from soccerdesk.ui.boards.soccero import Board
from soccerdesk.ui.help import help_markdown
from tests.rules.test_soccero import act, edit, meta, position, roll, sq

GAME = "soccero"


def steal_foul() -> SocceroState:
    """Seat 0's player 6 (id 5) has stolen the ball from seat 1's player 5 (id 15) on K13 and
    seat 1 rolled a 6: a direct free kick for seat 1 waits for its taker, both players and the
    loose ball on K13 (QA pass 14, finding 1: the ball hid them)."""
    s = position({15: "K13", 5: "K10", 16: "M20", 17: "E20"}, holder=15, phase="moving", points=3, extended=True)
    s = roll(act(s, "move K10-K13"), "roll 6")
    assert s.phase == "sp-taker" and s.holder == -1 and s.pos[5] == s.pos[15] == s.ball == sq("K13")
    return s


def free_kick_at_k20(direct: bool) -> SocceroState:
    """A free kick for seat 0 on K20, taken by player 6 (id 5), ready to be kicked."""
    s = position({5: "K20", 16: "M26"}, ball="A30", phase="roll", team=1, extended=True)
    s = act(meta(s, set_pieces.start(s, "free-kick", 0, sq("K20"), direct, [])), "pick K20")
    return edit(s, phase="sp-kick", decider=0, pending=())


def picture(board: Board, view: dict[str, Any], square: str) -> list[int]:
    """``square`` alone as the board draws it in ``view``, enlarged to 100 × 100 pixels."""
    board.set_view(view)
    image = QImage(100, 100, QImage.Format.Format_ARGB32)
    image.fill(QColor("black"))
    painter = QPainter(image)
    QGraphicsScene.render(board, painter, QRectF(0, 0, 100, 100), board.square_rect(square))
    painter.end()
    return [image.pixel(x, y) for x in range(100) for y in range(100)]


def without(view: dict[str, Any], players: set[int], ball: bool = True) -> dict[str, Any]:
    state = view["state"]
    shown_players = [{**p, "square": None} if i in players else p for i, p in enumerate(state["players"])]
    return {**view, "state": {**state, "players": shown_players, "ball": state["ball"] if ball else None}}


def changed(a: list[int], b: list[int]) -> int:
    return sum(x != y for x, y in zip(a, b, strict=True))


def test_players_under_the_loose_ball_at_a_set_piece_stay_visible(qtbot: Any) -> None:
    """QA pass 14, finding 1: while a set piece waits for its taker the loose ball was drawn over
    the middle of its square and hid the players there (the one to click too). Each player, alone
    or with another, is now seen nearly whole: at least 80% of his disc shows."""
    s = steal_foul()
    view = s.view(1)
    board = Board(BoardConfig(GAME, 1))
    disc = {size: math.pi * (0.36 * size * 100) ** 2 for size in (1.0, 0.66)}  # _draw_players' radius
    both = picture(board, view, "K13")
    nobody = picture(board, without(view, {5, 15}), "K13")
    for player, other in ((5, 15), (15, 5)):
        assert changed(both, picture(board, without(view, {player}), "K13")) > 0.8 * disc[0.66], player
        alone = picture(board, without(view, {other}), "K13")
        assert changed(alone, nobody) > 0.8 * disc[1.0], player
    assert changed(nobody, picture(board, without(view, {5, 15}, ball=False), "K13")) > 300  # the ball is drawn


def _framed_white(board: Board, gview: Any, square: str) -> bool:
    """Is the "chosen" frame (:func:`draw_target_mark`, selected) on ``square``'s left edge white?"""
    rect = board.square_rect(square)
    spot = gview.mapFromScene(QPointF(rect.left() + rect.width() * 0.08, rect.center().y()))
    image = gview.grab().toImage()
    colours = [QColor(image.pixel(spot.x() + dx, spot.y() + dy)) for dx in (-1, 0, 1) for dy in (-2, 0, 2)]
    return any(min(c.red(), c.green(), c.blue()) > 215 for c in colours)


def _clicked_into_the_rules(qtbot: Any, board: Board, state: list[SocceroState], seat: int) -> Any:
    """``board`` in a view of its own, zoomed in; a click's action is played and shown, as the
    match window does."""
    gview = shown(qtbot, board, (900, 900))
    gview.scale(3, 3)

    def play(text: str) -> None:
        state[0] = state[0].apply(seat, get_game(GAME).parse_action(text))
        board.set_view(state[0].view(seat))

    board.action_chosen.connect(play)
    return gview


def _click(gview: Any, board: Board, square: str) -> None:
    gview.centerOn(board.square_rect(square).center())
    QTest.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=gview.mapFromScene(board.pos_of(("sq", square))))


def test_the_player_picked_for_a_free_move_is_framed_white_and_named(qtbot: Any) -> None:
    """QA pass 14, finding 6: after the click on a player for a free move every target lit up,
    but he had no white "chosen" frame (the key: "a legal click now (white: chosen)") and the
    panel did not name him."""
    s = act(act(steal_foul(), "pick K13"), "done")  # seat 1 takes it, seat 0 builds no wall
    assert s.phase == "free" and s.current_players() == (1,)
    board = Board(BoardConfig(GAME, 1))
    board.set_view(s.view(1))
    state = [s]
    gview = _clicked_into_the_rules(qtbot, board, state, 1)
    gview.centerOn(board.square_rect("M20").center())
    assert not _framed_white(board, gview, "M20")  # not picked yet: a legal click, in yellow
    _click(gview, board, "M20")
    assert state[0].view(1)["state"]["setpiece"]["selected"] == 16
    assert _framed_white(board, gview, "M20")
    assert "Player 6 on M20: click the square he moves to." in painted_texts(board)
    _click(gview, board, "M22")
    assert state[0].pos[16] == sq("M22") and not _framed_white(board, gview, "M22")


def test_the_player_picked_for_the_wall_is_framed_white_and_named(qtbot: Any) -> None:
    s = position({5: "K20", 16: "M26"}, ball="A30", phase="roll", team=1, extended=True)
    s = act(meta(s, set_pieces.start(s, "free-kick", 0, sq("K20"), True, [])), "pick K20")
    assert s.phase == "wall" and s.current_players() == (1,)
    board = Board(BoardConfig(GAME, 1))
    board.set_view(s.view(1))
    gview = _clicked_into_the_rules(qtbot, board, [s], 1)
    _click(gview, board, "M26")
    assert _framed_white(board, gview, "M26")
    assert "Player 6 on M26: click his square in the wall." in painted_texts(board)


def test_the_panel_says_who_must_be_moved_first_and_why(qtbot: Any) -> None:
    """QA pass 14, finding 6: at a penalty only some players could be clicked and there was no
    Done button, with nothing to say why (rulebook "Free moves" and "Penalty Kicks")."""
    players = {1: "R11", 5: "K7", 6: "J3", 15: "I6", 12: "T11", 16: "E30", 11: "A32"}
    s = position(players, ball="A30", phase="roll", team=1, extended=True)
    s = act(meta(s, set_pieces.start(s, "penalty", 1, sq("K4"), False, [])), "pick E30")
    s = act(act(s, "pick I6"), "to I12")
    assert s.current_players() == (0,)
    why = "must be moved first: nobody else may stand in the penalty area, in the arc or as near the goal line as the spot."
    deciding = Board(BoardConfig(GAME, 0))
    deciding.set_view(s.view(0))
    texts = painted_texts(deciding)
    assert any(f"Players 6 and 7 {why}" in text for text in texts), texts
    assert "Free moves: click a highlighted player, then his new square." in texts  # no "or Done"
    watching = Board(BoardConfig(GAME, 1))
    watching.set_view(s.view(1))
    assert any(f"Players 6 and 7 of Home {why}" in text for text in painted_texts(watching))


def test_the_panel_says_a_free_kick_is_indirect_and_so_offers_no_shot(qtbot: Any) -> None:
    """QA pass 14, finding 4: "(direct)" was said, an indirect free kick was not (rulebook: "With
    indirect free kicks the ball may not be kicked directly on the goal")."""
    board = Board(BoardConfig(GAME, 0))
    said = {}
    for direct in (False, True):
        view = free_kick_at_k20(direct).view(0)
        board.set_view(view)
        said[direct] = [t for t in painted_texts(board) if t.startswith("Free kick for Home")]
        assert any(t.startswith("shoot") for t in view["legal"]) == direct
    assert said[False] == ["Free kick for Home (indirect: no shot at goal)"]
    assert said[True] == ["Free kick for Home (direct)"]


def test_set_piece_kick_buttons_fit_on_one_line_and_explain_their_kicking_rules(qtbot: Any) -> None:
    """QA pass 14, finding 5: "Shoot · 2 dice (normal)" broke onto two lines in a smaller font,
    and the tooltips did not say what the set-piece kicking rule is (rulebook "Kicking the ball in
    special situations")."""
    view = free_kick_at_k20(True).view(0)
    board = Board(BoardConfig(GAME, 0))
    board.set_view(view)
    kicks = [t for t in view["legal"] if t.split()[0] in ("kick", "shoot")]
    assert len(kicks) == 8
    faces = {}
    for text in kicks:
        item = board.item_for(("action", text))
        assert item is not None, text
        _, font, shown_text = button_face(board.action_label(text), item.boundingRect(), True)
        faces[text] = (shown_text, font.pointSizeF())
        assert "\n" not in shown_text, faces[text]
        tip = item.toolTip()
        if text.endswith("normal"):
            assert "as in open play" in tip and "stops at the first player in its way" in tip, tip
        else:
            assert "flies in the air instead and nobody can stop it" in tip, tip
    assert len({size for _, size in faces.values()}) == 1, faces
    assert faces["shoot 2 normal"][0] == "Shoot · 2 dice, normal rules"
    assert faces["kick 1"][0] == "Kick · 1 die"


def test_the_kick_die_box_says_a_set_piece_curve_flies_over_everyone(qtbot: Any) -> None:
    """QA pass 14, finding 5: under the set-piece rules a curve on the ground flies over every
    player and cannot be stopped, but the box said "curve, ground"."""
    board = Board(BoardConfig(GAME, 0))
    for kick, word in (("kick 1", "curve, flies over all"), ("kick 1 normal", "curve, ground")):
        s = roll(act(free_kick_at_k20(False), kick), "kick-roll curve 4")
        board.set_view(s.view(0))
        said = [t for t in painted_texts(board) if t.startswith("curve")]
        assert said == [word], said


def test_the_help_explains_set_piece_kicking_and_making_room(qapp: Any) -> None:
    """QA pass 14, finding 5: the F1 help's extended rules did not mention the set-piece kicking rule."""
    page = help_markdown(get_game(GAME))
    extended = page[page.index("## Extended rules") : page.index("## Playing in soccerdesk")]
    for fact in ("normal rules", "curve along the ground", "nobody can stop it", "makes room", "**Done**"):
        assert fact in extended, fact
