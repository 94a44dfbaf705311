"""Print the size of a built app folder and its largest items."""

from __future__ import annotations

import sys
from pathlib import Path


def files(root: Path) -> list[Path]:
    """Real files only: PyInstaller symlinks shared libraries into package
    folders, and a link costs no space."""
    return [f for f in root.rglob("*") if f.is_file() and not f.is_symlink()]


def size(p: Path) -> int:
    return sum(f.stat().st_size for f in files(p)) if p.is_dir() else p.stat().st_size


def main(folder: str) -> int:
    root = Path(folder)
    total = size(root)
    print(f"{root}: {total / 2**20:.1f} MiB in {len(files(root))} files")
    items = sorted(files(root), key=lambda f: f.stat().st_size, reverse=True)[:12]
    for f in items:
        print(f"  {f.stat().st_size / 2**20:7.1f} MiB  {f.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
