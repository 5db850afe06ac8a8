//! What starting one process run needs, whatever its harness: the user's filter and the requested run
//! length, built by `settings::RunOptions::per_run`; `kinds` turns it into each harness's arguments.
//!
//! Must not: start processes.

/// criterion `--nresamples` per run: its bootstrap estimates are not used (each run's value is the median of
/// its samples), so it is kept small to save its time.
const NRESAMPLES: u32 = 1000;

/// `secs` as criterion before 0.4 takes it: rounded up to whole seconds, at least 1.
pub(crate) fn to_whole_seconds(secs: f64) -> f64 {
    secs.ceil().max(1.0)
}

/// What starting one process run needs: the user's filter and the requested run length.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PerRun {
    /// `--filter`: criterion's filter on benchmark names; `None` runs every benchmark.
    pub filter: Option<String>,
    /// criterion `--warm-up-time` per run, in seconds.
    pub warm_up_secs: f64,
    /// criterion `--measurement-time` per run, in seconds.
    pub measurement_secs: f64,
    /// divan's warm-up and measurement per run, in seconds (`settings::DIVAN_WARM_UP_SECS`).
    pub divan_secs: (f64, f64),
    /// criterion `--sample-size` per run.
    pub sample_size: u32,
}

impl PerRun {
    /// The same run for criterion before 0.4, which takes `--warm-up-time` and `--measurement-time` in
    /// whole seconds only: each rounded up, to at least 1 s (`prepare::criterion_version`).
    pub(crate) fn in_whole_seconds(&self) -> PerRun {
        PerRun {
            warm_up_secs: to_whole_seconds(self.warm_up_secs),
            measurement_secs: to_whole_seconds(self.measurement_secs),
            ..self.clone()
        }
    }

    #[cfg(test)]
    /// The arguments of one benchmark binary run, after the binary: what `cargo bench -- ...` would pass.
    pub(crate) fn criterion_args(&self, baseline: &str) -> Vec<String> {
        self.criterion_args_with(baseline, None)
    }

    /// The arguments of one criterion run, after the binary (what `cargo bench -- ...` would pass), with
    /// `filter` in place of the user's when given (the benchmarks still open in a race).
    pub(crate) fn criterion_args_with(
        &self,
        baseline: &str,
        filter: Option<String>,
    ) -> Vec<String> {
        let mut args = vec!["--bench".to_string()];
        args.extend(filter.or_else(|| self.filter.clone()));
        args.extend([
            "--save-baseline".to_string(),
            baseline.to_string(),
            "--warm-up-time".to_string(),
            self.warm_up_secs.to_string(),
            "--measurement-time".to_string(),
            self.measurement_secs.to_string(),
            "--sample-size".to_string(),
            self.sample_size.to_string(),
            "--nresamples".to_string(),
            NRESAMPLES.to_string(),
            "--noplot".to_string(),
        ]);
        args
    }
}
