//! What a divan or libtest run printed, read as one run's values per benchmark: divan's tree through
//! `crate::sources::divan` (its median and counters), libtest's `ns/iter` lines (`libtest`). A value
//! below the harness's resolution (printed as 0) is left out of the run.
//!
//! Must not: start processes, or read criterion's saved files (`measure::read` does).

use std::path::Path;

use super::kinds::Harness;
use super::libtest;
use crate::model::coverage::{LeftOut, Reason};
use crate::model::{Benchmark, Counter, Results, Run, Runs, Sample, Unit};

/// The values a divan or libtest run printed (`text`), one run each, as a [`Results`]; `Err` says why the
/// text is not what `harness` prints.
pub(crate) fn read_output(harness: Harness, text: &str, origin: &str) -> Result<Results, String> {
    let rows: Vec<(String, f64, Vec<Counter>)> = match harness {
        Harness::Divan => divan_rows(text)?,
        Harness::Libtest => libtest::parse(text)?
            .into_iter()
            .map(|(name, nanos)| (name, nanos, Vec::new()))
            .collect(),
        Harness::Criterion => {
            return Err("criterion saves its samples, it is not read from its output".into());
        }
    };
    let mut left_out = Vec::new();
    let mut benchmarks = Vec::new();
    for (name, nanos, counters) in rows {
        // Both harnesses print whole nanoseconds at the least: a 0 is a time below their resolution (an
        // optimised-away body), not a time; it is left out of this run, and of the side when no run of it
        // measured a time (`run::collect`).
        if nanos <= 0.0 {
            let printed = match harness {
                Harness::Divan => "0 ns",
                _ => "0 ns/iter",
            };
            left_out.push(LeftOut::benchmark(
                name,
                None,
                Reason::BelowResolution {
                    printed: printed.to_string(),
                },
            ));
            continue;
        }
        let sample = Sample::new(vec![nanos], Unit::Ns).map_err(|e| format!("`{name}`: {e}"))?;
        let runs = Runs::new(vec![Run::new(sample, None)]).map_err(|e| format!("`{name}`: {e}"))?;
        benchmarks.push(Benchmark {
            name,
            runs,
            unit: Unit::readable(nanos),
            counters,
        });
    }
    Ok(Results {
        origin: origin.to_string(),
        benchmarks,
        environment: Default::default(),
        notes: vec![],
        left_out,
    })
}

/// The benchmarks of one divan run's standard output (one tree; nothing else around it).
pub(super) fn divan_rows(text: &str) -> Result<Vec<(String, f64, Vec<Counter>)>, String> {
    let trees = crate::sources::divan::trees(text, crate::sources::divan::Around::Nothing)?;
    Ok(trees
        .into_iter()
        .flatten()
        .map(|row| (row.name, row.median, row.counters))
        .collect())
}

/// Reads a kept output file of `harness` (`output_file`).
pub(crate) fn read_file(harness: Harness, path: &Path) -> Result<Results, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_output(harness, &text, &path.display().to_string())
}
