//! The counts `--measure instructions` takes beside instructions when asked (`docs/instruction-counts.md`
//! §8), each per iteration by the same differences as instructions (§2) and compared exactly only when
//! every estimate agrees:
//!
//! - `--cache-sim`: callgrind's cache simulation (`--cache-sim=yes`), read from each dump's totals as two
//!   counts, `L1 misses` = I1mr + D1mr + D1mw (the reads of instructions and data and the writes that
//!   missed the first level) and `LL misses` = ILmr + DLmr + DLmw (those that missed the last level too,
//!   gungraun's `RamHits`);
//! - `--count-allocations`: the calls to the Rust allocator's `__rust_alloc`, `__rust_alloc_zeroed` and
//!   `__rust_realloc` (the shims every allocation goes through, a `#[global_allocator]`'s included), from
//!   callgrind's call counts (`calls=` lines), which it writes without being asked.
//!
//! Must not: read files or start anything (the runner hands the dumps and their texts in), or decide which
//! estimates agree (`estimate` does).

use super::callgrind::Dump;
use super::estimate::{self, Estimate};
use super::functions;
use crate::sources::events::{self, Event};

/// Which counts beside instructions the runs take (`--cache-sim`, `--count-allocations`): none by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Extras {
    /// `--cache-sim`: callgrind simulates the caches, and each benchmark gains `L1 misses` and `LL misses`.
    pub cache_sim: bool,
    /// `--count-allocations`: each benchmark gains `allocations`, calls to the Rust allocator.
    pub allocations: bool,
}

/// One count beside instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extra {
    /// I1mr + D1mr + D1mw.
    L1Misses,
    /// ILmr + DLmr + DLmw.
    LlMisses,
    /// Calls to `__rust_alloc`, `__rust_alloc_zeroed` and `__rust_realloc`.
    Allocations,
}

impl Extra {
    /// Its event in [`events::EVENTS`], whose unit names it in the reports (`NAME (L1 misses)`).
    pub(crate) fn event(self) -> &'static Event {
        let key = match self {
            Extra::L1Misses => "L1misses",
            Extra::LlMisses => "LLmisses",
            Extra::Allocations => "Allocations",
        };
        events::EVENTS
            .iter()
            .find(|e| e.key == key)
            .unwrap_or(&events::EVENTS[0])
    }

    /// The callgrind events it adds up.
    fn sum_of(self) -> &'static [&'static str] {
        match self {
            Extra::L1Misses => &["I1mr", "D1mr", "D1mw"],
            Extra::LlMisses => &["ILmr", "DLmr", "DLmw"],
            Extra::Allocations => &[],
        }
    }
}

impl Extras {
    /// The counts asked, in the order the reports list them after instructions.
    pub(crate) fn asked(self) -> Vec<Extra> {
        let mut asked = Vec::new();
        if self.cache_sim {
            asked.extend([Extra::L1Misses, Extra::LlMisses]);
        }
        if self.allocations {
            asked.push(Extra::Allocations);
        }
        asked
    }

    /// What callgrind needs to be told for them: `--cache-sim=yes` for the caches; the call counts are
    /// written without asking.
    pub(crate) fn valgrind_args(self) -> Vec<&'static str> {
        match self.cache_sim {
            true => vec!["--cache-sim=yes"],
            false => vec![],
        }
    }

    /// Each asked count of one dump (`dump` read from `text`), in the order of [`Extras::asked`]: `Err`
    /// saying what is missing when the dump has no cache events (callgrind ran without `--cache-sim=yes`)
    /// or its call graph cannot be read.
    pub(crate) fn read(self, dump: &Dump, text: &str) -> Result<Vec<u64>, String> {
        self.asked()
            .into_iter()
            .map(|extra| match extra {
                Extra::Allocations => functions::calls_to(text, is_allocator),
                cache => cache_count(dump, cache),
            })
            .collect()
    }
}

/// `extra`'s events of `dump` added up.
fn cache_count(dump: &Dump, extra: Extra) -> Result<u64, String> {
    extra.sum_of().iter().try_fold(0u64, |sum, event| {
        let count = dump.events.get(*event).ok_or(format!(
            "no `{event}` event (callgrind simulates the caches under --cache-sim=yes only)"
        ))?;
        Ok(sum.saturating_add(*count))
    })
}

/// Whether `name` (demangled) is one of the Rust allocator's shims that an allocation calls:
/// `__rust_alloc`, `__rust_alloc_zeroed`, `__rust_realloc`, bare (Rust before 1.86 named them so) or in
/// the `__rustc` namespace of their mangled names (`_RNvCs..._7___rustc12___rust_alloc` since, demangled
/// `__rustc::__rust_alloc`; Rust 1.95 here). `__rust_dealloc` frees and is not counted.
pub(crate) fn is_allocator(name: &str) -> bool {
    let last = name.rsplit("::").next().unwrap_or(name);
    matches!(
        last,
        "__rust_alloc" | "__rust_alloc_zeroed" | "__rust_realloc"
    )
}

/// criterion's estimates of each asked count, from each dump's counts in order (`per_dump[j]` the j-th
/// dump's, in the order of [`Extras::asked`]): the doublings of [`estimate::criterion`].
pub(crate) fn criterion(asked: &[Extra], per_dump: &[Vec<u64>]) -> Vec<(Extra, Estimate)> {
    asked
        .iter()
        .enumerate()
        .map(|(i, &extra)| (extra, estimate::criterion(&column(per_dump, i))))
        .collect()
}

/// divan's estimates of each asked count, from the two processes' dumps (`low` at `n1` iterations per
/// sample, `high` at `n2`), as [`estimate::divan`] takes them.
pub(crate) fn divan(
    asked: &[Extra],
    samples: usize,
    (n1, low): (u64, &[Vec<u64>]),
    (n2, high): (u64, &[Vec<u64>]),
) -> Vec<(Extra, Estimate)> {
    asked
        .iter()
        .enumerate()
        .map(|(i, &extra)| {
            let estimate = estimate::divan(samples, (n1, &column(low, i)), (n2, &column(high, i)));
            (extra, estimate)
        })
        .collect()
}

/// The `i`-th count of each dump.
fn column(per_dump: &[Vec<u64>], i: usize) -> Vec<u64> {
    per_dump
        .iter()
        .map(|counts| counts.get(i).copied().unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests;
