#!/usr/bin/env bash
# Posts the Markdown report as one pull-request comment, updating it on later runs. A new comment is posted
# only when something is worth it (SPEEDUP_NOTABLE: a benchmark faster or slower, or the gate failed); an
# existing one is always brought up to date, so that it never shows a stale verdict.
#
# The comment it updates is its own: the first one that begins with the marker line AND was written by
# SPEEDUP_COMMENT_AUTHOR (the login of the token's identity: `github-actions[bot]` for the Actions token).
# A marker comment planted by anyone else is left alone, and a new comment is posted instead.
#
# The body is capped at SPEEDUP_COMMENT_LIMIT bytes (60,000: GitHub refuses bodies over 65,536 characters),
# keeping whole lines from the beginning of the report (its verdict, table and gate come first), closing a
# `<details>` block left open, and ending with a line linking the full report in the run's job summary.
# The lines from a line `<!-- cargo-speedup: kept -->` to the end (the bisection's section, bisect.sh) are
# always kept: they come after the cut, and the beginning is cut shorter to leave them room.
# Every `@` directly followed by a letter or digit gets a word joiner (U+2060), so that the comment mentions
# nobody, even when the report was uploaded by a pull request's workflow (`post`).
set -euo pipefail
marker='<!-- cargo-speedup -->'
kept='<!-- cargo-speedup: kept -->'
author=${SPEEDUP_COMMENT_AUTHOR:-github-actions[bot]}
limit=${SPEEDUP_COMMENT_LIMIT:-60000}
run_url="${SPEEDUP_SERVER_URL:-https://github.com}/$SPEEDUP_REPOSITORY/actions/runs/${SPEEDUP_RUN_ID:-}"
joiner=$(printf '\342\201\240')

report=$(LC_ALL=C awk -v limit="$limit" -v url="$run_url" -v keep="$kept" '
  function cut_here() {
    if (open > 0) print "\n</details>"
    print "\n---\nThe report is longer than a comment can hold: the rest is in [the job summary of this run](" url ")."
    open = 0
  }
  NR == FNR { if ($0 == keep) found = 1; if (found) tail += length($0) + 1; next }
  $0 == keep { in_tail = 1; if (cut) cut_here() }
  in_tail { print; next }
  cut { next }
  { size += length($0) + 1 }
  size > limit - tail { cut = 1; next }
  /<details>/ { open++ }
  /<\/details>/ { open-- }
  { print }
  END { if (cut && !in_tail) cut_here() }' "$SPEEDUP_MARKDOWN" "$SPEEDUP_MARKDOWN" |
  LC_ALL=C sed "s/@\([A-Za-z0-9]\)/@$joiner\1/g")
body=$(printf '%s\n%s\n' "$marker" "$report")

existing=$(gh api "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" --paginate |
  jq -rs --arg author "$author" --arg marker "$marker" \
    '[.[][] | select(.user.login == $author and ((.body // "") | startswith($marker))) | .id] | first // empty')
if [ -n "$existing" ]; then
  gh api --method PATCH "repos/$SPEEDUP_REPOSITORY/issues/comments/$existing" -f body="$body" >/dev/null
elif [ "${SPEEDUP_NOTABLE:-true}" = true ]; then
  gh api --method POST "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" -f body="$body" >/dev/null
else
  echo "cargo-speedup: no benchmark changed and the gate passed: no comment (the job summary has the report)"
fi
