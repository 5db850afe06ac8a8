//! `cargo speedup merge`: the parts of one comparison, measured by the jobs of a CI matrix, made into one
//! suite for the usual analysis (`docs/sharding.md` §3).
//!
//! Parts that hold different benchmarks (shards, `--partition count:K/N`) are joined. Parts that hold the same
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
//! Refused, with the part named (exit 2): a part that compared a working tree (no commit to check), parts
//! that compared other commits or used other settings, tool or rustc versions or lock files
//! ([`Fingerprint::mismatch`]), instruction counts of two machines ([`CountsMismatch`]: the CPU model, its
//! flags, glibc or Valgrind differ), other schemas, other partitions (`count:1/3` beside `hash:2/3` or
//! `count:1/2`), a missing part K of N, a benchmark in two different parts K (overlapping shards), and a
//! part given twice or copied ([`MergeError::Duplicate`]). Nothing is dropped: names compared on one side
//! only or unchanged by identical executables are carried over. Different machines are allowed for times,
//! and listed in the report's notes.
//!
//! Duplicates: two parts are one measurement when their fingerprints are equal in every member (the
//! partition and the machine included) and they hold the same benchmarks with bit-identical runs. Two
//! machines, or two runs on one machine, never time a process to the same bits, so this refuses a part
//! given twice or copied under another name (which blocks would otherwise count as more machines, each
//! copy another unit of HPT) and nothing measured twice. The seed that ordered the runs is not in a report;
//! identical runs imply it. What this does not catch: a copy whose runs were edited, which only a forger
//! makes: whoever can write the parts can write any runs, and a merge can only check that the parts are
//! consistent (`docs/sharding.md` §3).
//!
//! Pure: no I/O. Must not: pool the runs of two parts into one sample.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::fingerprint::{CountsMismatch, Fingerprint, MachineInfo};
use crate::model::{Benchmark, Environment, Pair, PartReport, Results, Suite};
use crate::partition::Partition;

/// One part: its label (the file it was read from), and what its report held.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The part's name in messages and in unit names (`NAME @ PART`): the file it was read from.
    pub label: String,
    /// What the part's report held.
    pub report: PartReport,
}

/// The parts as one suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The pairs of every part, a benchmark in several blocks renamed `NAME @ PART`; its design is the
    /// parts' (their plans' looks, equal as their settings are; measured by the revision form, so that more
    /// runs are had with its flags).
    pub suite: Suite,
}

/// Why parts cannot be merged; each names the part(s) and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No part was given.
    #[error(
        "nothing to merge\nhint: give the JSON reports of the parts: `cargo speedup merge part-*.json`"
    )]
    Empty,
    /// Two parts were written with different report schemas.
    #[error(
        "{part} has schema {found}, {first} has {expected}\nhint: merge reports written by one version of cargo-speedup"
    )]
    Schema {
        /// The part whose schema differs.
        part: String,
        /// Its schema.
        found: String,
        /// The first part, the reference.
        first: String,
        /// The first part's schema.
        expected: String,
    },
    /// Two parts differ in what they measured: commits, settings, tool or rustc versions, lock file.
    #[error(
        "{part} and {first} differ in {what} ({found} vs {expected})\nhint: merge only the parts of one comparison: the same commits, cargo-speedup, rustc, Cargo.lock and options of the runs in every job of the matrix"
    )]
    Mismatch {
        /// The part that differs.
        part: String,
        /// The first part, the reference.
        first: String,
        /// What differs, e.g. "BASE commit", "rustc" or "setting `sample-size`".
        what: String,
        /// Its value in `part`.
        found: String,
        /// Its value in `first`.
        expected: String,
    },
    /// Two parts are instruction counts of two machines (`docs/json.md` §2, "The fingerprint of counts").
    #[error("{0}")]
    CountedElsewhere(#[from] CountsMismatch),
    /// Two parts come from different `--partition` splits.
    #[error(
        "{part} has partition {found}, {first} has {expected}\nhint: every job of the matrix takes `--partition` of one split (e.g. `count:K/3` for K = 1, 2, 3)"
    )]
    Partition {
        /// The part whose partition differs.
        part: String,
        /// Its partition, e.g. `count:1/3`.
        found: String,
        /// The first part, the reference.
        first: String,
        /// The first part's partition.
        expected: String,
    },
    /// A part K of the split has no report.
    #[error(
        "part {missing} is missing: no report has --partition {missing} (given: {given})\nhint: add the report of the job that ran `--partition {missing}`, or run it again"
    )]
    Missing {
        /// The partition of the missing part, e.g. `count:2/3`.
        missing: String,
        /// The partitions the given parts have, comma-separated.
        given: String,
    },
    /// A part compared a working tree, so no commit shows it measured the same code as the others.
    #[error(
        "{part} compared a working tree, which no commit names: parts cannot be shown to measure the same code\nhint: commit the change and run every part as `cargo speedup BASE..HEAD` with two commits"
    )]
    NoCommit {
        /// The part that compared a working tree.
        part: String,
    },
    /// A part carries no fingerprint (written by another version).
    #[error(
        "{part} has no fingerprint: it was not written by this version of `cargo speedup record`\nhint: record the parts again with this version"
    )]
    NoFingerprint {
        /// The part without a fingerprint.
        part: String,
    },
    /// A benchmark is in two records of one side: runs of two machines would be pooled.
    #[error(
        "benchmark `{name}` is in {part} and in {other}: a record is one side, and runs of two machines are never pooled into one sample\nhint: merge each machine's records apart, or merge the comparisons' JSON reports, which analyse each machine as units"
    )]
    Repeated {
        /// The benchmark's name.
        name: String,
        /// The first record holding it.
        part: String,
        /// The other record holding it.
        other: String,
    },
    /// Two parts are one measurement: a part given twice, or a copy of it (the same fingerprint, partition
    /// and machine included, and bit-identical runs of every benchmark).
    #[error("{}", duplicate_message(first, second, *benchmarks))]
    Duplicate {
        /// The part given first.
        first: String,
        /// The part that repeats it (the same label when the same file was given twice).
        second: String,
        /// How many benchmarks' runs they share.
        benchmarks: usize,
    },
    /// A benchmark is in two different parts K of one split: the shards overlap.
    #[error(
        "benchmark `{name}` is in {part} ({part_k}) and in {other} ({other_k}): the parts overlap\nhint: the parts of one split cannot share a benchmark; merge reports of one `--partition` split of one comparison"
    )]
    Overlap {
        /// The benchmark's name.
        name: String,
        /// The first part holding it.
        part: String,
        /// That part's partition.
        part_k: String,
        /// The other part holding it.
        other: String,
        /// The other part's partition.
        other_k: String,
    },
}

fn duplicate_message(first: &str, second: &str, benchmarks: usize) -> String {
    let hint = "hint: give each job's report once; a copy of a part is not another machine: to add a \
                machine, measure the part again on it";
    if first == second {
        return format!(
            "{first} is given twice: merging it twice would count its machine's runs twice\n{hint}"
        );
    }
    format!(
        "{second} is the same measurement as {first}: the same fingerprint (partition and machine included) \
         and bit-identical runs of all {benchmarks} benchmarks: merging both would count one machine's runs \
         twice\n{hint} (drop {second})"
    )
}

/// The first two parts that are one measurement ([`MergeError::Duplicate`]): the same fingerprint and the
/// same runs, under the same names, of at least one benchmark. `parts` are (label, fingerprint, benchmarks).
/// Parts that compared nothing (every benchmark unchanged by identical executables) add no runs to the
/// analysis, so two of them are no duplicate.
fn duplicate<T: PartialEq>(parts: &[(&str, &Fingerprint, &[T])]) -> Result<(), MergeError> {
    for (j, (second, print, runs)) in parts.iter().enumerate() {
        let earlier = parts[..j]
            .iter()
            .find(|(_, p, r)| !runs.is_empty() && p == print && r == runs);
        if let Some((first, ..)) = earlier {
            return Err(MergeError::Duplicate {
                first: first.to_string(),
                second: second.to_string(),
                benchmarks: runs.len(),
            });
        }
    }
    Ok(())
}

/// One `record` file (one side of a comparison) of a part: what [`merge_records`] joins.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordPart {
    /// The record's name in messages: the file it was read from.
    pub label: String,
    /// The `schema` of the record file; every record must have the same.
    pub schema: String,
    /// Its fingerprint is in `results.environment.fingerprint`; a record without one is refused.
    pub results: Results,
}

/// What the checks need of a part, report or record.
struct View<'a> {
    label: &'a str,
    schema: &'a str,
    fingerprint: &'a Fingerprint,
    /// The benchmarks it holds (compared, or unchanged by identical executables).
    names: BTreeSet<&'a str>,
}

/// Joins `parts` into one suite (module doc); refuses what cannot be one comparison.
pub fn merge(parts: &[Part]) -> Result<Merged, MergeError> {
    // Two working trees cannot be shown to hold the same code: only commits can.
    let uncommitted = parts.iter().find(|p| {
        p.report.fingerprint.base_commit.is_none() || p.report.fingerprint.head_commit.is_none()
    });
    if let Some(part) = uncommitted {
        return Err(MergeError::NoCommit {
            part: part.label.clone(),
        });
    }
    let identities: Vec<(&str, &Fingerprint, &[Pair])> = parts
        .iter()
        .map(|p| (p.label.as_str(), &p.report.fingerprint, &p.report.pairs[..]))
        .collect();
    duplicate(&identities)?;
    let views: Vec<View<'_>> = parts
        .iter()
        .map(|part| View {
            label: &part.label,
            schema: &part.report.schema,
            fingerprint: &part.report.fingerprint,
            names: part
                .report
                .pairs
                .iter()
                .map(|pair| pair.name.as_str())
                .chain(part.report.identical.iter().map(String::as_str))
                .collect(),
        })
        .collect();
    let seen = check(&views)?;
    let in_blocks = |name: &str| seen.get(name).is_some_and(|places| places.len() > 1);
    let unit = |name: &str, part: &Part| match in_blocks(name) {
        true => format!("{name} @ {}", part.label),
        false => name.to_string(),
    };
    let mut pairs: Vec<Pair> = Vec::new();
    let (mut base_only, mut head_only, mut identical) = (vec![], vec![], vec![]);
    for part in parts {
        for pair in &part.report.pairs {
            let name = unit(&pair.name, part);
            let mut pair = pair.clone();
            pair.base.name = name.clone();
            pair.head.name = name.clone();
            pair.name = name;
            pairs.push(pair);
        }
        base_only.extend(part.report.base_only.iter().cloned());
        head_only.extend(part.report.head_only.iter().cloned());
        identical.extend(part.report.identical.iter().cloned());
    }
    // The merge does not depend on the order the parts are given in.
    pairs.sort_by(|a, b| a.name.cmp(&b.name));
    for names in [&mut base_only, &mut head_only, &mut identical] {
        names.sort();
        names.dedup();
    }
    let environment = environment(&views);
    let mut notes = notes(&views, seen.values().any(|places| places.len() > 1));
    notes.extend(parts.iter().filter_map(not_carried));
    Ok(Merged {
        suite: Suite {
            pairs,
            base_only,
            head_only,
            base_environment: environment.clone(),
            head_environment: environment,
            notes,
            identical,
            design: super::Design::measured(parts[0].report.looks),
            left_out: vec![],
        },
    })
}

/// The note on what `part`'s report lists as not compared, which the merge does not carry (a report words
/// each reason and quotes one line of its message: not enough to give it back as it was); `None` when it
/// lists nothing.
fn not_carried(part: &Part) -> Option<String> {
    let listed = &part.report.not_compared;
    let first = listed.first()?;
    let failing = listed.iter().filter(|(_, fails)| *fails).count();
    let more = match listed.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    let gate = match failing {
        0 => String::new(),
        n => format!(", {n} of which failed that part's gate"),
    };
    Some(format!(
        "{}: its report lists {} not compared (`{}`{more}{gate}); the merge does not carry them: this \
         report neither lists them nor gates on them, read that part's report",
        part.label,
        listed.len(),
        first.0
    ))
}

/// Joins the `record` files of the parts of one side (one commit) into one record: the same checks as
/// [`merge`], and a benchmark held by two parts is refused, since a record is one side and the runs of two
/// machines are never pooled.
pub fn merge_records(parts: &[RecordPart]) -> Result<Results, MergeError> {
    let missing = parts
        .iter()
        .find(|p| p.results.environment.fingerprint.is_none());
    if let Some(part) = missing {
        return Err(MergeError::NoFingerprint {
            part: part.label.clone(),
        });
    }
    let views: Vec<View<'_>> = parts
        .iter()
        .filter_map(|part| {
            Some(View {
                label: &part.label,
                schema: &part.schema,
                fingerprint: part.results.environment.fingerprint.as_ref()?,
                names: part
                    .results
                    .benchmarks
                    .iter()
                    .map(|b| b.name.as_str())
                    .collect(),
            })
        })
        .collect();
    let identities: Vec<(&str, &Fingerprint, &[Benchmark])> = parts
        .iter()
        .zip(&views)
        .map(|(p, v)| (p.label.as_str(), v.fingerprint, &p.results.benchmarks[..]))
        .collect();
    duplicate(&identities)?;
    let seen = check(&views)?;
    if let Some((name, places)) = seen.iter().find(|(_, places)| places.len() > 1) {
        return Err(MergeError::Repeated {
            name: name.to_string(),
            part: parts[places[0]].label.clone(),
            other: parts[places[1]].label.clone(),
        });
    }
    let mut benchmarks: Vec<Benchmark> = parts
        .iter()
        .flat_map(|p| p.results.benchmarks.iter().cloned())
        .collect();
    benchmarks.sort_by(|a, b| a.name.cmp(&b.name));
    let mut notes: Vec<String> = parts
        .iter()
        .flat_map(|p| p.results.notes.iter().cloned())
        .collect();
    notes.extend(self::notes(&views, false));
    Ok(Results {
        origin: "the merged records".into(),
        benchmarks,
        environment: environment(&views),
        notes,
        // A target every part left out (one that needs a feature) is listed once.
        left_out: parts
            .iter()
            .flat_map(|p| p.results.left_out.iter().cloned())
            .fold(Vec::new(), |mut all, item| {
                if !all.contains(&item) {
                    all.push(item);
                }
                all
            }),
    })
}

/// The checks of both merges: one schema, one comparison (fingerprints), one split with every part, no
/// benchmark in two different parts K. Returns, per benchmark, the parts that hold it.
fn check<'a>(views: &[View<'a>]) -> Result<BTreeMap<&'a str, Vec<usize>>, MergeError> {
    let first = views.first().ok_or(MergeError::Empty)?;
    for part in &views[1..] {
        if part.schema != first.schema {
            return Err(MergeError::Schema {
                part: part.label.to_string(),
                found: part.schema.to_string(),
                first: first.label.to_string(),
                expected: first.schema.to_string(),
            });
        }
        if let Some((what, found, expected)) = part.fingerprint.mismatch(first.fingerprint) {
            return Err(MergeError::Mismatch {
                part: part.label.to_string(),
                first: first.label.to_string(),
                what,
                found,
                expected,
            });
        }
        // Counts of two machines differ by the machine, whichever parts they are.
        let (first_part, this_part) = (
            (first.label, first.fingerprint),
            (part.label, part.fingerprint),
        );
        if let Some(refused) = CountsMismatch::between(first_part, this_part) {
            return Err(refused.into());
        }
    }
    let indexes = partition_indexes(views)?;
    // Where each name is; a name in two parts of different K is an overlap.
    let mut seen: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (p, part) in views.iter().enumerate() {
        for &name in &part.names {
            let places = seen.entry(name).or_default();
            if let Some(&other) = places.iter().find(|&&o| indexes[o] != indexes[p]) {
                let k = |i: usize| views[i].fingerprint.partition.clone().unwrap_or_default();
                return Err(MergeError::Overlap {
                    name: name.to_string(),
                    part: views[other].label.to_string(),
                    part_k: k(other),
                    other: part.label.to_string(),
                    other_k: k(p),
                });
            }
            places.push(p);
        }
    }
    Ok(seen)
}

/// The merged environment: the first part's fingerprint without partition, its machine's members where
/// every part agrees.
fn environment(views: &[View<'_>]) -> Environment {
    let first = views[0].fingerprint;
    let machine = MachineInfo {
        cpu: common(views, |m| m.cpu.clone()).flatten(),
        cores: common(views, |m| m.cores).flatten(),
        governor: common(views, |m| m.governor.clone()).flatten(),
        cpu_flags: common(views, |m| m.cpu_flags.clone()).flatten(),
        glibc: common(views, |m| m.glibc.clone()).flatten(),
    };
    Environment {
        cpu: machine.cpu.clone(),
        rustc: first.rustc.clone(),
        host: None,
        fingerprint: Some(Fingerprint {
            partition: None,
            machine,
            ..first.clone()
        }),
    }
}

/// Each part's K (0 for a part of the whole suite), after checking that the parts are one split with no
/// part missing.
fn partition_indexes(parts: &[View<'_>]) -> Result<Vec<u32>, MergeError> {
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
                part: parts[i].label.to_string(),
                found: name(i),
                first: parts[0].label.to_string(),
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
fn common<T: PartialEq>(parts: &[View<'_>], get: impl Fn(&MachineInfo) -> T) -> Option<T> {
    let first = get(&parts.first()?.fingerprint.machine);
    parts
        .iter()
        .all(|p| get(&p.fingerprint.machine) == first)
        .then_some(first)
}

/// The report's notes: the parts and their machines, and the caveat of blocks.
fn notes(parts: &[View<'_>], blocks: bool) -> Vec<String> {
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
    let mut list: Vec<String> = parts
        .iter()
        .map(|p| {
            format!(
                "{} ({}, {} benchmarks) on {}",
                p.label,
                p.fingerprint.partition.as_deref().unwrap_or("whole suite"),
                p.names.len(),
                machine(&p.fingerprint.machine)
            )
        })
        .collect();
    list.sort();
    let noun = if parts.len() == 1 { "part" } else { "parts" };
    let mut notes = vec![format!(
        "merged {} {noun}: {}",
        parts.len(),
        list.join("; ")
    )];
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
            counters: Vec::new(),
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
            report: PartReport {
                schema: "cargo-speedup/1".into(),
                fingerprint: Fingerprint {
                    tool: "cargo-speedup 0.1.0".into(),
                    base_commit: Some("aaa".into()),
                    head_commit: Some("bbb".into()),
                    partition: partition.map(String::from),
                    machine: MachineInfo {
                        cpu: Some(format!("cpu of {label}")),
                        cores: Some(2),
                        ..Default::default()
                    },
                    ..Default::default()
                },
                looks: 1,
                pairs: names.iter().map(|n| pair(n, 100.0, 90.0)).collect(),
                identical: vec![],
                base_only: vec![],
                head_only: vec![],
                not_compared: vec![],
            },
        }
    }

    fn names(merged: &Merged) -> Vec<&str> {
        merged.suite.pairs.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn the_merged_suite_is_measured_at_the_looks_of_the_parts_plans() {
        let mut parts = vec![
            part("p1.json", Some("count:1/2"), &["a"]),
            part("p2.json", Some("count:2/2"), &["b"]),
        ];
        for part in &mut parts {
            part.report.looks = 3;
        }
        let design = merge(&parts).unwrap().suite.design;
        assert_eq!(
            (design.looks(), design.remedy()),
            (3, crate::model::Remedy::RunHere)
        );
    }

    #[test]
    fn what_a_part_did_not_compare_is_said_not_carried() {
        let mut parts = vec![
            part("p1.json", Some("count:1/2"), &["a"]),
            part("p2.json", Some("count:2/2"), &["b"]),
        ];
        parts[1].report.not_compared = vec![("heavy".into(), false), ("boom".into(), true)];
        let merged = merge(&parts).unwrap();
        assert!(merged.suite.left_out.is_empty());
        let said: Vec<&String> = merged
            .suite
            .notes
            .iter()
            .filter(|n| n.contains("not compared"))
            .collect();
        assert_eq!(
            said,
            [
                "p2.json: its report lists 2 not compared (`heavy` and 1 more, 1 of which failed that \
              part's gate); the merge does not carry them: this report neither lists them nor gates on \
              them, read that part's report"
            ]
        );
        parts[1].report.not_compared.clear();
        let quiet = merge(&parts).unwrap();
        assert!(!quiet.suite.notes.iter().any(|n| n.contains("not compared")));
    }

    #[test]
    fn shards_are_joined_whatever_their_order() {
        let mut parts = vec![
            part("p2.json", Some("count:2/3"), &["b", "e"]),
            part("p1.json", Some("count:1/3"), &["a", "d"]),
            part("p3.json", Some("count:3/3"), &["c"]),
        ];
        parts[0].report.identical = vec!["f".into()];
        parts[2].report.base_only = vec!["gone".into()];
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
        parts[1].report.identical = vec!["a".into()];
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
        commits[1].report.fingerprint.base_commit = Some("ccc".into());
        let error = merge(&commits).unwrap_err();
        assert_eq!(
            error.to_string().lines().next(),
            Some("p2 and p1 differ in BASE commit (ccc vs aaa)")
        );
        let mut settings = [part("p1", None, &["a"]), part("p2", None, &["b"])];
        settings[0]
            .report
            .fingerprint
            .settings
            .insert("sample-size".into(), "10".into());
        assert!(
            matches!(merge(&settings), Err(MergeError::Mismatch { what, .. }) if what == "setting `sample-size`")
        );
        let mut schemas = [part("p1", None, &["a"]), part("p2", None, &["b"])];
        schemas[1].report.schema = "cargo-speedup/2".into();
        assert!(matches!(merge(&schemas), Err(MergeError::Schema { part, .. }) if part == "p2"));
        assert_eq!(merge(&[]).unwrap_err(), MergeError::Empty);
        let mut tree = [part("p1", None, &["a"])];
        tree[0].report.fingerprint.head_commit = None;
        assert_eq!(
            merge(&tree).unwrap_err(),
            MergeError::NoCommit { part: "p1".into() }
        );
    }

    #[test]
    fn a_part_given_twice_or_copied_is_refused_and_a_remeasured_one_is_not() {
        let one = part("slow.json", None, &["a", "b"]);
        let twice = [one.clone(), one.clone()];
        assert_eq!(
            merge(&twice).unwrap_err().to_string(),
            "slow.json is given twice: merging it twice would count its machine's runs twice\n\
             hint: give each job's report once; a copy of a part is not another machine: to add a machine, \
             measure the part again on it"
        );
        let mut copy = one.clone();
        copy.label = "copy.json".into();
        let error = merge(&[one.clone(), part("other", None, &["a", "b"]), copy]).unwrap_err();
        assert_eq!(
            error,
            MergeError::Duplicate {
                first: "slow.json".into(),
                second: "copy.json".into(),
                benchmarks: 2
            }
        );
        // The same benchmarks measured again on the same machine: other runs, two units each.
        let mut again = one.clone();
        again.label = "again.json".into();
        again.report.pairs = vec![pair("a", 100.5, 90.0), pair("b", 100.0, 90.0)];
        assert!(merge(&[one.clone(), again]).is_ok());
        // A copy claiming another machine or another part is not the same measurement: blocks, and
        // overlapping shards, are told by the other rules.
        let mut elsewhere = one.clone();
        elsewhere.label = "elsewhere.json".into();
        elsewhere.report.fingerprint.machine.cpu = Some("another CPU".into());
        assert!(merge(&[one.clone(), elsewhere]).is_ok());
        // Parts that compared nothing (identical executables only) add no runs, and are no duplicate.
        let mut empty = part("e1", None, &[]);
        empty.report.identical = vec!["a".into()];
        let mut other = empty.clone();
        other.label = "e2".into();
        assert!(merge(&[empty, other]).is_ok());
    }

    #[test]
    fn a_record_given_twice_is_refused_as_a_duplicate() {
        let parts = [record("r1", None, &["a"]), record("r1", None, &["a"])];
        assert_eq!(
            merge_records(&parts).unwrap_err(),
            MergeError::Duplicate {
                first: "r1".into(),
                second: "r1".into(),
                benchmarks: 1
            }
        );
    }

    fn record(label: &str, partition: Option<&str>, names: &[&str]) -> RecordPart {
        let report = part(label, partition, names).report;
        RecordPart {
            label: label.into(),
            schema: "cargo-speedup-record/2".into(),
            results: Results {
                origin: label.into(),
                benchmarks: report.pairs.into_iter().map(|p| p.head).collect(),
                environment: Environment {
                    fingerprint: Some(report.fingerprint),
                    ..Environment::default()
                },
                notes: vec![format!("a note of {label}")],
                left_out: vec![],
            },
        }
    }

    #[test]
    fn records_of_one_side_are_joined_into_one_record() {
        let parts = [
            record("r2", Some("count:2/2"), &["b"]),
            record("r1", Some("count:1/2"), &["c", "a"]),
        ];
        let merged = merge_records(&parts).unwrap();
        let names: Vec<&str> = merged.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(merged.benchmarks[1], parts[0].results.benchmarks[0]);
        assert!(merged.notes.contains(&"a note of r1".to_string()));
        assert!(
            merged
                .notes
                .iter()
                .any(|n| n.starts_with("merged 2 parts: r1 (count:1/2"))
        );
        let print = merged.environment.fingerprint.unwrap();
        assert_eq!(
            (print.partition, print.head_commit.as_deref()),
            (None, Some("bbb"))
        );
    }

    #[test]
    fn what_the_records_left_out_is_joined_once() {
        use crate::model::coverage::{LeftOut, Reason};
        let heavy = LeftOut::target(
            "heavy",
            None,
            Reason::NeedsFeatures {
                missing: vec!["heavy".into()],
            },
        );
        let noop = LeftOut::benchmark(
            "noop",
            None,
            Reason::BelowResolution {
                printed: "0 ns/iter".into(),
            },
        );
        let mut parts = [
            record("r1", Some("count:1/2"), &["a"]),
            record("r2", Some("count:2/2"), &["b"]),
        ];
        parts[0].results.left_out = vec![heavy.clone()];
        parts[1].results.left_out = vec![heavy.clone(), noop.clone()];
        let merged = merge_records(&parts).unwrap();
        assert_eq!(merged.left_out, [heavy, noop]);
    }

    #[test]
    fn a_record_never_pools_two_machines_and_needs_its_fingerprint() {
        let parts = [record("m1", None, &["a"]), record("m2", None, &["a"])];
        assert_eq!(
            merge_records(&parts).unwrap_err(),
            MergeError::Repeated {
                name: "a".into(),
                part: "m1".into(),
                other: "m2".into()
            }
        );
        let mut parts = [record("r1", None, &["a"])];
        parts[0].results.environment.fingerprint = None;
        assert_eq!(
            merge_records(&parts).unwrap_err(),
            MergeError::NoFingerprint { part: "r1".into() }
        );
        let missing = [record("r1", Some("hash:1/2"), &["a"])];
        assert!(matches!(
            merge_records(&missing),
            Err(MergeError::Missing { .. })
        ));
    }

    /// `print` made a fingerprint of counts on `cpu` with glibc `glibc`.
    fn counted(print: &mut Fingerprint, cpu: &str, glibc: &str) {
        print
            .settings
            .insert("measure".into(), "instructions".into());
        print
            .settings
            .insert("valgrind".into(), "valgrind-3.19.0".into());
        print.machine.cpu = Some(cpu.into());
        print.machine.cpu_flags = Some("fpu sse2 avx2".into());
        print.machine.glibc = Some(glibc.into());
    }

    #[test]
    fn counts_of_two_machines_are_never_merged_and_of_one_are() {
        let mut parts = [
            part("p1.json", Some("count:1/2"), &["a"]),
            part("p2.json", Some("count:2/2"), &["b"]),
        ];
        counted(&mut parts[0].report.fingerprint, "AMD EPYC 7B13", "2.36");
        counted(&mut parts[1].report.fingerprint, "AMD EPYC 7B13", "2.39");
        let error = merge(&parts).unwrap_err();
        assert!(
            matches!(&error, MergeError::CountedElsewhere(c) if c.difference == "glibc differs")
        );
        assert!(
            error.to_string().starts_with(
                "p1.json was counted on AMD EPYC 7B13 with glibc 2.36 and valgrind-3.19.0, p2.json on AMD \
                 EPYC 7B13 with glibc 2.39 and valgrind-3.19.0: glibc differs; counts of two machines are \
                 not comparable\nhint: "
            ),
            "{error}"
        );
        counted(&mut parts[1].report.fingerprint, "AMD EPYC 7B13", "2.36");
        let merged = merge(&parts).unwrap();
        let print = merged.suite.head_environment.fingerprint.unwrap();
        assert_eq!(
            (
                print.machine.cpu_flags.as_deref(),
                print.machine.glibc.as_deref()
            ),
            (Some("fpu sse2 avx2"), Some("2.36"))
        );
        // The records of one side likewise.
        let mut records = [
            record("r1.json", Some("count:1/2"), &["a"]),
            record("r2.json", Some("count:2/2"), &["b"]),
        ];
        for (r, cpu) in records
            .iter_mut()
            .zip(["AMD EPYC 7B13", "Intel Xeon Platinum 8370C"])
        {
            counted(
                r.results.environment.fingerprint.as_mut().unwrap(),
                cpu,
                "2.36",
            );
        }
        assert!(matches!(
            merge_records(&records).unwrap_err(),
            MergeError::CountedElsewhere(c) if c.difference == "the CPU model differs"
        ));
    }
}
