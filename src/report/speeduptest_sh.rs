//! The four outputs of the `speeduptest` command, which reproduces SpeedUpTest.sh (paper 000's script), as
//! the script writes them (paper 000 §6.2.5 and the §6.3.2 example; `docs/speedup-test.md` §8): `.status`,
//! `.out` (CSV), `.warning` and `.report`.
//!
//! Numbers are rounded to 3 decimals with trailing zeros dropped (1.1297 → `1.13`, 1 → `1`), in [`super::format::paper_number`]
//! only. Paper warnings are printed verbatim; the paper's second line of W1/W3 is the warning's hint, so the
//! hint is printed for those and for the warnings this tool adds (reading problems, inapplicable tests), not
//! for W2, W4, W5 and W6 whose hints the paper does not print. Names and messages, which come from the
//! config, are written through `crate::inert`: the terminal rule in `.warning`, the CSV rule in `.out`.
//! This module renders text and does no I/O.

use std::fmt::Write as _;
use std::time::Duration;

use crate::protocol::speedup_test::{AnalysedRow, ConfigAnalysis, Level, RowResult};
use crate::protocol::{Direction, Proportion, Warning, WarningKind};

use super::format::paper_number;
use super::words;
use crate::inert::{self, csv_text};

/// The text of the four files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Outputs {
    /// `PREFIX.status`: errors, or the time the analysis took (§6.2.5).
    pub status: String,
    /// `PREFIX.out`: the 11-column CSV, one line per config row (`NA` where the samples are unavailable).
    pub out: String,
    /// `PREFIX.warning`: the warnings per benchmark and their count.
    pub warning: String,
    /// `PREFIX.report`: G and S per execution-time statistic, then the proportions for the mean and the
    /// median.
    pub report: String,
}

/// Renders every output; `config` names the config file as the paper's headers show it (`./bench.cfg`).
pub(crate) fn render(analysis: &ConfigAnalysis, config: &str, elapsed: Duration) -> Outputs {
    Outputs {
        status: status(elapsed),
        out: out(analysis),
        warning: warning(analysis, config),
        report: report(analysis, config),
    }
}

/// `.status`: on success, only the elapsed time (§6.2.5).
pub(crate) fn status(elapsed: Duration) -> String {
    format!("Elapsed time: {:.3} s\n", elapsed.as_secs_f64())
}

const HEADER: &str = "\"Name\", \"SpeedupMin\", \"SpeedupMean\", \"IsMeanSignificant\", \"MeanConfLevel\", \"SpeedupMedian\", \"IsMedianSignificant\", \"MedianConfLevel\", \"CoefMin\", \"CoefMean\", \"CoefMedian\"";

/// `.out`: the 11 columns, one line per config row; `NA` everywhere for a row whose samples are unavailable.
pub(crate) fn out(analysis: &ConfigAnalysis) -> String {
    let mut text = format!("{HEADER}\n");
    for row in &analysis.rows {
        // Always quoted, as the paper writes it; a name that would begin a formula begins with `'`.
        let name = format!("\"{}\"", csv_text(&row.name).replace('"', "\"\""));
        let fields = match &row.result {
            Some(r) => result_fields(r),
            None => vec!["NA".to_string(); 10],
        };
        let _ = writeln!(text, "{name}, {}", fields.join(", "));
    }
    text
}

fn result_fields(r: &RowResult) -> Vec<String> {
    let mean = decision(
        r.level,
        r.mean.p_value.is_some(),
        r.mean.direction,
        r.mean.confidence_level,
    );
    let median_applies = r.median.p_value.is_some();
    let median = decision(
        r.level,
        median_applies,
        r.median.direction,
        r.median.confidence_level,
    );
    vec![
        paper_number(r.speedup.min),
        paper_number(r.speedup.mean),
        mean.0,
        mean.1,
        paper_number(r.speedup.median),
        median.0,
        median.1,
        paper_number(r.coefficients[0]),
        paper_number(r.coefficients[1]),
        paper_number(r.coefficients[2]),
    ]
}

/// `IsSignificant` (a significant speedup, i.e. HEAD faster) and `ConfLevel` (the level decided at: the
/// searched one, or the fixed one); both `NA` when the test could not be computed.
fn decision(
    level: Level,
    applies: bool,
    direction: Option<Direction>,
    searched: Option<f64>,
) -> (String, String) {
    if !applies {
        return ("NA".into(), "NA".into());
    }
    let significant = if direction == Some(Direction::Faster) {
        "TRUE"
    } else {
        "FALSE"
    };
    let level = match level {
        Level::Fixed(c) => paper_number(c),
        Level::Search => searched.map_or("NA".into(), paper_number),
    };
    (significant.into(), level)
}

/// Whether the `.warning` file prints the hint of `w` (see the module doc).
fn prints_hint(w: &Warning) -> bool {
    matches!(
        w.kind,
        WarningKind::TooFewSamples | WarningKind::Input | WarningKind::Inapplicable
    )
}

fn write_warnings(text: &mut String, warnings: &[Warning]) {
    for w in warnings {
        let words = words::papers(w);
        let _ = writeln!(text, "{}", inert::terminal(&words.message));
        if let Some(hint) = words.hint.as_ref().filter(|_| prints_hint(w)) {
            let _ = writeln!(text, "{}", inert::terminal(hint));
        }
    }
}

/// `.warning`: a header, each benchmark with warnings as `<Name> :` and its warnings, then the count.
pub(crate) fn warning(analysis: &ConfigAnalysis, config: &str) -> String {
    let mut text = format!("Warnings regarding analysis of {config}\n");
    let mut count = 0;
    let rows = analysis.rows.iter().filter(|r| !r.warnings.is_empty());
    for AnalysedRow { name, warnings, .. } in rows {
        let _ = writeln!(text, "\n{} :", inert::terminal(name));
        write_warnings(&mut text, warnings);
        count += warnings.len();
    }
    if !analysis.warnings.is_empty() {
        text.push_str("\nAll benchmarks :\n");
        write_warnings(&mut text, &analysis.warnings);
        count += analysis.warnings.len();
    }
    let _ = writeln!(text, "\n{count} warning(s).");
    text
}

/// `.report`: overall gains and speedups, then the proportion blocks (§6.3.2).
pub(crate) fn report(analysis: &ConfigAnalysis, config: &str) -> String {
    let mut text = format!("Analysis report of {config}\n");
    let (Some(overall), Some(proportions)) = (&analysis.overall, &analysis.proportions) else {
        text.push_str("\nNo benchmark could be analysed: see the warnings.\n");
        return text;
    };
    for (et, g) in [
        ("min", overall.min),
        ("mean", overall.mean),
        ("median", overall.median),
    ] {
        let _ = write!(
            text,
            "\nOverall gain (ExecutionTime={et}) = {}\nOverall speedup (ExecutionTime={et}) = {}\n",
            paper_number(g.gain),
            paper_number(g.speedup)
        );
    }
    for (what, p) in [("mean", &proportions.mean), ("median", &proportions.median)] {
        text.push('\n');
        proportion_block(&mut text, what, p, analysis);
    }
    text
}

fn proportion_block(text: &mut String, what: &str, p: &Proportion, analysis: &ConfigAnalysis) {
    let (a, b) = (p.accelerated, p.total);
    let observed = a as f64 / b as f64;
    let _ = writeln!(
        text,
        "The observed proportion of accelerated benchmarks (speedup of the {what}) a/b = {a}/{b} = {}",
        paper_number(observed)
    );
    let _ = writeln!(
        text,
        "The confidence level for computing proportion confidence interval is {}.",
        paper_number(analysis.proportion_confidence)
    );
    let _ = writeln!(
        text,
        "Proportion confidence interval (speedup of the {what}) = [{}; {}]",
        paper_number(p.lower),
        paper_number(p.upper)
    );
    if !p.valid {
        text.push_str("Warning: this confidence interval of the proportion may not be accurate because the validity condition {a(1-a/b) > 5} is not satisfied.\n");
    }
    if let Some(minimal) = p.minimal_benchmarks {
        let _ = writeln!(
            text,
            "The minimal needed number of randomly selected benchmarks is {minimal} (in order to have a precision r={}).",
            paper_number(analysis.precision)
        );
    }
    text.push_str("Remark: The computed confidence interval of the proportion is invalid if b the experimented set of benchmarks is not randomly selected among a huge number of representative benchmarks.\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_to_three_decimals_without_trailing_zeros() {
        assert_eq!(paper_number(1.1297), "1.13");
        assert_eq!(paper_number(1.0), "1");
        assert_eq!(paper_number(4.861004), "4.861");
        assert_eq!(paper_number(0.76), "0.76");
        assert_eq!(paper_number(0.3707425), "0.371");
        assert_eq!(paper_number(-0.0001), "0");
        assert_eq!(paper_number(-1.5), "-1.5");
        assert_eq!(paper_number(f64::NAN), "NA");
        assert_eq!(paper_number(289.0), "289");
    }

    fn paper() -> ConfigAnalysis {
        use crate::protocol::speedup_test::{
            ConfigOptions, ConfigRow, WeightChoice, analyse_config,
        };
        use crate::testutil::protocol_cases::PAPER;
        let mut inputs: Vec<ConfigRow> = PAPER
            .iter()
            .enumerate()
            .map(|(i, (x, y))| ConfigRow {
                name: format!("b{i}"),
                samples: Some(crate::model::BaseHead::new(x.to_vec(), y.to_vec())),
                conf_level: None,
                coef: None,
                notes: vec![],
            })
            .collect();
        inputs.push(ConfigRow {
            name: "gone".into(),
            samples: None,
            conf_level: None,
            coef: None,
            notes: vec!["File 'g' is not readable".into()],
        });
        let options = ConfigOptions {
            conf_level: None,
            weight: WeightChoice::Custom,
            precision: 0.05,
        };
        analyse_config(&inputs, &options)
    }

    #[test]
    fn out_prints_the_eleven_columns_and_na_for_unavailable_rows() {
        let out = out(&paper());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0].split(", ").count(), 11);
        assert_eq!(
            lines[1],
            "\"b0\", 1.971, 1.276, FALSE, NA, 1.098, TRUE, 0.76, 1, 1, 1"
        );
        assert_eq!(lines[5], format!("\"gone\"{}", ", NA".repeat(10)));
    }

    #[test]
    fn warning_file_counts_every_warning_and_prints_paper_hints_only_for_w1_w3() {
        let text = warning(&paper(), "./c.cfg");
        assert!(text.starts_with("Warnings regarding analysis of ./c.cfg\n"));
        assert!(text.contains("\ngone :\nFile 'g' is not readable\n"));
        assert!(text.ends_with("\n4 warning(s).\n"));
        assert_eq!(text.matches("Please do more than 30").count(), 2);
        assert!(!text.contains("do more than 30 observations on each side"));
    }

    #[test]
    fn report_omits_the_minimal_b_line_when_every_benchmark_is_accelerated() {
        let text = report(&paper(), "./c.cfg");
        assert!(text.contains("a/b = 3/4 = 0.75\n"));
        assert!(text.contains("a/b = 4/4 = 1\n"));
        assert_eq!(text.matches("The minimal needed number").count(), 1);
        assert_eq!(text.matches("Remark: ").count(), 2);
    }
}
