"""``soccerdesk --screenshot GAME PATH``: a mid-match position drawn offscreen into a PNG.

Two bots play a seeded match of GAME; the position halfway through at which the home side
must decide is shown in a match screen (legal targets highlighted) and saved. The same
seed gives the same picture, so the README's pictures can be rebuilt at any time.
"""

from __future__ import annotations

import random
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

from soccerdesk.bots import make_bot
from soccerdesk.rules import CHANCE, Game, State, get_game, sample_chance
from soccerdesk.ui.boards import BoardMissing, board_available
from soccerdesk.ui.match_view import BoardView, MatchView
from soccerdesk.ui.session import LocalSession, Player

SEED = 7
SET_UP_PHASES = frozenset({"setup", "set-up", "toss", "deal", "kickoff", "kick-off"})


class ScreenshotError(RuntimeError):
    """The screenshot cannot be made (no board yet, the file cannot be written...)."""


def bot_match(game: Game, seed: int, bot_name: str = "heuristic", max_plies: int = 20_000) -> State:
    """A whole match of two bots (the random bot where the game has no heuristic one yet)."""
    try:
        bots = [make_bot(bot_name, game.id) for _ in (0, 1)]
    except ImportError:
        bots = [make_bot("random", game.id) for _ in (0, 1)]
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    for _ in range(max_plies):
        players = state.current_players()
        if not players:
            break
        seat = players[0]
        action = sample_chance(state, rng) if seat == CHANCE else bots[seat].decide(state, seat, rng)
        state = state.apply(seat, action)
    return state


def middle_position(game: Game, seed: int = SEED) -> dict:
    """The record of a finished bot match cut at a point near its middle where seat 0 decides."""
    final = bot_match(game, seed)
    record = game.dump(final)
    states = game.replay(record)
    middle = len(states) // 2
    for index in [*range(middle, len(states)), *range(middle, 0, -1)]:
        state = states[index]
        players = state.current_players()
        if 0 not in players or CHANCE in players or len(state.legal_actions(0)) < 2:
            continue
        if str(state.view(0)["state"].get("phase", "")) in SET_UP_PHASES:
            continue  # a picture of play, not of the players lining up
        return {**record, "actions": record["actions"][:index]}
    return {**record, "actions": record["actions"][:middle]}


def take_screenshot(game_id: str, path: Path, size: tuple[int, int] = (1280, 800), seed: int = SEED) -> None:
    """Render a mid-match position of ``game_id`` into the PNG file ``path``."""
    if not board_available(game_id):
        raise ScreenshotError(f"the board of {game_id} is not drawn yet")
    app = QApplication.instance()
    if app is None:
        raise ScreenshotError("a QApplication must exist first")
    game = get_game(game_id)
    record = middle_position(game, seed)
    players = (Player("human", "Home", colour="#0072b2"), Player("human", "Away", colour="#e69f00"))
    session = LocalSession(game, players, record=record)
    try:
        view = MatchView(session, speed="off")
    except BoardMissing as exc:
        raise ScreenshotError(str(exc)) from None
    view.resize(*size)
    view.show()
    session.start()  # a resumed match: its log tells every action so far
    session.take_over()  # both seats are people here: Home takes the screen at once, no cover
    save_picture(view, view.view, path)
    session.close()


def save_picture(widget: QWidget, board_view: BoardView | None, path: Path) -> None:
    """Let ``widget`` (shown) lay itself out, fit its board into ``board_view`` (if it has one),
    write it to the PNG file ``path`` and close it."""
    app = QApplication.instance()
    if app is None:
        raise ScreenshotError("a QApplication must exist first")
    for _ in range(5):
        app.processEvents()
    if board_view is not None:
        board_view.fit()
    app.processEvents()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not widget.grab().save(str(path), "PNG"):
        raise ScreenshotError(f"cannot write {path}")
    widget.close()
