#!/usr/bin/env bash
# Links the uploaded HTML report from the job summary and from the Markdown report that the pull-request
# comment posts. Without the artifact's address (an upload that failed or a runner that gives none), names
# the artifact instead.
set -euo pipefail
if [ -n "${SPEEDUP_ARTIFACT_URL:-}" ]; then
  line="📊 [The HTML report with plots]($SPEEDUP_ARTIFACT_URL): artifact \`$SPEEDUP_ARTIFACT\`, a zip holding one page to open in a browser."
else
  line="📊 The HTML report with plots is attached to this workflow run as the artifact \`$SPEEDUP_ARTIFACT\`."
fi
printf '\n%s\n' "$line" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
if [ -n "${SPEEDUP_MARKDOWN:-}" ] && [ -f "$SPEEDUP_MARKDOWN" ]; then
  printf '\n%s\n' "$line" >> "$SPEEDUP_MARKDOWN"
fi
