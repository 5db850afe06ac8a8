//! The seam between the scheduler and the processes: the scheduler (`blocks`, `looks`) decides which runs
//! come next (the randomized interleaved blocks drawn from the seed, the looks, what is still open, what a
//! failure stops); a [`Runner`] starts them and gives back what they measured. The real runner,
//! `processes::ProcessRunner`, starts one process per run of a bench executable, with its own
//! `CRITERION_HOME`; the tests of the looks loop use a mock runner that answers from a table of values.
//!
//! A new way to run plugs in here, as another implementation of [`Runner`], and nowhere else: running a
//! benchmark under Valgrind for instruction counts (`measure::valgrind::runner`: its [`Runner::start_one`]
//! wraps the executable, its [`Runner::read`] gives the counts), or a duet runner that starts BASE's and
//! HEAD's runs of a target at the same time (it overrides [`Runner::start_turn`], which is given the runs of
//! one target in one block, every revision's, in the drawn order). The scheduling code has no branch on the
//! way runs start.
//!
//! Must not: choose, order or skip runs (the scheduler does: a runner starts what it is given), decide
//! anything, or word anything a person reads.

use crate::measure::MeasureError;
use crate::measure::prepare::bench_settings::RunLength;
use crate::measure::prepare::build::BenchBinary;
use crate::measure::prepare::participant::Participant;
use crate::measure::progress::Progress;
use crate::model::Results;

/// One run the scheduler asks for: one executable of one participant in one block, with the filter of
/// the benchmarks it runs.
#[derive(Debug, Clone)]
pub(crate) struct Start<'a> {
    /// The revision it belongs to (its label names it in messages, its slug its directory).
    pub participant: &'a Participant,
    /// The bench executable; its layout for this block is [`BenchBinary::layout_for`].
    pub binary: &'a BenchBinary,
    /// The block, counted from 0.
    pub block: u32,
    /// criterion's filter: `None` keeps the user's, `Some` the exact names still open
    /// (`Harness::exact`).
    pub filter: Option<String>,
}

/// How a run went wrong: an error that stops the comparison, or a process that failed (a panic, a signal,
/// an exit code other than 0), which the scheduler may leave out (`failures`).
#[derive(Debug)]
pub(crate) enum RunError {
    /// Stops the comparison (an I/O error, a harness that printed something else, criterion 0.3).
    Fatal(MeasureError),
    /// The process failed.
    Failed {
        /// The error the comparison stops with if the target fails at every participant.
        error: Box<MeasureError>,
        /// Its exit code; `None`: ended by a signal.
        code: Option<i32>,
        /// Its standard error.
        stderr: String,
    },
}

impl From<MeasureError> for RunError {
    fn from(error: MeasureError) -> RunError {
        RunError::Fatal(error)
    }
}

/// What the scheduler does around each run of a turn: whether it still goes, and what its outcome means.
/// A runner that starts a turn's runs one after another asks [`goes`](Turn::goes) just before each, after
/// the runs before it ended (a failure there may stop it); one that starts them together asks for each
/// before starting any.
pub(crate) trait Turn {
    /// Whether run `index` of the turn starts: `false` skips it (its target stopped after a failure).
    fn goes(&mut self, index: usize) -> bool;
    /// Run `index` ended with `outcome`; `Err` stops the comparison.
    fn ended(&mut self, index: usize, outcome: Result<(), RunError>) -> Result<(), MeasureError>;
}

/// A way to start runs and read what they measured.
pub(crate) trait Runner {
    /// Once, before the first run: prepares what every run shares and says it on `progress` (the real
    /// runner chooses the core of `--pin`). Does nothing by default.
    fn begin(&mut self, progress: &Progress) {
        let _ = progress;
    }

    /// The benchmarks of `binary` that `filter` selects, as its harness lists them; nothing is measured.
    /// `label` names the revision in errors.
    fn list(
        &self,
        binary: &BenchBinary,
        filter: Option<&str>,
        label: &str,
    ) -> Result<Vec<String>, MeasureError>;

    /// Starts one run and waits for it; `Ok` when it ran and kept what it measured for [`read`](Self::read).
    fn start_one(&self, start: &Start<'_>) -> Result<(), RunError>;

    /// Starts the runs of one turn (one bench target in one block, each participant's that still runs it,
    /// in the order drawn from the seed), asking `turn` before each whether it goes and telling it each
    /// outcome. This one starts them one after another; a runner that starts them together overrides it.
    fn start_turn(&self, runs: &[Start<'_>], turn: &mut dyn Turn) -> Result<(), MeasureError> {
        for (index, start) in runs.iter().enumerate() {
            if turn.goes(index) {
                let outcome = self.start_one(start);
                turn.ended(index, outcome)?;
            }
        }
        Ok(())
    }

    /// What `participant`'s runs of `block` measured, every target's (none when nothing ran).
    fn read(&self, participant: &Participant, block: u32) -> Result<Results, MeasureError>;

    /// How long `participant`'s runs of `block` measured, for the bench files' settings
    /// (`bench_settings::length`); empty when the runner does not know.
    fn lengths(&self, participant: &Participant, block: u32) -> Vec<RunLength>;

    /// Removes what earlier runs of these participants kept.
    fn clear(&self, participants: &[Participant]) -> Result<(), MeasureError>;
}
