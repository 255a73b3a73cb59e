"""The help page (F1) is written for players: the rules in our own words, Soccero's set-up
explained before play, and our rulings without the developers' references."""

from __future__ import annotations

import re

import pytest

from soccerdesk.rules import GAMES, get_game
from soccerdesk.ui.boards import BoardConfig, make_board
from soccerdesk.ui.help import for_players, help_markdown, rulings_section

DEVELOPERS_WORDS = (
    "RULINGS",
    ".toml",
    ".py",
    "data file",
    "in the data",
    "wall_distance",
    "13×5",
    "`",
    "<!--",
    "tests/",
    "the project's rulings",  # QA pass 11: a document the player cannot see
    "memoised",  # how the code works
)


@pytest.mark.parametrize("game_id", GAMES)
def test_help_has_no_references_players_cannot_follow(qapp, game_id: str) -> None:
    """QA pass 10, finding 4: "Turns count as in RULINGS 1", "(RULINGS 4)", "'wall_distance' in
    the data", the "13×5" slip of a document players never see, "the data file"."""
    page = help_markdown(get_game(game_id))
    for developers in DEVELOPERS_WORDS:
        assert developers not in page, (developers, game_id)
    assert not re.search(r"\bRulings \d", page), game_id  # "(Rulings 5)": a numbered ruling of theirs
    assert not re.search(r"“[a-z0-9]+(?:[_.][a-z0-9]+)+”", page), game_id  # a quoted identifier
    assert not re.search(r"\*\* [:.]", page), game_id  # a title's colon left hanging
    rulings = page[page.index("## Our rulings") :] if "## Our rulings" in page else ""
    assert not re.search(r"\bseats?\b", rulings), game_id  # QA pass 11: a player says "side"


def test_soccero_rulings_keep_their_meaning_in_players_words(qapp) -> None:
    page = help_markdown(get_game("soccero"))
    rulings = page[page.index("## Our rulings") :]
    assert (
        "- **Turns.** Each manager plays as many turns in a half as the option “Turns per half” says, over 2 halves."
        in rulings
    )
    assert "- **Moving, exactly.** After the roll" in rulings
    assert "Air shots cannot be saved, so" in rulings
    assert "a turn always uses all of its points." in rulings  # its last sentence, about the code, left out
    assert "other players under it may stop it." in rulings
    assert "- **Offside** is judged at every kick" in rulings and "- **Steal foul** uses" in rulings
    assert 'placed on permitted squares 2 or 3 king moves from the ball (our own reading of "a wall").' in rulings
    assert "Penalty area width" not in rulings  # a ruling about a slip in the developers' document


def test_references_are_dropped_or_said_in_players_words(qapp) -> None:
    """The general rule, on rulings written the way docs/rulings.md writes them."""
    rulings = "\n".join(
        (
            "- **Card plays (Rulings 1, 8).** Both seats choose at once.",
            "- **Extra time (rulebook 10, Rulings 4):** the first attacker attacks first.",
            "- **Pass+O/S** stays (only a successful one cancels it, Rulings 6) and lapses.",
            "- **Keepers.** RULINGS 2 says keepers cannot save; others may (RULINGS 4).",
            "- **Areas.** Like every other area in RULINGS.md, with its name.",
            "- **Wall.** Three men (our reading of a wall; `wall_distance` in the data). Done.",
            "- **Formation.** Ours. The squares are in the data file.",
            "- **Slip.** RULINGS.md says 13, a slip. <!-- for developers -->",
        )
    )
    said = for_players(rulings, get_game("soccero"))
    assert said.splitlines() == [
        "- **Card plays.** Both sides choose at once.",
        "- **Extra time (rulebook 10):** the first attacker attacks first.",
        "- **Pass+O/S** stays (only a successful one cancels it) and lapses.",
        "- **Keepers.** The project's rulings say keepers cannot save; others may.",
        "- **Areas.** Like every other area in the project's rulings, with its name.",
        "- **Wall.** Three men (our reading of a wall). Done.",
        "- **Formation.** Ours.",
    ]


def test_soccero_help_explains_the_set_up_before_the_first_turn(qapp) -> None:
    """QA pass 10: the set-up a newcomer must do first (11 clicks, the gaps, the kick-off pair)
    was only in the rulings. The words match the app: the goal is chosen by clicking it, the
    panel names the player to place, and the option is called as on the home screen."""
    game = get_game("soccero")
    page = help_markdown(game)
    assert page.index("## Setting up") < page.index("## A turn")
    setting_up = page[page.index("## Setting up") : page.index("## A turn")]
    for fact in (
        "coin toss",
        "click",
        "one player at a time",
        "player 11",
        "player 10",
        "goalkeeper",
        "eight squares around a team-mate",
        "penalty area",
        "centre circle",
        "kick-off",
    ):
        assert fact in setting_up, fact
    quick = next(option for option in game.options if option.name == "quick_setup")
    assert f"**{quick.label}**" in setting_up


def test_rules_a_player_meets_later_are_in_the_help(qapp) -> None:
    """QA pass 13: Pawn Soccer's kick at goal was said to be barred by a "blocked goal square"
    (the bar is on kicking from an X square), the no-steal-back rule and the red card's loose
    ball were missing; Soccero's extended rules left out offside, the punt and the keeper's
    saves in the air; the wall ruling lost its main sentence (it held the word "Phase"); Big
    Time Soccer's "always asked" ruling was dropped whole for a clause about the view."""
    pawn = help_markdown(get_game("pawn-soccer"))
    kick = next(line for line in pawn.split("* **") if line.startswith("Kick**"))
    assert "blocked ones" not in kick and "does not stand on a blocked (X) square" in kick
    steal = next(line for line in pawn.split("* **") if line.startswith("Steal**"))
    assert "may not steal it straight back" in steal and "stays loose" in steal
    soccero = help_markdown(get_game("soccero"))
    extended = soccero[soccero.index("## Extended rules") : soccero.index("## Playing in soccerdesk")]
    for fact in ("**offside**", "**punt**", "only on a 6", "corner", "free moves", "wall", "**Headers**"):
        assert fact in extended, fact
    rulings = soccero[soccero.index("## Our rulings") :]
    assert "A wall may stand on a square held by one attacker" in rulings
    assert "wall-clear" not in rulings and "Phase" not in rulings
    bts = help_markdown(get_game("big-time-soccer"))
    assert "- **The defender is always asked** after every Pass or Dribble" in bts
    assert "tells the attacker nothing" in bts and "can_reply" not in bts


def _words(text: str) -> str:
    """Help Markdown as read: emphasis and line breaks gone."""
    return re.sub(r"\s+", " ", text.replace("*", ""))


@pytest.mark.parametrize("game_id", GAMES)
def test_our_rulings_name_no_action_a_player_cannot_see(qapp, game_id: str) -> None:
    """Help audit 4.1: the rulings showed action forms with placeholders ("Give up CARD for the
    card drawn", "Retire number N", "Move the player on A to B, the ball to X") and named
    Soccero's kicks otherwise than its buttons. Every action they quote is now a real one, by
    its button's text where it has a button."""
    game = get_game(game_id)
    page = help_markdown(game)
    rulings = page[page.index("## Our rulings") :]
    assert not re.search(r"“[^”]*\b(?:CARD|N|X|A to B)\b[^”]*”", rulings), game_id
    board = make_board(BoardConfig(game_id, 0))
    for code in re.findall(r"`([^`]+)`", rulings_section(game.title)):
        label, words = board.action_label(code), board.describe(code)
        if label not in (code, words):  # a button of its own: the help says the button's text
            assert f"“{words}”" not in rulings, code
    if game_id == "soccero":
        assert "(“Kick · 2 dice”: curve-on-the-ground" in rulings and "or “Kick · 2 dice, normal rules”." in rulings


def test_placeholder_actions_and_developer_asides_stay_out_of_the_players_words(qapp) -> None:
    """The general rule behind help audit 4.1, on rulings written as docs/rulings.md writes them."""
    rulings = "\n".join(
        (
            "- **Draws.** Each then `swap CARD` or `keep hand`. The pile is face down.",
            "- **Retire.** Three choices of one number each (`retire N`); one may be refused.",
            "- **Ends.** The other side chooses its goal (`defend 1` / `defend 32`).",
            "- **Kicks.** Set-piece rules (`kick 2`) or `kick 2 normal`.",
            "- **Window.** It closes after a turn. (For developers: the record keeps the `end`.)",
            "- **Shootout.** The winner comes from it (the view's `winner`); `winner` is a key.",
        )
    )
    assert for_players(rulings, get_game("soccer-go")).splitlines()[:2] == [
        "- **Draws.** The pile is face down.",
        "- **Retire.** Three choices of one number each; one may be refused.",
    ]
    soccero = for_players(rulings, get_game("soccero")).splitlines()
    assert soccero[2:5] == [
        "- **Ends.** The other side chooses its goal.",
        "- **Kicks.** Set-piece rules or “Kick · 2 dice, normal rules”.",
        "- **Window.** It closes after a turn.",
    ]
    assert soccero[5] == "- **Shootout.** The winner comes from it."


def test_soccer_go_buttons_and_the_help_say_the_same_words(qapp) -> None:
    """Soccer-Go's keep-hand button said "Keep hand"; the help must name it as the button does."""
    board = make_board(BoardConfig("soccer-go", 0))
    assert board.action_label("keep hand") == "Keep hand"
    assert board.action_label("no card") == "No card"
    assert board.action_label("show rock") == "Rock"


def test_soccero_help_explains_carrying_the_ball(qapp) -> None:
    """Help audit 2.1: the rules page never said a player may run with the ball, nor that after a
    carry he must kick it or leave it before carrying it again (the ball's red side), nor how to
    say where the ball goes in the app. The board asks for the same third click."""
    page = _words(help_markdown(get_game("soccero")))
    turn = page[page.index("## A turn") : page.index("## The match")]
    carrying = turn[turn.index("Carrying the ball") :]
    for fact in ("run with it", "keeps it at his feet", "drops it on any square he passes", "loose ball"):
        assert fact in carrying, fact
    assert "red side up: that player must kick it, or move off without it, before he may carry it again" in carrying
    assert "Nobody can carry the ball into the goal" in carrying
    playing = page[page.index("## Playing in soccerdesk") :]
    assert "a third click says where it goes" in playing
    assert "once more to keep it at his feet, the ball's own square to leave it there" in playing


def test_the_length_of_a_match_and_who_wins_come_from_the_games_data(qapp) -> None:
    """Help audit 2.2-2.3: Soccero's page gave neither the turns of a half nor the winner, nor
    what happens to a ball kicked out under the basic rules; Soccer-Go's never said how many
    rounds a match has nor who wins. The numbers are the options' defaults (from the data)."""
    soccero = get_game("soccero")
    turns = next(option for option in soccero.options if option.name == "turns")
    page = _words(help_markdown(soccero))
    match = page[page.index("## The match") : page.index("## Shape of the team")]
    assert f"Two halves, each of {turns.default} turns per manager ({turns.label} on the home screen" in match
    assert "more goals at the end wins" in match and "draw" in match
    assert "stops on the edge square where it crossed, and the nearest player of the other team" in match
    soccer_go = get_game("soccer-go")
    rounds = next(option for option in soccer_go.options if option.name == "rounds")
    words = {3: "three", 4: "four", 5: "five", 6: "six"}
    page = _words(help_markdown(soccer_go))
    match = page[page.index("## The match") : page.index("## Power cards")]
    assert f"A match has {words[rounds.default]} rounds ({rounds.label} on the home screen changes that)" in match
    assert "the side with more goals wins" in match
    extra = next(option for option in soccer_go.options if option.name == "extra_time")
    assert f"untick {extra.label} to go straight to penalties" in match


def test_pawn_soccer_set_up_says_which_squares_are_closed(qapp) -> None:
    """Help audit 2.4 (rulebook, Setup): no pawn on a sprint zone or a long-pass space; the
    set-up the rules offer agrees."""
    game = get_game("pawn-soccer")
    page = _words(help_markdown(game))
    setting_up = page[page.index("## Setting up") : page.index("## A turn")]
    assert "The centre row stays empty, and so do the sprint zones and the long-pass spaces" in setting_up
    state = game.new_match(seed=1)
    seat = state.current_players()[0]
    offered = {str(action).split()[1] for action in state.legal_actions(seat)}
    names = game.board.names
    special = {names[square] for square in (*game.board.sprint_squares, *game.board.long_pass_squares)}
    assert offered and special and not offered & special


def test_pawn_soccer_penalty_is_told_as_the_squares_clicked(qapp) -> None:
    """Help audit 4.2: "pick a spot from 1 to 3" while the board shows three unnumbered goal squares."""
    page = _words(help_markdown(get_game("pawn-soccer")))
    penalties = page[page.index("## Penalties") : page.index("## Playing in soccerdesk")]
    assert "each pick one of the three squares of the goal in secret, by clicking it" in penalties
    assert "1 to 3" not in penalties


def test_big_time_soccer_help_and_coach_say_where_a_cards_icons_are_as_the_board_draws_them(
    qapp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA s28 (first minutes, finding 3): the help said the card's kind is the big icon at the
    bottom and the small icon at the top, and the coach spoke of "the small icon at the top";
    in the hand both icons sit side by side along the top, and only the discard pile puts the
    kind at the bottom. The help now tells both layouts, the coach the hand's, as drawn."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from soccerdesk.learn.coach import load_script
    from soccerdesk.ui.boards import big_time_soccer as bts

    drawn: list[tuple[str, QRectF]] = []
    monkeypatch.setattr(bts, "paint_type_icon", lambda _p, r, kind, letters=True: drawn.append((kind, QRectF(r))))
    cards = bts.Board(BoardConfig("big-time-soccer", 0)).cards.values()
    card = next(c for c in cards if c["kind"] == "dribble" and c.get("next") == "pass")
    image = QImage(300, 300, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    hand_card, pile_card = QRectF(0, 0, bts.FACE.width(), bts.FACE.height()), QRectF(0, 0, 92, 130)
    bts.paint_card_on_its_side(painter, hand_card, card)
    hand, drawn[:] = dict(drawn), []
    bts.paint_card(painter, pile_card, card)
    pile = dict(drawn)
    painter.end()

    def area(r: QRectF) -> float:
        return r.width() * r.height()

    kind, nxt = hand[card["kind"]], hand["pass"]
    top = hand_card.height() / 3
    assert kind.bottom() < top and nxt.bottom() < top and kind.right() <= nxt.left() and area(kind) > area(nxt)
    kind, nxt = pile[card["kind"]], pile["pass"]
    assert nxt.center().x() < pile_card.width() / 3 and nxt.center().y() < pile_card.height() / 4
    assert kind.top() > pile_card.height() / 2 and area(kind) > area(nxt)
    text = " ".join(help_markdown(get_game("big-time-soccer")).split())
    assert "two icons next to each other along its top: the first, bigger one is the card's kind" in text
    assert "the smaller one on its right says which kind of card must come next" in text
    assert "the small icon sits in its top-left corner and the card's kind under its little field" in text
    assert "at the bottom of a card" not in text and "small icon at the top" not in text
    said = " ".join(step.say for step in load_script("big-time-soccer").steps)
    assert "small icon at the top" not in said and "the smaller one on the right" in said


def test_soccer_go_help_says_who_is_asked_to_answer_a_card_as_the_rules_ask(qapp) -> None:
    """QA s28 (docs audit, finding 1): the help said you are asked to answer a card "even when
    you hold none"; the rules (docs/rulings.md) ask only a player holding a card of their side,
    and a player with none is not asked. Over random matches, a card a Block could answer asks
    the other player exactly when they hold a card of their side; the help now says so."""
    import random

    from soccerdesk.rules import CHANCE, sample_chance
    from soccerdesk.rules.soccer_go import ATTACKING, DEFENDING

    game = get_game("soccer-go")
    asked_or_not = set()
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        blockable = {target for card in state.rules.data.cards.values() for target in card.blocks}
        while not state.is_terminal():
            seat = state.current_players()[0]
            after = state.apply(
                seat, sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
            )
            played = [e.data for e in after.events if e.kind == "card" and e.data.get("card") in blockable]
            if played and not played[0].get("as") and seat != CHANCE:
                other = 1 - seat
                held = state.side_count(other, ATTACKING if other == state.attacker else DEFENDING)
                asked = after.current_players() == (other,) and "no card" in map(str, after.legal_actions(other))
                assert asked == (held > 0), (seed, after.ply, held)
                asked_or_not.add(asked)
            state = after
    assert asked_or_not == {True, False}
    text = " ".join(help_markdown(game).split())
    assert "even when you hold none" not in text
    assert "you are asked whenever you hold a card of your side" in text
    assert "With no card of your side in your hand you are not asked" in text
