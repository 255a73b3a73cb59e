"""The .deb's metadata: the glibc it needs and its copyright file (packaging/linux.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))

from linux import debian_copyright, glibc_depends, glibc_needed  # noqa: E402

needs_objdump = pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) is not installed")


def _newest_glibc(path: Path) -> tuple[int, ...]:
    dump = subprocess.run(["objdump", "-T", str(path)], capture_output=True, text=True, check=True).stdout
    return max(tuple(int(n) for n in found.split(".")) for found in re.findall(r"GLIBC_(2\.[0-9.]*[0-9])", dump))


@needs_objdump
def test_libc6_depends_on_the_newest_glibc_the_bundle_needs(tmp_path: Path) -> None:
    """Debian Policy 8.6: apt must refuse the package where the loader would refuse the app."""
    bundle = tmp_path / "soccerdesk"
    (bundle / "_internal").mkdir(parents=True)
    programs = [Path(shutil.which(name) or "").resolve() for name in ("ls", "tar")] + [Path(sys.executable).resolve()]
    for index, program in enumerate(programs):
        shutil.copy(program, bundle / "_internal" / f"lib{index}.so")
    (bundle / "_internal" / "notes.txt").write_text("GLIBC_9.99 in a text file is not a need\n")
    (bundle / "link").symlink_to(bundle / "_internal" / "lib0.so")
    newest = max(_newest_glibc(program) for program in programs)
    assert glibc_needed(bundle) == ".".join(map(str, newest))
    assert glibc_depends(bundle) == f"libc6 (>= {'.'.join(map(str, newest))})"


def test_no_elf_file_means_no_version(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("nothing to load\n")
    assert glibc_depends(tmp_path) == "libc6"


def test_the_copyright_file_names_soccerdesk_and_qt_licences() -> None:
    """Debian Policy 12.5, in the machine-readable format: MIT for soccerdesk, LGPL-3 for Qt/PySide6."""
    text = debian_copyright()
    assert text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n")
    assert "Files: *\nCopyright: 2026 the soccerdesk developers\nLicense: MIT\n" in text
    assert "License: LGPL-3\n" in text and "/usr/share/common-licenses/LGPL-3" in text
    mit = text.split("\nLicense: MIT\n")[-1]
    assert " Permission is hereby granted, free of charge" in mit
    assert all(line.startswith(" ") for line in mit.strip("\n").splitlines())  # a DEP-5 text block
