//! Results already measured, reused when nothing that determines them changed. The key is the text of
//! everything that does: the commit and the commit it was interleaved with (a side's runs are only worth
//! their interleaving with the other side's: results of two sessions are never mixed, `docs/replication.md`
//! §3), the looks, the budget and the analysis options the looks stop on (runs that stopped at 0.95's
//! verdicts, or at a cap of 20, are not what `--confidence 0.99` or `--max-runs 40` asks for), `rustc -vV`, the manifest, package, bench targets, features, build flags from the environment,
//! criterion's filter and times, whether the bench files' own settings were kept or rewritten, the partition, the runs, the linked layouts, a seed when one was given, and the machine (host name and CPU
//! model). Its FNV-1a hash names the file; the full text is stored beside it and compared on load, so a
//! hash collision is a miss, never a wrong hit. The working tree is never cached (it has no commit).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::MeasureError;
use super::read;
use super::settings::RunOptions;
use crate::model::Results;

/// Version of the key's layout: bump it when what a cached file means changes.
const KEY_VERSION: u32 = 5;

/// The machine, as far as results depend on it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Machine {
    pub host: Option<String>,
    pub cpu: Option<String>,
}

impl Machine {
    /// Host name and CPU model (Linux: `/proc/sys/kernel/hostname`, `/proc/cpuinfo`).
    pub fn detect() -> Machine {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .or_else(|| std::env::var("HOSTNAME").ok())
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty());
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            });
        Machine { host, cpu }
    }
}

/// What determines one revision's results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheKey {
    text: String,
}

impl CacheKey {
    /// The key of the side `sha` measured interleaved with `other` (the other sides' commits), whose
    /// looks stopped by the rule `stopping` (the analysis options the verdicts between looks depend on).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        sha: &str,
        other: &str,
        stopping: &str,
        given_seed: Option<u64>,
        rustc: &str,
        manifest: &Path,
        options: &RunOptions,
        machine: &Machine,
    ) -> CacheKey {
        let mut text = String::new();
        let mut line = |k: &str, v: &str| {
            let _ = writeln!(text, "{k}={v}");
        };
        line("version", &KEY_VERSION.to_string());
        line("commit", sha);
        line("interleaved-with", other);
        line(
            "seed",
            &given_seed.map(|s| s.to_string()).unwrap_or_default(),
        );
        line("manifest", &manifest.to_string_lossy());
        line("package", options.package.as_deref().unwrap_or(""));
        line("benches", &options.benches.join(","));
        line("features", options.features.as_deref().unwrap_or(""));
        line("filter", options.filter.as_deref().unwrap_or(""));
        line(
            "partition",
            &options.partition.map(|p| p.to_string()).unwrap_or_default(),
        );
        line("runs", &options.runs.to_string());
        line("looks", &options.look_plan.looks_text());
        line(
            "budget",
            &options
                .budget
                .map(|b| b.as_millis().to_string())
                .unwrap_or_default(),
        );
        line("stopping", stopping);
        line("warm-up-time", &options.warm_up_secs.to_string());
        line("measurement-time", &options.measurement_secs.to_string());
        line("sample-size", &options.sample_size.to_string());
        line("run-identical", &options.run_identical.to_string());
        // Runs with the bench files' settings rewritten and kept are not the same experiment.
        line(
            "bench-settings",
            super::fingerprint::bench_settings(options),
        );
        line("layouts", &options.layouts.to_string());
        line("host", machine.host.as_deref().unwrap_or(""));
        line("cpu", machine.cpu.as_deref().unwrap_or(""));
        for (k, v) in build_environment() {
            line(&format!("env {k}"), &v);
        }
        line("rustc", rustc.trim());
        CacheKey { text }
    }

    /// 16 hex digits of the key's FNV-1a hash.
    pub fn stem(&self) -> String {
        let hash = self.text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("{hash:016x}")
    }
}

/// Environment variables that change what cargo builds.
fn build_environment() -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| {
            matches!(
                k.as_str(),
                "RUSTFLAGS" | "CARGO_ENCODED_RUSTFLAGS" | "RUSTC" | "RUSTC_WRAPPER"
            ) || k.starts_with("CARGO_PROFILE_")
                || k.starts_with("CARGO_BUILD_")
        })
        .collect();
    vars.sort();
    vars
}

/// `<dir>/<stem>.json`, the cached results.
pub fn path(dir: &Path, key: &CacheKey) -> PathBuf {
    dir.join(format!("{}.json", key.stem()))
}

/// The cached results for `key`, if present and written under exactly this key; `origin` names them.
pub fn load(dir: &Path, key: &CacheKey, origin: &str) -> Option<Results> {
    let stored = std::fs::read_to_string(dir.join(format!("{}.key", key.stem()))).ok()?;
    if stored != key.text {
        return None;
    }
    read::read_results(&path(dir, key), origin)
}

/// Stores `results` under `key` (results first, key last: a key file always has its results).
pub fn store(dir: &Path, key: &CacheKey, results: &Results) -> Result<(), MeasureError> {
    let io = |path: PathBuf| {
        move |source| MeasureError::Io {
            what: "writing the cache",
            path,
            error: source,
        }
    };
    std::fs::create_dir_all(dir).map_err(io(dir.to_path_buf()))?;
    let json = path(dir, key);
    let mut bytes = Vec::new();
    read::write_results(results, &mut bytes).map_err(io(json.clone()))?;
    std::fs::write(&json, bytes).map_err(io(json))?;
    let key_path = dir.join(format!("{}.key", key.stem()));
    std::fs::write(&key_path, &key.text).map_err(io(key_path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::RunArgs;
    use crate::model::{Benchmark, Environment, Run, Runs, Sample, Unit};

    fn options(features: Option<&str>) -> RunOptions {
        let args = RunArgs {
            features: features.map(String::from),
            seed: Some(1),
            ..RunArgs::default()
        };
        crate::plan::run_options(&args, false, None).unwrap()
    }

    fn key(sha: &str, features: Option<&str>, cpu: &str) -> CacheKey {
        let machine = Machine {
            host: Some("h".into()),
            cpu: Some(cpu.into()),
        };
        CacheKey::new(
            sha,
            "other",
            "confidence 0.95",
            None,
            "rustc 1.0",
            Path::new("Cargo.toml"),
            &options(features),
            &machine,
        )
    }

    #[test]
    fn the_key_changes_with_what_determines_results() {
        let k = key("abc", None, "cpu A");
        assert_eq!(k.stem(), key("abc", None, "cpu A").stem());
        assert_ne!(k.stem(), key("abd", None, "cpu A").stem());
        assert_ne!(k.stem(), key("abc", Some("simd"), "cpu A").stem());
        assert_ne!(k.stem(), key("abc", None, "cpu B").stem());
        let machine = Machine::default();
        let with = |other: &str, seed| {
            CacheKey::new(
                "abc",
                other,
                "confidence 0.95",
                seed,
                "r",
                Path::new("C"),
                &options(None),
                &machine,
            )
            .stem()
        };
        assert_ne!(
            with("x", None),
            with("y", None),
            "a side is only worth its interleaving"
        );
        assert_ne!(with("x", None), with("x", Some(3)));
        assert_eq!(k.stem().len(), 16);
        // Runs with the bench files' own settings kept are another experiment than runs with them rewritten.
        let kept = RunOptions {
            keep_bench_settings: true,
            ..options(None)
        };
        let key_of = |o: &RunOptions| {
            CacheKey::new("abc", "x", "c", None, "r", Path::new("C"), o, &machine).stem()
        };
        assert_ne!(key_of(&kept), key_of(&options(None)));
    }

    #[test]
    fn the_stopping_rule_the_cap_and_the_budget_change_the_key() {
        let machine = Machine::default();
        let o = options(None);
        let key = |o: &RunOptions, stopping: &str| {
            CacheKey::new("s", "o", stopping, None, "r", Path::new("C"), o, &machine).stem()
        };
        let first = key(&o, "confidence 0.95");
        assert_ne!(first, key(&o, "confidence 0.99"));
        let mut capped = o.clone();
        capped.look_plan = crate::protocol::sequential::LookPlan::new(o.runs, 40).unwrap();
        assert_ne!(first, key(&capped, "confidence 0.95"));
        let mut budget = o.clone();
        budget.budget = Some(std::time::Duration::from_secs(600));
        assert_ne!(first, key(&budget, "confidence 0.95"));
        assert_eq!(first, key(&o.clone(), "confidence 0.95"));
    }

    #[test]
    fn the_layouts_change_the_key() {
        let machine = Machine::default();
        let mut o = options(None);
        let fixed = {
            o.layouts = 1;
            CacheKey::new("s", "o", "c", None, "r", Path::new("C"), &o, &machine)
        };
        o.layouts = 10;
        let sampled = CacheKey::new("s", "o", "c", None, "r", Path::new("C"), &o, &machine);
        assert_ne!(fixed.stem(), sampled.stem());
    }

    #[test]
    fn quiet_and_rerun_do_not_change_the_key() {
        let mut o = options(None);
        let machine = Machine::default();
        let a = CacheKey::new("s", "o", "c", None, "r", Path::new("C"), &o, &machine);
        o.quiet = true;
        o.rerun = true;
        assert_eq!(
            a,
            CacheKey::new("s", "o", "c", None, "r", Path::new("C"), &o, &machine)
        );
    }

    #[test]
    fn stored_results_come_back_and_other_keys_miss() {
        let dir = tempfile::tempdir().unwrap();
        let results = Results {
            origin: "main (abc)".into(),
            benchmarks: vec![Benchmark {
                name: "g/f".into(),
                runs: Runs::new(vec![
                    Run::new(Sample::new(vec![1.5, 2.5], Unit::Ns).unwrap(), Some(0)),
                    Run::new(Sample::new(vec![3.0], Unit::Ns).unwrap(), Some(1)),
                ])
                .unwrap(),
                unit: Unit::Ns,
            }],
            environment: Environment {
                cpu: Some("cpu A".into()),
                rustc: None,
                host: None,
                fingerprint: None,
            },
            notes: vec![],
        };
        let k = key("abc", None, "cpu A");
        store(dir.path(), &k, &results).unwrap();
        let back = load(dir.path(), &k, "main (abc)").unwrap();
        assert_eq!(back.benchmarks[0].runs, results.benchmarks[0].runs);
        assert_eq!(back.benchmarks[0].name, "g/f");
        assert_eq!(back.environment.cpu.as_deref(), Some("cpu A"));
        assert!(load(dir.path(), &key("abd", None, "cpu A"), "x").is_none());
    }
}
