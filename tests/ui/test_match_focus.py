"""Where the keyboard is after an animation (QA pass 16, finding 4).

An animation takes the keyboard (any key skips it) and gives it up when it ends. Hidden while
it held the focus, it let Qt pass the focus on to the next widget in the window: online, the
chat line. A keyboard player's next Tab then went to Send, Rules and Home, and their keys
went into the chat.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from test_online import remote_match_view, run_on_qt_loop, two_players, until


def test_the_keyboard_comes_back_to_the_board_after_an_animation_online(qtbot, tmp_path: Path) -> None:
    """Alice plays Soccer-Go online with the keyboard and the animations on: after each reveal
    the keyboard is on the board again, never in the chat line."""
    view = None

    async def press(key: Qt.Key) -> None:
        # From the Qt loop, not inside this coroutine: a key that plays sends to the relay, and
        # a task may not be entered while another one runs.
        pressed = []
        QTimer.singleShot(0, lambda: (QTest.keyClick(view.window().windowHandle(), key), pressed.append(key)))
        await until(lambda: bool(pressed))

    async def scenario() -> None:
        nonlocal view
        relay, alice, bob = await two_players(tmp_path)
        try:
            view = remote_match_view(qtbot, alice, speed="fast")
            view.activateWindow()
            await until(lambda: QApplication.activeWindow() is view.window())
            animated = keyed = 0
            for _ in range(80):
                # Whoever must decide: Alice with the keys, Bob at once; her screen animates the reveals.
                await until(
                    lambda: (
                        bool(bob.view["legal"])
                        and not alice.view["legal"]
                        or bool(alice.view["legal"])
                        and view.view_data is not None
                        and view.view_data["ply"] == alice.view["ply"]
                        and not view.animating
                    )
                )
                if alice.view["legal"] and view.view_data["ply"] == alice.view["ply"] and not view.animating:
                    assert view.view.hasFocus(), QApplication.focusWidget()
                    ply = alice.view["ply"]
                    await press(Qt.Key.Key_Tab)
                    await press(Qt.Key.Key_Return)
                    await until(lambda ply=ply: alice.view["ply"] > ply)
                    keyed += 1
                elif bob.view["legal"]:
                    moved = bob.view["ply"]
                    await bob.act(bob.view["legal"][0], ply=moved)
                    await until(lambda moved=moved: bob.view["ply"] > moved)
                    await until(lambda: view.animating or (view.view_data or {}).get("ply", 0) >= bob.view["ply"])
                    animated += view.animating
                if keyed >= 3 and animated >= 2:
                    break
            assert keyed >= 3 and animated >= 2, (keyed, animated)
            assert view.chat_edit is not None and view.chat_edit.text() == ""
            view.session.close()
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)
