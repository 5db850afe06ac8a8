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
        let values = batch_means(&complete, origin, &at)?;
        builder.push(&complete.id, values, unit, ValuesFrom::OneProcess)?;
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

fn batch_means(complete: &Complete, origin: &str, at: &str) -> Result<Vec<f64>, SourceError> {
    let (iters, values) = (&complete.iteration_count, &complete.measured_values);
    if iters.len() != values.len() {
        let message = format!(
            "{at}: `{}` has {} iteration counts but {} measured values",
            complete.id,
            iters.len(),
            values.len()
        );
        return Err(invalid(origin, FORMAT, message));
    }
    if let Some(n) = iters.iter().find(|n| !(n.is_finite() && **n > 0.0)) {
        let message = format!("{at}: `{}` has an iteration count of {n}", complete.id);
        return Err(invalid(origin, FORMAT, message));
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
}
