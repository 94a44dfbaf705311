#!/usr/bin/env bash
# Remove what install-linux.sh put in place. Your settings, imported results and
# saved views (in your user data folder) are kept unless you pass --purge.
set -euo pipefail
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
rm -rf "$DATA/ipubench-gui/app"
rmdir "$DATA/ipubench-gui" 2>/dev/null || true
rm -f "$HOME/.local/bin/ipubench-gui" "$DATA/applications/ipubench-gui.desktop"
rm -f "$DATA/icons/hicolor/scalable/apps/ipubench-gui.svg" "$DATA/mime/packages/ipubench-gui.xml"
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
# Refresh the caches install-linux.sh updated, so nothing still points here.
command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA/applications" || true
[ -d "$DATA/mime/packages" ] && command -v update-mime-database >/dev/null && update-mime-database "$DATA/mime" || true
[ -f "$DATA/icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t -f "$DATA/icons/hicolor" || true
