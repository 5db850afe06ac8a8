//! A lexer for Rust source just deep enough to find method calls and module declarations: identifiers,
//! punctuation and literals with their byte spans, comments and whitespace skipped.
//!
//! It tells strings (every prefix: `b`, `c`, raw with any number of `#`), characters and lifetimes apart, so
//! that a method name inside a string, a comment (nested block comments included) or a character literal
//! is never taken for code. It never fails: an unterminated literal or comment runs to the end of the text.
//!
//! Why a lexer of our own, where proc-macro2's tokenizer (feature `span-locations`, for lines and byte
//! ranges) or syn (a parse of the file, then a visit of its method calls) would do the same work: both were
//! weighed, on this code and its tests, and both take a whole text or nothing. proc-macro2 returns a
//! `LexError` and no token at all for a text whose delimiters do not balance or whose literal does not end;
//! the published lines of base64's `benches/benchmarks.rs` that the tests of `calls` read (a function cut
//! after its settings, its brace left open) then yield no call, and so could a bench file that a newer rustc
//! lexes and the crate's lexer does not yet. syn lexes with proc-macro2 and parses a file of items only, so
//! it fails on these and on a fragment of statements. This lexer reads every token up to a fault, and the
//! tests of `calls` stay as they are only with it. The cost was measured on a 2-core machine that others
//! loaded (load average 20 to 24), each build twice: a clean release build of proc-macro2 1.0.107 with
//! `span-locations` and unicode-ident took 21.1 s and 20.0 s, and added 79 KB to a release binary that
//! printed its tokens; syn 3.0.10 (`full`, `parsing`, `visit`) with proc-macro2 took 351 s and 321 s and
//! added 1.81 MB (both crates are in the tree already, but as the derive macros' host dependencies, compiled
//! unoptimised: a normal dependency compiles them again at the release profile's level). In this crate, with
//! `tokens` rewritten on proc-macro2, the release binary grew by 81 KB (7,318,416 to 7,399,744 bytes) and the
//! crate's own release build took 311 s, against 287 s and 268 s without it just before and after: the load
//! moves it as much. The cost is modest; the reason to keep this lexer is what the crates do with a faulty
//! text.
//!
//! Must not: interpret anything beyond tokens (that is `calls`).

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An identifier or keyword (`r#name` included).
    Ident,
    /// One punctuation character (`.`, `(`, `:`, ...).
    Punct,
    /// A string literal of any kind, quotes and prefix included.
    Str,
    /// A character or byte literal.
    Char,
    /// A number literal, suffix included.
    Number,
    /// A lifetime or loop label (`'a`).
    Lifetime,
}

/// One token: its kind and its bytes `start..end` in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// The token's text in `source`.
    pub(super) fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }

    /// Whether it is the punctuation character `c`.
    pub(super) fn is_punct(&self, source: &str, c: char) -> bool {
        self.kind == Kind::Punct && source[self.start..].starts_with(c)
    }

    /// Whether it is the identifier `name`.
    pub(super) fn is_ident(&self, source: &str, name: &str) -> bool {
        self.kind == Kind::Ident && self.text(source) == name
    }
}

/// The tokens of `text`, in order.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let n = b.len();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && at(i + 1) == b'/' {
            while i < n && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && at(i + 1) == b'*' {
            i = block_comment_end(b, i);
            continue;
        }
        let start = i;
        let (kind, end) = if let Some(end) = string_end(b, i) {
            (Kind::Str, end)
        } else if c == b'b' && at(i + 1) == b'\'' {
            (Kind::Char, quote_end(text, i + 1).unwrap_or(n))
        } else if c == b'\'' {
            match quote_end(text, i) {
                Some(end) => (Kind::Char, end),
                None => (Kind::Lifetime, ident_end(b, i + 1)),
            }
        } else if c == b'r' && at(i + 1) == b'#' && is_ident_start(at(i + 2)) {
            (Kind::Ident, ident_end(b, i + 2))
        } else if is_ident_start(c) {
            (Kind::Ident, ident_end(b, i))
        } else if c.is_ascii_digit() {
            (Kind::Number, number_end(b, i))
        } else {
            // One character, whatever its width in UTF-8.
            let width = text[i..].chars().next().map_or(1, char::len_utf8);
            (Kind::Punct, i + width)
        };
        out.push(Token { kind, start, end });
        i = end.max(i + 1);
    }
    out
}

fn is_ident_start(c: u8) -> bool {
    c == b'_' || c.is_ascii_alphabetic() || c >= 0x80
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric() || b[i] >= 0x80) {
        i += 1;
    }
    i
}

/// The end of a number: digits, letters (suffixes, hex), `_`, a `.` followed by a digit, and the sign of
/// a decimal exponent.
fn number_end(b: &[u8], mut i: usize) -> usize {
    let hex = b
        .get(i + 1)
        .is_some_and(|c| matches!(c, b'x' | b'X' | b'o' | b'b'))
        && b[i] == b'0';
    while i < b.len() {
        let c = b[i];
        let sign = matches!(c, b'+' | b'-')
            && !hex
            && matches!(b[i - 1], b'e' | b'E')
            && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        let point = c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if c.is_ascii_alphanumeric() || c == b'_' || sign || point {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// The end of the (nested) block comment starting at `i`.
fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// The end of the string literal starting at `i` (`"`, `b"`, `c"`, `r"`, `r#"`, `br#"`, `cr"`, ...), or
/// `None` when none starts there.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(b[j], b'b' | b'c') {
        j += 1;
    }
    let raw = b.get(j) == Some(&b'r');
    if raw {
        j += 1;
    }
    let mut hashes = 0;
    while raw && b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    if b.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    if raw {
        while j < b.len() {
            if b[j] == b'"'
                && b[j + 1..]
                    .iter()
                    .take(hashes)
                    .filter(|&&h| h == b'#')
                    .count()
                    == hashes
            {
                return Some(j + 1 + hashes);
            }
            j += 1;
        }
        return Some(b.len());
    }
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    Some(b.len())
}

/// The end of the character literal whose opening quote is at `i`, or `None` when the quote opens a
/// lifetime or label (`'a` not followed by a closing quote).
fn quote_end(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    if b.get(i + 1) == Some(&b'\\') {
        let mut j = i + 3;
        while j < b.len() && b[j] != b'\'' && b[j] != b'\n' {
            j += 1;
        }
        return Some((j + 1).min(b.len()));
    }
    let width = text.get(i + 1..)?.chars().next()?.len_utf8();
    (b.get(i + 1 + width) == Some(&b'\'')).then_some(i + 2 + width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        tokens(text)
            .into_iter()
            .map(|t| (t.kind, t.text(text)))
            .collect()
    }

    #[test]
    fn comments_are_skipped_and_nested_block_comments_end_where_rust_ends_them() {
        let text = "a // x.measurement_time(1)\n/* b /* c */ d.sample_size(3) */ e";
        assert_eq!(kinds(text), [(Kind::Ident, "a"), (Kind::Ident, "e")]);
    }

    #[test]
    fn strings_of_every_kind_are_one_token() {
        let text = r####"f("a.sample_size(\"", b"x", r#"y".z("#, br##"q"#"##, c"k", 'c', b'\'', '\u{1F600}', 'é')"####;
        let got = kinds(text);
        let strings: Vec<&str> = got
            .iter()
            .filter(|(k, _)| matches!(k, Kind::Str | Kind::Char))
            .map(|(_, t)| *t)
            .collect();
        assert_eq!(
            strings,
            [
                r#""a.sample_size(\"""#,
                r#"b"x""#,
                r##"r#"y".z("#"##,
                r###"br##"q"#"##"###,
                r#"c"k""#,
                "'c'",
                r"b'\''",
                r"'\u{1F600}'",
                "'é'",
            ]
        );
        assert_eq!(got.last(), Some(&(Kind::Punct, ")")));
    }

    #[test]
    fn lifetimes_labels_and_raw_identifiers_are_not_strings() {
        let text = "fn f<'a>(x: &'a str) { 'outer: loop { break 'outer; } r#match }";
        let got = kinds(text);
        assert!(got.contains(&(Kind::Lifetime, "'a")));
        assert!(got.contains(&(Kind::Lifetime, "'outer")));
        assert!(got.contains(&(Kind::Ident, "r#match")));
        assert!(!got.iter().any(|(k, _)| matches!(k, Kind::Str | Kind::Char)));
    }

    #[test]
    fn numbers_keep_their_suffix_point_and_exponent_but_not_a_method_call() {
        let text = "3u64 0.5 1_000 2.5e-3 0x1F 7.max(1) 1..2";
        let numbers: Vec<&str> = kinds(text)
            .into_iter()
            .filter(|(k, _)| *k == Kind::Number)
            .map(|(_, t)| t)
            .collect();
        assert_eq!(
            numbers,
            ["3u64", "0.5", "1_000", "2.5e-3", "0x1F", "7", "1", "1", "2"]
        );
    }

    #[test]
    fn unterminated_literals_and_comments_run_to_the_end() {
        assert_eq!(
            kinds("a \"b.c("),
            [(Kind::Ident, "a"), (Kind::Str, "\"b.c(")]
        );
        assert_eq!(kinds("a /* b"), [(Kind::Ident, "a")]);
        assert_eq!(kinds("r#\"x"), [(Kind::Str, "r#\"x")]);
    }
}
