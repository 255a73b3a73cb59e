"""The headless simulator ``soccerdesk-sim``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from soccerdesk.rules import GAMES, get_game
from soccerdesk.sim import run, wilson


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
