//! The figures of `cargo speedup simulate` -> text: per setting (true change), one row per plan with its
//! wrong "faster", wrong "slower" and wrong "unchanged" rates, correct decisions, inconclusive ones, mean
//! runs per side and the saving against the fixed plan of 10 runs; then the saving on a mix of the settings
//! in equal shares. JSON through wire structs carrying `"schema": "cargo-speedup-simulation/1"`.
//!
//! It only presents what the tallies hold; no figure is computed here beyond a share of counts.

use comfy_table::{CellAlignment, LineStyle, Table, TableStyle};
use serde::Serialize;

use crate::simulation::two_versions::{SamplingPlan, Tally};

/// The JSON schema of the simulation output.
pub const SCHEMA: &str = "cargo-speedup-simulation/1";

/// A plan with the name and the sentence the output shows for it.
#[derive(Debug, Clone)]
pub struct NamedPlan {
    /// The plan's short name, as the table's row label (e.g. "fixed 10").
    pub name: String,
    /// One sentence saying what the plan does.
    pub description: String,
    /// The plan replayed.
    pub plan: SamplingPlan,
}

/// The tallies of one setting, one per plan in the order of [`Simulated::plans`].
#[derive(Debug, Clone)]
pub struct Setting {
    /// The true change of HEAD's time, in percent.
    pub change_pct: f64,
    /// The seed this setting's benchmarks were drawn from (`--seed` + k).
    pub seed: u64,
    /// One tally per plan, in the order of [`Simulated::plans`].
    pub tallies: Vec<Tally>,
}

/// Everything one simulation found.
#[derive(Debug, Clone)]
pub struct Simulated {
    /// Where the runs came from, in words.
    pub source: String,
    /// The confidence level 1 − alpha of the project's plans.
    pub confidence: f64,
    /// How many benchmarks each setting simulated.
    pub benchmarks: usize,
    /// The plans compared, in the output's order.
    pub plans: Vec<NamedPlan>,
    /// One per `--change`, in the order given.
    pub settings: Vec<Setting>,
}

impl Simulated {
    /// The index of the plan savings are measured against: "fixed 10".
    fn reference(&self) -> Option<usize> {
        self.plans.iter().position(|p| p.name == "fixed 10")
    }

    /// Each plan's mean runs per side over all settings, in equal shares.
    fn mix(&self) -> Vec<f64> {
        (0..self.plans.len())
            .map(|i| {
                let runs: usize = self.settings.iter().map(|s| s.tallies[i].runs).sum();
                let count: usize = self.settings.iter().map(|s| s.tallies[i].benchmarks).sum();
                runs as f64 / count.max(1) as f64
            })
            .collect()
    }

    fn saving(&self, runs: f64, reference: Option<f64>) -> Option<f64> {
        reference.map(|r| 1.0 - runs / r)
    }
}

const HEADER: [&str; 8] = [
    "plan",
    "wrong faster",
    "wrong slower",
    "wrong unchanged",
    "correct",
    "inconclusive",
    "runs/side",
    "saving vs fixed 10",
];

/// Rates to 2 decimals of a percent: the wrong ones are small.
pub(super) fn rate(fraction: f64) -> String {
    format!("{:.2}%", 100.0 * fraction)
}

fn saving(fraction: Option<f64>) -> String {
    fraction.map_or("-".into(), |f| format!("{:.0}%", 100.0 * f))
}

fn table_of(rows: Vec<Vec<String>>) -> String {
    table_with(&HEADER, rows)
}

/// A table of `rows` under `header`, every column but the first aligned right.
pub(super) fn table_with(header: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut table = Table::new();
    table
        .load_style(TableStyle::new().header_separator(LineStyle::none().fill('─')))
        .force_no_tty()
        .set_header(header.to_vec());
    for row in rows {
        table.add_row(row);
    }
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    table.trim_fmt()
}

/// The terminal text.
pub fn table(s: &Simulated) -> String {
    let mut out = format!(
        "Simulated: {} benchmarks per setting from {}; confidence {} for the project's plans.\n\nPlans:\n",
        s.benchmarks, s.source, s.confidence
    );
    for p in &s.plans {
        out.push_str(&format!("  {:<20} {}\n", p.name, p.description));
    }
    let reference = s.reference();
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
        let reference_runs = reference.map(|r| setting.tallies[r].mean_runs());
        let rows = s
            .plans
            .iter()
            .zip(&setting.tallies)
            .map(|(p, t)| {
                vec![
                    p.name.clone(),
                    rate(t.rate(t.wrong_faster)),
                    rate(t.rate(t.wrong_slower)),
                    rate(t.rate(t.wrong_unchanged)),
                    rate(t.rate(t.correct())),
                    rate(t.rate(t.inconclusive)),
                    format!("{:.2}", t.mean_runs()),
                    saving(s.saving(t.mean_runs(), reference_runs)),
                ]
            })
            .collect();
        out.push_str(&table_of(rows));
        out.push('\n');
    }
    if s.settings.len() > 1 {
        let mix = s.mix();
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
                "  {:<20} {runs:>6.2}   saving vs fixed 10: {}\n",
                p.name,
                saving(s.saving(*runs, reference_runs))
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
    equivalence_pct: f64,
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

/// The JSON text (pretty-printed, newline-terminated).
pub fn json(s: &Simulated) -> String {
    let reference = s.reference();
    let mix = s.mix();
    let wire = SimulationWire {
        schema: SCHEMA,
        source: &s.source,
        confidence: s.confidence,
        benchmarks: s.benchmarks,
        plans: s
            .plans
            .iter()
            .map(|p| PlanWire {
                name: &p.name,
                description: &p.description,
                equivalence_pct: p.plan.equivalence_pct(),
                max_runs: p.plan.max_runs(),
            })
            .collect(),
        settings: s
            .settings
            .iter()
            .map(|setting| {
                let reference_runs = reference.map(|r| setting.tallies[r].mean_runs());
                SettingWire {
                    change_pct: setting.change_pct,
                    seed: setting.seed,
                    plans: s
                        .plans
                        .iter()
                        .zip(&setting.tallies)
                        .map(|(p, t)| TallyWire {
                            plan: &p.name,
                            benchmarks: t.benchmarks,
                            wrong_faster: t.wrong_faster,
                            wrong_slower: t.wrong_slower,
                            wrong_unchanged: t.wrong_unchanged,
                            correct: t.correct(),
                            inconclusive: t.inconclusive,
                            mean_runs: t.mean_runs(),
                            saving_vs_fixed_10: s.saving(t.mean_runs(), reference_runs),
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
                saving_vs_fixed_10: s.saving(*runs, reference.map(|r| mix[r])),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&wire).expect("serialisable");
    text.push('\n');
    text
}
