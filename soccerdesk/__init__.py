"""soccerdesk: tabletop soccer games on the desktop."""

from __future__ import annotations

import os
import sys

FALLBACK_VERSION = "0.1.0"
"""The version a build without package metadata (a frozen app) reports."""


def _version_from_dist_info() -> str | None:
    """The version in the name of the installed ``soccerdesk-<version>.dist-info`` folder, if any.

    Importing :mod:`importlib.metadata` costs tens of milliseconds (it pulls in the email
    parser); a look at the folder names on ``sys.path`` costs well under one.
    """
    prefix = "soccerdesk-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # not a folder (a zip file) or gone
            continue
        for name in names:
            if name.startswith(prefix) and name.endswith(".dist-info"):
                return name[len(prefix) : -len(".dist-info")]
    return None


def __getattr__(name: str) -> str:
    """``soccerdesk.__version__``, looked up on first use (issue 6: start-up within twice a
    bare window; the version is needed only by the status bar, the About box and ``--version``)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    version = _version_from_dist_info()
    if version is None:
        from importlib import metadata

        try:
            version = metadata.version("soccerdesk")
        except metadata.PackageNotFoundError:  # a frozen build without metadata
            version = FALLBACK_VERSION
    globals()["__version__"] = version
    return version
