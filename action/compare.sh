#!/usr/bin/env bash
# Runs `cargo speedup BASE...HEAD` (or BASE..HEAD), appends the Markdown report to the job summary, sets the
# step outputs (verdict, speedup, report, markdown, html, notable, failed, and the revisions compared for
# bisect.sh: compared-base, compared-head), annotates confirmed regressions, and exits with
# cargo-speedup's status: 0 no failure, 1 the gate failed, 2 unusable input.
# With SPEEDUP_PARTITION (a job of a matrix) it measures that part only, keeps its JSON report for the merge
# job and neither gates nor comments; with SPEEDUP_MERGE it merges the parts' reports instead of measuring.
# Every annotation goes through workflow-commands.jq: names and reasons are the pull request's text.
set -uo pipefail
here=$(dirname "${BASH_SOURCE[0]}")

# Prints the annotation `::KIND title=cargo-speedup::MESSAGE`, MESSAGE encoded as GitHub's rule says.
annotate() {
  jq -nr -L "$here" --arg kind "$1" --arg message "$2" \
    'include "workflow-commands"; annotation($kind; "cargo-speedup"; $message)'
}

fail() {
  annotate error "$1"
  exit 2
}

# pull_request_target runs with a write token and the secrets, on the pull request's code: building and
# running that code there hands both to whoever opened the pull request.
if [ "${SPEEDUP_EVENT:-}" = pull_request_target ] && [ "${SPEEDUP_ALLOW_PULL_REQUEST_TARGET:-false}" != true ]; then
  fail "refusing to build and run a pull request's code on pull_request_target, where a write token and the secrets are reachable; measure on 'pull_request' and post the comment from a 'workflow_run' workflow (docs/action.md §3: pull requests from forks), or set 'allow-pull-request-target: true' if every pull request is trusted"
fi

out=${SPEEDUP_OUT:-${RUNNER_TEMP:-/tmp}}
markdown="$out/cargo-speedup.md"
json="$out/cargo-speedup.json"
html="$out/cargo-speedup.html"
rm -f "$markdown" "$json" "$html" "$out/cargo-speedup-pr.txt"
fail_on=${SPEEDUP_FAIL_ON:-any}

if [ -n "${SPEEDUP_MERGE:-}" ]; then
  # shellcheck disable=SC2206 # the parts are globs, expanded here
  parts=($SPEEDUP_MERGE)
  [ -e "${parts[0]}" ] || fail "no part matches '$SPEEDUP_MERGE': download the measuring jobs' reports there first"
  what="merge ${parts[*]}"
  # shellcheck disable=SC2086 # SPEEDUP_ARGS is a list of arguments
  cargo speedup merge "${parts[@]}" \
    --confidence "${SPEEDUP_CONFIDENCE:-0.95}" \
    --fail-on "$fail_on" \
    --threshold "${SPEEDUP_THRESHOLD:-2}" \
    --format markdown -o "$markdown" --json "$json" --html "$html" \
    ${SPEEDUP_ARGS:-}
  status=$?
else
  head_rev=${SPEEDUP_HEAD:-${SPEEDUP_SHA:-HEAD}}
  [ -n "$head_rev" ] || head_rev=HEAD
  git rev-parse --verify --quiet "$head_rev^{commit}" >/dev/null ||
    fail "head revision '$head_rev' does not exist in this clone"

  if [ -n "${SPEEDUP_BASE:-}" ]; then
    base_rev=$SPEEDUP_BASE
    separator=...
  elif [ "${SPEEDUP_EVENT:-}" = pull_request ] || [ "${SPEEDUP_EVENT:-}" = pull_request_target ]; then
    base_rev=origin/${SPEEDUP_BASE_REF:-}
    git rev-parse --verify --quiet "$base_rev^{commit}" >/dev/null || base_rev=${SPEEDUP_PR_BASE_SHA:-}
    separator=...
  elif [ "${SPEEDUP_EVENT:-}" = push ] && [ -n "${SPEEDUP_BEFORE:-}" ] &&
    [ "${SPEEDUP_BEFORE}" != 0000000000000000000000000000000000000000 ]; then
    base_rev=$SPEEDUP_BEFORE
    separator=..
  else
    fail "no base revision: this ${SPEEDUP_EVENT:-unknown} event has no pull request and no previous commit; set the action's 'base' input"
  fi

  if ! git rev-parse --verify --quiet "$base_rev^{commit}" >/dev/null; then
    if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
      fail "base revision '$base_rev' is not in this shallow clone; set 'fetch-depth: 0' on actions/checkout"
    fi
    fail "base revision '$base_rev' does not exist; check the action's 'base' input"
  fi
  if [ "$separator" = ... ] && ! git merge-base "$base_rev" "$head_rev" >/dev/null 2>&1; then
    if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
      fail "the merge-base of '$base_rev' and '$head_rev' is missing from this shallow clone; set 'fetch-depth: 0' on actions/checkout"
    fi
    fail "'$base_rev' and '$head_rev' have no common ancestor"
  fi

  partition=()
  if [ -n "${SPEEDUP_PARTITION:-}" ]; then
    # A part's own gate is not the verdict: the merge job gates the whole suite.
    partition=(--partition "$SPEEDUP_PARTITION")
    fail_on=none
  fi
  what="compare '$base_rev' and '$head_rev'"
  # shellcheck disable=SC2086 # SPEEDUP_ARGS is a list of arguments
  cargo speedup "$base_rev$separator$head_rev" \
    --confidence "${SPEEDUP_CONFIDENCE:-0.95}" \
    --fail-on "$fail_on" \
    --threshold "${SPEEDUP_THRESHOLD:-2}" \
    --format markdown -o "$markdown" --json "$json" --html "$html" \
    ${partition[@]+"${partition[@]}"} \
    ${SPEEDUP_ARGS:-}
  status=$?
fi

if [ ! -f "$json" ]; then
  fail "cargo speedup could not $what (exit status $status): see the log above"
fi
# For a workflow_run workflow that posts the report (the two-stage pattern): which pull request it is for.
if [ -n "${SPEEDUP_PR_NUMBER:-}" ]; then
  echo "$SPEEDUP_PR_NUMBER" > "$out/cargo-speedup-pr.txt"
fi

if [ -n "${SPEEDUP_PARTITION:-}" ] && [ -z "${SPEEDUP_MERGE:-}" ]; then
  echo "cargo-speedup measured part ${SPEEDUP_PARTITION} of the benchmarks (here: $(jq '.benchmarks | length' "$json")); the merge job reports the verdict." \
    >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
  echo "report=$json" >> "${GITHUB_OUTPUT:-/dev/null}"
  exit 0
fi

cat "$markdown" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
{
  echo "verdict=$(jq -r '.verdict' "$json")"
  echo "speedup=$(jq -r '.suite.hpt.r_speedup // empty' "$json")"
  echo "report=$json"
  echo "markdown=$markdown"
  if [ -f "$html" ]; then echo "html=$html"; fi
  echo "failed=$(jq -r '.gate.failed' "$json")"
  if [ -z "${SPEEDUP_MERGE:-}" ]; then
    echo "compared-base=$base_rev"
    echo "compared-head=$head_rev"
  fi
  echo "notable=$(jq -r '.gate.failed or ([.benchmarks[] | select(.verdict == "faster" or .verdict == "slower")] | length > 0)' "$json")"
} >> "${GITHUB_OUTPUT:-/dev/null}"

jq -r -L "$here" 'include "workflow-commands"; .benchmarks[] | select(.verdict == "slower") |
  annotation("warning"; "cargo-speedup"; "\(.name) is slower: median speedup \(.speedup.median)")' "$json"
jq -r -L "$here" 'include "workflow-commands"; .gate.reasons[] | annotation("error"; "cargo-speedup"; .)' "$json"
exit "$status"
