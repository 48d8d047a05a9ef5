#!/usr/bin/env bash
# Refresh the vendored Discord OpenAPI spec (MIT) from the public discord/discord-api-spec repository:
#   tests/spec/refresh.sh [COMMIT]      (default: the newest commit of its main branch)
# It writes openapi.json, LICENSE and SOURCE (the commit and its date) beside this script. Then run the e2e
# suite: a mismatch the new spec finds is mended in the emulator, or, where Discord's prose docs disagree with
# the spec, listed in tests/spec/exceptions.py with both lines cited (their line numbers move with each refresh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ref="${1:-main}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git -C "$work" init -q
git -C "$work" fetch -q --depth 1 https://github.com/discord/discord-api-spec.git "$ref"
git -C "$work" checkout -q FETCH_HEAD
cp "$work/specs/openapi.json" "$here/openapi.json"
cp "$work/LICENSE" "$here/LICENSE"
echo "discord/discord-api-spec $(git -C "$work" log -1 --format='%h (%cs)'), specs/openapi.json" > "$here/SOURCE"
cat "$here/SOURCE"
