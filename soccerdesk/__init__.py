"""soccerdesk: tabletop soccer games on the desktop."""

from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("soccerdesk")
except _metadata.PackageNotFoundError:  # a frozen build without metadata
    __version__ = "0.1.0"
