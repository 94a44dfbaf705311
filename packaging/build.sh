#!/usr/bin/env bash
# Build the standalone app: $DIST_DIR/ipubench-gui/ (one folder) and, unless
# ONEFOLDER_ONLY=1, $DIST_DIR/onefile/ipubench-gui (one file). Run via `make
# package`; DIST_DIR and BUILD_DIR default to the repository's dist/ and build/
# (the tests build under a temporary folder instead).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
BUILD=$(realpath -m "${BUILD_DIR:-build}")
DIST=$(realpath -m "${DIST_DIR:-dist}")
export IPUBENCH_PKGDATA="$BUILD/pkgdata"
rm -rf "$IPUBENCH_PKGDATA"
# The whole data/ folder (new files and subfolders too), never a store someone
# built in it; then the store, prebuilt from that copy.
"$PY" - <<'PYEOF'
import os
import shutil
from pathlib import Path
from ipubench_gui.store.bundled.build import build_store
out = Path(os.environ["IPUBENCH_PKGDATA"])
skip = shutil.ignore_patterns("*.duckdb", "*.duckdb.wal", "__pycache__")
shutil.copytree("data", out, ignore=skip)
build_store(out, out / "results.duckdb")
PYEOF
"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath "$DIST" \
    --workpath "$BUILD/pyinstaller" packaging/ipubench.spec
if [ "${ONEFOLDER_ONLY:-0}" != 1 ]; then
    IPUBENCH_ONEFILE=1 "$PY" -m PyInstaller --noconfirm --log-level WARN \
        --distpath "$DIST/onefile" --workpath "$BUILD/pyinstaller-onefile" \
        packaging/ipubench.spec
fi
"$PY" packaging/report.py "$DIST/ipubench-gui"
