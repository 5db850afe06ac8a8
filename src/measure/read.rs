//! Reading what a run left: criterion's saved baseline under a run's `CRITERION_HOME`, and our cache files.
//! The criterion layout is described in `formats.md` §1; benchmarks are matched by `full_id`, never by
//! directory name. Samples are batch means (observation k = times[k] / iters[k]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::MeasureError;
use crate::model::{Benchmark, Environment, Observation, Results, Sample, Unit};

#[derive(Deserialize)]
struct BenchmarkFile {
    full_id: String,
}

#[derive(Deserialize)]
struct SampleFile {
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// Every benchmark saved as `baseline` under `root`, sorted by name.
pub fn criterion_baseline(root: &Path, baseline: &str) -> Result<Results, MeasureError> {
    let mut dirs = Vec::new();
    find_dirs(root, baseline, &mut dirs);
    let mut benchmarks = Vec::new();
    for dir in dirs {
        let id: BenchmarkFile = json(&dir.join("benchmark.json"))?;
        let sample: SampleFile = json(&dir.join("sample.json"))?;
        let values = sample
            .times
            .iter()
            .zip(&sample.iters)
            .map(|(t, i)| t / i)
            .collect();
        let sample = Sample::new(values, Unit::Ns).map_err(|e| MeasureError::Read {
            path: dir.join("sample.json"),
            detail: e.to_string(),
        })?;
        benchmarks.push(Benchmark {
            name: id.full_id,
            sample,
            unit: Unit::Ns,
            observation: Observation::BatchMean,
        });
    }
    benchmarks.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Results {
        origin: root.display().to_string(),
        benchmarks,
        environment: Environment::default(),
        notes: vec![],
    })
}

fn find_dirs(dir: &Path, baseline: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if entry.file_name() == baseline && path.join("sample.json").is_file() {
            out.push(path);
        } else {
            find_dirs(&path, baseline, out);
        }
    }
}

fn json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, MeasureError> {
    let text = std::fs::read(path).map_err(|e| MeasureError::Read {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })?;
    serde_json::from_slice(&text).map_err(|e| MeasureError::Read {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })
}

#[derive(Serialize, Deserialize)]
struct CacheFile {
    origin: String,
    cpu: Option<String>,
    rustc: Option<String>,
    host: Option<String>,
    notes: Vec<String>,
    benchmarks: Vec<CacheBenchmark>,
}

#[derive(Serialize, Deserialize)]
struct CacheBenchmark {
    name: String,
    unit: String,
    samples: Vec<f64>,
}

/// One side's pooled results as JSON (samples in nanoseconds).
pub fn write_results(results: &Results, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let file = CacheFile {
        origin: results.origin.clone(),
        cpu: results.environment.cpu.clone(),
        rustc: results.environment.rustc.clone(),
        host: results.environment.host.clone(),
        notes: results.notes.clone(),
        benchmarks: results
            .benchmarks
            .iter()
            .map(|b| CacheBenchmark {
                name: b.name.clone(),
                unit: "ns".into(),
                samples: b.sample.nanos().to_vec(),
            })
            .collect(),
    };
    serde_json::to_writer_pretty(out, &file).map_err(std::io::Error::other)
}

/// What [`write_results`] wrote; `None` when the file is missing or unreadable (a cache miss).
pub fn read_results(path: &Path) -> Option<Results> {
    let file: CacheFile = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    let benchmarks = file
        .benchmarks
        .into_iter()
        .map(|b| {
            Some(Benchmark {
                name: b.name,
                sample: Sample::new(b.samples, Unit::Ns).ok()?,
                unit: Unit::Ns,
                observation: Observation::BatchMean,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Results {
        origin: file.origin,
        benchmarks,
        environment: Environment {
            cpu: file.cpu,
            rustc: file.rustc,
            host: file.host,
        },
        notes: file.notes,
    })
}
