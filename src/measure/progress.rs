//! What the user sees while we build and run: an indicatif bar on stderr (which revision, which bench
//! target, round i of N, time left), drawn only when stderr is a terminal and `-q` was not given; when
//! stderr is not a terminal (a CI log), one plain line per build and per run instead, so that minutes of work
//! do not pass in silence; and short status lines (cache reuse, uncommitted changes), printed on stderr
//! unless `-q`.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::inert;

/// The progress display of one command.
pub(super) struct Progress {
    bar: ProgressBar,
    quiet: bool,
    /// Plain lines instead of the bar: stderr is not a terminal and `-q` was not given.
    plain: bool,
}

impl Progress {
    pub(super) fn new(quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = if quiet || !terminal {
            ProgressBar::hidden()
        } else {
            ProgressBar::new_spinner()
        };
        Progress {
            bar,
            quiet,
            plain: !quiet && !terminal,
        }
    }

    /// A status line on stderr (kept clear of the bar). Its lines go through the terminal rule
    /// (`crate::inert::terminal`): a note may quote a benchmark, a target or a revision.
    pub(super) fn note(&self, text: &str) {
        if !self.quiet {
            let lines: Vec<String> = text.split('\n').map(inert::terminal).collect();
            self.bar.suspend(|| eprintln!("{}", lines.join("\n")));
        }
    }

    /// A spinner while cargo builds one revision.
    pub(super) fn building(&self, label: &str) {
        let label = inert::terminal(label);
        self.bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        self.bar.set_message(format!("building {label}"));
        self.bar.enable_steady_tick(Duration::from_millis(120));
        if self.plain {
            eprintln!("building {label}");
        }
    }

    /// A bar over the `total` benchmark runs.
    pub(super) fn start_runs(&self, total: u64) {
        self.bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} (about {eta} left)")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.set_message("");
        self.bar.reset_eta();
    }

    /// Marks the start of one run (the previous one is done).
    pub(super) fn step(&self, label: &str, target: &str, run: u32, runs: u32) {
        let (label, target) = (inert::terminal(label), inert::terminal(target));
        let message = format!("{label} · {target} · run {run} of {runs}");
        if self.plain {
            eprintln!("running {message}");
        }
        self.bar.set_message(message);
    }

    /// Marks one run done.
    pub(super) fn done_one(&self) {
        self.bar.inc(1);
    }

    /// Clears the bar.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
