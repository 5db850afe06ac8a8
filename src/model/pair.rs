//! BASE and HEAD side by side: a benchmark present on both sides ([`Pair`]) and what a comparison of it
//! works on ([`Observations`]: one value per process run, or the samples of one process each, or exact
//! counts; [`Blocked`]: the runs of BASE and HEAD paired by the block they ran in), and a whole suite
//! matched by name ([`Suite::pair`]). Must not: test or decide anything.

use std::fmt;

use super::{Benchmark, Design, Environment, Results, coverage};

/// What the values a comparison works on are ([`Pair::observations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Basis {
    /// One value per process run on each side: the observation of paper 000 and of this tool.
    ProcessRuns,
    /// Each side is one process: the values are the samples inside it, which show the noise within a
    /// process only, so a confidence computed on them covers that one process per side.
    OneProcess,
    /// Both sides are counts of a deterministic measurement ([`Unit::Count`](super::Unit::Count)): one value
    /// per run, normally one run per side, and the sides' medians are compared exactly, not tested
    /// (`docs/verdicts.md` §7).
    Deterministic,
}

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// BASE, the reference revision.
    Base,
    /// HEAD, the revision whose speed is judged.
    Head,
}

impl Side {
    /// `BASE` or `HEAD`, as reports name the sides.
    pub fn name(self) -> &'static str {
        match self {
            Side::Base => "BASE",
            Side::Head => "HEAD",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BaseHead<T> {
    /// BASE's value.
    pub base: T,
    /// HEAD's value.
    pub head: T,
}

impl<T> BaseHead<T> {
    /// A pair of `base` and `head`.
    pub fn new(base: T, head: T) -> BaseHead<T> {
        BaseHead { base, head }
    }

    /// The value of `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Base => &self.base,
            Side::Head => &self.head,
        }
    }

    /// Applies `f` to both sides.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BaseHead<U> {
        BaseHead {
            base: f(self.base),
            head: f(self.head),
        }
    }

    /// Both sides by reference.
    pub fn as_ref(&self) -> BaseHead<&T> {
        BaseHead {
            base: &self.base,
            head: &self.head,
        }
    }
}

/// The values a comparison of one benchmark works on, and what they are.
#[derive(Debug, Clone, PartialEq)]
pub struct Observations {
    /// Process runs, or the samples of one process per side.
    pub basis: Basis,
    /// In nanoseconds.
    pub values: BaseHead<Vec<f64>>,
}

/// A benchmark present on both sides.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The benchmark's name, the same on both sides.
    pub name: String,
    /// The benchmark's BASE side.
    pub base: Benchmark,
    /// The benchmark's HEAD side.
    pub head: Benchmark,
}

impl Pair {
    /// The values every statistic of this benchmark is computed on (`docs/replication.md` §2 and §5): one per
    /// process run, unless both sides are one process each, when the samples inside those two processes are
    /// all there is ([`Basis::OneProcess`]). A side of one run facing several runs stays one observation.
    /// Counts of a deterministic measurement on both sides are [`Basis::Deterministic`], one value per run.
    pub fn observations(&self) -> Observations {
        if self.base.unit.is_count() && self.head.unit.is_count() {
            return Observations {
                basis: Basis::Deterministic,
                values: BaseHead::new(self.base.runs.values(), self.head.runs.values()),
            };
        }
        match (
            self.base.runs.single_process(),
            self.head.runs.single_process(),
        ) {
            (Some(base), Some(head)) => Observations {
                basis: Basis::OneProcess,
                values: BaseHead::new(base.samples().to_vec(), head.samples().to_vec()),
            },
            _ => Observations {
                basis: Basis::ProcessRuns,
                values: BaseHead::new(self.base.runs.values(), self.head.runs.values()),
            },
        }
    }
}

/// A benchmark's process runs paired by block (`docs/replication.md` §7): run b of BASE with run b of HEAD,
/// the two runs block b ran back to back. `base[i]` and `head[i]` are one block's values, in nanoseconds, in
/// the order of the blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct Blocked {
    /// BASE's value of each paired block.
    pub base: Vec<f64>,
    /// HEAD's value of each paired block.
    pub head: Vec<f64>,
    /// Per side, the runs whose block has no run of the other side (a failed run, a budget cut): left out
    /// of the pairs.
    pub dropped: BaseHead<usize>,
}

impl Blocked {
    /// The within-block log ratios d_b = ln HEAD_b − ln BASE_b: above 0 HEAD ran slower in that block.
    pub fn log_ratios(&self) -> Vec<f64> {
        self.base
            .iter()
            .zip(&self.head)
            .map(|(b, h)| h.ln() - b.ln())
            .collect()
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Whether no block has a run of both sides.
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }
}

/// Why a benchmark's runs cannot be paired by block ([`Pair::blocks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unpairable {
    /// A run of either side does not say which block it ran in: criterion's own files, BMF, one process
    /// per side, independent values, records written before blocks were recorded.
    NoBlocks,
    /// The runs of BASE and HEAD ran in different sessions (two `record` runs), so no block
    /// ran both.
    OtherSessions,
    /// No block ran both sides.
    NoPartners,
}

impl Pair {
    /// This benchmark's runs paired by block (`docs/replication.md` §7): BASE's run of block b with HEAD's
    /// run of block b, in the order of the blocks. Valid only for runs this tool ran in blocks of one
    /// session: every run of both sides must carry its block, all of one session. A run whose block has no
    /// run of the other side is left out and counted in [`Blocked::dropped`]; a second run of one side in
    /// the same block (not something the blocks produce) is counted there too.
    pub fn blocks(&self) -> Result<Blocked, Unpairable> {
        let blocks = |runs: &super::Runs| -> Option<Vec<(super::Block, f64)>> {
            runs.runs()
                .iter()
                .map(|r| Some((r.block()?, r.value())))
                .collect()
        };
        let (Some(base), Some(head)) = (blocks(&self.base.runs), blocks(&self.head.runs)) else {
            return Err(Unpairable::NoBlocks);
        };
        let session = base[0].0.session;
        if base.iter().chain(&head).any(|(b, _)| b.session != session) {
            return Err(Unpairable::OtherSessions);
        }
        let mut heads: std::collections::BTreeMap<u32, f64> = std::collections::BTreeMap::new();
        let mut dropped = BaseHead::new(0, 0);
        for (block, value) in &head {
            if heads.insert(block.index, *value).is_some() {
                dropped.head += 1;
            }
        }
        let mut bases: std::collections::BTreeMap<u32, f64> = std::collections::BTreeMap::new();
        for (block, value) in &base {
            if bases.insert(block.index, *value).is_some() {
                dropped.base += 1;
            }
        }
        let mut paired = Blocked {
            base: Vec::new(),
            head: Vec::new(),
            dropped,
        };
        for (index, base) in &bases {
            match heads.remove(index) {
                Some(head) => {
                    paired.base.push(*base);
                    paired.head.push(head);
                }
                None => paired.dropped.base += 1,
            }
        }
        paired.dropped.head += heads.len();
        if paired.is_empty() {
            return Err(Unpairable::NoPartners);
        }
        Ok(paired)
    }
}

/// BASE and HEAD matched by benchmark name.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    /// Benchmarks present on both sides, in BASE's order.
    pub pairs: Vec<Pair>,
    /// Names present only in BASE.
    pub base_only: Vec<String>,
    /// Names present only in HEAD.
    pub head_only: Vec<String>,
    /// Where BASE was measured.
    pub base_environment: Environment,
    /// Where HEAD was measured.
    pub head_environment: Environment,
    /// Reading notes of both sides.
    pub notes: Vec<String>,
    /// Benchmarks not run because BASE and HEAD built identical executables for them: unchanged by
    /// construction (`docs/replication.md` §3). Never also in `pairs`.
    pub identical: Vec<String>,
    /// How the runs were had: the looks of the plan that measured them, and how more can be had.
    pub design: Design,
    /// What was not compared besides the names of one side, with the side and why ([`coverage`]).
    pub left_out: Vec<coverage::LeftOut>,
}

impl Suite {
    /// Matches BASE and HEAD benchmarks by exact name. Names on one side only are listed, never dropped
    /// silently. The suite is that of results read as they are ([`Design::READ`], nothing identical); a
    /// command that measured them says so where it builds the suite (`Suite { design, ..Suite::pair(..) }`).
    pub fn pair(base: Results, head: Results) -> Suite {
        let mut head_benchmarks: Vec<Option<Benchmark>> =
            head.benchmarks.into_iter().map(Some).collect();
        let index: std::collections::HashMap<String, usize> = head_benchmarks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.as_ref().map(|b| b.name.clone()).unwrap_or_default(), i))
            .collect();
        let mut pairs = Vec::new();
        let mut base_only = Vec::new();
        for b in base.benchmarks {
            match index.get(&b.name).and_then(|&i| head_benchmarks[i].take()) {
                Some(h) => pairs.push(Pair {
                    name: b.name.clone(),
                    base: b,
                    head: h,
                }),
                None => base_only.push(b.name),
            }
        }
        let head_only: Vec<String> = head_benchmarks
            .into_iter()
            .flatten()
            .map(|b| b.name)
            .collect();
        let mut notes = base.notes;
        notes.extend(head.notes);
        let left_out = coverage::join(base.left_out, head.left_out);
        // A name the other side left out is explained there, not "only in BASE".
        let explained = |name: &String| left_out.iter().any(|l| &l.name == name);
        Suite {
            pairs,
            base_only: base_only.into_iter().filter(|n| !explained(n)).collect(),
            head_only: head_only.into_iter().filter(|n| !explained(n)).collect(),
            base_environment: base.environment,
            head_environment: head.environment,
            notes,
            identical: vec![],
            design: Design::READ,
            left_out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Run, Runs, Sample, Unit};

    fn bench(name: &str, values: &[f64]) -> Benchmark {
        Benchmark {
            name: name.into(),
            runs: Runs::independent(Sample::new(values.to_vec(), Unit::Us).unwrap()),
            unit: Unit::Us,
            counters: Vec::new(),
        }
    }

    fn one_process(values: &[f64]) -> Benchmark {
        Benchmark {
            name: "x".into(),
            runs: Runs::one_process(Sample::new(values.to_vec(), Unit::Ns).unwrap()),
            unit: Unit::Ns,
            counters: Vec::new(),
        }
    }

    fn runs(samples: &[&[f64]]) -> Benchmark {
        let runs = samples
            .iter()
            .map(|s| Run::new(Sample::new(s.to_vec(), Unit::Ns).unwrap(), None))
            .collect();
        Benchmark {
            name: "x".into(),
            runs: Runs::new(runs).unwrap(),
            unit: Unit::Ns,
            counters: Vec::new(),
        }
    }

    fn pair(base: Benchmark, head: Benchmark) -> Pair {
        Pair {
            name: "x".into(),
            base,
            head,
        }
    }

    fn results(benchmarks: Vec<Benchmark>) -> Results {
        Results {
            origin: "test".into(),
            benchmarks,
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    #[test]
    fn several_runs_are_compared_one_value_per_run() {
        let p = pair(
            runs(&[&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]]),
            runs(&[&[7.0, 8.0, 9.0], &[1.0, 1.0, 1.0]]),
        );
        let o = p.observations();
        assert_eq!(o.basis, Basis::ProcessRuns);
        assert_eq!(o.values, BaseHead::new(vec![2.0, 5.0], vec![8.0, 1.0]));
    }

    #[test]
    fn two_single_processes_are_compared_on_their_samples_and_say_so() {
        let o = pair(one_process(&[1.0, 2.0, 3.0]), one_process(&[4.0, 5.0])).observations();
        assert_eq!(o.basis, Basis::OneProcess);
        assert_eq!(o.values, BaseHead::new(vec![1.0, 2.0, 3.0], vec![4.0, 5.0]));
    }

    #[test]
    fn one_process_against_several_runs_is_one_observation() {
        let o = pair(
            one_process(&[1.0, 2.0, 3.0]),
            runs(&[&[4.0], &[5.0], &[6.0]]),
        )
        .observations();
        assert_eq!(o.basis, Basis::ProcessRuns);
        assert_eq!(o.values, BaseHead::new(vec![2.0], vec![4.0, 5.0, 6.0]));
    }

    #[test]
    fn independent_values_are_runs_of_one_sample() {
        let o = pair(bench("a", &[1.0, 2.0]), bench("a", &[3.0, 4.0])).observations();
        assert_eq!(o.basis, Basis::ProcessRuns);
        assert_eq!(o.values.base, vec![1000.0, 2000.0]);
    }

    fn blocked(values: &[(u32, f64)], seed: u64) -> Benchmark {
        let runs = values
            .iter()
            .map(|&(index, v)| {
                let mut run = Run::new(Sample::new(vec![v], Unit::Ns).unwrap(), None);
                run.set_block(Some(crate::model::Block {
                    session: seed,
                    index,
                }));
                run
            })
            .collect();
        Benchmark {
            name: "x".into(),
            runs: Runs::new(runs).unwrap(),
            unit: Unit::Ns,
            counters: Vec::new(),
        }
    }

    #[test]
    fn runs_pair_by_block_and_unpartnered_ones_are_counted() {
        // HEAD's run of block 1 failed; BASE's of block 3 was cut by the budget.
        let p = pair(
            blocked(&[(0, 10.0), (1, 11.0), (2, 12.0), (3, 13.0)], 7),
            blocked(&[(2, 22.0), (0, 20.0)], 7),
        );
        let b = p.blocks().unwrap();
        assert_eq!(
            (b.base.clone(), b.head.clone()),
            (vec![10.0, 12.0], vec![20.0, 22.0])
        );
        assert_eq!(b.dropped, BaseHead::new(2, 0));
        let d = b.log_ratios();
        assert!((d[0] - 2f64.ln()).abs() < 1e-15 && (d[1] - (22f64 / 12.0).ln()).abs() < 1e-15);
    }

    #[test]
    fn runs_without_blocks_or_of_two_sessions_do_not_pair() {
        let with_blocks = blocked(&[(0, 1.0), (1, 2.0)], 7);
        let plain = runs(&[&[1.0], &[2.0]]);
        assert_eq!(
            pair(with_blocks.clone(), plain).blocks(),
            Err(Unpairable::NoBlocks)
        );
        assert_eq!(
            pair(with_blocks.clone(), blocked(&[(0, 1.0), (1, 2.0)], 8)).blocks(),
            Err(Unpairable::OtherSessions)
        );
        assert_eq!(
            pair(with_blocks, blocked(&[(5, 1.0)], 7)).blocks(),
            Err(Unpairable::NoPartners)
        );
    }

    #[test]
    fn pairing_lists_unmatched_names() {
        let base = results(vec![bench("a", &[1.0]), bench("b", &[2.0])]);
        let head = results(vec![bench("c", &[1.0]), bench("a", &[3.0])]);
        let suite = Suite::pair(base, head);
        assert_eq!(suite.pairs.len(), 1);
        assert_eq!(suite.pairs[0].name, "a");
        assert_eq!(suite.pairs[0].head.runs.values(), vec![3000.0]);
        assert_eq!(suite.base_only, vec!["b".to_string()]);
        assert_eq!(suite.head_only, vec!["c".to_string()]);
    }
}
