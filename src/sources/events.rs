//! The counts of deterministic measurements this tool compares exactly: Valgrind's events as gungraun /
//! iai-callgrind name them in their summaries, as the Bencher Metric Format names them (its measure slugs),
//! and as reports print them ([`Counted`]); and the counts `--measure instructions` takes beside
//! instructions (`--cache-sim`, `--count-allocations`), so that a record of them is read back.
//!
//! Why a fixed list: a count's unit must name what is counted, and `Unit` stays `Copy` with a `&'static`
//! reference into it. Rates (`I1MissRate`, `L1HitRate`, ...) are not counts and are not listed; neither are Valgrind's
//! error counts (memcheck, helgrind, drd), which are checks rather than costs, nor `SysTime` (a time that
//! Valgrind's syscall tracing makes meaningless as the program's). Must not: read anything.

use crate::model::{Counted, Unit};

/// One countable event: its summary key and what it counts.
pub(crate) struct Event {
    /// The key in a gungraun / iai-callgrind summary (`Ir`, `L1hits`, `TotalBytes`); for the counts only
    /// this tool takes (`L1misses`, `LLmisses`, `Allocations`), a key no summary has.
    pub key: &'static str,
    /// Its unit's name and BMF slug.
    pub counted: Counted,
}

impl Event {
    /// The unit of this event's counts.
    pub(crate) fn unit(&'static self) -> Unit {
        Unit::Count(&self.counted)
    }
}

const fn event(key: &'static str, slug: &'static str, name: &'static str) -> Event {
    Event {
        key,
        counted: Counted { name, slug },
    }
}

/// Every event read, in the order reports list a benchmark's counts.
pub(crate) static EVENTS: [Event; 33] = [
    // Callgrind and Cachegrind.
    event("Ir", "instructions", "instructions"),
    event("EstimatedCycles", "estimated-cycles", "estimated cycles"),
    event("L1hits", "l1-hits", "L1 hits"),
    event("LLhits", "ll-hits", "LL hits"),
    event("RamHits", "ram-hits", "RAM hits"),
    event("TotalRW", "total-read-write", "reads and writes"),
    event("Dr", "dr", "data reads"),
    event("Dw", "dw", "data writes"),
    event("I1mr", "i1mr", "I1 read misses"),
    event("D1mr", "d1mr", "D1 read misses"),
    event("D1mw", "d1mw", "D1 write misses"),
    event("ILmr", "ilmr", "LL instruction read misses"),
    event("DLmr", "dlmr", "LL data read misses"),
    event("DLmw", "dlmw", "LL data write misses"),
    event("ILdmr", "ildmr", "LL instruction read misses (direct)"),
    event("DLdmr", "dldmr", "LL data read misses (direct)"),
    event("DLdmw", "dldmw", "LL data write misses (direct)"),
    event("Bc", "bc", "conditional branches"),
    event("Bcm", "bcm", "mispredicted conditional branches"),
    event("Bi", "bi", "indirect branches"),
    event("Bim", "bim", "mispredicted indirect branches"),
    event("Ge", "global-bus-events", "global bus events"),
    event("SysCount", "sys-count", "system calls"),
    // DHAT.
    event("TotalBytes", "total-bytes", "bytes allocated"),
    event("TotalBlocks", "total-blocks", "blocks allocated"),
    event("AtTGmaxBytes", "at-t-gmax-bytes", "bytes at t-gmax"),
    event("AtTGmaxBlocks", "at-t-gmax-blocks", "blocks at t-gmax"),
    event("AtTEndBytes", "at-t-end-bytes", "bytes at t-end"),
    event("ReadsBytes", "reads-bytes", "bytes read"),
    event("WritesBytes", "writes-bytes", "bytes written"),
    // Counted by this tool under callgrind (`docs/instruction-counts.md` §8), in no summary: misses of its
    // cache simulation, I1mr + D1mr + D1mw and ILmr + DLmr + DLmw, and calls to the Rust allocator.
    event("L1misses", "l1-misses", "L1 misses"),
    event("LLmisses", "ll-misses", "LL misses"),
    event("Allocations", "allocations", "allocations"),
];

/// The event with this BMF measure slug (the older iai-callgrind slugs `l1-accesses`, `l2-accesses` and
/// `ram-accesses` of Bencher's iai adapter included).
pub(crate) fn by_slug(slug: &str) -> Option<&'static Event> {
    let slug = match slug {
        "l1-accesses" => "l1-hits",
        "l2-accesses" => "ll-hits",
        "ram-accesses" => "ram-hits",
        other => other,
    };
    EVENTS.iter().find(|e| e.counted.slug == slug)
}

/// The event whose count reports print as `name` ([`Counted::name`]: `instructions`), as a record of
/// measured counts writes its `display_unit`.
pub(crate) fn by_name(name: &str) -> Option<&'static Event> {
    EVENTS.iter().find(|e| e.counted.name == name)
}

/// The note for the counts of zero a reader skipped (no ratio compares them), by benchmark name.
pub(crate) fn zero_counts_note(
    origin: &str,
    zeros: &std::collections::BTreeSet<String>,
) -> Option<String> {
    (!zeros.is_empty()).then(|| {
        let list: Vec<&str> = zeros.iter().map(String::as_str).collect();
        format!(
            "{origin}: skipped {} count{} of zero, which no ratio can compare: {}",
            list.len(),
            if list.len() == 1 { "" } else { "s" },
            list.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_slugs_and_names_are_unique() {
        for (i, a) in EVENTS.iter().enumerate() {
            for b in &EVENTS[i + 1..] {
                assert!(a.key != b.key && a.counted.slug != b.counted.slug);
                assert!(a.counted.name != b.counted.name);
            }
        }
    }

    #[test]
    fn a_count_name_gives_back_its_benchmark() {
        let ir = &EVENTS[0].counted;
        let name = ir.benchmark_name("g::bench_fib short");
        assert_eq!(name, "g::bench_fib short (instructions)");
        assert_eq!(ir.benchmark_of(&name), Some("g::bench_fib short"));
        assert_eq!(ir.benchmark_of("g::bench_fib short"), None);
        assert_eq!(by_slug("l1-accesses").unwrap().key, "L1hits");
        assert_eq!(by_name("instructions").unwrap().key, "Ir");
        assert_eq!(by_name("L1 misses").unwrap().counted.slug, "l1-misses");
        assert_eq!(by_slug("allocations").unwrap().counted.name, "allocations");
        assert!(by_name("ns").is_none());
    }
}
