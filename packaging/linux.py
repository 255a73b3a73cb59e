"""Linux packages of a frozen bundle: a .deb (with a .desktop entry and Qt's system
libraries declared) and a portable .tar.gz."""

from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The shared libraries the PySide6 xcb platform plugin loads that are not inside the bundle
# (libc6 with the version the bundle needs: glibc_depends).
DEB_DEPENDS = [
    "libgl1",
    "libegl1",
    "libfontconfig1",
    "libfreetype6",
    "libdbus-1-3",
    "libglib2.0-0",
    "libxkbcommon0",
    "libxkbcommon-x11-0",
    "libx11-6",
    "libx11-xcb1",
    "libxcb1",
    "libxcb-cursor0",
    "libxcb-icccm4",
    "libxcb-image0",
    "libxcb-keysyms1",
    "libxcb-randr0",
    "libxcb-render-util0",
    "libxcb-shape0",
    "libxcb-xinerama0",
    "libxcb-xkb1",
    "libxcb-xfixes0",
    "libxcb-shm0",
    "libxcb-sync1",
    "libxcb-render0",
]

DESKTOP_ENTRY = """[Desktop Entry]
Type=Application
Name=soccerdesk
GenericName=Tabletop soccer games
Comment=Play Big Time Soccer, Pawn Soccer, Soccero and Soccer-Go
Exec={exec} %f
Icon=soccerdesk
Terminal=false
Categories=Game;BoardGame;
Keywords=soccer;football;board game;
"""


def glibc_needed(bundle: Path) -> str | None:
    """The newest glibc symbol version (``2.36`` for ``GLIBC_2.36``) an ELF file in ``bundle`` needs.

    The bundle carries the build machine's Python and Qt, linked against its glibc; on an older
    glibc the loader refuses them, so the .deb must not install there (Debian Policy 8.6).
    """
    newest: tuple[int, ...] | None = None
    for path in sorted(bundle.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        with path.open("rb") as file:
            if file.read(4) != b"\x7fELF":
                continue
        dump = subprocess.run(["objdump", "-T", str(path)], capture_output=True, text=True).stdout
        for found in re.findall(r"\bGLIBC_(\d+(?:\.\d+)+)\b", dump):
            version = tuple(int(n) for n in found.split("."))
            newest = version if newest is None else max(newest, version)
    return None if newest is None else ".".join(map(str, newest))


def glibc_depends(bundle: Path) -> str:
    """``libc6 (>= X)`` for the glibc ``bundle`` needs (``libc6`` if it names no version)."""
    needed = glibc_needed(bundle)
    return "libc6" if needed is None else f"libc6 (>= {needed})"


COPYRIGHT = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: soccerdesk

Files: *
Copyright: 2026 the soccerdesk developers
License: MIT

Files: opt/soccerdesk/_internal/*
Copyright: the authors of Python and of each package, as their licences say
License: various
 Python (PSF-2.0) and the Python packages the app and the relay use, each under
 its own licence: the texts are in /opt/soccerdesk/_internal/licenses/, with an
 overview in /opt/soccerdesk/_internal/licenses/THIRD-PARTY-NOTICES.txt.

Files: opt/soccerdesk/_internal/PySide6/* opt/soccerdesk/_internal/shiboken6/*
Copyright: The Qt Company Ltd. and other contributors
License: LGPL-3
 Qt 6, PySide6 and shiboken6 are used under the GNU Lesser General Public
 License, version 3. On Debian systems its text is in
 /usr/share/common-licenses/LGPL-3 and that of the GNU General Public License,
 version 3, in /usr/share/common-licenses/GPL-3; both also come with the
 program in /opt/soccerdesk/_internal/licenses/.

License: MIT
{mit}
"""


def debian_copyright() -> str:
    """/usr/share/doc/soccerdesk/copyright (Debian Policy 12.5), machine-readable format."""
    text = (ROOT / "LICENSE").read_text().split("\n", 1)[1].strip()  # without the "MIT License" title
    return COPYRIGHT.format(mit="\n".join(f" {line}" if line else " ." for line in text.splitlines()))


def _arch() -> str:
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()


def build_deb(bundle: Path, version: str, out_dir: Path) -> Path:
    """``soccerdesk_<version>_<arch>.deb``: the bundle in /opt/soccerdesk, launchers in /usr/bin."""
    arch = _arch()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "pkg"
        shutil.copytree(bundle, root / "opt" / "soccerdesk", symlinks=True)
        bin_dir = root / "usr" / "bin"
        bin_dir.mkdir(parents=True)
        for name in ("soccerdesk", "soccerdesk-relay"):
            (bin_dir / name).symlink_to(f"/opt/soccerdesk/{name}")
        apps = root / "usr" / "share" / "applications"
        apps.mkdir(parents=True)
        (apps / "soccerdesk.desktop").write_text(DESKTOP_ENTRY.format(exec="/usr/bin/soccerdesk"))
        icons = root / "usr" / "share" / "icons" / "hicolor" / "256x256" / "apps"
        icons.mkdir(parents=True)
        shutil.copy(ROOT / "build" / "icons" / "soccerdesk.png", icons / "soccerdesk.png")
        scalable = root / "usr" / "share" / "icons" / "hicolor" / "scalable" / "apps"
        scalable.mkdir(parents=True)
        shutil.copy(ROOT / "resources" / "icons" / "soccerdesk.svg", scalable / "soccerdesk.svg")
        doc = root / "usr" / "share" / "doc" / "soccerdesk"
        doc.mkdir(parents=True)
        (doc / "copyright").write_text(debian_copyright())
        size_kb = sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink()) // 1024
        control = root / "DEBIAN"
        control.mkdir()
        (control / "control").write_text(
            f"Package: soccerdesk\nVersion: {version}\nArchitecture: {arch}\n"
            "Maintainer: soccerdesk developers <dev@soccerdesk.invalid>\n"
            f"Installed-Size: {size_kb}\nDepends: {', '.join([glibc_depends(bundle), *DEB_DEPENDS])}\n"
            "Section: games\nPriority: optional\n"
            "Description: tabletop soccer games on your desktop\n"
            " Big Time Soccer, Pawn Soccer, Soccero and Soccer-Go against computer\n"
            " opponents, a friend on the same screen, or online through a relay.\n"
        )
        out_dir.mkdir(parents=True, exist_ok=True)
        deb = out_dir / f"soccerdesk_{version}_{arch}.deb"
        subprocess.run(
            ["dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(root), str(deb)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return deb


def build_tarball(bundle: Path, version: str, out_dir: Path) -> Path:
    """``soccerdesk-<version>-linux-<arch>.tar.gz``: unpack anywhere and run ``soccerdesk/soccerdesk``."""
    arch = _arch()
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"soccerdesk-{version}-linux-{arch}.tar.gz"
    # No desktop entry: its Exec and Icon would need the folder the tarball is unpacked to (the
    # .deb installs one); README says how to start the app from the tarball.
    with tarfile.open(path, "w:gz") as tar:
        tar.add(bundle, arcname="soccerdesk")
    return path
