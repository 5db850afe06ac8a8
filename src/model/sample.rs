//! Validated samples and process runs: [`Sample`] is the only way numbers enter the model (non-empty,
//! finite, strictly positive, in nanoseconds within [`NANOS_RANGE`]); a [`Run`] is one process's samples
//! and its observation; [`Runs`] one benchmark's runs on one side. Must not: pair sides or pool the samples
//! of several runs into one list (`pair.rs` decides what a comparison works on).

use super::Unit;

/// The range of times, in nanoseconds, that the statistics compute with. Far outside any execution time
/// (1e-100 ns to 1e100 ns), it keeps sums of squares finite and nonzero, where a value like 1e200 would make
/// a variance infinite.
pub const NANOS_RANGE: (f64, f64) = (1e-100, 1e100);

/// Why a list of numbers is not a valid sample. `index` counts from 0; messages count from 1.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    /// The list holds no value.
    #[error("no observations")]
    Empty,
    /// A value is NaN, infinite, zero or negative.
    #[error(
        "observation {} is {}: times must be finite and greater than zero",
        .index + 1, echoed(*.value)
    )]
    Invalid {
        /// The value's position, from 0.
        index: usize,
        /// The value as read.
        value: f64,
    },
    /// A value is outside [`NANOS_RANGE`] once converted to nanoseconds.
    #[error(
        "observation {} is {} {}: outside the range of times this tool computes with (1e-100 to \
         1e100 ns)\nhint: check the unit and the values of this benchmark",
        .index + 1, echoed(*.value), .unit.symbol()
    )]
    OutOfRange {
        /// The value's position, from 0.
        index: usize,
        /// The value as read, in `unit`.
        value: f64,
        /// The unit it was read in.
        unit: Unit,
    },
}

/// A value read from a file, as its writer would recognise it: as Rust prints it, unless that takes more than
/// 16 characters (`1e308` is not 309 digits, `1e-100` not 101).
fn echoed(value: f64) -> String {
    let plain = value.to_string();
    if plain.len() > 16 {
        format!("{value:e}")
    } else {
        plain
    }
}

/// Observations of one benchmark on one side: execution times in nanoseconds, finite and > 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample(Vec<f64>);

impl Sample {
    /// Validates `values` given in `unit` and converts them to nanoseconds.
    pub fn new(values: Vec<f64>, unit: Unit) -> Result<Sample, SampleError> {
        if values.is_empty() {
            return Err(SampleError::Empty);
        }
        if let Some((index, &value)) = values
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && **v > 0.0))
        {
            return Err(SampleError::Invalid { index, value });
        }
        let scale = unit.nanos();
        let (low, high) = NANOS_RANGE;
        if let Some((index, &value)) = values
            .iter()
            .enumerate()
            .find(|(_, v)| !(low..=high).contains(&(**v * scale)))
        {
            return Err(SampleError::OutOfRange { index, value, unit });
        }
        Ok(Sample(values.into_iter().map(|v| v * scale).collect()))
    }

    /// The observations in nanoseconds.
    pub fn nanos(&self) -> &[f64] {
        &self.0
    }

    /// The number of observations.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: a sample is never empty; kept for the `len` convention.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One process run of one benchmark: the samples the harness took inside that process, in nanoseconds.
///
/// The run's [`value`](Run::value) is its observation: the median of its samples. The median, not the mean,
/// because a batch hit by preemption inside an otherwise quiet run would move a mean and not a median; for a
/// criterion run the samples are the per-iteration times of its batches (`times[k] / iters[k]`), so the
/// value is the median per-iteration time, criterion's own `median` estimate. The samples themselves only
/// estimate that value and the noise inside the process (`docs/replication.md` §2): they are reachable
/// here, one run at a time, and nowhere as one list across runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// `None` for a run of one sample, which is then `value`: a raw input's independent runs (millions of
    /// them in a large file) take no allocation of their own.
    samples: Option<Sample>,
    value: f64,
    /// Which linked layout of the executable ran (`docs/replication.md` §4), when known.
    layout: Option<u32>,
    /// Where a counted run's instructions per iteration are spent, when it was measured under callgrind
    /// (`docs/instruction-counts.md` §6); shared, as runs are cloned whole.
    profile: Option<std::sync::Arc<super::Profile>>,
    /// Which block of a comparison's runs ran this process (`docs/replication.md` §3), when this tool ran it
    /// in blocks; what a paired analysis pairs by (`docs/replication.md` §7).
    block: Option<Block>,
}

/// The block of runs a process ran in: block `index` of one session of blocks. The runs of BASE and HEAD of
/// one block ran back to back (`docs/replication.md` §3); runs of two sessions never share a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Block {
    /// Which session of blocks: a hash of the seed of the blocks' order and of the revisions that ran in
    /// them (`measure/run/blocks.rs`), so that two `record` runs of one seed are two sessions.
    pub session: u64,
    /// The block's number in that session, from 0.
    pub index: u32,
}

impl Run {
    /// A run made of `samples`, run by the executable of `layout` when known.
    pub fn new(samples: Sample, layout: Option<u32>) -> Run {
        // A `Sample` is never empty, so the median exists.
        let value = crate::stats::describe::median(samples.nanos()).unwrap_or(samples.nanos()[0]);
        Run {
            samples: (samples.len() > 1).then_some(samples),
            value,
            layout,
            profile: None,
            block: None,
        }
    }

    /// The run with where its instructions per iteration are spent (`--measure instructions`).
    pub fn with_profile(mut self, profile: super::Profile) -> Run {
        self.profile = Some(std::sync::Arc::new(profile));
        self
    }

    /// Where the run's instructions per iteration are spent, function by function, when it was counted
    /// under callgrind by this tool; `None` otherwise (times, counts read from a file or the cache).
    pub fn profile(&self) -> Option<&super::Profile> {
        self.profile.as_deref()
    }

    /// The run's observation, in nanoseconds: the median of its samples.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The samples taken inside this one process, in nanoseconds.
    pub fn samples(&self) -> &[f64] {
        match &self.samples {
            Some(samples) => samples.nanos(),
            None => std::slice::from_ref(&self.value),
        }
    }

    /// Which linked layout of the executable ran this process (`docs/replication.md` §4); `None` when
    /// unknown.
    pub fn layout(&self) -> Option<u32> {
        self.layout
    }

    /// Tags the run with the layout that ran it.
    pub fn set_layout(&mut self, layout: Option<u32>) {
        self.layout = layout;
    }

    /// The block this process ran in, when this tool ran it in blocks; `None` otherwise (criterion's own
    /// files, BMF, independent values, records written before blocks were recorded).
    pub fn block(&self) -> Option<Block> {
        self.block
    }

    /// Tags the run with the block it ran in.
    pub fn set_block(&mut self, block: Option<Block>) {
        self.block = block;
    }
}

/// The process runs of one benchmark on one side: never empty.
///
/// The statistics see one value per run ([`Runs::values`]); a side that came from a single process has one
/// run holding all of its samples, and only [`Pair::observations`](super::Pair::observations) may decide to
/// compare such samples, and then says so ([`Basis::OneProcess`](super::Basis::OneProcess)). Nothing else
/// turns the samples of several runs into one list.
#[derive(Debug, Clone, PartialEq)]
pub struct Runs(Vec<Run>);

impl Runs {
    /// Runs in the order they ran; an empty list is an error.
    pub fn new(runs: Vec<Run>) -> Result<Runs, SampleError> {
        if runs.is_empty() {
            return Err(SampleError::Empty);
        }
        Ok(Runs(runs))
    }

    /// Each value of `sample` is one independent process run (hyperfine, Go, the raw JSON's `samples`).
    pub fn independent(sample: Sample) -> Runs {
        Runs(
            sample
                .nanos()
                .iter()
                .map(|&value| Run {
                    samples: None,
                    value,
                    layout: None,
                    profile: None,
                    block: None,
                })
                .collect(),
        )
    }

    /// Every value of `sample` was measured in one process (a criterion baseline, a cargo-criterion stream).
    pub fn one_process(sample: Sample) -> Runs {
        Runs(vec![Run::new(sample, None)])
    }

    /// The runs, in the order they ran.
    pub fn runs(&self) -> &[Run] {
        &self.0
    }

    /// One value per process run, in nanoseconds, in the order they ran.
    pub fn values(&self) -> Vec<f64> {
        self.0.iter().map(Run::value).collect()
    }

    /// The session and the block of each run, in the order they ran, when every run carries its block and
    /// all of one session (what record files and reports write: `docs/formats.md` §7); `None` otherwise.
    pub fn blocks(&self) -> Option<(u64, Vec<u32>)> {
        let blocks: Vec<Block> = self.0.iter().map(Run::block).collect::<Option<_>>()?;
        let session = blocks.first()?.session;
        blocks
            .iter()
            .all(|b| b.session == session)
            .then(|| (session, blocks.iter().map(|b| b.index).collect()))
    }

    /// Tags every run with `block` (the runs of one process's results: one run).
    pub fn set_block(&mut self, block: Option<Block>) {
        for run in &mut self.0 {
            run.block = block;
        }
    }

    /// Tags run i with block `indices[i]` of `session`; `false`, and nothing tagged, when there is not one
    /// index per run.
    pub fn set_blocks(&mut self, session: u64, indices: &[u32]) -> bool {
        if indices.len() != self.0.len() {
            return false;
        }
        for (run, &index) in self.0.iter_mut().zip(indices) {
            run.block = Some(Block { session, index });
        }
        true
    }

    /// The number of process runs.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: kept for the `len` convention.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The only run, when the whole side is one process with more than one sample.
    pub(super) fn single_process(&self) -> Option<&Run> {
        match self.0.as_slice() {
            [run] if run.samples().len() > 1 => Some(run),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_worth_the_median_of_its_samples() {
        let run = |s: &[f64]| Run::new(Sample::new(s.to_vec(), Unit::Ns).unwrap(), None);
        let runs = Runs::new(vec![run(&[1.0, 2.0, 9.0]), run(&[4.0, 5.0])]).unwrap();
        assert_eq!(runs.values(), vec![2.0, 4.5]);
        assert_eq!(runs.len(), 2);
    }

    #[test]
    fn samples_are_stored_in_nanoseconds() {
        let s = Sample::new(vec![1.5, 2.0], Unit::Ms).unwrap();
        assert_eq!(s.nanos(), &[1.5e6, 2.0e6]);
    }

    #[test]
    fn invalid_observations_are_named() {
        assert_eq!(Sample::new(vec![], Unit::Ns), Err(SampleError::Empty));
        assert_eq!(
            Sample::new(vec![1.0, 0.0], Unit::Ns),
            Err(SampleError::Invalid {
                index: 1,
                value: 0.0
            })
        );
        assert!(Sample::new(vec![f64::NAN], Unit::Ns).is_err());
        assert!(Sample::new(vec![-1.0], Unit::Ns).is_err());
    }

    #[test]
    fn messages_count_observations_from_one() {
        let error = Sample::new(vec![1.0, 2.0, -3.0], Unit::Ns).unwrap_err();
        assert!(
            error.to_string().starts_with("observation 3 is -3"),
            "{error}"
        );
    }

    #[test]
    fn times_too_large_or_small_to_compute_with_are_rejected() {
        // 1e200 ns: its square overflows, which made the F-test's statistic NaN.
        assert_eq!(
            Sample::new(vec![1.0, 1e200], Unit::Ns),
            Err(SampleError::OutOfRange {
                index: 1,
                value: 1e200,
                unit: Unit::Ns
            })
        );
        // In range as written, out of range once converted to nanoseconds.
        assert!(Sample::new(vec![1e95], Unit::S).is_err());
        assert!(Sample::new(vec![1e-300], Unit::Ns).is_err());
        assert!(Sample::new(vec![1e-9, 1e12], Unit::S).is_ok());
    }
}
