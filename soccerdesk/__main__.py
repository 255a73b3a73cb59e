"""``python -m soccerdesk``: the desktop app (see :mod:`soccerdesk.app`)."""

from soccerdesk.app import main

# The guard matters: the bot process is started with "spawn", which imports this module again.
if __name__ == "__main__":
    raise SystemExit(main())
