"""A player back at an online match reads what happened while away as the log tells it (QA
pass 16, finding 8). How a resumed match's ending is logged is checked in test_online_truth."""

from __future__ import annotations

from pathlib import Path

from test_online import run_on_qt_loop, until
from test_online_truth import claim_by_clicking, come_back, screen


def test_what_the_computer_played_while_away_is_told_in_the_boards_words(qtbot, tmp_path: Path) -> None:
    """QA pass 16, finding 8: Big Time Soccer's "While you were away the computer played for
    you: Bob plays Dribble Ahead 1, then Pass to A2R" read as two moves, and named the zone as
    the rules do; the log says "Dribble Ahead 1 (next: Pass) to A2 right". The note now tells the
    moves as the log does."""
    import re

    from server.relay import RelaySettings, start_relay
    from soccerdesk.net.client import RelayClient

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.db"), min_seconds=1))
        alice = RelayClient(relay.url, name="Alice")
        bob = RelayClient(relay.url, name="Bob", reconnect=False)
        for client in (alice, bob):
            await client.connect()
        created = await alice.create("big-time-soccer", {}, seat=0, abandon_seconds=1)
        await bob.join(created["room"])
        room, token = bob.room, bob.token
        mine, _ = screen(qtbot, alice, game="big-time-soccer")
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
            theirs, told = screen(qtbot, back, back.told, game="big-time-soccer")
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
