"""``python -m soccerdesk``: the desktop app (see :mod:`soccerdesk.app`)."""

from soccerdesk.app import main

raise SystemExit(main())
