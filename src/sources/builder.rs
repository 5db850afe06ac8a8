//! The one place where parsed numbers become a [`Results`]: every reader pushes its benchmarks through
//! [`Builder`], so validation ([`Sample::new`]) and duplicate-name checks are the same for every format.
//! Must not: know any format.

use std::collections::HashSet;

use super::SourceError;
use crate::model::coverage::{LeftOut, Reason};
use crate::model::{Benchmark, Environment, Results, Run, Runs, Sample, Unit};

/// How a flat list of values was measured: it decides how the values become process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValuesFrom {
    /// Each value is one process run (hyperfine, Go's `-count`, the raw JSON's `samples`, SpeedUpTest files).
    ProcessPerValue,
    /// Every value was measured in one process (criterion's batch means, cargo-criterion, Google Benchmark
    /// repetitions).
    OneProcess,
}

/// Collects one side's benchmarks, validating each sample and rejecting duplicate names.
pub(crate) struct Builder {
    origin: String,
    benchmarks: Vec<Benchmark>,
    names: HashSet<String>,
    pub environment: Environment,
    pub notes: Vec<String>,
    /// The benchmarks the input names but this side cannot use, with why.
    pub left_out: Vec<LeftOut>,
}

impl Builder {
    pub(crate) fn new(origin: &str) -> Builder {
        Builder {
            origin: origin.into(),
            benchmarks: Vec::new(),
            names: HashSet::new(),
            environment: Environment::default(),
            notes: Vec::new(),
            left_out: Vec::new(),
        }
    }

    /// Leaves out the benchmark `name` for `reason`: one note, the rest still compared. The name is
    /// claimed like a benchmark's, so that a name seen twice is still refused.
    pub(crate) fn leave_out(&mut self, name: &str, reason: Reason) -> Result<(), SourceError> {
        self.claim(name)?;
        self.left_out.push(LeftOut::benchmark(name, None, reason));
        Ok(())
    }

    /// Adds a benchmark whose `values` are in `unit`, measured as `measured` says. A benchmark whose
    /// values are not a sample (none, or one that is not a finite positive time) is left out with
    /// [`Reason::NoValue`] saying why, so that one bad benchmark does not end the file's comparison.
    pub(crate) fn push(
        &mut self,
        name: &str,
        values: Vec<f64>,
        unit: Unit,
        measured: ValuesFrom,
    ) -> Result<(), SourceError> {
        self.claim(name)?;
        let sample = match Sample::new(values, unit) {
            Ok(sample) => sample,
            Err(error) => return self.no_value(name, error.to_string()),
        };
        let runs = match measured {
            ValuesFrom::ProcessPerValue => Runs::independent(sample),
            ValuesFrom::OneProcess => Runs::one_process(sample),
        };
        self.add(name, runs, unit)
    }

    /// Adds a benchmark given as process runs, each the list of its samples in `unit`, with the layout each
    /// ran (`layouts`, when known, one per run).
    pub(crate) fn push_runs(
        &mut self,
        name: &str,
        runs: Vec<Vec<f64>>,
        unit: Unit,
        layouts: Option<Vec<u32>>,
    ) -> Result<(), SourceError> {
        self.claim(name)?;
        if let Some(layouts) = &layouts {
            if layouts.len() != runs.len() {
                return Err(SourceError::Invalid {
                    path: self.origin.clone(),
                    format: "runs",
                    message: format!(
                        "benchmark `{name}` has {} runs but {} layouts",
                        runs.len(),
                        layouts.len()
                    ),
                });
            }
        }
        let mut built = Vec::with_capacity(runs.len());
        for (r, values) in runs.into_iter().enumerate() {
            match Sample::new(values, unit) {
                Ok(sample) => built.push(Run::new(sample, layouts.as_ref().map(|l| l[r]))),
                Err(error) => return self.no_value(name, format!("run {}: {error}", r + 1)),
            }
        }
        match Runs::new(built) {
            Ok(runs) => self.add(name, runs, unit),
            Err(error) => self.no_value(name, error.to_string()),
        }
    }

    /// Leaves out the claimed benchmark `name`, whose values are not a sample for the reason `detail` (its
    /// first line: the hint of a sample's error is the input's, given once).
    fn no_value(&mut self, name: &str, detail: String) -> Result<(), SourceError> {
        let detail = detail.lines().next().unwrap_or_default().to_string();
        self.left_out
            .push(LeftOut::benchmark(name, None, Reason::NoValue { detail }));
        Ok(())
    }

    /// Rejects a name seen before.
    fn claim(&mut self, name: &str) -> Result<(), SourceError> {
        if name.trim().is_empty() {
            return Err(SourceError::EmptyName {
                path: self.origin.clone(),
                position: self.names.len() + 1,
            });
        }
        if !self.names.insert(name.to_string()) {
            return Err(SourceError::Duplicate {
                path: self.origin.clone(),
                benchmark: name.into(),
            });
        }
        Ok(())
    }

    fn add(&mut self, name: &str, runs: Runs, unit: Unit) -> Result<(), SourceError> {
        self.benchmarks.push(Benchmark {
            name: name.into(),
            runs,
            unit,
            counters: Vec::new(),
        });
        Ok(())
    }

    /// Whether `name` was claimed already, as a benchmark or left out.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The benchmark added last.
    pub(crate) fn last_mut(&mut self) -> Option<&mut Benchmark> {
        self.benchmarks.last_mut()
    }

    /// The results, or an error when nothing was read: [`SourceError::NothingUsable`] when the input
    /// named benchmarks but left every one out.
    pub(crate) fn finish(self, format: &str) -> Result<Results, SourceError> {
        if self.benchmarks.is_empty() && !self.left_out.is_empty() {
            return Err(SourceError::NothingUsable {
                path: self.origin,
                left_out: self.left_out,
            });
        }
        if self.benchmarks.is_empty() {
            return Err(SourceError::NoSamples {
                path: self.origin,
                reason: format!("no benchmark found in this {format} input"),
                hint: None,
            });
        }
        Ok(Results {
            origin: self.origin,
            benchmarks: self.benchmarks,
            environment: self.environment,
            notes: self.notes,
            left_out: self.left_out,
        })
    }
}

/// An [`SourceError::Invalid`].
pub(crate) fn invalid(path: &str, format: &'static str, message: impl Into<String>) -> SourceError {
    SourceError::Invalid {
        path: path.into(),
        format,
        message: message.into(),
    }
}

/// Parses a unit name, or says which were expected.
pub(crate) fn parse_unit(
    text: &str,
    path: &str,
    format: &'static str,
) -> Result<Unit, SourceError> {
    Unit::parse(text).ok_or_else(|| {
        invalid(
            path,
            format,
            format!("unknown unit `{text}` (expected ns, us, ms or s)"),
        )
    })
}

/// Whether `text` is one or more JSON values one after the other (the outputs of several runs appended), each
/// an object that `is_one` accepts.
pub(crate) fn every_json_object(
    text: &str,
    is_one: impl Fn(&serde_json::Map<String, serde_json::Value>) -> bool,
) -> bool {
    let mut count = 0;
    for value in serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>() {
        match value {
            Ok(serde_json::Value::Object(o)) if is_one(&o) => count += 1,
            _ => return false,
        }
    }
    count > 0
}
