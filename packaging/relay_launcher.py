"""Entry point of the frozen relay server, ``soccerdesk-relay`` (no Qt inside)."""

import sys

from server.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
