#!/usr/bin/env bash
# Install the built app for the current user: no root, nothing outside ~/.local.
#   packaging/install-linux.sh [path/to/dist/ipubench-gui]
# It then shows in the desktop's application menu and starts with a double-click.
set -euo pipefail
SRC=${1:-"$(dirname "$0")/../dist/ipubench-gui"}
SRC=$(cd "$SRC" && pwd)
[ -x "$SRC/ipubench-gui" ] || { echo "error: no built app at $SRC (run make package)" >&2; exit 1; }
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
APP="$DATA/ipubench-gui/app"
BIN="$HOME/.local/bin"
mkdir -p "$APP" "$BIN" "$DATA/applications" "$DATA/icons/hicolor/scalable/apps" \
    "$DATA/mime/packages"
rm -rf "$APP.new"
cp -a "$SRC" "$APP.new"
rm -rf "$APP"
mv "$APP.new" "$APP"
ln -sf "$APP/ipubench-gui" "$BIN/ipubench-gui"
RES="$APP/_internal/resources"
cp "$RES/icons/app.svg" "$DATA/icons/hicolor/scalable/apps/ipubench-gui.svg"
for s in 16 24 32 48 64 128 256 512; do
    mkdir -p "$DATA/icons/hicolor/${s}x${s}/apps"
    cp "$RES/icons/app-$s.png" "$DATA/icons/hicolor/${s}x${s}/apps/ipubench-gui.png"
done
# Exec with the absolute path: ~/.local/bin is not on every desktop's PATH.
sed "s|^Exec=.*|Exec=\"$APP/ipubench-gui\" %F|" "$RES/ipubench-gui.desktop" \
    > "$DATA/applications/ipubench-gui.desktop"
# Saved views (*.ipubench-view.json) open in the app on a double-click.
cp "$RES/ipubench-gui-mime.xml" "$DATA/mime/packages/ipubench-gui.xml"
# The menu's and file managers' caches: the desktop file (mimeinfo.cache), the
# MIME type (mime/), the icons (icon-theme.cache).
command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA/applications" || true
command -v update-mime-database >/dev/null && update-mime-database "$DATA/mime" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$DATA/icons/hicolor" || true
echo "installed to $APP; menu entry $DATA/applications/ipubench-gui.desktop"
