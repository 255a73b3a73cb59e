"""The Soccero board draws the other side's last turn (QA s28, first minutes 1): a trail for
each player who moved, the ball's route, kept until the viewer's own first move; and the next
movement roll plays over the pitch only once the turn before it is shown."""

from __future__ import annotations

import random
import re
from typing import Any

from clicking import WAIT_MS, start_match
from driving import click_action
from PySide6.QtWidgets import QGraphicsItem

from soccerdesk.rules import CHANCE, get_game, sample_chance
from soccerdesk.rules.api import State
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.soccero import Board, Trail, follow_turns
from soccerdesk.ui.main_window import MainWindow

GAME = "soccero"


def left_rings(board: Board) -> list[str]:
    """The squares drawn as left by a player of the other side's last turn (the dashed rings)."""
    found = (re.search(r"last turn: a player left ([A-U]\d+)$", item.toolTip()) for item in board.items())
    return sorted(match.group(1) for match in found if match)


def routes(board: Board) -> list[QGraphicsItem]:
    """The lines drawn on the pitch for moves and routes (white lines, no tooltip, under the players)."""
    return [item for item in board.items() if item.zValue() == 3 and not item.toolTip()]


def step(state: State, rng: random.Random) -> State:
    seat = state.current_players()[0]
    return state.apply(seat, sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions(seat)))


def test_the_other_sides_turn_stays_drawn_until_the_first_move_of_yours(qtbot: Any) -> None:
    """Each player of Away's last turn is drawn from the square he left (a dashed ring there)
    to where he went, and the kick's route; Home's roll keeps them; Home's first move ends them."""
    game = get_game(GAME)
    state, rng = game.new_match(seed=5, quick_setup=True), random.Random(5)
    board = Board(BoardConfig(GAME, 0))
    events: list[dict[str, Any]] = []
    away_turn: list[dict[str, Any]] = []
    while True:
        state = step(state, rng)
        for event in (e.to_json() for e in state.events):
            events.append(event)
            if event["kind"] == "roll" and event["data"].get("seat") == 1:
                away_turn = []
            elif event["kind"] in ("move", "kick"):
                away_turn.append(event)
        if state.current_players() == (0,):
            view = state.view(0)
            board.set_view(view, events)
            events = []
            if view["state"]["phase"] == "moving" and any(e["kind"] == "kick" for e in away_turn):
                break
    moved = [e["data"] for e in away_turn if e["kind"] == "move"]
    kicked = [e["data"] for e in away_turn if e["kind"] == "kick"]
    assert all(state.view(0)["state"]["players"][data["player"]]["seat"] == 1 for data in moved + kicked)
    assert [(t.squares[0], t.squares[-1]) for t in board.trails if not t.ball] == [(d["from"], d["to"]) for d in moved]
    assert [t.squares[1:] for t in board.trails if t.ball and len(t.squares) > 2] == [tuple(d["path"]) for d in kicked]
    assert left_rings(board) == sorted(d["from"] for d in moved)
    assert len(routes(board)) == len(board.trails)
    # Drawn again for the same position (a preview, new labels): the same trails.
    board.set_view(board.view_data, [])
    assert len(routes(board)) == len(board.trails)
    # Home's first move: Away's turn is no longer news, and Home's own moves are not drawn.
    move = next(text for text in view["legal"] if text.startswith("move"))
    state = state.apply(0, game.parse_action(move))
    board.set_view(state.view(0), [e.to_json() for e in state.events])
    assert board.trails and all(t.side == 0 for t in board.trails)
    assert left_rings(board) == [] and routes(board) == []


def test_a_new_half_a_goal_or_a_set_piece_leaves_no_trail() -> None:
    """Nothing of a turn before a goal's kick-off, a new half or a set piece is drawn after it:
    the players were put in new places, not moved there."""
    seats = [0] * 11 + [1] * 11
    moved = [{"kind": "move", "data": {"player": 14, "from": "E20", "to": "E14", "ball": "K9"}}]
    trails, ball = follow_turns([], "K9", moved, seats)
    assert trails == [Trail(1, ("E20", "E14"))] and ball == "K9"
    for kind in ("goal", "half-time", "setup", "kickoff", "set-piece"):
        assert follow_turns(trails, ball, [{"kind": kind, "data": {}}], seats)[0] == [], kind
    # Away's turn, Home's roll (kept), then Away's next roll in a row (a set piece gave it two).
    roll = [{"kind": "roll", "data": {"seat": 0, "value": 3}}]
    assert follow_turns(trails, ball, roll, seats)[0] == trails
    assert follow_turns(trails, ball, [{"kind": "roll", "data": {"seat": 1, "value": 3}}], seats)[0] == []
    # A carry: the player's move and the ball's way, from where the ball was.
    carried = [{"kind": "move", "data": {"player": 14, "from": "E14", "to": "E10", "ball": "E11"}}]
    assert follow_turns([], "E14", carried, seats) == (
        [Trail(1, ("E14", "E10")), Trail(1, ("E14", "E11"), ball=True)],
        "E11",
    )


def test_the_next_roll_waits_until_the_computers_last_move_is_on_the_pitch(qtbot: Any, window: MainWindow) -> None:
    """Audit frames 34_b_05..11: the die of Home's next roll tumbled over the pitch as it was
    before the computer's last move, which appeared only after it. Now, whenever a movement
    roll's die begins, every player of the moves before it already stands on his new square
    on the board under the die, his trail drawn."""
    window.settings.animation_speed = "fast"
    view = start_match(qtbot, window, GAME, ("bot", "normal"), {"quick_setup": True})
    play = view.animation.play
    checked: list[str] = []
    wrong: list[str] = []

    def spy(animations: Any, speed: Any, backdrop: Any = None, **options: Any) -> None:
        events = list(view._pending_view[1])
        kinds = [e["kind"] for e in events]
        if "roll" in kinds[1:]:
            state = view._pending_view[0]["state"]
            for event in events[: kinds.index("roll", 1)]:
                data = event.get("data") or {}
                if event["kind"] == "move":
                    player = state["players"][data["player"]]
                    shown = [i.toolTip() for i in view.board.items()]
                    spot = f"player {player['number']} on {data['to']}"
                    (checked if any(spot in tip for tip in shown) else wrong).append(spot)
                    if player["seat"] != view.board.view_data.get("seat"):
                        (checked if data["from"] in left_rings(view.board) else wrong).append(f"ring {data['from']}")
        play(animations, speed, backdrop, **options)

    view.animation.play = spy
    rng = random.Random(3)
    for _ in range(60):
        qtbot.waitUntil(
            lambda: bool(view.view_data and view.view_data.get("legal")) and not view.animating, timeout=WAIT_MS
        )
        if len([c for c in checked if c.startswith("ring")]) >= 3:
            break
        legal = view.board.keyboard_actions()
        moves = [text for text in legal if text.startswith("move ")]
        click_action(qtbot, view, rng.choice(moves or legal))
    assert wrong == []
    assert len([c for c in checked if c.startswith("ring")]) >= 3, checked
