//! [`RaceAnalysis`] -> bytes, in the four formats of the comparison reports: a table for people, JSON with
//! its own schema `cargo-speedup-race/1` (`docs/json.md` §7), Markdown for pull requests, and CSV with one
//! row per benchmark and revision.
//!
//! Like the other reports, these only present: the survivors, the pick and the suite's answer are the
//! analysis's. Revisions are named `r1`, `r2`, ... in columns, with a legend; in JSON they are indices
//! into `revisions`, counted from 0. Names and labels are written through `crate::inert`: the terminal
//! rule (names cut to the width) in the table, the Markdown rule, the CSV rule. A race of counts
//! (`--measure instructions`) says that its basis is exact counts, one run per revision, and shows each
//! revision's count (`docs/racing.md` §6.3).

use std::io::{self, Write};

use serde::Serialize;

use super::Format;
use super::Style;
use super::csv::quote;
use super::format::{self, finite_opt, machine};
use super::json::{WarningJson, warnings};
use super::markdown::{escape_name, escape_text};
use super::words::{self, Words};
use crate::inert::{self, csv_text};
use crate::protocol::Remedy;
use crate::protocol::race::{Entry, RaceAnalysis, RaceBenchmark, Stop};

/// A race measures its runs itself: the hints of its warnings may name its flags.
const RACE_REMEDY: Remedy = Remedy::RunHere;

/// The suite's answer in one line: the fastest revision and on what grounds, or that none is faster than
/// the first.
pub(crate) fn summary(analysis: &RaceAnalysis) -> String {
    let suite = &analysis.suite;
    let first = &analysis.revisions[0];
    let level = analysis.confidence.level();
    if analysis.counts_only() {
        return "no suite test: every benchmark is a count compared exactly, one run per revision (HPT ranks \
                no count); each benchmark's pick is its lowest count"
            .to_string();
    }
    let best = suite
        .versus_first
        .iter()
        .find(|v| v.revision == suite.fastest)
        .filter(|_| suite.faster > 0);
    let Some(v) = best else {
        return format!(
            "no revision is faster than {first} over the suite at confidence {level} (HPT)"
        );
    };
    let confidence = v.hpt.confidence.unwrap_or(level);
    let mut line = format!(
        "{} is the fastest: faster than {first} with confidence {confidence:.4} (HPT){}",
        analysis.revisions[v.revision],
        v.hpt
            .r_speedup
            .map(|r| format!(", {level}-speedup {r:.2}x"))
            .unwrap_or_default()
    );
    if suite.faster > 1 {
        line.push_str(&format!(
            "; {} revisions are faster than {first}, and this one has the largest r-speedup (they are not \
             tested against each other)",
            suite.faster
        ));
    }
    line
}

/// The schema name of the race JSON.
pub(crate) const SCHEMA: &str = "cargo-speedup-race/1";

/// Writes `analysis` in `format`.
pub(crate) fn render(
    analysis: &RaceAnalysis,
    format: Format,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Table => table(analysis, style, out),
        Format::Json => json(analysis, out),
        Format::Markdown => markdown(analysis, out),
        Format::Csv => csv(analysis, out),
        Format::Html => {
            let mut text = Vec::new();
            markdown(analysis, &mut text)?;
            let page =
                super::html::text_page("cargo-speedup race", &String::from_utf8_lossy(&text));
            out.write_all(page.as_bytes())
        }
        // One value per benchmark and pair of sides: `race` refuses these before it runs.
        Format::Bmf | Format::Gab => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "`race` writes no BMF or github-action-benchmark JSON",
        )),
    }
}

/// The fewest columns a benchmark's name keeps in the table, however narrow the terminal.
const MIN_NAME_COLUMNS: usize = 12;

/// `r1`, `r2`, ...: a revision's short name in columns.
fn short(i: usize) -> String {
    format!("r{}", i + 1)
}

fn survivors(b: &RaceBenchmark) -> String {
    let list: Vec<String> = (0..b.entries.len())
        .filter(|&i| b.entries[i].survivor)
        .map(short)
        .collect();
    list.join(" ")
}

/// A revision's cell: median, speedup against the first, runs; for a count, the count, its ratio to the
/// first's and its increase over the lowest count when it has one.
fn cell(i: usize, e: &Entry, b: &RaceBenchmark) -> String {
    if b.exact {
        return count_cell(i, e, b);
    }
    match e.median {
        None => format::MISSING.to_string(),
        Some(median) => {
            // A readable unit, as `compare` prints (not the benchmark's own nanoseconds).
            let time = format::time(median, format::row_unit(median, median));
            let speedup = e.speedup.map(format::speedup).unwrap_or_default();
            let fastest = e
                .p_fastest
                .and_then(format::finite)
                .map(|p| format!(", fastest {:.0}%", 100.0 * p))
                .unwrap_or_default();
            match i {
                0 => format!("{time} n={}{fastest}", e.runs),
                _ => format!("{time} {speedup} n={}{fastest}", e.runs),
            }
        }
    }
}

/// A count's cell: `20064`, `20064 1.00x` against r1, `40064 0.50x, +99.7 % over the lowest`.
fn count_cell(i: usize, e: &Entry, b: &RaceBenchmark) -> String {
    let Some(count) = e.median else {
        return format::MISSING.to_string();
    };
    let mut text = format::time(count, b.unit);
    if i > 0 {
        let speedup = e.speedup.map(format::speedup).unwrap_or_default();
        text.push_str(&format!(" {speedup}"));
    }
    let lowest = b.entries[b.pick].median.unwrap_or(count);
    if count > lowest && lowest > 0.0 {
        let increase = (count / lowest - 1.0) * 100.0;
        text.push_str(&format!(
            ", +{} % over the lowest",
            format::significant(increase, 3)
        ));
    }
    text
}

fn outcome(stop: Stop) -> &'static str {
    match stop {
        Stop::Open => "inconclusive (limit reached)",
        other => other.as_str(),
    }
}

/// The first lines of the human reports: what was raced, how.
fn preamble(analysis: &RaceAnalysis) -> Vec<String> {
    let exact = format!(
        "a count more than {t} % above the benchmark's lowest is eliminated, the counts within {t} % of it are \
         equivalent (--threshold), the lowest wins when every other is more than {t} % above it",
        t = analysis.threshold_pct
    );
    let first = if analysis.counts_only() {
        format!(
            "Race of {} revisions on exact counts, one run per revision, no test: {exact}; ratios against \
             r1.",
            analysis.revisions.len()
        )
    } else if analysis.benchmarks.iter().any(|b| b.exact) {
        format!(
            "{} Counts are compared exactly, one run per revision: {exact}.",
            tested(analysis)
        )
    } else {
        tested(analysis)
    };
    let mut lines = vec![first];
    lines.extend(
        analysis
            .revisions
            .iter()
            .enumerate()
            .map(|(i, label)| format!("  {}  {label}", short(i))),
    );
    lines
}

/// The first sentence of a race of times: the risk, the looks, ε.
fn tested(analysis: &RaceAnalysis) -> String {
    format!(
        "Race of {} revisions at confidence {}: each loser and equivalence test at alpha / (looks x \
         (revisions - 1)), {} looks; equivalence within ±{} %; speedups against r1; \"fastest\": the chance \
         that one run of the revision beats one run of every other (paper 001's I3).",
        analysis.revisions.len(),
        analysis.confidence.level(),
        analysis.looks,
        analysis.equivalence_pct
    )
}

fn table(analysis: &RaceAnalysis, style: Style, out: &mut dyn Write) -> io::Result<()> {
    for line in preamble(analysis) {
        writeln!(out, "{}", inert::terminal(&line))?;
    }
    writeln!(out)?;
    let mut header: Vec<String> = vec!["benchmark".into()];
    header.extend((0..analysis.revisions.len()).map(short));
    header.extend(["outcome", "pick", "survivors"].map(String::from));
    let mut rows = vec![header];
    for b in &analysis.benchmarks {
        let mut row = vec![inert::terminal(&b.name)];
        row.extend(b.entries.iter().enumerate().map(|(i, e)| cell(i, e, b)));
        row.extend([outcome(b.stop).into(), short(b.pick), survivors(b)]);
        rows.push(row);
    }
    let mut widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| inert::width(&r[c])).max().unwrap_or(0))
        .collect();
    // Names are cut to the room the other columns leave, so that a long name cannot widen every line.
    if let Some(room) = style.width.map(usize::from) {
        let others = widths[1..].iter().sum::<usize>() + 2 * (widths.len() - 1);
        widths[0] = widths[0].min(room.saturating_sub(others).max(MIN_NAME_COLUMNS));
    }
    for row in &rows {
        let padded: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(text, &w)| {
                let text = inert::cut(text, w);
                let pad = w.saturating_sub(inert::width(&text));
                format!("{text}{}", " ".repeat(pad))
            })
            .collect();
        writeln!(out, "{}", padded.join("  ").trim_end())?;
    }
    writeln!(out)?;
    writeln!(out, "Suite: {}", inert::terminal(&summary(analysis)))?;
    for v in &analysis.suite.versus_first {
        writeln!(out, "  {} vs r1: {}", short(v.revision), versus(v))?;
    }
    for w in &analysis.warnings {
        let Words { message, hint } = words::ours(w, RACE_REMEDY);
        let message = inert::terminal(&message);
        for line in format::wrap(&format!("warning: {message}"), style.width) {
            writeln!(out, "{line}")?;
        }
        if let Some(hint) = &hint {
            writeln!(out, "  hint: {}", inert::terminal(hint))?;
        }
    }
    Ok(())
}

/// HPT of one revision against the first, in words; no direction word at a confidence of 0.5 or below
/// (`docs/verdicts.md` §1).
fn versus(v: &crate::protocol::race::VersusFirst) -> String {
    let direction = match (v.hpt.direction, finite_opt(v.hpt.confidence)) {
        (Some(d), Some(c)) if c > 0.5 => d.as_str(),
        _ => "no direction",
    };
    let confidence = finite_opt(v.hpt.confidence)
        .map(|c| format!(", confidence {}", format::confidence(c)))
        .unwrap_or_default();
    let r = finite_opt(v.hpt.r_speedup)
        .map(|r| format!(", r-speedup {}", format::speedup(r)))
        .unwrap_or_default();
    format!(
        "{direction}{confidence}{r} (HPT over {} benchmarks)",
        v.benchmarks
    )
}

fn markdown(analysis: &RaceAnalysis, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## cargo-speedup race\n")?;
    let lines = preamble(analysis);
    writeln!(out, "{}\n", escape_text(&lines[0]))?;
    for (i, label) in analysis.revisions.iter().enumerate() {
        writeln!(out, "- **{}**: {}", short(i), escape_text(label))?;
    }
    writeln!(out)?;
    let revisions: Vec<String> = (0..analysis.revisions.len()).map(short).collect();
    writeln!(
        out,
        "| benchmark | {} | outcome | pick | survivors |",
        revisions.join(" | ")
    )?;
    writeln!(out, "|---|{}---|---|---|", "---:|".repeat(revisions.len()))?;
    for b in &analysis.benchmarks {
        let cells: Vec<String> = b
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| escape_text(&cell(i, e, b)))
            .collect();
        writeln!(
            out,
            "| {} | {} | {} | **{}** | {} |",
            escape_name(&b.name),
            cells.join(" | "),
            outcome(b.stop),
            short(b.pick),
            survivors(b)
        )?;
    }
    writeln!(out, "\n**Suite:** {}\n", escape_text(&summary(analysis)))?;
    for v in &analysis.suite.versus_first {
        writeln!(out, "- {} vs r1: {}", short(v.revision), versus(v))?;
    }
    if !analysis.warnings.is_empty() {
        writeln!(out)?;
        for w in &analysis.warnings {
            let Words { message, hint } = words::ours(w, RACE_REMEDY);
            let hint = hint
                .map(|h| format!("<br>hint: {}", escape_text(&h)))
                .unwrap_or_default();
            writeln!(out, "- ⚠ {}{hint}", escape_text(&message))?;
        }
    }
    Ok(())
}

const CSV_HEADER: [&str; 11] = [
    "name",
    "unit",
    "revision",
    "label",
    "runs",
    "median",
    "speedup",
    "survivor",
    "pick",
    "outcome",
    "p_fastest",
];

/// One row per benchmark and revision (a long table: the columns do not depend on the number of
/// revisions); `revision` counts from 1 like `r1`, `pick` says whether this revision is the benchmark's
/// pick; the median is in the row's unit.
fn csv(analysis: &RaceAnalysis, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", CSV_HEADER.join(","))?;
    for b in &analysis.benchmarks {
        for (i, e) in b.entries.iter().enumerate() {
            let fields = [
                quote(&csv_text(&b.name)),
                b.unit.as_str().to_string(),
                (i + 1).to_string(),
                quote(&csv_text(&analysis.revisions[i])),
                e.runs.to_string(),
                machine(e.median.map(|m| m / b.unit.nanos())),
                machine(e.speedup),
                e.survivor.to_string(),
                (b.pick == i).to_string(),
                b.stop.as_str().to_string(),
                machine(e.p_fastest),
            ];
            writeln!(out, "{}", fields.join(","))?;
        }
    }
    Ok(())
}

type Num = Option<f64>;

#[derive(Serialize)]
struct RaceJson<'a> {
    schema: &'static str,
    confidence: Num,
    equivalence_pct: Num,
    looks: u32,
    /// The tolerance of the counts, in percent: only when the race has counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    threshold_pct: Num,
    revisions: &'a [String],
    benchmarks: Vec<BenchmarkJson<'a>>,
    suite: SuiteJson,
    warnings: Vec<WarningJson>,
}

#[derive(Serialize)]
struct BenchmarkJson<'a> {
    name: &'a str,
    unit: &'static str,
    outcome: &'static str,
    pick: usize,
    survivors: Vec<usize>,
    comparison_alpha: Num,
    /// `"exact"` for a count, one run per revision, decided without tests; absent for times.
    #[serde(skip_serializing_if = "Option::is_none")]
    basis: Option<&'static str>,
    revisions: Vec<EntryJson>,
}

#[derive(Serialize)]
struct EntryJson {
    runs: usize,
    median: Num,
    speedup: Num,
    survivor: bool,
    /// Paper 001's I3: P[one run of this revision beats one run of every other].
    p_fastest: Num,
}

#[derive(Serialize)]
struct SuiteJson {
    /// `null` in a race of counts only, which has no suite test.
    fastest: Option<usize>,
    summary: String,
    versus_first: Vec<VersusJson>,
}

#[derive(Serialize)]
struct VersusJson {
    revision: usize,
    benchmarks: usize,
    direction: Option<&'static str>,
    confidence: Num,
    r_speedup: Num,
}

fn json(analysis: &RaceAnalysis, out: &mut dyn Write) -> io::Result<()> {
    let report = RaceJson {
        schema: SCHEMA,
        confidence: format::finite(analysis.confidence.level()),
        equivalence_pct: format::finite(analysis.equivalence_pct),
        looks: analysis.looks,
        threshold_pct: analysis
            .benchmarks
            .iter()
            .any(|b| b.exact)
            .then(|| format::finite(analysis.threshold_pct))
            .flatten(),
        revisions: &analysis.revisions,
        benchmarks: analysis
            .benchmarks
            .iter()
            .map(|b| BenchmarkJson {
                name: &b.name,
                unit: b.unit.as_str(),
                outcome: b.stop.as_str(),
                pick: b.pick,
                survivors: (0..b.entries.len())
                    .filter(|&i| b.entries[i].survivor)
                    .collect(),
                comparison_alpha: finite_opt(b.comparison_alpha),
                basis: b.exact.then_some("exact"),
                revisions: b
                    .entries
                    .iter()
                    .map(|e| EntryJson {
                        runs: e.runs,
                        median: finite_opt(e.median.map(|m| m / b.unit.nanos())),
                        speedup: finite_opt(e.speedup),
                        survivor: e.survivor,
                        p_fastest: finite_opt(e.p_fastest),
                    })
                    .collect(),
            })
            .collect(),
        suite: SuiteJson {
            fastest: (!analysis.counts_only()).then_some(analysis.suite.fastest),
            summary: summary(analysis),
            versus_first: analysis
                .suite
                .versus_first
                .iter()
                .map(|v| VersusJson {
                    revision: v.revision,
                    benchmarks: v.benchmarks,
                    direction: v.hpt.direction.map(|d| d.as_str()),
                    confidence: finite_opt(v.hpt.confidence),
                    r_speedup: finite_opt(v.hpt.r_speedup),
                })
                .collect(),
        },
        warnings: warnings(&analysis.warnings, RACE_REMEDY),
    };
    crate::inert::write_json(&mut *out, &report)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Results, Run, Runs, Sample, Unit};
    use crate::protocol::race::{RaceOptions, race};

    fn results(origin: &str, level: f64) -> Results {
        let runs = (0..5)
            .map(|i| {
                let v = level * (1.0 + f64::from(i) * 0.001);
                Run::new(Sample::new(vec![v], Unit::Ns).unwrap(), None)
            })
            .collect();
        Results {
            origin: origin.into(),
            benchmarks: vec![Benchmark {
                name: "spin|x".into(),
                runs: Runs::new(runs).unwrap(),
                unit: Unit::Us,
                counters: Vec::new(),
            }],
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    fn analysis() -> RaceAnalysis {
        let all = [
            results("a", 3000.0),
            results("b", 1000.0),
            results("c", 3010.0),
        ];
        let labels = ["a (1)", "b (2)", "c, (3)"].map(String::from).to_vec();
        let options = RaceOptions::new(
            &crate::protocol::Options::defaults(crate::protocol::FailOn::None),
            crate::model::Design::measured(3),
        );
        race(&all, &labels, &options)
    }

    fn rendered(format: Format) -> String {
        let mut out = Vec::new();
        render(&analysis(), format, Style::plain(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_json_names_its_schema_the_pick_and_the_survivors() {
        let value: serde_json::Value = serde_json::from_str(&rendered(Format::Json)).unwrap();
        assert_eq!(value["schema"], SCHEMA);
        let b = &value["benchmarks"][0];
        assert_eq!(
            (b["pick"].as_u64(), b["outcome"].as_str()),
            (Some(1), Some("winner"))
        );
        assert_eq!(b["survivors"], serde_json::json!([1]));
        // Medians in the benchmark's unit (µs): 3000 ns is 3 µs.
        assert_eq!(b["unit"], "us");
        assert!((b["revisions"][0]["median"].as_f64().unwrap() - 3.006).abs() < 1e-9);
        assert!((b["revisions"][1]["speedup"].as_f64().unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(value["revisions"][2], "c, (3)");
    }

    #[test]
    fn the_csv_has_one_row_per_benchmark_and_revision() {
        let text = rendered(Format::Csv);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], CSV_HEADER.join(","));
        assert_eq!(lines.len(), 4);
        assert!(lines[2].starts_with("spin|x,us,2,b (2),5,"), "{}", lines[2]);
        // Every run of r2 beats every run of the others: I3 = 1.
        assert!(lines[2].ends_with(",true,true,winner,1.0"), "{}", lines[2]);
        assert!(lines[3].contains(",\"c, (3)\","), "{}", lines[3]);
    }

    #[test]
    fn table_and_markdown_show_the_pick_and_the_legend() {
        let table = rendered(Format::Table);
        assert!(table.contains("  r2  b (2)"), "{table}");
        let row = table.lines().find(|l| l.starts_with("spin|x")).unwrap();
        assert!(row.contains("3.00x") && row.contains("winner"), "{row}");
        assert!(
            row.trim_end().ends_with("r2    r2") || row.contains("winner  r2"),
            "{row}"
        );
        let markdown = rendered(Format::Markdown);
        assert!(markdown.contains("| spin\\|x |"), "{markdown}");
        assert!(markdown.contains("| **r2** |"), "{markdown}");
    }

    /// Three revisions' instruction counts of one benchmark, the third 0.5 % above the others, at
    /// `--threshold 0`.
    fn counted() -> RaceAnalysis {
        static INSTRUCTIONS: crate::model::Counted = crate::model::Counted {
            name: "instructions",
            slug: "instructions",
        };
        let count = |origin: &str, value: f64| {
            let unit = Unit::Count(&INSTRUCTIONS);
            Results {
                origin: origin.into(),
                benchmarks: vec![Benchmark {
                    name: "spin (instructions)".into(),
                    runs: Runs::new(vec![Run::new(
                        Sample::new(vec![value], unit).unwrap(),
                        None,
                    )])
                    .unwrap(),
                    unit,
                    counters: Vec::new(),
                }],
                environment: Default::default(),
                notes: vec![],
                left_out: vec![],
            }
        };
        let all = [
            count("a", 20064.0),
            count("b", 20064.0),
            count("c", 20166.0),
        ];
        let labels = ["a", "b", "c"].map(String::from).to_vec();
        let options = RaceOptions::new(
            &crate::protocol::Options::defaults(crate::protocol::FailOn::None),
            crate::model::Design::measured(1),
        );
        race(&all, &labels, &options)
    }

    fn rendered_counts(format: Format) -> String {
        let mut out = Vec::new();
        render(&counted(), format, Style::plain(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_race_of_counts_states_its_basis_and_each_count() {
        let table = rendered_counts(Format::Table);
        assert!(
            table.starts_with(
                "Race of 3 revisions on exact counts, one run per revision, no test: a count more than 0 % \
                 above the benchmark's lowest is eliminated"
            ),
            "{table}"
        );
        // 20166 / 20064 = 1.005084: +0.508 % over the lowest; 20064 / 20166 = 0.99494 against r1.
        let row = table.lines().find(|l| l.starts_with("spin")).unwrap();
        assert!(
            row.contains(
                "20064  20064 1.00x  20166 0.99x, +0.508 % over the lowest  equivalent  r1    r1 r2"
            ),
            "{row}"
        );
        assert!(
            table.contains("Suite: no suite test: every benchmark is a count compared exactly"),
            "{table}"
        );
        let value: serde_json::Value =
            serde_json::from_str(&rendered_counts(Format::Json)).unwrap();
        assert_eq!(value["threshold_pct"], 0.0);
        assert_eq!(value["suite"]["fastest"], serde_json::Value::Null);
        let b = &value["benchmarks"][0];
        assert_eq!(
            (b["basis"].as_str(), b["unit"].as_str()),
            (Some("exact"), Some("instructions"))
        );
        assert_eq!(b["comparison_alpha"], serde_json::Value::Null);
        assert_eq!(b["survivors"], serde_json::json!([0, 1]));
        assert_eq!(b["revisions"][2]["median"], 20166.0);
        assert_eq!(b["revisions"][2]["p_fastest"], serde_json::Value::Null);
        let markdown = rendered_counts(Format::Markdown);
        assert!(
            markdown.contains("on exact counts, one run per revision"),
            "{markdown}"
        );
        let csv = rendered_counts(Format::Csv);
        assert!(
            csv.lines()
                .nth(3)
                .is_some_and(|l| l == "spin (instructions),instructions,3,c,1,20166.0,0.9949419815531092,false,false,equivalent,"),
            "{csv}"
        );
    }

    #[test]
    fn a_race_of_times_says_nothing_of_counts() {
        let value: serde_json::Value = serde_json::from_str(&rendered(Format::Json)).unwrap();
        assert!(value.get("threshold_pct").is_none(), "{value}");
        assert!(value["benchmarks"][0].get("basis").is_none(), "{value}");
        // One benchmark: HPT cannot show r2 faster over the suite, so the first is the answer.
        assert_eq!(value["suite"]["fastest"], 0);
    }

    #[test]
    fn the_html_page_holds_the_markdown_escaped() {
        let page = rendered(Format::Html);
        assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
        assert!(page.contains("<pre class=\"scroll\">"), "{page}");
        assert!(page.contains("| spin\\|x |"), "{page}");
        assert!(!page.contains("<script"));
    }
}
