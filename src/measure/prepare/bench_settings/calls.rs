//! Where a bench file sets criterion's run length, and the rewrite that makes the command line win.
//!
//! Found lexically (`lexer`): a call `.measurement_time(EXPR)`, `.warm_up_time(EXPR)` or
//! `.sample_size(EXPR)` in code (not in a comment or a string), its argument found by balancing the
//! parentheses, wherever its line breaks fall. A call inside the `config = ...;` of a `criterion_group!`
//! invocation is told apart: the macro calls `configure_from_args()` after that expression, so the command
//! line (`--warm-up-time`, `--measurement-time`, `--sample-size`, which cargo speedup always passes) wins
//! over it, and it is neither an override nor rewritten; plain `cargo bench` honours it, which the estimate
//! of two plain runs uses. Every other call (a benchmark group's, typically) overrides the command line.
//!
//! The rewrite replaces the argument of each overriding call, and nothing else, by
//! `{ let _ = EXPR; VALUE }`: the original expression is still evaluated and type-checked (its variables
//! and imports stay used, so a `#![deny(warnings)]` file still builds), and the call gets the requested
//! value. Line numbers do not move: no line break is added or removed.
//!
//! Found on tokens rather than on a syntax tree (syn's, whose visit of method calls would find the same
//! calls): syn rejects a file it cannot parse whole and adds 1.81 MB to the binary, as `lexer` measures.
//!
//! Must not: read or write files (that is the parent module), or touch anything but these arguments.

use std::ops::Range;

use super::lexer::{Kind, Token, tokens};

/// A criterion setting a bench file can fix for its benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CriterionSetting {
    WarmUpTime,
    MeasurementTime,
    SampleSize,
}

impl CriterionSetting {
    const ALL: [CriterionSetting; 3] = [
        CriterionSetting::WarmUpTime,
        CriterionSetting::MeasurementTime,
        CriterionSetting::SampleSize,
    ];

    /// The method's name in Rust.
    pub(crate) fn name(self) -> &'static str {
        match self {
            CriterionSetting::WarmUpTime => "warm_up_time",
            CriterionSetting::MeasurementTime => "measurement_time",
            CriterionSetting::SampleSize => "sample_size",
        }
    }
}

/// One call of a setting method.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    pub method: CriterionSetting,
    /// The line of the method's name, from 1.
    pub line: usize,
    /// The bytes between the parentheses.
    pub arg: Range<usize>,
    /// Inside a `criterion_group!` `config = ...;`: the command line wins over it.
    pub in_config: bool,
    /// The argument's value when it is a literal: seconds for a `Duration` (`Duration::from_millis(500)`,
    /// `std::time::Duration::from_secs(3)`, `Duration::new(1, 0)`, ...), the count for a sample size.
    pub value: Option<f64>,
}

/// What the rewrite sets each method's argument to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Requested {
    pub warm_up_secs: f64,
    pub measurement_secs: f64,
    pub sample_size: u32,
}

impl Requested {
    /// The Rust expression of `method`'s requested value.
    fn expression(&self, method: CriterionSetting) -> String {
        match method {
            CriterionSetting::WarmUpTime => duration(self.warm_up_secs),
            CriterionSetting::MeasurementTime => duration(self.measurement_secs),
            CriterionSetting::SampleSize => self.sample_size.to_string(),
        }
    }
}

fn duration(secs: f64) -> String {
    format!("::std::time::Duration::from_secs_f64({secs:?})")
}

/// A `mod NAME;` declaration: the module's name and its `#[path = "..."]`, when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModDecl {
    pub name: String,
    pub path: Option<String>,
}

/// Every setting call of `source`, in order.
pub(crate) fn calls(source: &str) -> Vec<Call> {
    let toks = tokens(source);
    let configs = config_ranges(source, &toks);
    let mut found = Vec::new();
    for i in 0..toks.len() {
        let [dot, name, open] = match toks.get(i..i + 3) {
            Some(&[a, b, c]) => [a, b, c],
            _ => break,
        };
        if !dot.is_punct(source, '.') || !open.is_punct(source, '(') || name.kind != Kind::Ident {
            continue;
        }
        let Some(method) = CriterionSetting::ALL
            .into_iter()
            .find(|m| name.text(source) == m.name())
        else {
            continue;
        };
        let Some(close) = matching(source, &toks, i + 2) else {
            continue;
        };
        let arg_tokens = &toks[i + 3..close];
        found.push(Call {
            method,
            line: line_of(source, name.start),
            arg: toks[i + 2].end..toks[close].start,
            in_config: configs.iter().any(|r| r.contains(&i)),
            value: literal_value(source, arg_tokens, method),
        });
    }
    found
}

/// `source` with the argument of every overriding call (`!in_config`) set to the requested value.
pub(crate) fn rewrite(source: &str, requested: &Requested) -> String {
    let mut out = source.to_string();
    let mut overriding: Vec<Call> = calls(source).into_iter().filter(|c| !c.in_config).collect();
    overriding.sort_by_key(|c| std::cmp::Reverse(c.arg.start));
    for call in overriding {
        // A trailing comma goes; the line breaks stay, so that no line number moves.
        let text = &source[call.arg.clone()];
        let trimmed = text.trim_end();
        let original = match trimmed.strip_suffix(',') {
            Some(kept) => format!("{kept}{}", &text[trimmed.len()..]),
            None => text.to_string(),
        };
        let replacement = format!(
            "{{ let _ = {original}; {} }}",
            requested.expression(call.method)
        );
        out.replace_range(call.arg, &replacement);
    }
    out
}

/// The `mod NAME;` declarations of `source` (not inline modules), with their `#[path]` attributes.
pub(crate) fn module_declarations(source: &str) -> Vec<ModDecl> {
    let toks = tokens(source);
    let mut pending_path: Option<String> = None;
    let mut found = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if let Some(path) = path_attribute(source, &toks[i..]) {
            pending_path = Some(path);
        } else if t.is_ident(source, "mod") {
            if let (Some(name), Some(semi)) = (toks.get(i + 1), toks.get(i + 2)) {
                if name.kind == Kind::Ident && semi.is_punct(source, ';') {
                    found.push(ModDecl {
                        name: name.text(source).trim_start_matches("r#").to_string(),
                        path: pending_path.take(),
                    });
                }
            }
            pending_path = None;
        } else if [';', '{', '}'].iter().any(|&c| t.is_punct(source, c)) {
            pending_path = None;
        }
    }
    found
}

/// `#[path = "..."]` at the start of `toks`: the path.
fn path_attribute(source: &str, toks: &[Token]) -> Option<String> {
    let [hash, open, path, eq, lit, close] = toks.get(..6)? else {
        return None;
    };
    let shape = hash.is_punct(source, '#')
        && open.is_punct(source, '[')
        && path.is_ident(source, "path")
        && eq.is_punct(source, '=')
        && lit.kind == Kind::Str
        && close.is_punct(source, ']');
    shape.then(|| unquote(lit.text(source)))?
}

/// The text of a plain or raw string literal (escapes are not undone: a path has none).
fn unquote(literal: &str) -> Option<String> {
    let body = literal.strip_prefix('r').unwrap_or(literal);
    let hashes = body.len() - body.trim_start_matches('#').len();
    let body = &body[hashes..body.len().checked_sub(hashes)?];
    Some(body.strip_prefix('"')?.strip_suffix('"')?.to_string())
}

/// The index of the token closing the parenthesis at `open` (parentheses, brackets and braces balanced
/// together).
fn matching(source: &str, toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        match &source[t.start..t.end] {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// The token ranges of the `config = ...;` expressions of `criterion_group!` invocations.
fn config_ranges(source: &str, toks: &[Token]) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    for i in 0..toks.len() {
        let is_group = toks[i].is_ident(source, "criterion_group")
            && toks.get(i + 1).is_some_and(|t| t.is_punct(source, '!'));
        if !is_group {
            continue;
        }
        let Some(close) = matching(source, toks, i + 2) else {
            continue;
        };
        let mut depth = 0usize;
        let mut start = None;
        for j in i + 3..close {
            let t = toks[j];
            let text = t.text(source);
            match (t.kind, text) {
                (Kind::Punct, "(" | "[" | "{") => depth += 1,
                (Kind::Punct, ")" | "]" | "}") => depth = depth.saturating_sub(1),
                (Kind::Punct, ";") if depth == 0 => {
                    if let Some(s) = start.take() {
                        ranges.push(s..j);
                    }
                }
                (Kind::Ident, "config")
                    if depth == 0 && toks.get(j + 1).is_some_and(|t| t.is_punct(source, '=')) =>
                {
                    start = Some(j);
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            ranges.push(s..close);
        }
    }
    ranges
}

fn line_of(source: &str, at: usize) -> usize {
    source[..at].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The value of a literal argument: a number for a sample size, `PATH::from_secs(N)` and its kin or
/// `PATH::new(S, NS)` for a duration (in seconds); `None` for anything else.
fn literal_value(source: &str, arg: &[Token], method: CriterionSetting) -> Option<f64> {
    let arg = match arg.split_last() {
        Some((last, rest)) if last.is_punct(source, ',') => rest,
        _ => arg,
    };
    if method == CriterionSetting::SampleSize {
        return match arg {
            [n] if n.kind == Kind::Number => number(n.text(source)),
            _ => None,
        };
    }
    // PATH::CTOR ( N [, N] )
    let open = arg.iter().position(|t| t.is_punct(source, '('))?;
    let (path, call) = arg.split_at(open);
    let ctor = path.last().filter(|t| t.kind == Kind::Ident)?.text(source);
    let names_duration = path
        .iter()
        .filter(|t| t.kind == Kind::Ident)
        .rev()
        .nth(1)
        .is_some_and(|t| t.text(source) == "Duration");
    if !names_duration || !call.last()?.is_punct(source, ')') {
        return None;
    }
    let inner: Vec<&Token> = call[1..call.len() - 1]
        .iter()
        .filter(|t| !t.is_punct(source, ','))
        .collect();
    let values: Vec<f64> = inner
        .iter()
        .map(|t| {
            (t.kind == Kind::Number)
                .then(|| number(t.text(source)))
                .flatten()
        })
        .collect::<Option<Vec<f64>>>()?;
    let scale = match ctor {
        "from_secs" | "from_secs_f64" | "from_secs_f32" => 1.0,
        "from_millis" => 1e-3,
        "from_micros" => 1e-6,
        "from_nanos" => 1e-9,
        "new" => {
            return match values.as_slice() {
                [s, ns] => Some(s + ns * 1e-9),
                _ => None,
            };
        }
        _ => return None,
    };
    match values.as_slice() {
        [v] => Some(v * scale),
        _ => None,
    }
}

/// A decimal number literal's value, underscores and type suffix left out; `None` for hex, octal or binary.
fn number(text: &str) -> Option<f64> {
    if text.starts_with("0x") || text.starts_with("0o") || text.starts_with("0b") {
        return None;
    }
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    let end = digits
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(digits.len());
    digits[..end].parse().ok()
}

/// The default per-run settings, for the tests.
#[cfg(test)]
pub(crate) const REQUESTED: Requested = Requested {
    warm_up_secs: 0.1,
    measurement_secs: 0.2,
    sample_size: 10,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// (method, line, in config, value) of every call of `source`.
    fn summary(source: &str) -> Vec<(CriterionSetting, usize, bool, Option<f64>)> {
        calls(source)
            .iter()
            .map(|c| (c.method, c.line, c.in_config, c.value))
            .collect()
    }

    /// base64 0.23.1's `benches/benchmarks.rs`, lines 189-194 and 246-252, as published.
    const BASE64_ENCODE: &str =
        "fn encode_benchmarks(c: &mut Criterion, label: &str, byte_sizes: &[usize]) {
    let mut group = c.benchmark_group(label);
    group
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(3));
";
    const BASE64_DECODE: &str = "    for size in byte_sizes {
        group
            .warm_up_time(std::time::Duration::from_millis(500))
            .measurement_time(std::time::Duration::from_secs(3))
            .throughput(Throughput::Bytes(*size as u64))
";

    #[test]
    fn base64s_published_settings_are_found_with_their_lines_and_values() {
        assert_eq!(
            summary(BASE64_ENCODE),
            [
                (CriterionSetting::WarmUpTime, 4, false, Some(0.5)),
                (CriterionSetting::MeasurementTime, 5, false, Some(3.0)),
            ]
        );
        assert_eq!(
            &BASE64_ENCODE[calls(BASE64_ENCODE)[1].arg.clone()],
            "std::time::Duration::from_secs(3)"
        );
    }

    #[test]
    fn base64s_published_settings_are_rewritten_and_nothing_else() {
        let rewritten = rewrite(BASE64_ENCODE, &REQUESTED);
        let expected = BASE64_ENCODE
            .replace(
                "(std::time::Duration::from_millis(500))",
                "({ let _ = std::time::Duration::from_millis(500); ::std::time::Duration::from_secs_f64(0.1) })",
            )
            .replace(
                "(std::time::Duration::from_secs(3))",
                "({ let _ = std::time::Duration::from_secs(3); ::std::time::Duration::from_secs_f64(0.2) })",
            );
        assert_eq!(rewritten, expected);
        let decode = rewrite(BASE64_DECODE, &REQUESTED);
        assert!(decode.contains(
            ".measurement_time({ let _ = std::time::Duration::from_secs(3); ::std::time::Duration::from_secs_f64(0.2) })\n            .throughput(Throughput::Bytes(*size as u64))"
        ), "{decode}");
        assert_eq!(decode.lines().count(), BASE64_DECODE.lines().count());
    }

    #[test]
    fn nested_parentheses_balance_and_a_call_may_span_lines() {
        let source = "g.measurement_time(\n    Duration::from_secs_f64(f((1.0, 2.0).0) * 2.0),\n).sample_size(\n  10\n);";
        let found = calls(source);
        assert_eq!(found.len(), 2);
        assert_eq!(
            &source[found[0].arg.clone()],
            "\n    Duration::from_secs_f64(f((1.0, 2.0).0) * 2.0),\n"
        );
        assert_eq!(found[0].value, None);
        assert_eq!((found[1].line, found[1].value), (3, Some(10.0)));
        let rewritten = rewrite(source, &REQUESTED);
        assert_eq!(
            rewritten,
            "g.measurement_time({ let _ = \n    Duration::from_secs_f64(f((1.0, 2.0).0) * 2.0)\n; \
             ::std::time::Duration::from_secs_f64(0.2) }).sample_size({ let _ = \n  10\n; 10 });"
        );
        assert_eq!(rewritten.lines().count(), source.lines().count());
    }

    #[test]
    fn comments_strings_and_other_names_are_left_alone() {
        let source = r##"// group.measurement_time(Duration::from_secs(9));
/* .sample_size(50) /* nested */ .warm_up_time(x) */
let s = ".measurement_time(Duration::from_secs(9))";
let r = r#".sample_size(3)"#;
fn measurement_time(d: Duration) {}
x.my_measurement_time(d); x.measurement_times(d); Criterion::sample_size(c, 5);
g.sample_size /* why */ (20);
"##;
        let found = calls(source);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].method, found[0].line),
            (CriterionSetting::SampleSize, 7)
        );
        let rewritten = rewrite(source, &REQUESTED);
        assert_eq!(rewritten, source.replace("(20)", "({ let _ = 20; 10 })"),);
    }

    #[test]
    fn a_criterion_group_config_is_not_an_override_and_stays_as_it_is() {
        let source = "criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(1));
    targets = bench
}
criterion_group!(name = other; config = Criterion::default().warm_up_time(Duration::from_millis(20)); targets = a, b);
fn bench(c: &mut Criterion) { c.benchmark_group(\"g\").sample_size(20); }
";
        assert_eq!(
            summary(source),
            [
                (CriterionSetting::SampleSize, 3, true, Some(10.0)),
                (CriterionSetting::MeasurementTime, 3, true, Some(1.0)),
                (CriterionSetting::WarmUpTime, 6, true, Some(0.02)),
                (CriterionSetting::SampleSize, 7, false, Some(20.0)),
            ]
        );
        let rewritten = rewrite(source, &REQUESTED);
        assert_eq!(
            rewritten,
            source.replace(".sample_size(20)", ".sample_size({ let _ = 20; 10 })")
        );
    }

    #[test]
    fn literal_durations_are_read_in_seconds() {
        let value = |arg: &str| {
            let source = format!("g.measurement_time({arg});");
            calls(&source)[0].value
        };
        assert_eq!(value("Duration::from_secs(3)"), Some(3.0));
        assert_eq!(value("core::time::Duration::from_millis(1_500)"), Some(1.5));
        assert_eq!(value("Duration::from_secs_f64(0.25)"), Some(0.25));
        assert_eq!(value("Duration::from_micros(250_000u64)"), Some(0.25));
        assert_eq!(value("Duration::new(2, 500_000_000)"), Some(2.5));
        assert_eq!(value("Duration::from_secs(3,)"), Some(3.0));
        assert_eq!(value("Duration::from_secs(N)"), None);
        assert_eq!(value("d"), None);
        assert_eq!(value("Duration::from_secs(3) * 2"), None);
        assert_eq!(value("Instant::from_secs(3)"), None);
    }

    #[test]
    fn a_trailing_comma_is_left_out_of_the_kept_expression() {
        let rewritten = rewrite("g.warm_up_time(d,);", &REQUESTED);
        assert_eq!(
            rewritten,
            "g.warm_up_time({ let _ = d; ::std::time::Duration::from_secs_f64(0.1) });"
        );
    }

    #[test]
    fn module_declarations_are_found_with_their_paths() {
        let source = r#"mod common;
#[path = "../shared/util.rs"]
pub(crate) mod util;
mod inline { fn f() {} }
#[cfg(feature = "x")] #[path = r"raw.rs"] mod raw;
// mod commented;
#[path = "unused.rs"]
fn not_a_module() {}
mod after;
"#;
        let names: Vec<(String, Option<String>)> = module_declarations(source)
            .into_iter()
            .map(|m| (m.name, m.path))
            .collect();
        assert_eq!(
            names,
            [
                ("common".to_string(), None),
                ("util".to_string(), Some("../shared/util.rs".to_string())),
                ("raw".to_string(), Some("raw.rs".to_string())),
                ("after".to_string(), None),
            ]
        );
    }
}
