#!/usr/bin/env bash
# Posts the Markdown report as one pull-request comment, updating it on later runs (found by a marker line).
set -euo pipefail
marker='<!-- cargo-speedup -->'
body=$(printf '%s\n%s\n' "$marker" "$(cat "$SPEEDUP_MARKDOWN")")
existing=$(gh api "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" --paginate \
  --jq ".[] | select(.body | startswith(\"$marker\")) | .id" | head -n 1)
if [ -n "$existing" ]; then
  gh api --method PATCH "repos/$SPEEDUP_REPOSITORY/issues/comments/$existing" -f body="$body" >/dev/null
else
  gh api --method POST "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" -f body="$body" >/dev/null
fi
