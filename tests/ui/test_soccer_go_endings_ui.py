"""The Soccer-Go board in extra time and the penalty shootout (rulebook 10 and 11): the MATCH
panel says where the match stands without regulation's rounds, the shootout shows its own kicks
with whole team names, and nothing of an earlier pass or turn is left on the table.

Positions come from whole matches played with the real rules; what is checked is the text the
board paints (read by painting every item with a painter that notes its text)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from painting import painted_texts

from soccerdesk.resources import load_game_data
from soccerdesk.rules import CHANCE, State, get_game, play_out
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.soccer_go import SoccerGoBoard

GAME = "soccer-go"
NAMES = ("Home", "Away (normal)")  # a bot's team is named with its level: QA saw "Away (norm"


def match_states(seed: int, **options: Any) -> list[State]:
    game = get_game(GAME)
    rng = random.Random(seed)
    final = play_out(game.new_match(seed=seed, **options), lambda s, seat: rng.choice(s.legal_actions(seat)), rng)
    return game.replay(game.dump(final))


def deciding(state: State) -> bool:
    return bool(state.current_players()) and CHANCE not in state.current_players()


@pytest.fixture(scope="module")
def to_sudden_death() -> list[State]:
    """A one-round match, level after extra time, whose shootout goes to sudden death."""
    regular = int(load_game_data(GAME)["match"]["shootout_kicks"])
    for seed in range(300):
        states = match_states(seed, rounds=1)
        kicks = states[-1].view(0)["state"]["shootout"]
        periods = {s.view(0)["state"]["period"] for s in states}
        if "extra-time" in periods and min(map(len, kicks)) > regular:
            return states
    pytest.fail("no match of these seeds goes to sudden death")


def lines(texts: list[str]) -> list[str]:
    """The texts' lines (the MATCH panel writes its per-turn notes as one text)."""
    return [line for text in texts for line in text.split("\n")]


def drawn(state: State | dict[str, Any], seat: int, names: tuple[str, str] = NAMES) -> tuple[SoccerGoBoard, list[str]]:
    """The board of ``seat`` drawn for a position (or a view of one) and the texts it paints."""
    board = SoccerGoBoard(BoardConfig(GAME, seat, team_names=names))
    board.set_view(state if isinstance(state, dict) else state.view(seat))
    return board, painted_texts(board)


def match_panel_title(texts: list[str]) -> str:
    """The MATCH panel's first line: the one written with the period's name."""
    periods = ("First half", "Second half", "Extra time", "Penalty shootout", "Full time", "Round ")
    return next(text for text in texts[texts.index("MATCH") :] if text.startswith(periods))


def test_extra_time_is_said_without_a_round_number(qtbot: Any, to_sudden_death: list[State]) -> None:
    """Rulebook 10: "Extra time · round 2" of a one-round match read as if regulation went on."""
    seen = 0
    for state in to_sudden_death:
        if state.view(0)["state"]["period"] == "extra-time" and deciding(state):
            _, texts = drawn(state, 0)
            assert match_panel_title(texts) == "Extra time"
            assert not any(re.search(r"\bround \d", text) for text in texts), texts
            seen += 1
    assert seen


def test_the_shootout_counts_its_kicks_then_says_sudden_death(qtbot: Any, to_sudden_death: list[State]) -> None:
    """Rulebook 11: "3 shots each with sudden death applying if required" — "kick 2 of 3", not
    "round 3"; the number of kicks comes from the game's data."""
    regular = int(load_game_data(GAME)["match"]["shootout_kicks"])
    assert regular == 3
    said: set[str] = set()
    for state in to_sudden_death:
        view = state.view(0)["state"]
        if view["phase"] != "kick":
            continue
        _, texts = drawn(state, 0)
        taken = len(view["shootout"][view["kicker"]])
        expected = f"kick {taken + 1} of {regular}" if taken < regular else "sudden death"
        assert match_panel_title(texts) == f"Penalty shootout · {expected}"
        said.add(expected)
    assert said == {*(f"kick {n} of {regular}" for n in range(1, regular + 1)), "sudden death"}
    _, texts = drawn(to_sudden_death[-1], 0)
    assert match_panel_title(texts) == "Full time · after penalties"


def test_regulation_says_the_round_of_how_many_when_the_view_tells(qtbot: Any, to_sudden_death: list[State]) -> None:
    """The view's ``rounds`` (the option) gives the total; a view without it, the round alone."""
    view = next(s for s in to_sudden_death if s.view(0)["state"]["phase"] == "pass").view(0)
    told = {**view, "state": {**view["state"], "rounds": 4}}
    single = {**view, "state": {**view["state"], "rounds": 1}}
    untold = {**view, "state": {k: v for k, v in view["state"].items() if k != "rounds"}}
    assert match_panel_title(drawn(told, 0)[1]) == "First half · round 1 of 4"
    assert match_panel_title(drawn(single, 0)[1]) == "Round 1 of 1"  # one round has no halves (QA)
    assert match_panel_title(drawn(untold, 0)[1]) == "First half · round 1"


def test_the_shootout_tally_writes_whole_team_names(qtbot: Any, to_sudden_death: list[State]) -> None:
    """QA: the tally read "Away (norm". Names are whole; one too long for the panel ends in "…"."""
    kicked = next(
        s for s in to_sudden_death if s.view(0)["state"]["phase"] == "kick" and all(s.view(0)["state"]["shootout"])
    )
    _, texts = drawn(kicked, 1)
    assert "Home" in texts and "Away (normal)" in texts
    assert not any(text and "Away (normal)".startswith(text) and text != "Away (normal)" for text in texts), texts
    long_names = ("Real Sociedad de Fútbol San Sebastián", "Borussia Mönchengladbach (normal)")
    _, texts = drawn(kicked, 1, names=long_names)
    for name in long_names:
        shown = [t for t in texts if t.replace("\n", " ") == name or (t.endswith("…") and name.startswith(t[:-1]))]
        assert shown, (name, texts)


def test_the_shootout_shows_its_kicks_not_passes_nor_earlier_reveals(qtbot: Any, to_sudden_death: list[State]) -> None:
    """No passes in the shootout: no pass count nor track, no pass reveal of extra time; the
    kicks of each side, scored and missed, instead."""
    shown_kicks = 0
    for state in to_sudden_death:
        view = state.view(0)["state"]
        if view["phase"] != "kick":
            continue
        board, texts = drawn(state, 0)
        assert not any(line.startswith("Passes:") for line in lines(texts)), texts
        tips = [item.toolTip() for item in board.items()]
        assert not any(tip.startswith("Passes made this turn") for tip in tips)
        kicks = view["shootout"]
        if any(map(len, kicks)):
            assert not any(text.startswith(("pass:", "shot:")) for text in texts), texts  # only "kick:" reveals
        else:
            # QA: the save (or miss) that sent the match to penalties was never shown: it is, until a kick.
            assert "LAST REVEAL · BEFORE THE SHOOTOUT" in [t.upper() for t in texts], texts
        tally = next(tip for tip in tips if tip.startswith("Penalty shootout"))
        for seat, name in enumerate(NAMES):
            assert f"{name}: {sum(kicks[seat])} of {len(kicks[seat])}" in tally, tally
        marks = [text for text in texts if text in ("✓", "✗")]
        assert marks.count("✓") == sum(map(sum, kicks)) and len(marks) == sum(map(len, kicks))
        shown_kicks += len(marks)
    assert shown_kicks


@pytest.mark.parametrize(("period", "note"), [("extra-time", "in extra time"), ("shootout", "in the shootout")])
def test_power_cards_are_held_greyed_with_a_note(
    qtbot: Any, to_sudden_death: list[State], period: str, note: str
) -> None:
    """Rulebook 10 and 11: no power cards in extra time or the shootout; the hand stays in view."""
    state = next(s for s in to_sudden_death if s.view(0)["state"]["period"] == period and s.view(0)["state"]["hand"])
    board, texts = drawn(state, 0)
    assert f"No power cards {note}." in texts
    hand = state.view(0)["state"]["hand"]
    names = {board.card_names[card] for card in hand}
    assert names <= set(texts)  # still shown
    for card in hand:
        assert board.item_for(("power", card)) is None  # not offered
    faded = [item for item in board.items() if item.opacity() < 1 and "(hidden)" not in item.toolTip()]
    assert len(faded) == len(hand)
    assert not any(line.startswith(("Played:", "Discard pile:", "Piles:", "In effect:")) for line in lines(texts))


@pytest.fixture(scope="module")
def carded() -> list[State]:
    """Regulation matches in which power cards were played."""
    return [s for seed in range(6) for s in match_states(seed)]


def test_per_turn_lines_belong_to_the_turn_under_way(qtbot: Any, carded: list[State]) -> None:
    """QA: "In effect: Deep Press" stayed after the Deep Press pass was marked, and "Played:
    Deep Press" into the next turn and extra time. The view's "modifiers" keeps the marked
    pass's cards while its re-take is open; the discard pile is the whole match's."""
    marked_with_card = next_turns = 0
    for before, state in zip(carded, carded[1:], strict=False):
        view = state.view(0)["state"]
        if view["phase"] == "pass-reply" and view["modifiers"]:
            _, texts = drawn(state, 0)
            assert not any(line.startswith(("In effect:", "Next pass only:")) for line in lines(texts)), texts
            assert any(line.startswith("On the marked pass:") for line in lines(texts)), texts
            marked_with_card += 1
        if view["turn"] != before.view(0)["state"]["turn"] and any(view["discards"].values()):
            _, texts = drawn(state, 0)
            assert not any(line.startswith(("Played:", "In effect:")) for line in lines(texts)), texts
            next_turns += 1
    assert marked_with_card and next_turns


def test_the_player_cards_stand_faded_in_the_shootout(qtbot: Any, to_sudden_death: list[State]) -> None:
    """QA: in the shootout the 1-11 player cards were drawn in full colour, as if they could be played."""
    state = next(s for s in to_sudden_death if s.view(0)["state"]["period"] == "shootout")
    board, _texts = drawn(state, 0)
    tips = {board.item_for(("num", number)).toolTip() for number in range(1, 12)}
    assert tips == {"No passes or marks in the shootout"}
    regulation = next(s for s in to_sudden_death if s.view(0)["state"]["period"] == "first-half")
    board, _texts = drawn(regulation, 0)
    assert board.item_for(("num", 5)).toolTip() != "No passes or marks in the shootout"
