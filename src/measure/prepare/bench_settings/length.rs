//! How long each run really measured each benchmark, from what criterion saved for it: `sample.json`'s
//! iteration counts and times (nanoseconds per sample) beside `benchmark.json`'s `full_id`, in the
//! baseline directory of every benchmark under a run's `CRITERION_HOME`.
//!
//! The sum of a run's sample times is the length of its measurement. Criterion sizes its samples so that
//! the sum meets the measurement time it was given: `d` iterations per step (linear sampling: samples of
//! d, 2d, ... nd iterations; flat: n samples of d), `d` at least 1. So a run measured for much longer than
//! requested either had its time or its sample count set by the bench file (d > 1, or more samples than
//! requested), or its iterations are too slow for the requested time (d = 1 and the requested number of
//! samples: criterion cannot take fewer iterations, an override would not change that). Only the first is
//! an override ([`Classified::Overridden`]).
//!
//! Must not: fail a comparison (an unreadable file is skipped: the reading of results proper reports it).

use std::collections::BTreeMap;
use std::path::Path;

use crate::sources::criterion::subdirectories;

/// One benchmark's measurement in one run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunLength {
    /// criterion's `full_id`.
    pub name: String,
    /// The number of samples.
    pub samples: usize,
    /// The iterations of the first sample (criterion's `d`, for either sampling mode).
    pub first_iterations: f64,
    /// The sum of the sample times, in seconds.
    pub measured_secs: f64,
}

/// What the runs of one benchmark show about their length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Classified {
    /// About as requested (at most twice).
    AsRequested,
    /// Longer than twice the request with the fewest iterations criterion takes: its iterations are slow.
    SlowIterations,
    /// Longer than twice the request because the bench file set the time or the sample count.
    Overridden,
}

/// One benchmark's runs, summarised.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LengthSummary {
    pub name: String,
    /// The median length of measurement over its runs, in seconds.
    pub median_secs: f64,
    pub classified: Classified,
}

/// Every benchmark saved under `home` as `baseline`; nothing when there is none.
pub(crate) fn read_run(home: &Path, baseline: &str) -> Vec<RunLength> {
    let mut found = Vec::new();
    walk(home, baseline, 0, &mut found);
    found
}

fn walk(dir: &Path, baseline: &str, depth: usize, found: &mut Vec<RunLength>) {
    // criterion nests group / function / value / baseline: 4 levels, and names may hold `/`.
    if depth > 8 {
        return;
    }
    for path in subdirectories(dir) {
        if path.file_name().is_some_and(|n| n == baseline) {
            if let Some(length) = read_benchmark(&path) {
                found.push(length);
            }
        } else {
            walk(&path, baseline, depth + 1, found);
        }
    }
}

fn read_benchmark(dir: &Path) -> Option<RunLength> {
    let json = |name: &str| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).ok()?).ok()
    };
    let benchmark = json("benchmark.json")?;
    let sample = json("sample.json")?;
    let numbers = |key: &str| -> Option<Vec<f64>> {
        sample
            .get(key)?
            .as_array()?
            .iter()
            .map(serde_json::Value::as_f64)
            .collect()
    };
    let (iters, times) = (numbers("iters")?, numbers("times")?);
    Some(RunLength {
        name: benchmark.get("full_id")?.as_str()?.to_string(),
        samples: times.len(),
        first_iterations: *iters.first()?,
        measured_secs: times.iter().sum::<f64>() * 1e-9,
    })
}

/// Each benchmark of `runs` (every run's lengths), summarised against the requested measurement time and
/// sample count, by name.
pub(crate) fn summarise(
    runs: &[Vec<RunLength>],
    measurement_secs: f64,
    sample_size: u32,
) -> Vec<LengthSummary> {
    let mut by_name: BTreeMap<&str, Vec<&RunLength>> = BTreeMap::new();
    for length in runs.iter().flatten() {
        by_name.entry(&length.name).or_default().push(length);
    }
    by_name
        .into_iter()
        .map(|(name, lengths)| {
            let median_secs = median(lengths.iter().map(|l| l.measured_secs).collect());
            let set_by_file = lengths
                .iter()
                .any(|l| l.first_iterations > 1.0 || l.samples > sample_size as usize);
            let classified = match (median_secs > 2.0 * measurement_secs, set_by_file) {
                (false, _) => Classified::AsRequested,
                (true, true) => Classified::Overridden,
                (true, false) => Classified::SlowIterations,
            };
            LengthSummary {
                name: name.to_string(),
                median_secs,
                classified,
            }
        })
        .collect()
}

/// The median of `values`; 0 for none.
pub(crate) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn length(name: &str, samples: usize, first: f64, secs: f64) -> RunLength {
        RunLength {
            name: name.into(),
            samples,
            first_iterations: first,
            measured_secs: secs,
        }
    }

    #[test]
    fn criterions_saved_samples_give_the_runs_length() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("encode_small_input/encode/3072/speedup");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("benchmark.json"),
            r#"{"group_id":"encode_small_input","function_id":"encode","value_str":"3072","full_id":"encode_small_input/encode/3072","directory_name":"encode_small_input/encode/3072","title":"x"}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("sample.json"),
            r#"{"sampling_mode":"Linear","iters":[3.0,6.0,9.0],"times":[1.0e9,2.0e9,0.5e9]}"#,
        )
        .unwrap();
        // Another baseline's files are not this run's.
        let other = home.path().join("encode_small_input/encode/3072/new");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("sample.json"), "{}").unwrap();
        assert_eq!(
            read_run(home.path(), "speedup"),
            [length("encode_small_input/encode/3072", 3, 3.0, 3.5)]
        );
        assert!(read_run(&home.path().join("missing"), "speedup").is_empty());
    }

    #[test]
    fn a_long_run_is_an_override_only_when_criterion_aimed_for_it() {
        let runs = vec![
            vec![
                length("quick", 10, 2000.0, 0.21),
                length("overridden", 10, 40_000.0, 3.0),
                length("slow", 10, 1.0, 0.9),
                length("more_samples", 100, 1.0, 0.7),
            ],
            vec![
                length("quick", 10, 2000.0, 0.19),
                length("overridden", 10, 40_000.0, 3.1),
                length("slow", 10, 1.0, 1.1),
                length("more_samples", 100, 1.0, 0.7),
            ],
        ];
        let got: Vec<(String, f64, Classified)> = summarise(&runs, 0.2, 10)
            .into_iter()
            .map(|s| {
                (
                    s.name,
                    (s.median_secs * 100.0).round() / 100.0,
                    s.classified,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("more_samples".to_string(), 0.7, Classified::Overridden),
                ("overridden".to_string(), 3.05, Classified::Overridden),
                ("quick".to_string(), 0.2, Classified::AsRequested),
                ("slow".to_string(), 1.0, Classified::SlowIterations),
            ]
        );
    }
}
