#!/usr/bin/env bash
# docs/OPTIONS.md is what `stencil-miniapp --help-markdown` prints: the page
# is made from the option table, and a hand edit or a changed option fails
# here until the page is made again.
# usage: options_page_test.sh APP PAGE
set -euo pipefail
app=$1 page=$2
printed=$(mktemp)
trap 'rm -f "$printed"' EXIT
"$app" --help-markdown >"$printed"
if ! diff -u "$page" "$printed"; then
  echo "docs/OPTIONS.md differs from the option table; make it again with:"
  echo "  build/miniapp/stencil-miniapp --help-markdown > docs/OPTIONS.md"
  exit 1
fi
echo "docs/OPTIONS.md is what --help-markdown prints ($(wc -l <"$page") lines)"
