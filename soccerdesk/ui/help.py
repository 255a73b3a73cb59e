"""In-app help: each game's rules in our own words, with diagrams the app draws, and our rulings.

The text lives in ``resources/help/<game id>.md`` (Markdown). An image written as
``![caption](diagram:NAME)`` is drawn by :data:`DIAGRAMS` (``NAME`` = a game id draws that
game's picture). The project's rule decisions are appended from ``docs/rulings.md`` (the
section headed with the game's title) when that file is present.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRectF, Qt, QUrl
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QTextDocument
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from soccerdesk.resources import resource_dir, resource_path
from soccerdesk.rules import Game
from soccerdesk.ui.art import PAINTERS, art_font, draw_card, paint_game
from soccerdesk.ui.placement import fitting_size

DIAGRAM_SIZE = (480, 300)


def draw_soccer_go_pass(p: QPainter, w: float, h: float) -> None:
    """One pass: the attacker's and the defender's face-down cards turn over together."""
    p.fillRect(QRectF(0, 0, w, h), QColor("#1f3a2a"))
    blue, orange, ink = QColor("#0072b2"), QColor("#e69f00"), QColor("#ffffff")
    p.setPen(QColor("#ffffff"))
    p.setFont(art_font(12, bold=True))
    p.drawText(QRectF(0, 8, w, 24), Qt.AlignmentFlag.AlignCenter, "Both lay a card face down, then both turn over")
    rows = (
        ("7", "4", "not marked: pass made, 7 is retired"),
        ("5", "5", "same number: marked, the defender wins the ball"),
    )
    for i, (att, dfn, caption) in enumerate(rows):
        y = 48 + i * 120
        draw_card(p, QRectF(40, y, 62, 88), blue, att, ink)
        p.setFont(art_font(16, bold=True))
        p.setPen(QColor("#ffffff"))
        p.drawText(QRectF(104, y, 40, 88), Qt.AlignmentFlag.AlignCenter, "vs")
        draw_card(p, QRectF(146, y, 62, 88), orange, dfn, QColor("#000000"))
        p.setFont(art_font(11))
        p.drawText(QRectF(224, y, w - 234, 88), Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap, caption)


def draw_shot(p: QPainter, w: float, h: float) -> None:
    """A shot: the attacker's direction against the keeper's dive; the same means saved."""
    p.fillRect(QRectF(0, 0, w, h), QColor("#1f3a2a"))
    goal = QRectF(w * 0.15, 40, w * 0.7, 120)
    p.setPen(QPen(QColor("#ffffff"), 4))
    p.drawRect(goal)
    third = goal.width() / 3
    p.setFont(art_font(13, bold=True))
    for i, label in enumerate(("left", "middle", "right")):
        box = QRectF(goal.left() + i * third, goal.top(), third, goal.height())
        p.setPen(QPen(QColor(255, 255, 255, 80), 1, Qt.PenStyle.DashLine))
        p.drawRect(box)
        p.setPen(QColor("#ffffff"))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
    p.setFont(art_font(11))
    p.drawText(
        QRectF(10, 180, w - 20, 100),
        Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap,
        "The shooter lays a Shoot card, the keeper a Save card, both face down. "
        "Same direction: saved. Different: goal.",
    )


DIAGRAMS: dict[str, Callable[[QPainter, float, float], None]] = {
    "soccer-go-pass": draw_soccer_go_pass,
    "shot": draw_shot,
}


def diagram_image(name: str, pixel_ratio: float = 2.0) -> QImage:
    """The diagram ``name`` as an image (a game id gives that game's picture)."""
    w, h = DIAGRAM_SIZE
    image = QImage(int(w * pixel_ratio), int(h * pixel_ratio), QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(pixel_ratio)
    image.fill(QColor("#131b26"))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    if name in PAINTERS:
        paint_game(p, QRectF(0, 0, w, h), name)
    elif name in DIAGRAMS:
        DIAGRAMS[name](p, w, h)
    p.end()
    return image


def rulings_section(title: str) -> str:
    """Our rulings for a game from ``docs/rulings.md`` (beside the resources in a checkout, a
    wheel and a frozen build alike; empty if the file is missing)."""
    path = resource_dir().parent / "docs" / "rulings.md"
    if not path.is_file():
        return ""
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"^##\s+{re.escape(title)}\b.*?$(.*?)(?=^##\s|\Z)", text, re.MULTILINE | re.DOTALL)
    return match.group(1).strip() if match else ""


CODE_ONLY_ASIDE = re.compile(r"\s*\((?:e\.g\.\s*)?`[^`]+`(?:\s*(?:\||/|,|or|and)\s*`[^`]+`)*\)")
"""A bracket holding nothing but code: an action's syntax (``(`kickoff C5`)``), an option's values."""

REFERENCE = r"\bRULINGS(?:\.md)?(?:\s+\d+(?:\s*,\s*\d+\b)*)?|\bRulings\s+\d+(?:\s*,\s*\d+\b)*"
"""A reference to the leads' document of rulings, which players never see: ``RULINGS.md``,
``RULINGS 6``, ``Rulings 1, 8``."""

IN_PLAYERS_WORDS = (
    (rf"\bas in (?:{REFERENCE})", "as the project's rulings say"),
    (rf"(?:{REFERENCE})'s\b", "the project's rulings'"),
    (rf"(?:{REFERENCE})\s+says\b", "the project's rulings say"),
    (REFERENCE, "the project's rulings"),
    # The rules say "seat" (a player's place in the contract); a player says "side".
    (r"\bseat\b", "side"),
    (r"\bseats\b", "sides"),
)
"""A reference to the document in a sentence, in words that need no document (``as in RULINGS 1``
-> "as the project's rulings say"), its number dropped. In a bracketed aside it is dropped
altogether (:func:`_for_players_aside`)."""

FOR_DEVELOPERS = "<!-- for developers -->"
"""Marks a ruling in ``docs/rulings.md`` that means nothing to a player (about the documents
themselves): left out of the help."""


def for_players(rulings: str, game: Game) -> str:
    """A game's rulings (written for developers and checkers, ``docs/rulings.md``) in a player's
    words: without the opening note on data files and options, without the action syntax in
    brackets, options by the names the home screen gives them, actions by the words of the
    board's buttons, no file names, data keys, action forms with placeholders (``swap CARD``)
    or references to the leads' document (:data:`REFERENCE`), no ruling marked
    :data:`FOR_DEVELOPERS`."""
    from soccerdesk.ui.home import OPTION_WORDS, choice_label

    bullets = rulings.find("\n- ")
    text = rulings if rulings.startswith("- ") else rulings[bullets + 1 :] if bullets >= 0 else rulings
    text = CODE_ONLY_ASIDE.sub("", text)
    names = {option.name: OPTION_WORDS.get((game.id, option.name), (option.label, ""))[0] for option in game.options}
    choices = {
        str(choice): choice_label(choice, game.id, option.name) for option in game.options for choice in option.choices
    }
    # Options and their values first, by the home screen's words: any code left is the developers'.
    text = re.sub(
        r"`([^`]+)`",
        lambda m: f"“{names.get(m[1], choices.get(m[1], ''))}”" if m[1] in names or m[1] in choices else m[0],
        text,
    )

    said = _action_words(game)

    def for_developers(words: str) -> bool:
        """Whether ``words`` are written for developers: :data:`DEVELOPERS_ONLY`, or an action
        form no board shows, such as one with placeholders (``retire N``) or a key of the view."""
        return bool(DEVELOPERS_ONLY.search(words)) or any(
            ACTION_TEXT.fullmatch(code) and not _is_action(game, code) for code in re.findall(r"`([^`]+)`", words)
        )

    blocks = []
    for block in re.split(r"\n\s*\n", text):  # lists of rulings, and lines between them ("Extended rules:")
        if block.lstrip().startswith("- "):
            bullets = re.split(r"\n(?=- )", block.strip())
            block = "\n".join(filter(None, (_for_players_bullet(b, for_developers) for b in bullets)))
        elif for_developers(block):
            block = ""
        if block.strip():
            blocks.append(block.strip())
    text = "\n\n".join(blocks)
    return re.sub(r"`([^`]+)`", lambda m: f"“{said(m[1])}”", text)


def _action_words(game: Game) -> Callable[[str], str]:
    """An action text as the game's board says it: the text of its button ("kick 2" ->
    "Kick · 2 dice"), else the words of the keyboard preview ("propose-end" -> "Propose to end
    the half"), where the board has words of its own for it; anything else as it is."""
    from soccerdesk.ui.boards import BoardConfig, make_board
    from soccerdesk.ui.boards.base import BoardScene

    board = make_board(BoardConfig(game.id, 0))

    def said(code: str) -> str:
        if not ACTION_TEXT.fullmatch(code):
            return code
        label = board.action_label(code)
        if label != code:
            return label
        words = board.describe(code)
        return code if words == BoardScene.describe(board, code) else words

    return said


def _is_action(game: Game, code: str) -> bool:
    """Whether ``code`` is a whole action text of ``game`` (not a form such as ``retire N``)."""
    try:
        game.parse_action(code)
    except ValueError:
        return False
    return True


ACTION_TEXT = re.compile(r"[a-z][a-z-]*(?: [A-Za-z0-9+-]+)*")
"""What an action text looks like ("clear-box", "sub C4", "discard none")."""

DEVELOPERS_ONLY = re.compile(
    r"\.py\b|\.toml\b|tests/|::|\bissue \d|\bview\b|\bview's\b|\bviews?:|\bUI\b|\bcontract\b|\bdump\b|\bload\b"
    r"|\b[Pp]hase\b|\bdata\b|=|`[a-z_]+`\s+is\b|`[a-z0-9]*[_.][a-z0-9_.]*`|\b[Ff]or developers\b"
)
"""What marks a sentence or an aside as written for developers: files, tests, the view, the
data, the rules contract, action syntax spelled out, an identifier of the code (``wall_distance``),
or the words "for developers" ("(For developers: the record still holds ...)")."""


def _for_players_aside(aside: re.Match[str], for_developers: Callable[[str], bool]) -> str:
    """A bracketed aside without its references, cut short at its first part (between semicolons)
    for developers; nothing if nothing is left."""
    inner = aside.group(1)
    inner = re.sub(rf"\s*[,;]\s*(?:{REFERENCE})(?=\s*[,;]|\s*$)|^\s*(?:{REFERENCE})\s*(?:[,;]\s*|$)", "", inner)
    kept: list[str] = []
    for part in filter(None, map(str.strip, inner.split(";"))):
        if for_developers(part):
            break  # what follows may lean on it
        kept.append(part)
    return f" ({'; '.join(kept)})" if kept else ""


def _for_players_bullet(bullet: str, for_developers: Callable[[str], bool]) -> str:
    """One ruling without its sentences and bracketed asides for developers (``for_developers``)
    and with references in players' words (:data:`IN_PLAYERS_WORDS`); its bold title kept, the
    ruling left out if nothing else is left or if it is marked :data:`FOR_DEVELOPERS`."""
    if FOR_DEVELOPERS in bullet:
        return ""
    text = " ".join(re.sub(r"<!--.*?-->", "", bullet, flags=re.DOTALL).split())
    text = re.sub(r"\s*\(([^()]*)\)", lambda aside: _for_players_aside(aside, for_developers), text)
    for reference, words in IN_PLAYERS_WORDS:
        text = re.sub(reference, words, text)
    title = re.match(r"- \*\*[^*]+\*\*", text)
    head = title.group(0) if title else ""
    text = text[len(head) :]
    sentences = re.split(r"(?<=[.;])\s+(?=[A-Z(“\"`])", text.strip())
    kept = [sentence for sentence in sentences if sentence and not for_developers(sentence)]
    if not kept:
        return ""
    body = " ".join(kept)
    if body.endswith(";"):  # what followed the semicolon was for developers
        body = body[:-1] + "."
    text = f"{head}{'' if body[:1] in ':;,.' else ' '}{body}" if head else body
    # A reference put in words may now begin a sentence.
    return re.sub(r"(^|[.!?:]\s+|\*\*\s+)the project's", lambda m: f"{m[1]}The project's", text)


def help_markdown(game: Game) -> str:
    """The whole help page of a game, as Markdown."""
    path = resource_path("help", f"{game.id}.md")
    body = path.read_text(encoding="utf-8") if path.is_file() else f"# {game.title}\n\n{game.summary}\n"
    rulings = for_players(rulings_section(game.title), game)
    if rulings:
        body += f"\n\n## Our rulings\n\nWhere the rulebook is silent or unclear, soccerdesk decides like this:\n\n{rulings}\n"
    return body


class HelpBrowser(QTextBrowser):
    """A text browser that draws ``diagram:NAME`` images itself."""

    def loadResource(self, kind: int, url: QUrl | str) -> Any:  # noqa: N802 (Qt API)
        address = url.toString() if isinstance(url, QUrl) else str(url)
        if kind == QTextDocument.ResourceType.ImageResource.value and address.startswith("diagram:"):
            return diagram_image(address.removeprefix("diagram:"))
        return super().loadResource(kind, url)


class HelpDialog(QDialog):
    """The rules of one game, in a scrollable page."""

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"How to play {game.title}")
        self.resize(fitting_size(self, 760, 720))
        self.browser = HelpBrowser()
        self.browser.setObjectName("help-text")
        self.browser.setOpenExternalLinks(False)
        self.browser.setMarkdown(help_markdown(game))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
