#!/usr/bin/env bash
# After a failed gate on a pull request (input `bisect: true`): runs `cargo speedup bisect GOOD BAD` over the
# pull request's own commits, GOOD the merge-base and BAD the pull request's head, on the first-parent path,
# bounded by SPEEDUP_BISECT_BUDGET (`--budget`). It appends what it found (the commit named with its
# subject, its speedup against the merge-base and the confidence; or the interval of commits left; or
# nothing to bisect) to the Markdown report that the comment posts and to the job summary, with the
# bisection's own report folded under it, and writes one notice annotation.
#
# It never changes the job's outcome: the gate's exit status is the comparison's (compare.sh), and this
# script exits 0 whatever happens; a bisection that cannot run says so in the report and the log.
#
# It reads only the fields of the bisection's JSON that docs/json.md §10 documents. The commit subject is
# the pull request's text: it reaches the Markdown through markdown.jq (the tool's Markdown rule) and the
# annotation through workflow-commands.jq (GitHub's encoding).
#
# Which benchmarks it follows (docs/action.md §5): when the comparison found some benchmark slower and
# SPEEDUP_ARGS has no --filter of its own, the one that slowed most, alone (`--filter ^NAME$`, the name's
# regex characters escaped, a count's ` (instructions)` suffix left out), so that its own verdict decides
# each step: the lowest median speedup BASE / HEAD among the benchmarks called slower, i.e. the largest
# slowdown of a time or the largest increase of a count relative to BASE's, the first in the report's order
# on a tie. Otherwise (no benchmark slower) the suite's verdict, as `cargo speedup bisect` does.
set -uo pipefail
here=$(dirname "${BASH_SOURCE[0]}")

notice() {
  jq -nr -L "$here" --arg message "$1" \
    'include "workflow-commands"; annotation("notice"; "cargo-speedup"; $message)'
}

out=${SPEEDUP_OUT:-${RUNNER_TEMP:-/tmp}}
markdown=${SPEEDUP_MARKDOWN:?the Markdown report of the comparison}
report=${SPEEDUP_REPORT:?the JSON report of the comparison}
json="$out/cargo-speedup-bisect.json"
bisect_md="$out/cargo-speedup-bisect.md"
html="$out/cargo-speedup-bisect.html"
rm -f "$json" "$bisect_md" "$html"

# The section goes to the comment's Markdown and to the job summary.
add() {
  printf '%s\n' "$1" >> "$markdown"
  printf '%s\n' "$1" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
}

# BAD: the `head` input, else the pull request's head (github.sha is the merge commit GitHub made, whose
# first parent is the base branch), else what the comparison measured.
bad=${SPEEDUP_HEAD:-}
if [ -z "$bad" ] && [ -n "${SPEEDUP_PR_HEAD_SHA:-}" ] &&
  git rev-parse --verify --quiet "${SPEEDUP_PR_HEAD_SHA}^{commit}" >/dev/null; then
  bad=$SPEEDUP_PR_HEAD_SHA
fi
[ -n "$bad" ] || bad=${SPEEDUP_COMPARED_HEAD:-HEAD}
good=$(git merge-base "${SPEEDUP_COMPARED_BASE:-}" "$bad" 2>/dev/null) || {
  echo "cargo-speedup: no merge-base of '${SPEEDUP_COMPARED_BASE:-}' and '$bad': not bisecting"
  exit 0
}
commits=$(git rev-list --first-parent --count "$good..$bad")
if [ "$commits" -le 1 ]; then
  echo "cargo-speedup: the pull request has $commits commit(s) after the merge-base: nothing to bisect"
  exit 0
fi

# SPEEDUP_ARGS as words, without a --budget of its own (the bisection has its own bound).
# shellcheck disable=SC2206 # SPEEDUP_ARGS is a list of arguments
words=(${SPEEDUP_ARGS:-})
args=()
skip=false
has_filter=false
for word in ${words[@]+"${words[@]}"}; do
  if $skip; then skip=false; continue; fi
  case "$word" in
    --budget) skip=true; continue ;;
    --budget=*) continue ;;
    --filter | --filter=*) has_filter=true ;;
  esac
  args+=("$word")
done
follow="the suite's verdict"
# Of times and counts together the bisection follows the times (action.yml): a count is not a time to follow.
times_only=false
[ "${SPEEDUP_MEASURE:-}" = time,instructions ] && times_only=true
if ! $has_filter; then
  slower=$(jq -r --argjson times_only "$times_only" '
    def bench_name: (" (" + .unit + ")") as $suffix
      | if (.unit | IN("ns", "us", "ms", "s") | not) and (.name | endswith($suffix))
        then .name | .[0:length - ($suffix | length)] else .name end;
    [.benchmarks[] | select(.verdict == "slower" and (.speedup.median | type) == "number")
      | select(($times_only | not) or .unit != "instructions")]
    | sort_by(.speedup.median) | (first // empty)
    | "^" + (bench_name | gsub("(?<c>[.^$*+?()\\[\\]{}|\\\\])"; "\\\(.c)")) + "$"' "$report")
  if [ -n "$slower" ]; then
    args+=(--filter "$slower")
    follow="the benchmark that slowed most"
  fi
fi

echo "cargo-speedup: bisecting the $commits commits from $good to $bad (${SPEEDUP_BISECT_BUDGET:-20m} at most), following $follow"
cargo speedup bisect "$good" "$bad" \
  --budget "${SPEEDUP_BISECT_BUDGET:-20m}" \
  --confidence "${SPEEDUP_CONFIDENCE:-0.95}" \
  --threshold "${SPEEDUP_THRESHOLD:-2}" \
  --format markdown -o "$bisect_md" --json "$json" --html "$html" \
  ${args[@]+"${args[@]}"}
status=$?

# The section is kept whole in a comment whose report is cut (comment.sh).
add ""
add "<!-- cargo-speedup: kept -->"
add "### Which commit? (\`cargo speedup bisect\`)"
add ""
if [ ! -f "$json" ]; then
  add "The bisection of the pull request's $commits commits could not run (exit status $status): the job's log says why. The gate's verdict above stands."
  notice "the bisection of the pull request's $commits commits could not run (exit status $status)"
  exit 0
fi

# One sentence from the documented fields, the subject through the Markdown rule.
line=$(jq -r -L "$here" --arg commits "$commits" 'include "markdown";
  def short: .[0:10];
  def change: if .direction == "faster" then "speed-up" else "slowdown" end;
  if .outcome == "named" then
    .path[.named] as $c
    | "🔎 The \(change) came with `\($c.sha | short)` “\($c.subject | markdown_name)” (commit \(.named) of \($commits) after the merge-base): "
      + (if $c.speedup then "speedup \($c.speedup * 100 | round / 100)x against the merge-base, " else "" end)
      + "at confidence \(.confidence)."
  elif .outcome == "interval" then
    "🔎 The \(change) came with one of the commits after `\(.path[.interval[0]].sha | short)` up to `\(.path[.interval[1]].sha | short)` (commits \(.interval[0] + 1) to \(.interval[1]) of \($commits)): the interval left, since \(.reason | markdown_name)."
  else
    "🔎 Nothing to bisect: the pull request'"'"'s head is not shown \(.direction) than the merge-base by the bisection'"'"'s own comparison (at confidence \(.comparison_confidence * 10000 | floor / 10000)), so no commit of it can be named."
  end' "$json")
add "$line"
# The bisection's own report, folded; in the comment only when it is small (the job summary has it always).
if [ -f "$bisect_md" ]; then
  sinks=("$markdown" "${GITHUB_STEP_SUMMARY:-/dev/null}")
  if [ "$(wc -c < "$bisect_md")" -gt 20000 ]; then
    add ""
    add "The bisection's table, commit by commit, is in the job summary of this run."
    sinks=("${GITHUB_STEP_SUMMARY:-/dev/null}")
  fi
  for sink in "${sinks[@]}"; do
    {
      printf '\n<details><summary>The bisection, commit by commit</summary>\n\n'
      cat "$bisect_md"
      printf '\n</details>\n'
    } >> "$sink"
  done
fi
if [ -f "$html" ] && [ -n "${SPEEDUP_ARTIFACT:-}" ]; then
  add ""
  add "📈 The speedup along the pull request's commits is drawn in the artifact \`${SPEEDUP_ARTIFACT}-bisect\`."
  echo "html=$html" >> "${GITHUB_OUTPUT:-/dev/null}"
fi

# The notice, written by jq from the JSON itself: the subject never passes through a shell variable.
jq -r -L "$here" --arg commits "$commits" 'include "workflow-commands";
  if .outcome == "named" then .path[.named] as $c | "bisect: commit \(.named) of \($commits), \($c.sha[0:10]) \"\($c.subject)\", at confidence \(.confidence)"
  elif .outcome == "interval" then "bisect: one of commits \(.interval[0] + 1) to \(.interval[1]) of \($commits): \(.reason)"
  else "bisect: nothing to bisect" end
  | annotation("notice"; "cargo-speedup"; .)' "$json"
exit 0
