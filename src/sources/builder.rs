//! The one place where parsed numbers become a [`Results`]: every reader pushes its benchmarks through
//! [`Builder`], so validation ([`Sample::new`]) and duplicate-name checks are the same for every format.
//! Must not: know any format.

use std::collections::HashSet;

use super::SourceError;
use crate::model::{Benchmark, Environment, Observation, Results, Sample, Unit};

/// Collects one side's benchmarks, validating each sample and rejecting duplicate names.
pub(crate) struct Builder {
    origin: String,
    benchmarks: Vec<Benchmark>,
    names: HashSet<String>,
    pub environment: Environment,
    pub notes: Vec<String>,
}

impl Builder {
    pub fn new(origin: &str) -> Builder {
        Builder {
            origin: origin.into(),
            benchmarks: Vec::new(),
            names: HashSet::new(),
            environment: Environment::default(),
            notes: Vec::new(),
        }
    }

    /// Adds a benchmark whose `values` are in `unit`.
    pub fn push(
        &mut self,
        name: &str,
        values: Vec<f64>,
        unit: Unit,
        observation: Observation,
    ) -> Result<(), SourceError> {
        if !self.names.insert(name.to_string()) {
            return Err(SourceError::Duplicate {
                path: self.origin.clone(),
                benchmark: name.into(),
            });
        }
        let sample = Sample::new(values, unit).map_err(|error| SourceError::Sample {
            path: self.origin.clone(),
            benchmark: name.into(),
            error,
        })?;
        self.benchmarks.push(Benchmark {
            name: name.into(),
            sample,
            unit,
            observation,
        });
        Ok(())
    }

    /// The benchmark added last.
    pub fn last_mut(&mut self) -> Option<&mut Benchmark> {
        self.benchmarks.last_mut()
    }

    /// The results, or an error when nothing was read.
    pub fn finish(self, format: &str) -> Result<Results, SourceError> {
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
