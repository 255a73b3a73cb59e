"""Another running soccerdesk on this computer, as a small process of its own.

A lock file tells who holds it by process id: a second process holding it, or looking at it,
is what another soccerdesk window on the same profile is (see ``hold_lock`` in
``soccerdesk/ui/session.py``).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HOLD = (
    "import sys; from pathlib import Path; from PySide6.QtCore import QCoreApplication;"
    "from soccerdesk.ui.session import hold_lock; app = QCoreApplication([]);"
    "lock = hold_lock(Path(sys.argv[1])); print('locked', flush=True); sys.stdin.read()"
)

LOOK = (
    "import sys; from pathlib import Path; from PySide6.QtCore import QCoreApplication;"
    "from soccerdesk.ui.session import LockHeld, hold_lock; app = QCoreApplication([]);\n"
    "try:\n    hold_lock(Path(sys.argv[1])).unlock(); print(0)\n"
    "except LockHeld as exc:\n    print(exc.pid)\n"
)


def hold_lock_elsewhere(lock_path: Path) -> subprocess.Popen[str]:
    """Another process holding the lock file ``lock_path``: until its stdin closes (a window
    closed: the lock is let go), or it is killed (a crash: the file stays, naming a dead process)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


@contextmanager
def holding_elsewhere(lock_path: Path) -> Iterator[subprocess.Popen[str]]:
    """:func:`hold_lock_elsewhere` for a block, after which the other process is killed (if it
    is not gone already) and its pipes are closed."""
    holder = hold_lock_elsewhere(lock_path)
    try:
        yield holder
    finally:
        holder.kill()
        holder.communicate()


def lock_holder_seen_elsewhere(lock_path: Path) -> int:
    """The process another process finds holding the lock file ``lock_path`` (0: nobody, and it
    is left free)."""
    found = subprocess.run(
        [sys.executable, "-c", LOOK, str(lock_path)], capture_output=True, text=True, check=True, timeout=60
    )
    return int(found.stdout.strip())
