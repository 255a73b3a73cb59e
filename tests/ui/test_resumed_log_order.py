"""A finished online match, resumed, logs how it ended below its moves (QA pass 16, finding 9).

Bob came back to a match Alice had claimed after his countdown: his log's first line was
"Alice wins: you did not come back.", above the coin toss. The match's end reached his screen
before the moves waiting to be shown, and was logged at once.
"""

from __future__ import annotations

from pathlib import Path

from test_online import run_on_qt_loop, two_players, until
from test_online_truth import claim_by_clicking, come_back, screen


def test_the_ending_is_the_last_line_of_a_resumed_log(qtbot, tmp_path: Path) -> None:
    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, abandon_seconds=1)
        room, token = bob.room, bob.token
        try:
            mine, _ = screen(qtbot, alice)
            await until(lambda: bob.view is not None and bob.seat in bob.view["to_move"])
            await bob.drop()
            await claim_by_clicking(qtbot, mine, "Take the win")
            await until(lambda: mine.stack.currentWidget() is mine.summary_page)
            back = await come_back(relay, room, token)
            theirs, _ = screen(qtbot, back, back.told)
            await until(lambda: theirs.stack.currentWidget() is theirs.summary_page)
            lines = theirs.log_lines()
            ending = "Alice wins: you did not come back."
            assert lines.count(ending) == 1 and lines[-1] == ending, lines
            assert any(line.startswith("Coin toss") for line in lines[:-1]), lines
            theirs.session.close()
            await back.close()
        finally:
            mine.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_what_the_computer_played_while_away_is_told_in_the_boards_words(qtbot, tmp_path: Path) -> None:
    """QA pass 16, finding 8: Big Time Soccer's "While you were away the computer played for
    you: Bob plays Dribble Ahead 1, then Pass to A2R" read as two moves, and named the zone as
    the rules do; the log says "Dribble Ahead 1 (next: Pass) to A2 right". The note now tells the
    moves as the log does."""
    import re

    from server.relay import RelaySettings, start_relay
    from soccerdesk.net.client import RelayClient
    from soccerdesk.rules import get_game
    from soccerdesk.ui.match_view import MatchView
    from soccerdesk.ui.online import RemoteSession

    def bts_screen(client: RelayClient, events: list | None = None) -> tuple[MatchView, list[str]]:
        session = RemoteSession(get_game("big-time-soccer"), client, events=events)
        said: list[str] = []
        session.status.connect(said.append)
        view = MatchView(session, speed="off")
        qtbot.addWidget(view)
        view.resize(1280, 760)
        view.show()
        session.start()
        return view, said

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.db"), min_seconds=1))
        alice = RelayClient(relay.url, name="Alice")
        bob = RelayClient(relay.url, name="Bob", reconnect=False)
        for client in (alice, bob):
            await client.connect()
        created = await alice.create("big-time-soccer", {}, seat=0, abandon_seconds=1)
        await bob.join(created["room"])
        room, token = bob.room, bob.token
        mine, _ = bts_screen(alice)
        try:
            # Bob leaves on a move of his: after the countdown the computer plays on for him.
            for _ in range(200):
                await until(lambda: bool(alice.view["legal"]) or bool(bob.view["legal"]))
                if bob.view["legal"] and any(t.startswith("play ") for t in bob.view["legal"]):
                    break
                player = alice if alice.view["legal"] else bob
                ply = player.view["ply"]
                await player.act(player.view["legal"][0], ply=ply)
                await until(lambda player=player, ply=ply: player.view["ply"] > ply)
            await bob.drop()
            await claim_by_clicking(qtbot, mine, "Computer plays on")
            await until(lambda: any(line.startswith("The computer plays for Bob") for line in mine.log_lines()))
            back = await come_back(relay, room, token)
            theirs, told = bts_screen(back, back.told)
            await until(lambda: any(s.startswith("While you were away") for s in told))
            note = next(s for s in told if s.startswith("While you were away"))
            assert not re.search(r", then (Pass|Dribble)\b", note), note
            assert not re.search(r"\b[ADM][12][LCR]\b", note), note  # zones in words, as the board labels them
            theirs.session.close()
            await back.close()
        finally:
            mine.session.close()
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)
