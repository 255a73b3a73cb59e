"""Linux packages of a frozen bundle: a .deb (with a .desktop entry and Qt's system
libraries declared) and a portable .tar.gz."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The shared libraries the PySide6 xcb platform plugin loads that are not inside the bundle.
DEB_DEPENDS = [
    "libc6",
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
        size_kb = sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink()) // 1024
        control = root / "DEBIAN"
        control.mkdir()
        (control / "control").write_text(
            f"Package: soccerdesk\nVersion: {version}\nArchitecture: {arch}\n"
            "Maintainer: soccerdesk developers <dev@soccerdesk.invalid>\n"
            f"Installed-Size: {size_kb}\nDepends: {', '.join(DEB_DEPENDS)}\n"
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
    with tempfile.TemporaryDirectory() as tmp:
        extra = Path(tmp)
        (extra / "soccerdesk.desktop").write_text(DESKTOP_ENTRY.format(exec="soccerdesk"))
        with tarfile.open(path, "w:gz") as tar:
            tar.add(bundle, arcname="soccerdesk")
            tar.add(extra / "soccerdesk.desktop", arcname="soccerdesk/soccerdesk.desktop")
            tar.add(ROOT / "build" / "icons" / "soccerdesk.png", arcname="soccerdesk/soccerdesk.png")
    return path
