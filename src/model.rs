//! The data every stage agrees on: validated samples of execution times, benchmarks, and BASE/HEAD pairs.
//!
//! Sources produce [`Results`] (one per side); [`Suite::pair`] matches them by name. A [`Sample`] is the only
//! way observations reach the statistics: it is non-empty, finite, strictly positive and in nanoseconds, so
//! no later stage re-checks. This module does no I/O.

use std::fmt;

/// A time unit. Samples are stored in nanoseconds; the unit is kept for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    Ns,
    Us,
    Ms,
    S,
}

impl Unit {
    /// Nanoseconds in one of this unit.
    pub fn nanos(self) -> f64 {
        match self {
            Unit::Ns => 1.0,
            Unit::Us => 1e3,
            Unit::Ms => 1e6,
            Unit::S => 1e9,
        }
    }

    /// Parses the unit names of the raw timing JSON and of the common formats (`ns`, `us`, `µs`, `ms`, `s`).
    pub fn parse(text: &str) -> Option<Unit> {
        match text.trim() {
            "ns" => Some(Unit::Ns),
            "us" | "µs" | "μs" => Some(Unit::Us),
            "ms" => Some(Unit::Ms),
            "s" => Some(Unit::S),
            _ => None,
        }
    }

    /// The largest unit in which `nanos` is at least 1, for readable output.
    pub fn readable(nanos: f64) -> Unit {
        [Unit::S, Unit::Ms, Unit::Us]
            .into_iter()
            .find(|u| nanos >= u.nanos())
            .unwrap_or(Unit::Ns)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Ns => "ns",
            Unit::Us => "us",
            Unit::Ms => "ms",
            Unit::S => "s",
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The range of times, in nanoseconds, that the statistics compute with. Far outside any execution time
/// (1e-100 ns to 1e100 ns), it keeps sums of squares finite and nonzero, where a value like 1e200 would make
/// a variance infinite.
pub const NANOS_RANGE: (f64, f64) = (1e-100, 1e100);

/// Why a list of numbers is not a valid sample. `index` counts from 0; messages count from 1.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    #[error("no observations")]
    Empty,
    #[error(
        "observation {} is {value}: times must be finite and greater than zero",
        .index + 1
    )]
    Invalid { index: usize, value: f64 },
    #[error(
        "observation {} is {value} {unit}: outside the range of times this tool computes with (1e-100 to \
         1e100 ns)\nhint: check the unit and the values of this benchmark",
        .index + 1
    )]
    OutOfRange {
        index: usize,
        value: f64,
        unit: Unit,
    },
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

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What one observation is: this decides which warnings the report gives (`formats.md` §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Observation {
    /// One independent process run per observation (hyperfine, Go `-count`, SpeedUpTest files).
    ProcessRun,
    /// A mean over a batch of iterations within one process (criterion, cargo-criterion): observations are
    /// not independent runs.
    BatchMean,
    /// The input did not say.
    Unknown,
}

/// One benchmark of one side.
#[derive(Debug, Clone, PartialEq)]
pub struct Benchmark {
    pub name: String,
    pub sample: Sample,
    /// The unit the input used, kept for display.
    pub unit: Unit,
    pub observation: Observation,
}

/// Where the results were measured, when the input records it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    pub cpu: Option<String>,
    pub rustc: Option<String>,
    pub host: Option<String>,
}

/// One side's results, as read from a source or measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// What the results were read from (a path, a baseline name, a revision), for messages.
    pub origin: String,
    pub benchmarks: Vec<Benchmark>,
    pub environment: Environment,
    /// Warnings raised while reading (dropped runs, ...), in words for the user.
    pub notes: Vec<String>,
}

/// A benchmark present on both sides.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub name: String,
    pub base: Benchmark,
    pub head: Benchmark,
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
    pub base_environment: Environment,
    pub head_environment: Environment,
    /// Reading notes of both sides.
    pub notes: Vec<String>,
}

impl Suite {
    /// Matches BASE and HEAD benchmarks by exact name. Names on one side only are listed, never dropped
    /// silently.
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
        let head_only = head_benchmarks
            .into_iter()
            .flatten()
            .map(|b| b.name)
            .collect();
        let mut notes = base.notes;
        notes.extend(head.notes);
        Suite {
            pairs,
            base_only,
            head_only,
            base_environment: base.environment,
            head_environment: head.environment,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench(name: &str, values: &[f64]) -> Benchmark {
        Benchmark {
            name: name.into(),
            sample: Sample::new(values.to_vec(), Unit::Us).unwrap(),
            unit: Unit::Us,
            observation: Observation::ProcessRun,
        }
    }

    fn results(benchmarks: Vec<Benchmark>) -> Results {
        Results {
            origin: "test".into(),
            benchmarks,
            environment: Environment::default(),
            notes: vec![],
        }
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

    #[test]
    fn pairing_lists_unmatched_names() {
        let base = results(vec![bench("a", &[1.0]), bench("b", &[2.0])]);
        let head = results(vec![bench("c", &[1.0]), bench("a", &[3.0])]);
        let suite = Suite::pair(base, head);
        assert_eq!(suite.pairs.len(), 1);
        assert_eq!(suite.pairs[0].name, "a");
        assert_eq!(suite.pairs[0].head.sample.nanos(), &[3000.0]);
        assert_eq!(suite.base_only, vec!["b".to_string()]);
        assert_eq!(suite.head_only, vec!["c".to_string()]);
    }

    #[test]
    fn readable_unit_picks_the_largest_below() {
        assert_eq!(Unit::readable(999.0), Unit::Ns);
        assert_eq!(Unit::readable(1500.0), Unit::Us);
        assert_eq!(Unit::readable(2.5e9), Unit::S);
    }
}
