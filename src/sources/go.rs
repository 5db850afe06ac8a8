//! Go benchmark text, benchstat's input (`docs/formats.md` §4; the format of golang.org/design/14313).
//!
//! ```text
//! cpu: AMD EPYC 7B13
//! BenchmarkEncode/format=json-48    690848    1726 ns/op    64.88 MB/s    0 B/op    0 allocs/op
//! ```
//!
//! Why it exists: `go test -bench . -count N` output is the lingua franca of benchstat; reading it lets
//! mixed Go/Rust projects and benchstat users compare with the Speedup-Test protocols.
//!
//! Each result line is one observation (`ValuesFrom::ProcessPerValue`: benchstat treats `-count` repetitions
//! as independent), its `ns/op` value (or `sec/op`, benchstat's normalised form); other metrics (`B/op`,
//! `allocs/op`, and `MB/s`, which is higher-is-better) are not times and are ignored. The name drops the
//! `Benchmark` prefix and keeps the `-N` GOMAXPROCS suffix, as benchstat does. Config lines `key: value`
//! persist until redefined; `cpu` becomes [`Environment::cpu`](crate::model::Environment) and `goos/goarch`
//! its `host`. When one name
//! occurs under two `pkg` values, it is qualified as `pkg.Name` so the packages do not mix. Name-only lines
//! (`go test -v`), `Unit` metadata lines and other text are skipped; result lines that do not parse are
//! noted. A benchmark reported `--- FAIL:` or `--- SKIP:` without a result line is left out with that
//! reason. Must not: mix metrics, or merge benchmarks of different packages.

use std::collections::{BTreeSet, HashMap};

use super::{Builder, SourceError, ValuesFrom};
use crate::model::coverage::Reason;
use crate::model::{Results, Unit};

const FORMAT: &str = "Go benchmark text";

/// One parsed result line.
struct Line<'a> {
    name: &'a str,
    /// The time per operation in nanoseconds, if the line has one.
    nanos: Option<f64>,
}

/// Whether `text` holds at least one result line with a time per operation, or is a `go test -bench` run
/// (its `goos:` line) whose benchmarks all failed or were skipped (`--- FAIL: BenchmarkX`).
pub(crate) fn has_results(text: &str) -> bool {
    text.lines()
        .any(|l| matches!(result_line(l), Some(Ok(Line { nanos: Some(_), .. }))))
        || (text.lines().any(|l| l.starts_with("goos: "))
            && text.lines().any(|l| stop_line(l).is_some()))
}

/// `None` when `line` is not a result line, `Some(Err(()))` when it starts like one but does not parse.
fn result_line(line: &str) -> Option<Result<Line<'_>, ()>> {
    let mut fields = line.split_whitespace();
    let name = fields.next()?.strip_prefix("Benchmark")?;
    if name.starts_with(|c: char| c.is_lowercase()) {
        return None;
    }
    let rest: Vec<&str> = fields.collect();
    if rest.is_empty() {
        return None;
    }
    if rest[0].parse::<u64>().is_err() || rest.len() % 2 == 0 {
        return Some(Err(()));
    }
    let mut nanos = None;
    for pair in rest[1..].chunks(2) {
        let Ok(value) = pair[0].parse::<f64>() else {
            return Some(Err(()));
        };
        match pair[1] {
            "ns/op" => nanos = Some(value),
            "sec/op" => nanos = Some(value * 1e9),
            _ => {}
        }
    }
    Some(Ok(Line { name, nanos }))
}

/// A config line's key and value: the key starts with a lower-case letter and has no space or upper case.
fn config_line(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let valid = key.starts_with(|c: char| c.is_ascii_lowercase())
        && !key.chars().any(|c| c.is_whitespace() || c.is_uppercase());
    valid.then(|| (key, value.trim()))
}

/// Parses Go benchmark text read from `origin`.
pub(crate) fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let mut builder = Builder::new(origin);
    let mut pkg = String::new();
    let mut order: Vec<(String, String)> = Vec::new();
    let mut values: HashMap<(String, String), Vec<f64>> = HashMap::new();
    let mut malformed = 0usize;
    let mut first_malformed = 0usize;
    let (mut goos, mut goarch) = (None, None);
    // `--- FAIL:` and `--- SKIP:` lines: the benchmark, whether it failed, how often, the first message.
    let mut stopped: Vec<Stopped> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (index, line) in lines.iter().copied().enumerate() {
        if let Some((name, failed)) = stop_line(line) {
            let message = lines
                .get(index + 1)
                .filter(|next| next.starts_with([' ', '\t']) && stop_line(next).is_none())
                .map(|next| next.trim().to_string())
                .filter(|m| !m.is_empty());
            match stopped
                .iter_mut()
                .find(|s| s.name == name && s.failed == failed)
            {
                Some(s) => s.count += 1,
                None => stopped.push(Stopped {
                    name: name.to_string(),
                    failed,
                    count: 1,
                    message,
                }),
            }
            continue;
        }
        match result_line(line) {
            Some(Ok(Line {
                name,
                nanos: Some(nanos),
            })) => {
                let key = (pkg.clone(), name.to_string());
                if !values.contains_key(&key) {
                    order.push(key.clone());
                }
                values.entry(key).or_default().push(nanos);
            }
            Some(Ok(_)) => {}
            Some(Err(())) => {
                if malformed == 0 {
                    first_malformed = index + 1;
                }
                malformed += 1;
            }
            None => match config_line(line) {
                Some(("pkg", value)) => pkg = value.to_string(),
                Some(("cpu", value)) => builder.environment.cpu = Some(value.to_string()),
                Some(("goos", value)) => goos = Some(value.to_string()),
                Some(("goarch", value)) => goarch = Some(value.to_string()),
                _ => {}
            },
        }
    }
    if let (Some(os), Some(arch)) = (goos, goarch) {
        builder.environment.host = Some(format!("{os}/{arch}"));
    }
    if malformed > 0 {
        let lines = if malformed == 1 {
            format!("1 benchmark line that does not parse (line {first_malformed})")
        } else {
            format!(
                "{malformed} benchmark lines that do not parse (the first on line {first_malformed})"
            )
        };
        builder.notes.push(format!("{origin}: skipped {lines}"));
    }
    let ambiguous = ambiguous_names(&order);
    for key in order.clone() {
        let name = if ambiguous.contains(&key.1) {
            format!("{}.{}", key.0, key.1)
        } else {
            key.1.clone()
        };
        let sample = values.remove(&key).unwrap_or_default();
        builder.push(&name, sample, Unit::Ns, ValuesFrom::ProcessPerValue)?;
    }
    // A benchmark that failed or was skipped and printed no result line is left out. Go names it without
    // the `-N` suffix of its result lines, so one with results under `NAME-N` is kept as it is.
    for stop in stopped {
        let has_results = |n: &str| {
            n == stop.name
                || n.strip_prefix(stop.name.as_str())
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|procs| {
                        !procs.is_empty() && procs.chars().all(|c| c.is_ascii_digit())
                    })
        };
        if builder.has(&stop.name) || order.iter().any(|(_, n)| has_results(n)) {
            continue;
        }
        let reason = if stop.failed {
            Reason::Failed {
                failed: stop.count,
                runs: stop.count,
                exit_codes: Vec::new(),
                message: stop.message.unwrap_or_default(),
            }
        } else {
            Reason::Skipped {
                message: stop.message,
            }
        };
        builder.leave_out(&stop.name, reason)?;
    }
    builder.finish(FORMAT)
}

/// A benchmark that `go test` reported failed or skipped.
struct Stopped {
    name: String,
    failed: bool,
    count: usize,
    message: Option<String>,
}

/// `--- FAIL: BenchmarkX` (true) or `--- SKIP: BenchmarkX` (false), indented for a sub-benchmark: the
/// name without `Benchmark`.
fn stop_line(line: &str) -> Option<(&str, bool)> {
    let line = line.trim_start();
    let (rest, failed) = match line.strip_prefix("--- FAIL: ") {
        Some(rest) => (rest, true),
        None => (line.strip_prefix("--- SKIP: ")?, false),
    };
    let name = rest.split_whitespace().next()?.strip_prefix("Benchmark")?;
    (!name.is_empty()).then_some((name, failed))
}

/// Names that occur under more than one package (for divan: paths under more than one target).
pub(super) fn ambiguous_names(keys: &[(String, String)]) -> BTreeSet<String> {
    let mut pkgs: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for (pkg, name) in keys {
        pkgs.entry(name.as_str()).or_default().insert(pkg.as_str());
    }
    pkgs.into_iter()
        .filter(|(_, p)| p.len() > 1)
        .map(|(n, _)| n.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::{ReadOptions, load};
    use crate::testutil::source_fixtures::fixture;

    fn read(rel: &str) -> Results {
        load(fixture(rel).to_str().unwrap(), &ReadOptions::default()).unwrap()
    }

    #[test]
    fn each_line_is_one_observation_in_ns_per_op() {
        let results = read("go/base.txt");
        let encode = &results.benchmarks[0];
        assert_eq!(encode.name, "Encode/format=json-48");
        assert_eq!(encode.runs.values(), &[1726.0, 1719.0, 1731.0]);
        assert!(
            encode.runs.runs().iter().all(|r| r.samples().len() == 1),
            "one run per value"
        );
        assert_eq!(results.benchmarks[1].name, "Encode/format=gob-48");
        assert_eq!(results.benchmarks.len(), 2);
    }

    #[test]
    fn cpu_config_line_is_the_environment() {
        assert_eq!(
            read("go/base.txt").environment.cpu.as_deref(),
            Some("AMD EPYC 7B13")
        );
    }

    #[test]
    fn minimal_benchstat_lines_and_sec_per_op_are_read() {
        let results = parse(
            "BenchmarkFoo/bar 1 123.4 ns/op\nBenchmarkFoo/bar 1 1.2e-7 sec/op\n",
            "f",
        )
        .unwrap();
        assert_eq!(results.benchmarks[0].runs.values(), &[123.4, 1.2e-7 * 1e9]);
    }

    #[test]
    fn verbose_name_lines_and_unit_lines_are_skipped_and_bad_lines_noted() {
        let results = read("go/head.txt");
        assert_eq!(results.benchmarks.len(), 2);
        assert_eq!(results.benchmarks[0].runs.len(), 3);
        assert_eq!(results.notes.len(), 1, "{:?}", results.notes);
        assert!(
            results.notes[0].contains("skipped 1 benchmark line that does not parse (line 13)")
        );
    }

    #[test]
    fn same_name_in_two_packages_is_qualified() {
        let text = "pkg: a\nBenchmarkX-8 10 5 ns/op\npkg: b\nBenchmarkX-8 10 7 ns/op\nBenchmarkY 1 3 ns/op\n";
        let results = parse(text, "f").unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a.X-8", "b.X-8", "Y"]);
    }

    #[test]
    fn failed_and_skipped_benchmarks_are_left_out_and_the_rest_read() {
        // `go test -bench . -count 2` of Go's testing package: `b.Fatal` prints `--- FAIL: NAME` and its
        // message, indented; `b.Skip` under -v prints `--- SKIP: NAME`.
        let text = "goos: linux\n\
                    BenchmarkGood-8    1000    120 ns/op\n\
                    --- FAIL: BenchmarkBroken\n    x_test.go:10: boom\n\
                    --- SKIP: BenchmarkGpu\n    x_test.go:20: no GPU\n\
                    BenchmarkGood-8    1000    121 ns/op\n\
                    --- FAIL: BenchmarkBroken\n    x_test.go:10: boom\n\
                    --- FAIL: BenchmarkGood\n    x_test.go:5: once\n\
                    FAIL\n";
        let results = parse(text, "go.txt").unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["Good-8"]);
        let left: Vec<(&str, &Reason)> = results
            .left_out
            .iter()
            .map(|l| (l.name.as_str(), &l.reason))
            .collect();
        assert_eq!(
            left,
            [
                (
                    "Broken",
                    &Reason::Failed {
                        failed: 2,
                        runs: 2,
                        exit_codes: vec![],
                        message: "x_test.go:10: boom".into()
                    }
                ),
                (
                    "Gpu",
                    &Reason::Skipped {
                        message: Some("x_test.go:20: no GPU".into())
                    }
                ),
            ]
        );
    }

    #[test]
    fn a_run_whose_every_benchmark_failed_is_go_text_naming_them() {
        let text = "goos: linux\ngoarch: amd64\npkg: example.com/x\n\
                    --- FAIL: BenchmarkBroken\n    x_test.go:10: boom\nFAIL\n";
        assert!(has_results(text));
        let message = crate::sources::load::load_bytes(
            text.as_bytes(),
            "go.txt",
            None,
            &crate::sources::ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.starts_with(
                "go.txt: no usable benchmark: every benchmark in go.txt failed in every run: `Broken` \
                 (1 of 1 runs failed: x_test.go:10: boom)"
            ),
            "{message}"
        );
    }

    #[test]
    fn lower_case_after_prefix_is_not_a_benchmark() {
        assert!(!has_results("Benchmarking 10 5 ns/op\n"));
        assert!(has_results("BenchmarkX 10 5 ns/op\n"));
    }
}
