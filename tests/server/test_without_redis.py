"""An installation without the ``cluster`` extra (no Redis client): the relay and network play
still work; only ``--redis`` is refused, with a message that names the extra (server/README.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NO_REDIS = "import sys\nsys.modules['redis'] = None  # as if the cluster extra were not installed\n"
RELAY = NO_REDIS + "from server.__main__ import main\nsys.exit(main(sys.argv[1:]))\n"


def _python(code: str, *args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60, cwd=ROOT, **kw
    )  # type: ignore[call-overload]


def test_relay_help_works_without_redis() -> None:
    out = _python(RELAY, "--help")
    assert out.returncode == 0, out.stderr
    assert "--redis" in out.stdout


def test_redis_asked_without_the_extra_is_refused_by_name() -> None:
    out = _python(RELAY, "--port", "0", "--db", ":memory:", "--redis", "redis://127.0.0.1:1/0")
    assert out.returncode == 2
    assert "soccerdesk[cluster]" in out.stderr
    assert "Traceback" not in out.stderr


def test_relay_serves_without_redis() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    relay = subprocess.Popen(
        [sys.executable, "-c", RELAY, "--host", "127.0.0.1", "--port", "0", "--db", ":memory:"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        assert relay.stdout is not None
        line = relay.stdout.readline()
        assert "listening on ws://127.0.0.1:" in line, relay.stderr.read() if relay.stderr else line
        port = int(line.split("ws://127.0.0.1:")[1].split("/")[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:
            assert answer.status == 200
            assert "rooms" in json.loads(answer.read())
    finally:
        relay.terminate()
        _out, errors = relay.communicate(timeout=30)
    assert "Traceback" not in errors


def test_network_play_in_the_app_loads_without_redis() -> None:
    out = _python(NO_REDIS + "import soccerdesk.ui.online\n")
    assert out.returncode == 0, out.stderr
