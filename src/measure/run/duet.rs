//! Duet runs (`--duet`): the runs of one turn (one bench target in one block, each revision's) start at
//! the same time, each pinned to a core of its own, so that whatever the machine does while they run (a
//! neighbour's burst, a frequency step, a cache-hungry process) falls on both sides at once. Duet
//! benchmarking (Bulej, Horký, Tůma, Trubiani, Heger, Joshi & Tomašek, "Duet Benchmarking: Improving
//! Measurement Accuracy in the Cloud", ICPE 2020) runs the two versions side by side and pairs their
//! results; it reported 2.3 to 12.5 times smaller spreads of the paired ratios on DaCapo and ScalaBench
//! in cloud instances. Whether that holds for a crate's bench executables on a given machine is measured,
//! not assumed (`docs/replication.md` §7, `calibrate/spread.sh` with a `--duet` condition): the two runs
//! share the caches and the memory bandwidth, which can add noise as well as cancel it.
//!
//! - **Cores**: the last two cores this process may use (its affinity mask, so a `taskset` or a cgroup is
//!   respected), as `--pin` uses the last one. The run drawn first in the block gets the first of the two:
//!   the order is drawn from the seed per block (`schedule`), so each side meets each core about equally
//!   often and which core ran is no difference between the sides.
//! - **More runs than cores** (a race of three revisions or more): the turn starts in waves of two, in the
//!   drawn order.
//! - **One core, or not Linux**: the runs of a turn start one after another, as without `--duet`, and a
//!   note says so once (`Measuring::Duet`).
//! - A run that fails is reported to the scheduler as any other (`failures` leaves its target out at that
//!   revision); its partner's run, which ran beside it, is kept.
//!
//! Must not: choose, order or skip runs (the scheduler does), read what the runs measured (the inner
//! runner does), or decide anything.

use std::thread;

use super::affinity;
use super::processes::ProcessRunner;
use super::runner::{RunError, Runner, Start, Turn};
use crate::measure::MeasureError;
use crate::measure::prepare::bench_settings::RunLength;
use crate::measure::prepare::build::BenchBinary;
use crate::measure::prepare::participant::Participant;
use crate::measure::progress::Progress;
use crate::model::Results;

/// Starts one run on a given core (or unpinned), and waits for it: what a duet needs of the runner that
/// starts processes. [`ProcessRunner`] is the real one; the tests use a mock.
pub(crate) trait StartOn: Runner + Sync {
    /// Starts `start` pinned to `core` (`None`: unpinned) and waits for it.
    fn start_on(&self, start: &Start<'_>, core: Option<usize>) -> Result<(), RunError>;
}

impl StartOn for ProcessRunner {
    fn start_on(&self, start: &Start<'_>, core: Option<usize>) -> Result<(), RunError> {
        ProcessRunner::start_on(self, start, core)
    }
}

/// The runs of a turn started together, two at a time, on two cores; every other step is `inner`'s.
#[derive(Debug)]
pub(crate) struct DuetRunner<R> {
    inner: R,
    /// The two cores, chosen in [`Runner::begin`]; `None`: one after another.
    cores: Option<[usize; 2]>,
}

impl<R: StartOn> DuetRunner<R> {
    /// A duet of `inner`'s runs; the cores are chosen when the runs begin.
    pub(crate) fn new(inner: R) -> DuetRunner<R> {
        DuetRunner { inner, cores: None }
    }

    /// A duet on `cores` without asking the machine (the tests).
    #[cfg(test)]
    fn on(inner: R, cores: Option<[usize; 2]>) -> DuetRunner<R> {
        DuetRunner { inner, cores }
    }
}

impl<R: StartOn> Runner for DuetRunner<R> {
    fn begin(&mut self, progress: &Progress) {
        self.cores = affinity::duet_cores(progress);
    }

    fn list(
        &self,
        binary: &BenchBinary,
        filter: Option<&str>,
        label: &str,
    ) -> Result<Vec<String>, MeasureError> {
        self.inner.list(binary, filter, label)
    }

    fn start_one(&self, start: &Start<'_>) -> Result<(), RunError> {
        self.inner.start_on(start, self.cores.map(|c| c[0]))
    }

    fn start_turn(&self, runs: &[Start<'_>], turn: &mut dyn Turn) -> Result<(), MeasureError> {
        let Some(cores) = self.cores else {
            for (index, start) in runs.iter().enumerate() {
                if turn.goes(index) {
                    let outcome = self.inner.start_on(start, None);
                    turn.ended(index, outcome)?;
                }
            }
            return Ok(());
        };
        let indices: Vec<usize> = (0..runs.len()).collect();
        for wave in indices.chunks(cores.len()) {
            let going: Vec<usize> = wave.iter().copied().filter(|&i| turn.goes(i)).collect();
            let outcomes: Vec<Result<(), RunError>> = thread::scope(|scope| {
                let handles: Vec<_> = going
                    .iter()
                    .zip(cores)
                    .map(|(&index, core)| {
                        let start = &runs[index];
                        scope.spawn(move || self.inner.start_on(start, Some(core)))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    })
                    .collect()
            });
            for (index, outcome) in going.into_iter().zip(outcomes) {
                turn.ended(index, outcome)?;
            }
        }
        Ok(())
    }

    fn read(&self, participant: &Participant, block: u32) -> Result<Results, MeasureError> {
        self.inner.read(participant, block)
    }

    fn lengths(&self, participant: &Participant, block: u32) -> Vec<RunLength> {
        self.inner.lengths(participant, block)
    }

    fn clear(&self, participants: &[Participant]) -> Result<(), MeasureError> {
        self.inner.clear(participants)
    }
}

#[cfg(test)]
mod tests;
