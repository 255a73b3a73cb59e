"""The licence texts every bundle carries, as PyInstaller ``datas`` (source, folder in the bundle).

``licenses/`` in the bundle holds soccerdesk's LICENSE, THIRD-PARTY-NOTICES.txt with the LGPLv3
and GPLv3 texts for Qt and PySide6 (whose wheels carry none), Python's licence, and one folder
per Python package the app or the relay bundles with the licence files its authors ship.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
FOLDER = "licenses"
LICENCE_FILE = re.compile(r"^(licen[cs]e|copying|notice|authors)", re.IGNORECASE)
# What is frozen: the app with its dependencies, and the relay with redis for its cluster mode.
BUNDLED = (("soccerdesk", ()), ("redis", ("hiredis",)))


def bundled_distributions(roots: tuple[tuple[str, tuple[str, ...]], ...] = BUNDLED) -> dict[str, metadata.Distribution]:
    """Every installed distribution ``roots`` need (with the given extras), by normalized name."""
    found: dict[str, metadata.Distribution] = {}
    waiting = list(roots)
    while waiting:
        name, extras = waiting.pop()
        key = canonicalize_name(name)
        if key in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional piece this build has not installed
        found[key] = dist
        for line in dist.requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": extra}) for extra in ("", *extras)):
                waiting.append((requirement.name, tuple(requirement.extras)))
    return found


def licence_files(dist: metadata.Distribution) -> list[tuple[Path, str]]:
    """The licence files in ``dist``'s metadata folder, each with its path under that folder."""
    files = []
    for file in dist.files or []:
        parts = file.parts
        if parts and parts[0].endswith(".dist-info") and LICENCE_FILE.match(parts[-1]):
            under = parts[2:-1] if parts[1:2] == ("licenses",) else parts[1:-1]  # PEP 639's licenses/
            files.append((Path(str(dist.locate_file(file))), "/".join(under)))
    return files


def python_licence() -> Path | None:
    """The interpreter's LICENSE.txt (Python Software Foundation License), where it was installed."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for place in (Path(sys.base_prefix) / "lib" / version, Path(sys.base_prefix)):
        if (place / "LICENSE.txt").is_file():
            return place / "LICENSE.txt"
    return None


def licence_datas() -> list[tuple[str, str]]:
    """PyInstaller ``datas`` for ``licenses/`` in the bundle."""
    datas = [(str(ROOT / "LICENSE"), FOLDER)]
    datas += [(str(path), FOLDER) for path in sorted((ROOT / "packaging" / "licenses").glob("*.txt"))]
    python = python_licence()
    if python is not None:
        datas.append((str(python), f"{FOLDER}/python"))
    for key, dist in sorted(bundled_distributions().items()):
        if key == "soccerdesk":
            continue  # LICENSE above
        for path, under in licence_files(dist):
            datas.append((str(path), "/".join(filter(None, (FOLDER, key, under)))))
    return datas
