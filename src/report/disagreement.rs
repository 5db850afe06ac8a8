//! Where a benchmark's time and its instruction count disagree (`protocol::disagreements`, read from their
//! verdicts; `docs/instruction-counts.md` §7), in words for every report: one line per benchmark, naming
//! it with both figures and the likely reading. The JSON report carries each on the time's benchmark
//! (`disagreement`); the Markdown and HTML reports list them under the table, and so does the terminal,
//! with or without `--verbose`.
//!
//! Must not: decide which benchmarks disagree (`protocol::disagreement` does), or make a name inert (each
//! renderer does for its sink: the name is given as the sink shows it).

use crate::protocol::{Analysis, Disagreement, DisagreementKind};

use super::format;

/// The benchmarks of `analysis` whose time and count disagree, in the report's order.
pub(crate) fn of(analysis: &Analysis) -> Vec<Disagreement> {
    crate::protocol::disagreements(analysis)
}

/// The title of the list.
pub(crate) const TITLE: &str = "Where time and instructions disagree:";

/// A change in percent, signed, with 3 significant digits: `+200 %`, `−4.5 %`, `0 %`.
fn signed_pct(pct: f64) -> String {
    match format::finite(pct) {
        Some(p) if p > 0.0 => format!("+{} %", format::significant(p, 3)),
        Some(p) if p < 0.0 => format!("−{} %", format::significant(-p, 3)),
        Some(_) => "0 %".to_string(),
        None => format::MISSING.to_string(),
    }
}

/// What the disagreement likely means, as the JSON's `reading` gives it.
pub(crate) fn reading(kind: DisagreementKind) -> &'static str {
    match kind {
        DisagreementKind::TimeNotCount => {
            "the change is not in the instructions executed: likely memory, I/O or scheduling (a sleep, a \
             lock, cache misses)"
        }
        DisagreementKind::CountNotTime => {
            "the instructions that changed cost no time the runs could see: likely hidden behind memory \
             stalls or the CPU's parallel execution"
        }
    }
}

/// One benchmark's line, its name as the sink shows it: `slept: time slower (+200 %) with instructions
/// unchanged (+0.4 %, within --threshold): ...`, `hidden: instructions +10 % with time unchanged (+0.1
/// %): ...`.
pub(crate) fn line(d: &Disagreement, name: &str) -> String {
    let count = match d.count_change_pct {
        0.0 => "instructions equal".to_string(),
        c => format!(
            "instructions unchanged ({}, within --threshold)",
            signed_pct(c)
        ),
    };
    match d.kind {
        DisagreementKind::TimeNotCount => format!(
            "{name}: time {} ({}) with {count}: {}",
            d.time.as_str(),
            signed_pct(d.time_change_pct),
            reading(d.kind)
        ),
        DisagreementKind::CountNotTime => format!(
            "{name}: instructions {} with time unchanged ({}): {}",
            signed_pct(d.count_change_pct),
            signed_pct(d.time_change_pct),
            reading(d.kind)
        ),
    }
}

#[cfg(test)]
mod tests;
