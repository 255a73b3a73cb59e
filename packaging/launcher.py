"""Entry point of the frozen soccerdesk app (PyInstaller runs this file)."""

import sys

from soccerdesk.app import main

if __name__ == "__main__":
    sys.exit(main())
