//! The harnesses a bench target may use, and the arguments each takes: to list a target's benchmarks, to
//! run one process with a filter and the requested length, to select exact names.
//!
//! Must not: start processes, or read what a run printed (`output`).

use super::per_run::PerRun;

/// The bench harness of a bench target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Harness {
    /// criterion (`criterion_main!`): each run saves its samples.
    Criterion,
    /// divan (`divan::main()`): each run prints a tree of statistics; its median is the run's value.
    Divan,
    /// libtest `#[bench]` on nightly: each run prints `ns/iter` per benchmark.
    Libtest,
}

impl Harness {
    /// Its name, as `--harness` takes it and messages give it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Harness::Criterion => "criterion",
            Harness::Divan => "divan",
            Harness::Libtest => "libtest",
        }
    }

    /// The arguments that list the benchmarks `filter` selects (printed one `NAME: benchmark` or
    /// `NAME: bench` line each), and the environment it needs: divan prints that form only for
    /// cargo-nextest (`NEXTEST=1`).
    pub(crate) fn list_args(
        self,
        filter: Option<&str>,
    ) -> (Vec<String>, Option<(&'static str, &'static str)>) {
        let mut args: Vec<String> = match self {
            Harness::Criterion | Harness::Libtest => vec!["--bench".into(), "--list".into()],
            Harness::Divan => vec!["--list".into(), "--format".into(), "terse".into()],
        };
        args.extend(filter.map(str::to_string));
        let env = (self == Harness::Divan).then_some(("NEXTEST", "1"));
        (args, env)
    }

    /// The arguments of one run: `filter` in place of the user's when given (the exact names to narrow to,
    /// as `exact` gives them), with the run length `run` asks for.
    ///
    /// divan: `--sample-count` is `--sample-size` (samples per run), `--min-time` is `--measurement-time`
    /// and `--max-time` is warm-up plus measurement time (divan has no warm-up of its own to set: it
    /// calibrates its iterations per sample itself), each divan's own default when not given
    /// (`PerRun::divan_secs`). libtest takes no run length: it runs each benchmark
    /// until its own convergence rule stops (at most about 3 s).
    pub(crate) fn run_args(
        self,
        run: &PerRun,
        baseline: &str,
        filter: Option<String>,
    ) -> Vec<String> {
        match self {
            Harness::Criterion => run.criterion_args_with(baseline, filter),
            Harness::Divan => {
                let mut args: Vec<String> = vec![
                    "--bench".into(),
                    "--color".into(),
                    "never".into(),
                    "--sample-count".into(),
                    run.sample_size.to_string(),
                    "--min-time".into(),
                    run.divan_secs.1.to_string(),
                    "--max-time".into(),
                    seconds(run.divan_secs.0 + run.divan_secs.1),
                ];
                args.extend(filter.or_else(|| run.filter.clone()));
                args
            }
            Harness::Libtest => {
                let mut args: Vec<String> = vec!["--bench".into()];
                match filter {
                    // The narrowed filter is the exact names, one argument each.
                    Some(names) => {
                        args.push("--exact".into());
                        args.extend(names.split('\n').map(str::to_string));
                    }
                    None => args.extend(run.filter.clone()),
                }
                args
            }
        }
    }

    /// The filter that selects exactly `names`: a regular expression for criterion and divan (both match
    /// their filter as one), the names one a line for libtest (run with `--exact`).
    pub(crate) fn exact(self, names: &[&String]) -> String {
        match self {
            Harness::Libtest => names
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            Harness::Criterion => exact_regex(names),
            Harness::Divan => {
                // divan's filter matches a benchmark's path without its thread count (`f::t=2` runs as
                // `f`, with all its thread counts).
                let mut paths: Vec<String> = names.iter().map(|n| without_threads(n)).collect();
                paths.dedup();
                exact_regex(&paths.iter().collect::<Vec<_>>())
            }
        }
    }

    /// The name under which this harness's list gives the benchmark a run names `name`: divan lists a
    /// benchmark with thread counts once, by its path, and its runs give one result per thread count
    /// (`f::t=1`, `f::t=2`).
    pub(crate) fn listed_name(self, name: &str) -> String {
        match self {
            Harness::Divan => without_threads(name),
            Harness::Criterion | Harness::Libtest => name.to_string(),
        }
    }

    /// The file under a run's directory that keeps what `target`'s run printed, when this harness is read
    /// from it (criterion saves its own files).
    pub(crate) fn output_file(self, target: &str) -> Option<String> {
        match self {
            Harness::Criterion => None,
            Harness::Divan | Harness::Libtest => Some(format!("{target}.{}.txt", self.name())),
        }
    }
}

/// A divan path without its last component when that is a thread count (`t=2`).
fn without_threads(name: &str) -> String {
    match name.rsplit_once("::") {
        Some((path, last))
            if last
                .strip_prefix("t=")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            path.to_string()
        }
        _ => name.to_string(),
    }
}

/// `secs` to the microsecond, without trailing zeros (0.1 + 0.2 is written `0.3`).
fn seconds(secs: f64) -> String {
    let text = format!("{secs:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A regular expression matching exactly `names`.
fn exact_regex(names: &[&String]) -> String {
    let escaped: Vec<String> = names
        .iter()
        .map(|name| {
            name.chars()
                .flat_map(|c| {
                    let special = "\\.+*?()|[]{}^$#&-~".contains(c);
                    special
                        .then_some('\\')
                        .into_iter()
                        .chain(std::iter::once(c))
                })
                .collect()
        })
        .collect();
    format!("^(?:{})$", escaped.join("|"))
}
