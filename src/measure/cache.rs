//! Results already measured, reused when nothing that determines them changed. The key is the text of
//! everything that does, what was run and never how it is judged: the commit and the commit it was
//! interleaved with (a side's runs are only worth their interleaving with the other side's: results of two
//! sessions are never mixed, `docs/replication.md` §3), whether they were measured as a pair or a race, the
//! plan's looks (and the budget, for runs it cut short: [`CacheKey::cut_by_budget`]; runs capped at 20 are
//! not what `--max-runs 40` asks for), `rustc -vV`, the manifest, package, bench targets, features, build
//! flags from the environment, criterion's filter and times, whether the bench files' own settings were
//! kept or rewritten, the partition, the runs, the linked layouts, a seed when one was given, and the
//! machine (host name and CPU model). Its FNV-1a hash names the file; the full text is stored beside it and
//! compared on load, so a hash collision is a miss, never a wrong hit. The working tree is never cached (it
//! has no commit).
//!
//! The analysis options (`--fail-on`, `--threshold`, `--confidence`, `--equivalence`, the HPT's, the
//! report's) are not in the key: another gate re-analyses the same runs in well under a second instead of
//! measuring them again for a minute. The options the runs' looks stopped on are stored with the entry
//! (`judged-by=`, [`Lookup::Hit`]) so that a comparison judged otherwise can say which benchmarks its own
//! rule would have run on (`docs/usage.md` §1).
//!
//! An entry is two files: `<stem>.json`, the results (record JSON), and `<stem>.key`, the key's text, a
//! line `judged-by=<the stopping rule>` and a last line `digest=fnv1a64:<16 hex digits>`, the FNV-1a-64 of
//! the key's text with the `judged-by` line, a NUL byte and the results' bytes. Counts measured by
//! `--measure instructions` add a third, `<stem>.profiles.json`: each run's [`Profile`] (where its
//! instructions are spent, function by function, `docs/instruction-counts.md` §6), which the record JSON
//! does not hold, so that counts taken from the cache still say where they changed; its bytes follow the
//! results' in the digest, after another NUL byte. An entry whose key matches but whose digest does not (results edited by hand or by a tool,
//! truncated, corrupted, or paired with another entry's key), or whose results are missing or unreadable,
//! is [`Lookup::Failed`]: it is measured again with a note ([`failed_note`]), never reused. Both files are
//! written whole or not at all (`crate::atomic_write`: temporary file, fsync, rename), the key last and the
//! old key removed first, so an interrupted store leaves a miss, not a failed entry.
//!
//! Threat model (`docs/replication.md` §3): the digest proves an entry is what this tool wrote, against
//! accidents and edits that do not recompute it (the issue that motivated it: a HEAD's samples multiplied
//! by 100, valid JSON, reused without a word). It is not a signature: anyone who can write the cache
//! directory can read this code and write a matching digest, and SHA-256 would not change that (only a
//! secret key would, and the benchmarks' own code, which runs as the same user, could read any key kept on
//! the machine). FNV-1a-64 is enough to catch every accident (a random change passes with probability
//! 2^-64) and adds no dependency. The cache directory must therefore not be shared with code the user does
//! not trust: not restored in CI from a cache a pull request could have written, and `--rerun` ignores it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::MeasureError;
use super::read;
use super::settings::RunOptions;
use crate::atomic_write::{AtomicWriteError, write_atomically};
use crate::model::{Profile, Results, Run, Runs};
use crate::partition::fnv1a64;

/// Version of the key's layout: bump it when what a cached file means changes (5: the entry's digest; 6: the
/// bench file's settings rewritten or kept; 7: divan's counters kept, which entries of 6 lack; 8: the budget
/// keys only the runs it cut short; 9: the blocks' order drawn from `--seed` with the crate's one generator,
/// `stats::random`, which orders a seed's blocks otherwise than 8 did; 10: the analysis options out of the
/// key, stored beside it as `judged-by`, and the kind of measurement, pair or race, in it; 11: what the runs
/// and the builds left out kept in the entry, `left_out`, where entries of 10 dropped a benchmark a run
/// printed as 0).
const KEY_VERSION: u32 = 11;

/// The start of the key file's line that holds the stopping rule the runs were judged by.
const JUDGED_BY: &str = "judged-by=";

/// The start of the key file's last line, the entry's digest.
const DIGEST: &str = "digest=fnv1a64:";

/// The machine, as far as results depend on it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Machine {
    pub host: Option<String>,
    pub cpu: Option<String>,
}

impl Machine {
    /// Host name and CPU model (Linux: `/proc/sys/kernel/hostname`, `/proc/cpuinfo`).
    pub(super) fn detect() -> Machine {
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
pub(super) struct CacheKey {
    text: String,
}

impl CacheKey {
    /// The key of the side `sha` measured interleaved with `other` (the other sides' commits), as a
    /// `kind` of measurement (`pair` or `race`: their runs stop by different rules).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        sha: &str,
        other: &str,
        kind: &str,
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
        // Only when given, so that the keys of comparisons without it stay what they were.
        if options.all_features {
            line("all-features", "true");
        }
        line("filter", options.filter.as_deref().unwrap_or(""));
        line(
            "partition",
            &options.partition.map(|p| p.to_string()).unwrap_or_default(),
        );
        line("runs", &options.runs.to_string());
        line("looks", &options.look_plan.looks_text());
        line("measured-as", kind);
        line("warm-up-time", &options.warm_up_secs.to_string());
        line("measurement-time", &options.measurement_secs.to_string());
        // divan's own run length (`DIVAN_WARM_UP_SECS`): runs of another length are another experiment.
        line(
            "divan-run-time",
            &format!("{} {}", options.divan_secs.0, options.divan_secs.1),
        );
        line("sample-size", &options.sample_size.to_string());
        line("run-identical", &options.run_identical.to_string());
        // Runs with the bench files' settings rewritten and kept are not the same experiment.
        line("bench-settings", options.bench_settings_key());
        line("layouts", &options.layouts.to_string());
        // Pinned runs are another experiment; unpinned ones keep the keys they had before `--pin` existed.
        if options.pin {
            line("pin", "last-core");
        }
        // Counts are another measurement; times keep the keys they had before `--measure` existed.
        if options.measure != super::settings::Measure::Time {
            line("measure", options.measure.name());
        }
        // Counts beside instructions likewise, each only when asked.
        if options.cache_sim {
            line("cache-sim", "yes");
        }
        if options.count_allocations {
            line("count-allocations", "yes");
        }
        // Duet runs likewise.
        if options.duet {
            line("duet", "last-two-cores");
        }
        line("host", machine.host.as_deref().unwrap_or(""));
        line("cpu", machine.cpu.as_deref().unwrap_or(""));
        for (k, v) in build_environment() {
            line(&format!("env {k}"), &v);
        }
        line("rustc", rustc.trim());
        CacheKey { text }
    }

    /// The key of runs that `--budget` cut short (the next look would not have ended within it): such
    /// runs are what that budget gives, and are reused under the same budget only. Runs that ended by
    /// their own rule are the same under any budget (the budget only ever stops the runs between looks),
    /// and are stored under the key without it.
    pub(super) fn cut_by_budget(&self, budget: std::time::Duration) -> CacheKey {
        CacheKey {
            text: format!("{}budget-cut={}\n", self.text, budget.as_millis()),
        }
    }

    /// 16 hex digits of the key's FNV-1a hash.
    pub(super) fn stem(&self) -> String {
        format!("{:016x}", fnv1a64(self.text.as_bytes()))
    }

    /// The digest line of an entry of this key holding `content` (and its runs' `profiles`, when it has
    /// any) judged by the line `judged`: the key's text and that line, a NUL byte and the content, then a
    /// NUL byte and the profiles, hashed together.
    fn digest_line(&self, judged: &str, content: &[u8], profiles: Option<&[u8]>) -> String {
        let mut bytes = Vec::with_capacity(self.text.len() + judged.len() + 1 + content.len());
        bytes.extend_from_slice(self.text.as_bytes());
        bytes.extend_from_slice(judged.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(content);
        if let Some(profiles) = profiles {
            bytes.push(0);
            bytes.extend_from_slice(profiles);
        }
        format!("{DIGEST}{:016x}\n", fnv1a64(&bytes))
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
pub(super) fn path(dir: &Path, key: &CacheKey) -> PathBuf {
    dir.join(format!("{}.json", key.stem()))
}

/// `<dir>/<stem>.key`, the key's text and the entry's digest.
fn key_path(dir: &Path, key: &CacheKey) -> PathBuf {
    dir.join(format!("{}.key", key.stem()))
}

/// `<dir>/<stem>.profiles.json`, the runs' profiles of an entry of counts.
fn profiles_path(dir: &Path, key: &CacheKey) -> PathBuf {
    dir.join(format!("{}.profiles.json", key.stem()))
}

/// Each benchmark's name and each of its runs' profile (its functions and their instructions per
/// iteration), `null` for a run without one, in the results' order.
type ProfilesWire = Vec<(String, Vec<Option<Vec<(String, f64)>>>)>;

/// The profiles of `results`' runs as JSON; `None` when no run has one (times, counts not exact).
fn profiles_of(results: &Results) -> Option<Vec<u8>> {
    let wire: ProfilesWire = results
        .benchmarks
        .iter()
        .map(|b| {
            let runs = b.runs.runs().iter();
            let profiles = runs.map(|r| r.profile().map(|p| p.functions().to_vec()));
            (b.name.clone(), profiles.collect())
        })
        .collect();
    let any = wire
        .iter()
        .any(|(_, runs)| runs.iter().any(Option::is_some));
    any.then(|| serde_json::to_vec(&wire).ok()).flatten()
}

/// `results` with the profiles of `bytes` ([`profiles_of`]) given back to their runs; `None` when they do
/// not read as such or do not match the results' benchmarks and runs.
fn with_profiles(mut results: Results, bytes: &[u8]) -> Option<Results> {
    let wire: ProfilesWire = serde_json::from_slice(bytes).ok()?;
    if wire.len() != results.benchmarks.len() {
        return None;
    }
    for (benchmark, (name, profiles)) in results.benchmarks.iter_mut().zip(wire) {
        if benchmark.name != name || benchmark.runs.runs().len() != profiles.len() {
            return None;
        }
        let runs: Vec<Run> = benchmark
            .runs
            .runs()
            .iter()
            .zip(profiles)
            .map(|(run, profile)| match profile {
                Some(functions) => run.clone().with_profile(Profile::new(functions)),
                None => run.clone(),
            })
            .collect();
        benchmark.runs = Runs::new(runs).ok()?;
    }
    Some(results)
}

/// What the cache holds for a key.
#[derive(Debug)]
pub(super) enum Lookup {
    /// Results stored under exactly this key, which passed their check, and the stopping rule their
    /// looks were judged by.
    Hit(Box<Results>, String),
    /// Nothing stored under this key (or under another key whose hash names the same file).
    Miss,
    /// An entry of this key that failed its check (edited or corrupt): the results file's path.
    Failed(PathBuf),
}

/// The note said when the entry at `path`, of the side `label`, failed its check.
pub(super) fn failed_note(label: &str, path: &Path) -> String {
    format!(
        "cached results for {label} in {} failed their check (edited or corrupt): measuring again",
        path.display()
    )
}

/// The cached results for `key`: a hit only when the key file holds exactly this key and the digest of the
/// key and the results file's bytes; `origin` names them.
pub(super) fn load(dir: &Path, key: &CacheKey, origin: &str) -> Lookup {
    let limit = crate::sources::limits::DEFAULT_MAX_INPUT_SIZE;
    let read = |path: &Path| crate::sources::limits::read_file(path, limit).ok();
    let Some(stored) = read(&key_path(dir, key)) else {
        return Lookup::Miss;
    };
    let stored = String::from_utf8_lossy(&stored);
    let body = stored.trim_end_matches('\n');
    let (text, digest) = match body.rfind('\n') {
        Some(i) if body[i + 1..].starts_with(DIGEST) => (&stored[..=i], &stored[i + 1..]),
        _ => (&stored[..], ""),
    };
    // The line before the digest says what the runs were judged by; it is not part of the key.
    let lines = text.trim_end_matches('\n');
    let start = lines.rfind('\n').map_or(0, |i| i + 1);
    let (text, judged) = match lines[start..].starts_with(JUDGED_BY) {
        true => (&text[..start], &text[start..]),
        false => (text, ""),
    };
    if text != key.text {
        return Lookup::Miss;
    }
    let json = path(dir, key);
    let profiles = read(&profiles_path(dir, key));
    let checked = read(&json)
        .filter(|content| digest == key.digest_line(judged, content, profiles.as_deref()));
    let rule = judged
        .trim_end_matches('\n')
        .trim_start_matches(JUDGED_BY)
        .to_string();
    let results = checked
        .and_then(|content| read::parse_results(&content, origin))
        .and_then(|results| match &profiles {
            Some(profiles) => with_profiles(results, profiles),
            None => Some(results),
        });
    match results {
        Some(results) if !judged.is_empty() => Lookup::Hit(Box::new(results), rule),
        _ => Lookup::Failed(json),
    }
}

/// Stores `results`, whose looks were judged by the stopping rule `judged_by`, under `key`: the old key
/// file removed, then the results and the key with the rule and the digest, each written whole (module
/// doc).
pub(super) fn store(
    dir: &Path,
    key: &CacheKey,
    results: &Results,
    judged_by: &str,
) -> Result<(), MeasureError> {
    let io = |path: PathBuf| MeasureError::io("writing the cache", &path);
    let written = |path: PathBuf| move |e: AtomicWriteError| io(path)(e.into_io());
    std::fs::create_dir_all(dir).map_err(io(dir.to_path_buf()))?;
    let key_file = key_path(dir, key);
    match std::fs::remove_file(&key_file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(key_file)(e)),
        _ => {}
    }
    let json = path(dir, key);
    let mut bytes = Vec::new();
    read::write_results(results, &mut bytes).map_err(io(json.clone()))?;
    write_atomically(dir, &json, &bytes, None).map_err(written(json))?;
    let profiles_file = profiles_path(dir, key);
    let profiles = profiles_of(results);
    match &profiles {
        Some(profiles) => {
            write_atomically(dir, &profiles_file, profiles, None).map_err(written(profiles_file))?
        }
        None => match std::fs::remove_file(&profiles_file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(io(profiles_file)(e));
            }
            _ => {}
        },
    }
    // One line: a rule is the options' debug text, which holds no newline.
    let judged = format!("{JUDGED_BY}{}\n", judged_by.replace('\n', " "));
    let digest = key.digest_line(&judged, &bytes, profiles.as_deref());
    let text = format!("{}{judged}{digest}", key.text);
    write_atomically(dir, &key_file, text.as_bytes(), None).map_err(written(key_file))
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
            "pair",
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
                "pair",
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
        let pinned = RunOptions {
            pin: true,
            ..options(None)
        };
        assert_ne!(key_of(&pinned), key_of(&options(None)));
        let counted = RunOptions {
            measure: crate::measure::Measure::Instructions,
            ..options(None)
        };
        assert_ne!(key_of(&counted), key_of(&options(None)));
        let cache_sim = RunOptions {
            cache_sim: true,
            ..counted.clone()
        };
        let allocations = RunOptions {
            count_allocations: true,
            ..counted.clone()
        };
        assert_ne!(key_of(&cache_sim), key_of(&counted));
        assert_ne!(key_of(&allocations), key_of(&counted));
        assert_ne!(key_of(&allocations), key_of(&cache_sim));
        // Duet runs too, and they are not pinned runs either.
        let duet = RunOptions {
            duet: true,
            ..options(None)
        };
        assert_ne!(key_of(&duet), key_of(&options(None)));
        assert_ne!(key_of(&duet), key_of(&pinned));
    }

    #[test]
    fn the_kind_and_the_cap_change_the_key_and_a_budget_only_runs_it_cut() {
        let machine = Machine::default();
        let o = options(None);
        let key = |o: &RunOptions, kind: &str| {
            CacheKey::new("s", "o", kind, None, "r", Path::new("C"), o, &machine).stem()
        };
        let first = key(&o, "pair");
        assert_ne!(first, key(&o, "race"));
        let mut capped = o.clone();
        capped.look_plan = crate::protocol::sequential::LookPlan::new(o.runs, 40).unwrap();
        assert_ne!(first, key(&capped, "pair"));
        // Runs that ended by their own rule are the same under any budget; runs a budget cut are keyed by it.
        let mut budget = o.clone();
        budget.budget = Some(std::time::Duration::from_secs(600));
        assert_eq!(first, key(&budget, "pair"));
        let plain = CacheKey::new("s", "o", "pair", None, "r", Path::new("C"), &o, &machine);
        let ten = plain.cut_by_budget(std::time::Duration::from_secs(600));
        let five = plain.cut_by_budget(std::time::Duration::from_secs(300));
        assert_ne!(ten.stem(), plain.stem());
        assert_ne!(ten.stem(), five.stem());
        assert_eq!(first, key(&o.clone(), "pair"));
    }

    /// The options of a revision comparison as the command line gives them, through `plan`.
    fn planned(args: &[&str]) -> (RunOptions, String) {
        use clap::Parser as _;
        let mut argv = vec!["cargo-speedup", "speedup", "main..feature"];
        argv.extend_from_slice(args);
        let crate::cli::CargoCli::Speedup(cli) =
            crate::cli::CargoCli::try_parse_from(argv).unwrap();
        let plan = crate::plan::RevisionsPlan::from_args(
            cli.revisions.as_deref(),
            &cli.run,
            &cli.analysis,
        )
        .unwrap();
        let run = crate::plan::measuring(plan.run, cli.measure.as_deref(), &cli.run).unwrap();
        (run, plan.analysis.options.stopping_rule())
    }

    /// The key's text with `--runs 10` and `args`: runs enough for the first look at 0.99 as at 0.95
    /// (by default the first look comes after the fewest runs that can decide at the confidence: a plan
    /// of other looks, which is another run setting).
    fn key_of(args: &[&str]) -> String {
        let mut all = vec!["--runs", "10"];
        all.extend_from_slice(args);
        let (options, _) = planned(&all);
        CacheKey::new(
            "abc",
            "def",
            "pair",
            options.given_seed,
            "rustc 1.0",
            Path::new("Cargo.toml"),
            &options,
            &Machine::default(),
        )
        .text
    }

    #[test]
    fn options_that_only_judge_the_runs_leave_the_key_as_it_is_and_run_settings_change_it() {
        let plain = key_of(&[]);
        let judged_otherwise: &[&[&str]] = &[
            &["--fail-on", "any"],
            &["--fail-on", "none"],
            &["--threshold", "5"],
            &["--confidence", "0.99"],
            &["--equivalence", "1"],
            &["--hpt-alpha", "0.01"],
            &["--speedup-under-test", "1.05"],
            &["--format", "json"],
            &["-o", "report.txt"],
            &["--json", "report.json"],
            &["--html", "report.html"],
            &["--color", "never"],
            &["--verbose"],
        ];
        for args in judged_otherwise {
            assert_eq!(key_of(args), plain, "{args:?}");
        }
        // ... while they change the rule the looks stop by, which is stored beside the key.
        assert_ne!(planned(&["--fail-on", "suite"]).1, planned(&[]).1);
        let run_otherwise: &[&[&str]] = &[
            &["--warm-up-time", "1"],
            &["--max-runs", "80"],
            &["--fixed"],
            &["--seed", "7"],
            &["--filter", "parse"],
            &["--features", "simd"],
            &["--sample-size", "20"],
            &["--measurement-time", "2"],
            &["--pin"],
        ];
        for args in run_otherwise {
            assert_ne!(key_of(args), plain, "{args:?}");
        }
        // Without `--runs`, 0.99's plan starts with more runs than 0.95's: other runs, another key.
        let default = |args: &[&str]| planned(args).0.look_plan.looks_text();
        assert_ne!(default(&["--confidence", "0.99"]), default(&[]));
    }

    #[test]
    fn each_part_of_times_and_counts_together_is_keyed_as_its_own_measure() {
        use crate::measure::Part;
        let key_of = |args: &[&str], part: Option<Part>| {
            let (options, _) = planned(args);
            let options = part.map_or(options.clone(), |part| options.part(part));
            CacheKey::new(
                "abc",
                "def",
                "pair",
                options.given_seed,
                "rustc 1.0",
                Path::new("Cargo.toml"),
                &options,
                &Machine::default(),
            )
            .text
        };
        let both = [
            "--measure",
            "time,instructions",
            "--runs",
            "8",
            "--seed",
            "3",
        ];
        assert_eq!(
            key_of(&both, Some(Part::Time)),
            key_of(&["--runs", "8", "--seed", "3"], None)
        );
        assert_eq!(
            key_of(&both, Some(Part::Instructions)),
            key_of(&["--measure", "instructions", "--seed", "3"], None)
        );
        assert!(key_of(&both, Some(Part::Instructions)).contains("\nmeasure=instructions\n"));
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
                counters: Vec::new(),
            }],
            environment: Environment {
                cpu: Some("cpu A".into()),
                rustc: None,
                host: None,
                fingerprint: None,
            },
            notes: vec![],
            left_out: vec![],
        };
        let k = key("abc", None, "cpu A");
        store(dir.path(), &k, &results, "rule A").unwrap();
        let Lookup::Hit(back, judged_by) = load(dir.path(), &k, "main (abc)") else {
            panic!("the entry just stored is not found");
        };
        assert_eq!(judged_by, "rule A");
        assert_eq!(back.benchmarks[0].runs, results.benchmarks[0].runs);
        assert_eq!(back.benchmarks[0].name, "g/f");
        assert_eq!(back.environment.cpu.as_deref(), Some("cpu A"));
        assert!(matches!(
            load(dir.path(), &key("abd", None, "cpu A"), "x"),
            Lookup::Miss
        ));
        // Stored again (`--rerun`): replaced whole, no temporary file left beside it.
        store(dir.path(), &k, &results, "rule B").unwrap();
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Hit(_, rule) if rule == "rule B"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn what_a_comparison_left_out_is_stored_and_comes_back_with_its_runs() {
        use crate::model::Side;
        use crate::model::coverage::{LeftOut, Reason};
        let dir = tempfile::tempdir().unwrap();
        let mut stored = results(&[812.5, 799.25]);
        // A target that needs a feature, one `--bench` excluded, one that panicked at this side, and a
        // benchmark its runs printed as 0: what a second identical comparison must still report.
        stored.left_out = vec![
            LeftOut::target(
                "heavy",
                None,
                Reason::NeedsFeatures {
                    missing: vec!["heavy".into()],
                },
            ),
            LeftOut::target(
                "slow",
                None,
                Reason::Excluded {
                    option: "--bench".into(),
                },
            ),
            LeftOut::target(
                "boom",
                Some(Side::Head),
                Reason::Failed {
                    failed: 1,
                    runs: 1,
                    exit_codes: vec![Some(101)],
                    message: "thread 'main' panicked at benches/b.rs:3:5:\nboom".into(),
                },
            ),
            LeftOut::benchmark(
                "noop",
                None,
                Reason::BelowResolution {
                    printed: "0 ns/iter".into(),
                },
            ),
        ];
        let k = key("abc", None, "cpu A");
        store(dir.path(), &k, &stored, "rule A").unwrap();
        let Lookup::Hit(back, _) = load(dir.path(), &k, "HEAD (main, abc)") else {
            panic!("the entry just stored is not found");
        };
        assert_eq!(back.left_out, stored.left_out);
        assert_eq!(back.benchmarks[0].runs, stored.benchmarks[0].runs);
        assert!(back.notes.is_empty(), "{:?}", back.notes);
    }

    fn results(values: &[f64]) -> Results {
        Results {
            origin: "HEAD (main, abc)".into(),
            benchmarks: vec![Benchmark {
                name: "fib".into(),
                runs: Runs::new(vec![Run::new(
                    Sample::new(values.to_vec(), Unit::Ns).unwrap(),
                    None,
                )])
                .unwrap(),
                unit: Unit::Ns,
                counters: Vec::new(),
            }],
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    #[test]
    fn an_entry_whose_samples_were_edited_fails_its_check_and_is_not_reused() {
        let dir = tempfile::tempdir().unwrap();
        let k = key("abc", None, "cpu A");
        store(dir.path(), &k, &results(&[812.5, 799.25, 805.0]), "r").unwrap();
        // Every sample multiplied by 100: still valid record JSON, which reads as results.
        let json = path(dir.path(), &k);
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        for run in value["benchmarks"][0]["runs"].as_array_mut().unwrap() {
            for sample in run.as_array_mut().unwrap() {
                *sample = serde_json::json!(sample.as_f64().unwrap() * 100.0);
            }
        }
        let edited = value.to_string();
        std::fs::write(&json, &edited).unwrap();
        assert!(read::parse_results(edited.as_bytes(), "x").is_some());
        let Lookup::Failed(failed) = load(dir.path(), &k, "HEAD (main, abc)") else {
            panic!("an edited entry was not refused");
        };
        assert_eq!(failed, json);
        assert_eq!(
            failed_note("HEAD (main, abc1234)", &failed),
            format!(
                "cached results for HEAD (main, abc1234) in {} failed their check (edited or corrupt): \
                 measuring again",
                json.display()
            )
        );
        // Truncated, removed, or its digest line edited: refused the same way.
        let stored = std::fs::read(&json).unwrap();
        std::fs::write(&json, &stored[..stored.len() / 2]).unwrap();
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Failed(_)));
        std::fs::remove_file(&json).unwrap();
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Failed(_)));
        store(dir.path(), &k, &results(&[1.0, 2.0]), "r").unwrap();
        let key_file = key_path(dir.path(), &k);
        let text = std::fs::read_to_string(&key_file).unwrap();
        let last = text.trim_end().rsplit('\n').next().unwrap().to_string();
        assert!(
            last.starts_with("digest=fnv1a64:") && last.len() == 31,
            "{last}"
        );
        std::fs::write(
            &key_file,
            text.replace(&last, "digest=fnv1a64:0000000000000000"),
        )
        .unwrap();
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Failed(_)));
        // A key file without its digest (as written before entries had one) is never a hit.
        std::fs::write(&key_file, &k.text).unwrap();
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Failed(_)));
    }

    #[test]
    fn the_profiles_of_counts_come_back_from_the_cache_and_are_checked_with_the_results() {
        use crate::model::Counted;
        static INSTRUCTIONS: Counted = Counted {
            name: "instructions",
            slug: "instructions",
        };
        let dir = tempfile::tempdir().unwrap();
        let unit = Unit::Count(&INSTRUCTIONS);
        let functions = vec![
            ("work::bench::{{closure}}".to_string(), 20_114.0),
            ("demo::extra".to_string(), 101.0),
            ("demo::work".to_string(), 20_002.0),
        ];
        let profiled = Run::new(Sample::new(vec![20_166.0], unit).unwrap(), None)
            .with_profile(Profile::new(functions.clone()));
        let mut stored = results(&[1.0]);
        stored.benchmarks[0] = Benchmark {
            name: "changed (instructions)".into(),
            runs: Runs::new(vec![profiled]).unwrap(),
            unit,
            counters: Vec::new(),
        };
        let k = key("abc", None, "cpu A");
        store(dir.path(), &k, &stored, "r").unwrap();
        let Lookup::Hit(back, _) = load(dir.path(), &k, "HEAD (main, abc)") else {
            panic!("the entry just stored is not found");
        };
        let profile = back.benchmarks[0].runs.runs()[0]
            .profile()
            .expect("its profile");
        assert_eq!(profile, &Profile::new(functions));
        assert_eq!(back.benchmarks[0].runs, stored.benchmarks[0].runs);
        // The profiles are part of the entry: edited or removed, the entry fails its check.
        let file = profiles_path(dir.path(), &k);
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text.replace("101.0", "1.0")).unwrap();
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Failed(_)));
        std::fs::remove_file(&file).unwrap();
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Failed(_)));
        // Stored again without profiles (times), the old file goes with the old entry.
        store(dir.path(), &k, &results(&[1.0, 2.0]), "r").unwrap();
        store(dir.path(), &k, &stored, "r").unwrap();
        store(dir.path(), &k, &results(&[1.0, 2.0]), "r").unwrap();
        assert!(!file.exists());
        assert!(matches!(load(dir.path(), &k, "x"), Lookup::Hit(..)));
    }

    #[test]
    fn the_results_of_another_entry_fail_the_check_of_this_key() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (key("aaa", None, "cpu A"), key("bbb", None, "cpu A"));
        store(dir.path(), &a, &results(&[1.0, 2.0]), "r").unwrap();
        store(dir.path(), &b, &results(&[5.0, 6.0]), "r").unwrap();
        std::fs::copy(path(dir.path(), &b), path(dir.path(), &a)).unwrap();
        assert!(matches!(load(dir.path(), &a, "x"), Lookup::Failed(_)));
        assert!(matches!(load(dir.path(), &b, "x"), Lookup::Hit(..)));
    }
}
