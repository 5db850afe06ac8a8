//! libtest `#[bench]` output (`cargo +nightly bench`), as text and as JSON lines (`docs/formats.md` §13).
//!
//! ```text
//! test benches::fib_20      ... bench:     166,747.16 ns/iter (+/- 121,105.04)
//! test bench_fib_10 ... bench:         135 ns/iter (+/- 24)
//! { "type": "bench", "name": "benches::fib_20", "median": 132318.91785714286, "deviation": 165993.95 }
//! ```
//!
//! Why it exists: libtest's bench harness, still common in older crates, prints nothing else; and
//! criterion's `--output-format bencher` prints the same text lines.
//!
//! Each result line is one process run's value: libtest prints the median of its samples in ns per
//! iteration (`ValuesFrom::ProcessPerValue`). The lines of several `cargo bench` runs appended to one file
//! are several runs of each benchmark; one file of one run is one value per side, which the analysis
//! reports as too few to test. The text's value may carry thousands separators (`1,234`) and, since Rust
//! 1.80's libtest, decimals (`1,234.56`); a throughput suffix (`= 230 MB/s`) is ignored. The `(+/- …)`
//! deviation is libtest's max − min, not a spread of runs, and is not read; neither is JSON's `deviation`
//! or `mib_per_second`. Other lines (`running N tests`, `test result:`, test events, suite events) are
//! skipped; a `bench:` line in another unit than `ns/iter` (a custom measurement through criterion's
//! bencher output) and a bench line that does not parse are noted with their line number, as are
//! `test NAME ... FAILED` lines. Must not: read a value as anything but nanoseconds per iteration.

use super::{Builder, SourceError, ValuesFrom};
use crate::model::coverage::Reason;
use crate::model::{Results, Unit};

const TEXT: &str = "libtest bench text";
const JSON: &str = "libtest bench JSON";

/// One line's meaning.
enum Line {
    /// A benchmark's value in nanoseconds per iteration.
    Bench(String, f64),
    /// A bench line that does not parse, or in another unit.
    Unreadable,
    /// A test or benchmark that failed, with its name.
    Failed(String),
    /// Anything else.
    Other,
}

/// Whether `text` holds a libtest bench text line (`test NAME ... bench:`), readable or not: one in
/// another unit is still libtest's format, and the reader says why it skipped it.
pub(crate) fn has_text(text: &str) -> bool {
    text.lines()
        .any(|line| matches!(text_line(line), Line::Bench(..) | Line::Unreadable))
}

/// Whether `text` holds a libtest bench JSON line.
pub(crate) fn has_json(text: &str) -> bool {
    text.lines()
        .any(|line| matches!(json_line(line), Line::Bench(..)))
}

fn text_line(line: &str) -> Line {
    let Some(rest) = line.trim().strip_prefix("test ") else {
        return Line::Other;
    };
    let Some((name, result)) = rest.split_once(" ... ") else {
        return Line::Other;
    };
    let name = name.trim();
    let result = result.trim();
    if result == "FAILED" {
        return Line::Failed(name.to_string());
    }
    let Some(result) = result.strip_prefix("bench:") else {
        return Line::Other;
    };
    let mut words = result.split_whitespace();
    let value = words
        .next()
        .and_then(|v| v.replace(',', "").parse::<f64>().ok());
    match (value, words.next(), words.next()) {
        (Some(value), Some("ns/iter"), Some("(+/-")) => Line::Bench(name.to_string(), value),
        _ => Line::Unreadable,
    }
}

fn json_line(line: &str) -> Line {
    let line = line.trim();
    if !line.starts_with('{') {
        return Line::Other;
    }
    let Ok(serde_json::Value::Object(object)) = serde_json::from_str(line) else {
        return Line::Unreadable;
    };
    if object.get("type").and_then(|t| t.as_str()) == Some("test")
        && object.get("event").and_then(|e| e.as_str()) == Some("failed")
    {
        let name = object.get("name").and_then(|n| n.as_str()).unwrap_or("");
        return Line::Failed(name.to_string());
    }
    if object.get("type").and_then(|t| t.as_str()) != Some("bench") {
        return Line::Other;
    }
    match (
        object.get("name").and_then(|n| n.as_str()),
        object.get("median").and_then(|m| m.as_f64()),
    ) {
        (Some(name), Some(median)) => Line::Bench(name.to_string(), median),
        _ => Line::Unreadable,
    }
}

/// Parses libtest bench text read from `origin`.
pub(crate) fn parse_text(text: &str, origin: &str) -> Result<Results, SourceError> {
    parse(text, origin, TEXT, text_line)
}

/// Parses libtest bench JSON lines read from `origin`.
pub(crate) fn parse_json(text: &str, origin: &str) -> Result<Results, SourceError> {
    parse(text, origin, JSON, json_line)
}

fn parse(
    text: &str,
    origin: &str,
    format: &str,
    read: fn(&str) -> Line,
) -> Result<Results, SourceError> {
    let mut builder = Builder::new(origin);
    let mut order: Vec<String> = Vec::new();
    let mut values: std::collections::HashMap<String, Vec<f64>> = Default::default();
    // The names of FAILED lines, in the order first seen, with how many runs failed.
    let mut failures: Vec<(String, usize)> = Vec::new();
    let (mut unreadable, mut failed) = (Vec::new(), Vec::new());
    for (index, line) in text.lines().enumerate() {
        match read(line) {
            Line::Bench(name, value) => {
                if !values.contains_key(&name) {
                    order.push(name.clone());
                }
                values.entry(name).or_default().push(value);
            }
            Line::Unreadable => unreadable.push(index + 1),
            Line::Failed(name) => {
                failed.push((index + 1, name.clone()));
                match failures.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, count)) => *count += 1,
                    None => failures.push((name, 1)),
                }
            }
            Line::Other => {}
        }
    }
    if let Some(first) = unreadable.first() {
        builder.notes.push(format!(
            "{origin}: skipped {}: no value in `ns/iter` could be read",
            lines(unreadable.len(), *first, ("bench line", "bench lines"))
        ));
    }
    // A name that failed in some runs but printed values in others is kept, with a note; one that only
    // failed is left out below.
    let failed: Vec<usize> = failed
        .into_iter()
        .filter(|(_, n)| n.is_empty() || values.contains_key(n))
        .map(|(line, _)| line)
        .collect();
    if let Some(first) = failed.first() {
        builder.notes.push(format!(
            "{origin}: skipped {}",
            lines(failed.len(), *first, ("FAILED line", "FAILED lines"))
        ));
    }
    for name in order {
        let sample = values.remove(&name).unwrap_or_default();
        // libtest rounds to whole nanoseconds before Rust 1.80, and criterion's bencher output always:
        // a 0 is a time below that resolution, not a time.
        if sample.contains(&0.0) {
            let printed = if format == JSON {
                "\"median\": 0".to_string()
            } else {
                "0 ns/iter".to_string()
            };
            builder.leave_out(&name, Reason::BelowResolution { printed })?;
            continue;
        }
        builder.push(&name, sample, Unit::Ns, ValuesFrom::ProcessPerValue)?;
    }
    for (name, runs) in failures {
        if name.is_empty() || builder.has(&name) {
            continue;
        }
        builder.leave_out(
            &name,
            Reason::Failed {
                failed: runs,
                runs,
                exit_codes: Vec::new(),
                message: String::new(),
            },
        )?;
    }
    builder.finish(format).map_err(|error| match error {
        SourceError::NoSamples { path, reason, .. } => SourceError::NoSamples {
            path,
            reason,
            hint: Some(
                "save what `cargo +nightly bench` prints (lines `test NAME ... bench: 1,234 ns/iter (+/- 56)`), \
                 or its JSON lines with `cargo +nightly bench -- -Z unstable-options --format json`"
                    .into(),
            ),
        },
        other => other,
    })
}

/// `1 bench line (line 3)` or `4 bench lines (the first on line 3)`.
fn lines(count: usize, first: usize, (one, many): (&str, &str)) -> String {
    if count == 1 {
        format!("1 {one} (line {first})")
    } else {
        format!("{count} {many} (the first on line {first})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::coverage::LeftOut;

    fn values(results: &Results, name: &str) -> Vec<f64> {
        results
            .benchmarks
            .iter()
            .find(|b| b.name == name)
            .unwrap()
            .runs
            .values()
    }

    #[test]
    fn separators_decimals_and_throughput_are_read() {
        let text = "test a ... bench:   1,234 ns/iter (+/- 56)\n\
                    test b      ... bench:      18,794.12 ns/iter (+/- 440.25)\n\
                    test c ... bench:      17,796.82 ns/iter (+/- 30,772.07) = 230 MB/s\n";
        let results = parse_text(text, "f").unwrap();
        assert_eq!(values(&results, "a"), [1234.0]);
        assert_eq!(values(&results, "b"), [18794.12]);
        assert_eq!(values(&results, "c"), [17796.82]);
        assert!(results.notes.is_empty(), "{:?}", results.notes);
    }

    #[test]
    fn other_units_and_failures_are_noted_with_their_lines() {
        let text = "running 3 tests\n\
                    test a ... bench:   10 ns/iter (+/- 1)\n\
                    test cmov ... bench:   2835 cycles/iter (+/- 14)\n\
                    test d ... FAILED\n\
                    test e ... bench:   lots ns/iter (+/- 1)\n\
                    test result: ok. 0 passed\n";
        let results = parse_text(text, "out.txt").unwrap();
        assert_eq!(results.benchmarks.len(), 1);
        assert_eq!(
            results.notes,
            [
                "out.txt: skipped 2 bench lines (the first on line 3): no value in `ns/iter` could be \
              read"
            ]
        );
        assert_eq!(
            results.left_out,
            [LeftOut::benchmark(
                "d",
                None,
                Reason::Failed {
                    failed: 1,
                    runs: 1,
                    exit_codes: vec![],
                    message: String::new()
                }
            )]
        );
    }

    #[test]
    fn a_failure_beside_values_of_other_runs_is_noted_and_the_values_kept() {
        let text = "test a ... bench:   10 ns/iter (+/- 1)\n\
                    test a ... FAILED\n\
                    test a ... bench:   12 ns/iter (+/- 1)\n";
        let results = parse_text(text, "out.txt").unwrap();
        assert_eq!(values(&results, "a"), [10.0, 12.0]);
        assert!(results.left_out.is_empty());
        assert_eq!(results.notes, ["out.txt: skipped 1 FAILED line (line 2)"]);
    }

    #[test]
    fn a_zero_is_below_the_resolution_and_leaves_its_benchmark_out() {
        // The lines criterion 0.8.2's `--output-format bencher` prints (github-action-benchmark #35: a
        // 0.39 ns benchmark printed as 0), and libtest JSON's `median` of 0.
        let text = "test small ... bench:           0 ns/iter (+/- 0)\n\
                    test fib_10 ... bench:         146 ns/iter (+/- 3)\n\
                    test flaky ... bench:           1 ns/iter (+/- 0)\n\
                    test flaky ... bench:           0 ns/iter (+/- 0)\n";
        let results = parse_text(text, "out.txt").unwrap();
        assert_eq!(values(&results, "fib_10"), [146.0]);
        let below = |printed: &str| Reason::BelowResolution {
            printed: printed.into(),
        };
        let left: Vec<(&str, Reason)> = results
            .left_out
            .iter()
            .map(|l| (l.name.as_str(), l.reason.clone()))
            .collect();
        assert_eq!(
            left,
            [("small", below("0 ns/iter")), ("flaky", below("0 ns/iter"))]
        );
        let json = "{ \"type\": \"bench\", \"name\": \"z\", \"median\": 0, \"deviation\": 0 }\n";
        let message = parse_json(json, "f.jsonl").unwrap_err().to_string();
        assert!(
            message.contains(
                "every benchmark in f.jsonl was printed as 0, below its harness's resolution: `z` \
                 (printed `\"median\": 0`)"
            ),
            "{message}"
        );
    }

    #[test]
    fn a_file_whose_every_benchmark_failed_names_the_file() {
        let text = "test a ... FAILED\ntest b ... FAILED\ntest a ... FAILED\n";
        let message = parse_text(text, "out.txt").unwrap_err().to_string();
        assert!(
            message.starts_with(
                "out.txt: no usable benchmark: every benchmark in out.txt failed in every run: `a` \
                 (2 of 2 runs failed), `b` (1 of 1 runs failed)\nhint: "
            ),
            "{message}"
        );
    }

    #[test]
    fn a_test_line_is_not_a_bench_line() {
        assert!(!has_text("test tests::it_works ... ok\n"));
        assert!(has_text("test x ... bench: 5 ns/iter (+/- 1)\n"));
    }

    #[test]
    fn json_bench_events_are_read_and_other_events_skipped() {
        let text = r#"{ "type": "suite", "event": "started", "test_count": 2 }
{ "type": "test", "event": "started", "name": "b::x" }
{ "type": "bench", "name": "b::x", "median": 135, "deviation": 24 }
{ "type": "bench", "name": "b::y", "median": 24784.25, "deviation": 4.5, "mib_per_second": 165 }
{ "type": "suite", "event": "ok", "passed": 0, "failed": 0 }
"#;
        let results = parse_json(text, "f").unwrap();
        assert_eq!(values(&results, "b::x"), [135.0]);
        assert_eq!(values(&results, "b::y"), [24784.25]);
    }

    #[test]
    fn each_run_appended_to_the_text_fixture_is_one_observation() {
        let results = crate::testutil::source_fixtures::read_fixture("libtest/base.txt").unwrap();
        assert_eq!(results.benchmarks.len(), 3);
        // Lines 4, 12, 20, 28 and 36.
        assert_eq!(
            values(&results, "benches::fib_10"),
            [146.64, 666.59, 672.81, 146.12, 1014.07]
        );
        // Lines 3, 11, 19, 27 and 35 (with their throughput suffix).
        assert_eq!(
            values(&results, "benches::checksum_4k"),
            [30471.02, 24194.78, 28548.91, 17662.36, 21646.72]
        );
        assert!(results.notes.is_empty(), "{:?}", results.notes);
    }

    #[test]
    fn integer_values_of_older_libtest_are_read() {
        let results = crate::testutil::source_fixtures::read_fixture("libtest/legacy.txt").unwrap();
        assert_eq!(values(&results, "bench_fib_10"), [135.0]);
        assert_eq!(values(&results, "bench_fib_20"), [18149.0]);
    }

    #[test]
    fn each_run_appended_to_the_json_fixture_is_one_observation() {
        let results = crate::testutil::source_fixtures::read_fixture("libtest/base.jsonl").unwrap();
        // Lines 7, 15 and 23.
        assert_eq!(
            values(&results, "benches::fib_20"),
            [144125.025, 176418.21785714285, 160598.1598214286]
        );
        assert_eq!(results.benchmarks.len(), 3);
    }

    #[test]
    fn a_file_without_bench_lines_names_the_format() {
        let message = parse_text("running 0 tests\n", "out.txt")
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "out.txt: no samples: no benchmark found in this libtest bench text input\nhint: save what \
             `cargo +nightly bench` prints (lines `test NAME ... bench: 1,234 ns/iter (+/- 56)`), or its \
             JSON lines with `cargo +nightly bench -- -Z unstable-options --format json`"
        );
    }
}
