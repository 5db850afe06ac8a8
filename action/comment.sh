#!/usr/bin/env bash
# Posts the Markdown report as one pull-request comment, updating it on later runs (found by a marker line).
# A new comment is posted only when something is worth it (SPEEDUP_NOTABLE: a benchmark faster or slower, or
# the gate failed); an existing one is always brought up to date, so that it never shows a stale verdict.
set -euo pipefail
marker='<!-- cargo-speedup -->'
body=$(printf '%s\n%s\n' "$marker" "$(cat "$SPEEDUP_MARKDOWN")")
existing=$(gh api "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" --paginate \
  --jq ".[] | select(.body | startswith(\"$marker\")) | .id" | head -n 1)
if [ -n "$existing" ]; then
  gh api --method PATCH "repos/$SPEEDUP_REPOSITORY/issues/comments/$existing" -f body="$body" >/dev/null
elif [ "${SPEEDUP_NOTABLE:-true}" = true ]; then
  gh api --method POST "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" -f body="$body" >/dev/null
else
  echo "cargo-speedup: no benchmark changed and the gate passed: no comment (the job summary has the report)"
fi
