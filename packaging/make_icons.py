"""Render resources/icons/soccerdesk.svg into the bitmap icons installers need.

Writes ``soccerdesk.png`` (256 px, Linux), ``soccerdesk.ico`` (Windows, several sizes)
and ``soccerdesk.icns`` (macOS) into the given folder, using Qt's own SVG renderer and
image writers, so no extra imaging library is needed.

    python packaging/make_icons.py build/icons
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "soccerdesk.svg"


def render(size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(SVG)).render(painter)
    painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def write_ico(path: Path, sizes: list[int]) -> None:
    """An .ico holding PNG-compressed images (valid since Windows Vista)."""
    images = [png_bytes(render(s)) for s in sizes]
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries = b""
    for size, blob in zip(sizes, images, strict=True):
        dim = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
    path.write_bytes(header + entries + b"".join(images))


def write_icns(path: Path) -> None:
    """An .icns with PNG members (ic07 128 px, ic08 256 px, ic09 512 px, ic10 1024 px)."""
    chunks = b""
    for kind, size in ((b"ic07", 128), (b"ic08", 256), (b"ic09", 512), (b"ic10", 1024)):
        blob = png_bytes(render(size))
        chunks += kind + struct.pack(">I", 8 + len(blob)) + blob
    path.write_bytes(b"icns" + struct.pack(">I", 8 + len(chunks)) + chunks)


def main(out: Path) -> None:
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    out.mkdir(parents=True, exist_ok=True)
    render(256).save(str(out / "soccerdesk.png"))
    write_ico(out / "soccerdesk.ico", [16, 24, 32, 48, 64, 128, 256])
    write_icns(out / "soccerdesk.icns")
    print(f"icons written to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "icons")
