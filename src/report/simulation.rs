//! The figures of `cargo speedup simulate` -> text or JSON, for its three designs (`SimulationDesign`):
//!
//! - two versions: per setting (true change), one row per plan with its wrong "faster", wrong "slower" and
//!   wrong "unchanged" rates, correct decisions, inconclusive ones, mean runs per side and the saving
//!   against the fixed plan of 10 runs; then the saving on a mix of the settings in equal shares. JSON
//!   `"schema": "cargo-speedup-simulation/1"`;
//! - `--versions R`: one row per plan with its failure rate (picks worse than the true best by θ or more),
//!   mean runs per version, the saving against the constant plan that first fails in under 1 % of the
//!   problems, the problems it ended at its cap, and those whose truly fastest version it eliminated. JSON
//!   `"schema": "cargo-speedup-simulation-versions/1"`;
//! - `--bisect N`: per setting (true slowdown), the share of bisections that named the right commit, a
//!   wrong one, stopped with an interval, or stopped at the initial check, with the mean steps,
//!   comparisons and runs per side. JSON `"schema": "cargo-speedup-bisect-simulation/1"` (`docs/usage.md`
//!   §10).
//!
//! Each design's table is data (a header and rows of text) laid out by one function, `grid`; JSON goes
//! through private wire structs. It only presents what the tallies hold; no figure is computed here beyond
//! a share of counts and a mean, and every figure is rounded by `format.rs`.

use comfy_table::{CellAlignment, LineStyle, Table, TableStyle};
use serde::Serialize;

use super::format;
use crate::simulation::harness::{Kind, Setting, Tally};

/// The JSON schema of the two-version simulation output.
pub(crate) const SCHEMA: &str = "cargo-speedup-simulation/1";
/// The JSON schema of the several-version simulation output.
pub(crate) const VERSIONS_SCHEMA: &str = "cargo-speedup-simulation-versions/1";
/// The JSON schema of the bisection simulation's output.
pub(crate) const BISECT_SCHEMA: &str = "cargo-speedup-bisect-simulation/1";
/// The failure rate the reference constant plan of a race of several versions must stay under (paper
/// 002's "first point with a mean failure rate < 1 %").
pub(crate) const TARGET_FAILURE: f64 = 0.01;

/// A plan with the name and the sentence the output shows for it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NamedPlan {
    /// The plan's short name, as the table's row label (e.g. "fixed 10").
    pub name: String,
    /// One sentence saying what the plan does.
    pub description: String,
    /// The most runs (per side, or per version) the plan can take.
    pub max_runs: usize,
    /// ε of the plan's "unchanged", in percent (two-version plans).
    pub equivalence_pct: Option<f64>,
    /// A constant plan of several versions: a candidate reference, with no cap and no elimination.
    pub constant: bool,
}

/// What was simulated, beyond the plans and the settings.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SimulationDesign {
    /// BASE against HEAD, one setting per true change.
    TwoVersions,
    /// Races of several versions: one setting.
    Versions {
        /// R, the versions per problem.
        versions: usize,
        /// θ, in percent: a pick whose true time is this much or more above the best's is a failure.
        theta_pct: f64,
    },
    /// Bisections, one plan, one setting per true slowdown.
    Bisections {
        /// Commits on the path after GOOD.
        commits: usize,
        /// The confidence each comparison was made at.
        comparison_confidence: f64,
        /// The looks of each comparison, runs per side.
        looks: Vec<u32>,
        /// The smallest slowdown a step counts, in % (the command's `--threshold`).
        threshold_pct: f64,
    },
}

/// Everything one simulation found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Simulated {
    /// What was simulated.
    pub design: SimulationDesign,
    /// Where the runs came from, in words.
    pub source: String,
    /// The confidence level 1 − alpha of the project's plans (of a commit named, for bisections).
    pub confidence: f64,
    /// How many replicates (benchmarks, problems, bisections) each setting replayed.
    pub replicates: usize,
    /// The plans compared, in the output's order (none named for bisections).
    pub plans: Vec<NamedPlan>,
    /// One per setting, each with one tally per plan.
    pub settings: Vec<Setting>,
}

/// The terminal text.
pub(crate) fn table(s: &Simulated) -> String {
    match &s.design {
        SimulationDesign::TwoVersions => two_versions_table(s),
        SimulationDesign::Versions {
            versions,
            theta_pct,
        } => versions_table(s, *versions, *theta_pct),
        SimulationDesign::Bisections {
            commits,
            comparison_confidence,
            looks,
            threshold_pct,
        } => bisections_table(s, *commits, *comparison_confidence, looks, *threshold_pct),
    }
}

/// The JSON text (pretty-printed, newline-terminated).
pub(crate) fn json(s: &Simulated) -> String {
    let mut text = match &s.design {
        SimulationDesign::TwoVersions => serde_json::to_string_pretty(&two_versions_wire(s)),
        SimulationDesign::Versions {
            versions,
            theta_pct,
        } => serde_json::to_string_pretty(&versions_wire(s, *versions, *theta_pct)),
        SimulationDesign::Bisections {
            commits,
            comparison_confidence,
            looks,
            ..
        } => serde_json::to_string_pretty(&bisections_wire(
            s,
            *commits,
            *comparison_confidence,
            looks,
        )),
    }
    .expect("serialisable");
    // Numbers and fixed labels only, but through the one JSON sink all the same.
    text = crate::inert::json(&text).into_owned();
    text.push('\n');
    text
}

/// A table of `rows` under `header`, every column but the first aligned right: every table of the
/// simulations.
fn grid(header: Vec<String>, rows: Vec<Vec<String>>) -> String {
    let mut table = Table::new();
    table
        .load_style(TableStyle::new().header_separator(LineStyle::none().fill('─')))
        .force_no_tty()
        .set_header(header);
    for row in rows {
        table.add_row(row);
    }
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    table.trim_fmt()
}

fn words(header: &[&str]) -> Vec<String> {
    header.iter().map(|h| h.to_string()).collect()
}

/// Rates to 2 decimals of a percent: the wrong ones are small.
fn rate(fraction: f64) -> String {
    format::percent_to(fraction, 2)
}

/// Savings to whole percents; `-` where there is no reference to save against.
fn saving(fraction: Option<f64>) -> String {
    fraction.map_or(format::MISSING.into(), |f| format::percent_to(f, 0))
}

/// The plans' names and sentences, one line each.
fn legend(plans: &[NamedPlan]) -> String {
    plans
        .iter()
        .map(|p| format!("  {:<20} {}\n", p.name, p.description))
        .collect()
}

// Two versions.

/// The index of the plan savings are measured against: "fixed 10".
fn fixed_10(s: &Simulated) -> Option<usize> {
    s.plans.iter().position(|p| p.name == "fixed 10")
}

/// Each plan's mean runs per side over all settings, in equal shares.
fn mix(s: &Simulated) -> Vec<f64> {
    (0..s.plans.len())
        .map(|i| {
            let runs: usize = s.settings.iter().map(|x| x.tallies[i].runs).sum();
            let count: usize = s.settings.iter().map(|x| x.tallies[i].replicates).sum();
            runs as f64 / count.max(1) as f64
        })
        .collect()
}

fn saving_against(runs: f64, reference: Option<f64>) -> Option<f64> {
    reference.map(|r| 1.0 - runs / r)
}

fn mean_runs(t: &Tally) -> f64 {
    t.per_replicate(t.runs)
}

fn two_versions_table(s: &Simulated) -> String {
    let mut out = format!(
        "Simulated: {} benchmarks per setting from {}; confidence {} for the project's plans.\n\nPlans:\n",
        s.replicates, s.source, s.confidence
    );
    out.push_str(&legend(&s.plans));
    let reference = fixed_10(s);
    let header = words(&[
        "plan",
        "wrong faster",
        "wrong slower",
        "wrong unchanged",
        "correct",
        "inconclusive",
        "runs/side",
        "saving vs fixed 10",
    ]);
    for setting in &s.settings {
        let change = setting.change_pct;
        let what = match change {
            c if c > 0.0 => "HEAD slower",
            c if c < 0.0 => "HEAD faster",
            _ => "unchanged code",
        };
        out.push_str(&format!(
            "\nTrue change {change:+} % ({what}), seed {}:\n",
            setting.seed
        ));
        let reference_runs = reference.map(|r| mean_runs(&setting.tallies[r]));
        let rows = s
            .plans
            .iter()
            .zip(&setting.tallies)
            .map(|(p, t)| {
                let mut row = vec![p.name.clone()];
                row.extend(
                    [
                        Kind::WrongFaster,
                        Kind::WrongSlower,
                        Kind::WrongUnchanged,
                        Kind::Correct,
                        Kind::Inconclusive,
                    ]
                    .map(|kind| rate(t.share(kind))),
                );
                row.push(format::decimals(mean_runs(t), 2));
                row.push(saving(saving_against(mean_runs(t), reference_runs)));
                row
            })
            .collect();
        out.push_str(&grid(header.clone(), rows));
        out.push('\n');
    }
    if s.settings.len() > 1 {
        let mix = mix(s);
        let reference_runs = reference.map(|r| mix[r]);
        let changes: Vec<String> = s
            .settings
            .iter()
            .map(|x| format!("{:+} %", x.change_pct))
            .collect();
        out.push_str(&format!(
            "\nA mix of the settings in equal shares ({}): runs per side\n",
            changes.join(", ")
        ));
        for (p, runs) in s.plans.iter().zip(&mix) {
            out.push_str(&format!(
                "  {:<20} {:>6}   saving vs fixed 10: {}\n",
                p.name,
                format::decimals(*runs, 2),
                saving(saving_against(*runs, reference_runs))
            ));
        }
    }
    out.push_str(
        "\nWrong faster: \"faster\" while HEAD is not faster; wrong slower: \"slower\" while HEAD is not \
         slower; wrong unchanged: \"unchanged\" while the true change is the plan's ε or more; correct: \
         neither wrong nor inconclusive.\n",
    );
    out
}

#[derive(Serialize)]
struct SimulationWire<'a> {
    schema: &'static str,
    source: &'a str,
    confidence: f64,
    benchmarks: usize,
    plans: Vec<PlanWire<'a>>,
    settings: Vec<SettingWire<'a>>,
    mix: Vec<MixWire<'a>>,
}

#[derive(Serialize)]
struct PlanWire<'a> {
    name: &'a str,
    description: &'a str,
    equivalence_pct: Option<f64>,
    max_runs: usize,
}

#[derive(Serialize)]
struct SettingWire<'a> {
    change_pct: f64,
    seed: u64,
    plans: Vec<TallyWire<'a>>,
}

#[derive(Serialize)]
struct TallyWire<'a> {
    plan: &'a str,
    benchmarks: usize,
    wrong_faster: usize,
    wrong_slower: usize,
    wrong_unchanged: usize,
    correct: usize,
    inconclusive: usize,
    mean_runs: f64,
    saving_vs_fixed_10: Option<f64>,
}

#[derive(Serialize)]
struct MixWire<'a> {
    plan: &'a str,
    mean_runs: f64,
    saving_vs_fixed_10: Option<f64>,
}

fn two_versions_wire(s: &Simulated) -> SimulationWire<'_> {
    let reference = fixed_10(s);
    let mix = mix(s);
    SimulationWire {
        schema: SCHEMA,
        source: &s.source,
        confidence: s.confidence,
        benchmarks: s.replicates,
        plans: s
            .plans
            .iter()
            .map(|p| PlanWire {
                name: &p.name,
                description: &p.description,
                equivalence_pct: p.equivalence_pct,
                max_runs: p.max_runs,
            })
            .collect(),
        settings: s
            .settings
            .iter()
            .map(|setting| {
                let reference_runs = reference.map(|r| mean_runs(&setting.tallies[r]));
                SettingWire {
                    change_pct: setting.change_pct,
                    seed: setting.seed,
                    plans: s
                        .plans
                        .iter()
                        .zip(&setting.tallies)
                        .map(|(p, t)| TallyWire {
                            plan: &p.name,
                            benchmarks: t.replicates,
                            wrong_faster: t.count(Kind::WrongFaster),
                            wrong_slower: t.count(Kind::WrongSlower),
                            wrong_unchanged: t.count(Kind::WrongUnchanged),
                            correct: t.count(Kind::Correct),
                            inconclusive: t.count(Kind::Inconclusive),
                            mean_runs: mean_runs(t),
                            saving_vs_fixed_10: saving_against(mean_runs(t), reference_runs),
                        })
                        .collect(),
                }
            })
            .collect(),
        mix: s
            .plans
            .iter()
            .zip(&mix)
            .map(|(p, runs)| MixWire {
                plan: &p.name,
                mean_runs: *runs,
                saving_vs_fixed_10: saving_against(*runs, reference.map(|r| mix[r])),
            })
            .collect(),
    }
}

// Several versions.

/// The one setting of a race of several versions (its problems draw their own truth).
fn only(s: &Simulated) -> Option<&Setting> {
    s.settings.first()
}

fn tallies(s: &Simulated) -> &[Tally] {
    only(s).map_or(&[], |setting| &setting.tallies)
}

/// The constant plan of fewest runs whose failure rate is under [`TARGET_FAILURE`].
fn first_constant(s: &Simulated) -> Option<usize> {
    s.plans
        .iter()
        .zip(tallies(s))
        .enumerate()
        .filter(|(_, (p, t))| p.constant && t.share(Kind::Failure) < TARGET_FAILURE)
        .min_by_key(|(_, (p, _))| p.max_runs)
        .map(|(i, _)| i)
}

/// Plan `i`'s mean runs per version.
fn runs_per_version(s: &Simulated, versions: usize, i: usize) -> f64 {
    let t = &tallies(s)[i];
    t.runs as f64 / (t.replicates.max(1) * versions.max(1)) as f64
}

fn saving_per_version(s: &Simulated, versions: usize, i: usize) -> Option<f64> {
    first_constant(s)
        .map(|r| 1.0 - runs_per_version(s, versions, i) / runs_per_version(s, versions, r))
}

fn versions_table(s: &Simulated, versions: usize, theta_pct: f64) -> String {
    let seed = only(s).map_or(0, |setting| setting.seed);
    let mut out = format!(
        "Simulated: {} problems of {} versions from {}; seed {}; confidence {} for the project's race.\n\
         Versions per problem: one best, the others near-ties (< 0.5 % slower) 10 %, 0.5 to 2 % slower \
         15 %, 2 to 5 % 10 %, 5 to 50 % otherwise.\n\nPlans:\n",
        s.replicates, versions, s.source, seed, s.confidence
    );
    out.push_str(&legend(&s.plans));
    let reference = first_constant(s);
    let saving_header = match reference {
        Some(r) => format!("saving vs {}", s.plans[r].name),
        None => "saving".to_string(),
    };
    let header = vec![
        "plan".to_string(),
        "failures".to_string(),
        "runs/version".to_string(),
        saving_header,
        "at the cap".to_string(),
        "best eliminated".to_string(),
    ];
    let rows = s
        .plans
        .iter()
        .zip(tallies(s))
        .enumerate()
        .map(|(i, (p, t))| {
            let or_dash = |kind| {
                if p.constant {
                    "-".to_string()
                } else {
                    rate(t.share(kind))
                }
            };
            vec![
                p.name.clone(),
                rate(t.share(Kind::Failure)),
                format::decimals(runs_per_version(s, versions, i), 2),
                saving(saving_per_version(s, versions, i)),
                or_dash(Kind::Capped),
                or_dash(Kind::BestOut),
            ]
        })
        .collect();
    out.push('\n');
    out.push_str(&grid(header, rows));
    out.push('\n');
    out.push_str(&match reference {
        Some(r) => format!(
            "\n{} is the first constant plan failing in under {} % of the problems: savings are against it.\n",
            s.plans[r].name,
            100.0 * TARGET_FAILURE
        ),
        None => format!(
            "\nNo constant plan fails in under {} % of the problems: no saving is shown.\n",
            100.0 * TARGET_FAILURE
        ),
    });
    out.push_str(&format!(
        "Failures: the pick's true time is {theta_pct} % or more above the best's (best / pick <= 1 - θ); at \
         the cap: stopped by the cap with several survivors; best eliminated: the truly fastest version is \
         not among the final survivors (the project's race bounds this by alpha).\n",
    ));
    out
}

#[derive(Serialize)]
struct VersionsWire<'a> {
    schema: &'static str,
    source: &'a str,
    confidence: f64,
    versions: usize,
    problems: usize,
    theta_pct: f64,
    seed: u64,
    target_failure: f64,
    reference: Option<&'a str>,
    plans: Vec<VersionsPlanWire<'a>>,
}

#[derive(Serialize)]
struct VersionsPlanWire<'a> {
    name: &'a str,
    description: &'a str,
    max_runs: usize,
    problems: usize,
    failures: usize,
    capped: usize,
    best_eliminated: usize,
    runs_per_version: f64,
    saving_vs_reference: Option<f64>,
}

fn versions_wire(s: &Simulated, versions: usize, theta_pct: f64) -> VersionsWire<'_> {
    VersionsWire {
        schema: VERSIONS_SCHEMA,
        source: &s.source,
        confidence: s.confidence,
        versions,
        problems: s.replicates,
        theta_pct,
        seed: only(s).map_or(0, |setting| setting.seed),
        target_failure: TARGET_FAILURE,
        reference: first_constant(s).map(|r| s.plans[r].name.as_str()),
        plans: s
            .plans
            .iter()
            .zip(tallies(s))
            .enumerate()
            .map(|(i, (p, t))| VersionsPlanWire {
                name: &p.name,
                description: &p.description,
                max_runs: p.max_runs,
                problems: t.replicates,
                failures: t.count(Kind::Failure),
                capped: t.count(Kind::Capped),
                best_eliminated: t.count(Kind::BestOut),
                runs_per_version: runs_per_version(s, versions, i),
                saving_vs_reference: saving_per_version(s, versions, i),
            })
            .collect(),
    }
}

// Bisections.

/// The bisections' tally of each setting: its one plan.
fn bisections(s: &Simulated) -> impl Iterator<Item = (&Setting, &Tally)> {
    s.settings
        .iter()
        .filter_map(|setting| setting.tallies.first().map(|t| (setting, t)))
}

fn bisections_table(
    s: &Simulated,
    commits: usize,
    comparison_confidence: f64,
    looks: &[u32],
    threshold_pct: f64,
) -> String {
    let looks: Vec<String> = looks.iter().map(u32::to_string).collect();
    let threshold = format::percent_value(threshold_pct);
    let mut out = format!(
        "Simulated bisections of {commits} commits, one slowdown at a commit drawn uniformly, from {}; \
         confidence {} for the commit named, each comparison at {} with looks after {} runs per side; a \
         step counts a slowdown of {threshold} or more (--threshold).\n\n",
        s.source,
        s.confidence,
        format::decimals(comparison_confidence, 4),
        looks.join(", ")
    );
    let header = words(&[
        "slowdown",
        "bisections",
        "right",
        "wrong",
        "interval",
        "nothing",
        "steps",
        "comparisons",
        "runs/side",
    ]);
    let rows = bisections(s)
        .map(|(setting, t)| {
            let mut row = vec![
                format!("{} % (seed {})", setting.change_pct, setting.seed),
                t.replicates.to_string(),
            ];
            row.extend(
                [Kind::Right, Kind::Wrong, Kind::Interval, Kind::Nothing]
                    .map(|kind| rate(t.share(kind))),
            );
            row.push(format::decimals(t.per_replicate(t.steps), 2));
            row.push(format::decimals(t.per_replicate(t.comparisons), 2));
            row.push(format::decimals(t.per_replicate(t.runs), 1));
            row
        })
        .collect();
    out.push_str(&grid(header, rows));
    out.push_str(&format!(
        "\n\nRight: the commit that made the change named; wrong: another commit named (every commit named \
         at a 0 % slowdown); interval: stopped with commits left (an undecided step); nothing: stopped at \
         the initial check, GOOD against BAD not shown slower by {threshold} or more. Steps: midpoints \
         measured; comparisons: the initial check included; runs/side: summed over a bisection's \
         comparisons. Every step runs (no identical executables, no skipped commit).\n",
    ));
    out
}

#[derive(Serialize)]
struct BisectionsWire<'a> {
    schema: &'static str,
    source: &'a str,
    confidence: f64,
    comparison_confidence: f64,
    commits: usize,
    looks: &'a [u32],
    settings: Vec<BisectionsSettingWire>,
}

#[derive(Serialize)]
struct BisectionsSettingWire {
    change_pct: f64,
    seed: u64,
    bisections: usize,
    right: f64,
    wrong: f64,
    interval: f64,
    nothing: f64,
    mean_steps: f64,
    mean_comparisons: f64,
    mean_runs_per_side: f64,
}

fn bisections_wire<'a>(
    s: &'a Simulated,
    commits: usize,
    comparison_confidence: f64,
    looks: &'a [u32],
) -> BisectionsWire<'a> {
    BisectionsWire {
        schema: BISECT_SCHEMA,
        source: &s.source,
        confidence: s.confidence,
        comparison_confidence,
        commits,
        looks,
        settings: bisections(s)
            .map(|(setting, t)| BisectionsSettingWire {
                change_pct: setting.change_pct,
                seed: setting.seed,
                bisections: t.replicates,
                right: t.share(Kind::Right),
                wrong: t.share(Kind::Wrong),
                interval: t.share(Kind::Interval),
                nothing: t.share(Kind::Nothing),
                mean_steps: t.per_replicate(t.steps),
                mean_comparisons: t.per_replicate(t.comparisons),
                mean_runs_per_side: t.per_replicate(t.runs),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::harness::Decided;

    fn bisected() -> Simulated {
        let mut tally = Tally::default();
        for (kind, steps) in [
            (Kind::Right, 4),
            (Kind::Right, 4),
            (Kind::Wrong, 3),
            (Kind::Interval, 3),
        ] {
            tally.add(&Decided::after(50).searching(steps, 5).counting(kind, true));
        }
        Simulated {
            design: SimulationDesign::Bisections {
                commits: 16,
                comparison_confidence: 1.0 - 0.05 / 9.0,
                looks: vec![8, 16, 32],
                threshold_pct: 2.0,
            },
            source: "the model".into(),
            confidence: 0.95,
            replicates: 4,
            plans: vec![],
            settings: vec![Setting {
                change_pct: 5.0,
                seed: 1,
                tallies: vec![tally],
            }],
        }
    }

    #[test]
    fn the_bisections_table_shows_shares_and_means_per_bisection() {
        let text = table(&bisected());
        assert!(
            text.starts_with(
                "Simulated bisections of 16 commits, one slowdown at a commit drawn uniformly, from the \
                 model; confidence 0.95 for the commit named, each comparison at 0.9944 with looks after 8, \
                 16, 32 runs per side; a step counts a slowdown of 2% or more (--threshold)."
            ),
            "{text}"
        );
        let row = text.lines().find(|l| l.contains("5 % (seed 1)")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells[4..],
            [
                "4", "50.00%", "25.00%", "25.00%", "0.00%", "3.50", "5.00", "50.0"
            ],
            "{text}"
        );
    }

    #[test]
    fn the_bisections_json_has_its_schema_and_the_rates() {
        let value: serde_json::Value = serde_json::from_str(&json(&bisected())).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-bisect-simulation/1");
        assert_eq!(value["commits"], 16);
        assert_eq!(value["settings"][0]["right"], 0.5);
        assert_eq!(value["settings"][0]["mean_steps"], 3.5);
        assert_eq!(value["settings"][0]["mean_runs_per_side"], 50.0);
    }

    /// A tally of `replicates` replicates, `counted` of which count `kind`, with `runs` runs in all.
    fn tally(replicates: usize, kind: Kind, counted: usize, runs: usize) -> Tally {
        let mut t = Tally::default();
        for i in 0..replicates {
            let each = runs / replicates + usize::from(i < runs % replicates);
            t.add(&Decided::after(each).counting(kind, i < counted));
        }
        t
    }

    fn plan(name: &str, max_runs: usize, constant: bool) -> NamedPlan {
        NamedPlan {
            name: name.into(),
            description: format!("what {name} does"),
            max_runs,
            equivalence_pct: Some(2.0),
            constant,
        }
    }

    #[test]
    fn savings_of_several_versions_are_against_the_first_constant_plan_under_one_percent() {
        // 100 problems of 2 versions: constant 5 fails in 2 %, constant 10 in none, the race takes 5 runs
        // per version, half of constant 10's 10.
        let s = Simulated {
            design: SimulationDesign::Versions {
                versions: 2,
                theta_pct: 0.5,
            },
            source: "the model".into(),
            confidence: 0.95,
            replicates: 100,
            plans: vec![
                plan("race 7/14", 14, false),
                plan("constant 5", 5, true),
                plan("constant 10", 10, true),
            ],
            settings: vec![Setting {
                change_pct: 0.0,
                seed: 3,
                tallies: vec![
                    tally(100, Kind::Capped, 40, 1000),
                    tally(100, Kind::Failure, 2, 500),
                    tally(100, Kind::Failure, 0, 2000),
                ],
            }],
        };
        let text = table(&s);
        assert!(text.contains("; seed 3; confidence 0.95"), "{text}");
        assert!(text.contains("saving vs constant 10"), "{text}");
        let row = |name: &str| -> Vec<String> {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(name) && l.contains('%'));
            line.unwrap().split_whitespace().map(String::from).collect()
        };
        assert_eq!(
            row("race 7/14")[2..],
            ["0.00%", "5.00", "50%", "40.00%", "0.00%"]
        );
        assert_eq!(row("constant 5")[2..], ["2.00%", "2.50", "75%", "-", "-"]);
        let value: serde_json::Value = serde_json::from_str(&json(&s)).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-simulation-versions/1");
        assert_eq!(value["reference"], "constant 10");
        assert_eq!(value["plans"][0]["capped"], 40);
        assert_eq!(value["plans"][0]["saving_vs_reference"], 0.5);
    }

    #[test]
    fn two_versions_show_each_setting_and_the_mix_against_fixed_10() {
        // Two settings of 10 benchmarks: the race takes 5 then 15 runs per side, fixed 10 always 10.
        let setting = |change_pct, seed, race_runs| Setting {
            change_pct,
            seed,
            tallies: vec![
                tally(10, Kind::WrongFaster, 1, race_runs),
                tally(10, Kind::Correct, 10, 100),
            ],
        };
        let s = Simulated {
            design: SimulationDesign::TwoVersions,
            source: "the model".into(),
            confidence: 0.95,
            replicates: 10,
            plans: vec![
                plan("sequential 5/10", 10, false),
                plan("fixed 10", 10, false),
            ],
            settings: vec![setting(0.0, 1, 50), setting(5.0, 2, 150)],
        };
        let text = table(&s);
        assert!(
            text.contains("True change +0 % (unchanged code), seed 1:"),
            "{text}"
        );
        assert!(
            text.contains("True change +5 % (HEAD slower), seed 2:"),
            "{text}"
        );
        assert!(
            text.contains("  sequential 5/10       10.00   saving vs fixed 10: 0%"),
            "{text}"
        );
        let value: serde_json::Value = serde_json::from_str(&json(&s)).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-simulation/1");
        let first = &value["settings"][0]["plans"][0];
        assert_eq!(
            (first["wrong_faster"].as_u64(), first["correct"].as_u64()),
            (Some(1), Some(0))
        );
        assert_eq!(first["saving_vs_fixed_10"], 0.5);
        assert_eq!(value["settings"][1]["plans"][0]["saving_vs_fixed_10"], -0.5);
        assert_eq!(value["plans"][0]["equivalence_pct"], 2.0);
    }
}
