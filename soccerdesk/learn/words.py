"""How the project writes a line for a person: shared by the learning features and the screens.

Messages are in sentence case: a capital at the start, every other letter as it was written
(names of players and teams, card names, square codes keep their case).
"""

from __future__ import annotations


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
