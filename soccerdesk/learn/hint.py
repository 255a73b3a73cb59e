"""Hint: the search bot's suggestion for the seat to move, with one line of why.

The suggestion is what the search bot (the ``hard`` level's search, with a fixed number of
playouts and no clock) would play in the seat's place. Like every bot it decides from
``state.determinize(seat, rng)``: a world the seat cannot tell apart from the real one, so a
hint never uses the opponent's hidden cards or secret pick. The same view and the same seed
give the same hint.

The line of why says first what the action does in football words, from the rules' own
account of it (:func:`reading`): it scores, shoots, wins the ball, keeps it, moves it nearer
goal; a fresh substitute may steal straight back; and what it costs (a yellow card, a card
spent). Then how the search bot's trial games went with it against the next best action it
tried. A face-down pick made at the same time as the opponent's (Soccer-Go's numbers, shots,
dives and tackle signs, Pawn Soccer's penalty) is a guess: the line says so, and that any
choice is about as good, instead of reading a confident pick into a few trial games (QA pass
17: "Dive middle … no other choice did better (46%)").

Nothing in the line depends on what the seat cannot see: it reads the action, the seat's own
view, and, in the games with nothing hidden outside a face-down pick (Pawn Soccer, Soccero),
the position the action leads to.

:func:`hint_for_record` is module-level and takes plain values, so the app's bot process runs
it (``pool.submit(hint_for_record, game_id, record, seat, seed)``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from soccerdesk.learn.words import said
from soccerdesk.rules import Action, State, get_game

CLEAR_GAIN = 0.03
"""A lead in the search bot's playouts (chance of winning) worth telling the learner about."""

TRIAL_GAMES = "in trial games played on from here"
"""The search's playouts, as a player would say it (QA pass 10: "the search bot's playouts" is jargon)."""

OPEN_WORLD = frozenset({"pawn-soccer", "soccero"})
"""Games where nothing is hidden but a face-down pick: the position an action leads to may be
read for the line of why (elsewhere it would show the world's guess at the opponent's hand)."""

GUESSED = {"pass": "number", "mark": "number", "shoot": "side", "save": "side", "show": "sign", "penalty": "number"}
"""What a face-down pick chooses, by the action's first word."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested action (its text), why in one line, and the seat's chance of winning with it
    as the search bot's playouts saw it (``None`` when it decided without playouts)."""

    action: str
    why: str
    chance: float | None = None


def _bot(game_id: str) -> Any:
    """The levels' search with ``HINT_ITERATIONS`` playouts and no clock (a hint takes about as
    long as a ``hard`` move; in Soccero as long as an ``expert`` one, about a tenth of a second).
    A new one for each hint: in Big Time Soccer its belief then reads only the opponent's last
    decisions (:data:`soccerdesk.bots.bts_particles.CATCH_UP`; some 0.3 s at most)."""
    from soccerdesk.bots.levels import HINT_ITERATIONS, search_bot

    return search_bot(game_id, None, "hint", max_iterations=HINT_ITERATIONS.get(game_id, 100))


def suggest(state: State, seat: int, seed: int) -> Hint:
    """The search bot's suggestion for ``seat`` at ``state`` (see the module docstring).

    Raises :class:`soccerdesk.rules.IllegalAction` when ``seat`` does not decide now.
    """
    legal = state.legal_actions(seat)
    if len(legal) == 1:  # no search: a new bot's belief would weigh the match for nothing
        return Hint(str(legal[0]), "It is the only thing you can do here.")
    bot = _bot(state.game.id)
    bot.last_statistics = {}
    action = bot.decide(state, seat, random.Random(seed))
    statistics: dict[Action, tuple[int, float]] = dict(bot.last_statistics)
    world = state.determinize(seat, random.Random(seed))
    return Hint(str(action), *_why(world, seat, action, statistics))


def _why(
    world: State, seat: int, action: Action, statistics: Mapping[Action, tuple[int, float]]
) -> tuple[str, float | None]:
    """One line of why, and the chance the playouts gave the action (for ``seat``)."""
    chance: float | None = None
    search_line = ""
    if action in statistics:
        chance = (1.0 + statistics[action][1]) / 2.0
        others = [(1.0 + v) / 2.0 for a, (_, v) in statistics.items() if a != action]
        best = max(others, default=chance)
        if others and chance - best >= CLEAR_GAIN:
            search_line = (
                f"{TRIAL_GAMES}, this one won {chance:.0%} of them, {(chance - best) * 100:.0f} points more than"
                " the next best choice"
            )
        elif others:
            # Not "did better": the search keeps its own pick unless another is surely better.
            search_line = f"{TRIAL_GAMES}, no other choice did clearly better (this one won {chance:.0%} of them)"
    guess = guessed(world, seat, action)
    if guess:
        return said(
            f"a guess: your opponent chooses at the same time without seeing your choice, so any {guess} is"
            " about as good as another; vary yours so that they cannot be read"
        ), chance
    does, costs = reading(world, seat, action)
    lines = [said("; ".join(p for p in (does, costs) if p))] if does or costs else []
    lines.append(said(search_line) if search_line else "" if lines else "The game's rules of thumb rank it first here.")
    return " ".join(p for p in lines if p), chance


def guessed(world: State, seat: int, action: Action) -> str:
    """What ``action`` picks when it is a face-down pick the opponent makes at the same time
    ("number", "side", "sign", or "choice"), or "" when it is no guess."""
    secret = world._secret(seat, action)  # noqa: SLF001 - the rules' own word on a face-down pick
    if secret is None or not secret[1]:
        return ""
    return GUESSED.get(str(action).split()[0], "choice")


def reading(world: State, seat: int, action: Action) -> tuple[str, str]:
    """What ``action`` does for ``seat`` in football words, and what it costs ("" when there is
    nothing to say), from the action, the seat's own view and, where nothing else is hidden
    (:data:`OPEN_WORLD`), the position it leads to."""
    game_id = world.game.id
    after: State | None = None
    if game_id in OPEN_WORLD and world.current_players() == (seat,):
        after = world.apply(seat, action)
        if after.score[seat] > world.score[seat]:
            return "it scores", ""
        if after.is_terminal() and after.winner == seat:
            return "it wins the match", ""
    read = READERS.get(game_id)
    return read(world, seat, str(action), after) if read is not None else ("", "")


# --- Pawn Soccer ---------------------------------------------------------------------------


def _pawn_soccer(world: State, seat: int, text: str, after: State | None) -> tuple[str, str]:
    view = world.view(seat)["state"]
    verb, _, squares = text.partition(" ")
    if verb == "end":
        return "it keeps your substitute on the bench for later", ""
    if verb == "sub":
        pawn = next(p for p in view["pawns"] if p["square"] == squares)
        if pawn["barred"]:
            return "the fresh substitute may steal the ball straight back (the pawn it replaces may not)", ""
        if pawn["yellow"]:
            return "the substitute comes on without the yellow card, so it may steal diagonally again without a red", ""
        return "it brings on your fresh substitute", ""
    if after is None:
        return "", ""
    if verb == "steal":
        return _pawn_steal(after)
    costs = ""
    before, now = _pawn_ball(view, seat), _pawn_ball(after.view(seat)["state"], seat)
    does = _ball_words(before, now, seat)
    if now is not None and now[2] == seat and (before != now or verb == "stop"):
        reachable = _pawn_steals(after, seat)
        if reachable:
            costs = costs or "an opposing pawn beside the ball may steal it"
        elif reachable is not None and verb == "stop":
            does = "it ends the chain pass with the ball out of the opponents' reach"
        elif reachable is not None and does == "it keeps the ball":
            does = "it keeps the ball out of the opponents' reach"
    if (
        not does
        and verb == "move"
        and now is not None
        and now[2] == 1 - seat
        and _beside(squares.split("-")[1], now[0])
    ):
        does = "it moves next to the ball carrier, ready to steal the ball"
    return does, costs


def _pawn_steal(after: State) -> tuple[str, str]:
    """What a steal leads to, read from the events of the position after it: the ball won, or,
    for a diagonal steal, a foul that gives a penalty away (Rulings, Pawn Soccer 7-8), a red card
    that leaves the ball loose (Rulebook, Red card) or a forfeit; and the card it costs."""
    events = {event.kind: event for event in after.events}
    if "forfeit" in events:
        reds = events["red_card"].data["reds"]
        return f"it loses the match: it is a red card, and a side with {reds} pawns sent off forfeits", ""
    if "red_card" in events:
        costs = "a second diagonal steal is a red card: the pawn is sent off"
    elif "yellow_card" in events:
        costs = "a diagonal steal costs a yellow card (a second one is a red)"
    else:
        costs = ""
    if "penalty_awarded" in events:
        # Rulings, Pawn Soccer 7-8: no swap; the fouled pawn shoots from the penalty spot.
        spot = events["penalty_awarded"].data["spot"]
        does = (
            "it does not win the ball: a diagonal steal inside your own penalty area is a foul, so the pawns do"
            f" not swap and your opponent shoots a penalty from {spot}"
        )
        if "penalty_unguarded" in events:
            does += ", which goes in: no pawn of yours can take the goalkeeper's place"
        return does, costs
    if "loose_ball" in events:
        square = events["loose_ball"].data["square"]
        return (
            f"it does not win the ball: the ball stays loose on {square}, and the pawn it was taken from may not"
            " pick it up next turn",
            costs,
        )
    return "it wins the ball", costs


def _pawn_steals(after: State, seat: int) -> bool | None:
    """Whether the opponent may steal the ball when its turn comes (``None``: this seat's turn
    goes on, a chain pass or a substitution)."""
    state = after
    if state.current_players() == (seat,) and state.view(seat)["state"]["phase"] == "after_turn":
        state = state.apply(seat, state.game.parse_action("end"))  # the window for the substitute
    if state.current_players() != (1 - seat,):
        return None
    return any(str(action).startswith("steal ") for action in state.legal_actions(1 - seat))


def _beside(a: str, b: str) -> bool:
    """Whether squares ``a`` and ``b`` ("D8") touch, diagonals too."""
    return a != b and abs(ord(a[0]) - ord(b[0])) <= 1 and abs(int(a[1:]) - int(b[1:])) <= 1


Ball = tuple[str, int, int | None] | None
"""Where the ball is (its square), how far up the pitch for the seat reading it (in rows, more
is nearer the goal it attacks) and which side holds it (``None``: loose); ``None`` before play."""


def _pawn_ball(view: Mapping[str, Any], seat: int) -> Ball:
    square = view.get("ball")
    if not square:
        return None
    forward = int(view["board"]["ends"][seat]["forward"])
    holder = next((p["team"] for p in view["pawns"] if p["ball"]), None)
    return square, int(square[1:]) * forward, holder


def _ball_words(before: Ball, after: Ball, seat: int) -> str:
    """Football words for where an action took the ball: won, kept and moved nearer goal, kept
    with a pass back or across, put into space. Nothing when the ball stayed where it was."""
    if before is None or after is None or before == after:
        return ""
    (_, rows, side), (_, now, holder) = before, after
    gained = now - rows
    nearer = f"{gained} row{'s' if gained > 1 else ''} nearer goal" if gained > 0 else ""
    if holder == seat and side != seat:
        return "it wins the ball" + (f" and takes it {nearer}" if nearer else "")
    if holder == seat:
        return f"it keeps the ball and moves it {nearer}" if nearer else "it keeps the ball"
    if holder is None and side == seat and nearer:
        return f"it plays the ball into space {nearer}, where either side may take it"
    return ""


# --- Soccero -------------------------------------------------------------------------------


def _soccero(world: State, seat: int, text: str, after: State | None) -> tuple[str, str]:
    verb = text.split()[0]
    if verb == "shoot":
        return "it shoots at goal", ""
    if after is None or verb != "move" or text == "move":
        return "", ""
    return _ball_words(
        _soccero_ball(world.view(seat)["state"], seat), _soccero_ball(after.view(seat)["state"], seat), seat
    ), ""


def _soccero_ball(view: Mapping[str, Any], seat: int) -> Ball:
    square, holder, defends = view.get("ball"), view.get("holder"), view.get("defends")
    if not square or not defends:
        return None
    forward = 1 if defends[seat] < defends[1 - seat] else -1
    side = view["players"][holder]["seat"] if holder is not None else None
    return square, int(square[1:]) * forward, side


# --- Big Time Soccer -----------------------------------------------------------------------

BTS_ROWS = ("D1", "D2", "M1", "M2", "A1", "A2")
"""Big Time Soccer's rows in a seat's own frame, from its own goal up."""


def _big_time_soccer(world: State, seat: int, text: str, after: State | None) -> tuple[str, str]:
    view = world.view(seat)["state"]
    content = world.game.content  # type: ignore[attr-defined]
    names: Mapping[str, str] = view.get("card_names", {})
    verb, _, arg = text.partition(" ")
    if verb == "shoot":
        return "it shoots at goal" + (" with the free shot" if arg == "free" else ""), ""
    if verb == "play":
        code, _, zone = arg.partition(" ")
        gained = BTS_ROWS.index(zone[:2]) - BTS_ROWS.index(view["ball_zone"][seat][:2])
        where = {True: "forward", False: "across" if gained == 0 else "back"}[gained > 0]
        does = f"it takes the ball {where} to {zone}"
        if gained > 0:
            does += f", {gained} row{'s' if gained > 1 else ''} nearer goal"
        if not content.by_code[code].defensible:
            does += ", and no defending card can answer it"
        return does, ""
    if verb == "passback":
        return "it plays the ball back to your goalkeeper for a goal kick", ""
    if verb == "hold":
        return f"it keeps the ball where it is (1–{content.hold_control} on the twenty-sided die keeps it)", ""
    if verb == "clear-in":
        keep = content.free_kick_clear_control if view.get("phase") == "free_kick" else content.clear_control
        return f"it clears the ball to {arg} (1–{keep} on the twenty-sided die keeps it for you)", ""
    if verb in ("clear-out", "clear-box"):
        return "it puts the ball out of play, away from danger", ""
    if verb == "reply" and arg != "none":
        return f"your {names.get(arg, arg)} tries to win the ball back", ""
    if verb == "reply":
        return "it keeps your defending cards for a better moment", ""
    if verb == "discard" and arg != "none":
        return f"it trades your {names.get(arg, arg)} for a new card", ""
    return "", ""


# --- Soccer-Go -----------------------------------------------------------------------------


def _soccer_go(world: State, seat: int, text: str, after: State | None) -> tuple[str, str]:
    words = text.split()
    if words[0] == "play":
        cards = world.rules.data.cards  # type: ignore[attr-defined]
        card = cards[words[-1]]  # "play CARD" or "play JOKER as CARD": the card whose effect it has
        effect = card.text.rstrip(".")
        return effect[:1].lower() + effect[1:], "the card is spent"
    if text == "no card":
        return "it keeps your cards for later", ""
    return "", ""


READERS = {
    "pawn-soccer": _pawn_soccer,
    "soccero": _soccero,
    "big-time-soccer": _big_time_soccer,
    "soccer-go": _soccer_go,
}
"""Per game: what an action does and costs, in football words (:func:`reading`)."""


def hint_for_record(game_id: str, record: Mapping[str, Any], seat: int, seed: int) -> tuple[str, str, float | None]:
    """:func:`suggest` at the position ``record`` reaches, as plain values (for the bot process)."""
    found = suggest(get_game(game_id).load(record), seat, seed)
    return found.action, found.why, found.chance


HINTS_KEY = "hints"
"""Where a match record counts the hints each seat used: ``record["hints"] == [home, away]``."""


def hints_used(record: Mapping[str, Any]) -> tuple[int, int]:
    """The hints each seat used in ``record`` (``(0, 0)`` when it says nothing)."""
    found = record.get(HINTS_KEY)
    if found is None:
        return (0, 0)
    if not isinstance(found, list) or len(found) != 2 or not all(isinstance(n, int) and n >= 0 for n in found):
        raise ValueError("the record's hint count is damaged")
    return (found[0], found[1])


def count_hint(record: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """A copy of ``record`` with one more hint used by ``seat``."""
    used = list(hints_used(record))
    used[seat] += 1
    return {**record, HINTS_KEY: used}


__all__ = ["HINTS_KEY", "Hint", "count_hint", "guessed", "hint_for_record", "hints_used", "reading", "suggest"]
