//! The CSV report: a header row, then one row per benchmark, for spreadsheets and scripts. Suite-level
//! results (HPT, overall, proportions, gate) are not rows of benchmarks and are left to the JSON.
//!
//! Text cells (names, messages) begin with a `'` when they would otherwise begin a spreadsheet formula
//! (`crate::inert::csv_text`, OWASP's rule); numeric cells are written as they are, a leading `-` being a
//! negative number. Fields are quoted as RFC 4180 says (a field holding a comma, a double quote, CR or LF is enclosed in
//! double quotes, with inner quotes doubled); records end with LF, as Unix tools expect, rather than RFC
//! 4180's CRLF. Numbers are written as the shortest text that reads back to the same `f64`
//! ([`super::format::machine`]); a missing or non-finite number is an empty field. Times (and the shift and
//! HPT difference) are in the row's `unit`, like the JSON.

use std::io::{self, Write};

use super::format::machine;
use super::{Render, Style, benchmark_warnings, words};
use crate::inert::csv_text;
use crate::protocol::{BenchmarkAnalysis, Direction, Remedy};

/// The CSV report.
#[derive(Debug, Clone, Copy, Default)]
pub struct CsvReport;

const HEADER: [&str; 34] = [
    "name",
    "unit",
    "verdict",
    "base_n",
    "base_min",
    "base_mean",
    "base_median",
    "head_n",
    "head_min",
    "head_mean",
    "head_median",
    "speedup_min",
    "speedup_mean",
    "speedup_median",
    "speedup_median_lower",
    "speedup_median_upper",
    "mean_verdict",
    "mean_p_value",
    "mean_method",
    "mean_confidence_level",
    "shapiro_p_value_base",
    "shapiro_p_value_head",
    "variance_p_value",
    "median_verdict",
    "median_p_value",
    "ks_p_value",
    "median_confidence_level",
    "p_head_faster",
    "shift_estimate",
    "shift_lower",
    "shift_upper",
    "hpt_difference",
    "hpt_winner",
    "warnings",
];

impl Render for CsvReport {
    fn render(
        &self,
        analysis: &crate::protocol::Analysis,
        _style: Style,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(out, "{}", HEADER.join(","))?;
        for b in &analysis.benchmarks {
            let fields: Vec<String> = row(b, analysis.remedy).iter().map(|f| quote(f)).collect();
            writeln!(out, "{}", fields.join(","))?;
        }
        // Not run (BASE and HEAD built the same executable): the verdict and why, no statistics.
        for name in &analysis.identical {
            let mut fields = vec![String::new(); HEADER.len()];
            fields[0] = quote(&csv_text(name));
            fields[2] = "unchanged".into();
            fields[HEADER.len() - 1] = "identical executables: not run".into();
            writeln!(out, "{}", fields.join(","))?;
        }
        Ok(())
    }
}

fn row(b: &BenchmarkAnalysis, remedy: Remedy) -> Vec<String> {
    let time = |nanos: f64| machine(Some(nanos / b.unit.nanos()));
    let interval = b.median_test.speedup_interval;
    let shift = b.median_test.shift;
    let mut fields = vec![
        csv_text(&b.name).into_owned(),
        b.unit.as_str().into(),
        b.verdict.as_str().into(),
    ];
    for side in [&b.base, &b.head] {
        fields.push(side.n.to_string());
        fields.extend([side.min, side.mean, side.median].map(time));
    }
    fields.extend([b.speedup.min, b.speedup.mean, b.speedup.median].map(|x| machine(Some(x))));
    fields.push(machine(interval.map(|i| i.0)));
    fields.push(machine(interval.map(|i| i.1)));
    let mean = &b.mean_test;
    // "no difference" where the t-test found none: "unchanged" is only ever an equivalence.
    fields.push(if mean.found_no_difference() {
        super::NO_DIFFERENCE.into()
    } else {
        mean.verdict().as_str().into()
    });
    fields.push(machine(mean.p_value));
    fields.push(mean.method.map_or("", |m| m.as_str()).into());
    fields.push(machine(mean.confidence_level));
    fields.push(machine(mean.shapiro_p_values.base));
    fields.push(machine(mean.shapiro_p_values.head));
    fields.push(machine(mean.variance_p_value));
    let median = &b.median_test;
    fields.push(b.verdict.as_str().into());
    fields.extend(
        [
            median.p_value,
            median.ks_p_value,
            median.confidence_level,
            median.p_head_faster,
        ]
        .map(machine),
    );
    match shift {
        Some(s) => fields.extend([s.estimate, s.lower, s.upper].map(time)),
        None => fields.extend([String::new(), String::new(), String::new()]),
    }
    fields.push(time(b.hpt.difference));
    fields.push(b.hpt.winner.map_or("tie", Direction::as_str).into());
    let messages: Vec<String> = benchmark_warnings(b)
        .map(|w| words::ours(w, remedy).message)
        .collect();
    fields.push(csv_text(&messages.join("; ")).into_owned());
    fields
}

/// RFC 4180: a field with a comma, a double quote, CR or LF is enclosed in double quotes, inner quotes
/// doubled; any other field is written as it is. A field that begins with `::` (after white space) is
/// quoted too, which changes nothing for a CSV reader but keeps a line of the report from reading as a
/// GitHub workflow command when the CSV is printed to a CI log.
pub(crate) fn quote(field: &str) -> String {
    if field.contains([',', '"', '\r', '\n']) || field.trim_start().starts_with("::") {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(quote("plain/name"), "plain/name");
        assert_eq!(quote("a,b"), "\"a,b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote("two\nlines"), "\"two\nlines\"");
        assert_eq!(quote("::error::x"), "\"::error::x\"");
        assert_eq!(quote("crate::bench"), "crate::bench");
    }

    #[test]
    fn every_row_has_as_many_fields_as_the_header() {
        for (name, analysis) in crate::report::sample::all() {
            for b in &analysis.benchmarks {
                assert_eq!(
                    row(b, analysis.remedy).len(),
                    HEADER.len(),
                    "{name}: {}",
                    b.name
                );
            }
        }
    }
}
