//! The figures of `cargo speedup simulate --versions R` -> text: one row per plan with its failure rate
//! (picks worse than the true best by θ or more), mean runs per version, the saving against the constant
//! plan that first fails in under 1 % of the problems, the problems it ended at its cap, and those whose
//! truly fastest version it eliminated. JSON through wire structs carrying
//! `"schema": "cargo-speedup-simulation-versions/1"`.
//!
//! It only presents what the tallies hold; no figure is computed here beyond a share of counts.

use comfy_table::{CellAlignment, LineStyle, Table, TableStyle};
use serde::Serialize;

use crate::simulation::several_versions::{SeveralPlan, Tally};

/// The JSON schema of the several-version simulation output.
pub const SCHEMA: &str = "cargo-speedup-simulation-versions/1";
/// The failure rate the reference constant plan must stay under (paper 002's "first point with a mean
/// failure rate < 1 %").
pub const TARGET_FAILURE: f64 = 0.01;

/// A plan with the name and the sentence the output shows for it.
#[derive(Debug, Clone)]
pub struct SeveralNamed {
    /// The plan's short name, as the table's row label.
    pub name: String,
    /// One sentence saying what the plan does.
    pub description: String,
    /// The plan replayed.
    pub plan: SeveralPlan,
}

/// Everything one simulation of races found.
#[derive(Debug, Clone)]
pub struct SimulatedRaces {
    /// Where the runs came from, in words.
    pub source: String,
    /// The confidence level 1 − alpha of the project's races.
    pub confidence: f64,
    /// R, the versions per problem.
    pub versions: usize,
    /// How many problems each plan was replayed on.
    pub problems: usize,
    /// θ, in percent: a pick whose true time is this much or more above the best's is a failure.
    pub theta_pct: f64,
    /// The seed the problems were drawn from.
    pub seed: u64,
    /// The plans compared, in the output's order.
    pub plans: Vec<SeveralNamed>,
    /// One per plan, in their order.
    pub tallies: Vec<Tally>,
}

impl SimulatedRaces {
    /// The constant plan of fewest runs whose failure rate is under [`TARGET_FAILURE`].
    fn reference(&self) -> Option<usize> {
        self.plans
            .iter()
            .zip(&self.tallies)
            .enumerate()
            .filter(|(_, (p, t))| {
                matches!(p.plan, SeveralPlan::Constant(_)) && t.rate(t.failures) < TARGET_FAILURE
            })
            .min_by_key(|(_, (p, _))| p.plan.max_runs())
            .map(|(i, _)| i)
    }

    fn runs(&self, i: usize) -> f64 {
        self.tallies[i].runs_per_version(self.versions)
    }

    fn saving(&self, i: usize) -> Option<f64> {
        self.reference().map(|r| 1.0 - self.runs(i) / self.runs(r))
    }
}

fn rate(fraction: f64) -> String {
    format!("{:.2}%", 100.0 * fraction)
}

/// The terminal text.
pub fn table(s: &SimulatedRaces) -> String {
    let mut out = format!(
        "Simulated: {} problems of {} versions from {}; seed {}; confidence {} for the project's race.\n\
         Versions per problem: one best, the others near-ties (< 0.5 % slower) 10 %, 0.5 to 2 % slower \
         15 %, 2 to 5 % 10 %, 5 to 50 % otherwise.\n\nPlans:\n",
        s.problems, s.versions, s.source, s.seed, s.confidence
    );
    for p in &s.plans {
        out.push_str(&format!("  {:<20} {}\n", p.name, p.description));
    }
    let reference = s.reference();
    let saving_header = match reference {
        Some(r) => format!("saving vs {}", s.plans[r].name),
        None => "saving".to_string(),
    };
    let mut table = Table::new();
    table
        .load_style(TableStyle::new().header_separator(LineStyle::none().fill('─')))
        .force_no_tty()
        .set_header(vec![
            "plan".to_string(),
            "failures".to_string(),
            "runs/version".to_string(),
            saving_header,
            "at the cap".to_string(),
            "best eliminated".to_string(),
        ]);
    for (i, (p, t)) in s.plans.iter().zip(&s.tallies).enumerate() {
        let constant = matches!(p.plan, SeveralPlan::Constant(_));
        let or_dash = |count: usize| {
            if constant {
                "-".to_string()
            } else {
                rate(t.rate(count))
            }
        };
        table.add_row(vec![
            p.name.clone(),
            rate(t.rate(t.failures)),
            format!("{:.2}", s.runs(i)),
            s.saving(i)
                .map_or("-".into(), |f| format!("{:.0}%", 100.0 * f)),
            or_dash(t.capped),
            or_dash(t.best_out),
        ]);
    }
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    out.push('\n');
    out.push_str(&table.trim_fmt());
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
        "Failures: the pick's true time is {} % or more above the best's (best / pick <= 1 - θ); at the \
         cap: stopped by the cap with several survivors; best eliminated: the truly fastest version is not \
         among the final survivors (the project's race bounds this by alpha).\n",
        s.theta_pct
    ));
    out
}

#[derive(Serialize)]
struct Wire<'a> {
    schema: &'static str,
    source: &'a str,
    confidence: f64,
    versions: usize,
    problems: usize,
    theta_pct: f64,
    seed: u64,
    target_failure: f64,
    reference: Option<&'a str>,
    plans: Vec<PlanWire<'a>>,
}

#[derive(Serialize)]
struct PlanWire<'a> {
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

/// The JSON text (pretty-printed, newline-terminated).
pub fn json(s: &SimulatedRaces) -> String {
    let reference = s.reference();
    let wire = Wire {
        schema: SCHEMA,
        source: &s.source,
        confidence: s.confidence,
        versions: s.versions,
        problems: s.problems,
        theta_pct: s.theta_pct,
        seed: s.seed,
        target_failure: TARGET_FAILURE,
        reference: reference.map(|r| s.plans[r].name.as_str()),
        plans: s
            .plans
            .iter()
            .zip(&s.tallies)
            .enumerate()
            .map(|(i, (p, t))| PlanWire {
                name: &p.name,
                description: &p.description,
                max_runs: p.plan.max_runs(),
                problems: t.problems,
                failures: t.failures,
                capped: t.capped,
                best_eliminated: t.best_out,
                runs_per_version: s.runs(i),
                saving_vs_reference: s.saving(i),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&wire).expect("serialisable");
    text.push('\n');
    text
}
