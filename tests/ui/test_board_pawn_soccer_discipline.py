"""The Pawn Soccer board in the rare moments of discipline (pawn audit 3): a refused click names
the rule that really refused it, the marks and chips of cards are explained, a saved penalty is
shown on the board, and a match opened in a set-up carries no arrows from before the goal."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest
from painting import SMALLEST_BOARD, painted_texts, shown
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QGraphicsView
from test_animation import banner_word_pixels

from soccerdesk.rules import CHANCE, get_game, sample_chance
from soccerdesk.rules.api import State
from soccerdesk.ui.animation import animation_for
from soccerdesk.ui.boards.base import BoardConfig, TeamColours
from soccerdesk.ui.boards.drawing import DANGER
from soccerdesk.ui.boards.pawn_soccer import YELLOW_CARD, Board
from soccerdesk.ui.match_view import MatchView
from soccerdesk.ui.session import LocalSession, Player
from soccerdesk.ui.settings import TEAM_COLOURS, text_colour_on

GAME = "pawn-soccer"


def on_screen(qtbot: Any, state: State, seat: int) -> tuple[Board, QGraphicsView]:
    """``state`` as ``seat`` sees it, on a board shown in a view that takes clicks."""
    board = Board(BoardConfig(GAME, seat))
    board.set_view(state.view(seat))
    gview = shown(qtbot, board, (1100, 800))
    gview.fitInView(board.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
    qtbot.waitExposed(gview)
    return board, gview


def spot(board: Board, gview: QGraphicsView, square: str) -> QPoint:
    pos = board.pos_of(("sq", square))
    assert pos is not None, square
    return gview.mapFromScene(pos)


def click_squares(board: Board, gview: QGraphicsView, *squares: str) -> str:
    """Click each square where the board shows it, as a person does; the last hint the board gave."""
    hints: list[str] = []
    board.hint.connect(hints.append)
    played: list[str] = []
    board.action_chosen.connect(played.append)
    for square in squares:
        QTest.mouseClick(gview.viewport(), Qt.MouseButton.LeftButton, pos=spot(board, gview, square))
    board.hint.disconnect(hints.append)
    board.action_chosen.disconnect(played.append)
    assert not played, played
    assert hints, squares
    return hints[-1]


def blue_steals(blue: list[str], orange: list[str], steal: str, yellow: tuple[str, ...] = ()) -> State:
    """The position after Blue's ``steal`` (``"steal A-B"``) from Orange's ball carrier on B;
    ``yellow``: Blue's pawns on a yellow card before it."""
    game = get_game(GAME)
    ball = steal.split("-")[1]
    state = game.position(blue, orange, ball, side=0, yellow=yellow, substitute=(False, False))
    return state.apply(0, game.parse_action(steal))


def red_card_loose_ball() -> State:
    """Blue's pawn on C5, on a yellow card, steals diagonally from Orange's D6: a red card
    outside the area, the ball loose on D6, Orange's pawn (now on C5) barred from it."""
    return blue_steals(
        ["C5", "D1", "B3", "E4", "F5", "A4"], ["D6", "D7", "C7", "E7", "D9", "D11"], "steal C5-D6", ("C5",)
    )


def keeper_before_a_penalty() -> State:
    """Blue's keeper on D1, on a yellow card, steals diagonally from Orange's C2: red card and
    penalty, and Blue must first put a pawn in goal (``penalty_keeper``)."""
    after = blue_steals(
        ["D1", "B4", "C5", "D5", "E5", "F5"], ["C2", "D7", "C7", "E7", "D9", "D11"], "steal D1-C2", ("D1",)
    )
    assert after.view(0)["state"]["phase"] == "penalty_keeper"
    return after


def steal_into_a_kept_area() -> State:
    """Orange holds the ball on D1, in Blue's goal-kick area where Blue's keeper stands on C1:
    Blue's D2 is next to the ball, but its steal would make it a second pawn there."""
    return get_game(GAME).position(
        ["C1", "D2", "B4", "C5", "D5", "E5"], ["D1", "C7", "D7", "E7", "D11"], "D1", side=0, substitute=(False, False)
    )


def blue_pawn_by_orange_goal(square: str, **options: Any) -> State:
    """Blue's pawn on ``square``, near Orange's goal without the ball (Blue's A2 has it)."""
    return get_game(GAME).position(
        [square, "A2", "B2", "C2", "F2", "G2"],
        ["A9", "B9", "C9", "F9", "G9", "E8"],
        "A2",
        side=0,
        substitute=(False, False),
        options=options,
    )


# (the position, the seat clicking, the clicks, words the hint must say, words it must not,
#  the action the clicks ask for and a word of the rules' own explanation of its refusal)
MOMENTS = [
    pytest.param(
        steal_into_a_kept_area,
        0,
        ("D2", "D1"),
        ("goal-kick area", "swap"),
        "next to the ball",
        ("steal D2-D1", "goal-kick area"),
        id="steal-barred-by-the-goal-kick-area",
    ),
    pytest.param(
        red_card_loose_ball,
        1,
        ("C5", "D6"),
        ("red card", "loose ball"),
        "goal-kick",
        ("move C5-D6", "cannot take it back"),
        id="robbed-by-a-red-card-clicks-the-loose-ball",
    ),
    pytest.param(
        keeper_before_a_penalty,
        0,
        ("C5", "C4"),
        ("penalty", "free square of your goal-kick area"),
        "one square",
        ("keeper C5-C4", "free square of your goal-kick area"),
        id="penalty-keeper-next-square",
    ),
    pytest.param(
        keeper_before_a_penalty,
        0,
        ("C5", "B2"),
        ("penalty", "free square of your goal-kick area"),
        "one square",
        ("keeper C5-B2", "free square of your goal-kick area"),
        id="penalty-keeper-far-square",
    ),
    pytest.param(
        keeper_before_a_penalty,
        0,
        ("C5", "C2"),
        ("penalty", "free square of your goal-kick area"),
        "steal",
        ("keeper C5-C2", "free square of your goal-kick area"),
        id="penalty-keeper-clicks-the-taker",
    ),
    pytest.param(
        partial(blue_pawn_by_orange_goal, "D10", closed_goal_area=True),  # Blue's D10 may not enter D11
        0,
        ("D10", "D11"),
        ("closed",),
        "one goalkeeper",
        ("move D10-D11", "goal-kick area"),
        id="closed-goal-kick-area",
    ),
    pytest.param(
        partial(blue_pawn_by_orange_goal, "C11"),  # no ball: it may not step into the goal
        0,
        ("C11", "C12"),
        ("with the ball",),
        "goal-kick",
        ("move C11-C12", "only the pawn with the ball"),
        id="no-ball-into-the-goal",
    ),
]


@pytest.mark.parametrize(("make", "seat", "clicks", "says", "not_says", "rules"), MOMENTS)
def test_a_refused_click_names_the_rule_that_refused_it(
    qtbot: Any,
    make: Any,
    seat: int,
    clicks: tuple[str, ...],
    says: tuple[str, ...],
    not_says: str,
    rules: tuple[str, str],
) -> None:
    """QA, pawn audit 3, finding 1 (docs/rulings.md, Goal-kick area, Steal, Penalty): in these
    moments the board's hint named a rule that had nothing to do with the refusal. The hint
    now says what the rules' own explanation says."""
    state = make()
    action, reason = rules
    legal = [str(a) for a in state.legal_actions(seat)]
    assert action not in legal
    assert reason in state.explain_illegal(seat, get_game(GAME).parse_action(action))
    board, gview = on_screen(qtbot, state, seat)
    hint = click_squares(board, gview, *clicks)
    assert all(words in hint for words in says), hint
    assert not_says not in hint, hint


def tooltip_at(gview: QGraphicsView, pos: QPoint) -> str:
    """The tooltip a person resting the mouse at ``pos`` is shown (the topmost item with one)."""
    return next((item.toolTip() for item in gview.items(pos) if item.toolTip()), "")


def test_the_pawn_robbed_by_a_red_card_is_marked_as_barred_from_the_loose_ball(qtbot: Any) -> None:
    """QA, pawn audit 3: the barred pawn's tooltip and the key said "may not steal it back"
    where, after a red card, the bar is on taking the loose ball (rulebook, Red card)."""
    board, gview = on_screen(qtbot, red_card_loose_ball(), 1)
    tip = tooltip_at(gview, spot(board, gview, "C5"))
    assert "lost the ball to a red card: may not take it this turn" in tip, tip
    assert "steal it back" not in tip
    texts = painted_texts(board)
    assert "lost the ball: can't win it back this turn" in texts, texts


def test_the_red_card_chips_are_explained(qtbot: Any) -> None:
    """QA, pawn audit 3: the team rows show red and yellow chips, but the key had only the
    yellow card and the chips no tooltip. Both say now what a red card is."""
    board, gview = on_screen(qtbot, red_card_loose_ball(), 0)
    assert "red card: a pawn sent off" in painted_texts(board)
    chips = next(item for item in board.items() if "red card" in item.toolTip() and "sent off" in item.toolTip())
    # Home's row: one red (the stealer sent off), and the chip is where the tooltip is found.
    where = gview.mapFromScene(chips.sceneBoundingRect().topLeft()) + QPoint(3, 4)
    tip = tooltip_at(gview, where)
    assert tip.startswith("Home: 1 red card: a pawn sent off"), tip


def _rgb(colour: QColor) -> tuple[int, int, int]:
    r, g, b, _ = colour.getRgb()
    return r, g, b


def _luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio, 1 (none) to 21 (black on white)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def card_edges(image: QImage, area: QRect, card: QColor) -> dict[str, float]:
    """A card of colour ``card`` in ``area`` of ``image``: for each of its sides, the best
    contrast of the card with either of the two pixels just past that side's middle (its rim,
    or whatever lies beside it)."""

    def rgb(x: int, y: int) -> tuple[int, int, int]:
        return _rgb(QColor(image.pixel(x, y)))

    ours = _rgb(card)
    core = [
        (x, y)
        for x in range(area.left(), area.right() + 1)
        for y in range(area.top(), area.bottom() + 1)
        if max(abs(a - b) for a, b in zip(rgb(x, y), ours, strict=True)) <= 24
    ]
    assert len(core) >= 12, (area, len(core))  # the card is there, a few pixels each way
    left, right = min(x for x, _ in core), max(x for x, _ in core)
    top, bottom = min(y for _, y in core), max(y for _, y in core)
    mid_x, mid_y = (left + right) // 2, (top + bottom) // 2
    beside = {
        "left": [(left - k, mid_y) for k in (1, 2)],
        "right": [(right + k, mid_y) for k in (1, 2)],
        "top": [(mid_x, top - k) for k in (1, 2)],
        "bottom": [(mid_x, bottom + k) for k in (1, 2)],
    }
    return {side: round(max(_contrast(ours, rgb(*at)) for at in spots), 1) for side, spots in beside.items()}


@pytest.mark.parametrize(
    "colour", sorted({*TEAM_COLOURS.values(), TeamColours().home.name(), TeamColours().away.name()})
)
def test_every_card_reads_on_every_pawn_colour_at_the_smallest_window(qtbot: Any, colour: str) -> None:
    """QA (small fixes): at 1000 x 540 a yellow card on an orange pawn had only a hairline edge
    to tell it from the pawn (a yellow pawn, worse), and a red chip read poorly on the dark panel.
    On pawns of every colour a player can choose, of either team, and on the team row's chips,
    each side of a card stands out from what is next to it: WCAG non-text contrast, >= 3."""
    game = get_game(GAME)
    state = game.position(
        ["C5", "D1", "B3", "E4", "F5"], ["D6", "D7", "C7", "E7", "D9", "D11"], "D1", yellow=("C5", "D7"), reds=(1, 0)
    )
    both = QColor(colour)
    on_it = text_colour_on(colour)
    board = Board(BoardConfig(GAME, 1, colours=TeamColours(both, both, on_it, on_it)))
    board.set_view(state.view(1))  # Blue to play: no legal-click frames on Orange's screen
    gview = shown(qtbot, board, SMALLEST_BOARD)
    gview.fitInView(board.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
    qtbot.waitExposed(gview)
    image = gview.viewport().grab().toImage()
    for square in ("C5", "D7"):  # a Blue pawn and an Orange one, each on a yellow card
        area = gview.mapFromScene(board.square_rect(square)).boundingRect()
        edges = card_edges(image, area, YELLOW_CARD)
        assert min(edges.values()) >= 3, (colour, square, edges)
    chips = next(item for item in board.items() if item.toolTip().startswith("Home: 1 red card"))
    area = gview.mapFromScene(chips.sceneBoundingRect()).boundingRect()
    edges = card_edges(image, area, DANGER)
    assert min(edges.values()) >= 3, ("red chip", edges)


def saved_penalty_event() -> dict[str, Any]:
    """The rules' event of a penalty the keeper saves (both chose the same square)."""
    game = get_game(GAME)
    # Blue's D2 (no card) steals diagonally from Orange's C3 in its own penalty area: a penalty.
    state = blue_steals(["D2", "D1", "B5", "C5", "E5", "F5"], ["C3", "D7", "C7", "E7", "D9", "D11"], "steal D2-C3")
    assert state.view(0)["state"]["phase"] == "penalty"
    state = state.apply(0, game.parse_action("penalty 2")).apply(1, game.parse_action("penalty 2"))
    return next(e.to_json() for e in state.events if e.kind == "penalty")


def test_a_saved_penalty_gets_a_banner_as_a_goal_does(qtbot: Any) -> None:
    """QA, pawn audit 3: a goal from the spot got the goal banner; a save showed nothing on
    the board, only a log line. A save now gets its own banner."""
    event = saved_penalty_event()
    assert event["data"]["goal"] is False
    shown_as = animation_for(event)
    assert shown_as is not None and shown_as.kind == "banner" and shown_as.faces == ("SAVED!",)
    scored = dict(event, data=dict(event["data"], goal=True))
    assert animation_for(scored) is None  # the goal event that follows has the banner
    assert banner_word_pixels(qtbot, shown_as) > 50  # the banner's word is painted


def set_up_after_a_goal() -> list[State]:
    """Every state of a match up to a set-up after a goal with Home to place a pawn: random
    play that steals when it can (random play alone scores too seldom; steals give penalties)."""
    game = get_game(GAME)
    for seed in range(500):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        while state.current_players():
            seat = state.current_players()[0]
            if seat == CHANCE:
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions(seat)
                steals = [a for a in legal if a.verb == "steal"]
                action = rng.choice(steals) if steals and rng.random() < 0.9 else rng.choice(legal)
            state = state.apply(seat, action)
            if sum(state.score) and state.view(0)["state"]["phase"] == "setup" and state.current_players() == (0,):
                return game.replay(game.dump(state))
    raise AssertionError("no goal in 500 matches")


def moves_of(states: list[State]) -> list[tuple[str, str]]:
    return [(e.data["from"], e.data["to"]) for s in states for e in s.events if "from" in e.data and "to" in e.data]


def test_a_match_opened_in_a_set_up_shows_no_arrows_from_before_the_goal(qtbot: Any) -> None:
    """QA, pawn audit 3: a save opened during the set-up after a goal showed the dashed arrows
    of the last moves before it, rebuilt from the whole event list."""
    game = get_game(GAME)
    states = set_up_after_a_goal()
    assert moves_of(states), "no move before the goal"
    session = LocalSession(
        game, (Player("human", "Home"), Player("bot", "Away", bot="random")), record=game.dump(states[-1])
    )
    view = MatchView(session, speed="off")
    qtbot.addWidget(view)
    view.resize(1000, 540)
    view.show()
    session.start()
    board = view.board
    qtbot.waitUntil(lambda: board.view_data is not None and bool(board.view_data["legal"]), timeout=10_000)
    assert board.trails == []
    # A person places a pawn: still no arrows in the set-up.
    square = board.view_data["legal"][0].split()[1]
    QTest.mouseClick(
        view.view.viewport(), Qt.MouseButton.LeftButton, pos=view.view.mapFromScene(board.pos_of(("sq", square)))
    )
    qtbot.waitUntil(lambda: session.state.ply >= len(states), timeout=10_000)
    QApplication.processEvents()
    assert board.trails == []
    session.close()


def test_a_resumed_match_shows_only_the_moves_since_the_last_goal(qtbot: Any) -> None:
    """The same in play: the arrows of a match resumed from its whole event list are of the
    moves since the restart, never of the ones before the goal."""
    game = get_game(GAME)
    states = set_up_after_a_goal()
    rng = random.Random(1)
    state = states[-1]
    while state.view(0)["state"]["phase"] != "turn" or state.current_players() != (0,):
        seat = state.current_players()[0]
        state = state.apply(
            seat, sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        )
    played = game.replay(game.dump(state))
    board = Board(BoardConfig(GAME, 0))
    board.set_view(played[-1].view(0), [e.to_json() for s in played[1:] for e in s.events])
    assert set(board.trails) <= set(moves_of(played[len(states) :])), board.trails
