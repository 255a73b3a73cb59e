#!/usr/bin/env bash
# Wrap soccerdesk.app in a compressed disk image with an Applications link.
#   build_dmg.sh dist/soccerdesk.app 0.1.0 dist
set -euo pipefail
app="$1"; version="$2"; out="$3"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -R "$app" "$stage/"
ln -s /Applications "$stage/Applications"
arch="$(uname -m)"
hdiutil create -volname "soccerdesk $version" -srcfolder "$stage" -ov -format UDZO \
  "$out/soccerdesk-$version-macos-$arch.dmg"
echo "built $out/soccerdesk-$version-macos-$arch.dmg"
