//! Property tests of every renderer on names made of any characters (controls, bidi, wide, markup and
//! formula characters over-represented), and the hostile corpus of `tests/hostile/names.json`: no panic,
//! and each sink's invariant (`crate::inert`) holds whatever the names.
//!
//! - table and standard error: no hidden character, no line that a CI runner reads as a command (`::` at
//!   its start, `##[` anywhere), no line wider than the terminal;
//! - Markdown: no hidden character but the rule's word joiner, no mention, no unescaped `](`, no `<` but the
//!   report's own tags, no `&` but an entity of the rule, every table row as many cells as the header;
//! - HTML: no hidden character, and names add no tag: the page has as many `<` as with plain names;
//! - CSV: every record as many fields as the header, no cell beginning a formula;
//! - JSON: the names exact.

use proptest::prelude::*;

use super::{Format, Style, stderr_summary};
use crate::inert::{self, is_hidden};
use crate::model::{Benchmark, Results, Run, Runs, Sample, Unit};
use crate::protocol::race::{RaceOptions, race};
use crate::protocol::{Analysis, GateReason, Warning, WarningKind};
use crate::testutil::analyses;
use crate::testutil::render::render;

/// Names in every benchmark, warning, reason and list of `analysis`, as the analysis of hostile results
/// would quote them.
fn named(mut analysis: Analysis, names: &[String]) -> Analysis {
    let name = |i: usize| names[i % names.len()].clone();
    for (i, b) in analysis.benchmarks.iter_mut().enumerate() {
        b.name = name(i);
        b.warnings.push(
            Warning::new(
                WarningKind::Input,
                format!("{} was read with a note", name(i)),
            )
            .with_hint(format!("look at `{}`", name(i + 1))),
        );
    }
    analysis.gate.failed = true;
    analysis.gate.reasons = (0..names.len())
        .map(|i| GateReason::BenchmarkSlower {
            name: name(i),
            held_to: 0.0,
            p: 0.001,
            adjusted: 0.001,
            slowdown: None,
        })
        .collect();
    analysis.base_only = vec![name(1)];
    analysis.head_only = vec![name(2)];
    analysis.identical = vec![name(3)];
    analysis
}

/// A race of two revisions labelled with names, over benchmarks named with names.
fn race_of(names: &[String]) -> crate::protocol::race::RaceAnalysis {
    let results = |level: f64| Results {
        origin: "hostile".into(),
        benchmarks: names
            .iter()
            .enumerate()
            .map(|(i, name)| Benchmark {
                name: format!("{name}#{i}"),
                runs: Runs::new(
                    (0..5)
                        .map(|k| {
                            let v = level * (1.0 + f64::from(k) * 0.001);
                            Run::new(Sample::new(vec![v], Unit::Ns).expect("a sample"), None)
                        })
                        .collect(),
                )
                .expect("runs"),
                unit: Unit::Us,
                counters: Vec::new(),
            })
            .collect(),
        environment: Default::default(),
        notes: vec![],
        left_out: vec![],
    };
    let labels = vec![names[0].clone(), names[names.len() - 1].clone()];
    let options = RaceOptions::new(
        &crate::protocol::Options::defaults(crate::protocol::FailOn::None),
        crate::model::Design::measured(2),
    );
    race(&[results(3000.0), results(1000.0)], &labels, &options)
}

fn render_race(
    format: Format,
    analysis: &crate::protocol::race::RaceAnalysis,
    style: Style,
) -> String {
    let mut out = Vec::new();
    super::race::render(analysis, format, style, &mut out).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("reports are UTF-8")
}

/// Text for a terminal or a CI log: nothing hidden, no workflow command.
fn check_terminal(what: &str, text: &str, width: Option<usize>) -> Result<(), TestCaseError> {
    for line in text.lines() {
        prop_assert!(!line.chars().any(is_hidden), "{what}: {line:?}");
        prop_assert!(!line.trim_start().starts_with("::"), "{what}: {line:?}");
        prop_assert!(!line.contains("##["), "{what}: {line:?}");
        if let Some(width) = width {
            prop_assert!(inert::width(line) <= width, "{what} at {width}: {line:?}");
        }
    }
    Ok(())
}

/// Whether the character at `i` of `text` is escaped: an odd number of backslashes stands before it.
fn escaped(text: &str, i: usize) -> bool {
    text[..i].chars().rev().take_while(|c| *c == '\\').count() % 2 == 1
}

fn check_markdown(text: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        !text
            .chars()
            .any(|c| is_hidden(c) && c != '\n' && c != '\u{2060}'),
        "a hidden character"
    );
    for (i, _) in text.match_indices('@') {
        let next = text[i + 1..].chars().next();
        prop_assert!(
            !next.is_some_and(|c| c.is_ascii_alphanumeric()),
            "a mention: {:?}",
            &text[i..]
        );
    }
    // The only links are the glossary's, to this repository's docs.
    let own_link = "](https://github.com/cargo-speedup/cargo-speedup/blob/main/docs/";
    for (i, _) in text.match_indices("](") {
        let own = text[i..].starts_with(own_link);
        prop_assert!(escaped(text, i) || own, "a link: {:?}", &text[i..]);
    }
    for (i, _) in text.match_indices('<') {
        let rest = &text[i..];
        let own = ["<details>", "<summary>", "</summary>", "</details>", "<br>"];
        prop_assert!(own.iter().any(|t| rest.starts_with(t)), "a tag: {rest:?}");
    }
    for (i, _) in text.match_indices('&') {
        let rest = &text[i..];
        prop_assert!(
            ["&amp;", "&lt;", "&gt;"]
                .iter()
                .any(|e| rest.starts_with(e)),
            "an entity: {rest:?}"
        );
    }
    let pipes = |line: &str| {
        line.match_indices('|')
            .filter(|(i, _)| !escaped(line, *i))
            .count()
    };
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    for row in &rows {
        prop_assert_eq!(pipes(row), pipes(rows[0]), "{}", row);
    }
    Ok(())
}

/// The fields of each record of a CSV text, as RFC 4180 reads them.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = vec![];
    let mut record = vec![];
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    records
}

fn check_csv(text: &str) -> Result<(), TestCaseError> {
    let records = csv_records(text);
    for record in &records {
        prop_assert_eq!(record.len(), records[0].len(), "{:?}", record);
        for cell in record {
            let formula = cell.starts_with(['=', '+', '@', '\t', '\r', '\0'])
                || (cell.starts_with('-') && cell.parse::<f64>().is_err());
            prop_assert!(!formula, "{:?}", cell);
        }
    }
    Ok(())
}

/// A bisection of a path whose commits have `names` as subjects (and as a skipped commit's reason): GOOD,
/// one commit per name, BAD; every third commit measured (the others folded in pairs), the middle one named.
fn bisection_of(names: &[String]) -> crate::report::bisect::Bisection {
    use crate::protocol::bisect::Step;
    use crate::protocol::{Direction, Verdict};
    use crate::report::bisect::{Bisection, Ending, Measurement, PathEntry};
    let subject = |i: usize| names[i % names.len()].clone();
    let path: Vec<PathEntry> = (0..names.len() + 2)
        .map(|i| PathEntry {
            sha: format!("{i:040x}"),
            subject: subject(i),
            measured: (i % 3 == 1 || i == names.len() + 1).then_some(Measurement {
                speedup: Some(if i > names.len() / 2 { 0.5 } else { 1.0 }),
                interval: Some((0.45, 1.1)),
                against_good: Some(Verdict::Slower),
                against_bad: Some(Verdict::Unchanged),
                identical: i == 1,
                step: Some(Step::LikeBad),
            }),
        })
        .collect();
    Bisection {
        direction: Direction::Slower,
        threshold_pct: 5.0,
        confidence: 0.95,
        comparison_confidence: 0.99,
        budgeted: 5,
        comparisons: 3,
        ending: Ending::Named(path.len() / 2),
        skipped: vec![(1, subject(3))],
        path,
        named_change: None,
        more_steps: None,
    }
}

/// The bisection's pages with `names` and with plain names: no hidden character, and names add no tag.
fn check_bisection(names: &[String]) -> Result<(), TestCaseError> {
    // Plain names equal where the hostile ones are: equal names share their warnings, whose footnotes
    // merge, so only the names' content may differ between the two pages.
    let plain: Vec<String> = names
        .iter()
        .map(|n| format!("n{}", names.iter().position(|m| m == n).unwrap_or(0)))
        .collect();
    let page = crate::report::bisect::html::page(&bisection_of(names));
    prop_assert!(!page.chars().any(|c| is_hidden(c) && c != '\n'));
    let baseline = crate::report::bisect::html::page(&bisection_of(&plain));
    prop_assert_eq!(page.matches('<').count(), baseline.matches('<').count());
    Ok(())
}

/// Every sink's invariant on the sample analyses named with `names`, at `width` columns.
fn check_every_sink(names: &[String], width: u16) -> Result<(), TestCaseError> {
    // Plain names equal where the hostile ones are: equal names share their warnings, whose footnotes
    // merge, so only the names' content may differ between the two pages.
    let plain: Vec<String> = names
        .iter()
        .map(|n| format!("n{}", names.iter().position(|m| m == n).unwrap_or(0)))
        .collect();
    let style = Style {
        color: false,
        width: Some(width),
        verbose: true,
    };
    for sample in [
        analyses::slower_suite_failed_gate,
        analyses::inconclusive_with_warnings,
        analyses::faster_suite,
    ] {
        let analysis = named(sample(), names);
        let table = render(Format::Table, &analysis, style);
        check_terminal("table", &table, Some(usize::from(width)))?;
        for line in stderr_summary(&analysis) {
            check_terminal("stderr", &line, None)?;
        }
        for reason in &analysis.gate.reasons {
            check_terminal(
                "stderr",
                &format!(
                    "gate failed: {}",
                    inert::terminal(&crate::report::words::gate_reason(reason))
                ),
                None,
            )?;
        }
        check_markdown(&render(Format::Markdown, &analysis, style))?;
        let page = render(Format::Html, &analysis, style);
        prop_assert!(!page.chars().any(|c| is_hidden(c) && c != '\n'));
        let baseline = render(Format::Html, &named(sample(), &plain), style);
        prop_assert_eq!(page.matches('<').count(), baseline.matches('<').count());
        check_csv(&render(Format::Csv, &analysis, style))?;
        let json_text = render(Format::Json, &analysis, style);
        // Data, values kept (below), and nothing a terminal or a CI log acts on when it is printed.
        prop_assert!(!json_text.chars().any(|c| is_hidden(c) && c != '\n'));
        prop_assert!(!json_text.contains("##["));
        let json: serde_json::Value = serde_json::from_str(&json_text).expect("JSON");
        for (b, expected) in json["benchmarks"]
            .as_array()
            .expect("benchmarks")
            .iter()
            .zip(&analysis.benchmarks)
        {
            prop_assert_eq!(b["name"].as_str(), Some(expected.name.as_str()));
        }
    }
    let raced = race_of(names);
    check_terminal(
        "race table",
        &render_race(Format::Table, &raced, style),
        None,
    )?;
    check_markdown(&render_race(Format::Markdown, &raced, style))?;
    check_csv(&render_race(Format::Csv, &raced, style))?;
    let page = render_race(Format::Html, &raced, style);
    prop_assert!(!page.chars().any(|c| is_hidden(c) && c != '\n'));
    check_bisection(names)
}

/// Any character, with those that sinks interpret over-represented.
fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        any::<char>(),
        prop::sample::select(vec![
            '\n', '\r', '\t', '\0', '\u{7}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{202e}',
            '\u{2066}', '\u{200e}', '\u{061c}', '\u{2028}', '\u{200d}', '\u{2060}', '\u{feff}',
            '@', ':', '/', '.', 'w', '|', '`', '<', '>', '&', '#', '[', ']', '(', ')', '!', '\\',
            '=', '+', '-', '*', '_', '~', '"', '\'', ',', ' ', '基', '😀', 'é', '\u{301}',
        ]),
        prop::sample::select(vec!['a', 'b', 'x', '1']),
    ]
}

fn any_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(any_char(), 0..40),
        1 => prop::collection::vec(any_char(), 100..400),
    ]
    .prop_map(String::from_iter)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn any_names_are_inert_in_every_sink(
        names in prop::collection::vec(any_name(), 1..6),
        width in 20u16..160,
    ) {
        check_every_sink(&names, width)?;
    }
}

#[test]
fn the_hostile_corpus_is_inert_in_every_sink() {
    let names: Vec<String> =
        serde_json::from_str(include_str!("../../tests/hostile/names.json")).expect("the corpus");
    for width in [24, 60, 80, 140] {
        check_every_sink(&names, width).unwrap_or_else(|e| panic!("at {width}: {e}"));
    }
}
