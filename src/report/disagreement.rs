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

/// A time's change in percent as the headline writes it: `+3.3%`, `−45%`, `0%` (`headline::time_change`).
fn time_pct(pct: f64) -> String {
    match format::finite(pct) {
        Some(p) if p > 0.0 => format!("+{}%", super::headline::short_pct(p)),
        Some(p) if p < 0.0 => format!("−{}%", super::headline::short_pct(-p)),
        Some(_) => "0%".to_string(),
        None => format::MISSING.to_string(),
    }
}

/// A count's change in percent as the table's exact cell writes it: `+0.400 %`, `-2.88 %`, with 3
/// significant digits (`cells::exact_change`).
fn count_pct(pct: f64) -> String {
    match format::finite(pct) {
        Some(p) if p > 0.0 => format!("+{} %", format::significant(p, 3)),
        Some(p) if p < 0.0 => format!("-{} %", format::significant(-p, 3)),
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
        DisagreementKind::Opposite => {
            "what changed is how the instructions run, not how many: likely memory or cache behaviour, \
             branch prediction or code alignment"
        }
    }
}

/// One benchmark's line, its name as the sink shows it, the time's change as the headline writes it and
/// the count's as the table's exact cell: `slept: time slower (+200%) with instructions unchanged
/// (+0.400 %, within --threshold): ...`, `hidden: instructions +10.0 % with time unchanged (0%): ...`,
/// `u128: time slower (+3.3%) with instructions -2.88 %: ...`.
pub(crate) fn line(d: &Disagreement, name: &str) -> String {
    let count = match d.count_change_pct {
        0.0 => "instructions equal".to_string(),
        c => format!(
            "instructions unchanged ({}, within --threshold)",
            count_pct(c)
        ),
    };
    match d.kind {
        DisagreementKind::TimeNotCount => format!(
            "{name}: time {} ({}) with {count}: {}",
            d.time.as_str(),
            time_pct(d.time_change_pct),
            reading(d.kind)
        ),
        DisagreementKind::CountNotTime => format!(
            "{name}: instructions {} with time unchanged ({}): {}",
            count_pct(d.count_change_pct),
            time_pct(d.time_change_pct),
            reading(d.kind)
        ),
        DisagreementKind::Opposite => format!(
            "{name}: time {} ({}) with instructions {}: {}",
            d.time.as_str(),
            time_pct(d.time_change_pct),
            count_pct(d.count_change_pct),
            reading(d.kind)
        ),
    }
}

#[cfg(test)]
mod tests;
