//! [`Bisection`] -> bytes: a table for people, JSON with its own schema `cargo-speedup-bisect/1`
//! (`docs/json.md` §10), Markdown for pull requests, CSV with one row per commit of the path, and HTML with
//! the chart of the speedup along the range (`html.rs`); `--each` reports one per benchmark (`each.rs`).
//!
//! Like the other reports, these only present: each step's conclusion is `protocol::bisect`'s. Commit
//! subjects are written through `crate::inert` (the terminal rule, the Markdown rule, the CSV rule).

pub(crate) mod each;
pub(crate) mod html;

use std::io::{self, Write};

use serde::Serialize;

use super::csv::quote;
use super::format::{self, finite, finite_opt};
use super::markdown::escape_text;
use super::{Format, Style};
use crate::inert::{self, csv_text};
use crate::protocol::bisect::{Evidence, MoreSteps, Step};
use crate::protocol::{Direction, Verdict};

/// The schema name of the bisection JSON.
pub(crate) const SCHEMA: &str = "cargo-speedup-bisect/1";

/// One commit of the path searched, GOOD first and BAD last.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PathEntry {
    /// Its full sha.
    pub sha: String,
    /// Its subject line.
    pub subject: String,
    /// What was measured of it; `None` for a commit the search did not reach (and for GOOD).
    pub measured: Option<Measurement>,
}

/// What the bisection measured of one commit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Measurement {
    /// Its speedup against GOOD (above 1: faster than GOOD), when one was estimated.
    pub speedup: Option<f64>,
    /// The interval of `speedup` at the comparison's confidence, when there is one.
    pub interval: Option<(f64, f64)>,
    /// Its verdict against GOOD; `None` when it was not compared with GOOD (a skipped commit).
    pub against_good: Option<Verdict>,
    /// BAD's verdict against it, when that comparison was made.
    pub against_bad: Option<Verdict>,
    /// Its executables were identical to GOOD's (or BAD's): nothing was run for it.
    pub identical: bool,
    /// The step's conclusion; `None` for BAD, which the initial check compared with GOOD.
    pub step: Option<Step>,
}

impl Measurement {
    /// A commit skipped (it did not build, or its benchmarks failed): nothing measured.
    pub(crate) fn skipped() -> Measurement {
        Measurement {
            speedup: None,
            interval: None,
            against_good: None,
            against_bad: None,
            identical: false,
            step: Some(Step::Skipped),
        }
    }
}

/// The named commit's own change: it against its parent on the path, one comparison more, made as the
/// others but outside the error budget (a description, `docs/bisect.md` §4).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NamedChange {
    /// The parent's index in the path (the last commit known like GOOD; 0 is GOOD itself).
    pub parent: usize,
    /// The named commit's speedup over its parent (above 1: faster).
    pub speedup: Option<f64>,
    /// The interval of `speedup` at the comparison's confidence, when there is one.
    pub interval: Option<(f64, f64)>,
    /// The named commit's verdict against its parent.
    pub verdict: Verdict,
    /// Their executables were identical: nothing ran.
    pub identical: bool,
}

/// How the bisection ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ending {
    /// GOOD against BAD does not show the change sought: nothing to bisect.
    NothingToBisect,
    /// The commit at this index of the path is the first like BAD after one like GOOD.
    Named(usize),
    /// The search stopped with this interval of the path (last like GOOD, first like BAD), for the reason
    /// given.
    Interval {
        /// The last commit known like GOOD.
        good: usize,
        /// The first commit known like BAD.
        bad: usize,
        /// Why the search stopped there.
        why: String,
    },
}

/// A bisection, ready to render.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bisection {
    /// The change sought.
    pub direction: Direction,
    /// `--threshold`, in percent: the smallest change that counts.
    pub threshold_pct: f64,
    /// The confidence stated for the commit named.
    pub confidence: f64,
    /// The confidence each comparison was made at (Bonferroni over the comparisons budgeted).
    pub comparison_confidence: f64,
    /// The comparisons the error was budgeted over.
    pub budgeted: u32,
    /// The comparisons made.
    pub comparisons: u32,
    /// GOOD, then the first-parent path to BAD.
    pub path: Vec<PathEntry>,
    /// How it ended.
    pub ending: Ending,
    /// Commits left out because they did not build or their benchmarks failed, with why.
    pub skipped: Vec<(usize, String)>,
    /// The named commit against its parent; `None` when none was named, or when `--budget` was spent.
    pub named_change: Option<NamedChange>,
    /// Two measured commits that show more than one step on the path (`protocol::bisect::more_steps`).
    pub more_steps: Option<MoreSteps>,
}

impl Bisection {
    pub(super) fn short(&self, index: usize) -> String {
        self.path[index].sha.chars().take(10).collect()
    }

    /// The report's first sentence: the commit named, the interval left, or nothing to bisect; then, when
    /// the measured commits show more than one step, what shows it.
    pub(crate) fn summary(&self) -> String {
        match self.steps_sentence() {
            Some(more) => format!("{} {more}", self.ending_sentence()),
            None => self.ending_sentence(),
        }
    }

    /// Where a commit is, in words: `commit 8 (0000000008)`, or `BAD`.
    fn commit_words(&self, index: usize) -> String {
        if index == self.path.len() - 1 {
            format!("BAD ({})", self.short(index))
        } else {
            format!("commit {index} ({})", self.short(index))
        }
    }

    /// A commit's speedup against GOOD with its interval, or its verdict when no speedup was estimated.
    fn level_words(&self, index: usize) -> String {
        let m = self.path[index].measured.as_ref();
        let verdict = m.and_then(|m| m.against_good).map_or("", Verdict::as_str);
        match m.and_then(|m| m.speedup.map(|s| (s, m.interval))) {
            Some((s, interval)) if m.is_some_and(|m| !m.identical) => format!(
                "{} against GOOD, {verdict}",
                format::speedup_with_interval(s, interval)
            ),
            _ if m.is_some_and(|m| m.identical) => "identical to GOOD".into(),
            _ => verdict.to_string(),
        }
    }

    /// The sentence saying that the measured commits show more than one step, and what shows it.
    fn steps_sentence(&self) -> Option<String> {
        let more = self.more_steps?;
        let (earlier, later) = (
            self.commit_words(more.earlier),
            self.commit_words(more.later),
        );
        let evidence = match more.evidence {
            Evidence::Opposite | Evidence::Undone | Evidence::Levels => format!(
                "{earlier} is {} and {later} {}",
                self.level_words(more.earlier),
                self.level_words(more.later)
            ),
            Evidence::Back => format!(
                "BAD is shown {} than {earlier}",
                self.direction.opposite().as_str()
            ),
        };
        let tail = match self.ending {
            Ending::Named(_) => {
                "the commit named is the first step the search found, not the whole change"
            }
            _ => "no one commit explains the whole change",
        };
        Some(format!(
            "The measured commits show more than one step: {evidence}; {tail}."
        ))
    }

    fn ending_sentence(&self) -> String {
        let change = match self.direction {
            Direction::Slower => "slowdown",
            Direction::Faster => "speed-up",
        };
        let last = self.path.len() - 1;
        match &self.ending {
            Ending::NothingToBisect => format!(
                "Nothing to bisect: BAD ({}) is not shown {} than GOOD ({}) at confidence {}.",
                self.short(last),
                self.direction.as_str(),
                self.short(0),
                comparison_level(self.comparison_confidence)
            ),
            Ending::Named(index) => format!(
                "The {change} came with {} \"{}\" (commit {index} of {last} after GOOD), at confidence {}.",
                self.short(*index),
                self.path[*index].subject,
                format::level(self.confidence),
            ),
            Ending::Interval { good, bad, why } => format!(
                "The {change} came with one of the {} commits after {} up to {} (commits {} to {bad} of \
                 {last}): {why}.",
                bad - good,
                self.short(*good),
                self.short(*bad),
                good + 1,
            ),
        }
    }

    /// The named commit's own change beside its change against GOOD: `Against its parent 0000000001
    /// (commit 1): 0.50x [0.48, 0.52], slower; against GOOD: 0.50x.`; `None` when it was not measured.
    pub(crate) fn named_change_line(&self) -> Option<String> {
        let (Ending::Named(named), Some(change)) = (&self.ending, &self.named_change) else {
            return None;
        };
        let own = match change.speedup {
            _ if change.identical => "identical executables".to_string(),
            Some(s) => format::speedup_with_interval(s, change.interval),
            None => "no estimate".to_string(),
        };
        let against_good = self.path[*named]
            .measured
            .as_ref()
            .and_then(|m| {
                m.speedup
                    .map(|s| format::speedup_with_interval(s, m.interval))
            })
            .unwrap_or_else(|| "no estimate".into());
        let parent = if change.parent == 0 {
            "GOOD".to_string()
        } else {
            format!("commit {}", change.parent)
        };
        Some(format!(
            "Against its parent {} ({parent}): {own}, {}; against GOOD: {against_good}.",
            self.short(change.parent),
            change.verdict.as_str(),
        ))
    }

    fn role(&self, index: usize) -> &'static str {
        if index == 0 {
            "GOOD"
        } else if index == self.path.len() - 1 {
            "BAD"
        } else {
            ""
        }
    }
}

/// A per-comparison confidence, cut (never rounded up) to 4 decimals: `0.9928`.
pub(crate) fn comparison_level(c: f64) -> String {
    format!("{:.4}", (c * 1e4).floor() / 1e4)
}

fn step_text(m: &Measurement) -> String {
    let step = m.step.map(Step::as_str).unwrap_or("");
    if m.identical {
        format!("{step} (identical executables)")
    } else {
        step.to_string()
    }
}

/// Writes `bisection` in `format`.
pub(crate) fn render(
    bisection: &Bisection,
    format: Format,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Table => table(bisection, style, out),
        Format::Json => json(bisection, out),
        Format::Markdown => markdown(bisection, out),
        Format::Csv => csv(bisection, out),
        Format::Html => out.write_all(html::page(bisection).as_bytes()),
        // `app::bisect` refuses them before anything runs.
        Format::Bmf | Format::Gab => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a bisection has no BMF or github-action-benchmark form",
        )),
    }
}

fn speedup_text(m: &Measurement) -> String {
    m.speedup.map_or_else(String::new, format::speedup)
}

pub(super) fn table(b: &Bisection, style: Style, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", inert::terminal(&b.summary()))?;
    if let Some(line) = b.named_change_line() {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:>4}  {:<10}  {:<4}  {:>9}  {:<12}  {:<12}  {:<33}  subject",
        "#", "commit", "", "vs GOOD", "verdict", "BAD vs it", "step"
    )?;
    let subject_width = style
        .width
        .map_or(60, |w| usize::from(w).saturating_sub(103).max(20));
    for (i, entry) in b.path.iter().enumerate() {
        let (speedup, verdict, against_bad, step) = match &entry.measured {
            Some(m) => (
                speedup_text(m),
                m.against_good.map_or("", Verdict::as_str),
                m.against_bad.map_or("", Verdict::as_str),
                step_text(m),
            ),
            None => (String::new(), "", "", String::new()),
        };
        writeln!(
            out,
            "{i:>4}  {:<10}  {:<4}  {speedup:>9}  {verdict:<12}  {against_bad:<12}  {step:<33}  {}",
            b.short(i),
            b.role(i),
            inert::cut(&inert::terminal(&entry.subject), subject_width)
        )?;
    }
    for (i, why) in &b.skipped {
        writeln!(
            out,
            "\nskipped {} (commit {i}): {}",
            b.short(*i),
            inert::terminal(why)
        )?;
    }
    writeln!(
        out,
        "\nSearched the first-parent path from GOOD to BAD; each comparison at confidence {} \
         (Bonferroni over {} comparisons), {} made.",
        comparison_level(b.comparison_confidence),
        b.budgeted,
        b.comparisons
    )
}

fn markdown(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "### cargo speedup bisect\n")?;
    markdown_body(b, out)
}

/// The Markdown report below its heading.
pub(super) fn markdown_body(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}\n", escape_text(&b.summary()))?;
    if let Some(line) = b.named_change_line() {
        writeln!(out, "{}\n", escape_text(&line))?;
    }
    writeln!(
        out,
        "| # | commit | | speedup vs GOOD | verdict vs GOOD | BAD vs it | step | subject |"
    )?;
    writeln!(out, "|--:|---|---|--:|---|---|---|---|")?;
    for (i, entry) in b.path.iter().enumerate() {
        let cells = entry
            .measured
            .as_ref()
            .map_or((String::new(), "", "", String::new()), |m| {
                (
                    speedup_text(m),
                    m.against_good.map_or("", Verdict::as_str),
                    m.against_bad.map_or("", Verdict::as_str),
                    step_text(m),
                )
            });
        writeln!(
            out,
            "| {i} | `{}` | {} | {} | {} | {} | {} | {} |",
            b.short(i),
            b.role(i),
            cells.0,
            cells.1,
            cells.2,
            cells.3,
            escape_text(&entry.subject)
        )?;
    }
    for (i, why) in &b.skipped {
        writeln!(
            out,
            "\nSkipped `{}` (commit {i}): {}",
            b.short(*i),
            escape_text(why)
        )?;
    }
    writeln!(
        out,
        "\nFirst-parent path from GOOD to BAD; each comparison at confidence {} (Bonferroni over {} \
         comparisons), {} made.",
        comparison_level(b.comparison_confidence),
        b.budgeted,
        b.comparisons
    )
}

/// The CSV header's columns.
pub(super) const CSV_HEADER: &str = "index,sha,role,speedup_vs_good,verdict_vs_good,bad_vs_it,identical,\
                                     step,subject,speedup_vs_parent,speedup_vs_parent_low,\
                                     speedup_vs_parent_high,verdict_vs_parent";

fn csv(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    csv_rows(b, "", out)
}

/// One CSV row per commit of the path, each after `prefix` (the benchmark's cell and a comma under
/// `--each`, else nothing).
pub(super) fn csv_rows(b: &Bisection, prefix: &str, out: &mut dyn Write) -> io::Result<()> {
    let number = |x: Option<f64>| x.and_then(finite).map_or(String::new(), |s| s.to_string());
    for (i, entry) in b.path.iter().enumerate() {
        let m = entry.measured.as_ref();
        let change = b
            .named_change
            .as_ref()
            .filter(|_| b.ending == Ending::Named(i));
        writeln!(
            out,
            "{prefix}{i},{},{},{},{},{},{},{},{},{},{},{},{}",
            entry.sha,
            b.role(i),
            number(m.and_then(|m| m.speedup)),
            m.and_then(|m| m.against_good).map_or("", Verdict::as_str),
            m.and_then(|m| m.against_bad).map_or("", Verdict::as_str),
            m.is_some_and(|m| m.identical),
            m.and_then(|m| m.step).map_or("", Step::as_str),
            quote(&csv_text(&entry.subject)),
            number(change.and_then(|c| c.speedup)),
            number(change.and_then(|c| c.interval).map(|i| i.0)),
            number(change.and_then(|c| c.interval).map(|i| i.1)),
            change.map_or("", |c| c.verdict.as_str()),
        )?;
    }
    Ok(())
}

/// The JSON object of one bisection.
#[derive(Serialize)]
pub(super) struct BisectJson<'a> {
    schema: &'static str,
    direction: &'static str,
    threshold_pct: Option<f64>,
    confidence: Option<f64>,
    comparison_confidence: Option<f64>,
    budgeted_comparisons: u32,
    comparisons: u32,
    outcome: &'static str,
    named: Option<usize>,
    interval: Option<(usize, usize)>,
    reason: Option<&'a str>,
    summary: String,
    path: Vec<CommitJson<'a>>,
    named_change: Option<NamedChangeJson>,
    more_steps: Option<MoreStepsJson>,
    /// The benchmark followed, under `--each` only (left out otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) benchmark: Option<&'a str>,
}

#[derive(Serialize)]
struct MoreStepsJson {
    earlier: usize,
    later: usize,
    evidence: &'static str,
}

#[derive(Serialize)]
struct NamedChangeJson {
    parent: usize,
    speedup: Option<f64>,
    interval: Option<(f64, f64)>,
    verdict: &'static str,
    identical: bool,
}

#[derive(Serialize)]
struct CommitJson<'a> {
    sha: &'a str,
    subject: &'a str,
    measured: bool,
    speedup: Option<f64>,
    verdict: Option<&'static str>,
    bad_verdict: Option<&'static str>,
    identical: bool,
    step: Option<&'static str>,
    skipped: Option<&'a str>,
    interval: Option<(f64, f64)>,
}

/// An interval whose two ends are finite, else `None` (JSON has no infinity).
fn finite_interval(interval: Option<(f64, f64)>) -> Option<(f64, f64)> {
    interval.and_then(|(low, high)| Some((finite(low)?, finite(high)?)))
}

fn json(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    crate::inert::write_json(&mut *out, &json_report(b))?;
    writeln!(out)
}

/// The JSON object of `b`.
pub(super) fn json_report(b: &Bisection) -> BisectJson<'_> {
    let (outcome, named, interval, reason) = match &b.ending {
        Ending::NothingToBisect => ("nothing-to-bisect", None, None, None),
        Ending::Named(i) => ("named", Some(*i), None, None),
        Ending::Interval { good, bad, why } => {
            ("interval", None, Some((*good, *bad)), Some(why.as_str()))
        }
    };
    BisectJson {
        schema: SCHEMA,
        direction: b.direction.as_str(),
        threshold_pct: finite(b.threshold_pct),
        confidence: finite(b.confidence),
        comparison_confidence: finite(b.comparison_confidence),
        budgeted_comparisons: b.budgeted,
        comparisons: b.comparisons,
        outcome,
        named,
        interval,
        reason,
        summary: b.summary(),
        path: b
            .path
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let m = e.measured.as_ref();
                CommitJson {
                    sha: &e.sha,
                    subject: &e.subject,
                    measured: m.is_some(),
                    speedup: finite_opt(m.and_then(|m| m.speedup)),
                    verdict: m.and_then(|m| m.against_good).map(Verdict::as_str),
                    bad_verdict: m.and_then(|m| m.against_bad).map(Verdict::as_str),
                    identical: m.is_some_and(|m| m.identical),
                    step: m.and_then(|m| m.step).map(Step::as_str),
                    skipped: b
                        .skipped
                        .iter()
                        .find(|(s, _)| *s == i)
                        .map(|(_, why)| why.as_str()),
                    interval: finite_interval(m.and_then(|m| m.interval)),
                }
            })
            .collect(),
        named_change: b.named_change.as_ref().map(|c| NamedChangeJson {
            parent: c.parent,
            speedup: finite_opt(c.speedup),
            interval: finite_interval(c.interval),
            verdict: c.verdict.as_str(),
            identical: c.identical,
        }),
        more_steps: b.more_steps.map(|m| MoreStepsJson {
            earlier: m.earlier,
            later: m.later,
            evidence: m.evidence.as_str(),
        }),
        benchmark: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::bisection::bisection;

    #[test]
    fn the_summary_names_the_commit_with_its_subject_and_confidence() {
        assert_eq!(
            bisection().summary(),
            "The slowdown came with 0000000000 \"slow down\" (commit 2 of 3 after GOOD), at confidence \
             0.95."
        );
    }

    #[test]
    fn the_json_has_its_schema_the_named_commit_and_each_step() {
        let mut out = Vec::new();
        json(&bisection(), &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-bisect/1");
        assert_eq!(value["outcome"], "named");
        assert_eq!(value["named"], 2);
        assert_eq!(value["path"][1]["identical"], true);
        assert_eq!(value["path"][1]["step"], "like-good");
        assert_eq!(value["path"][2]["verdict"], "slower");
        assert_eq!(value["path"][2]["speedup"], 0.5);
        assert_eq!(value["path"][0]["measured"], false);
    }

    #[test]
    fn the_table_lists_every_commit_with_its_step_and_an_interval_says_why() {
        let mut b = bisection();
        b.ending = Ending::Interval {
            good: 1,
            bad: 3,
            why: "the step at 0000000000 stayed undecided".into(),
        };
        b.path[2].measured.as_mut().unwrap().step = Some(Step::Undecided);
        let mut out = Vec::new();
        table(&b, Style::plain(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "The slowdown came with one of the 2 commits after 0000000000 up to 0000000000 (commits 2 to \
             3 of 3): the step at 0000000000 stayed undecided."
        );
        assert!(lines[3].starts_with("   0  0000000000  GOOD"), "{text}");
        assert!(
            lines[4].contains("like-good (identical executables)"),
            "{text}"
        );
        assert!(lines[5].contains("0.50x  slower"), "{text}");
        assert!(lines[5].contains("undecided"), "{text}");
        assert!(lines[6].starts_with("   3  0000000000  BAD"), "{text}");
    }

    #[test]
    fn the_named_commit_is_reported_against_its_parent_beside_against_good() {
        let mut b = bisection();
        b.path[2].measured.as_mut().unwrap().interval = Some((0.45, 0.55));
        b.named_change = Some(NamedChange {
            parent: 1,
            speedup: Some(0.52),
            interval: Some((0.5, 0.54)),
            verdict: Verdict::Slower,
            identical: false,
        });
        assert_eq!(
            b.named_change_line().unwrap(),
            "Against its parent 0000000000 (commit 1): 0.52x [0.50, 0.54], slower; against GOOD: 0.50x \
             [0.45, 0.55]."
        );
        let mut out = Vec::new();
        table(&b, Style::plain(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text.lines().nth(1),
            Some(
                "Against its parent 0000000000 (commit 1): 0.52x [0.50, 0.54], slower; against GOOD: \
                 0.50x [0.45, 0.55]."
            ),
            "{text}"
        );
        let mut out = Vec::new();
        json(&b, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["named_change"]["parent"], 1);
        assert_eq!(value["named_change"]["speedup"], 0.52);
        assert_eq!(value["named_change"]["interval"][1], 0.54);
        assert_eq!(value["named_change"]["verdict"], "slower");
        assert_eq!(value["path"][2]["interval"][0], 0.45);
        let mut out = Vec::new();
        csv(&b, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = text.lines().collect();
        assert!(rows[0].ends_with(",verdict_vs_parent"), "{text}");
        assert!(rows[3].ends_with(",0.52,0.5,0.54,slower"), "{text}");
        assert!(rows[2].ends_with(",,,,"), "{text}");
        // Not named: no line.
        b.ending = Ending::NothingToBisect;
        assert_eq!(b.named_change_line(), None);
    }

    #[test]
    fn the_summary_says_when_the_measured_commits_show_more_than_one_step() {
        let mut b = bisection();
        b.path[3].measured.as_mut().unwrap().speedup = Some(0.7);
        b.path[3].measured.as_mut().unwrap().interval = Some((0.68, 0.72));
        b.path[2].measured.as_mut().unwrap().interval = Some((0.48, 0.52));
        b.more_steps = Some(MoreSteps {
            earlier: 2,
            later: 3,
            evidence: Evidence::Levels,
        });
        assert_eq!(
            b.summary(),
            "The slowdown came with 0000000000 \"slow down\" (commit 2 of 3 after GOOD), at confidence \
             0.95. The measured commits show more than one step: commit 2 \
             (0000000000) is 0.50x [0.48, 0.52] against GOOD, slower and BAD (0000000000) 0.70x [0.68, \
             0.72] against GOOD, slower; the commit named is the first step the search found, not the \
             whole change."
        );
        let mut out = Vec::new();
        json(&b, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["more_steps"]["earlier"], 2);
        assert_eq!(value["more_steps"]["later"], 3);
        assert_eq!(value["more_steps"]["evidence"], "levels");
        b.more_steps = Some(MoreSteps {
            earlier: 1,
            later: 3,
            evidence: Evidence::Back,
        });
        b.ending = Ending::Interval {
            good: 1,
            bad: 3,
            why: "the step at 0000000000 stayed undecided".into(),
        };
        assert!(
            b.summary().ends_with(
                ": the step at 0000000000 stayed undecided. The measured commits show more than one \
                 step: BAD is shown faster than commit 1 (0000000000); no one commit explains the whole \
                 change."
            ),
            "{}",
            b.summary()
        );
    }

    #[test]
    fn markdown_keeps_subjects_inert() {
        let mut out = Vec::new();
        markdown(&bisection(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("<b>"), "{text}");
        assert!(
            text.contains("| 2 | `0000000000` |  | 0.50x | slower |"),
            "{text}"
        );
    }
}
