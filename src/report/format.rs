//! Every rounding and number-to-text rule of the reports, in one place, so that the table, the Markdown and
//! the CSV never disagree about a digit.
//!
//! Human formats (table, Markdown) round for reading; machine formats (CSV) print the shortest text that reads
//! back to the same `f64` ([`machine`]). JSON does no rounding at all (serde_json writes shortest round-trip
//! numbers). Nothing here may print `NaN` or `inf`: a value that is missing or non-finite prints as
//! [`MISSING`] (human) or as an empty field (machine).
//!
//! Rules, chosen for the papers' figures:
//! - times: 4 significant digits in a readable unit (`812.3 ns`, `91.20 µs`, `1.235 s`);
//! - speedups and ratios: 2 decimals as the papers print them (`1.23x`, paper 003's `0.95-speedup 1.42`),
//!   3 decimals when 2 would print a speedup that is not 1 as `1.00`;
//! - confidences computed by a test (HPT): at least 3 decimals, more until the value no longer rounds to 1
//!   (`0.9998` for 1 − 1/4096, paper 003 Table 2), never `1.000` for a value below 1;
//! - confidence levels found by paper 000's search (0.51..0.99 grid): 2 decimals, the grid's top `>= 0.99`;
//! - gains and proportions: percents with 1 decimal;
//! - the figures of `simulate`: error rates as percents with 2 decimals, savings with none, mean counts with
//!   2 (runs of a bisection with 1), the confidence of one comparison with 4.

use crate::model::Unit;

/// What a human report prints for a value that does not exist or is not finite.
pub(crate) const MISSING: &str = "-";

/// `Some(x)` when `x` is finite.
pub(crate) fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// `x` when it exists and is finite.
pub(crate) fn finite_opt(x: Option<f64>) -> Option<f64> {
    x.and_then(finite)
}

/// `value` with at least `digits` significant digits, in fixed notation within [0.001, 1e9) and in
/// scientific notation (`1.23e-7`) outside, so that no magnitude prints as a wall of digits or as 0.
pub(crate) fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    let decimals = usize::try_from(digits - 1).unwrap_or(0);
    if !(1e-3..1e9).contains(&value.abs()) {
        return format!("{value:.decimals$e}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 20) as usize;
    format!("{value:.decimals$}")
}

/// The unit's symbol as people read it (`µs`, not the contract's `us`).
pub(crate) fn unit_symbol(unit: Unit) -> &'static str {
    unit.symbol()
}

/// A time given in nanoseconds, printed in `unit` with 4 significant digits: `812.3 ns`. A count
/// ([`Unit::Count`]) is printed as counted, without its unit, which the benchmark's name carries: `14396`.
pub(crate) fn time(nanos: f64, unit: Unit) -> String {
    if unit.is_count() {
        return match finite(nanos) {
            Some(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{n:.0}"),
            Some(n) => significant(n, 6),
            None => MISSING.to_string(),
        };
    }
    match finite(nanos) {
        Some(ns) => format!(
            "{} {}",
            significant(ns / unit.nanos(), 4),
            unit_symbol(unit)
        ),
        None => MISSING.to_string(),
    }
}

/// The unit in which both times of a row read best: the readable unit of the smaller one.
pub(crate) fn row_unit(a_nanos: f64, b_nanos: f64) -> Unit {
    let smaller = [a_nanos, b_nanos]
        .into_iter()
        .filter(|x| x.is_finite() && *x > 0.0)
        .fold(f64::INFINITY, f64::min);
    if smaller.is_finite() {
        Unit::readable(smaller)
    } else {
        Unit::Ns
    }
}

/// A ratio without its `x`: 2 decimals, 3 when 2 would hide that it differs from 1, 3 significant digits
/// outside [0.1, 100) (`979x`, not `979.19x` beside `1042x`).
pub(crate) fn ratio_value(x: f64) -> String {
    let Some(x) = finite(x).filter(|x| *x > 0.0) else {
        return MISSING.to_string();
    };
    if !(0.1..100.0).contains(&x) {
        return significant(x, 3);
    }
    let two = format!("{x:.2}");
    if two == "1.00" && x != 1.0 {
        format!("{x:.3}")
    } else {
        two
    }
}

/// A speedup: `1.23x`.
pub(crate) fn speedup(x: f64) -> String {
    let value = ratio_value(x);
    if value == MISSING {
        value
    } else {
        format!("{value}x")
    }
}

/// A speedup with its interval: `1.23x [1.19, 1.27]`; the interval is left out when it does not exist.
pub(crate) fn speedup_with_interval(x: f64, interval: Option<(f64, f64)>) -> String {
    match interval {
        Some((lower, upper)) => format!(
            "{} [{}, {}]",
            speedup(x),
            ratio_value(lower),
            ratio_value(upper)
        ),
        None => speedup(x),
    }
}

/// [`speedup_with_interval`] whose interval ends keep the digits that place them rightly against 1x, the
/// equivalence bounds 1/(1 + ε) and 1 + ε (`margin_pct` = ε in percent) and 1 − ε: `[0.9761, 1.02]`, not `[0.98,
/// 1.02]`, for an interval that reaches past −2 %, so that what is read agrees with the verdict and the
/// headline's "too noisy to show ±2%" (`docs/verdicts.md` §5).
pub(crate) fn speedup_with_interval_against(
    x: f64,
    interval: Option<(f64, f64)>,
    margin_pct: f64,
) -> String {
    // The bounds as they are, and 1 − ε, which a reader of "±2%" takes for the lower one.
    let marks = [
        1.0 - margin_pct / 100.0,
        1.0 / (1.0 + margin_pct / 100.0),
        1.0,
        1.0 + margin_pct / 100.0,
    ];
    match interval {
        Some((lower, upper)) => format!(
            "{} [{}, {}]",
            speedup(x),
            ratio_against(lower, &marks),
            ratio_against(upper, &marks)
        ),
        None => speedup(x),
    }
}

/// [`ratio_value`], with up to 4 decimals where 2 would misplace `x` against one of `marks` (read above a
/// mark it is below, or equal to one it is not).
fn ratio_against(x: f64, marks: &[f64]) -> String {
    let text = ratio_value(x);
    let placed = |text: &str| {
        text.parse::<f64>().is_ok_and(|read| {
            marks
                .iter()
                .all(|m| read.total_cmp(m) == x.total_cmp(m) || (read - x).abs() < 1e-12)
        })
    };
    if !(0.1..100.0).contains(&x) || placed(&text) {
        return text;
    }
    (3..=4)
        .map(|decimals| format!("{x:.decimals$}"))
        .find(|t| placed(t))
        .unwrap_or_else(|| format!("{x:.4}"))
}

/// An r-speedup, on paper 003's 0.01 grid: 2 decimals (3 significant digits at extreme magnitudes).
pub(crate) fn grid_speedup(x: f64) -> String {
    match finite(x).filter(|x| *x > 0.0) {
        Some(x) if (0.01..1e6).contains(&x) => format!("{x:.2}x"),
        Some(x) => format!("{}x", significant(x, 3)),
        None => MISSING.to_string(),
    }
}

/// A probability computed by a test, read as a confidence: `0.998`, `0.9998`, `> 0.999999`.
pub(crate) fn confidence(c: f64) -> String {
    let Some(c) = finite(c).filter(|c| (0.0..=1.0).contains(c)) else {
        return MISSING.to_string();
    };
    for decimals in 3..=6 {
        let text = format!("{c:.decimals$}");
        if c == 1.0 || !text.starts_with('1') {
            return text;
        }
    }
    "> 0.999999".to_string()
}

/// `Some(c)` for a probability: finite and within [0, 1].
fn probability(c: f64) -> Option<f64> {
    finite(c).filter(|c| (0.0..=1.0).contains(c))
}

/// A level as the user wrote it (`0.95`): shortest text; not a probability prints as missing.
pub(crate) fn level(c: f64) -> String {
    match probability(c) {
        Some(c) => format!("{c}"),
        None => MISSING.to_string(),
    }
}

/// The highest level paper 000's search tries: a result that passes there holds at this level or higher.
pub(crate) const GRID_TOP: f64 = 0.99;

/// A confidence level of paper 000's search grid (0.51..0.99): 2 decimals; the top of the grid, where the
/// search stops, as `>= 0.99` (a p-value of 1e-49 passes there too, and would read as merely 0.99).
pub(crate) fn grid_level(c: f64) -> String {
    match probability(c) {
        Some(c) if c >= GRID_TOP - 1e-9 => format!(">= {GRID_TOP:.2}"),
        Some(c) => format!("{c:.2}"),
        None => MISSING.to_string(),
    }
}

/// A fraction as a percent with 1 decimal: `15.6%` (3 significant digits at extreme magnitudes).
pub(crate) fn percent(fraction: f64) -> String {
    match finite(fraction * 100.0) {
        Some(p) if p.abs() < 1e9 => format!("{p:.1}%"),
        Some(p) => format!("{}%", significant(p, 3)),
        None => MISSING.to_string(),
    }
}

/// A fraction as a percent with `decimals` decimals, for the figures of `simulate`: its error rates with 2
/// (`0.0123` -> `1.23%`: they are small), its savings with 0 (`0.4` -> `40%`); [`MISSING`] when not finite.
pub(crate) fn percent_to(fraction: f64, decimals: usize) -> String {
    match finite(fraction * 100.0) {
        Some(p) => format!("{p:.decimals$}%"),
        None => MISSING.to_string(),
    }
}

/// `x` with `decimals` decimals, for a mean count (runs, steps, comparisons) or a confidence that `simulate`
/// prints: `12.35` for 12.3456 with 2; [`MISSING`] when not finite.
pub(crate) fn decimals(x: f64, decimals: usize) -> String {
    match finite(x) {
        Some(x) => format!("{x:.decimals$}"),
        None => MISSING.to_string(),
    }
}

/// A percentage as the user wrote it (the gate's threshold): shortest text, `5%`.
pub(crate) fn percent_value(pct: f64) -> String {
    match finite(pct) {
        Some(p) if p.abs() < 1e9 => format!("{p}%"),
        Some(p) => format!("{}%", significant(p, 3)),
        None => MISSING.to_string(),
    }
}

/// A number for machines (CSV): the shortest text that reads back to the same `f64`, empty when missing.
pub(crate) fn machine(x: Option<f64>) -> String {
    match finite_opt(x) {
        Some(x) => format!("{x:?}"),
        None => String::new(),
    }
}

/// `text` broken at spaces into lines of at most `width` terminal columns (a wide character counts two); a
/// continuation line is indented 4 more than the text's own leading spaces, and a word longer than a line
/// is cut. No line it makes begins with `::`, which a CI runner would read as a workflow command
/// (`crate::inert::line_start`: the first `:` is written `\u{3a}`). Without a width (or with an unusably
/// small one), the text as it is.
pub(crate) fn wrap(text: &str, width: Option<u16>) -> Vec<String> {
    use crate::inert::{line_start, width as columns};
    let Some(width) = width.map(usize::from).filter(|w| *w > 16) else {
        return vec![text.to_string()];
    };
    let body = text.trim_start();
    let lead = text.len() - body.len();
    let indent = " ".repeat((lead + 4).min(width / 2));
    let mut lines: Vec<String> = Vec::new();
    let mut current = " ".repeat(lead.min(width / 2));
    let mut has_word = false;
    for word in body.split_whitespace() {
        let used = columns(&current) + usize::from(has_word);
        let first = if has_word {
            std::borrow::Cow::Borrowed(word)
        } else {
            line_start(word)
        };
        if used + columns(&first) <= width {
            if has_word {
                current.push(' ');
            }
            current.push_str(&first);
            has_word = true;
            continue;
        }
        if has_word {
            lines.push(std::mem::replace(&mut current, indent.clone()));
        }
        // The word begins a line, and so does each piece it is cut into.
        let mut rest: String = line_start(word).into_owned();
        let mut at = 0;
        let mut used = columns(&current);
        while let Some(c) = rest[at..].chars().next() {
            let w = columns(c.encode_utf8(&mut [0; 4]));
            if used + w > width && used > columns(&indent) {
                lines.push(std::mem::replace(&mut current, indent.clone()));
                used = columns(&current);
                rest = line_start(&rest[at..]).into_owned();
                at = 0;
                continue;
            }
            current.push(c);
            used += w;
            at += c.len_utf8();
        }
        has_word = true;
    }
    if has_word || lines.is_empty() {
        lines.push(current);
    }
    lines
}

/// A number as `SpeedUpTest.sh` prints it (paper 000 §6.2.5): rounded to 3 decimals, trailing zeros and a
/// trailing point dropped (1.1297 → `1.13`, 1 → `1`); `NA` if not finite.
pub(crate) fn paper_number(x: f64) -> String {
    if !x.is_finite() {
        return "NA".to_string();
    }
    let text = format!("{x:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// A Unix time in seconds as the minute it falls in, UTC: `2026-11-26 04:55 UTC` (the civil date from
/// `civil_from_days`, so that no date crate is needed for one line of a report).
pub(crate) fn utc_minute(seconds: i64) -> String {
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let minute_of_day = seconds.rem_euclid(86_400) / 60;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        minute_of_day / 60,
        minute_of_day % 60
    )
}

/// The civil date (year, month, day) of a count of days since 1970-01-01, by H. Hinnant's
/// `civil_from_days`.
pub(crate) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulation_figures_round_to_their_decimals() {
        assert_eq!(percent_to(0.012345, 2), "1.23%");
        assert_eq!(percent_to(0.4049, 0), "40%");
        assert_eq!(percent_to(f64::NAN, 2), MISSING);
        assert_eq!(decimals(12.3456, 2), "12.35");
        assert_eq!(decimals(7.0, 1), "7.0");
        assert_eq!(decimals(0.98765432, 4), "0.9877");
        assert_eq!(decimals(f64::INFINITY, 2), MISSING);
    }

    #[test]
    fn utc_minutes_match_the_civil_calendar() {
        // Expected values from `date -u -d @SECONDS`.
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_minute(1_800_000_000), "2027-01-15 08:00 UTC");
        assert_eq!(utc_minute(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_minute(-86_400), "1969-12-31 00:00 UTC");
    }

    #[test]
    fn wrap_keeps_every_line_within_the_width_and_every_word() {
        let text = "  hint: run at least 31 samples with a_very_long_flag_name_that_cannot_fit_anywhere ok";
        let lines = wrap(text, Some(20));
        assert!(lines.len() > 3);
        assert!(lines[0].starts_with("  hint:"));
        for line in &lines {
            assert!(line.chars().count() <= 20, "{line:?}");
        }
        assert!(lines[1].starts_with("      ") && !lines[1].starts_with("       "));
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(lines.concat().replace(' ', ""), words.concat());
    }

    #[test]
    fn wrap_counts_columns_and_never_begins_a_line_with_a_workflow_command() {
        let text = "warning: a ::error::forged and x::::::::::::::::::::::::::::::::::::y 基准测试基准测试基准测试";
        let lines = wrap(text, Some(20));
        for line in &lines {
            assert!(crate::inert::width(line) <= 20, "{line:?}");
            assert!(!line.trim_start().starts_with("::"), "{line:?}");
        }
        assert!(
            lines
                .iter()
                .any(|l| l.trim_start().starts_with("\\u{3a}:error")),
            "{lines:?}"
        );
    }

    #[test]
    fn wrap_without_width_is_identity() {
        assert_eq!(wrap("a b  c", None), vec!["a b  c".to_string()]);
        assert_eq!(wrap("", Some(40)), vec![String::new()]);
    }

    #[test]
    fn times_have_four_significant_digits_in_the_given_unit() {
        assert_eq!(time(812.26, Unit::Ns), "812.3 ns");
        assert_eq!(time(91_200.0, Unit::Us), "91.20 µs");
        assert_eq!(time(1_234_567_890.0, Unit::S), "1.235 s");
        assert_eq!(time(12_345_678.0, Unit::Ns), "12345678 ns");
    }

    #[test]
    fn row_unit_is_readable_for_the_smaller_time() {
        assert_eq!(row_unit(2.5e6, 900_000.0), Unit::Us);
        assert_eq!(row_unit(f64::NAN, 3e9), Unit::S);
        assert_eq!(row_unit(f64::NAN, f64::NAN), Unit::Ns);
    }

    #[test]
    fn speedups_round_to_two_decimals_unless_that_hides_a_difference() {
        assert_eq!(speedup(1.2345), "1.23x");
        assert_eq!(speedup(1.004), "1.004x");
        assert_eq!(speedup(1.0), "1.00x");
        assert_eq!(speedup(0.0123), "0.0123x");
        assert_eq!(speedup(1234.5), "1234x");
        assert_eq!(speedup(979.19), "979x");
        assert_eq!(speedup(99.994), "99.99x");
    }

    #[test]
    fn extreme_magnitudes_use_scientific_notation() {
        assert_eq!(speedup(1.234e-7), "1.23e-7x");
        assert_eq!(time(3.0e15, Unit::Ns), "3.000e15 ns");
        assert_eq!(ratio_value(2.5e12), "2.50e12");
    }

    #[test]
    fn speedup_interval_is_bracketed() {
        assert_eq!(
            speedup_with_interval(1.23, Some((1.19, 1.27))),
            "1.23x [1.19, 1.27]"
        );
        // 0.9761 reads 0.98 at two decimals, inside ±2 % (0.9804): kept as 0.976; 1.0192 stays 1.02, which
        // is past 1.02 as read but 1.0192 is not: kept as 1.019. Far from every mark, two decimals.
        assert_eq!(
            speedup_with_interval_against(0.997, Some((0.9761, 1.0192)), 2.0),
            "0.997x [0.976, 1.019]"
        );
        assert_eq!(
            speedup_with_interval_against(1.23, Some((1.19, 1.27)), 2.0),
            "1.23x [1.19, 1.27]"
        );
        assert_eq!(speedup_with_interval(1.23, None), "1.23x");
    }

    #[test]
    fn confidence_never_rounds_up_to_one() {
        assert_eq!(confidence(0.99609375), "0.996");
        assert_eq!(confidence(1.0 - 1.0 / 4096.0), "0.9998");
        assert_eq!(confidence(1.0 - 1e-9), "> 0.999999");
        assert_eq!(confidence(1.0), "1.000");
        assert_eq!(confidence(0.5), "0.500");
    }

    #[test]
    fn non_finite_values_print_as_missing_never_nan() {
        for text in [
            time(f64::NAN, Unit::Ns),
            speedup(f64::INFINITY),
            speedup(-1.0),
            grid_speedup(f64::NAN),
            confidence(f64::NAN),
            confidence(1.5),
            level(f64::NEG_INFINITY),
            grid_level(f64::NAN),
            percent(f64::NAN),
            percent_value(f64::INFINITY),
        ] {
            assert_eq!(text, MISSING);
        }
        assert_eq!(machine(Some(f64::NAN)), "");
        assert_eq!(machine(None), "");
    }

    #[test]
    fn machine_numbers_read_back_exactly() {
        for x in [0.1, 1.0 / 3.0, 3.2557e-12, 812.0, 1e20] {
            assert_eq!(machine(Some(x)).parse::<f64>(), Ok(x));
        }
    }

    #[test]
    fn percents_and_levels() {
        assert_eq!(percent(0.1561178), "15.6%");
        assert_eq!(percent(-0.05), "-5.0%");
        assert_eq!(percent_value(5.0), "5%");
        assert_eq!(percent(1e300), "1.00e302%");
        assert_eq!(percent(1e308), MISSING);
        assert_eq!(level(1.5), MISSING);
        assert_eq!(level(0.95), "0.95");
        assert_eq!(grid_level(0.9), "0.90");
        assert_eq!(grid_level(0.98), "0.98");
        assert_eq!(grid_level(0.99), ">= 0.99");
        assert_eq!(grid_speedup(1.42), "1.42x");
    }
}
