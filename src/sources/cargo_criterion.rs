//! cargo-criterion `--message-format=json` streams (`docs/formats.md` §2): one JSON object per line on stdout.
//!
//! Why it exists: cargo-criterion keeps no baselines on disk that we could read (its history is CBOR), so
//! its JSON messages are how its runs are compared.
//!
//! Each `"reason": "benchmark-complete"` line is one benchmark named by `id`; observation k is
//! `measured_values[k] / iteration_count[k]` in `unit` (`ValuesFrom::OneProcess`: batch means from one
//! process). `group-complete` lines, other reasons and lines that are not JSON objects are ignored (a line
//! that starts like JSON but does not parse is noted). A custom measurement's unit (e.g. `cycles`) needs
//! `--unit`, which overrides the declared unit. Must not: read the estimates (`typical`, `mean`, `change`):
//! the statistics use the raw batches only.

use serde::Deserialize;

use super::top_level::TopLevel;
use super::{Builder, SourceError, ValuesFrom, invalid};
use crate::model::coverage::Reason;
use crate::model::{Results, Unit};

const FORMAT: &str = "cargo-criterion JSON";

#[derive(Deserialize)]
struct Complete {
    id: String,
    iteration_count: Vec<f64>,
    measured_values: Vec<f64>,
    unit: String,
}

/// Whether some line of `text` is a JSON object with a string `reason`, as cargo-criterion writes.
pub(crate) fn has_messages(text: &str) -> bool {
    text.lines().any(|line| message(line).is_some())
}

/// The `reason` of the JSON object on `line`, when it is one with a string `reason`.
fn message(line: &str) -> Option<String> {
    let line = line.trim();
    if !line.starts_with('{') {
        return None;
    }
    TopLevel::parse(line)
        .ok()?
        .string("reason")
        .map(str::to_string)
}

/// Parses the JSON lines read from `origin`; `unit_override` replaces every declared unit.
pub(crate) fn parse(
    text: &str,
    origin: &str,
    unit_override: Option<Unit>,
) -> Result<Results, SourceError> {
    let mut builder = Builder::new(origin);
    let mut unparsed = 0usize;
    for (index, line) in text.lines().enumerate() {
        let Some(reason) = message(line) else {
            unparsed += usize::from(line.trim_start().starts_with('{'));
            continue;
        };
        if reason != "benchmark-complete" {
            continue;
        }
        let at = format!("line {}", index + 1);
        let complete: Complete = serde_json::from_str(line.trim())
            .map_err(|e| invalid(origin, FORMAT, format!("{at}: {e}")))?;
        let unit = match unit_override {
            Some(unit) => unit,
            None => {
                Unit::parse(&complete.unit).ok_or_else(|| unknown_unit(origin, &at, &complete))?
            }
        };
        match batch_means(&complete) {
            Ok(values) => builder.push(&complete.id, values, unit, ValuesFrom::OneProcess)?,
            Err(detail) => builder.leave_out(
                &complete.id,
                Reason::NoValue {
                    detail: format!("{at}: {detail}"),
                },
            )?,
        }
    }
    if unparsed > 0 {
        let lines = if unparsed == 1 {
            "1 line that looks like JSON but does not parse".to_string()
        } else {
            format!("{unparsed} lines that look like JSON but do not parse")
        };
        builder.notes.push(format!("{origin}: skipped {lines}"));
    }
    builder.finish(FORMAT)
}

/// The batch means of one benchmark, or why its arrays give none.
fn batch_means(complete: &Complete) -> Result<Vec<f64>, String> {
    let (iters, values) = (&complete.iteration_count, &complete.measured_values);
    if iters.len() != values.len() {
        return Err(format!(
            "{} iteration counts but {} measured values",
            iters.len(),
            values.len()
        ));
    }
    if let Some(n) = iters.iter().find(|n| !(n.is_finite() && **n > 0.0)) {
        return Err(format!("an iteration count of {n}"));
    }
    Ok(values.iter().zip(iters).map(|(v, n)| v / n).collect())
}

fn unknown_unit(origin: &str, at: &str, complete: &Complete) -> SourceError {
    SourceError::NoSamples {
        path: origin.into(),
        reason: format!(
            "{at}: `{}` is measured in `{}`, not a time unit",
            complete.id, complete.unit
        ),
        hint: Some("give the unit with `--unit ns|us|ms|s` to compare it anyway".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::{InputFormat, ReadOptions, detect, load};
    use crate::testutil::source_fixtures::fixture;

    #[test]
    fn observation_is_measured_value_over_iterations() {
        let path = fixture("cargo-criterion/base.jsonl");
        let results = load(path.to_str().unwrap(), &ReadOptions::default()).unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["norm", "throughput/Bytes"]);
        let norm = &results.benchmarks[0];
        assert_eq!(
            norm.runs.runs()[0].samples(),
            &[124200.0 / 30.0, 251100.0 / 60.0, 371800.0 / 90.0]
        );
        assert_eq!(norm.runs.len(), 1, "one process");
        // The fixture's human-readable and truncated lines are skipped, the truncated one noted.
        assert_eq!(results.notes.len(), 1, "{:?}", results.notes);
        assert!(
            results.notes[0].ends_with("skipped 1 line that looks like JSON but does not parse"),
            "{:?}",
            results.notes
        );
    }

    #[test]
    fn one_message_line_is_detected() {
        let line = r#"{"reason":"group-complete","group_name":"g","benchmarks":[],"report_directory":"r"}"#;
        assert_eq!(detect(line), Some(InputFormat::CargoCriterion));
    }

    #[test]
    fn custom_unit_needs_the_override() {
        let line = r#"{"reason":"benchmark-complete","id":"c","iteration_count":[2],"measured_values":[50],"unit":"cycles"}"#;
        let message = parse(line, "c.jsonl", None).unwrap_err().to_string();
        assert!(
            message.contains("`cycles`") && message.contains("--unit"),
            "{message}"
        );
        let results = parse(line, "c.jsonl", Some(Unit::Ns)).unwrap();
        assert_eq!(results.benchmarks[0].runs.runs()[0].samples(), &[25.0]);
    }

    #[test]
    fn only_group_messages_is_no_samples() {
        let line = r#"{"reason":"group-complete","group_name":"g","benchmarks":[],"report_directory":"r"}"#;
        let err = parse(line, "g.jsonl", None).unwrap_err();
        assert!(matches!(err, SourceError::NoSamples { .. }), "{err:?}");
    }

    #[test]
    fn a_benchmark_whose_arrays_pair_nothing_is_left_out_and_the_rest_read() {
        // cargo-criterion 1.x's `benchmark-complete` message (its fields as `--message-format=json` writes
        // them, estimates left out), one with an iteration count of 0.
        let text = r#"{"reason":"benchmark-complete","id":"good","iteration_count":[2,4],"measured_values":[50,100],"unit":"ns"}
{"reason":"benchmark-complete","id":"bad","iteration_count":[0,4],"measured_values":[50,100],"unit":"ns"}
{"reason":"benchmark-complete","id":"short","iteration_count":[1,2],"measured_values":[50],"unit":"ns"}
"#;
        let results = parse(text, "c.jsonl", None).unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["good"]);
        let left: Vec<(&str, &Reason)> = results
            .left_out
            .iter()
            .map(|l| (l.name.as_str(), &l.reason))
            .collect();
        assert_eq!(
            left,
            [
                (
                    "bad",
                    &Reason::NoValue {
                        detail: "line 2: an iteration count of 0".into()
                    }
                ),
                (
                    "short",
                    &Reason::NoValue {
                        detail: "line 3: 2 iteration counts but 1 measured values".into()
                    }
                ),
            ]
        );
    }
}
