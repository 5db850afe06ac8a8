//! `cargo speedup merge`: the parts of one comparison, measured by the jobs of a CI matrix, made into one
//! suite for the usual analysis (`docs/sharding.md` §3).
//!
//! Parts that hold different benchmarks (shards, `--partition K/N`) are joined. Parts that hold the same
//! benchmarks (the same K, or no partition, on several machines) are *blocks*: each machine compared BASE
//! with HEAD on itself, interleaved, so each (machine, benchmark) comparison is valid on its own, while
//! runs of two machines must never be pooled into one sample (their levels differ by more than any change
//! being measured). The suite analysis therefore treats each (machine, benchmark) pair as one unit of HPT
//! (paper 003 §4): the unit is the benchmark named `NAME @ PART` (PART the part's label), its
//! per-benchmark tests use that machine's runs only, and HPT's signed-rank test runs across all units.
//!
//! Why units, not a per-benchmark test stratified by machine (van Elteren's): HPT's question is whether
//! HEAD is faster across the population its units are drawn from, and (machine, benchmark) pairs are such
//! a population — a benchmark faster on one CPU and slower on another is two observations of the change,
//! not noise to average away. A stratified test would give one verdict per benchmark but needs every
//! machine to run every benchmark with comparable designs, and adds a test of its own to check; the unit
//! view reuses the analysis, the gate and the reports as they are. Its limit, said in the report: units of
//! one benchmark on several machines are not independent, so with few benchmarks and many machines HPT's
//! confidence is optimistic; shard a suite over machines rather than repeat it when that matters.
//!
//! Refused, with the part named (exit 2): parts that compared other commits or used other settings, tool or
//! rustc versions or lock files ([`Fingerprint::mismatch`]), other schemas, other partitions (`count:1/3`
//! beside `hash:2/3` or `count:1/2`), a missing part K of N, and a benchmark in two different parts K
//! (overlapping shards). Nothing is dropped: names compared on one side only or unchanged by identical
//! executables are carried over. Different machines are allowed and listed in the report's notes.
//!
//! Pure: no I/O. Must not: pool the runs of two parts into one sample.

use std::collections::{BTreeMap, BTreeSet};

use crate::fingerprint::{Fingerprint, MachineInfo};
use crate::model::{Environment, Pair, Suite};
use crate::partition::Partition;

/// One part: its label (the file it was read from), and what its report held.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub label: String,
    pub schema: String,
    pub fingerprint: Fingerprint,
    pub looks: u32,
    pub pairs: Vec<Pair>,
    pub identical: Vec<String>,
    pub base_only: Vec<String>,
    pub head_only: Vec<String>,
}

/// The parts as one suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub suite: Suite,
    /// The looks of the parts' plans (equal, as their settings are).
    pub looks: u32,
}

/// Why parts cannot be merged; each names the part(s) and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error(
        "nothing to merge\nhint: give the JSON reports of the parts: `cargo speedup merge part-*.json`"
    )]
    Empty,
    #[error(
        "{part} has schema {found}, {first} has {expected}\nhint: merge reports written by one version of cargo-speedup"
    )]
    Schema {
        part: String,
        found: String,
        first: String,
        expected: String,
    },
    #[error(
        "{part} and {first} differ in {what} ({found} vs {expected})\nhint: merge only the parts of one comparison: the same commits, cargo-speedup, rustc, Cargo.lock and options of the runs in every job of the matrix"
    )]
    Mismatch {
        part: String,
        first: String,
        what: String,
        found: String,
        expected: String,
    },
    #[error(
        "{part} has partition {found}, {first} has {expected}\nhint: every job of the matrix takes `--partition` of one split (e.g. `count:K/3` for K = 1, 2, 3)"
    )]
    Partition {
        part: String,
        found: String,
        first: String,
        expected: String,
    },
    #[error(
        "part {missing} is missing: no report has --partition {missing} (given: {given})\nhint: add the report of the job that ran `--partition {missing}`, or run it again"
    )]
    Missing { missing: String, given: String },
    #[error(
        "benchmark `{name}` is in {part} ({part_k}) and in {other} ({other_k}): the parts overlap\nhint: the parts of one split cannot share a benchmark; merge reports of one `--partition` split of one comparison"
    )]
    Overlap {
        name: String,
        part: String,
        part_k: String,
        other: String,
        other_k: String,
    },
}

/// Joins `parts` into one suite (module doc); refuses what cannot be one comparison.
pub fn merge(parts: &[Part]) -> Result<Merged, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?;
    for part in &parts[1..] {
        if part.schema != first.schema {
            return Err(MergeError::Schema {
                part: part.label.clone(),
                found: part.schema.clone(),
                first: first.label.clone(),
                expected: first.schema.clone(),
            });
        }
        if let Some((what, found, expected)) = part.fingerprint.mismatch(&first.fingerprint) {
            return Err(MergeError::Mismatch {
                part: part.label.clone(),
                first: first.label.clone(),
                what,
                found,
                expected,
            });
        }
    }
    let indexes = partition_indexes(parts)?;
    // Where each name is: (part, K); a name in two parts of different K is an overlap.
    let mut seen: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (p, part) in parts.iter().enumerate() {
        let names = part
            .pairs
            .iter()
            .map(|pair| pair.name.as_str())
            .chain(part.identical.iter().map(String::as_str));
        for name in names.collect::<BTreeSet<_>>() {
            let places = seen.entry(name).or_default();
            if let Some(&other) = places.iter().find(|&&o| indexes[o] != indexes[p]) {
                let k = |i: usize| parts[i].fingerprint.partition.clone().unwrap_or_default();
                return Err(MergeError::Overlap {
                    name: name.to_string(),
                    part: parts[other].label.clone(),
                    part_k: k(other),
                    other: part.label.clone(),
                    other_k: k(p),
                });
            }
            places.push(p);
        }
    }
    let in_blocks = |name: &str| seen.get(name).is_some_and(|places| places.len() > 1);
    let unit = |name: &str, part: &Part| match in_blocks(name) {
        true => format!("{name} @ {}", part.label),
        false => name.to_string(),
    };
    let mut pairs: Vec<Pair> = Vec::new();
    let (mut base_only, mut head_only, mut identical) = (vec![], vec![], vec![]);
    for part in parts {
        for pair in &part.pairs {
            let name = unit(&pair.name, part);
            let mut pair = pair.clone();
            pair.base.name = name.clone();
            pair.head.name = name.clone();
            pair.name = name;
            pairs.push(pair);
        }
        base_only.extend(part.base_only.iter().cloned());
        head_only.extend(part.head_only.iter().cloned());
        identical.extend(part.identical.iter().cloned());
    }
    // The merge does not depend on the order the parts are given in.
    pairs.sort_by(|a, b| a.name.cmp(&b.name));
    for names in [&mut base_only, &mut head_only, &mut identical] {
        names.sort();
        names.dedup();
    }
    let environment = Environment {
        cpu: common(parts, |m| m.cpu.clone()).flatten(),
        rustc: first.fingerprint.rustc.clone(),
        host: None,
        fingerprint: Some(Fingerprint {
            partition: None,
            machine: MachineInfo {
                cpu: common(parts, |m| m.cpu.clone()).flatten(),
                cores: common(parts, |m| m.cores).flatten(),
                governor: common(parts, |m| m.governor.clone()).flatten(),
            },
            ..first.fingerprint.clone()
        }),
    };
    let notes = notes(parts, seen.values().any(|places| places.len() > 1));
    Ok(Merged {
        suite: Suite {
            pairs,
            base_only,
            head_only,
            base_environment: environment.clone(),
            head_environment: environment,
            notes,
            identical,
        },
        looks: first.looks,
    })
}

/// Each part's K (0 for a part of the whole suite), after checking that the parts are one split with no
/// part missing.
fn partition_indexes(parts: &[Part]) -> Result<Vec<u32>, MergeError> {
    let parsed: Vec<Option<Partition>> = parts
        .iter()
        .map(|p| {
            let text = p.fingerprint.partition.as_deref()?;
            Some(Partition::parse(text).unwrap_or(Partition {
                scheme: crate::partition::Scheme::Count,
                index: 0,
                total: 0,
            }))
        })
        .collect();
    let split = |p: &Option<Partition>| p.map(|p| (p.scheme, p.total));
    let name = |i: usize| {
        parts[i]
            .fingerprint
            .partition
            .clone()
            .unwrap_or_else(|| "none (the whole suite)".into())
    };
    for (i, p) in parsed.iter().enumerate() {
        if split(p) != split(&parsed[0]) || p.is_some_and(|p| p.index == 0) {
            return Err(MergeError::Partition {
                part: parts[i].label.clone(),
                found: name(i),
                first: parts[0].label.clone(),
                expected: name(0),
            });
        }
    }
    if let Some(first) = parsed[0] {
        let given: BTreeSet<u32> = parsed.iter().flatten().map(|p| p.index).collect();
        if let Some(k) = (1..=first.total).find(|k| !given.contains(k)) {
            return Err(MergeError::Missing {
                missing: first.with_index(k).to_string(),
                given: given
                    .iter()
                    .map(|&k| first.with_index(k).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    Ok(parsed.iter().map(|p| p.map_or(0, |p| p.index)).collect())
}

/// The value every part's machine has, `None` when they differ.
fn common<T: PartialEq>(parts: &[Part], get: impl Fn(&MachineInfo) -> T) -> Option<T> {
    let first = get(&parts.first()?.fingerprint.machine);
    parts
        .iter()
        .all(|p| get(&p.fingerprint.machine) == first)
        .then_some(first)
}

/// The report's notes: the parts and their machines, and the caveat of blocks.
fn notes(parts: &[Part], blocks: bool) -> Vec<String> {
    let machine = |m: &MachineInfo| {
        let mut text = m.cpu.clone().unwrap_or_else(|| "unknown CPU".into());
        if let Some(cores) = m.cores {
            text.push_str(&format!(", {cores} CPUs"));
        }
        if let Some(governor) = &m.governor {
            text.push_str(&format!(", governor {governor}"));
        }
        text
    };
    let list: Vec<String> = parts
        .iter()
        .map(|p| {
            format!(
                "{} ({}, {} benchmarks) on {}",
                p.label,
                p.fingerprint.partition.as_deref().unwrap_or("whole suite"),
                p.pairs.len() + p.identical.len(),
                machine(&p.fingerprint.machine)
            )
        })
        .collect();
    let mut list = list;
    list.sort();
    let mut notes = vec![format!("merged {} parts: {}", parts.len(), list.join("; "))];
    let machines: BTreeSet<&MachineInfo> = parts.iter().map(|p| &p.fingerprint.machine).collect();
    if machines.len() > 1 {
        notes.push(format!(
            "the parts ran on {} different machines: each compared BASE with HEAD on itself",
            machines.len()
        ));
    }
    if blocks {
        notes.push(
            "benchmarks measured by several parts are analysed once per part (`NAME @ PART`), as units \
             of HPT; units of one benchmark are not independent, so with few benchmarks HPT's confidence \
             is optimistic"
                .into(),
        );
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Runs, Sample, Unit};

    fn pair(name: &str, base: f64, head: f64) -> Pair {
        let side = |level: f64| Benchmark {
            name: name.into(),
            runs: Runs::independent(
                Sample::new(vec![level, level * 1.01, level * 0.99], Unit::Ns).unwrap(),
            ),
            unit: Unit::Ns,
        };
        Pair {
            name: name.into(),
            base: side(base),
            head: side(head),
        }
    }

    fn part(label: &str, partition: Option<&str>, names: &[&str]) -> Part {
        Part {
            label: label.into(),
            schema: "cargo-speedup/1".into(),
            fingerprint: Fingerprint {
                tool: "cargo-speedup 0.1.0".into(),
                base_commit: Some("aaa".into()),
                head_commit: Some("bbb".into()),
                partition: partition.map(String::from),
                machine: MachineInfo {
                    cpu: Some(format!("cpu of {label}")),
                    cores: Some(2),
                    governor: None,
                },
                ..Default::default()
            },
            looks: 1,
            pairs: names.iter().map(|n| pair(n, 100.0, 90.0)).collect(),
            identical: vec![],
            base_only: vec![],
            head_only: vec![],
        }
    }

    fn names(merged: &Merged) -> Vec<&str> {
        merged.suite.pairs.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn shards_are_joined_whatever_their_order() {
        let mut parts = vec![
            part("p2.json", Some("count:2/3"), &["b", "e"]),
            part("p1.json", Some("count:1/3"), &["a", "d"]),
            part("p3.json", Some("count:3/3"), &["c"]),
        ];
        parts[0].identical = vec!["f".into()];
        parts[2].base_only = vec!["gone".into()];
        let merged = merge(&parts).unwrap();
        assert_eq!(names(&merged), ["a", "b", "c", "d", "e"]);
        assert_eq!(merged.suite.identical, ["f"]);
        assert_eq!(merged.suite.base_only, ["gone"]);
        parts.reverse();
        assert_eq!(merge(&parts).unwrap().suite, merged.suite);
        // Three machines, listed; no benchmark was measured twice, so no unit is renamed.
        let notes = &merged.suite.notes;
        assert!(
            notes[0].starts_with(
                "merged 3 parts: p1.json (count:1/3, 2 benchmarks) on cpu of p1.json, 2 CPUs; p2.json"
            ),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("3 different machines")),
            "{notes:?}"
        );
        let print = merged.suite.head_environment.fingerprint.unwrap();
        assert_eq!(
            (print.partition, print.machine.cpu, print.machine.cores),
            (None, None, Some(2))
        );
    }

    #[test]
    fn the_same_benchmarks_on_several_machines_are_units_of_their_own() {
        let parts = [part("m1", None, &["a", "b"]), part("m2", None, &["a", "b"])];
        let merged = merge(&parts).unwrap();
        assert_eq!(names(&merged), ["a @ m1", "a @ m2", "b @ m1", "b @ m2"]);
        // Each unit keeps its own machine's runs, never pooled.
        let unit = &merged.suite.pairs[1];
        assert_eq!(
            (unit.base.name.as_str(), unit.base.runs.len()),
            ("a @ m2", 3)
        );
        assert!(
            merged
                .suite
                .notes
                .iter()
                .any(|n| n.contains("units of HPT"))
        );
        // Blocks of shards: two machines per part.
        let parts = [
            part("1a", Some("hash:1/2"), &["x"]),
            part("1b", Some("hash:1/2"), &["x"]),
            part("2a", Some("hash:2/2"), &["y"]),
        ];
        assert_eq!(names(&merge(&parts).unwrap()), ["x @ 1a", "x @ 1b", "y"]);
    }

    #[test]
    fn a_missing_part_is_named() {
        let parts = [
            part("p1", Some("count:1/3"), &["a"]),
            part("p3", Some("count:3/3"), &["c"]),
        ];
        assert_eq!(
            merge(&parts).unwrap_err(),
            MergeError::Missing {
                missing: "count:2/3".into(),
                given: "count:1/3, count:3/3".into()
            }
        );
    }

    #[test]
    fn overlapping_parts_are_refused() {
        let parts = [
            part("p1", Some("count:1/2"), &["a", "b"]),
            part("p2", Some("count:2/2"), &["b"]),
        ];
        let error = merge(&parts).unwrap_err();
        assert_eq!(
            error,
            MergeError::Overlap {
                name: "b".into(),
                part: "p1".into(),
                part_k: "count:1/2".into(),
                other: "p2".into(),
                other_k: "count:2/2".into()
            }
        );
        // An identical-executables benchmark counts as held by its part as well.
        let mut parts = [
            part("p1", Some("count:1/2"), &["a"]),
            part("p2", Some("count:2/2"), &["b"]),
        ];
        parts[1].identical = vec!["a".into()];
        assert!(matches!(merge(&parts), Err(MergeError::Overlap { .. })));
    }

    #[test]
    fn other_splits_commits_settings_and_schemas_are_refused() {
        let split = [
            part("p1", Some("count:1/2"), &["a"]),
            part("p2", Some("hash:2/2"), &["b"]),
        ];
        assert!(matches!(merge(&split), Err(MergeError::Partition { part, .. }) if part == "p2"));
        let whole_and_part = [
            part("all", None, &["a"]),
            part("p1", Some("count:1/1"), &["b"]),
        ];
        assert!(matches!(
            merge(&whole_and_part),
            Err(MergeError::Partition { .. })
        ));
        let mut commits = [part("p1", None, &["a"]), part("p2", None, &["b"])];
        commits[1].fingerprint.base_commit = Some("ccc".into());
        let error = merge(&commits).unwrap_err();
        assert_eq!(
            error.to_string().lines().next(),
            Some("p2 and p1 differ in BASE commit (ccc vs aaa)")
        );
        let mut settings = [part("p1", None, &["a"]), part("p2", None, &["b"])];
        settings[0]
            .fingerprint
            .settings
            .insert("sample-size".into(), "10".into());
        assert!(
            matches!(merge(&settings), Err(MergeError::Mismatch { what, .. }) if what == "setting `sample-size`")
        );
        let mut schemas = [part("p1", None, &["a"]), part("p2", None, &["b"])];
        schemas[1].schema = "cargo-speedup/2".into();
        assert!(matches!(merge(&schemas), Err(MergeError::Schema { part, .. }) if part == "p2"));
        assert_eq!(merge(&[]).unwrap_err(), MergeError::Empty);
    }
}
