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
//! noted. Must not: mix metrics, or merge benchmarks of different packages.

use std::collections::{BTreeSet, HashMap};

use super::{Builder, SourceError, ValuesFrom};
use crate::model::{Results, Unit};

const FORMAT: &str = "Go benchmark text";

/// One parsed result line.
struct Line<'a> {
    name: &'a str,
    /// The time per operation in nanoseconds, if the line has one.
    nanos: Option<f64>,
}

/// Whether `text` holds at least one result line with a time per operation.
pub(crate) fn has_results(text: &str) -> bool {
    text.lines()
        .any(|l| matches!(result_line(l), Some(Ok(Line { nanos: Some(_), .. }))))
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
    for (index, line) in text.lines().enumerate() {
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
    for key in order {
        let name = if ambiguous.contains(&key.1) {
            format!("{}.{}", key.0, key.1)
        } else {
            key.1.clone()
        };
        let sample = values.remove(&key).unwrap_or_default();
        builder.push(&name, sample, Unit::Ns, ValuesFrom::ProcessPerValue)?;
    }
    builder.finish(FORMAT)
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
    fn lower_case_after_prefix_is_not_a_benchmark() {
        assert!(!has_results("Benchmarking 10 5 ns/op\n"));
        assert!(has_results("BenchmarkX 10 5 ns/op\n"));
    }
}
