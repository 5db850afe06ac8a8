#!/usr/bin/env bash
# The second stage of the two-stage pattern, in a `workflow_run` workflow that has the write token: reads the
# report a measuring workflow uploaded (SPEEDUP_POST: cargo-speedup.md, cargo-speedup.json,
# cargo-speedup-pr.txt), checks that the pull request it names is the one whose run uploaded it, appends the
# report to the job summary and sets the outputs the comment step takes (markdown, pr, notable). Builds and
# runs nothing of the pull request's: its files are only read as data.
set -uo pipefail
here=$(dirname "${BASH_SOURCE[0]}")

# The annotation `::error title=cargo-speedup::MESSAGE`, MESSAGE encoded as GitHub's rule says
# (workflow-commands.jq): it may quote what the uploaded files hold.
fail() {
  jq -nr -L "$here" --arg message "$1" \
    'include "workflow-commands"; annotation("error"; "cargo-speedup"; $message)'
  exit 2
}

dir=$SPEEDUP_POST
for file in cargo-speedup.md cargo-speedup.json cargo-speedup-pr.txt; do
  [ -f "$dir/$file" ] ||
    fail "no $file in '$dir': the measuring workflow must upload \${{ runner.temp }}/cargo-speedup* (docs/action.md §3: pull requests from forks)"
done
pr=$(tr -d '[:space:]' < "$dir/cargo-speedup-pr.txt")
[[ "$pr" =~ ^[0-9]{1,10}$ ]] || fail "'$dir/cargo-speedup-pr.txt' does not hold a pull-request number"
notable=$(jq -r '.gate.failed or ([.benchmarks[] | select(.verdict == "faster" or .verdict == "slower")] | length > 0)' \
  "$dir/cargo-speedup.json") || fail "'$dir/cargo-speedup.json' is not a cargo-speedup JSON report"
# The uploaded number is the pull request's word: it must name the pull request whose head was measured.
if [ -n "${SPEEDUP_RUN_HEAD_SHA:-}" ]; then
  pr_head=$(gh api "repos/$SPEEDUP_REPOSITORY/pulls/$pr" --jq .head.sha) ||
    fail "pull request #$pr of $SPEEDUP_REPOSITORY could not be read"
  [ "$pr_head" = "$SPEEDUP_RUN_HEAD_SHA" ] ||
    fail "pull request #$pr's head is $pr_head, not the measured $SPEEDUP_RUN_HEAD_SHA: not posting"
fi
cat "$dir/cargo-speedup.md" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
{
  echo "markdown=$dir/cargo-speedup.md"
  echo "pr=$pr"
  echo "notable=$notable"
} >> "${GITHUB_OUTPUT:-/dev/null}"
