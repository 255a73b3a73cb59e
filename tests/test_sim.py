"""The headless simulator ``soccerdesk-sim``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from soccerdesk.bots import Bot, make_bot
from soccerdesk.rules import CHANCE, GAMES, Action, State, get_game
from soccerdesk.sim import play_match, run, wilson


@pytest.mark.parametrize("game_id", GAMES)
def test_sim_json_report_and_replayable_records(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = run(
        [
            "--game",
            game_id,
            "--players",
            "heuristic",
            "random",
            "--matches",
            "2",
            "--seed",
            "3",
            "--json",
            "--record",
            str(tmp_path),
        ]
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed["wins"] == summary["wins"]
    assert sum(printed["wins"]) + printed["draws"] == 2
    for key in ("goals", "mean_actions", "matches_per_s", "decision_ms_p95"):
        assert key in printed
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    game = get_game(game_id)
    final = game.load(json.loads(files[0].read_text()))
    assert final.is_terminal()


def test_same_seed_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    a = run(["--game", "soccer-go", "--players", "random", "random", "--matches", "3", "--seed", "5", "--json"])
    b = run(["--game", "soccer-go", "--players", "random", "random", "--matches", "3", "--seed", "5", "--json"])
    assert (a["wins"], a["goals"], a["mean_actions"]) == (b["wins"], b["goals"], b["mean_actions"])


def test_bad_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(["--game", "soccer-go", "--option", "nonsense=1", "--matches", "1"])
    assert "no option" in capsys.readouterr().err


def test_wilson_interval_contains_the_rate() -> None:
    lo, hi = wilson(80, 100)
    assert lo < 0.8 < hi
    assert lo > 0.7 and hi < 0.88


def test_play_match_tells_every_action_and_may_stop_early() -> None:
    def bots() -> list[Bot]:
        return [make_bot("random", "pawn-soccer") for _ in (0, 1)]

    told: list[tuple[int, int]] = []
    full = play_match(
        "pawn-soccer", bots(), 12, True, {}, watch=lambda seat, before, after: told.append((seat, after.ply))
    )
    assert [ply for _, ply in told] == list(range(1, full.actions + 1))
    assert [seat for seat, _ in told] == [seat for seat, _ in full.record["actions"]]  # type: ignore[index]
    assert len(full.decision_s[0]) + len(full.decision_s[1]) == sum(seat != CHANCE for seat, _ in told)
    # Stopped after 10 actions: the same first 10 actions, no winner, the record replays.
    cut = play_match("pawn-soccer", bots(), 12, True, {}, None, stop=lambda state: state.ply >= 10)
    assert cut.actions == 10 and cut.winner is None
    assert cut.record["actions"] == full.record["actions"][:10]  # type: ignore[index]
    assert not get_game("pawn-soccer").load(cut.record).is_terminal()


def test_play_match_takes_any_player_with_decide() -> None:
    """A player needs only ``decide``: here one that always takes the first legal action."""

    class First:
        def decide(self, state: State, seat: int, rng: random.Random) -> Action:
            return state.legal_actions(seat)[0]

    result = play_match("soccer-go", [First(), make_bot("random", "soccer-go")], 4, True, {})
    assert result.seats == (1, 0)
    states = get_game("soccer-go").replay(result.record)
    assert states[-1].is_terminal() and result.actions == states[-1].ply
    mine = [
        (state, action) for state, (seat, action) in zip(states[:-1], states[-1].history(), strict=True) if seat == 1
    ]
    assert len(mine) == len(result.decision_s[0]) > 0
    assert all(action == state.legal_actions(1)[0] for state, action in mine)


def test_a_match_that_does_not_end_raises() -> None:
    with pytest.raises(RuntimeError, match="soccer-go seed 4: no end after 5 actions"):
        play_match("soccer-go", [make_bot("random", "soccer-go")] * 2, 4, False, {}, max_plies=5)
