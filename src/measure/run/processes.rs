//! The real [`Runner`]: one process per run of a bench executable, started directly (not through cargo),
//! with its own `CRITERION_HOME` under `<target>/speedup/runs/<slug>/run-<block + 1>/`, never the user's,
//! under `--pin` on one CPU core (`affinity`). criterion saves its samples there; what divan and libtest
//! print is kept there as `<target>.<harness>.txt` (`harness::output_file`); a run is read back from
//! that directory (`read`).
//!
//! Must not: choose, order or skip runs (the scheduler, `blocks`), or decide anything.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::affinity;
use super::runner::{RunError, Runner, Start};
use crate::measure::harness::PerRun;
use crate::measure::harness::{self, Harness};
use crate::measure::prepare::bench_settings::{self, RunLength};
use crate::measure::prepare::build::BenchBinary;
use crate::measure::prepare::listing;
use crate::measure::prepare::participant::Participant;
use crate::measure::progress::Progress;
use crate::measure::{MeasureError, process, read};
use crate::model::Results;

/// The baseline name criterion saves each run under.
pub(crate) const BASELINE: &str = "speedup";

/// Starts each run as a process of its bench executable.
#[derive(Debug)]
pub(crate) struct ProcessRunner {
    /// `<target>/speedup/runs`: each participant's runs under its slug.
    runs_dir: PathBuf,
    /// The run length and the user's filter, for the harness's arguments.
    per_run: PerRun,
    /// `--pin`: every run on one CPU core.
    pin: bool,
    /// The core every run is pinned to (`affinity`), chosen in [`Runner::begin`]; `None` leaves them free.
    core: Option<usize>,
}

impl ProcessRunner {
    /// The runner of the runs under `runs_dir`, of the length `per_run` asks for; `pin`: `--pin`.
    pub(crate) fn new(runs_dir: PathBuf, per_run: PerRun, pin: bool) -> ProcessRunner {
        ProcessRunner {
            runs_dir,
            per_run,
            pin,
            core: None,
        }
    }

    /// Starts `start`'s run pinned to `core` (`None`: unpinned) and waits for it: [`Runner::start_one`]
    /// with the core of `--pin`, and the duet runner with a core per run (`duet`).
    pub(crate) fn start_on(&self, start: &Start<'_>, core: Option<usize>) -> Result<(), RunError> {
        let binary = start.binary;
        let whole;
        let per_run = match binary.whole_seconds {
            Some(_) => {
                whole = self.per_run.in_whole_seconds();
                &whole
            }
            None => &self.per_run,
        };
        let args = binary
            .harness
            .run_args(per_run, BASELINE, start.filter.clone());
        run_one(
            binary,
            binary.layout_for(start.block),
            &self.home(start.participant, start.block),
            &args,
            &start.participant.label,
            core,
        )
    }

    /// The directory of `participant`'s runs of `block`.
    fn home(&self, participant: &Participant, block: u32) -> PathBuf {
        home(&self.runs_dir, &participant.slug, block)
    }
}

impl Runner for ProcessRunner {
    fn begin(&mut self, progress: &Progress) {
        self.core = affinity::pinned_core(self.pin, progress);
    }

    fn list(
        &self,
        binary: &BenchBinary,
        filter: Option<&str>,
        label: &str,
    ) -> Result<Vec<String>, MeasureError> {
        listing::list(binary, filter, label)
    }

    fn start_one(&self, start: &Start<'_>) -> Result<(), RunError> {
        self.start_on(start, self.core)
    }

    fn read(&self, participant: &Participant, block: u32) -> Result<Results, MeasureError> {
        read_run(&self.home(participant, block))
    }

    fn lengths(&self, participant: &Participant, block: u32) -> Vec<RunLength> {
        bench_settings::read_run(&self.home(participant, block), BASELINE)
    }

    fn clear(&self, participants: &[Participant]) -> Result<(), MeasureError> {
        for p in participants {
            let dir = self.runs_dir.join(&p.slug);
            if dir.exists() {
                std::fs::remove_dir_all(&dir).map_err(|source| MeasureError::Io {
                    what: "clearing an earlier run",
                    path: dir.clone(),
                    error: source,
                })?;
            }
        }
        Ok(())
    }
}

/// The directory of the run of block `block` of the participant `slug`.
pub(crate) fn home(runs_dir: &Path, slug: &str, block: u32) -> PathBuf {
    runs_dir.join(slug).join(format!("run-{}", block + 1))
}

/// Whether a bench executable's error says it takes `--warm-up-time` or `--measurement-time` in whole
/// seconds only, as criterion before 0.4 does: by the option's name (clap 2: `Invalid value for
/// '--warm-up-time <warm-up-time>'`) or by the fractional value it refused (criterion 0.3.6: `error:
/// Invalid value: The argument '0.1' isn't a valid value`). A run reaches this only when its lock did not
/// tell the version (`criterion_version`).
fn rejects_fractional_seconds(stderr: &str) -> bool {
    stderr.lines().any(|line| {
        line.contains("valid value")
            && (line.contains("warm-up-time")
                || line.contains("measurement-time")
                || line.split('\'').skip(1).step_by(2).any(is_fraction))
    })
}

/// Whether `text` is a decimal number with a fractional part (`0.1`, `.5`).
fn is_fraction(text: &str) -> bool {
    text.contains('.') && !text.starts_with('-') && text.parse::<f64>().is_ok()
}

/// Starts `executable` (a layout of `binary`) with `args` and `home` as its `CRITERION_HOME`, and keeps
/// what a divan or libtest run printed in `home`.
fn run_one(
    binary: &BenchBinary,
    executable: &Path,
    home: &Path,
    args: &[String],
    label: &str,
    pin: Option<usize>,
) -> Result<(), RunError> {
    let mut command = Command::new(executable);
    command
        .args(args)
        .current_dir(&binary.package_dir)
        .env("CRITERION_HOME", home)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir);
    if let Some(cpu) = pin {
        affinity::pin(&mut command, cpu);
    }
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(failed(binary, &command, &out, label));
    }
    let Some(file) = binary.harness.output_file(&binary.target) else {
        return Ok(());
    };
    // What it printed is read now, so that output that is not its harness's stops the first run, and
    // kept for reading the run with the others (`read_run`).
    let text = String::from_utf8_lossy(&out.stdout);
    // divan prints nothing at all when its filter selects no benchmark; a target that lists some is then
    // one whose filter left nothing to run here, not one that is broken.
    if text.trim().is_empty()
        && binary.harness == Harness::Divan
        && !listing::list(binary, None, label)?.is_empty()
    {
        return Ok(());
    }
    if let Err(detail) = harness::read_output(binary.harness, &text, label) {
        return Err(RunError::Fatal(MeasureError::HarnessOutput {
            revision: label.to_string(),
            target: binary.target.clone(),
            harness: binary.harness.name(),
            command: process::describe(&command),
            detail,
        }));
    }
    let io = |error| MeasureError::Io {
        what: "keeping a benchmark's output",
        path: home.to_path_buf(),
        error,
    };
    std::fs::create_dir_all(home).map_err(io)?;
    std::fs::write(home.join(file), text.as_bytes()).map_err(|e| RunError::Fatal(io(e)))
}

/// The error of a process that did not succeed: criterion 0.3's refusal of fractional seconds stops the
/// comparison, any other failure may be left out.
fn failed(
    binary: &BenchBinary,
    command: &Command,
    out: &process::Captured,
    label: &str,
) -> RunError {
    let stderr = out.stderr_text();
    if rejects_fractional_seconds(&stderr) {
        return RunError::Fatal(MeasureError::OldCriterion {
            revision: label.to_string(),
            target: binary.target.clone(),
            command: process::describe(command),
            stderr,
        });
    }
    RunError::Failed {
        error: Box::new(MeasureError::BenchmarkFailed {
            revision: label.to_string(),
            target: binary.target.clone(),
            command: process::describe(command),
            status: out.status.to_string(),
            stderr: stderr.clone(),
        }),
        code: out.status.code(),
        stderr,
    }
}

/// One run's values: criterion's saved samples and the kept outputs of divan and libtest targets
/// (`harness::output_file`); none when nothing ran or saved anything (a filter that matched nothing).
pub(crate) fn read_run(home: &Path) -> Result<Results, MeasureError> {
    let mut results = Results {
        origin: home.display().to_string(),
        benchmarks: vec![],
        environment: Default::default(),
        notes: vec![],
        left_out: vec![],
    };
    let Ok(entries) = std::fs::read_dir(home) else {
        return Ok(results);
    };
    let mut outputs = Vec::new();
    let mut criterion = false;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        match [Harness::Divan, Harness::Libtest]
            .into_iter()
            .find(|h| name.ends_with(&format!(".{}.txt", h.name())))
        {
            Some(harness) => outputs.push((harness, path)),
            None => criterion = true,
        }
    }
    if criterion {
        results = read::criterion_baseline(home, BASELINE)?;
    }
    outputs.sort_by(|a, b| a.1.cmp(&b.1));
    for (harness, path) in outputs {
        let read = harness::read_file(harness, &path).map_err(|detail| MeasureError::Read {
            path: path.clone(),
            detail,
        })?;
        results.benchmarks.extend(read.benchmarks);
        results.notes.extend(read.notes);
        results.left_out.extend(read.left_out);
    }
    Ok(results)
}

#[cfg(test)]
mod tests;
