//! Time units and the names of counts: what a sample's numbers were given in, and how reports show them.
//! Must not: hold a sample (`sample.rs` converts to nanoseconds on the way in).

use std::fmt;

/// A time unit, or the name of a count. Samples are stored in nanoseconds; the unit is kept for display.
///
/// A [`Unit::Count`] is not a time: it counts the events of a deterministic measurement (the instructions
/// or cache hits Valgrind counts for gungraun / iai-callgrind, `docs/formats.md` §14). Its values are
/// stored as counted (scale 1), lower is better like a time, and a benchmark in such a unit is compared
/// exactly ([`Basis::Deterministic`](super::Basis::Deterministic)), never tested. What is counted is one of a
/// fixed list (`sources::events`), so the unit stays `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Nanoseconds.
    Ns,
    /// Microseconds (`us`, printed `µs`).
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
    /// A count of events of a deterministic measurement.
    Count(&'static Counted),
}

/// What a [`Unit::Count`] counts, named as reports print it and as the Bencher Metric Format names it.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Counted {
    /// As reports print it: `instructions`, `L1 hits`, `bytes allocated`.
    pub name: &'static str,
    /// The Bencher Metric Format's measure slug: `instructions`, `l1-hits`, `total-bytes`.
    pub slug: &'static str,
}

impl Counted {
    /// The name of benchmark `benchmark`'s count of this: `benchmark (instructions)`, as the readers of
    /// counts name it.
    pub fn benchmark_name(&self, benchmark: &str) -> String {
        format!("{benchmark} ({})", self.name)
    }

    /// The benchmark a count's `name` was made from by [`Counted::benchmark_name`].
    pub fn benchmark_of<'a>(&self, name: &'a str) -> Option<&'a str> {
        name.strip_suffix(')')?
            .strip_suffix(self.name)?
            .strip_suffix(" (")
    }
}

impl Unit {
    /// Nanoseconds in one of this unit; 1 for a count, whose values are stored as counted.
    pub fn nanos(self) -> f64 {
        match self {
            Unit::Ns | Unit::Count(_) => 1.0,
            Unit::Us => 1e3,
            Unit::Ms => 1e6,
            Unit::S => 1e9,
        }
    }

    /// Whether this is a count of a deterministic measurement rather than a time.
    pub fn is_count(self) -> bool {
        matches!(self, Unit::Count(_))
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

    /// The unit's name in the JSON contract and the input files: `ns`, `us`, `ms` or `s`; a count's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Ns => "ns",
            Unit::Us => "us",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Count(counted) => counted.name,
        }
    }

    /// The unit's symbol as people read it (`µs`, where the contract and the input files write `us`).
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Us => "µs",
            other => other.as_str(),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_unit_picks_the_largest_below() {
        assert_eq!(Unit::readable(999.0), Unit::Ns);
        assert_eq!(Unit::readable(1500.0), Unit::Us);
        assert_eq!(Unit::readable(2.5e9), Unit::S);
    }
}
