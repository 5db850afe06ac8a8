#!/usr/bin/env bash
# Runs `cargo speedup BASE...HEAD` (or BASE..HEAD), appends the Markdown report to the job summary, sets the
# step outputs (verdict, speedup, report, markdown, html), annotates confirmed regressions, and exits with
# cargo-speedup's status: 0 no failure, 1 the gate failed, 2 unusable input.
set -uo pipefail

fail() {
  echo "::error title=cargo-speedup::$1"
  exit 2
}

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

out=${SPEEDUP_OUT:-${RUNNER_TEMP:-/tmp}}
markdown="$out/cargo-speedup.md"
json="$out/cargo-speedup.json"
html="$out/cargo-speedup.html"
rm -f "$markdown" "$json" "$html"

# shellcheck disable=SC2086 # SPEEDUP_ARGS is a list of arguments
cargo speedup "$base_rev$separator$head_rev" \
  --confidence "${SPEEDUP_CONFIDENCE:-0.95}" \
  --fail-on "${SPEEDUP_FAIL_ON:-suite}" \
  --threshold "${SPEEDUP_THRESHOLD:-0}" \
  --format markdown -o "$markdown" --json "$json" --html "$html" \
  ${SPEEDUP_ARGS:-}
status=$?

if [ ! -f "$json" ]; then
  fail "cargo speedup could not compare '$base_rev' and '$head_rev' (exit status $status): see the log above"
fi
cat "$markdown" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
{
  echo "verdict=$(jq -r '.verdict' "$json")"
  echo "speedup=$(jq -r '.suite.hpt.r_speedup // empty' "$json")"
  echo "report=$json"
  echo "markdown=$markdown"
  if [ -f "$html" ]; then echo "html=$html"; fi
} >> "${GITHUB_OUTPUT:-/dev/null}"

jq -r '.benchmarks[] | select(.verdict == "slower") |
  "::warning title=cargo-speedup::\(.name) is slower: median speedup \(.speedup.median)"' "$json"
jq -r '.gate.reasons[] | "::error title=cargo-speedup::\(.)"' "$json"
exit "$status"
