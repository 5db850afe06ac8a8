//! The shape's warnings in words: the modes of a side, listed with their locations and weights.

use super::Words;
use crate::model::{Basis, Unit};
use crate::protocol::ShapeCause;
use crate::stats::modes::Mode;

/// What the shape of a benchmark's sides calls for.
pub(super) fn shape_words(cause: &ShapeCause) -> Words {
    match cause {
        ShapeCause::Modes {
            name,
            side,
            basis,
            modes,
            unit,
        } => {
            let list = mode_list(modes, *unit);
            let count = count(modes.len());
            match basis {
                Basis::ProcessRuns | Basis::Deterministic => Words::new(
                    format!(
                        "{side} of `{name}` has {count}: {list}; the mean protocol is misleading here, trust \
                         the median protocol"
                    ),
                    "the runs settle in different states: code layouts (each run links its own, \
                     `--layouts`), CPU frequency, memory placement; the median's verdict covers them all",
                ),
                Basis::OneProcess => Words::new(
                    format!(
                        "{side} of `{name}` has {count} among the samples inside its one process: {list}; the \
                         mean protocol is misleading here, trust the median protocol"
                    ),
                    "modes inside one process say nothing of the next: measure several process runs",
                ),
            }
        }
        ShapeCause::ModesChanged { name, base, head } => Words::new(
            format!(
                "BASE of `{name}` has {} and HEAD {}: the change altered the shape of the distribution, not \
                 only its level",
                count(*base),
                count(*head)
            ),
            "one speedup figure summarises one level only: look at the modes of both sides",
        ),
        ShapeCause::TooFewDistinctValues { name, side, values } => Words::new(
            format!(
                "{side} of `{name}`: too few distinct values to model the shape (its {values} values are all \
                 equal)"
            ),
            "a coarse timer rounds the times: run more iterations per sample",
        ),
    }
}

/// "1 mode", "2 modes".
fn count(modes: usize) -> String {
    if modes == 1 {
        "1 mode".to_string()
    } else {
        format!("{modes} modes")
    }
}

/// "1.02 ms (70 %) and 1.31 ms (30 %)": 3 significant digits, more until the locations differ in print.
fn mode_list(modes: &[Mode], unit: Unit) -> String {
    let texts = (3..=8)
        .map(|digits| {
            modes
                .iter()
                .map(|m| significant(m.location / unit.nanos(), digits))
                .collect::<Vec<_>>()
        })
        .find(|t| t.windows(2).all(|w| w[0] != w[1]))
        .unwrap_or_else(|| {
            modes
                .iter()
                .map(|m| format!("{}", m.location / unit.nanos()))
                .collect()
        });
    let items: Vec<String> = texts
        .iter()
        .zip(modes)
        .map(|(t, m)| format!("{t} {} ({:.0} %)", unit.symbol(), 100.0 * m.weight))
        .collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

/// `value` with `digits` significant digits in fixed notation.
fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 12) as usize;
    format!("{value:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_lists_print_enough_digits_to_differ() {
        let modes = [
            Mode {
                location: 1.0201e6,
                weight: 0.5,
            },
            Mode {
                location: 1.0204e6,
                weight: 0.25,
            },
            Mode {
                location: 2.0e6,
                weight: 0.25,
            },
        ];
        assert_eq!(
            mode_list(&modes, Unit::Ms),
            "1.0201 ms (50 %), 1.0204 ms (25 %) and 2.0000 ms (25 %)"
        );
    }
}
