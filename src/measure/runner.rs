//! Running the benchmark executables of one or two revisions, interleaved, and pooling each revision's rounds.
//!
//! Order (ABBA): in round r (counted from 0) every bench target runs once per revision, BASE then HEAD when r
//! is even and HEAD then BASE when r is odd, so two rounds read `A B B A` for each target. A linear drift of
//! the machine (heating, a background job winding down) then weighs equally on both revisions over every
//! pair of rounds, and the two runs of one target are as close in time as possible.
//! Each (revision, round) has its own `CRITERION_HOME` under `<target>/speedup/runs/`, never the user's.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::build::BenchBinary;
use super::progress::Progress;
use super::{MeasureError, drift, process, read};
use crate::model::{Benchmark, Results, Sample};

/// The baseline name criterion saves each run under.
pub const BASELINE: &str = "speedup";

/// One revision to run: its name for messages, its directory under `runs/`, its executables.
#[derive(Debug, Clone)]
pub struct Participant {
    /// For progress and errors (`BASE (main, 1a2b3c4d5e)`).
    pub label: String,
    /// The pooled results' origin (`main (1a2b3c4d5e)`).
    pub origin: String,
    pub slug: &'static str,
    pub binaries: Vec<BenchBinary>,
}

/// One run of one executable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub round: u32,
    pub participant: usize,
    pub binary: usize,
}

/// The ABBA order over bench targets (matched by name; a target of one revision only runs alone).
pub fn schedule(rounds: u32, participants: &[Participant]) -> Vec<Step> {
    let mut targets: Vec<&str> = Vec::new();
    for p in participants {
        for b in &p.binaries {
            if !targets.contains(&b.target.as_str()) {
                targets.push(&b.target);
            }
        }
    }
    let mut steps = Vec::new();
    for round in 0..rounds {
        for target in &targets {
            let mut order: Vec<usize> = (0..participants.len()).collect();
            if round % 2 == 1 {
                order.reverse();
            }
            for participant in order {
                let binaries = &participants[participant].binaries;
                for (binary, _) in binaries
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.target == *target)
                {
                    steps.push(Step {
                        round,
                        participant,
                        binary,
                    });
                }
            }
        }
    }
    steps
}

/// Runs every step, then reads and pools each participant's rounds (in the participants' order).
pub fn run_all(
    runs_dir: &Path,
    participants: &[Participant],
    rounds: u32,
    criterion_args: &[String],
    progress: &Progress,
) -> Result<Vec<Results>, MeasureError> {
    for p in participants {
        let dir = runs_dir.join(p.slug);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|source| MeasureError::Io {
                what: "clearing an earlier run",
                path: dir.clone(),
                source,
            })?;
        }
    }
    let steps = schedule(rounds, participants);
    progress.start_runs(steps.len() as u64);
    for step in &steps {
        let p = &participants[step.participant];
        let binary = &p.binaries[step.binary];
        progress.step(&p.label, &binary.target, step.round + 1, rounds);
        let home = home(runs_dir, p.slug, step.round);
        run_one(binary, &home, criterion_args, &p.label)?;
        progress.done_one();
    }
    progress.finish();
    participants
        .iter()
        .map(|p| {
            let rounds = (0..rounds)
                .map(|r| read_round(&home(runs_dir, p.slug, r)))
                .collect::<Result<Vec<_>, _>>()?;
            let drift = drift::notes(&p.origin, &rounds);
            let mut pooled = pool(&p.origin, rounds);
            pooled.notes.extend(drift);
            if pooled.benchmarks.is_empty() {
                return Err(MeasureError::NoSamples {
                    revision: p.label.clone(),
                });
            }
            Ok(pooled)
        })
        .collect()
}

/// One round's samples; none when criterion saved nothing (its filter matched no benchmark).
fn read_round(home: &Path) -> Result<Results, MeasureError> {
    if !home.is_dir() {
        return Ok(Results {
            origin: home.display().to_string(),
            benchmarks: vec![],
            environment: Default::default(),
            notes: vec![],
        });
    }
    read::criterion_baseline(home, BASELINE)
}

fn home(runs_dir: &Path, slug: &str, round: u32) -> PathBuf {
    runs_dir.join(slug).join(format!("round-{}", round + 1))
}

fn run_one(
    binary: &BenchBinary,
    home: &Path,
    criterion_args: &[String],
    label: &str,
) -> Result<(), MeasureError> {
    let mut command = Command::new(&binary.path);
    command
        .args(criterion_args)
        .current_dir(&binary.package_dir)
        .env("CRITERION_HOME", home)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir);
    let out = process::run(&mut command)?;
    if !out.status.success() {
        return Err(MeasureError::BenchmarkFailed {
            revision: label.to_string(),
            target: binary.target.clone(),
            command: process::describe(&command),
            status: out.status.to_string(),
            stderr: out.stderr_text(),
        });
    }
    Ok(())
}

/// One revision's rounds as one sample per benchmark (rounds concatenated in order). A benchmark missing
/// from some rounds keeps what it has, with a note.
pub fn pool(origin: &str, rounds: Vec<Results>) -> Results {
    let total = rounds.len();
    let mut environment = Default::default();
    let mut notes = Vec::new();
    let mut pooled: Vec<(Benchmark, Vec<f64>, usize)> = Vec::new();
    for results in rounds {
        environment = results.environment;
        notes.extend(results.notes);
        for b in results.benchmarks {
            match pooled.iter_mut().find(|(p, _, _)| p.name == b.name) {
                Some((_, values, seen)) => {
                    values.extend_from_slice(b.sample.nanos());
                    *seen += 1;
                }
                None => {
                    let values = b.sample.nanos().to_vec();
                    pooled.push((b, values, 1));
                }
            }
        }
    }
    let benchmarks = pooled
        .into_iter()
        .map(|(mut b, values, seen)| {
            if seen < total {
                notes.push(format!(
                    "{origin}: `{}` ran in {seen} of {total} rounds; its samples are those rounds' only",
                    b.name
                ));
            }
            if let Ok(sample) = Sample::new(values, crate::model::Unit::Ns) {
                b.sample = sample;
            }
            b
        })
        .collect();
    Results {
        origin: origin.to_string(),
        benchmarks,
        environment,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Environment, Observation, Unit};

    fn participant(slug: &'static str, targets: &[&str]) -> Participant {
        Participant {
            label: slug.into(),
            origin: slug.into(),
            slug,
            binaries: targets
                .iter()
                .map(|t| BenchBinary {
                    target: t.to_string(),
                    path: PathBuf::from(t),
                    package_dir: PathBuf::new(),
                })
                .collect(),
        }
    }

    fn order(steps: &[Step], participants: &[Participant]) -> Vec<String> {
        steps
            .iter()
            .map(|s| {
                let p = &participants[s.participant];
                format!("{}{}:{}", p.slug, s.round, p.binaries[s.binary].target)
            })
            .collect()
    }

    #[test]
    fn two_rounds_run_abba_per_target() {
        let ps = [participant("A", &["x", "y"]), participant("B", &["x", "y"])];
        assert_eq!(
            order(&schedule(2, &ps), &ps),
            [
                "A0:x", "B0:x", "A0:y", "B0:y", "B1:x", "A1:x", "B1:y", "A1:y"
            ]
        );
    }

    #[test]
    fn a_target_of_one_revision_runs_alone() {
        let ps = [participant("A", &["x"]), participant("B", &["x", "new"])];
        assert_eq!(order(&schedule(1, &ps), &ps), ["A0:x", "B0:x", "B0:new"]);
    }

    #[test]
    fn one_participant_runs_each_round_once() {
        let ps = [participant("W", &["x"])];
        assert_eq!(order(&schedule(3, &ps), &ps), ["W0:x", "W1:x", "W2:x"]);
    }

    fn results(benchmarks: &[(&str, &[f64])]) -> Results {
        Results {
            origin: "round".into(),
            benchmarks: benchmarks
                .iter()
                .map(|(n, v)| Benchmark {
                    name: n.to_string(),
                    sample: Sample::new(v.to_vec(), Unit::Ns).unwrap(),
                    unit: Unit::Ns,
                    observation: Observation::BatchMean,
                })
                .collect(),
            environment: Environment::default(),
            notes: vec![],
        }
    }

    #[test]
    fn pooling_concatenates_rounds_and_notes_missing_ones() {
        let pooled = pool(
            "main",
            vec![
                results(&[("a", &[1.0, 2.0]), ("b", &[5.0])]),
                results(&[("a", &[3.0])]),
            ],
        );
        assert_eq!(pooled.benchmarks[0].sample.nanos(), &[1.0, 2.0, 3.0]);
        assert_eq!(pooled.benchmarks[1].sample.nanos(), &[5.0]);
        assert_eq!(pooled.notes.len(), 1);
        assert!(pooled.notes[0].contains("`b` ran in 1 of 2 rounds"));
    }
}
