#!/usr/bin/env bash
# Build the standalone app: dist/ipubench-gui/ (one folder) and, unless
# ONEFOLDER_ONLY=1, dist/onefile/ipubench-gui (one file). Run via `make package`.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
rm -rf build/pkgdata
# The whole data/ folder (new files and subfolders too), never a store someone
# built in it; then the store, prebuilt from that copy.
"$PY" - <<'PYEOF'
import shutil
from pathlib import Path
from ipubench_gui.store.bundled.build import build_store
skip = shutil.ignore_patterns("*.duckdb", "*.duckdb.wal", "__pycache__")
shutil.copytree("data", "build/pkgdata", ignore=skip)
build_store(Path("build/pkgdata"), Path("build/pkgdata/results.duckdb"))
PYEOF
"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath dist \
    --workpath build/pyinstaller packaging/ipubench.spec
if [ "${ONEFOLDER_ONLY:-0}" != 1 ]; then
    IPUBENCH_ONEFILE=1 "$PY" -m PyInstaller --noconfirm --log-level WARN \
        --distpath dist/onefile --workpath build/pyinstaller-onefile \
        packaging/ipubench.spec
fi
"$PY" packaging/report.py dist/ipubench-gui
