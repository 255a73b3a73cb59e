"""What every game board is: a QGraphicsScene drawn from a seat's view.

A board never decides legality. It draws ``view["state"]`` (the game's own part of
:meth:`soccerdesk.rules.State.view`), offers the action texts in ``view["legal"]``, and
reports what the user picked as an action text. The session (local or online) applies
it; an illegal attempt comes back through :meth:`BoardScene.show_refusal`.

Signals:
    action_chosen(str): the user picked this action text.
    hint(str): a short instruction for the status bar ("choose a square to pass to").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from soccerdesk.learn.words import sentence, spelled_out


@dataclass(frozen=True)
class TeamColours:
    """Team colours. The defaults (blue / orange) stay apart for every kind of colour blindness."""

    # default_factory: PySide6 >= 6.12 makes QColor unhashable, which dataclasses treat as mutable.
    home: QColor = field(default_factory=lambda: QColor("#1f5fbf"))
    away: QColor = field(default_factory=lambda: QColor("#e07b00"))
    home_text: QColor = field(default_factory=lambda: QColor("#ffffff"))
    away_text: QColor = field(default_factory=lambda: QColor("#000000"))

    def of(self, seat: int) -> QColor:
        return self.home if seat == 0 else self.away

    def text_on(self, seat: int) -> QColor:
        return self.home_text if seat == 0 else self.away_text


@dataclass(frozen=True)
class BoardConfig:
    """What a board needs to know besides the view."""

    game_id: str
    perspective: int | None  # the seat whose side is drawn at the bottom; None = spectator (seat 0 below)
    colours: TeamColours = field(default_factory=TeamColours)
    team_names: tuple[str, str] = ("Home", "Away")
    # Replay viewer: the view also carries ``"opponent_state"``, the other seat's own view of the
    # same position (its hand, its face-down pick), which the board may show openly.
    reveal_all: bool = False
    # Both seats are played at this screen (hot-seat): the other side waits for it, it is not
    # choosing anything meanwhile.
    hot_seat: bool = False


class BoardScene(QGraphicsScene):
    """Base of the four game boards. Subclasses implement :meth:`render`."""

    action_chosen = Signal(str)
    hint = Signal(str)

    def __init__(self, config: BoardConfig, parent: Any = None) -> None:
        super().__init__(parent)
        self.config = config
        self.view_data: dict[str, Any] | None = None
        self.preview: str | None = None

    # --- called by the match window -------------------------------------------------

    def set_view(self, view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        """Redraw for a new view. ``events`` (``Event.to_json()`` dicts) may be animated."""
        self.view_data = view
        self.preview = None
        self.render(view, events or [])

    follows_turns = False
    """The board draws the last turns from each view's events in turn (see
    :class:`~soccerdesk.ui.boards.drawing.ClickBoard`): a view that does not follow the last
    one shown needs :meth:`retrace`."""

    def retrace(self, steps: Iterable[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
        """Work out the last turns from ``steps``, each a view and the events that led to it
        from the start of the match on, without drawing; the default draws no last turns."""

    def shown_under_animation(self, view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
        """A view to draw before the animations of ``events`` play over the board, ``view``
        following once they are done; ``None`` (the default): the board stays as it was."""
        return None

    def legal(self) -> list[str]:
        return list(self.view_data["legal"]) if self.view_data else []

    def piece_at(self, pieces: str, square: str) -> dict[str, Any] | None:
        """The piece of the view's ``state[pieces]`` list (pawns, players) standing on
        ``square``, or ``None``."""
        if self.view_data is None:
            return None
        for piece in self.view_data["state"][pieces]:
            if piece["square"] == square:
                return piece
        return None

    KEYBOARD_LAST: frozenset[str] = frozenset()
    """Verbs Tab reaches only after the rest: choices a player seldom means and cannot take
    back (a substitution, agreeing to end the half), never the first a Tab and Enter plays."""

    def keyboard_actions(self) -> list[str]:
        """The actions Tab cycles through, in a sensible order (default: the legal list, the
        :attr:`KEYBOARD_LAST` verbs after the others)."""
        return sorted(self.legal(), key=lambda text: text.partition(" ")[0] in self.KEYBOARD_LAST)

    def describe(self, action_text: str) -> str:
        """The action in words, for the keyboard preview ("Enter plays: ...").

        The default spells out the verb ("clear-box" -> "Clear box"); boards whose action texts
        are terse ("play DA1P A1C") say what they mean instead.
        """
        verb, _, rest = action_text.partition(" ")
        return sentence(f"{verb.replace('-', ' ')} {rest}".rstrip())

    def event_text(self, event: dict[str, Any], reader: int | None = None) -> str:
        """An event (``Event.to_json()``) told in words, as this board labels things.

        The match screen shows it in "What happened" and under animations. The default is the
        rules' own text; boards whose rules text names things from the mover's side or by code
        (zones, card codes) say it as the viewer's board shows it. ``reader``: the seat whose
        board the line is read beside, when not the one drawn now (a hot-seat log shown again
        to the other player); boards that draw every seat alike ignore it.
        """
        return str(event.get("text", ""))

    def card_name(self, code: str) -> str:
        """A card code (an event's ``data["card"]``) as the player knows the card, for an
        animation's card face. The default spells the code out ("def-block" -> "Def block")."""
        return spelled_out(code)

    def full_time_words(self, view: dict[str, Any]) -> str:
        """The result at full time, with the team's own name ("Full time: Away wins.")."""
        from soccerdesk.rules import result_words

        winner = view.get("winner")
        name = None if winner is None else self.config.team_names[winner]
        return f"Full time: {result_words(name, view.get('details'))}."

    def set_preview(self, action_text: str | None) -> None:
        """Show which action Enter would play (keyboard play); ``None`` clears it."""
        self.preview = action_text
        if self.view_data is not None:
            self.render(self.view_data, [])

    def show_refusal(self, reason: str) -> None:
        """An attempt was refused; the default shows the reason as the hint."""
        self.hint.emit(reason)

    def choose(self, action_text: str) -> None:
        self.action_chosen.emit(action_text)

    # --- for subclasses ---------------------------------------------------------------

    # Shadows QGraphicsScene.render(painter, ...) for Python callers; no code here renders a
    # board scene into a painter (the view and grab() paint it through C++).
    def render(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:  # type: ignore[override]
        raise NotImplementedError
