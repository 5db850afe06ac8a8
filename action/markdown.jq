# Text the pull request chose (a commit subject, a benchmark name) as literal GitHub-flavoured Markdown, for
# the lines the action's scripts write into the job summary and the pull-request comment themselves. The
# scripts include it with `jq -L "$action_dir" 'include "markdown"; ...'`.
#
# The rule is the tool's `inert::markdown_name` (src/inert.rs), which writes every name of its own Markdown
# reports: hidden characters shown escaped as on the terminal (`visible`, workflow-commands.jq), so that no
# line break ends the line; `&`, `<` and `>` as entities (GitHub renders some HTML); the punctuation Markdown
# reads (`\ | * _ ` [ ] # ~ !`) backslash-escaped; and a word joiner (U+2060) after every `@`, inside every
# `://` and in every `www.`, so that nobody is mentioned and no link is made.

include "workflow-commands";

def markdown_name:
  visible
  | gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;")
  | gsub("(?<c>[\\\\|*_`\\[\\]#~!])"; "\\\(.c)")
  | gsub("@"; "@\u2060")
  | gsub("://"; ":\u2060//")
  | gsub("(?<w>[wW][wW][wW])\\."; "\(.w)\u2060.");
