//! Tests across every renderer: snapshots of each format on each sample analysis, and properties that must
//! hold whatever the analysis (strict JSON with every contract field, no NaN, no ANSI without colour, the
//! table within a narrow width, the colour choice).

use serde_json::Value;

use super::suite::hpt_sentence;
use super::*;
use crate::model::BaseHead;
use crate::protocol::{Analysis, Direction, FailOn, Verdict};
use crate::testutil::analyses;
use crate::testutil::render::render;

const PLAIN: Style = Style {
    color: false,
    width: None,
    verbose: false,
};

const FORMATS: [(Format, &str); 4] = [
    (Format::Table, "table"),
    (Format::Json, "json"),
    (Format::Markdown, "markdown"),
    (Format::Csv, "csv"),
];

#[test]
fn snapshots_of_every_format_on_every_sample() {
    for (name, analysis) in analyses::all() {
        for (format, format_name) in FORMATS {
            let text = render(format, &analysis, PLAIN);
            insta::assert_snapshot!(format!("{format_name}_{name}"), text);
        }
    }
}

#[test]
fn snapshot_of_a_coloured_table_at_80_columns() {
    let style = Style {
        color: true,
        width: Some(80),
        verbose: false,
    };
    let text = render(Format::Table, &analyses::faster_suite(), style);
    assert!(text.contains("\x1b[32m"), "faster results are green");
    insta::assert_snapshot!("table_faster_colour_80", text);
    let slower = render(Format::Table, &analyses::slower_suite_failed_gate(), style);
    assert!(slower.contains("\x1b[31m"), "slower results are red");
}

#[test]
fn snapshot_of_a_table_with_warnings_at_60_columns() {
    let style = Style {
        color: false,
        width: Some(60),
        verbose: false,
    };
    let text = render(
        Format::Table,
        &analyses::inconclusive_with_warnings(),
        style,
    );
    insta::assert_snapshot!("table_inconclusive_warnings_60", text);
}

#[test]
fn no_output_ever_contains_nan_or_infinity() {
    for (name, analysis) in analyses::all() {
        for (format, format_name) in FORMATS {
            let text = render(format, &analysis, PLAIN).to_lowercase();
            let words = text.split(|c: char| !c.is_ascii_alphanumeric());
            for word in words {
                let bad = ["nan", "inf", "infinity"].contains(&word);
                assert!(!bad, "{format_name}/{name} prints {word}");
            }
        }
    }
}

#[test]
fn no_ansi_escapes_without_colour_and_never_in_markdown_json_csv() {
    let coloured = Style {
        color: true,
        width: None,
        verbose: false,
    };
    for (name, analysis) in analyses::all() {
        for (format, format_name) in FORMATS {
            assert!(
                !render(format, &analysis, PLAIN).contains('\x1b'),
                "{format_name}/{name}"
            );
            if format != Format::Table {
                assert!(
                    !render(format, &analysis, coloured).contains('\x1b'),
                    "{format_name}/{name} with colour"
                );
            }
        }
    }
}

#[test]
fn table_respects_a_narrow_width() {
    for width in [100u16, 60, 40] {
        let style = Style {
            color: false,
            width: Some(width),
            verbose: false,
        };
        for (name, analysis) in analyses::all() {
            for line in render(Format::Table, &analysis, style).lines() {
                assert!(
                    line.chars().count() <= usize::from(width),
                    "{name} at {width}: {line:?}"
                );
            }
        }
    }
}

/// `line` without its colour codes (SGR sequences: `ESC [ digits and semicolons m`).
fn strip_colour(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('\x1b') {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find('m')
            .map_or(rest.len(), |m| start + m + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A table report from its header on, after the headline.
fn table_of(text: &str) -> &str {
    text.find("\nBenchmark ").map_or(text, |i| &text[i + 1..])
}

/// The rows of a table report, between the line under its header and the first line that is not a row;
/// `None` when the benchmarks were printed as a list.
fn table_rows(text: &str) -> Option<Vec<&str>> {
    // The headline comes first; the table starts at its header.
    if !text.lines().any(|l| l.starts_with("Benchmark ")) {
        return None;
    }
    let mut lines = text.lines().skip_while(|l| !l.starts_with('─')).skip(1);
    Some(
        lines
            .by_ref()
            .take_while(|l| !l.is_empty() && !l.starts_with("Hidden at this width"))
            .collect(),
    )
}

#[test]
fn table_keeps_each_benchmark_on_one_line_at_every_width() {
    for (name, analysis) in analyses::all() {
        let mut table_from = None;
        for width in 60u16..=140 {
            let style = Style {
                color: false,
                width: Some(width),
                verbose: false,
            };
            let text = render(Format::Table, &analysis, style);
            for line in text.lines() {
                assert!(
                    line.chars().count() <= usize::from(width),
                    "{name} at {width}: {line:?}\n{text}"
                );
            }
            if analysis.benchmarks.is_empty() {
                continue;
            }
            let Some(rows) = table_rows(&text) else {
                assert!(
                    table_from.is_none(),
                    "{name}: a table at {table_from:?} columns but a list at {width}\n{text}"
                );
                continue;
            };
            table_from.get_or_insert(width);
            assert_eq!(
                rows.len(),
                analysis.benchmarks.len(),
                "{name} at {width}: one line per benchmark\n{text}"
            );
            for (row, b) in rows.iter().zip(&analysis.benchmarks) {
                assert!(
                    row.starts_with(&format!("{} ", b.name)),
                    "{name} at {width}: {row:?} is not {}'s row\n{text}",
                    b.name
                );
            }
        }
        if !analysis.benchmarks.is_empty() {
            assert!(
                table_from.is_some_and(|w| w <= 80),
                "{name}: a table only from {table_from:?} columns"
            );
        }
    }
}

#[test]
fn table_shows_every_figure_when_it_has_the_room() {
    for (name, analysis) in analyses::all() {
        let unlimited = render(Format::Table, &analysis, PLAIN);
        if table_rows(&unlimited).is_none() {
            continue;
        }
        // The line under the header spans the table.
        let rule = unlimited.lines().find(|l| l.starts_with('─'));
        let widest = rule.map_or(0, |l| l.chars().count());
        let width = u16::try_from(widest).expect("a table narrower than u16");
        let style = Style {
            color: false,
            width: Some(width),
            verbose: false,
        };
        let table = |text: &str| {
            table_of(text)
                .split("\n\n")
                .next()
                .unwrap_or_default()
                .to_string()
        };
        assert_eq!(
            table(&render(Format::Table, &analysis, style)),
            table(&unlimited),
            "{name} at {width}"
        );
        // One column less: a header wraps, or the mean speedup goes.
        {
            let narrower = Style {
                color: false,
                width: Some(width - 1),
                verbose: false,
            };
            let text = render(Format::Table, &analysis, narrower);
            let header_wraps = table_of(&text)
                .lines()
                .nth(1)
                .is_some_and(|l| !l.starts_with('─'));
            assert!(
                header_wraps || text.contains("Hidden at this width: mean speedup"),
                "{name} at {}: {text}",
                width - 1
            );
        }
    }
}

#[test]
fn no_line_ends_in_spaces_with_or_without_colour() {
    for (name, analysis) in analyses::all() {
        for color in [false, true] {
            for width in [
                None,
                Some(60),
                Some(72),
                Some(80),
                Some(86),
                Some(100),
                Some(140),
            ] {
                let style = Style {
                    color,
                    width,
                    verbose: false,
                };
                let text = render(Format::Table, &analysis, style);
                for line in text.lines() {
                    let bare = strip_colour(line);
                    assert_eq!(
                        bare.trim_end(),
                        bare,
                        "{name}, colour {color}, width {width:?}: {line:?}"
                    );
                    assert_eq!(line.trim_end(), line, "{name}: {line:?}");
                }
            }
        }
    }
}

/// Every field of `docs/json.md`, as paths; `[]` is the first element of an array.
const SUITE_FIELDS: [&str; 28] = [
    "schema",
    "confidence",
    "benchmarks",
    "suite.hpt.confidence",
    "suite.hpt.direction",
    "suite.hpt.r_speedup",
    "suite.hpt.gamma",
    "suite.hpt.gamma_confidence",
    "suite.overall.min.gain",
    "suite.overall.min.speedup",
    "suite.overall.mean.gain",
    "suite.overall.mean.speedup",
    "suite.overall.median.gain",
    "suite.overall.median.speedup",
    "suite.proportion.mean.accelerated",
    "suite.proportion.mean.total",
    "suite.proportion.mean.lower",
    "suite.proportion.mean.upper",
    "suite.proportion.median.accelerated",
    "suite.proportion.median.total",
    "suite.proportion.median.lower",
    "suite.proportion.median.upper",
    "unmatched",
    "verdict",
    "gate.fail_on",
    "gate.threshold",
    "gate.failed",
    "gate.reasons",
];

const BENCHMARK_FIELDS: [&str; 34] = [
    "name",
    "unit",
    "base.n",
    "base.min",
    "base.mean",
    "base.median",
    "head.n",
    "head.min",
    "head.mean",
    "head.median",
    "speedup.min",
    "speedup.mean",
    "speedup.median",
    "mean_test.significant",
    "mean_test.direction",
    "mean_test.p_value",
    "mean_test.method",
    "mean_test.confidence_level",
    "mean_test.shapiro_p_values",
    "mean_test.variance_p_value",
    "mean_test.warnings",
    "median_test.significant",
    "median_test.direction",
    "median_test.p_value",
    "median_test.ks_p_value",
    "median_test.confidence_level",
    "median_test.p_head_faster",
    "median_test.shift.estimate",
    "median_test.shift.lower",
    "median_test.shift.upper",
    "median_test.warnings",
    "verdict",
    "warnings",
    "hpt.winner",
];

/// Whether `path` exists in `value`; a `null` object on the way counts as present (the contract's "null where
/// a value does not exist").
fn has_path(value: &Value, path: &str) -> bool {
    let mut current = value;
    for key in path.split('.') {
        match current {
            Value::Null => return true,
            Value::Object(map) => match map.get(key) {
                Some(next) => current = next,
                None => return false,
            },
            _ => return false,
        }
    }
    true
}

fn parse_json(analysis: &Analysis) -> Value {
    serde_json::from_str(&render(Format::Json, analysis, PLAIN)).expect("the JSON parses")
}

#[test]
fn json_has_every_contract_field() {
    for (name, analysis) in analyses::all() {
        let json = parse_json(&analysis);
        for path in SUITE_FIELDS.iter().chain(&["warnings"]) {
            assert!(has_path(&json, path), "{name}: {path}");
        }
        let benchmarks = json["benchmarks"]
            .as_array()
            .expect("benchmarks is an array");
        assert_eq!(benchmarks.len(), analysis.benchmarks.len());
        for b in benchmarks {
            for path in BENCHMARK_FIELDS {
                assert!(has_path(b, path), "{name}: benchmarks[].{path}");
            }
            let shapiro = b["mean_test"]["shapiro_p_values"].as_array();
            assert_eq!(shapiro.map(Vec::len), Some(2), "{name}: [base, head]");
        }
    }
}

#[test]
fn json_carries_schema_and_contract_words() {
    let json = parse_json(&analyses::slower_suite_failed_gate());
    assert_eq!(json["schema"], "cargo-speedup/1");
    assert_eq!(json["verdict"], "slower");
    assert_eq!(json["suite"]["hpt"]["direction"], "slower");
    assert_eq!(json["gate"]["fail_on"], "suite");
    assert_eq!(json["gate"]["failed"], true);
    let b = &json["benchmarks"][0];
    assert_eq!(b["mean_test"]["method"], "welch");
    assert_eq!(b["median_test"]["direction"], "slower");
    assert_eq!(b["verdict"], "slower");
}

#[test]
fn json_times_are_in_the_benchmark_unit() {
    let json = parse_json(&analyses::faster_suite());
    let large = &json["benchmarks"][1];
    assert_eq!(large["unit"], "us");
    assert_eq!(large["base"]["median"].as_f64(), Some(91.2));
    assert_eq!(
        large["median_test"]["shift"]["estimate"].as_f64(),
        Some(11.1)
    );
    let small = &json["benchmarks"][0];
    assert_eq!(small["unit"], "ns");
    assert_eq!(small["base"]["median"].as_f64(), Some(812.26));
}

#[test]
fn json_writes_null_for_missing_and_non_finite_values() {
    let json = parse_json(&analyses::nothing_known());
    let b = &json["benchmarks"][0];
    for path in [
        &b["base"]["median"],
        &b["speedup"]["mean"],
        &b["mean_test"]["p_value"],
        &b["mean_test"]["method"],
        &b["median_test"]["shift"],
        &json["suite"]["hpt"]["gamma"],
        &json["suite"]["overall"],
        &json["suite"]["proportion"],
    ] {
        assert!(path.is_null(), "{path}");
    }
}

#[test]
fn json_lists_unmatched_names_of_both_sides() {
    let json = parse_json(&analyses::unmatched());
    let names: Vec<&str> = json["unmatched"]
        .as_array()
        .expect("unmatched is an array")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(names, ["old/bench", "gone, too", "new/bench"]);
}

#[test]
fn csv_quotes_names_with_commas_and_quotes() {
    let csv = render(Format::Csv, &analyses::unmatched(), PLAIN);
    let second = csv.lines().nth(1).expect("a row after the header");
    assert!(second.starts_with("\"fmt, \"\"quoted\"\" | <pipe>\",ns,faster,"));
}

#[test]
fn colour_choice_follows_no_color_and_term() {
    let env = |no_color: Option<&'static str>, term: Option<&'static str>| {
        move |name: &str| match name {
            "NO_COLOR" => no_color.map(String::from),
            "TERM" => term.map(String::from),
            _ => None,
        }
    };
    use ColorChoice::{Always, Auto, Never};
    let cases = [
        (Never, true, None, None, false),
        (Always, false, Some("1"), Some("dumb"), true),
        (Auto, true, None, Some("xterm-256color"), true),
        (Auto, true, None, None, true),
        (Auto, false, None, Some("xterm"), false),
        (Auto, true, Some("1"), Some("xterm"), false),
        (Auto, true, Some(""), Some("xterm"), true),
        (Auto, true, None, Some("dumb"), false),
    ];
    for (choice, tty, no_color, term, expected) in cases {
        assert_eq!(
            super::output::color_enabled_in(choice, tty, env(no_color, term)),
            expected,
            "{choice:?} tty={tty} NO_COLOR={no_color:?} TERM={term:?}"
        );
    }
}

#[test]
fn mean_verdict_reads_the_mean_test() {
    let faster = analyses::faster_suite();
    let small = analyses::inconclusive_with_warnings();
    assert_eq!(faster.benchmarks[0].mean_test.verdict(), Verdict::Faster);
    // A t-test that finds nothing is no equivalence: not "unchanged", but "inconclusive".
    assert_eq!(
        faster.benchmarks[2].mean_test.verdict(),
        Verdict::Inconclusive
    );
    assert!(faster.benchmarks[2].mean_test.found_no_difference());
    assert_eq!(
        mean_test_text(&faster.benchmarks[2].mean_test),
        "inconclusive"
    );
    assert!(!small.benchmarks[0].mean_test.found_no_difference());
    assert_eq!(
        small.benchmarks[0].mean_test.verdict(),
        Verdict::Inconclusive
    );
}

#[test]
fn identical_warnings_become_one_footnote_naming_their_benchmarks() {
    let analysis = analyses::inconclusive_with_warnings();
    let notes = Footnotes::of(&analysis, true);
    let batch: Vec<_> = notes
        .notes
        .iter()
        .filter(|n| n.words.message.starts_with("each side is one process"))
        .collect();
    assert_eq!(batch.len(), 1);
    assert_eq!(batch[0].benchmarks, ["tiny/a", "tiny/b"]);
    assert!(notes.marker(0).split(',').count() >= 3);
    assert!(
        notes.notes.iter().any(|n| n.benchmarks.is_empty()),
        "suite warning kept"
    );
}

#[test]
fn hpt_sentence_says_what_the_product_promises() {
    let mut analysis = analyses::faster_suite();
    analysis.suite.hpt.confidence = Some(0.998);
    assert_eq!(
        hpt_sentence(&analysis),
        "HEAD is faster than BASE with confidence 0.998; 0.95-speedup 1.12x"
    );
    assert_eq!(
        hpt_sentence(&analyses::hpt_not_reachable()),
        "HEAD is not shown faster than BASE at confidence 0.99: HPT's confidence is 0.875, so there is no \
         0.99-speedup"
    );
    assert_eq!(
        hpt_sentence(&analyses::unchanged_suite()),
        "no benchmark differs significantly, and every one is shown unchanged within ±2%"
    );
    assert!(hpt_sentence(&analyses::slower_suite_failed_gate()).ends_with("0.95-slowdown 1.15x"));
}

/// The human formats, each with the default verbosity.
const HUMAN: [Format; 3] = [Format::Table, Format::Markdown, Format::Html];

/// The text a person reads first in `text` of `format`: the first non-empty line (table, Markdown), the
/// banner (HTML).
fn first_words(format: Format, text: &str) -> String {
    match format {
        Format::Html => {
            let start = text.find(r#"class="headline"#).expect("a headline banner");
            let body = &text[start..];
            let open = body.find("<strong>").expect("a strong banner") + "<strong>".len();
            body[open..body.find("</strong>").expect("closed")].to_string()
        }
        _ => text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default()
            .trim_start_matches("**")
            .to_string(),
    }
}

#[test]
fn every_human_report_starts_with_the_headline() {
    for (name, analysis) in analyses::all() {
        let sentences = super::headline(&analysis);
        let Some(first) = sentences.first() else {
            continue;
        };
        let words: String = first.plain().chars().take(20).collect();
        for format in HUMAN {
            let text = render(format, &analysis, PLAIN);
            let start = first_words(format, &text);
            assert!(
                start.contains(&words) || start.contains(&markdown::escape_text(&words)),
                "{name} {format:?} starts with {start:?}, not the headline {words:?}"
            );
        }
    }
}

#[test]
fn the_gate_leads_the_headline_when_one_is_on() {
    let failed = analyses::slower_suite_failed_gate();
    let head = super::headline(&failed);
    assert!(
        head[0]
            .plain()
            .starts_with("Gate failed (--fail-on suite, threshold 5%)"),
        "{:?}",
        head[0]
    );
    assert_eq!(head[0].mood, Mood::Bad);
    let html = render(Format::Html, &failed, PLAIN);
    assert!(
        html.contains(r#"<p class="headline v-slower"><strong>Gate failed"#),
        "the banner is red and says the gate failed"
    );
    let passed = analyses::faster_suite();
    assert!(
        super::headline(&passed)[0]
            .plain()
            .starts_with("Gate passed")
    );
    let mut off = analyses::faster_suite();
    off.gate.fail_on = FailOn::None;
    assert!(!super::headline(&off)[0].plain().contains("Gate"));
}

/// A gate that cannot fail says so once: the words for too few benchmarks carry "cannot fail" themselves,
/// those for a suite of counts do not and are introduced by it.
#[test]
fn a_gate_that_cannot_fail_says_so_once() {
    let few = analyses::too_few_benchmarks();
    let mut counts = analyses::too_few_benchmarks();
    counts.gate.cannot_fail = Some(crate::protocol::CannotFail::OnlyCounts);
    for (analysis, start) in [
        (few, "but the suite gate cannot fail with 3 benchmarks: "),
        (
            counts,
            "but it cannot fail here: the suite gate tests with HPT, which ranks no count",
        ),
    ] {
        let first = super::headline(&analysis)[0].plain();
        assert!(
            first.starts_with(&format!("Gate passed (--fail-on suite), {start}")),
            "{first}"
        );
        assert_eq!(first.matches("cannot fail").count(), 1, "{first}");
    }
}

/// What a person reads of a report: an HTML page without its style sheet and tags.
fn visible_text(text: &str) -> String {
    let text = match (text.find("<style>"), text.find("</style>")) {
        (Some(a), Some(b)) => format!("{}{}", &text[..a], &text[b..]),
        _ => text.to_string(),
    };
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn unchanged_is_said_only_of_an_equivalence() {
    // No benchmark shown equivalent and none identical: no report may say "unchanged" anywhere.
    let mut a = analyses::inconclusive_with_warnings();
    for b in &mut a.benchmarks {
        b.verdict = Verdict::Inconclusive;
        b.equivalence.equivalent = false;
    }
    a.verdict = Verdict::Inconclusive;
    for format in HUMAN {
        for verbose in [false, true] {
            let style = Style { verbose, ..PLAIN };
            let text = visible_text(&render(format, &a, style)).to_lowercase();
            assert!(
                !text.contains("unchanged"),
                "{format:?} verbose={verbose}: {text}"
            );
        }
    }
    // A t-test that finds nothing reads "inconclusive" beside an equivalence, never "unchanged".
    let faster = analyses::faster_suite();
    let table = render(Format::Table, &faster, PLAIN);
    let render_row = table
        .lines()
        .find(|l| l.starts_with("render "))
        .expect("row");
    assert!(
        render_row.contains("inconclusive      unchanged"),
        "{render_row}"
    );
}

#[test]
fn no_direction_word_stands_at_a_confidence_of_one_half() {
    let mut a = analyses::hpt_not_reachable();
    a.suite.hpt.confidence = Some(0.5);
    a.suite.hpt.direction = Some(Direction::Slower);
    a.suite.hpt.max_confidence = Some(0.999);
    a.verdict = Verdict::Inconclusive;
    let suite = super::headline(&a)
        .iter()
        .map(|s| s.plain())
        .find(|s| s.starts_with("Suite:"))
        .expect("a suite sentence");
    assert!(
        suite.starts_with("Suite: no direction (HPT confidence 0.500: "),
        "{suite}"
    );
    let verbose = render(
        Format::Table,
        &a,
        Style {
            verbose: true,
            ..PLAIN
        },
    );
    let hpt = verbose
        .lines()
        .find(|l| l.starts_with("HPT:"))
        .expect("HPT's sentence under --verbose");
    assert!(!hpt.contains("slower") && !hpt.contains("faster"), "{hpt}");
    assert!(hpt.contains("no direction"), "{hpt}");
}

#[test]
fn every_report_says_what_it_compared() {
    let mut a = analyses::slower_suite_failed_gate();
    a.compared.origins = BaseHead {
        base: "main (0123456789)".into(),
        head: "feature (abcdef0123)".into(),
    };
    a.compared.toolchain = BaseHead {
        base: Some("rustc 1.95.0".into()),
        head: None,
    };
    a.compared.date = Some("2027-01-15 08:00 UTC".into());
    let said = "Compared BASE main (0123456789) with HEAD feature (abcdef0123)";
    for format in HUMAN {
        let text = render(format, &a, PLAIN);
        assert!(text.contains(said), "{format:?}: {text}");
        assert!(text.contains("rustc 1.95.0") && text.contains("2027-01-15 08:00 UTC"));
    }
    let json: Value = serde_json::from_str(&render(Format::Json, &a, PLAIN)).expect("JSON");
    assert_eq!(json["summary"]["compared"]["base"], "main (0123456789)");
    assert_eq!(json["summary"]["gate"], "failed");
    assert_eq!(json["summary"]["slower"][0], "decode");
}

#[test]
fn details_wait_for_verbose_and_each_cause_is_one_line() {
    let a = analyses::inconclusive_with_warnings();
    let default = render(Format::Table, &a, PLAIN);
    let verbose = render(
        Format::Table,
        &a,
        Style {
            verbose: true,
            ..PLAIN
        },
    );
    // The mean protocol's W1 is a detail under the median's verdict.
    assert!(!default.contains("Student's t-test"), "{default}");
    assert!(verbose.contains("Student's t-test"), "{verbose}");
    // One numbered line per cause under default verbosity, each naming its benchmarks.
    let numbered: Vec<&str> = default.lines().filter(|l| l.starts_with('[')).collect();
    let mut messages: Vec<&str> = numbered
        .iter()
        .map(|l| l.split_once("] ").map_or(*l, |(_, m)| m))
        .collect();
    messages.sort_unstable();
    let before = messages.len();
    messages.dedup();
    assert_eq!(before, messages.len(), "{default}");
    assert!(!numbered.is_empty() && numbered.len() < 6, "{default}");
}

#[test]
fn an_undecided_benchmark_says_what_its_runs_rule_out() {
    let mut a = analyses::unchanged_suite();
    for b in &mut a.benchmarks {
        b.verdict = Verdict::Inconclusive;
        b.equivalence.equivalent = false;
        b.equivalence.interval = Some((0.97, 1.03));
    }
    a.benchmarks[1].equivalence.interval = Some((0.95, 1.01));
    a.verdict = Verdict::Inconclusive;
    let lines: Vec<String> = super::headline(&a).iter().map(|s| s.plain()).collect();
    let undecided = lines
        .iter()
        .find(|l| l.contains(" inconclusive ("))
        .expect("an inconclusive sentence");
    // 1 / 0.95 − 1 = 5.26 %: the farthest bound of the group, as a time change.
    assert!(
        undecided.contains("no change beyond ±5.3% either way"),
        "{undecided}"
    );
}

#[test]
fn hostile_sizes_give_a_complete_report_within_the_width() {
    // A 10,000-character name, one benchmark with one run per side, and 1,000 benchmarks.
    let mut long = analyses::faster_suite();
    long.benchmarks[0].name = "n".repeat(10_000);
    let mut one_run = analyses::nothing_known();
    for b in &mut one_run.benchmarks {
        b.runs = BaseHead { base: 1, head: 1 };
    }
    let mut many = analyses::faster_suite();
    let template = many.benchmarks[0].clone();
    many.benchmarks = (0..1000)
        .map(|i| {
            let mut b = template.clone();
            b.name = format!("bench/{i}");
            b
        })
        .collect();
    for (name, analysis) in [("long", long), ("one run", one_run), ("many", many)] {
        let style = Style {
            width: Some(80),
            ..PLAIN
        };
        let text = render(Format::Table, &analysis, style);
        let first = super::headline(&analysis)[0].plain();
        assert!(
            text.starts_with(&first.chars().take(16).collect::<String>()),
            "{name}: {text:.300}"
        );
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{name}: {line:.120}");
        }
    }
}

/// criterion.rs #272: two benchmarks whose names share their first 60 characters, compared between two
/// baselines with long names, reported where standard output is not a terminal and `COLUMNS` is unset (a CI
/// log: no width, names shortened to 60 columns).
fn two_long_names() -> (Analysis, [String; 2], [String; 2]) {
    let stem = "a_bench_with_a_name_that_is_long_enough_to_be_cut_in_the_headline_of_the_table";
    assert!(stem.len() >= 60);
    let names = [format!("{stem}_read"), format!("{stem}_write")];
    let sides = [
        "baseline `before-the-change-of-the-allocator-in-the-parser-of-the-configuration-files`"
            .to_string(),
        "baseline `after-the-change-of-the-allocator-in-the-parser-of-the-configuration-files`"
            .to_string(),
    ];
    let mut a = analyses::slower_suite_failed_gate();
    a.benchmarks[0].name = names[0].clone();
    a.benchmarks[1].name = names[1].clone();
    a.compared.origins = BaseHead {
        base: sides[0].clone(),
        head: sides[1].clone(),
    };
    (a, names, sides)
}

#[test]
fn names_shortened_for_width_never_read_alike() {
    let (a, names, _) = two_long_names();
    let text = render(Format::Table, &a, PLAIN);
    let headline: &str = text.split("\n\n").next().expect("a headline");
    // The headline's sentence naming the slower benchmarks, with both names shortened.
    let slower = headline
        .lines()
        .find(|l| l.contains("_read") || l.contains("_write"))
        .unwrap_or_else(|| panic!("the headline names the benchmarks:\n{text}"));
    assert!(!slower.contains(&names[0]), "shortened: {slower}");
    let forms: Vec<&str> = slower
        .split([' ', ','])
        .filter(|w| w.contains('…'))
        .collect();
    assert_eq!(forms.len(), 2, "two shortened names in: {slower}");
    assert_ne!(forms[0], forms[1], "{slower}");
    for (form, end) in forms.iter().zip(["_read", "_write"]) {
        assert!(form.starts_with("a_bench"), "{form}");
        assert!(form.ends_with(end), "{form} keeps its distinguishing end");
        assert!(crate::inert::width(form) <= 60, "{form}");
    }
}

#[test]
fn the_compared_line_keeps_both_sides_whole() {
    let (a, _, sides) = two_long_names();
    // No width (a CI log), and a terminal wider than each label but narrower than the line.
    for width in [None, Some(100)] {
        let style = Style { width, ..PLAIN };
        let text = render(Format::Table, &a, style);
        // Wrapped or not, the line read as one holds both labels whole, never `…`.
        assert!(!text.contains("baseline `…"), "{text}");
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for side in &sides {
            assert!(joined.contains(side.as_str()), "{width:?}: {side}\n{text}");
        }
        if let Some(w) = width {
            assert!(
                text.lines()
                    .all(|l| crate::inert::width(l) <= usize::from(w)),
                "{text}"
            );
        }
    }
}

/// `main..main` on a suite of six benchmarks: identical executables, nothing run.
fn identical(count: usize) -> Analysis {
    let mut a = analyses::identical_executables();
    a.identical = (1..=count).map(|i| format!("bench_{i}")).collect();
    a
}

#[test]
fn a_list_names_every_item_rather_than_one_more() {
    let sentence = |count: usize| {
        super::headline(&identical(count))
            .iter()
            .map(|s| s.plain())
            .find(|s| s.contains("identical executables"))
            .expect("the identical sentence")
    };
    // Six: all named, never "and 1 more".
    let six = sentence(6);
    assert!(!six.contains("more"), "{six}");
    assert!(six.contains("bench_5, bench_6"), "{six}");
    // Seven: five named and the two others counted.
    let seven = sentence(7);
    assert!(seven.contains("bench_5 and 2 more"), "{seven}");
    assert!(!seven.contains("bench_6"), "{seven}");
    // The same rule where the up-to count is other than five.
    assert_eq!(super::shown(4, 3), 4);
    assert_eq!(super::shown(5, 3), 3);
    assert_eq!(super::shown(2, 3), 2);
}

#[test]
fn every_benchmark_is_unchanged_only_when_nothing_was_left_out() {
    use crate::model::coverage::{LeftOut, Reason};
    let mut a = analyses::identical_executables();
    for format in [Format::Table, Format::Markdown] {
        let text = render(format, &a, PLAIN);
        assert!(text.contains("Every benchmark is unchanged"), "{text}");
    }
    a.left_out = vec![LeftOut::target(
        "heavy",
        None,
        Reason::NeedsFeatures {
            missing: vec!["heavy".into()],
        },
    )];
    for format in [Format::Table, Format::Markdown, Format::Html] {
        let text = render(format, &a, PLAIN);
        assert!(!text.contains("Every benchmark is unchanged"), "{text}");
        assert!(
            text.contains("Every benchmark compared is unchanged"),
            "{text}"
        );
        assert!(text.contains("1 not compared: bench target "), "{text}");
        assert!(text.contains("needs feature heavy"), "{text}");
    }
}

/// Whether a report's text prints a term.
type Printed = fn(&str) -> bool;

/// The glossary's terms as this test knows them (`docs/verdicts.md` §1): the name each glossary lists, the
/// page it links to, and whether a report's text prints the term.
const TERMS: [(&str, &str, Printed); 7] = [
    ("(0.97), (>= 0.99)", "docs/speedup-test.md", |t| {
        [
            "faster (>= 0.99)",
            "slower (>= 0.99)",
            "faster (0.",
            "slower (0.",
        ]
        .iter()
        .any(|m| t.contains(m))
    }),
    ("interval", "docs/statistics.md", |t| {
        has_word(&t.to_lowercase(), &["interval", "intervals"])
    }),
    ("HPT", "docs/hpt.md", |t| has_word(t, &["HPT"])),
    ("r-speedup", "docs/hpt.md", |t| {
        // "r-speedup", or r itself before it: "0.95-speedup", "0.99-slowdown".
        let level = |m: &str| {
            (51..=99)
                .any(|r| t.contains(&format!("0.{r}-{m}")) || t.contains(&format!("0.{r}0-{m}")))
        };
        t.contains("r-speedup") || level("speedup") || level("slowdown")
    }),
    ("Holm", "docs/usage.md", |t| has_word(t, &["Holm"])),
    ("looks", "docs/racing.md", |t| has_word(t, &["looks"])),
    ("layouts", "docs/usage.md", |t| {
        has_word(&t.to_lowercase(), &["layout", "layouts"])
    }),
];

fn has_word(text: &str, any: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| any.contains(&w))
}

/// Samples that print Holm (a gate failed under `--fail-on any`) and layouts (a side with two modes, whose
/// hint names them), which the shared samples do not.
fn terms_of_the_gate_and_the_shape() -> Vec<(&'static str, Analysis)> {
    use crate::protocol::{Cause, GateReason, ShapeCause, Warning, WarningKind};
    let mut holm = analyses::slower_suite_failed_gate();
    holm.gate.fail_on = FailOn::Any;
    holm.gate.reasons = vec![GateReason::BenchmarkSlower {
        name: "decode".into(),
        held_to: 2.0,
        p: 0.0004,
        adjusted: 0.0012,
        slowdown: Some(5.3),
    }];
    let mut modes = analyses::faster_suite();
    let mode = |location, weight| crate::stats::modes::Mode { location, weight };
    let cause = ShapeCause::Modes {
        name: "render".into(),
        side: crate::model::Side::Head,
        basis: crate::model::Basis::ProcessRuns,
        modes: vec![mode(2.4, 0.5), mode(2.6, 0.5)],
        unit: crate::model::Unit::Ms,
    };
    modes.benchmarks[2]
        .warnings
        .push(Warning::of(WarningKind::Shape, Cause::Shape(cause)).as_detail());
    vec![("holm", holm), ("two_modes", modes)]
}

/// A human report split into what it says and its glossary's entries (name, the rest of the entry).
fn body_and_terms(format: Format, text: &str) -> (String, Vec<(String, String)>) {
    let start = match format {
        Format::Table => "\nTerms:\n",
        Format::Markdown => "<details><summary>Terms</summary>",
        _ => "<section id=\"terms\">",
    };
    let (body, glossary) = text.split_at(text.find(start).unwrap_or(text.len()));
    let entries = match format {
        Format::Table => glossary
            .lines()
            .skip(2)
            .filter_map(|l| l.strip_prefix("  ")?.split_once(": "))
            .filter(|(name, _)| !name.starts_with("The pages"))
            .map(|(n, rest)| (n.to_string(), rest.to_string()))
            .collect(),
        Format::Markdown => glossary
            .lines()
            .filter_map(|l| l.strip_prefix("- **")?.split_once("**: "))
            .map(|(n, rest)| (n.to_string(), rest.to_string()))
            .collect(),
        _ => glossary
            .split("<dt>")
            .skip(1)
            .filter_map(|e| e.split_once("</dt>"))
            .map(|(n, rest)| (n.replace("&gt;", ">"), rest.to_string()))
            .collect(),
    };
    let body = match format {
        Format::Html => visible_text(body)
            .replace("&gt;", ">")
            .replace("&lt;", "<")
            .replace("&amp;", "&"),
        _ => body.to_string(),
    };
    (body, entries)
}

#[test]
fn one_word_per_outcome_and_every_term_printed_is_defined_in_the_report() {
    let mut defined = std::collections::BTreeSet::new();
    let mut samples = analyses::all();
    samples.extend(terms_of_the_gate_and_the_shape());
    for (name, analysis) in samples {
        for format in HUMAN {
            for verbose in [false, true] {
                let style = Style { verbose, ..PLAIN };
                let text = render(format, &analysis, style);
                let (body, entries) = body_and_terms(format, &text);
                let at = format!("{name} {format:?} verbose={verbose}");
                // "inconclusive" for every outcome shown neither way: never paper 003's "tie", the
                // t-test's "no difference" or "undecided".
                let lower = body.to_lowercase();
                assert!(!lower.contains("no difference"), "{at}: {body}");
                for word in ["tie", "ties", "undecided"] {
                    assert!(!has_word(&lower, &[word]), "{at} says {word}: {body}");
                }
                for (term, page, printed) in TERMS {
                    let entry = entries.iter().find(|(n, _)| n == term);
                    if printed(&body) {
                        let (_, rest) = entry.unwrap_or_else(|| panic!("{at}: {term} undefined"));
                        assert!(rest.contains(page), "{at}: {term} links to {rest}");
                        defined.insert(term);
                    } else {
                        assert!(
                            entry.is_none(),
                            "{at}: {term} defined but not printed: {body}"
                        );
                    }
                }
                for (entry, _) in &entries {
                    assert!(
                        TERMS.iter().any(|t| t.0 == entry),
                        "{at}: {entry} is unknown to this test"
                    );
                }
            }
        }
    }
    // Every term is printed by some sample, so that each is checked.
    let all: std::collections::BTreeSet<&str> = TERMS.iter().map(|t| t.0).collect();
    let missing: Vec<_> = all.difference(&defined).collect();
    assert!(missing.is_empty(), "no sample prints {missing:?}");
}
