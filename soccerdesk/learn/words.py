"""How the project writes a line for a person: shared by the learning features and the screens.

Messages are in sentence case: a capital at the start, every other letter as it was written
(names of players and teams, card names, square codes keep their case).
"""

from __future__ import annotations

import re

from soccerdesk.rules.pawn_soccer import TEAM_NAMES as PAWN_SOCCER_SIDES


def sentence(text: str) -> str:
    """``text`` begun with a capital, the rest as it is (``str.capitalize`` would write
    "alice's" and "d4")."""
    return text[:1].upper() + text[1:]


def said(text: str) -> str:
    """``text`` as a whole sentence: begun with a capital and ended with a stop, unless it
    already ends with one (".", "!" or "?"); nothing stays nothing."""
    text = sentence(text)
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def spelled_out(code: str) -> str:
    """A code in plain words ("def-block" -> "Def block", "clear_box" -> "Clear box"), when
    nothing better is known."""
    return sentence(code.replace("-", " ").replace("_", " "))


_SEAT = re.compile(r"\b[Ss]eat ([01])\b")

RULES_SIDE_NAMES: dict[str, tuple[str, str]] = {"pawn-soccer": PAWN_SOCCER_SIDES}
"""Games whose rules name the two sides with words of their own (seat 0's, seat 1's), not "Seat n"."""


def _side_pattern(words: tuple[str, str]) -> re.Pattern[str]:
    # One pattern for both kinds of name, so a player's name that happens to be one of the
    # rules' words ("Orange" for seat 0) is never renamed a second time.
    alternatives = "|".join(re.escape(word) for word in words)
    return re.compile(rf"\b(?:[Ss]eat ([01])|({alternatives}))\b")


_PATTERNS = {game_id: _side_pattern(words) for game_id, words in RULES_SIDE_NAMES.items()}


def name_seats(text: str, names: tuple[str, str], game_id: str = "") -> str:
    """The rules' event texts speak of seats ("Seat 1 shoots.") or, in some games, of the
    rules' own side names ("Blue moves ..."); people chose team names of their own."""
    pattern = _PATTERNS.get(game_id)
    if pattern is None:
        return _SEAT.sub(lambda m: names[int(m.group(1))], text)
    words = RULES_SIDE_NAMES[game_id]
    return pattern.sub(lambda m: names[int(m.group(1)) if m.group(1) else words.index(m.group(2))], text)
