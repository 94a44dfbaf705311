#!/usr/bin/env bash
# Remove what install-linux.sh put in place. Your settings, imported results and
# saved views (in your user data folder) are kept unless you pass --purge.
set -euo pipefail
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
rm -rf "$DATA/ipubench-gui/app"
rmdir "$DATA/ipubench-gui" 2>/dev/null || true
rm -f "$HOME/.local/bin/ipubench-gui" "$DATA/applications/ipubench-gui.desktop"
rm -f "$DATA/icons/hicolor/scalable/apps/ipubench-gui.svg"
for s in 16 24 32 48 64 128 256 512; do
    rm -f "$DATA/icons/hicolor/${s}x${s}/apps/ipubench-gui.png"
done
if [ "${1:-}" = "--purge" ]; then
    rm -rf "$DATA/ipubench/ipubench-gui" "${XDG_CONFIG_HOME:-$HOME/.config}/ipubench" \
        "${XDG_CACHE_HOME:-$HOME/.cache}/ipubench/ipubench-gui"
    echo "removed the app and your ipubench-gui data"
else
    echo "removed the app (your data is kept; --purge removes it too)"
fi
command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA/applications" || true
