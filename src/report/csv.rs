//! The CSV report: a header row, then one row per benchmark, for spreadsheets and scripts. Suite-level
//! results (HPT, overall, proportions, gate) are not rows of benchmarks and are left to the JSON.
//!
//! Text cells (names, messages) begin with a `'` when they would otherwise begin a spreadsheet formula
//! (`crate::inert::csv_text`, OWASP's rule); numeric cells are written as they are, a leading `-` being a
//! negative number. Fields are quoted as RFC 4180 says (a field holding a comma, a double quote, CR or LF is enclosed in
//! double quotes, with inner quotes doubled); records end with LF, as Unix tools expect, rather than RFC
//! 4180's CRLF. Numbers are written as the shortest text that reads back to the same `f64`
//! ([`super::format::machine`]); a missing or non-finite number is an empty field. Times (and the shift and
//! HPT difference) are in the row's `unit`, like the JSON. The columns and their values are
//! `FIELDS` in `report::columns`; this file only writes them.
//!
//! Why no `csv` crate: its writer was weighed in this file's place and writes the same bytes but for one
//! rule. It quotes by one style for the whole writer (`QuoteStyle::Necessary` quotes what [`quote`] quotes
//! for RFC 4180) and cannot quote one field more, so a name that begins with `::` would begin a line of the
//! report printed to a CI log, where GitHub reads it as a workflow command (`docs/security.md`): [`quote`]
//! would stay beside it, and the crate would replace a `join(",")`. The formula guard (`csv_text`) is the
//! sink's either way. Its cost, measured on a 2-core machine that others loaded (load average 20 to 24),
//! each build twice: a clean release build of csv 1.4.0 and csv-core 0.1.13 with their dependencies (itoa,
//! ryu, memchr and serde_core, which this crate has already) took 57.2 s and 55.3 s, and they added 41 KB
//! to a release binary that wrote one record; in this crate, writing the rows through it grew the release
//! binary by 26 KB (7,318,416 to 7,344,736 bytes), and the crate's own release build took 215 s, against
//! 268 s and 234 s without it just before and after, within the load's noise. The cost is modest; the
//! reason to keep this writer is the rule the crate cannot keep.

use std::io::{self, Write};

use super::columns::FIELDS;
use super::{Render, Style};
use crate::inert::csv_text;
use crate::protocol::{BenchmarkAnalysis, Remedy};

/// The CSV report.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CsvReport;

impl Render for CsvReport {
    fn render(
        &self,
        analysis: &crate::protocol::Analysis,
        _style: Style,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let header: Vec<&str> = FIELDS.iter().map(|f| f.header).collect();
        writeln!(out, "{}", header.join(","))?;
        for b in &analysis.benchmarks {
            let fields: Vec<String> = row(b, analysis.remedy).iter().map(|f| quote(f)).collect();
            writeln!(out, "{}", fields.join(","))?;
        }
        // Not run (BASE and HEAD built the same executable): the verdict and why, no statistics.
        for name in &analysis.identical {
            let fields: Vec<String> = FIELDS
                .iter()
                .map(|f| match f.header {
                    "name" => quote(&csv_text(name)),
                    "verdict" => "unchanged".into(),
                    "warnings" => "identical executables: not run".into(),
                    _ => String::new(),
                })
                .collect();
            writeln!(out, "{}", fields.join(","))?;
        }
        Ok(())
    }
}

/// The fields of `b`'s row, the text ones guarded against formulas, before quoting; its warnings worded
/// with `remedy`.
fn row(b: &BenchmarkAnalysis, remedy: Remedy) -> Vec<String> {
    FIELDS
        .iter()
        .map(|f| {
            let value = f.value(b, remedy);
            if f.text {
                csv_text(&value).into_owned()
            } else {
                value
            }
        })
        .collect()
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
        for (name, analysis) in crate::testutil::analyses::all() {
            for b in &analysis.benchmarks {
                assert_eq!(
                    row(b, analysis.remedy).len(),
                    FIELDS.len(),
                    "{name}: {}",
                    b.name
                );
            }
        }
    }
}
