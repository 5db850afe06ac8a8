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
#
# A comment that cannot be posted never fails the step: the check's colour is the gate's alone. A pull
# request from a fork gets a read-only token (HTTP 403), a missing token or any other API error (404, 5xx, no
# network) is the same: the step writes one line to the job summary saying why, and how to get the comment
# (the two-stage `post` workflow, docs/action.md §3), and a warning annotation, and exits 0.
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

docs_url='https://github.com/cargo-speedup/cargo-speedup/blob/main/docs/action.md#3-pull-requests-from-forks'
# The comment could not be posted: one line in the job summary and a warning, then exit 0. $1 says why.
not_posted() {
  local why=$1 how
  if [ "${SPEEDUP_FROM_POST:-false}" = true ]; then
    how="To comment, give this workflow \`permissions: pull-requests: write\`."
  else
    how="A pull request from a fork gets a read-only token: to comment on it, post the report from a \`workflow_run\` workflow (the action's \`post\` input, [docs/action.md §3]($docs_url))."
  fi
  printf '\n> [!WARNING]\n> The pull-request comment was not posted (%s); the report is in this summary. %s\n' \
    "$why" "$how" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
  echo "::warning title=cargo-speedup::the pull-request comment was not posted ($why); the report is in the job summary" >&3
  exit 0
}
# `gh api ARGS...`, its output on standard output; on failure, not_posted with the HTTP status gh reports.
api() {
  local out err status
  err=$(mktemp)
  if out=$(gh api "$@" 2>"$err"); then
    rm -f "$err"
    printf '%s' "$out"
    return 0
  fi
  status=$(grep -o 'HTTP [0-9][0-9][0-9]' "$err" | tail -n 1 || true)
  if [ -z "$status" ] && grep -q -e 'auth login' -e 'GH_TOKEN' "$err"; then status='no token'; fi
  rm -f "$err"
  case "$status" in
    'no token') not_posted "no token: the action's \`token\` input is empty" ;;
    'HTTP 403') not_posted "GitHub answered HTTP 403: the token may not write to this pull request" ;;
    'HTTP 404') not_posted "GitHub answered HTTP 404: the token cannot see this pull request" ;;
    HTTP*) not_posted "GitHub answered $status" ;;
    *) not_posted "GitHub's API could not be reached" ;;
  esac
}
# api runs in this shell, not a subshell, so that not_posted's exit ends the script; fd 3 is the step's
# standard output, for the warning, whatever api's output is redirected to.
exec 3>&1
command -v gh >/dev/null || not_posted "GitHub's CLI \`gh\` is not installed on this runner"

listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
api "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" --paginate > "$listing"
existing=$(jq -rs --arg author "$author" --arg marker "$marker" \
  '[.[][] | select(.user.login == $author and ((.body // "") | startswith($marker))) | .id] | first // empty' \
  "$listing") || not_posted "GitHub's list of the pull request's comments could not be read"
if [ -n "$existing" ]; then
  api --method PATCH "repos/$SPEEDUP_REPOSITORY/issues/comments/$existing" -f body="$body" >/dev/null
elif [ "${SPEEDUP_NOTABLE:-true}" = true ]; then
  api --method POST "repos/$SPEEDUP_REPOSITORY/issues/$SPEEDUP_PR/comments" -f body="$body" >/dev/null
else
  echo "cargo-speedup: no benchmark changed and the gate passed: no comment (the job summary has the report)"
fi
