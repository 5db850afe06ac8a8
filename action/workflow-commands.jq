# GitHub workflow commands (`::warning title=...::message`) written from text the pull request chose
# (benchmark names, the gate's reasons, which quote names), so that the text can only ever be the command's
# data. The action's scripts include it with `jq -L "$action_dir" 'include "workflow-commands"; ...'`.
#
# GitHub's rule (actions/toolkit, packages/core/src/command.ts, escapeData and escapeProperty; the runner
# decodes them in ActionCommand.cs): in the data, `%` -> `%25`, CR -> `%0D`, LF -> `%0A`; in a property
# value also `:` -> `%3A` and `,` -> `%2C`. With every line break encoded, nothing of the text can begin a
# line of its own, so it cannot print a command of its own (`::error::`, `::add-mask::`, `::stop-commands::`).
# Before that, the characters that the tool's terminal rule shows escaped (docs/security.md: C0 and C1
# controls, DEL, line and paragraph separators, Unicode format characters such as the bidi overrides) are
# shown the same way here (`\e`, `\n`, `\u{202e}`), so that an annotation shows what the report shows.

# Lower-case hexadecimal digits of a non-negative integer.
def hex_digits:
  if . < 16 then "0123456789abcdef"[.:. + 1]
  else ((. / 16 | floor) | hex_digits) + ("0123456789abcdef"[(. % 16):(. % 16) + 1])
  end;

# Whether the code point is never written raw (the tool's `inert::is_hidden`): a control character, a line
# or paragraph separator, or a format character (Unicode category Cf).
def hidden_code_point:
  . < 32 or (. >= 127 and . <= 159) or . == 8232 or . == 8233
  or . == 173 or (. >= 1536 and . <= 1541) or . == 1564 or . == 1757 or . == 1807
  or . == 2192 or . == 2193 or . == 2274 or . == 6158
  or (. >= 8203 and . <= 8207) or (. >= 8234 and . <= 8238)
  or (. >= 8288 and . <= 8292) or (. >= 8294 and . <= 8303)
  or . == 65279 or (. >= 65529 and . <= 65531)
  or . == 69821 or . == 69837 or (. >= 78896 and . <= 78911)
  or (. >= 113824 and . <= 113827) or (. >= 119155 and . <= 119162)
  or . == 917505 or (. >= 917536 and . <= 917631);

# The text as the tool's terminal rule shows it: every hidden character as `\0`, `\t`, `\n`, `\r`, `\e` or
# `\u{hex}`, and `##[` (which the runner reads as a command anywhere in a line) as `##\u{5b}`.
def visible:
  [explode[]
   | if hidden_code_point then
       if . == 0 then "\\0" elif . == 9 then "\\t" elif . == 10 then "\\n"
       elif . == 13 then "\\r" elif . == 27 then "\\e"
       else "\\u{" + hex_digits + "}" end
     else [.] | implode end]
  | join("")
  | gsub("##\\["; "##\\u{5b}");

# A command's data, encoded as GitHub's escapeData does.
def command_data: gsub("%"; "%25") | gsub("\r"; "%0D") | gsub("\n"; "%0A");

# A command's property value, encoded as GitHub's escapeProperty does.
def command_property: command_data | gsub(":"; "%3A") | gsub(","; "%2C");

# One annotation line: `::KIND title=TITLE::MESSAGE`, the title and the message shown visibly and encoded.
def annotation(kind; title; message):
  "::\(kind) title=\(title | visible | command_property)::\(message | visible | command_data)";
