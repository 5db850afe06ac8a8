//! Text from the input made inert at each place it is written: one function per sink, each with its rule.
//!
//! Benchmark names come from the benchmarks' own output or from a results file, and messages, gate
//! reasons and origins quote them: in a pull request, its author chooses them. Every sink reads some
//! characters as instructions: a terminal its escape sequences, a CI log its workflow commands, GitHub's
//! Markdown its mentions, links and HTML, a browser its tags, a spreadsheet its formulas. Each function here
//! writes untrusted text for one sink so that nothing in it acts there, and keeps it readable: what is
//! escaped is shown, not dropped, so that two names that differ still look different.
//!
//! | Sink | Function | Where |
//! |---|---|---|
//! | terminal, CI log, standard error | [`terminal`], [`cut`], [`width`] | the table, the race table, stderr, errors |
//! | Markdown (GitHub-flavoured) | [`markdown_name`], [`markdown_text`] | `markdown::escape_name`/`escape_text` |
//! | HTML | [`html`] | `html::svg::escape`, through which every page text goes |
//! | CSV | [`csv_text`] | the text cells of both CSV reports and of `speeduptest`'s `.out` |
//! | JSON (data, values kept) | [`write_json`], [`json`] | every JSON report and record file |
//!
//! JSON is data: a name keeps its exact value there. serde escapes only the C0 controls (ESC becomes
//! `\u001b`) and leaves DEL, the C1 controls (CSI among them) and the bidi and zero-width characters raw;
//! [`write_json`] writes those as `\u` escapes too, which every JSON reader decodes to the same string, so
//! that a report printed on a terminal holds nothing the terminal acts on. A consumer that shows a name
//! must still apply its own sink's rule (`docs/security.md`). GitHub
//! workflow commands are written only by the Action's scripts, which encode them with GitHub's rule
//! (`action/workflow-commands.jq`); the tool's own output defuses them through [`terminal`].
//!
//! What every text sink shows escaped ([`is_hidden`]): the C0 controls (NUL to US, including TAB, LF, CR,
//! ESC, BEL), DEL, the C1 controls (U+0080 to U+009F, including CSI and NEL), the line and paragraph
//! separators (U+2028, U+2029) and the format characters that reorder or hide text (the Unicode general
//! category Cf: the bidirectional embeddings, overrides and isolates U+202A to U+202E and U+2066 to U+2069,
//! the marks U+200E, U+200F and U+061C of Unicode's bidi algorithm (UAX #9), the zero-width characters
//! U+200B to U+200D and U+2060 to U+2064, U+FEFF, the soft hyphen, the tag characters). They are written
//! as `\0`, `\t`, `\n`, `\r`, `\e` or `\u{hex}`, as Rust's and most shells' escapes read (CVE-2021-42574,
//! "Trojan Source", is why the bidi controls are never written raw). A backslash in a name is written as it
//! is: `\e` in a report may be a backslash and an `e`, which is inert either way.
//!
//! Display widths come from `unicode-width`, which comfy-table already depends on (so it adds no crate to
//! the build): a CJK character takes two columns, which a count of characters would miss.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Whether `c` is never written raw to a text sink: a control character (C0, DEL, C1), a line or paragraph
/// separator, or a format character (Unicode category Cf) that reorders or hides text.
pub(crate) fn is_hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || is_format(c)
}

/// The Unicode general category Cf (format characters), as of Unicode 15.1.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Appends `c` as a visible escape: `\0`, `\t`, `\n`, `\r`, `\e`, else `\u{hex}`.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\u{1b}' => out.push_str("\\e"),
        c => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
    }
}

/// `text` with every [`is_hidden`] character escaped, and the one sequence a GitHub Actions runner reads as a
/// workflow command anywhere in a line, `##[` (its older syntax, `##[error]message`), written `##\u{5b}`.
fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) && !text.contains("##[") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden(c) {
            push_escaped(&mut out, c);
        } else if c == '[' && out.ends_with("##") {
            out.push_str("\\u{5b}");
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text for a terminal, a CI log or standard error: one line, nothing that a terminal or a runner acts on.
///
/// Rule: every [`is_hidden`] character is shown escaped (`\e`, `\n`, `\u{202e}`), so that no escape
/// sequence (CSI, OSC such as window titles and OSC 8 links), BEL, NUL, carriage return or bidi override
/// reaches the terminal and no newline starts a line the text chose (ECMA-48 defines the controls; Unicode's
/// UAX #9 the bidi ones). GitHub Actions reads `::command::` at the start of a line, after leading white
/// space, and `##[command]` anywhere in one (`ActionCommand.TryParseV2` and `TryParse` of actions/runner):
/// a text that begins with `::` after white space has its first `:` written `\u{3a}`, and `##[` is written
/// `##\u{5b}`, whatever the environment, since the same output reaches a log when `GITHUB_ACTIONS` is
/// not passed on (a container step, a wrapper script). The rule is idempotent: escaping an escaped text
/// changes nothing.
pub(crate) fn terminal(text: &str) -> String {
    line_start(&visible(text)).into_owned()
}

/// `text` as the beginning of a line of a CI log: when it begins with `::` after white space (what GitHub
/// Actions reads as a workflow command), its first `:` is written `\u{3a}`. [`terminal`] applies it to the
/// whole text; a caller that breaks a text into lines (`report::format::wrap`) applies it to each line.
pub(crate) fn line_start(text: &str) -> Cow<'_, str> {
    let body = text.trim_start();
    if body.starts_with("::") {
        let lead = text.len() - body.len();
        Cow::Owned(format!("{}\\u{{3a}}{}", &text[..lead], &body[1..]))
    } else {
        Cow::Borrowed(text)
    }
}

/// How many terminal columns `text` takes (a wide character two, a combining mark none).
pub(crate) fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` cut to at most `columns` terminal columns, ending in `…` when cut; whole characters only, each
/// counted at its display width.
pub(crate) fn cut(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    let Some(room) = columns.checked_sub(1) else {
        return String::new();
    };
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// The longest beginning of `chars` that takes at most `columns` columns.
fn take_columns(chars: &[char], columns: usize) -> usize {
    let mut used = 0;
    chars
        .iter()
        .take_while(|c| {
            used += c.width().unwrap_or(0);
            used <= columns
        })
        .count()
}

/// `text` shortened to at most `columns` terminal columns by eliding its middle: a quarter of the room
/// keeps the beginning, the rest the end, with `…` between (`docs/verdicts.md` §6). The end is kept
/// longest because that is where a suite's names differ: `group/a_long_common_stem_case_1` and
/// `..._case_2`. Whole characters only, counted at their display width.
pub(crate) fn elide(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    let Some(room) = columns.checked_sub(1) else {
        return String::new();
    };
    let chars: Vec<char> = text.chars().collect();
    let head = take_columns(&chars, room / 4);
    let used: usize = chars[..head].iter().map(|c| c.width().unwrap_or(0)).sum();
    let mut reversed: Vec<char> = chars[head..].to_vec();
    reversed.reverse();
    let tail = take_columns(&reversed, room - used);
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// `text` shortened to at most `columns` columns around its character `at`: a quarter of the room keeps
/// the beginning, then `…`, then the text from a few characters before `at`, then `…` when the end does not
/// fit. For names whose [`elide`]d forms coincide: they differ at `at`, which stays in view.
fn elide_around(text: &str, columns: usize, at: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let Some(room) = columns.checked_sub(2) else {
        return elide(text, columns);
    };
    let head = take_columns(&chars, room / 4).min(at);
    let used: usize = chars[..head].iter().map(|c| c.width().unwrap_or(0)).sum();
    let from = at.saturating_sub(3).max(head);
    let mut out: String = chars[..head].iter().collect();
    if from > head {
        out.push('…');
    }
    let rest = &chars[from..];
    let keep = take_columns(rest, room - used);
    out.extend(&rest[..keep]);
    if keep < rest.len() {
        out.push('…');
    }
    out
}

/// Short forms of a set of names, each at most `columns` columns and no two alike (`docs/verdicts.md` §6):
/// a name that fits stays whole, a longer one is [`elide`]d, and names whose elided forms coincide keep in
/// view the character where each first differs from the others (or, should that not tell them apart,
/// stay whole).
pub(crate) struct Shortened {
    forms: std::collections::HashMap<String, String>,
    columns: usize,
}

impl Shortened {
    /// The short forms of `names`, which are already the sink's text (e.g. [`terminal`]).
    pub(crate) fn new<'a>(names: impl IntoIterator<Item = &'a str>, columns: usize) -> Shortened {
        let mut names: Vec<&str> = names.into_iter().collect();
        names.sort_unstable();
        names.dedup();
        let mut forms: std::collections::HashMap<String, String> = names
            .iter()
            .map(|n| (n.to_string(), elide(n, columns)))
            .collect();
        let mut by_form: std::collections::HashMap<&str, Vec<&str>> = Default::default();
        for n in &names {
            by_form.entry(forms[*n].as_str()).or_default().push(n);
        }
        let mut fixes = Vec::new();
        for group in by_form.values().filter(|g| g.len() > 1) {
            for n in group {
                // Where this name first differs from the others of its group (in characters).
                let at = group
                    .iter()
                    .filter(|o| *o != n)
                    .map(|o| n.chars().zip(o.chars()).take_while(|(a, b)| a == b).count())
                    .max()
                    .unwrap_or(0);
                fixes.push((n.to_string(), elide_around(n, columns, at)));
            }
        }
        forms.extend(fixes);
        // Should two forms still coincide (three names or more differing at different places), those
        // names stay whole: wider than the room, but never read alike.
        let mut count: std::collections::HashMap<String, usize> = Default::default();
        for form in forms.values() {
            *count.entry(form.clone()).or_default() += 1;
        }
        for (name, form) in forms.iter_mut() {
            if count[form.as_str()] > 1 {
                *form = name.clone();
            }
        }
        Shortened { forms, columns }
    }

    /// The short form of `name`; a name outside the set is [`elide`]d.
    pub(crate) fn get(&self, name: &str) -> String {
        self.forms
            .get(name)
            .cloned()
            .unwrap_or_else(|| elide(name, self.columns))
    }
}

/// The invisible character put where GitHub would otherwise see a mention or a link: U+2060 WORD JOINER,
/// zero-width and not a line-break opportunity.
const JOINER: char = '\u{2060}';

/// Breaks what GitHub turns into a mention or a link in `text` (already free of hidden characters): a
/// word joiner after every `@` (mentions `@user`, `@org/team`, and e-mail autolinks need the `@` directly
/// before the name), inside `://` (GFM's extended URL autolinks need the scheme directly followed by
/// `//`), and between `www` and `.` (GFM's `www.` autolinks).
fn unlinked(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    for (i, c) in text.char_indices() {
        out.push(c);
        let rest = &text[i + c.len_utf8()..];
        let www = c.eq_ignore_ascii_case(&'w')
            && rest.starts_with('.')
            && i.checked_sub(2)
                .and_then(|start| text.get(start..i))
                .is_some_and(|ww| ww.eq_ignore_ascii_case("ww"));
        if c == '@' || (c == ':' && rest.starts_with("//")) || www {
            out.push(JOINER);
        }
    }
    out
}

/// A benchmark name as literal GitHub-flavoured Markdown text, in a table cell or in a sentence.
///
/// Rule: hidden characters are shown escaped as on the terminal (so a newline never splits a row); `&`,
/// `<` and `>` become entities (GitHub renders some HTML); the ASCII punctuation that Markdown reads
/// (`\`, `` ` ``, `*`, `_`, `[`, `]`, `#`, `~`, `!`, `|`) is backslash-escaped (CommonMark §2.4; `\|` is how
/// GFM tables take a pipe); and a word joiner (U+2060) is put after each `@`, inside each `://` and in each
/// `www.`, so that GitHub neither mentions anyone nor makes a link. The name stays readable, and copying it
/// gives the name with invisible joiners where an `@` or a URL was; the JSON and CSV reports have it exact.
/// Code spans were not chosen: they would change how every name looks, and a name's own backticks would
/// need fences longer than any run inside it.
pub(crate) fn markdown_name(text: &str) -> String {
    let shown = visible(text);
    let mut out = String::with_capacity(shown.len() + 8);
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '|' | '*' | '_' | '`' | '[' | ']' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    unlinked(&out)
}

/// A message, reason or hint (which may quote names) as GitHub-flavoured Markdown: its own code spans kept,
/// nothing else active.
///
/// Rule: hidden characters are shown escaped as on the terminal; `&` and `<` become entities (no HTML, no
/// `<...>` autolink); `\` and `|` are backslash-escaped (no table cell is split, and no backslash of the
/// text can undo an escape that follows it); a `]` directly followed by `(` is backslash-escaped, so that no
/// inline link or image is made, whatever its scheme; the first character that is not a space, when it is
/// `#`, `>`, `-`, `+`, `*` or `[`, is backslash-escaped, so that a text written after a list marker becomes
/// no heading, quote, nested list, task box or link definition; and the word joiner of [`markdown_name`]
/// goes after each `@`, inside `://` and in `www.`. Backticks, emphasis and other punctuation are kept, since
/// the tool's own sentences use them (hints quote flags in code spans): a name's backtick can at most start
/// a code span, where nothing is active either.
pub(crate) fn markdown_text(text: &str) -> String {
    let shown = visible(text);
    let first = shown
        .char_indices()
        .find(|(_, c)| *c != ' ')
        .map(|(i, _)| i);
    let mut out = String::with_capacity(shown.len() + 8);
    for (i, c) in shown.char_indices() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '\\' | '|' => {
                out.push('\\');
                out.push(c);
            }
            ']' if shown[i + 1..].starts_with('(') => out.push_str("\\]"),
            '#' | '>' | '-' | '+' | '*' | '[' if Some(i) == first => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    unlinked(&out)
}

/// Text for HTML or SVG, as element text or as a quoted attribute value.
///
/// Rule: `&`, `<`, `>`, `"` and `'` become entities (OWASP's XSS prevention rule for HTML content and
/// quoted attributes), and hidden characters are shown escaped as on the terminal, so that no bidi override
/// reorders the page and no control character is written raw (HTML forbids most of them). Line breaks are
/// shown escaped too: a caller that keeps lines (a `<pre>`) escapes each line.
pub(crate) fn html(text: &str) -> String {
    let shown = visible(text);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A text cell of a CSV report (a name, a label, messages), before the quoting of RFC 4180.
///
/// Rule (OWASP, "CSV Injection"; ASVS 5.0 V1.2.10 adds NUL): a cell that begins with `=`, `+`, `-`, `@`, a
/// tab, a carriage return or NUL gets a leading `'`, so that a spreadsheet shows it as text instead of
/// evaluating a formula. Only text cells: a numeric cell legitimately begins with `-` (a negative shift),
/// and the tool writes numbers itself. The quote is part of the cell for a program reading the CSV, which
/// should read names from the JSON when it needs them exact. Hidden characters are shown escaped as
/// [`terminal`] shows them: a CSV file is often printed into a CI log, where a line break inside a quoted
/// cell would start a physical line that the runner reads as a workflow command (`::error ...`).
pub(crate) fn csv_text(text: &str) -> Cow<'_, str> {
    let shown = if text.chars().any(is_hidden) || text.contains("##[") || text.starts_with("::") {
        Cow::Owned(terminal(text))
    } else {
        Cow::Borrowed(text)
    };
    if shown.starts_with(['=', '+', '-', '@', '\t', '\r', '\0']) {
        Cow::Owned(format!("'{shown}"))
    } else {
        shown
    }
}

/// `text`, a JSON document as serde wrote it, with every hidden character ([`is_hidden`]) that serde left
/// raw written as a `\u` escape (a surrogate pair above U+FFFF), and every `##[` written `##\u005b`: the same
/// JSON value, nothing a terminal acts on, and no workflow command when the document is printed into a CI
/// log (actions/runner's older syntax, `##[command]`, is read anywhere in a line). serde writes such
/// characters, and `#`, only inside strings (its structure is ASCII without `#`, and the C0 controls inside
/// strings it escapes itself; no escape of serde's holds `#`), so a raw newline is the pretty printer's own
/// and stays, and every `##[` is text of a string.
pub(crate) fn json(text: &str) -> Cow<'_, str> {
    // Below DEL, serde writes nothing hidden raw but the newlines: only DEL and non-ASCII text need a look,
    // and a report of ASCII names (nearly every one) is passed by one scan of its bytes.
    let escaped = |c: char| c >= '\u{7f}' && is_hidden(c);
    let command = text.contains("##[");
    if !command && !any_char_from_del(text, escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    if command {
        out = out.replace("##[", "##\\u005b");
    }
    Cow::Owned(out)
}

/// Whether a character of `text` from DEL (U+007F) up is `wanted`: the ASCII below DEL is skipped 64 bytes
/// at a time (a block's largest byte, which the compiler computes without a branch per byte), and only the
/// characters of the blocks that hold others are decoded.
fn any_char_from_del(text: &str, wanted: impl Fn(char) -> bool) -> bool {
    const BLOCK: usize = 64;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + BLOCK).min(bytes.len());
        if bytes[at..end].iter().fold(0u8, |top, &b| top.max(b)) < 0x7f {
            at = end;
            continue;
        }
        // A block may begin inside a character: decode from the character's first byte.
        let mut start = at;
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut chars = text[start..].char_indices();
        for (offset, c) in chars.by_ref() {
            if wanted(c) {
                return true;
            }
            if start + offset + c.len_utf8() >= end {
                at = start + offset + c.len_utf8();
                break;
            }
        }
        at = at.max(end);
    }
    false
}

/// Writes `value` as pretty JSON to `out` through [`json`]: the one way the reports and record files write
/// JSON.
pub(crate) fn write_json<T: serde::Serialize + ?Sized>(
    out: &mut dyn std::io::Write,
    value: &T,
) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    out.write_all(json(&text).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_finds_a_hidden_character_wherever_the_blocks_of_its_scan_fall() {
        // Each hidden character (one to four bytes) at every offset across two 64-byte blocks, after ASCII or
        // after other non-ASCII text, and visible non-ASCII text alone, which stays as it is.
        for hidden in ['\u{7f}', '\u{9b}', '\u{202e}', '\u{e0041}'] {
            for before in 0..140 {
                for filler in ["a", "é"] {
                    let mut text = format!("\"{}", filler.repeat(before / filler.len()));
                    let plain = format!("{text}→ü\"");
                    assert!(matches!(json(&plain), Cow::Borrowed(_)), "{plain:?}");
                    text.push(hidden);
                    text.push_str("z\"");
                    let safe = json(&text);
                    assert!(!safe.contains(hidden), "{before} {filler} {hidden:?}");
                    let back: String = serde_json::from_str(&safe).expect("JSON");
                    assert_eq!(format!("\"{back}\""), text);
                }
            }
        }
    }

    #[test]
    fn json_starts_no_workflow_command_and_keeps_the_value() {
        for name in [
            "x ##[add-mask]secret",
            "##[error]a ##[b",
            "\\##[x",
            "##[é\u{202e}",
        ] {
            let text = serde_json::to_string_pretty(&[name]).expect("JSON");
            let safe = json(&text);
            assert!(!safe.contains("##["), "{safe}");
            let back: Vec<String> = serde_json::from_str(&safe).expect("JSON");
            assert_eq!(back, [name]);
        }
        assert!(matches!(json("[\"# [ ##\"]"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_keeps_every_value_and_holds_no_raw_control() {
        let names = [
            "plain/name",
            "esc \u{1b}[2J bel \u{7}",
            "del \u{7f} csi \u{9b}31m nel \u{85}",
            "rlo \u{202e}txt.exe lsep \u{2028} zwj \u{200d}",
            "tag \u{e0041} emoji 😀 quote \" backslash \\ newline \n",
        ];
        let text = serde_json::to_string_pretty(&names).unwrap();
        let safe = json(&text);
        // The same value, read back by an independent reader (serde_json's own parser).
        let back: Vec<String> = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, names);
        // Nothing hidden left but the pretty printer's newlines; the plain document is borrowed untouched.
        assert!(!safe.chars().any(|c| c != '\n' && is_hidden(c)), "{safe}");
        assert!(
            safe.contains(r"\u009b") && safe.contains(r"\u202e") && safe.contains(r"\udb40\udc41")
        );
        assert!(matches!(json("[\n  \"a\"\n]"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_terminal_sees_escapes_not_controls() {
        assert_eq!(
            terminal("\u{1b}[2J\u{1b}[H\u{1b}]0;pwned title\u{7}"),
            "\\e[2J\\e[H\\e]0;pwned title\\u{7}"
        );
        assert_eq!(terminal("a\nb\r\tc\0"), "a\\nb\\r\\tc\\0");
        assert_eq!(terminal("x\u{85}y\u{9b}31m"), "x\\u{85}y\\u{9b}31m");
        assert_eq!(terminal("DEL\u{7f}"), "DEL\\u{7f}");
        assert_eq!(terminal("safe\u{202e}txt.exe"), "safe\\u{202e}txt.exe");
        for c in [
            '\u{202a}', '\u{202d}', '\u{2066}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{061c}',
            '\u{2028}', '\u{feff}', '\u{200b}',
        ] {
            let shown = terminal(&format!("a{c}b"));
            assert_eq!(shown, format!("a\\u{{{:x}}}b", u32::from(c)));
        }
        assert_eq!(terminal("parse/json é 基准"), "parse/json é 基准");
    }

    #[test]
    fn workflow_commands_are_defused_in_terminal_text() {
        assert_eq!(
            terminal("evil\n::error title=forged::x"),
            "evil\\n::error title=forged::x"
        );
        assert_eq!(terminal("::error::forged"), "\\u{3a}:error::forged");
        assert_eq!(terminal("  ::warning::x"), "  \\u{3a}:warning::x");
        assert_eq!(terminal("a ##[add-mask]b"), "a ##\\u{5b}add-mask]b");
        assert_eq!(terminal("crate::module::bench"), "crate::module::bench");
        assert_eq!(terminal(":one"), ":one");
        let hostile = "  ::x::##[e]\u{1b}\n";
        assert_eq!(terminal(&terminal(hostile)), terminal(hostile));
    }

    #[test]
    fn cutting_counts_columns_and_marks_the_cut() {
        assert_eq!(cut("abcdef", 6), "abcdef");
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abcdef", 1), "…");
        assert_eq!(cut("abcdef", 0), "");
        // Two columns per CJK character: five columns hold two of them and the ellipsis.
        assert_eq!(cut("基准测试", 5), "基准…");
        assert_eq!(width("基准…"), 5);
        assert_eq!(width("é"), 1);
    }

    #[test]
    fn eliding_keeps_the_beginning_and_the_longer_end() {
        assert_eq!(elide("abcdef", 6), "abcdef");
        assert_eq!(elide("abcdefghijklmnop", 9), "ab…klmnop");
        assert_eq!(width(&elide("abcdefghijklmnop", 9)), 9);
        assert_eq!(elide("abcdef", 1), "…");
        assert_eq!(elide("abcdef", 0), "");
        assert_eq!(elide("基准测试基准测试", 7), "…准测试");
    }

    #[test]
    fn shortened_names_are_never_alike() {
        // criterion.rs #272: two names sharing their first 60 characters.
        let stem = "a_bench_with_a_very_long_name_that_goes_on_and_on_for_a_while";
        let one = format!("{stem}_first");
        let two = format!("{stem}_second");
        let short = Shortened::new([one.as_str(), two.as_str()], 30);
        let (a, b) = (short.get(&one), short.get(&two));
        assert_ne!(a, b);
        assert!(a.ends_with("_first") && b.ends_with("_second"), "{a} {b}");
        assert!(a.starts_with("a_bench") && a.contains('…'), "{a}");
        assert!(width(&a) <= 30 && width(&b) <= 30, "{a} {b}");

        // Names that differ only in the middle, with a long common end: the difference stays in view.
        let end = "_and_a_common_ending_that_is_long_enough_to_fill_the_room";
        let x = format!("group/case_{}{end}", "x".repeat(10));
        let y = format!("group/case_{}{end}", "y".repeat(10));
        let short = Shortened::new([x.as_str(), y.as_str(), "short"], 30);
        let (a, b) = (short.get(&x), short.get(&y));
        assert_ne!(a, b);
        assert!(a.contains("xxx") && b.contains("yyy"), "{a} {b}");
        assert!(width(&a) <= 30 && width(&b) <= 30, "{a} {b}");
        assert_eq!(short.get("short"), "short");
    }

    #[test]
    fn many_long_names_alike_at_both_ends_stay_distinct() {
        // Thirty names with a common beginning and a common end, differing in the middle (one, two or
        // three digits), and their prefixes: every short form differs from every other.
        let stem = "group/a_common_beginning_long_enough_";
        let end = "_and_a_common_end_long_enough_to_fill_any_room";
        let mut names: Vec<String> = (0..30).map(|i| format!("{stem}{}{end}", i * 37)).collect();
        names.push(stem.to_string());
        names.push(format!("{stem}{end}"));
        for columns in [12, 30, 60] {
            let short = Shortened::new(names.iter().map(String::as_str), columns);
            let forms: std::collections::HashSet<String> =
                names.iter().map(|n| short.get(n)).collect();
            assert_eq!(forms.len(), names.len(), "{columns}: {forms:?}");
        }
    }

    #[test]
    fn markdown_names_neither_mention_nor_link() {
        assert_eq!(markdown_name("@octocat"), "@\u{2060}octocat");
        assert_eq!(
            markdown_name("see https://evil.example and WWW.evil.example"),
            "see https:\u{2060}//evil.example and WWW\u{2060}.evil.example"
        );
        assert_eq!(
            markdown_name("a|b <script>*x*_y_\n`z`"),
            "a\\|b &lt;script&gt;\\*x\\*\\_y\\_\\\\n\\`z\\`"
        );
        assert_eq!(markdown_name("x\u{1b}\u{202e}"), "x\\\\e\\\\u{202e}");
        assert_eq!(markdown_name("[a](//evil)"), "\\[a\\](//evil)");
        assert_eq!(
            markdown_name("mail@evil.example"),
            "mail@\u{2060}evil.example"
        );
    }

    #[test]
    fn markdown_text_keeps_code_spans_and_nothing_active() {
        assert_eq!(
            markdown_text("use `--rounds 10` <now> | later [20%, 98%] > 5"),
            "use `--rounds 10` &lt;now> \\| later [20%, 98%] > 5"
        );
        assert_eq!(
            markdown_text("# big [x](//evil.example) ![i](//e) @team\n- y"),
            "\\# big [x\\](//evil.example) ![i\\](//e) @\u{2060}team\\\\n- y"
        );
        assert_eq!(markdown_text("  > quote"), "  \\> quote");
        assert_eq!(markdown_text("[ ] task"), "\\[ ] task");
        assert_eq!(markdown_text("-1 %"), "\\-1 %");
        // A backslash of the text cannot undo the escape of a pipe or a bracket.
        assert_eq!(markdown_text("a\\|b c\\](d)"), "a\\\\\\|b c\\\\\\](d)");
        assert_eq!(markdown_text("a ##[error]b"), "a ##\\\\u{5b}error]b");
    }

    #[test]
    fn html_escapes_markup_and_shows_controls() {
        assert_eq!(
            html("<script>\"'&\u{202e}\u{0}\n"),
            "&lt;script&gt;&quot;&#39;&amp;\\u{202e}\\0\\n"
        );
    }

    #[test]
    fn csv_text_cells_never_begin_a_formula() {
        for (cell, expected) in [
            (
                "=HYPERLINK(\"http://evil.example\",\"x\")",
                "'=HYPERLINK(\"http://evil.example\",\"x\")",
            ),
            ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            // A tab or CR is shown escaped: it can begin no formula, and no line break reaches a log.
            ("\tx", "\\tx"),
            ("\rx", "\\rx"),
            ("evil\n::error::x", "evil\\n::error::x"),
            ("=a\u{1b}b", "'=a\\eb"),
            ("parse/json", "parse/json"),
            ("a=b", "a=b"),
            ("", ""),
        ] {
            assert_eq!(csv_text(cell), expected);
        }
    }
}
