//! The report of `cargo speedup bisect --each`: one bisection per benchmark shown changed from GOOD to BAD,
//! each rendered as [`super`] renders one, under its benchmark's name. JSON: one object of schema
//! `cargo-speedup-bisect/1` with `"each": true` and `benchmarks`, the array of the per-benchmark objects
//! (`docs/json.md` §10); CSV: the one-bisection columns after a `benchmark` column.
//!
//! Only presents: which benchmarks were bisected, and every step, are `app::bisect`'s and
//! `protocol::bisect`'s. Benchmark names are written through `crate::inert`, as subjects are.

use std::io::{self, Write};

use serde::Serialize;

use super::bisection::{Bisection, comparison_level};
use super::json::{BisectJson, SCHEMA, json_report};
use super::text::{CSV_HEADER, csv_rows, markdown_body, table};
use crate::inert::{self, csv_text};
use crate::protocol::Direction;
use crate::report::csv::quote;
use crate::report::format::finite;
use crate::report::markdown::escape_text;
use crate::report::{Format, Style};

/// The bisections of `--each`, ready to render.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Each {
    /// The change sought.
    pub direction: Direction,
    /// `--threshold`, in percent.
    pub threshold_pct: f64,
    /// The confidence stated for each commit named (each benchmark's search on its own).
    pub confidence: f64,
    /// The confidence each comparison was made at.
    pub comparison_confidence: f64,
    /// The comparisons each search's error was budgeted over.
    pub budgeted: u32,
    /// The benchmarks compared from GOOD to BAD.
    pub compared: usize,
    /// GOOD's and BAD's shas.
    pub ends: (String, String),
    /// One bisection per benchmark shown changed from GOOD to BAD, in the comparison's order.
    pub bisections: Vec<(String, Bisection)>,
}

impl Each {
    /// The report's first sentence: which benchmarks were bisected, or that none shows the change.
    pub(crate) fn summary(&self) -> String {
        let short = |sha: &str| sha.chars().take(10).collect::<String>();
        if self.bisections.is_empty() {
            return format!(
                "Nothing to bisect: no benchmark of BAD ({}) is shown {} than GOOD ({}) at confidence {} \
                 ({} compared).",
                short(&self.ends.1),
                self.direction.as_str(),
                short(&self.ends.0),
                comparison_level(self.comparison_confidence),
                self.compared
            );
        }
        let names: Vec<String> = self
            .bisections
            .iter()
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        format!(
            "{} of the {} benchmarks compared are shown {} from GOOD ({}) to BAD ({}), each bisected on \
             its own: {}.",
            self.bisections.len(),
            self.compared,
            self.direction.as_str(),
            short(&self.ends.0),
            short(&self.ends.1),
            names.join(", ")
        )
    }
}

/// Writes `each` in `format`.
pub(crate) fn render(
    each: &Each,
    format: Format,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Table => {
            writeln!(out, "{}", inert::terminal(&each.summary()))?;
            for (name, b) in &each.bisections {
                writeln!(out, "\nbenchmark `{}`:", inert::terminal(name))?;
                table(b, style, out)?;
            }
            Ok(())
        }
        Format::Json => json(each, out),
        Format::Markdown => markdown(each, out),
        Format::Csv => {
            writeln!(out, "benchmark,{CSV_HEADER}")?;
            for (name, b) in &each.bisections {
                csv_rows(b, &format!("{},", quote(&csv_text(name))), out)?;
            }
            Ok(())
        }
        Format::Html => {
            let mut text = Vec::new();
            markdown(each, &mut text)?;
            let page = crate::report::html::text_page(
                "cargo-speedup bisect",
                &String::from_utf8_lossy(&text),
            );
            out.write_all(page.as_bytes())
        }
        Format::Bmf | Format::Gab => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a bisection has no BMF or github-action-benchmark form",
        )),
    }
}

fn markdown(each: &Each, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "### cargo speedup bisect --each\n")?;
    writeln!(out, "{}", escape_text(&each.summary()))?;
    for (name, b) in &each.bisections {
        writeln!(out, "\n#### {}\n", escape_text(&format!("`{name}`")))?;
        markdown_body(b, out)?;
    }
    Ok(())
}

#[derive(Serialize)]
struct EachJson<'a> {
    schema: &'static str,
    each: bool,
    direction: &'static str,
    threshold_pct: Option<f64>,
    confidence: Option<f64>,
    comparison_confidence: Option<f64>,
    budgeted_comparisons: u32,
    outcome: &'static str,
    compared: usize,
    summary: String,
    benchmarks: Vec<BisectJson<'a>>,
}

fn json(each: &Each, out: &mut dyn Write) -> io::Result<()> {
    let report = EachJson {
        schema: SCHEMA,
        each: true,
        direction: each.direction.as_str(),
        threshold_pct: finite(each.threshold_pct),
        confidence: finite(each.confidence),
        comparison_confidence: finite(each.comparison_confidence),
        budgeted_comparisons: each.budgeted,
        outcome: if each.bisections.is_empty() {
            "nothing-to-bisect"
        } else {
            "each"
        },
        compared: each.compared,
        summary: each.summary(),
        benchmarks: each
            .bisections
            .iter()
            .map(|(name, b)| {
                let mut report: BisectJson<'_> = json_report(b);
                report.benchmark = Some(name);
                report
            })
            .collect(),
    };
    crate::inert::write_json(&mut *out, &report)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::bisection::bisection;

    fn each(bisections: Vec<(String, Bisection)>) -> Each {
        Each {
            direction: Direction::Slower,
            threshold_pct: 0.0,
            confidence: 0.95,
            comparison_confidence: 0.99,
            budgeted: 5,
            compared: 3,
            ends: (format!("{:040}", 1), format!("{:040}", 4)),
            bisections,
        }
    }

    #[test]
    fn the_json_is_one_object_with_an_array_of_per_benchmark_bisections() {
        let report = each(vec![
            ("a".into(), bisection()),
            ("b|<c>".into(), bisection()),
        ]);
        let mut out = Vec::new();
        render(&report, Format::Json, Style::plain(), &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-bisect/1");
        assert_eq!(value["each"], true);
        assert_eq!(value["outcome"], "each");
        assert_eq!(value["compared"], 3);
        let benchmarks = value["benchmarks"].as_array().unwrap();
        assert_eq!(benchmarks.len(), 2);
        assert_eq!(benchmarks[0]["benchmark"], "a");
        assert_eq!(benchmarks[1]["benchmark"], "b|<c>");
        assert_eq!(benchmarks[1]["outcome"], "named");
        assert_eq!(benchmarks[1]["named"], 2);
        assert_eq!(
            value["summary"],
            "2 of the 3 benchmarks compared are shown slower from GOOD (0000000000) to BAD (0000000000), \
             each bisected on its own: `a`, `b|<c>`."
        );
        // The one-bisection JSON has no `benchmark` field.
        let mut out = Vec::new();
        crate::report::bisect::render(&bisection(), Format::Json, Style::plain(), &mut out)
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert!(value.get("benchmark").is_none(), "{value}");
    }

    #[test]
    fn no_benchmark_changed_is_nothing_to_bisect_and_csv_and_markdown_name_each_benchmark() {
        let mut out = Vec::new();
        render(&each(vec![]), Format::Json, Style::plain(), &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["outcome"], "nothing-to-bisect");
        assert_eq!(value["benchmarks"].as_array().map(Vec::len), Some(0));
        assert!(
            value["summary"]
                .as_str()
                .unwrap()
                .starts_with("Nothing to bisect: no benchmark of BAD (0000000000) is shown slower"),
            "{value}"
        );
        let report = each(vec![("a".into(), bisection()), ("=b".into(), bisection())]);
        let mut out = Vec::new();
        render(&report, Format::Csv, Style::plain(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = text.lines().collect();
        assert!(rows[0].starts_with("benchmark,index,sha,"), "{text}");
        // Two bisections of GOOD and 3 commits: 8 rows.
        assert_eq!(rows.len(), 9, "{text}");
        assert!(rows[1].starts_with("a,0,"), "{text}");
        assert!(!rows[5].starts_with('='), "{text}");
        let mut out = Vec::new();
        render(&report, Format::Markdown, Style::plain(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\n#### `a`\n"), "{text}");
        assert_eq!(text.matches("| # | commit |").count(), 2, "{text}");
    }
}
