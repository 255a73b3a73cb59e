"""The keyboard on an online match screen: the turn gives the board the keys back from the chat
line (QA online audit, keyboard item). A real relay on 127.0.0.1 (port 0); the player clicks the
board's viewport and presses Tab and types, as a person does."""

from __future__ import annotations

import asyncio
from pathlib import Path

from clicking import deciding
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_online import run_on_qt_loop, until  # the online tests' loop and waiting
from test_online_relay_down import alice_at_her_screen, click_a_move


def test_the_turn_takes_the_keyboard_back_from_an_empty_chat_line_but_not_from_a_line_being_typed(
    qtbot, tmp_path: Path
) -> None:
    """QA online keyboard item: a player who had tabbed into the chat box while waiting kept the
    focus there when the turn came, so the keys did not play. The turn gives the board the
    focus back when the box is empty; a line being typed keeps it."""

    async def scenario() -> None:
        async with alice_at_her_screen(qtbot, tmp_path) as match:
            alice, bob, view = match.alice, match.bob, match.view
            assert view.chat_edit is not None
            for typed in ("", "hello th"):
                # Alice picks; then she waits for Bob, and tabs into the chat box meanwhile.
                await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
                while alice.seat in (alice.view or {}).get("to_move", ()):
                    await until(lambda: deciding(view) and bool((view.view_data or {}).get("legal")))
                    before = alice.seq
                    await click_a_move(qtbot, view)
                    await until(lambda b=before: alice.seq > b)
                view.activateWindow()
                for _ in range(12):
                    if view.focusWidget() is view.chat_edit:
                        break
                    QTest.keyClick(view.window().focusWidget() or view, Qt.Key.Key_Tab)
                assert view.focusWidget() is view.chat_edit
                QTest.keyClicks(view.chat_edit, typed)
                # Bob decides until the turn is Alice's again.
                while alice.seat not in (bob.view or {}).get("to_move", ()):
                    await until(lambda: bool(bob.view and bob.view["legal"]))
                    before = bob.seq
                    await bob.act(bob.view["legal"][0], ply=before)  # type: ignore[index]
                    await until(lambda b=before: bob.seq > b and alice.seq == bob.seq)
                await until(lambda: deciding(view) and bool((view.view_data or {}).get("legal")))
                await asyncio.sleep(0.1)
                if typed:
                    assert view.focusWidget() is view.chat_edit  # her typing is not taken away
                    assert view.chat_edit.text() == typed
                else:
                    assert view.focusWidget() is view.view  # the keys play again

    run_on_qt_loop(scenario)
